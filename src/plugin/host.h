/* collectd-winperf: a <Host> block's failures and recoveries.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A failing host backs off in its own context (backoff.h): its read
 * callback returns 0 and skips intervals until the retry time, so collectd
 * never suspends it, and the log says which host failed, how and when the
 * next try is.
 */
#ifndef WP_PLUGIN_HOST_H
#define WP_PLUGIN_HOST_H

#include "context.h"

/* Whether this interval is to be skipped: the host is backing off. */
bool wp_host_waiting(const wp_ctx *c);

/* An attempt failed at the source (err: the source's message): log the
 * kind of failure and back off. */
void wp_host_failed(wp_ctx *c, const char *err);

/* An attempt succeeded: log the recovery after failures. */
void wp_host_recovered(wp_ctx *c);

#endif
