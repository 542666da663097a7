/* collectd-winperf. Copyright (c) 2026 the collectd-winperf authors.
 * SPDX-License-Identifier: MIT
 *
 * collectd.exe's Windows main: a console program (as collectd 5.12's
 * src/daemon/cmd_windows.c, which this file replaces in the build) and,
 * started as `collectd.exe --service [-C FILE]`, the Windows service
 * "collectd":
 *
 *  - it connects to the service control manager at once and reports
 *    START_PENDING, then RUNNING only once collectd has read its
 *    configuration and loaded its plugins;
 *  - stdout and stderr go to collectd.log next to the configuration file
 *    (C:\ProgramData\collectd\collectd.log), so a configuration error that
 *    keeps collectd from starting is in that log (the service then stops
 *    with a service-specific exit code);
 *  - stop and system shutdown wake collectd's main loop (patched in
 *    windows/patches/) and run collectd's own shutdown: read threads
 *    stopped, write queue drained, write plugins flushed; a watchdog ends
 *    the process if that has not finished after 4.5 s, so the service
 *    always stops within 5 s and leaves no collectd.exe behind;
 *  - when the configuration file does not exist, it writes it from the
 *    template collectd.conf.template next to collectd.exe and the values
 *    the MSI stored under HKLM\SOFTWARE\collectd-winperf (its public
 *    properties GRAPHITE_HOST, GRAPHITE_PORT, INFLUXDB_HOST, INFLUXDB_PORT,
 *    INTERVAL, COUNTERS_FILE), and copies COUNTERS_FILE to winperf.yaml.
 *    An existing configuration is never touched.
 *
 * In a console, Ctrl+C, Ctrl+Break and closing the window stop collectd
 * the same clean way. */

#include "cmd.h"
#include "plugin.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#include <windows.h>

#define SERVICE_NAME "collectd"
#define SETUP_KEY "SOFTWARE\\collectd-winperf"
#define TEMPLATE_NAME "collectd.conf.template"
/* The SCM's wait hints: loading the plugins, and the stop deadline. */
#define START_WAIT_HINT_MS 30000
#define STOP_WAIT_HINT_MS 5000
#define STOP_DEADLINE_MS 4500
/* Service-specific exit codes (sc query: SERVICE_EXIT_CODE). */
#define EXIT_CONFIG_ERROR 1
#define EXIT_FIRST_CONFIG_ERROR 2

static SERVICE_STATUS_HANDLE svc_handle;
static SERVICE_STATUS svc_status;
static CRITICAL_SECTION svc_lock;
static bool svc_stopping;
static int svc_argc;
static char **svc_argv;
static char config_path[MAX_PATH];
static char data_dir[MAX_PATH];
static HANDLE console_done;

/* ------------------------------------------------------------ logging */

/* One line on stderr (the log file in service mode), stamped like the
 * logfile plugin's lines. */
static void log_line(const char *format, ...) {
  SYSTEMTIME t;
  GetLocalTime(&t);
  char message[1024];
  va_list ap;
  va_start(ap, format);
  vsnprintf(message, sizeof(message), format, ap);
  va_end(ap);
  fprintf(stderr, "[%04u-%02u-%02u %02u:%02u:%02u] %s\n", t.wYear, t.wMonth,
          t.wDay, t.wHour, t.wMinute, t.wSecond, message);
  fflush(stderr);
}

/* STREAM (descriptor FD, standard handle STD) appends to PATH, unbuffered. */
static void redirect_stream(FILE *stream, int fd, DWORD std, const char *path) {
  if (freopen(path, "a", stream) == NULL) {
    /* Wine's msvcrt does not reopen a standard stream that has no handle
     * (a service's): give the descriptor the file, the stream its
     * descriptor. */
    int f = _open(path, _O_WRONLY | _O_APPEND | _O_CREAT | _O_TEXT,
                  _S_IREAD | _S_IWRITE);
    if (f < 0)
      return;
    if (f != fd) {
      _dup2(f, fd);
      _close(f);
    }
    stream->_file = fd;
    stream->_flag = _IOWRT;
  }
  setvbuf(stream, NULL, _IONBF, 0);
  SetStdHandle(std, (HANDLE)_get_osfhandle(_fileno(stream)));
}

/* A service has no console: stdout and stderr go to DIR/collectd.log. */
static void redirect_output(void) {
  char log_path[MAX_PATH + 16];
  snprintf(log_path, sizeof(log_path), "%s\\collectd.log", data_dir);
  CreateDirectoryA(data_dir, NULL);
  redirect_stream(stderr, 2, STD_ERROR_HANDLE, log_path);
  redirect_stream(stdout, 1, STD_OUTPUT_HANDLE, log_path);
}

/* -------------------------------------------------------- config path */

/* The -C argument (as collectd's getopt reads it) or collectd's default;
 * data_dir is its directory. */
static void find_config_path(int argc, char **argv) {
  const char *path = CONFIGFILE;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-C") == 0 && i + 1 < argc)
      path = argv[++i];
    else if (strncmp(argv[i], "-C", 2) == 0 && argv[i][2] != '\0')
      path = argv[i] + 2;
  }
  snprintf(config_path, sizeof(config_path), "%s", path);
  snprintf(data_dir, sizeof(data_dir), "%s", path);
  char *slash = strrchr(data_dir, '\\');
  char *fwd = strrchr(data_dir, '/');
  if (fwd != NULL && (slash == NULL || fwd > slash))
    slash = fwd;
  if (slash != NULL)
    *slash = '\0';
  else
    snprintf(data_dir, sizeof(data_dir), ".");
}

/* ----------------------------------------------- the first configuration */

struct setting {
  const char *name;        /* registry value = MSI property */
  const char *placeholder; /* in the template */
  const char *fallback;
  char value[MAX_PATH];
};

enum {
  S_GRAPHITE_HOST,
  S_GRAPHITE_PORT,
  S_INFLUXDB_HOST,
  S_INFLUXDB_PORT,
  S_INTERVAL,
  S_COUNTERS_FILE,
  S_DATADIR,
  S_INSTALLDIR,
  S_NUM
};

static bool host_ok(const char *s) {
  if (*s == '\0')
    return false;
  for (; *s != '\0'; s++)
    if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
               "0123456789.-_:%[]",
               *s) == NULL)
      return false;
  return true;
}

static bool port_ok(const char *s) {
  char *end;
  long v = strtol(s, &end, 10);
  return *s != '\0' && *end == '\0' && v > 0 && v < 65536;
}

static bool interval_ok(const char *s) {
  char *end;
  double v = strtod(s, &end);
  return *s != '\0' && *end == '\0' && v > 0 && v <= 86400;
}

/* A path for collectd's configuration: '/' (a '\' starts an escape). */
static void forward_slashes(char *s) {
  for (; *s != '\0'; s++)
    if (*s == '\\')
      *s = '/';
}

static int read_file(const char *path, char **text) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return -1;
  size_t size = 0, cap = 4096;
  char *buf = malloc(cap);
  size_t n;
  while (buf != NULL && (n = fread(buf + size, 1, cap - size - 1, f)) > 0) {
    size += n;
    if (cap - size - 1 == 0) {
      char *bigger = realloc(buf, cap * 2);
      if (bigger == NULL) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = bigger;
      cap *= 2;
    }
  }
  fclose(f);
  if (buf == NULL)
    return -1;
  buf[size] = '\0';
  *text = buf;
  return 0;
}

/* Writes one template line: "#@INFLUXDB@" lines are active only with an
 * InfluxDB host (otherwise commented out), @NAME@ placeholders replaced. */
static void write_line(FILE *out, const char *line, size_t len,
                       struct setting *s) {
  static const char marker[] = "#@INFLUXDB@";
  bool influx = s[S_INFLUXDB_HOST].value[0] != '\0';
  if (len >= sizeof(marker) - 1 &&
      strncmp(line, marker, sizeof(marker) - 1) == 0) {
    line += sizeof(marker) - 1;
    len -= sizeof(marker) - 1;
    if (!influx)
      fputc('#', out);
  }
  while (len > 0) {
    bool replaced = false;
    if (*line == '@') {
      for (int i = 0; i < S_NUM; i++) {
        size_t pl = strlen(s[i].placeholder);
        if (pl <= len && strncmp(line, s[i].placeholder, pl) == 0) {
          const char *v = s[i].value;
          if (i == S_INFLUXDB_HOST && !influx)
            v = "influxdb.example.com";
          fputs(v, out);
          line += pl;
          len -= pl;
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) {
      fputc(*line, out);
      line++;
      len--;
    }
  }
}

/* 0: the configuration exists or was written; -1: error (logged). */
static int first_config(void) {
  if (GetFileAttributesA(config_path) != INVALID_FILE_ATTRIBUTES)
    return 0;

  struct setting s[S_NUM] = {
      [S_GRAPHITE_HOST] = {"GRAPHITE_HOST", "@GRAPHITE_HOST@", "localhost"},
      [S_GRAPHITE_PORT] = {"GRAPHITE_PORT", "@GRAPHITE_PORT@", "2003"},
      [S_INFLUXDB_HOST] = {"INFLUXDB_HOST", "@INFLUXDB_HOST@", ""},
      [S_INFLUXDB_PORT] = {"INFLUXDB_PORT", "@INFLUXDB_PORT@", "25826"},
      [S_INTERVAL] = {"INTERVAL", "@INTERVAL@", "10"},
      [S_COUNTERS_FILE] = {"COUNTERS_FILE", "@COUNTERS_FILE@", ""},
      [S_DATADIR] = {"", "@DATADIR@", ""},
      [S_INSTALLDIR] = {"", "@INSTALLDIR@", ""},
  };
  for (int i = 0; i < S_COUNTERS_FILE + 1; i++) {
    DWORD size = sizeof(s[i].value);
    if (RegGetValueA(HKEY_LOCAL_MACHINE, SETUP_KEY, s[i].name, RRF_RT_REG_SZ,
                     NULL, s[i].value, &size) != ERROR_SUCCESS ||
        s[i].value[0] == '\0')
      snprintf(s[i].value, sizeof(s[i].value), "%s", s[i].fallback);
  }
  snprintf(s[S_DATADIR].value, sizeof(s[S_DATADIR].value), "%s", data_dir);
  forward_slashes(s[S_DATADIR].value);
  char exe[MAX_PATH];
  DWORD n = GetModuleFileNameA(NULL, exe, sizeof(exe));
  char *exe_slash = n > 0 && n < sizeof(exe) ? strrchr(exe, '\\') : NULL;
  if (exe_slash == NULL) {
    log_line("collectd service: cannot find collectd.exe's directory");
    return -1;
  }
  *exe_slash = '\0';
  snprintf(s[S_INSTALLDIR].value, sizeof(s[S_INSTALLDIR].value), "%s", exe);
  forward_slashes(s[S_INSTALLDIR].value);

  const char *bad = NULL;
  if (!host_ok(s[S_GRAPHITE_HOST].value))
    bad = "GRAPHITE_HOST";
  else if (!port_ok(s[S_GRAPHITE_PORT].value))
    bad = "GRAPHITE_PORT";
  else if (s[S_INFLUXDB_HOST].value[0] != '\0' &&
           !host_ok(s[S_INFLUXDB_HOST].value))
    bad = "INFLUXDB_HOST";
  else if (!port_ok(s[S_INFLUXDB_PORT].value))
    bad = "INFLUXDB_PORT";
  else if (!interval_ok(s[S_INTERVAL].value))
    bad = "INTERVAL";
  if (bad != NULL) {
    for (int i = 0; i < S_NUM; i++)
      if (strcmp(s[i].name, bad) == 0)
        log_line("collectd service: %s \"%s\" (HKLM\\%s) is not valid: no "
                 "configuration written to %s",
                 bad, s[i].value, SETUP_KEY, config_path);
    return -1;
  }

  char template_path[MAX_PATH + 32];
  snprintf(template_path, sizeof(template_path), "%s\\%s", exe, TEMPLATE_NAME);
  char *text;
  if (read_file(template_path, &text) != 0) {
    log_line("collectd service: cannot read %s: no configuration written to "
             "%s",
             template_path, config_path);
    return -1;
  }

  if (s[S_COUNTERS_FILE].value[0] != '\0') {
    char yaml[MAX_PATH + 16];
    snprintf(yaml, sizeof(yaml), "%s\\winperf.yaml", data_dir);
    if (!CopyFileA(s[S_COUNTERS_FILE].value, yaml, FALSE)) {
      log_line("collectd service: cannot copy COUNTERS_FILE %s to %s (error "
               "%lu): no configuration written to %s",
               s[S_COUNTERS_FILE].value, yaml, (unsigned long)GetLastError(),
               config_path);
      free(text);
      return -1;
    }
    log_line("collectd service: copied COUNTERS_FILE %s to %s",
             s[S_COUNTERS_FILE].value, yaml);
  }

  char tmp[MAX_PATH + 8];
  snprintf(tmp, sizeof(tmp), "%s.new", config_path);
  FILE *out = fopen(tmp, "wb");
  if (out == NULL) {
    log_line("collectd service: cannot write %s", tmp);
    free(text);
    return -1;
  }
  for (const char *line = text; *line != '\0';) {
    const char *end = strchr(line, '\n');
    size_t len = end != NULL ? (size_t)(end - line) + 1 : strlen(line);
    write_line(out, line, len, s);
    line += len;
  }
  free(text);
  if (fclose(out) != 0 ||
      !MoveFileExA(tmp, config_path, MOVEFILE_REPLACE_EXISTING)) {
    log_line("collectd service: cannot write %s", config_path);
    DeleteFileA(tmp);
    return -1;
  }
  log_line("collectd service: wrote the first configuration %s "
           "(GRAPHITE_HOST=%s GRAPHITE_PORT=%s INFLUXDB_HOST=%s "
           "INFLUXDB_PORT=%s INTERVAL=%s)",
           config_path, s[S_GRAPHITE_HOST].value, s[S_GRAPHITE_PORT].value,
           s[S_INFLUXDB_HOST].value, s[S_INFLUXDB_PORT].value,
           s[S_INTERVAL].value);
  return 0;
}

/* ------------------------------------------------------------ service */

/* Reports a state; never after STOPPED, never RUNNING once stopping. */
static void svc_set_status(DWORD state, DWORD specific_exit, DWORD hint) {
  EnterCriticalSection(&svc_lock);
  if (svc_status.dwCurrentState == SERVICE_STOPPED ||
      (state == SERVICE_RUNNING && svc_stopping)) {
    LeaveCriticalSection(&svc_lock);
    return;
  }
  svc_status.dwServiceType = SERVICE_WIN32_OWN_PROCESS;
  svc_status.dwCurrentState = state;
  svc_status.dwControlsAccepted =
      state == SERVICE_STOPPED ? 0
                               : SERVICE_ACCEPT_STOP | SERVICE_ACCEPT_SHUTDOWN;
  svc_status.dwWin32ExitCode =
      specific_exit != 0 ? ERROR_SERVICE_SPECIFIC_ERROR : NO_ERROR;
  svc_status.dwServiceSpecificExitCode = specific_exit;
  svc_status.dwWaitHint = hint;
  if (state == SERVICE_START_PENDING || state == SERVICE_STOP_PENDING)
    svc_status.dwCheckPoint++;
  else
    svc_status.dwCheckPoint = 0;
  SetServiceStatus(svc_handle, &svc_status);
  LeaveCriticalSection(&svc_lock);
}

/* collectd's shutdown normally takes well under a second; one that hangs
 * (a write plugin blocked on an unreachable server) must not keep the
 * service from stopping or leave a collectd.exe behind. */
static DWORD WINAPI stop_watchdog(LPVOID unused) {
  (void)unused;
  Sleep(STOP_DEADLINE_MS);
  log_line("collectd service: shutdown not finished after %d ms, ending "
           "the process",
           STOP_DEADLINE_MS);
  svc_set_status(SERVICE_STOPPED, 0, 0);
  TerminateProcess(GetCurrentProcess(), 1);
  return 0;
}

static void svc_request_stop(const char *why) {
  EnterCriticalSection(&svc_lock);
  bool first = !svc_stopping;
  svc_stopping = true;
  LeaveCriticalSection(&svc_lock);
  if (!first)
    return;
  log_line("collectd service: %s, stopping", why);
  svc_set_status(SERVICE_STOP_PENDING, 0, STOP_WAIT_HINT_MS);
  HANDLE t = CreateThread(NULL, 0, stop_watchdog, NULL, 0, NULL);
  if (t != NULL)
    CloseHandle(t);
  stop_collectd();
}

static DWORD WINAPI svc_control(DWORD control, DWORD type, LPVOID data,
                                LPVOID context) {
  (void)type;
  (void)data;
  (void)context;
  switch (control) {
  case SERVICE_CONTROL_STOP:
    svc_request_stop("stop requested");
    return NO_ERROR;
  case SERVICE_CONTROL_SHUTDOWN:
    svc_request_stop("system shutdown");
    return NO_ERROR;
  case SERVICE_CONTROL_INTERROGATE:
    return NO_ERROR;
  default:
    return ERROR_CALL_NOT_IMPLEMENTED;
  }
}

/* init_config() calls exit() when the configuration cannot be read: tell
 * the SCM it stopped with an error (not a crash, so no restart loop). */
static void svc_atexit(void) {
  EnterCriticalSection(&svc_lock);
  bool stopped = svc_status.dwCurrentState == SERVICE_STOPPED;
  LeaveCriticalSection(&svc_lock);
  if (stopped)
    return;
  log_line("collectd service: collectd did not start (configuration %s, "
           "see the lines above)",
           config_path);
  svc_set_status(SERVICE_STOPPED, EXIT_CONFIG_ERROR, 0);
}

static void WINAPI svc_main(DWORD argc, LPSTR *argv) {
  (void)argc;
  (void)argv;
  svc_handle = RegisterServiceCtrlHandlerExA(SERVICE_NAME, svc_control, NULL);
  if (svc_handle == NULL)
    return;
  svc_set_status(SERVICE_START_PENDING, 0, START_WAIT_HINT_MS);
  redirect_output();
  log_line("collectd service: starting (pid %lu, configuration %s)",
           (unsigned long)GetCurrentProcessId(), config_path);
  if (first_config() != 0) {
    svc_set_status(SERVICE_STOPPED, EXIT_FIRST_CONFIG_ERROR, 0);
    return;
  }
  atexit(svc_atexit);
  struct cmdline_config config = init_config(svc_argc, svc_argv);
  svc_set_status(SERVICE_RUNNING, 0, 0);
  log_line("collectd service: configuration read, running");
  int status = run_loop(config.test_readall);
  log_line("collectd service: stopped (collectd's exit status %d)", status);
  /* A requested stop is a clean stop even if a plugin's init had failed. */
  svc_set_status(SERVICE_STOPPED, svc_stopping ? 0 : (DWORD)status, 0);
}

/* ------------------------------------------------------------ console */

static BOOL WINAPI console_control(DWORD event) {
  switch (event) {
  case CTRL_C_EVENT:
  case CTRL_BREAK_EVENT:
    stop_collectd();
    return TRUE;
  case CTRL_CLOSE_EVENT:
  case CTRL_LOGOFF_EVENT:
  case CTRL_SHUTDOWN_EVENT:
    /* The process ends when this returns: let collectd finish first. */
    stop_collectd();
    WaitForSingleObject(console_done, STOP_DEADLINE_MS);
    return TRUE;
  default:
    return FALSE;
  }
}

int main(int argc, char **argv) {
  WSADATA wsaData;
  WORD wVersionRequested = MAKEWORD(2, 2);
  int err = WSAStartup(wVersionRequested, &wsaData);
  if (err != 0) {
    fprintf(stderr, "collectd: WSAStartup failed with error: %d\n", err);
    return 1;
  }

  if (argc > 1 && strcmp(argv[1], "--service") == 0) {
    InitializeCriticalSection(&svc_lock);
    /* collectd's own options, without --service. */
    svc_argc = argc - 1;
    svc_argv = calloc((size_t)argc, sizeof(*svc_argv));
    if (svc_argv == NULL)
      return 1;
    svc_argv[0] = argv[0];
    for (int i = 2; i < argc; i++)
      svc_argv[i - 1] = argv[i];
    find_config_path(svc_argc, svc_argv);
    SERVICE_TABLE_ENTRYA table[] = {{(LPSTR)SERVICE_NAME, svc_main},
                                    {NULL, NULL}};
    if (!StartServiceCtrlDispatcherA(table)) {
      fprintf(stderr,
              "collectd: --service: not started by the service control "
              "manager (error %lu); run collectd.exe -f in a console\n",
              (unsigned long)GetLastError());
      return 1;
    }
    return svc_status.dwServiceSpecificExitCode != 0 ? 1 : 0;
  }

  console_done = CreateEventA(NULL, TRUE, FALSE, NULL);
  SetConsoleCtrlHandler(console_control, TRUE);
  struct cmdline_config config = init_config(argc, argv);
  int status = run_loop(config.test_readall);
  if (console_done != NULL)
    SetEvent(console_done);
  return status;
}
