/* collectd-winperf: starting a context: the source it reads from.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef WP_PLUGIN_OPEN_SOURCE_H
#define WP_PLUGIN_OPEN_SOURCE_H

#include "context.h"

/* Make a configured context ready to read: snapshots, selection (the
 * counters), source. 0, or -1 with the reason logged. */
int wp_ctx_start(wp_ctx *c);

#endif
