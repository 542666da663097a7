/* collectd-winperf. Copyright (c) 2026 the collectd-winperf authors.
 * SPDX-License-Identifier: MIT
 *
 * The service's log: collectd.log in the data directory, written by this
 * one writer (collectd's log callback, the service's own lines, and
 * stdout/stderr through a pipe), renamed to collectd.log.1 before a line
 * would take it past SVC_LOG_MAX_BYTES (three old files kept). The file is
 * opened with FILE_SHARE_DELETE and the writer renames it itself, so no
 * handle of the service keeps it from being rotated or deleted.
 *
 * The Application Event Log (source "collectd", registered by the MSI with
 * collectd-events.dll as its message file) gets the service's start, stop
 * and configuration messages and collectd's errors; one message at most
 * once per SVC_EVENT_REPEAT_MS, the repeats counted and reported with the
 * next record of that message or at stop. */
#include "plugin.h"
#include "svc.h"
#include "svc_messages.h"

#include <fcntl.h>
#include <io.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static CRITICAL_SECTION log_lock;
static bool lock_ready; /* svc_log_open ran: the lock and the Event Log */
static bool log_ready;  /* collectd.log is written (until svc_log_close) */
static HANDLE log_file = INVALID_HANDLE_VALUE;
static char log_path[MAX_PATH];
static ULONGLONG log_size;
static ULONGLONG rotate_after; /* GetTickCount64: next try after a failure */

static HANDLE stdio_pipe = NULL; /* read end */
static HANDLE stdio_thread = NULL;

#define RECENT_LINES 4
static char recent[RECENT_LINES][256];
static unsigned recent_next;

/* ------------------------------------------------------------ the file */

static void log_reopen_locked(void) {
  log_file = CreateFileA(log_path, FILE_APPEND_DATA,
                         FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         NULL, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
  LARGE_INTEGER size = {0};
  if (log_file != INVALID_HANDLE_VALUE && GetFileSizeEx(log_file, &size))
    log_size = (ULONGLONG)size.QuadPart;
  else
    log_size = 0;
}

/* collectd.log.2 -> .3, .1 -> .2, collectd.log -> .1, from the oldest so
 * nothing is overwritten that was not moved; a step that fails (a reader
 * holding a file without FILE_SHARE_DELETE) stops the rotation, and it is
 * tried again a minute later. */
static void log_rotate_locked(void) {
  if (log_file != INVALID_HANDLE_VALUE)
    CloseHandle(log_file);
  log_file = INVALID_HANDLE_VALUE;
  bool ok = true;
  for (int i = SVC_LOG_KEEP; i >= 1 && ok; i--) {
    char from[MAX_PATH + 8], to[MAX_PATH + 8];
    snprintf(to, sizeof(to), "%s.%d", log_path, i);
    if (i == 1)
      snprintf(from, sizeof(from), "%s", log_path);
    else
      snprintf(from, sizeof(from), "%s.%d", log_path, i - 1);
    if (!MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING) &&
        GetLastError() != ERROR_FILE_NOT_FOUND)
      ok = false;
  }
  log_reopen_locked();
  if (!ok)
    rotate_after = GetTickCount64() + 60000;
}

/* One line: "[time] [level] text\r\n", rotating first if it would not
 * fit. */
static void log_write(const char *level, const char *text) {
  SYSTEMTIME t;
  GetLocalTime(&t);
  char line[1200];
  int n = snprintf(line, sizeof(line),
                   "[%04u-%02u-%02u %02u:%02u:%02u] [%s] %s", t.wYear, t.wMonth,
                   t.wDay, t.wHour, t.wMinute, t.wSecond, level, text);
  if (n < 0)
    return;
  size_t len = (size_t)n < sizeof(line) - 2 ? (size_t)n : sizeof(line) - 3;
  while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
    len--;
  line[len++] = '\r';
  line[len++] = '\n';
  if (!lock_ready)
    return;
  EnterCriticalSection(&log_lock);
  if (!log_ready) {
    LeaveCriticalSection(&log_lock);
    return;
  }
  if (log_size > 0 && log_size + len > SVC_LOG_MAX_BYTES &&
      GetTickCount64() >= rotate_after)
    log_rotate_locked();
  if (log_file == INVALID_HANDLE_VALUE)
    log_reopen_locked();
  DWORD written = 0;
  if (log_file != INVALID_HANDLE_VALUE &&
      WriteFile(log_file, line, (DWORD)len, &written, NULL))
    log_size += written;
  LeaveCriticalSection(&log_lock);
}

static const char *level_name(int level) {
  switch (level) {
  case SVC_ERR:
    return "error";
  case SVC_WARNING:
    return "warning";
  case SVC_NOTICE:
    return "notice";
  case SVC_INFO:
    return "info";
  default:
    return level < SVC_ERR ? "error" : "debug";
  }
}

static void remember_error(const char *text) {
  if (!lock_ready)
    return;
  EnterCriticalSection(&log_lock);
  snprintf(recent[recent_next % RECENT_LINES], sizeof(recent[0]), "%s", text);
  recent_next++;
  LeaveCriticalSection(&log_lock);
}

void svc_log_recent_errors(char *out, size_t size) {
  out[0] = '\0';
  if (!lock_ready)
    return;
  EnterCriticalSection(&log_lock);
  unsigned first = recent_next > RECENT_LINES ? recent_next - RECENT_LINES : 0;
  size_t used = 0;
  for (unsigned i = first; i < recent_next && used + 1 < size; i++) {
    int n = snprintf(out + used, size - used, "%s%s", used > 0 ? " | " : "",
                     recent[i % RECENT_LINES]);
    if (n < 0)
      break;
    used += (size_t)n;
  }
  LeaveCriticalSection(&log_lock);
}

/* -------------------------------------------------------- the Event Log */

struct event_slot {
  uint64_t hash; /* of type and text; 0: free */
  ULONGLONG last;
  unsigned repeats; /* not reported since `last` */
  WORD type;
  char text[512];
};
#define EVENT_SLOTS 32
static struct event_slot events[EVENT_SLOTS];
static HANDLE event_source;

static uint64_t event_hash(WORD type, const char *text) {
  uint64_t h = 1469598103934665603ULL ^ type; /* FNV-1a */
  for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++)
    h = (h ^ *p) * 1099511628211ULL;
  return h != 0 ? h : 1;
}

static void event_write(WORD type, const char *text) {
  if (event_source == NULL)
    return;
  DWORD id = type == EVENTLOG_ERROR_TYPE     ? MSG_ERROR
             : type == EVENTLOG_WARNING_TYPE ? MSG_WARNING
                                             : MSG_INFO;
  const char *strings[1] = {text};
  ReportEventA(event_source, type, 0, id, NULL, 1, 0, strings, NULL);
}

/* The slot's text again, with how often it came since it was reported. */
static void event_write_repeats(struct event_slot *s) {
  char text[640];
  snprintf(text, sizeof(text),
           "%s (this message came %u more times since "
           "the record before, not recorded one by "
           "one)",
           s->text, s->repeats);
  event_write(s->type, text);
  s->repeats = 0;
}

static void event_report(WORD type, const char *text) {
  if (!lock_ready)
    return;
  uint64_t h = event_hash(type, text);
  ULONGLONG now = GetTickCount64();
  EnterCriticalSection(&log_lock);
  /* This message's slot, else a free one, else the one reported longest
   * ago. */
  struct event_slot *slot = NULL, *oldest = NULL;
  for (int i = 0; i < EVENT_SLOTS && slot == NULL; i++) {
    struct event_slot *e = &events[i];
    if (e->hash == h)
      slot = e;
    else if (oldest == NULL ||
             (oldest->hash != 0 && (e->hash == 0 || e->last < oldest->last)))
      oldest = e;
  }
  if (slot != NULL && now - slot->last < SVC_EVENT_REPEAT_MS) {
    slot->repeats++;
  } else if (slot != NULL) {
    if (slot->repeats > 0)
      event_write_repeats(slot);
    else
      event_write(type, text);
    slot->last = now;
  } else {
    if (oldest->hash != 0 && oldest->repeats > 0)
      event_write_repeats(oldest);
    oldest->hash = h;
    oldest->last = now;
    oldest->repeats = 0;
    oldest->type = type;
    snprintf(oldest->text, sizeof(oldest->text), "%s", text);
    event_write(type, text);
  }
  LeaveCriticalSection(&log_lock);
}

/* ---------------------------------------------------------- the writers */

static void svc_vlog(int level, bool event, const char *format, va_list ap) {
  char text[1024];
  vsnprintf(text, sizeof(text), format, ap);
  log_write(level_name(level), text);
  if (level <= SVC_ERR)
    remember_error(text);
  if (event)
    event_report(level <= SVC_ERR       ? EVENTLOG_ERROR_TYPE
                 : level == SVC_WARNING ? EVENTLOG_WARNING_TYPE
                                        : EVENTLOG_INFORMATION_TYPE,
                 text);
}

void svc_note(int level, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  svc_vlog(level, false, format, ap);
  va_end(ap);
}

void svc_report(int level, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  svc_vlog(level, true, format, ap);
  va_end(ap);
}

/* collectd's messages: all to the file, errors to the Event Log too. */
static void collectd_log(int severity, const char *message,
                         user_data_t *unused) {
  (void)unused;
  if (severity <= LOG_ERR)
    svc_report(SVC_ERR, "%s", message);
  else
    svc_note(severity, "%s", message);
}

void svc_log_register_collectd(void) {
  plugin_register_log("collectd-service", collectd_log, NULL);
}

void svc_log_open(const char *data_dir) {
  InitializeCriticalSection(&log_lock);
  snprintf(log_path, sizeof(log_path), "%s\\%s", data_dir, SVC_LOG_NAME);
  CreateDirectoryA(data_dir, NULL);
  EnterCriticalSection(&log_lock);
  log_reopen_locked();
  LeaveCriticalSection(&log_lock);
  event_source = RegisterEventSourceA(NULL, SVC_NAME);
  lock_ready = true;
  log_ready = true;
}

/* -------------------------------------------------------- stdout/stderr */

static void emit_stdio_line(char *line) {
  size_t n = strlen(line);
  while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == '\n'))
    line[--n] = '\0';
  if (n == 0)
    return;
  log_write("stderr", line);
  remember_error(line);
}

static DWORD WINAPI stdio_reader(LPVOID unused) {
  (void)unused;
  char buf[2048];
  size_t used = 0;
  DWORD n;
  while (ReadFile(stdio_pipe, buf + used, (DWORD)(sizeof(buf) - used - 1), &n,
                  NULL) &&
         n > 0) {
    used += n;
    buf[used] = '\0';
    char *start = buf, *nl;
    while ((nl = strchr(start, '\n')) != NULL) {
      *nl = '\0';
      emit_stdio_line(start);
      start = nl + 1;
    }
    used -= (size_t)(start - buf);
    memmove(buf, start, used);
    if (used == sizeof(buf) - 1) { /* a line longer than the buffer */
      buf[used] = '\0';
      emit_stdio_line(buf);
      used = 0;
    }
  }
  buf[used] = '\0';
  emit_stdio_line(buf);
  return 0;
}

/* STREAM writes to descriptor FD, unbuffered. msvcrt leaves the standard
 * streams of a process started without standard handles (a service)
 * unusable even once their descriptor is valid: give the stream its
 * descriptor and mark it writable. */
static void attach_stream(FILE *stream, int fd) {
  stream->_file = fd;
  stream->_flag = _IOWRT;
  setvbuf(stream, NULL, _IONBF, 0);
}

void svc_log_capture_stdio(void) {
  HANDLE write_end;
  if (!CreatePipe(&stdio_pipe, &write_end, NULL, 0))
    return;
  int fd = _open_osfhandle((intptr_t)write_end, _O_WRONLY | _O_BINARY);
  if (fd < 0) {
    CloseHandle(write_end);
    return;
  }
  fflush(stdout);
  fflush(stderr);
  _dup2(fd, 1);
  _dup2(fd, 2);
  _close(fd);
  attach_stream(stdout, 1);
  attach_stream(stderr, 2);
  SetStdHandle(STD_OUTPUT_HANDLE, (HANDLE)_get_osfhandle(1));
  SetStdHandle(STD_ERROR_HANDLE, (HANDLE)_get_osfhandle(2));
  stdio_thread = CreateThread(NULL, 0, stdio_reader, NULL, 0, NULL);
}

void svc_log_stop_stdio(void) {
  if (stdio_thread == NULL)
    return;
  fflush(stdout);
  fflush(stderr);
  _close(1); /* the pipe's last write handles: the reader sees the end */
  _close(2);
  WaitForSingleObject(stdio_thread, 2000);
  CloseHandle(stdio_thread);
  stdio_thread = NULL;
}

void svc_log_flush_repeats(void) {
  if (!lock_ready)
    return;
  EnterCriticalSection(&log_lock);
  for (int i = 0; i < EVENT_SLOTS; i++)
    if (events[i].hash != 0 && events[i].repeats > 0)
      event_write_repeats(&events[i]);
  LeaveCriticalSection(&log_lock);
}

void svc_log_close(void) {
  svc_log_stop_stdio();
  svc_log_flush_repeats();
  if (!lock_ready)
    return;
  EnterCriticalSection(&log_lock);
  /* From here on only the Event Log (svc_setup.c may delete the folder). */
  log_ready = false;
  if (log_file != INVALID_HANDLE_VALUE)
    CloseHandle(log_file);
  log_file = INVALID_HANDLE_VALUE;
  LeaveCriticalSection(&log_lock);
}
