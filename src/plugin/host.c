/* collectd-winperf: a <Host> block's failures and recoveries (host.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "host.h"

bool wp_host_waiting(const wp_ctx *c) {
  return wp_backoff_waiting(&c->backoff, cdtime(), plugin_get_interval());
}

void wp_host_failed(wp_ctx *c, const char *err) {
  wp_source_fault fault = wp_source_last_fault(c->src);
  cdtime_t d = wp_backoff_failed(&c->backoff, fault == WP_SOURCE_FAULT_AUTH,
                                 cdtime(), plugin_get_interval());
  ERROR(PLUGIN ": host \"%s\" (%s): %s: %s; attempt %u failed, next in "
               "%.0f s",
        c->host, c->address, wp_source_fault_name(fault),
        err[0] ? err : "unknown error", c->backoff.failures,
        CDTIME_T_TO_DOUBLE(d));
}

void wp_host_recovered(wp_ctx *c) {
  unsigned failures = wp_backoff_recovered(&c->backoff);
  if (failures > 0)
    INFO(PLUGIN ": host \"%s\" (%s): collecting again after %u failed "
                "attempt%s",
         c->host, c->address, failures, failures == 1 ? "" : "s");
}
