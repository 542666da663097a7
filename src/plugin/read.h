/* collectd-winperf: one interval of one context.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef WP_PLUGIN_READ_H
#define WP_PLUGIN_READ_H

#include "context.h"

/* Query the source, decode, select, compute and dispatch. Always 0: a
 * failed interval is logged and skipped (-1 would make collectd suspend the
 * read callback); a failing <Host> backs off on its own (host.h). */
int wp_read_interval(wp_ctx *c);

#endif
