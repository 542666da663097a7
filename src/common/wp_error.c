/* collectd-winperf: the error value outside the parser (wp_error.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "wp_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wp_grow.h"

void wp_error_clear(wp_error *err) {
  if (err == NULL)
    return;
  err->code = WP_E_NONE;
  err->message[0] = '\0';
}

int wp_error_vset(wp_error *err, wp_error_code code, const char *fmt,
                  va_list ap) {
  if (err == NULL)
    return -1;
  err->code = code;
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  return -1;
}

int wp_error_set(wp_error *err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  wp_error_vset(err, WP_E_FAILED, fmt, ap);
  va_end(ap);
  return -1;
}

int wp_error_set_code(wp_error *err, wp_error_code code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  wp_error_vset(err, code, fmt, ap);
  va_end(ap);
  return -1;
}

int wp_error_nomem(wp_error *err) {
  return wp_error_set_code(err, WP_E_NOMEM, "out of memory");
}

int wp_error_errno(wp_error *err, int errnum, const char *fmt, ...) {
  if (err == NULL)
    return -1;
  va_list ap;
  va_start(ap, fmt);
  wp_error_vset(err, WP_E_IO, fmt, ap);
  va_end(ap);
  size_t n = strlen(err->message);
  snprintf(err->message + n, sizeof err->message - n, ": %s", strerror(errnum));
  return -1;
}

int wp_error_prefix(wp_error *err, const char *fmt, ...) {
  if (err == NULL)
    return -1;
  char old[sizeof err->message];
  memcpy(old, err->message, sizeof old);
  old[sizeof old - 1] = '\0';
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  size_t n = strlen(err->message);
  snprintf(err->message + n, sizeof err->message - n, "%s", old);
  if (err->code == WP_E_NONE)
    err->code = WP_E_FAILED;
  return -1;
}

int wp_error_grow(wp_error *err, int grow_status, size_t max,
                  const char *what) {
  if (grow_status == WP_GROW_LIMIT)
    return wp_error_set_code(err, WP_E_LIMIT, "more than %zu %s", max, what);
  return wp_error_nomem(err);
}
