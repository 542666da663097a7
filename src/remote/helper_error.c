/* collectd-winperf: the helper's error value (helper_error.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "helper_error.h"

#include <stdarg.h>
#include <stdio.h>

int herr_set(herr *e, wpr_error_kind kind, const char *fmt, ...) {
  va_list ap;
  e->kind = kind;
  e->transport = 0;
  va_start(ap, fmt);
  vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
  va_end(ap);
  return -1;
}
