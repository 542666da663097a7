/* collectd-winperf: the local V1 source, RegQueryValueExW on
 * HKEY_PERFORMANCE_DATA (format.md 1.6). The only source file with windows.h.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "registry.h"

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <stdlib.h>
#include <string.h>

#define DEFAULT_INITIAL ((size_t)64 << 10)
#define DEFAULT_MAX ((size_t)256 << 20)
#define MIN_SIZE ((size_t)8) /* so "start tiny" really starts tiny */

typedef struct registry_source {
  wp_source base; /* first: wp_source * casts to it */
  wp_registry_options opt;
  size_t size;   /* bytes offered on the next query: the high-water size */
  bool key_used; /* HKEY_PERFORMANCE_DATA has been queried (is open) */
  DWORD last_counter;
  wp_registry_stats stats;
} registry_source;

/* "<what>: error <code>: <system message>" (WP_E_IO). */
static void win_error(wp_error *err, LONG code, const char *what) {
  char msg[256] = "";
  DWORD n = FormatMessageA(
      FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL,
      (DWORD)code, MAKELANGID(LANG_ENGLISH, SUBLANG_ENGLISH_US), msg,
      sizeof msg, NULL);
  while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == '\r' ||
                   msg[n - 1] == ' ' || msg[n - 1] == '.'))
    msg[--n] = '\0';
  wp_error_set_code(err, WP_E_IO, "%s: error %ld%s%s", what, (long)code,
                    n ? ": " : "", msg);
}

/* "Last Counter" under Perflib: changes when counters are (un)installed. */
static DWORD read_last_counter(void) {
  DWORD value = 0, size = sizeof value, type = 0;
  HKEY key;
  if (RegOpenKeyExW(HKEY_LOCAL_MACHINE,
                    L"SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Perflib",
                    0, KEY_READ, &key) != ERROR_SUCCESS)
    return 0;
  if (RegQueryValueExW(key, L"Last Counter", NULL, &type, (LPBYTE)&value,
                       &size) != ERROR_SUCCESS ||
      type != REG_DWORD)
    value = 0;
  RegCloseKey(key);
  return value;
}

/* One query with the growth and busy-retry loop. `size` is both the first
 * size offered and, on success, the size that sufficed. */
static wp_source_status query(registry_source *rs, HKEY key,
                              const wchar_t *value, size_t *size,
                              wp_buffer *out, wp_error *err) {
  unsigned busy = 0;
  for (;;) {
    if (*size > UINT32_MAX)
      *size = UINT32_MAX;
    if (wp_buffer_reserve(out, *size) != 0) {
      wp_error_set_code(err, WP_E_NOMEM, "out of memory for a %zu-byte buffer",
                        *size);
      return WP_SOURCE_ERROR;
    }
    DWORD type = 0, len = (DWORD)*size;
    LONG rc = RegQueryValueExW(key, value, NULL, &type, out->data, &len);
    if (key == HKEY_PERFORMANCE_DATA)
      rs->key_used = true;
    if (rc == ERROR_SUCCESS) {
      out->len = len <= *size ? len : *size;
      return WP_SOURCE_OK;
    }
    if (rc == ERROR_MORE_DATA) {
      /* The size the call reports is not usable (format.md 1.6): double. */
      rs->stats.grows++;
      if (*size >= rs->opt.max_size) {
        wp_error_set_code(
            err, WP_E_LIMIT,
            "the answer needs more than the %zu-byte maximum buffer",
            rs->opt.max_size);
        return WP_SOURCE_ERROR;
      }
      *size = *size > rs->opt.max_size / 2 ? rs->opt.max_size : *size * 2;
      continue;
    }
    if (rc == ERROR_BUSY && busy < rs->opt.busy_retries) {
      busy++;
      rs->stats.busy++;
      Sleep(rs->opt.busy_wait_ms);
      continue;
    }
    win_error(err, rc, "RegQueryValueExW");
    return WP_SOURCE_ERROR;
  }
}

static wchar_t *to_wide(const char *s) {
  int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
  if (n <= 0)
    return NULL;
  wchar_t *w = malloc((size_t)n * sizeof *w);
  if (w != NULL &&
      MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n) != n) {
    free(w);
    w = NULL;
  }
  return w;
}

static wp_source_status reg_collect(wp_source *src, const char *q,
                                    wp_buffer *out, wp_error *err) {
  registry_source *rs = (registry_source *)src;
  if (q == NULL || q[0] == '\0') {
    wp_error_set(err, "empty query (give an object index list)");
    return WP_SOURCE_ERROR;
  }
  wchar_t *wq = to_wide(q);
  if (wq == NULL) {
    wp_error_set(err, "query '%s' is not valid UTF-8", q);
    return WP_SOURCE_ERROR;
  }
  size_t size = rs->size;
  wp_source_status st = query(rs, HKEY_PERFORMANCE_DATA, wq, &size, out, err);
  free(wq);
  if (st == WP_SOURCE_OK) {
    rs->size = size; /* high water: the next interval starts here */
    rs->stats.high_water = size;
    rs->stats.queries++;
  }
  return st;
}

/* A name table: too small a buffer gives ERROR_MORE_DATA here too. */
static wp_source_status names_from(wp_source *src, HKEY key, wp_buffer *out,
                                   wp_error *err) {
  registry_source *rs = (registry_source *)src;
  size_t size = (size_t)1 << 20;
  if (size > rs->opt.max_size)
    size = rs->opt.max_size;
  wp_source_status st = query(rs, key, L"Counter", &size, out, err);
  if (st != WP_SOURCE_OK)
    wp_error_prefix(err, "%s \"Counter\": ",
                    key == HKEY_PERFORMANCE_TEXT ? "HKEY_PERFORMANCE_TEXT"
                                                 : "HKEY_PERFORMANCE_NLSTEXT");
  return st;
}

static wp_source_status reg_names(wp_source *src, wp_buffer *out,
                                  wp_error *err) {
  return names_from(src, HKEY_PERFORMANCE_TEXT, out, err);
}

wp_source_status wp_registry_names_local(wp_source *src, wp_buffer *out,
                                         wp_error *err) {
  return names_from(src, HKEY_PERFORMANCE_NLSTEXT, out, err);
}

/* Close HKEY_PERFORMANCE_DATA now (every provider unloads); the next
 * collect reopens it. */
static void wp_registry_reload(wp_source *src) {
  registry_source *rs = (registry_source *)src;
  if (rs->key_used) {
    RegCloseKey(HKEY_PERFORMANCE_DATA); /* unloads every provider */
    rs->key_used = false;
  }
  rs->last_counter = read_last_counter();
  rs->stats.reloads++;
}

bool wp_registry_counters_changed(wp_source *src) {
  registry_source *rs = (registry_source *)src;
  if (read_last_counter() == rs->last_counter)
    return false;
  wp_registry_reload(src);
  return true;
}

static uint32_t reg_last_counter(wp_source *src) {
  return ((const registry_source *)src)->last_counter;
}

void wp_registry_get_stats(const wp_source *src, wp_registry_stats *out) {
  *out = ((const registry_source *)src)->stats;
}

void wp_registry_sleep_ms(unsigned long ms) {
  Sleep((DWORD)ms);
}

static void reg_destroy(wp_source *src) {
  registry_source *rs = (registry_source *)src;
  if (rs->key_used)
    RegCloseKey(HKEY_PERFORMANCE_DATA);
  free(rs);
}

wp_source *wp_registry_open(const wp_registry_options *opt, wp_error *err) {
  registry_source *rs = calloc(1, sizeof *rs);
  if (rs == NULL) {
    wp_error_nomem(err);
    return NULL;
  }
  if (opt != NULL)
    rs->opt = *opt;
  if (rs->opt.max_size == 0)
    rs->opt.max_size = DEFAULT_MAX;
  if (rs->opt.initial_size == 0)
    rs->opt.initial_size = DEFAULT_INITIAL;
  if (rs->opt.initial_size < MIN_SIZE)
    rs->opt.initial_size = MIN_SIZE;
  if (rs->opt.initial_size > rs->opt.max_size)
    rs->opt.initial_size = rs->opt.max_size;
  if (rs->opt.busy_retries == 0)
    rs->opt.busy_retries = 5;
  if (rs->opt.busy_wait_ms == 0)
    rs->opt.busy_wait_ms = 50;
  rs->size = rs->opt.initial_size;
  rs->last_counter = read_last_counter();
  rs->base.kind = "registry";
  rs->base.collect = reg_collect;
  rs->base.names = reg_names;
  rs->base.destroy = reg_destroy;
  rs->base.names_changed = wp_registry_counters_changed;
  rs->base.last_counter = reg_last_counter;
  return &rs->base;
}
