/* collectd-winperf: starting a context: the source it reads from.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef WP_PLUGIN_OPEN_SOURCE_H
#define WP_PLUGIN_OPEN_SOURCE_H

#include "context.h"

/* Open the context's source (the local registry, its replay directory or
 * its remote host: src/source/open.h decides what the platform has) and
 * settle which timestamp its values carry. 0, or -1 with the reason
 * logged. */
int wp_ctx_open_source(wp_ctx *c);

/* A Replay of a .blg (src/source/replay_blg.h): its values at their own
 * times and, without a Host option, under the logged machine's name;
 * the log's warnings logged. 0, or -1 without memory. */
int wp_ctx_open_blg(wp_ctx *c);

/* Make a configured context ready to read: snapshots, selection (the
 * counters), source. 0, or -1 with the reason logged. */
int wp_ctx_start(wp_ctx *c);

#endif
