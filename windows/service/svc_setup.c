/* collectd-winperf. Copyright (c) 2026 the collectd-winperf authors.
 * SPDX-License-Identifier: MIT
 *
 * What the MSI runs with collectd.exe (deferred custom actions, as
 * LocalSystem, windows/collectd-winperf.wxs):
 *
 *   collectd.exe --setup install -C DATADIR\collectd.conf
 *                [--config-file PATH] [--counters-file PATH]
 *     at install, upgrade and reinstall, before the service starts: a
 *     CONFIG_FILE given on the command line is copied to collectd.conf
 *     (then the service uses it as it is), a COUNTERS_FILE to winperf.yaml.
 *     Copied at install, not read at each start: a share (UNC path) is
 *     often not reachable when the service starts at boot. A file that
 *     cannot be read fails the install (exit 1), which a fleet tool sees.
 *
 *   collectd.exe --setup uninstall -C DATADIR\collectd.conf [--purge VALUE]
 *     at removal (not the removal of an upgrade), after the service is
 *     gone: with PURGE=1 the data directory and the stored settings are
 *     deleted; otherwise they stay, so that a reinstall keeps the setup.
 *     Either way one Event Log record says which. */
#include "svc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* DIR and everything in it; a link (reparse point) is removed, never
 * followed. */
static bool delete_tree(const char *dir) {
  char pattern[MAX_PATH + 4];
  snprintf(pattern, sizeof(pattern), "%s\\*", dir);
  WIN32_FIND_DATAA f;
  HANDLE h = FindFirstFileA(pattern, &f);
  bool ok = true;
  if (h != INVALID_HANDLE_VALUE) {
    do {
      if (strcmp(f.cFileName, ".") == 0 || strcmp(f.cFileName, "..") == 0)
        continue;
      char path[MAX_PATH + 4];
      if (snprintf(path, sizeof(path), "%s\\%s", dir, f.cFileName) >=
          (int)sizeof(path)) {
        ok = false;
        continue;
      }
      DWORD a = f.dwFileAttributes;
      if ((a & FILE_ATTRIBUTE_DIRECTORY) && !(a & FILE_ATTRIBUTE_REPARSE_POINT))
        ok = delete_tree(path) && ok;
      else if (a & FILE_ATTRIBUTE_DIRECTORY)
        ok = RemoveDirectoryA(path) && ok;
      else {
        SetFileAttributesA(path, FILE_ATTRIBUTE_NORMAL);
        ok = DeleteFileA(path) && ok;
      }
    } while (FindNextFileA(h, &f));
    FindClose(h);
  }
  return RemoveDirectoryA(dir) && ok;
}

/* FROM (given with the property WHAT) copied to TO; a copy of a generated
 * configuration loses its first line, so the service uses it as it is. */
static int copy_in(const char *what, const char *from, const char *to) {
  char *text;
  size_t len;
  if (svc_read_file(from, 16 << 20, &text, &len) != 0) {
    svc_report(SVC_ERR,
               "collectd setup: cannot read %s %s (error %lu): the install "
               "stops here. It is read by the installer as LocalSystem: a "
               "local path, or a share the computer account can read",
               what, from, (unsigned long)GetLastError());
    return -1;
  }
  const char *body = text;
  size_t marker = strlen(SVC_MARKER);
  if (strcmp(what, "CONFIG_FILE") == 0 && len >= marker &&
      strncmp(text, SVC_MARKER, marker) == 0) {
    const char *nl = strchr(text, '\n');
    body = nl != NULL ? nl + 1 : text + len;
  }
  int rc = svc_write_file(to, body, len - (size_t)(body - text));
  DWORD e = GetLastError();
  free(text);
  if (rc != 0) {
    svc_report(SVC_ERR, "collectd setup: cannot write %s (error %lu)", to,
               (unsigned long)e);
    return -1;
  }
  svc_report(SVC_INFO, "collectd setup: copied %s %s to %s%s", what, from, to,
             body != text ? " (without its first line, the mark of a "
                            "generated configuration: it is used as it is)"
                          : "");
  return 0;
}

static int setup_install(const char *data_dir, const char *config_file,
                         const char *counters_file) {
  char to[MAX_PATH + 32];
  if (counters_file[0] != '\0') {
    snprintf(to, sizeof(to), "%s\\winperf.yaml", data_dir);
    if (copy_in("COUNTERS_FILE", counters_file, to) != 0)
      return 1;
  }
  if (config_file[0] != '\0') {
    snprintf(to, sizeof(to), "%s\\collectd.conf", data_dir);
    if (copy_in("CONFIG_FILE", config_file, to) != 0)
      return 1;
  }
  return 0;
}

static int setup_uninstall(const char *data_dir, const char *purge) {
  if (strcmp(purge, "1") != 0) {
    svc_report(SVC_INFO,
               "collectd-winperf removed. Kept: %s (collectd.conf, "
               "winperf.yaml, collectd.log) and the installer's settings "
               "(HKLM\\%s), so that a reinstall keeps this setup; remove "
               "with PURGE=1 (msiexec /x ... PURGE=1) to delete them too",
               data_dir, SVC_SETTINGS_KEY);
    return 0;
  }
  svc_log_close(); /* from here on only the Event Log */
  size_t n = strlen(data_dir);
  bool ours = n > 9 && _stricmp(data_dir + n - 9, "\\collectd") == 0;
  bool files =
      ours && (GetFileAttributesA(data_dir) == INVALID_FILE_ATTRIBUTES ||
               delete_tree(data_dir));
  LSTATUS r = RegDeleteTreeA(HKEY_LOCAL_MACHINE, SVC_SETTINGS_KEY);
  bool settings = r == ERROR_SUCCESS || r == ERROR_FILE_NOT_FOUND;
  if (files && settings)
    svc_report(SVC_INFO,
               "collectd-winperf removed with PURGE=1: %s and HKLM\\%s "
               "deleted",
               data_dir, SVC_SETTINGS_KEY);
  else
    svc_report(SVC_WARNING,
               "collectd-winperf removed with PURGE=1, but %s%s%s could not "
               "be deleted completely: delete what is left by hand",
               files ? "" : data_dir, files || settings ? "" : " and ",
               settings ? "" : "HKLM\\" SVC_SETTINGS_KEY);
  return 0;
}

int svc_setup_main(int argc, char **argv) {
  const char *action = argc > 2 ? argv[2] : "";
  const char *config_path = NULL, *config_file = "", *counters_file = "",
             *purge = "";
  for (int i = 3; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "-C") == 0)
      config_path = argv[i + 1];
    else if (strcmp(argv[i], "--config-file") == 0)
      config_file = argv[i + 1];
    else if (strcmp(argv[i], "--counters-file") == 0)
      counters_file = argv[i + 1];
    else if (strcmp(argv[i], "--purge") == 0)
      purge = argv[i + 1];
    else
      config_path = NULL, i = argc; /* unknown: the usage below */
  }
  if (config_path == NULL ||
      (strcmp(action, "install") != 0 && strcmp(action, "uninstall") != 0)) {
    fprintf(stderr, "usage: collectd.exe --setup install -C CONFIG "
                    "[--config-file PATH] [--counters-file PATH]\n"
                    "       collectd.exe --setup uninstall -C CONFIG "
                    "[--purge 1]\n");
    return 2;
  }
  char data_dir[MAX_PATH];
  snprintf(data_dir, sizeof(data_dir), "%s", config_path);
  char *slash = strrchr(data_dir, '\\');
  char *fwd = strrchr(data_dir, '/');
  if (fwd != NULL && (slash == NULL || fwd > slash))
    slash = fwd;
  if (slash == NULL) {
    fprintf(stderr, "collectd.exe --setup: -C needs a full path\n");
    return 2;
  }
  *slash = '\0';
  svc_log_open(data_dir);
  int rc = strcmp(action, "install") == 0
               ? setup_install(data_dir, config_file, counters_file)
               : setup_uninstall(data_dir, purge);
  svc_log_close();
  return rc;
}
