/* collectd-winperf: the V2 (PerfLib consumer) calls, Windows only.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The consumer functions are looked up in advapi32.dll at run time: they
 * exist from Windows 10 1607 on and the mingw-w64 headers do not declare
 * them. format.md 5 has the layouts; src/perfdata/v2.c reads and writes them.
 */
#include "perflib_v2.h"

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <stdlib.h>
#include <string.h>

/* perflib.h (Windows SDK) signatures; structures are passed as bytes. */
typedef ULONG(WINAPI *open_fn)(LPCWSTR machine, HANDLE *query);
typedef ULONG(WINAPI *close_fn)(HANDLE query);
typedef ULONG(WINAPI *add_fn)(HANDLE query, void *counters, DWORD size);
typedef ULONG(WINAPI *info_fn)(HANDLE query, void *counters, DWORD size,
                               DWORD *actual);
typedef ULONG(WINAPI *data_fn)(HANDLE query, void *block, DWORD size,
                               DWORD *actual);
typedef ULONG(WINAPI *reginfo_fn)(LPCWSTR machine, const GUID *set,
                                  ULONG request, DWORD lang, BYTE *info,
                                  DWORD size, DWORD *actual);

#define PERF_REG_COUNTERSET_STRUCT 1 /* PerfRegInfoType */
#define MAX_ANSWER ((size_t)256 << 20)

struct wp_v2_query {
  HMODULE advapi;
  open_fn open;
  close_fn close;
  add_fn add;
  info_fn info;
  data_fn data;
  reginfo_fn reginfo;
  HANDLE handle;
  wchar_t *machine;
  size_t answer_size; /* high water of PerfQueryCounterData answers */
  wp_buffer added;    /* the identifier blocks added, in order */
  uint32_t nadded;
};

/* "<what>: error <code>" (WP_E_IO). WP_SOURCE_ERROR. */
static wp_source_status v2_error(wp_error *err, const char *what, ULONG code) {
  wp_error_set_code(err, WP_E_IO, "%s: error %lu", what, (unsigned long)code);
  return WP_SOURCE_ERROR;
}

static wchar_t *widen(const char *s) {
  int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
  wchar_t *w = n > 0 ? malloc((size_t)n * sizeof *w) : NULL;
  if (w != NULL &&
      MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n) != n) {
    free(w);
    w = NULL;
  }
  return w;
}

/* GetProcAddress returns FARPROC; go through void * to the real type. */
#define LOOKUP(q, field, type, name)                                           \
  ((q)->field = (type)(void (*)(void))GetProcAddress((q)->advapi, name))

wp_v2_query *wp_v2_open(const char *machine, wp_error *err) {
  wp_v2_query *q = calloc(1, sizeof *q);
  if (q == NULL) {
    wp_error_nomem(err);
    return NULL;
  }
  q->advapi = LoadLibraryW(L"advapi32.dll");
  if (q->advapi == NULL || !LOOKUP(q, open, open_fn, "PerfOpenQueryHandle") ||
      !LOOKUP(q, close, close_fn, "PerfCloseQueryHandle") ||
      !LOOKUP(q, add, add_fn, "PerfAddCounters") ||
      !LOOKUP(q, data, data_fn, "PerfQueryCounterData")) {
    wp_error_set(err, "this Windows has no PerfLib V2 consumer API (needs "
                      "Windows 10 1607 or later)");
    wp_v2_close(q);
    return NULL;
  }
  /* Optional (Wine 8 lacks both): without PerfQueryCounterInfo the
   * identifiers are numbered in the order they were added. */
  LOOKUP(q, info, info_fn, "PerfQueryCounterInfo");
  LOOKUP(q, reginfo, reginfo_fn, "PerfQueryCounterSetRegistrationInfo");
  if (machine != NULL && (q->machine = widen(machine)) == NULL) {
    wp_error_set(err, "machine name '%s' is not valid UTF-8", machine);
    wp_v2_close(q);
    return NULL;
  }
  ULONG rc = q->open(q->machine, &q->handle);
  if (rc != ERROR_SUCCESS) {
    v2_error(err, "PerfOpenQueryHandle", rc);
    q->handle = NULL;
    wp_v2_close(q);
    return NULL;
  }
  q->answer_size = 64 << 10;
  return q;
}

void wp_v2_close(wp_v2_query *q) {
  if (q == NULL)
    return;
  if (q->handle != NULL && q->close != NULL)
    q->close(q->handle);
  if (q->advapi != NULL)
    FreeLibrary(q->advapi);
  free(q->machine);
  wp_buffer_free(&q->added);
  free(q);
}

wp_source_status wp_v2_add(wp_v2_query *q, const pd_guid *set,
                           uint32_t counter_id, const char *instance,
                           wp_error *err) {
  size_t size = pd_v2_identifier_encode(set, counter_id, instance,
                                        PD_V2_ANY_INSTANCE_ID, NULL, 0);
  if (size == 0) {
    wp_error_set(err, "instance name is not valid UTF-8");
    return WP_SOURCE_ERROR;
  }
  uint8_t *block = malloc(size);
  if (block == NULL) {
    wp_error_nomem(err);
    return WP_SOURCE_ERROR;
  }
  pd_v2_identifier_encode(set, counter_id, instance, PD_V2_ANY_INSTANCE_ID,
                          block, size);
  ULONG rc = q->add(q->handle, block, (DWORD)size);
  pd_v2_identifier back;
  pd_error pderr;
  wp_source_status st = WP_SOURCE_OK;
  if (rc != ERROR_SUCCESS) {
    st = v2_error(err, "PerfAddCounters", rc);
  } else if (pd_v2_identifier_decode(block, size, 0, &back, NULL, &pderr) ==
                 PD_OK &&
             back.status != ERROR_SUCCESS) {
    st = v2_error(err, "PerfAddCounters (identifier Status)", back.status);
  } else if (wp_buffer_reserve(&q->added, q->added.len + size) == 0) {
    /* Index: the position of this spec's results (format.md 5) */
    pd_v2_identifier_set_index(block, size, q->nadded++);
    memcpy(q->added.data + q->added.len, block, size);
    q->added.len += size;
  } else {
    st = wp_error_nomem(err); /* the counter was added but is not recorded */
  }
  free(block);
  return st;
}

/* Call `fn` with a growing buffer: `size` is the first offer; the calls
 * report the size they need with ERROR_NOT_ENOUGH_MEMORY (format.md 5) or
 * ERROR_MORE_DATA. */
typedef ULONG (*sized_call)(wp_v2_query *q, const void *arg, uint8_t *buf,
                            DWORD size, DWORD *actual);

static wp_source_status grow_call(wp_v2_query *q, sized_call fn,
                                  const void *arg, size_t *size, wp_buffer *out,
                                  const char *what, wp_error *err) {
  for (int tries = 0; tries < 16; tries++) {
    if (wp_buffer_reserve(out, *size) != 0) {
      wp_error_set_code(err, WP_E_NOMEM, "%s: out of memory for %zu bytes",
                        what, *size);
      return WP_SOURCE_ERROR;
    }
    DWORD actual = 0;
    ULONG rc = fn(q, arg, out->data, (DWORD)*size, &actual);
    if (rc == ERROR_SUCCESS) {
      out->len = actual <= *size ? actual : *size;
      return WP_SOURCE_OK;
    }
    if (rc != ERROR_NOT_ENOUGH_MEMORY && rc != ERROR_MORE_DATA)
      return v2_error(err, what, rc);
    size_t want = actual > *size ? actual : *size * 2;
    if (want > MAX_ANSWER) {
      wp_error_set_code(err, WP_E_LIMIT, "%s: answer larger than %zu bytes",
                        what, MAX_ANSWER);
      return WP_SOURCE_ERROR;
    }
    *size = want;
  }
  wp_error_set(err, "%s: the answer kept growing", what);
  return WP_SOURCE_ERROR;
}

static ULONG call_info(wp_v2_query *q, const void *arg, uint8_t *buf,
                       DWORD size, DWORD *actual) {
  (void)arg;
  return q->info(q->handle, buf, size, actual);
}

static ULONG call_data(wp_v2_query *q, const void *arg, uint8_t *buf,
                       DWORD size, DWORD *actual) {
  (void)arg;
  return q->data(q->handle, buf, size, actual);
}

static ULONG call_reginfo(wp_v2_query *q, const void *arg, uint8_t *buf,
                          DWORD size, DWORD *actual) {
  const pd_guid *g = arg;
  GUID guid;
  guid.Data1 = g->data1;
  guid.Data2 = g->data2;
  guid.Data3 = g->data3;
  memcpy(guid.Data4, g->data4, 8);
  return q->reginfo(q->machine, &guid, PERF_REG_COUNTERSET_STRUCT, 0, buf, size,
                    actual);
}

wp_source_status wp_v2_identifiers(wp_v2_query *q, wp_buffer *out,
                                   wp_error *err) {
  size_t size = 4096;
  return grow_call(q, call_info, NULL, &size, out, "PerfQueryCounterInfo", err);
}

wp_source_status wp_v2_collect(wp_v2_query *q, wp_buffer *out, wp_error *err) {
  return grow_call(q, call_data, NULL, &q->answer_size, out,
                   "PerfQueryCounterData", err);
}

wp_source_status wp_v2_counterset_info(wp_v2_query *q, const pd_guid *set,
                                       wp_buffer *out, wp_error *err) {
  if (q->reginfo == NULL) {
    wp_error_set(err, "PerfQueryCounterSetRegistrationInfo is not available "
                      "here");
    return WP_SOURCE_ERROR;
  }
  size_t size = 4096;
  return grow_call(q, call_reginfo, set, &size, out,
                   "PerfQueryCounterSetRegistrationInfo", err);
}
