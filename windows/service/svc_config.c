/* collectd-winperf. Copyright (c) 2026 the collectd-winperf authors.
 * SPDX-License-Identifier: MIT
 *
 * The configuration the service generates. The MSI stores its public
 * properties under HKLM\SOFTWARE\collectd-winperf (a property not given
 * keeps its stored value: the MSI reads them back first); at each start
 * the service writes collectd.conf from collectd.conf.template (next to
 * collectd.exe) and those values, with SVC_MARKER as the first line. A
 * collectd.conf without that line is an administrator's (edited, or copied
 * from CONFIG_FILE at install): it is used as it is, and the Event Log
 * says so once per start.
 *
 * In the template, @NAME@ stands for a value; a line starting with
 * "#@GRAPHITE@" is active only when GRAPHITE_HOST is not "none", one
 * starting with "#@INFLUXDB@" only when INFLUXDB_HOST is set (and not
 * "none"), one starting with "#@PROMETHEUS@" only when PROMETHEUS_PORT is
 * set (and not "none"); otherwise they are written commented out. */
#include "svc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- file helpers */

/* The whole of PATH (at most MAX bytes), NUL-terminated, in *TEXT. 0, or
 * -1 with GetLastError() set. */
int svc_read_file(const char *path, size_t max, char **text, size_t *len) {
  HANDLE h = CreateFileA(path, GENERIC_READ,
                         FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
  if (h == INVALID_HANDLE_VALUE)
    return -1;
  LARGE_INTEGER size;
  if (!GetFileSizeEx(h, &size) || (ULONGLONG)size.QuadPart > max) {
    CloseHandle(h);
    SetLastError(ERROR_FILE_TOO_LARGE);
    return -1;
  }
  char *buf = malloc((size_t)size.QuadPart + 1);
  DWORD got = 0;
  if (buf == NULL || (size.QuadPart > 0 &&
                      !ReadFile(h, buf, (DWORD)size.QuadPart, &got, NULL))) {
    DWORD e = buf == NULL ? ERROR_NOT_ENOUGH_MEMORY : GetLastError();
    free(buf);
    CloseHandle(h);
    SetLastError(e);
    return -1;
  }
  CloseHandle(h);
  buf[got] = '\0';
  *text = buf;
  if (len != NULL)
    *len = got;
  return 0;
}

/* PATH replaced by TEXT (written aside, then moved over it). */
int svc_write_file(const char *path, const char *text, size_t len) {
  char tmp[MAX_PATH + 8];
  snprintf(tmp, sizeof(tmp), "%s.new", path);
  HANDLE h = CreateFileA(tmp, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS,
                         FILE_ATTRIBUTE_NORMAL, NULL);
  if (h == INVALID_HANDLE_VALUE)
    return -1;
  DWORD written = 0;
  BOOL ok = WriteFile(h, text, (DWORD)len, &written, NULL) && written == len;
  DWORD e = GetLastError();
  CloseHandle(h);
  if (!ok || !MoveFileExA(tmp, path, MOVEFILE_REPLACE_EXISTING)) {
    e = ok ? GetLastError() : e;
    DeleteFileA(tmp);
    SetLastError(e);
    return -1;
  }
  return 0;
}

/* collectd.exe's directory. */
bool svc_exe_dir(char *out, size_t size) {
  DWORD n = GetModuleFileNameA(NULL, out, (DWORD)size);
  char *slash = n > 0 && n < size ? strrchr(out, '\\') : NULL;
  if (slash == NULL)
    return false;
  *slash = '\0';
  return true;
}

/* -------------------------------------------------------------- settings */

enum {
  S_GRAPHITE_HOST,
  S_GRAPHITE_PORT,
  S_GRAPHITE_PREFIX,
  S_INFLUXDB_HOST,
  S_INFLUXDB_PORT,
  S_PROMETHEUS_PORT,
  S_INTERVAL,
  S_HOSTNAME,
  S_STORED, /* the ones above are the MSI's; these are the service's */
  S_DATADIR = S_STORED,
  S_INSTALLDIR,
  S_NUM
};

struct setting {
  const char *name;     /* registry value = MSI property; @NAME@ */
  const char *fallback; /* when not stored */
  bool (*valid)(const char *);
  char value[MAX_PATH];
};

static bool is_none(const char *s) {
  return _stricmp(s, "none") == 0;
}

static bool chars_in(const char *s, const char *allowed) {
  for (; *s != '\0'; s++)
    if (strchr(allowed, *s) == NULL)
      return false;
  return true;
}

#define NAME_CHARS                                                             \
  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_"

static bool host_ok(const char *s) {
  return *s != '\0' && chars_in(s, NAME_CHARS ":%[]");
}

static bool host_or_none_ok(const char *s) {
  return is_none(s) || host_ok(s);
}

static bool optional_host_ok(const char *s) {
  return *s == '\0' || host_or_none_ok(s);
}

static bool port_ok(const char *s) {
  char *end;
  long v = strtol(s, &end, 10);
  return *s != '\0' && *end == '\0' && v > 0 && v < 65536;
}

/* Empty (off, the default), "none" (off again) or a port. */
static bool optional_port_ok(const char *s) {
  return *s == '\0' || is_none(s) || port_ok(s);
}

static bool interval_ok(const char *s) {
  char *end;
  double v = strtod(s, &end);
  return *s != '\0' && *end == '\0' && v > 0 && v <= 86400;
}

static bool prefix_ok(const char *s) {
  return chars_in(s, NAME_CHARS);
}

static bool hostname_ok(const char *s) {
  return *s == '\0' || chars_in(s, NAME_CHARS);
}

static void forward_slashes(char *s) {
  for (; *s != '\0'; s++)
    if (*s == '\\')
      *s = '/';
}

/* The stored values (or the fallbacks); -1 with the reason reported when
 * one is not valid. */
static int read_settings(struct setting *s, const char *data_dir,
                         const char *exe_dir) {
  for (int i = 0; i < S_STORED; i++) {
    DWORD size = sizeof(s[i].value);
    if (RegGetValueA(HKEY_LOCAL_MACHINE, SVC_SETTINGS_KEY, s[i].name,
                     RRF_RT_REG_SZ, NULL, s[i].value, &size) != ERROR_SUCCESS ||
        s[i].value[0] == '\0')
      snprintf(s[i].value, sizeof(s[i].value), "%s", s[i].fallback);
    if (!s[i].valid(s[i].value)) {
      svc_report(SVC_ERR,
                 "collectd service: %s \"%s\" (HKLM\\%s) is not valid: no "
                 "configuration written; install again with a valid %s",
                 s[i].name, s[i].value, SVC_SETTINGS_KEY, s[i].name);
      return -1;
    }
  }
  if (is_none(s[S_GRAPHITE_PREFIX].value))
    s[S_GRAPHITE_PREFIX].value[0] = '\0';
  if (s[S_HOSTNAME].value[0] == '\0') {
    DWORD size = sizeof(s[S_HOSTNAME].value);
    if (!GetComputerNameExA(ComputerNameDnsHostname, s[S_HOSTNAME].value,
                            &size) ||
        !hostname_ok(s[S_HOSTNAME].value)) {
      size = sizeof(s[S_HOSTNAME].value);
      if (!GetComputerNameA(s[S_HOSTNAME].value, &size))
        snprintf(s[S_HOSTNAME].value, sizeof(s[S_HOSTNAME].value), "%s",
                 "localhost");
    }
  }
  snprintf(s[S_DATADIR].value, sizeof(s[S_DATADIR].value), "%s", data_dir);
  snprintf(s[S_INSTALLDIR].value, sizeof(s[S_INSTALLDIR].value), "%s", exe_dir);
  forward_slashes(s[S_DATADIR].value);
  forward_slashes(s[S_INSTALLDIR].value);
  return 0;
}

/* ------------------------------------------------------------- template */

struct out {
  char *buf;
  size_t len, cap;
};

static void put(struct out *o, const char *s, size_t n) {
  if (o->buf == NULL)
    return;
  if (o->len + n + 1 > o->cap) {
    size_t cap = (o->len + n + 1) * 2;
    char *bigger = realloc(o->buf, cap);
    if (bigger == NULL) {
      free(o->buf);
      o->buf = NULL;
      return;
    }
    o->buf = bigger;
    o->cap = cap;
  }
  memcpy(o->buf + o->len, s, n);
  o->len += n;
  o->buf[o->len] = '\0';
}

static bool line_prefix(const char **line, size_t *len, const char *p) {
  size_t n = strlen(p);
  if (*len < n || strncmp(*line, p, n) != 0)
    return false;
  *line += n;
  *len -= n;
  return true;
}

/* One template line: the writers' lines switched on or commented out,
 * @NAME@ replaced. */
static void expand_line(struct out *o, const char *line, size_t len,
                        const struct setting *s) {
  bool graphite = !is_none(s[S_GRAPHITE_HOST].value);
  bool influx =
      s[S_INFLUXDB_HOST].value[0] != '\0' && !is_none(s[S_INFLUXDB_HOST].value);
  bool prometheus = s[S_PROMETHEUS_PORT].value[0] != '\0' &&
                    !is_none(s[S_PROMETHEUS_PORT].value);
  bool on = true;
  if (line_prefix(&line, &len, "#@GRAPHITE@"))
    on = graphite;
  else if (line_prefix(&line, &len, "#@INFLUXDB@"))
    on = influx;
  else if (line_prefix(&line, &len, "#@PROMETHEUS@"))
    on = prometheus;
  if (!on)
    put(o, "#", 1);
  while (len > 0) {
    int hit = -1;
    size_t pl = 0;
    if (*line == '@')
      for (int i = 0; i < S_NUM && hit < 0; i++) {
        pl = strlen(s[i].name);
        if (pl + 2 <= len && strncmp(line + 1, s[i].name, pl) == 0 &&
            line[pl + 1] == '@')
          hit = i;
      }
    if (hit < 0) {
      put(o, line, 1);
      line++;
      len--;
      continue;
    }
    const char *v = s[hit].value;
    if (hit == S_GRAPHITE_HOST && !graphite)
      v = "graphite.example.com";
    else if (hit == S_INFLUXDB_HOST && !influx)
      v = "influxdb.example.com";
    else if (hit == S_PROMETHEUS_PORT && !prometheus)
      v = "9103"; /* write_prometheus' own default, in the commented lines */
    put(o, v, strlen(v));
    line += pl + 2;
    len -= pl + 2;
  }
}

static bool generated(const char *config_path) {
  char *text;
  if (svc_read_file(config_path, 16 << 20, &text, NULL) != 0)
    return true; /* missing: to be generated */
  const char *t = text;
  if ((unsigned char)t[0] == 0xEF && (unsigned char)t[1] == 0xBB &&
      (unsigned char)t[2] == 0xBF)
    t += 3; /* an editor's UTF-8 BOM */
  bool marked = strncmp(t, SVC_MARKER, strlen(SVC_MARKER)) == 0;
  free(text);
  return marked;
}

int svc_config_prepare(const char *config_path, const char *data_dir) {
  if (!generated(config_path)) {
    svc_report(SVC_WARNING,
               "collectd service: %s does not start with the line the "
               "service writes: it is an administrator's (edited, or copied "
               "from CONFIG_FILE) and is used as it is; the installer's "
               "settings (GRAPHITE_HOST, INFLUXDB_HOST, INTERVAL, ...) do "
               "not apply to it. Delete it and restart the service to have "
               "it generated again.",
               config_path);
    return 0;
  }
  char exe_dir[MAX_PATH];
  if (!svc_exe_dir(exe_dir, sizeof(exe_dir))) {
    svc_report(SVC_ERR, "collectd service: cannot find collectd.exe's "
                        "directory: no configuration written");
    return -1;
  }
  struct setting s[S_NUM] = {
      [S_GRAPHITE_HOST] = {"GRAPHITE_HOST", "localhost", host_or_none_ok, ""},
      [S_GRAPHITE_PORT] = {"GRAPHITE_PORT", "2003", port_ok, ""},
      [S_GRAPHITE_PREFIX] = {"GRAPHITE_PREFIX", "collectd.", prefix_ok, ""},
      [S_INFLUXDB_HOST] = {"INFLUXDB_HOST", "", optional_host_ok, ""},
      [S_INFLUXDB_PORT] = {"INFLUXDB_PORT", "25826", port_ok, ""},
      [S_PROMETHEUS_PORT] = {"PROMETHEUS_PORT", "", optional_port_ok, ""},
      [S_INTERVAL] = {"INTERVAL", "10", interval_ok, ""},
      [S_HOSTNAME] = {"HOSTNAME", "", hostname_ok, ""},
      [S_DATADIR] = {"DATADIR", "", NULL, ""},
      [S_INSTALLDIR] = {"INSTALLDIR", "", NULL, ""},
  };
  if (read_settings(s, data_dir, exe_dir) != 0)
    return -1;

  char template_path[MAX_PATH + 32];
  snprintf(template_path, sizeof(template_path), "%s\\collectd.conf.template",
           exe_dir);
  char *text;
  if (svc_read_file(template_path, 1 << 20, &text, NULL) != 0) {
    svc_report(SVC_ERR,
               "collectd service: cannot read %s (error %lu): no "
               "configuration written to %s",
               template_path, (unsigned long)GetLastError(), config_path);
    return -1;
  }
  struct out o = {malloc(4096), 0, 4096};
  put(&o, SVC_MARKER "\r\n", strlen(SVC_MARKER) + 2);
  for (const char *line = text; *line != '\0';) {
    const char *end = strchr(line, '\n');
    size_t len = end != NULL ? (size_t)(end - line) + 1 : strlen(line);
    expand_line(&o, line, len, s);
    line += len;
  }
  free(text);
  if (o.buf == NULL || svc_write_file(config_path, o.buf, o.len) != 0) {
    svc_report(SVC_ERR, "collectd service: cannot write %s (error %lu)",
               config_path, (unsigned long)GetLastError());
    free(o.buf);
    return -1;
  }
  free(o.buf);
  svc_report(SVC_INFO,
             "collectd service: generated %s from %s and the installer's "
             "settings: HOSTNAME=%s INTERVAL=%s GRAPHITE_HOST=%s "
             "GRAPHITE_PORT=%s GRAPHITE_PREFIX=%s INFLUXDB_HOST=%s "
             "INFLUXDB_PORT=%s PROMETHEUS_PORT=%s",
             config_path, template_path, s[S_HOSTNAME].value,
             s[S_INTERVAL].value, s[S_GRAPHITE_HOST].value,
             s[S_GRAPHITE_PORT].value, s[S_GRAPHITE_PREFIX].value,
             s[S_INFLUXDB_HOST].value[0] != '\0' ? s[S_INFLUXDB_HOST].value
                                                 : "(none)",
             s[S_INFLUXDB_PORT].value,
             s[S_PROMETHEUS_PORT].value[0] != '\0' ? s[S_PROMETHEUS_PORT].value
                                                   : "(none)");
  return 0;
}
