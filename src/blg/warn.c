/* collectd-winperf: the .blg reader's warnings (kept up to
 * BLG_MAX_WARNINGS, all counted).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "blg_internal.h"

#include <stdio.h>

void blg_warn(blg_log *log, size_t offset, const char *fmt, ...) {
  if (log->warning_count < BLG_MAX_WARNINGS) {
    blg_warning *w = &log->warnings[log->warning_count];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->message, sizeof w->message, fmt, ap);
    va_end(ap);
    w->offset = offset;
  }
  log->warning_count++;
}
