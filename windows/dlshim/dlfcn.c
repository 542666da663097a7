/* Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
/* dlopen shim for collectd on Windows (see dlfcn.h). The last error is kept
 * per thread, as POSIX asks of dlerror(). */
#include "dlfcn.h"

#include <stdio.h>
#include <string.h>
#include <windows.h>

static __thread char dl_error[512];
static __thread int dl_error_set;

static void set_error(const char *what, const char *name) {
  DWORD code = GetLastError();
  char msg[256] = "";
  FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                 NULL, code, 0, msg, sizeof msg, NULL);
  /* FormatMessage ends the text with CR LF: drop trailing white space. */
  size_t len = strlen(msg);
  while (len > 0 && (msg[len - 1] == '\r' || msg[len - 1] == '\n' ||
                     msg[len - 1] == ' ' || msg[len - 1] == '.'))
    msg[--len] = '\0';
  snprintf(dl_error, sizeof dl_error, "%s %s: error %lu%s%s", what,
           name ? name : "(null)", (unsigned long)code, len ? ": " : "", msg);
  dl_error_set = 1;
}

void *dlopen(const char *file, int mode) {
  (void)mode; /* Windows resolves every import at load time (RTLD_NOW). */
  if (file == NULL)
    return GetModuleHandleA(NULL);
  /* LoadLibrary wants backslashes in a path (collectd joins PluginDir and
   * the name with '/'); the standard search order then finds the plugin's
   * imports (libgnu.dll, collectd.exe) in the program's directory. */
  char path[MAX_PATH];
  size_t len = strlen(file);
  if (len >= sizeof path) {
    SetLastError(ERROR_FILENAME_EXCED_RANGE);
    set_error("LoadLibrary", file);
    return NULL;
  }
  for (size_t i = 0; i <= len; i++)
    path[i] = file[i] == '/' ? '\\' : file[i];
  HMODULE h = LoadLibraryA(path);
  if (h == NULL)
    set_error("LoadLibrary", file);
  return h;
}

void *dlsym(void *handle, const char *name) {
  FARPROC p = GetProcAddress((HMODULE)handle, name);
  if (p == NULL)
    set_error("GetProcAddress", name);
  void *r;
  memcpy(&r, &p, sizeof r); /* function to object pointer, as POSIX does */
  return r;
}

int dlclose(void *handle) {
  if (handle == GetModuleHandleA(NULL))
    return 0;
  if (!FreeLibrary((HMODULE)handle)) {
    set_error("FreeLibrary", "module");
    return -1;
  }
  return 0;
}

char *dlerror(void) {
  if (!dl_error_set)
    return NULL;
  dl_error_set = 0;
  return dl_error;
}
