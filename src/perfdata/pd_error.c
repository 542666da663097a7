/* collectd-winperf: error values.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "pd_internal.h"
#include "wp_error.h"

#include <stdarg.h>
#include <stdio.h>

const char *pd_status_name(pd_status status) {
  switch (status) {
  case PD_OK:
    return "ok";
  case PD_E_TRUNCATED:
    return "truncated";
  case PD_E_SIGNATURE:
    return "bad-signature";
  case PD_E_BYTE_ORDER:
    return "byte-order-mismatch";
  case PD_E_HEADER:
    return "bad-header";
  case PD_E_OBJECT:
    return "bad-object";
  case PD_E_COUNTER_DEF:
    return "bad-counter-definition";
  case PD_E_INSTANCE:
    return "bad-instance";
  case PD_E_COUNTER_BLOCK:
    return "bad-counter-block";
  case PD_E_NAME:
    return "bad-name";
  case PD_E_LIMIT:
    return "limit-exceeded";
  case PD_E_NOMEM:
    return "out-of-memory";
  case PD_E_NAMES_TABLE:
    return "bad-names-table";
  case PD_E_PATH:
    return "bad-path";
  case PD_E_ARGUMENT:
    return "bad-argument";
  case PD_E_V2:
    return "bad-v2-data";
  }
  return "unknown";
}

pd_status pd_error_set(pd_error *err, pd_status status, size_t offset,
                       const char *fmt, ...) {
  if (err == NULL)
    return status;
  err->status = status;
  err->offset = offset;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return status;
}

pd_status pd_error_range(pd_error *err, pd_status status, const wire_sized *s,
                         const char *field) {
  return pd_error_set(err, status, s->at,
                      "offset 0x%zx: %s %u outside [%u, %zu]", s->at, field,
                      s->length, s->min, s->max);
}

int wp_error_from_pd(wp_error *err, const pd_error *pd) {
  wp_error_code code = pd->status == PD_E_NOMEM   ? WP_E_NOMEM
                       : pd->status == PD_E_LIMIT ? WP_E_LIMIT
                                                  : WP_E_PARSER;
  if (pd->message[0] != '\0')
    return wp_error_set_code(err, code, "%s", pd->message);
  return wp_error_set_code(err, code, "%s", pd_status_name(pd->status));
}
