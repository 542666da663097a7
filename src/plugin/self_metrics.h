/* collectd-winperf: what each context tells about itself, as collectd
 * values ("self-metrics").
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Every interval, unless SelfMetrics is false, a context dispatches with
 * its host (the one its counter values carry), plugin "winperf", plugin
 * instance "self" and, as type-type_instance:
 *   duration-query          seconds the source took to return the blob
 *   bytes-blob              the blob's size
 *                           (both when a blob arrived)
 *   duration-decode         seconds to decode, select and compute
 *   count-objects           objects in the decoded answer
 *   count-instances         instance definitions in it (a single-instance
 *                           object has none)
 *   count-values            values dispatched this interval
 *   count-unmatched_paths   counter-file entries that matched nothing
 *                           (these five when the blob decoded)
 *   count-errors            decode errors and source failures since start
 *                           (every interval; a gauge, so Graphite stores
 *                           the count as InfluxDB does, not a rate)
 *   duration-backoff        a remote host: seconds until the next try (its
 *                           backoff, or its paused credential's retry), 0
 *                           when healthy (every interval)
 *   count-auth_paused       a remote host: 1 while its credential is
 *                           paused after a refused logon, else 0
 *   gauge-clock_skew        a remote host: its sample's time less
 *                           collectd's, in seconds (when the sample carries
 *                           a time after 1970)
 * Values are stamped when dispatched (never with the sample's time, so a
 * failing interval's errors come after the last good one's). Nothing here
 * allocates.
 */
#ifndef WP_PLUGIN_SELF_METRICS_H
#define WP_PLUGIN_SELF_METRICS_H

#include "context.h"

/* The start of an interval: forget the last interval's readings. */
void wp_self_begin(wp_ctx *c);

/* Time elapsed since `start` (cdtime()); 0 if the clock went back. */
cdtime_t wp_self_since(cdtime_t start);

/* A blob of `bytes` arrived; the source took `took`. */
void wp_self_collected(wp_ctx *c, cdtime_t took, size_t bytes);

/* The blob in slot n decoded and was evaluated in `took`. */
void wp_self_evaluated(wp_ctx *c, cdtime_t took, int n);

/* A source failure or a decode error. */
void wp_self_error(wp_ctx *c);

/* The end of an interval: dispatch what was measured. */
void wp_self_dispatch(const wp_ctx *c);

#endif
