/* Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
/* A minimal <dlfcn.h> for collectd's mingw-w64 build: collectd's plugin
 * loader (src/daemon/plugin.c) calls dlopen/dlsym/dlclose/dlerror only.
 * Backed by LoadLibraryExA/GetProcAddress in dlfcn.c (libdl.a). */
#ifndef WINPERF_DLSHIM_DLFCN_H
#define WINPERF_DLSHIM_DLFCN_H

#define RTLD_LAZY 0x1
#define RTLD_NOW 0x2
#define RTLD_GLOBAL 0x100
#define RTLD_LOCAL 0x0

#ifdef __cplusplus
extern "C" {
#endif
void *dlopen(const char *file, int mode);
void *dlsym(void *handle, const char *name);
int dlclose(void *handle);
char *dlerror(void);
#ifdef __cplusplus
}
#endif
#endif
