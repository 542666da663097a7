/* collectd-winperf: a remote host's failures, recoveries and turns.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A failing host backs off in its own context (backoff.h): its read
 * callback returns 0 and skips intervals until the retry time, so collectd
 * never suspends it, and the log says which host failed, how and when the
 * next try is. A refused logon is not the host's: its credential pauses
 * (credentials.h) and the host waits for the credential's retry, not for a
 * backoff of its own.
 *
 * Each interval a host is admitted (wp_host_admit) before its first
 * request: its credential must let it go (unproven or paused: one host at
 * a time), and a request that may start a helper or log on needs a place
 * under MaxConcurrentConnects (fleet.h); otherwise the interval is skipped,
 * which is not a failure. wp_host_release ends the turn with its outcome.
 */
#ifndef WP_PLUGIN_HOST_H
#define WP_PLUGIN_HOST_H

#include "context.h"

/* Whether this interval is to be skipped: the host is backing off. */
bool wp_host_waiting(const wp_ctx *c);

/* Whether the host may send requests this interval. */
bool wp_host_admit(wp_ctx *c);

/* The end of an admitted interval (also from wp_ctx_free): the
 * credential's turn with this interval's outcome, the connect place. */
void wp_host_release(wp_ctx *c);

/* The credential's turn ends now with this interval's outcome so far: a
 * first request that succeeded proves it, and the other hosts may go
 * while this one goes on with its query. */
void wp_host_logged_on(wp_ctx *c);

/* An attempt failed at the source (err: the source's message): log the
 * kind of failure and back off (a refused logon: see above). */
void wp_host_failed(wp_ctx *c, const char *err);

/* An attempt succeeded: log the recovery after failures. */
void wp_host_recovered(wp_ctx *c);

/* Seconds until the next try: the host's backoff, or its paused
 * credential's retry; 0 when it tries at its next interval. */
cdtime_t wp_host_wait_left(const wp_ctx *c);

#endif
