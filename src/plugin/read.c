/* collectd-winperf: one interval of one context (read.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A sample is collected and decoded into the newer of two buffer/snapshot
 * slots; the older slot's snapshot points into the older buffer and stays
 * untouched until the newer one has decoded, so a bad blob costs one
 * interval and never the previous sample.
 */
#include "read.h"
#include "counters.h"
#include "dispatch.h"
#include "host.h"
#include "name_table.h"
#include "reload.h"
#include "self_metrics.h"

#include <math.h>

/* The source failed (err: its message): counted, explained where the cause
 * is known, and a <Host> backs off. */
static void source_failed(wp_ctx *c, const char *err) {
  wp_self_error(c);
  wp_counters_source_failed(c, err);
  if (c->kind == WP_SOURCE_REMOTE)
    wp_host_failed(c, err); /* our own backoff, not collectd's suspension */
}

/* Before the query: a <Host> may be backing off or still lack its names
 * table; the others load theirs once. Returns whether to go on. */
static bool ready(wp_ctx *c) {
  if (c->kind != WP_SOURCE_REMOTE) {
    if (!c->names_tried)
      wp_names_load(c, true);
    return true;
  }
  if (wp_host_waiting(c) || !wp_host_admit(c))
    return false;
  if (c->names == NULL) {
    wp_error err;
    if (!wp_names_first_load(c, &err)) {
      source_failed(c, err.message);
      return false;
    }
    c->iv_ok = true;
    wp_host_logged_on(c); /* the credential is proven: the others go */
  }
  return true;
}

/* A remote host's clock against collectd's: the offset as a self-metric,
 * and past MaxClockSkew its values stamped with collectd's time (they
 * would land at the host's own and be dropped as too old, or fall outside
 * every recent query), with one warning when it starts and one when the
 * clock is back. */
static void check_clock(wp_ctx *c, int n) {
  int64_t t = pd_snapshot_header(c->snap[n])->perf_time_100ns;
  c->has_skew = c->max_clock_skew > 0 && t > WP_EPOCH_DIFF_100NS;
  if (!c->has_skew)
    return;
  double sample = (double)(t - WP_EPOCH_DIFF_100NS) / 1e7;
  c->clock_skew = sample - CDTIME_T_TO_DOUBLE(cdtime());
  bool skewed = fabs(c->clock_skew) > c->max_clock_skew;
  if (skewed && !c->skewed)
    WARNING(PLUGIN ": host \"%s\": its clock is %.0f s %s collectd's "
                   "(MaxClockSkew %.0f s): its values are stamped with "
                   "collectd's time until it is back within",
            c->host, fabs(c->clock_skew),
            c->clock_skew > 0 ? "ahead of" : "behind", c->max_clock_skew);
  else if (!skewed && c->skewed)
    INFO(PLUGIN ": host \"%s\": its clock is within MaxClockSkew again "
                "(%.1f s); its values carry the sample's time",
         c->host, c->clock_skew);
  c->skewed = skewed;
}

/* The object index list to ask for; NULL when no path resolves or there
 * is no memory to resolve them (pd_selection_query's NULL). */
static const char *resolve_query(wp_ctx *c) {
  size_t unresolved = 0;
  const char *query = pd_selection_query(c->sel, &unresolved);
  /* An unresolved path is worth a reload while nothing resolves or an
   * entry matches nothing: a localized alternative the English one stands
   * in for is not (counters.h). */
  if (query != NULL && unresolved > 0 &&
      (*query == '\0' || wp_counters_unmatched(c) > 0) &&
      wp_names_load(c, false)) /* rate-limited */
    query = pd_selection_query(c->sel, &unresolved);
  if (query == NULL) {
    ERROR(PLUGIN ": %s: out of memory resolving the counter paths; interval "
                 "skipped",
          c->kind == WP_SOURCE_REMOTE ? c->host : c->src->kind);
    c->failing = true;
    return NULL;
  }
  if (*query == '\0') {
    if (!c->warned_nothing_resolves)
      WARNING(PLUGIN ": no configured path resolves to an object in the "
                     "names table; retrying each interval");
    c->warned_nothing_resolves = true;
    return NULL;
  }
  c->warned_nothing_resolves = false;
  return query;
}

/* One blob into buffer slot n. Returns whether it arrived. */
static bool collect(wp_ctx *c, const char *query, int n) {
  wp_error werr;
  wp_error_clear(&werr);
  wp_source_status st = c->src->collect(c->src, query, &c->buf[n], &werr);
  const char *err = werr.message;
  if (st == WP_SOURCE_END) {
    NOTICE(PLUGIN ": %s: replay reached the end of the capture; no more "
                  "values",
           c->replay_dir ? c->replay_dir : c->src->kind);
    c->ended = true;
    return false;
  }
  if (st != WP_SOURCE_OK) {
    source_failed(c, err);
    if (c->kind == WP_SOURCE_REMOTE)
      return false;
    ERROR(PLUGIN ": %s source: %s; interval skipped", c->src->kind,
          err[0] ? err : "unknown error");
    c->failing = true;
    return false;
  }
  if (c->kind == WP_SOURCE_REMOTE)
    wp_host_recovered(c);
  return true;
}

/* Decode slot n and evaluate the selection against the older sample. */
static bool evaluate(wp_ctx *c, int n, const pd_result **res, size_t *count) {
  pd_error perr = {0};
  pd_snapshot *older = c->have_older ? c->snap[n ^ 1] : NULL;
  pd_status st =
      pd_decode(c->snap[n], c->buf[n].data, c->buf[n].len, NULL, &perr);
  if (st == PD_OK) {
    wp_counters_begin(c, c->snap[n]); /* alternatives, filters */
    st = pd_selection_evaluate(c->sel, older, c->snap[n], res, count, &perr);
  }
  if (st != PD_OK) {
    ERROR(PLUGIN ": %s: %s (%s); interval skipped", wp_ctx_where(c),
          perr.message, pd_status_name(perr.status));
    wp_self_error(c);
    c->failing = true;
    return false;
  }
  if (c->failing) {
    INFO(PLUGIN ": %s: good sample again", wp_ctx_where(c));
    c->failing = false;
  }
  return true;
}

/* The interval itself; wp_read_interval wraps it with the self-metrics. */
static void read_sample(wp_ctx *c) {
  if (!ready(c))
    return;
  const char *query = resolve_query(c);
  if (query == NULL)
    return;
  int n = c->cur;
  const pd_result *res = NULL;
  size_t count = 0;
  cdtime_t t0 = cdtime();
  if (!collect(c, query, n))
    return;
  wp_self_collected(c, wp_self_since(t0), c->buf[n].len);
  t0 = cdtime();
  if (!evaluate(c, n, &res, &count))
    return;
  wp_self_evaluated(c, wp_self_since(t0), n);
  if (c->kind == WP_SOURCE_REMOTE)
    check_clock(c, n);
  wp_clashes_check(c, res, count);
  c->self.values += wp_counters_dispatch(c, res, count);
  if (wp_counters_check_matches(c))
    wp_names_load(c, false); /* an unknown index may be new: rate-limited */
  c->have_older = true;
  c->cur = n ^ 1;
}

int wp_read_interval(wp_ctx *c) {
  wp_reload_check(c); /* a changed CountersFile: one stat */
  if (c->ended)
    return 0;
  wp_self_begin(c);
  /* ReplaySpeed: a replay's samples, that many a read */
  for (int i = 0; i < (c->replay_speed > 1 ? c->replay_speed : 1) && !c->ended;
       i++)
    read_sample(c);
  if (c->kind == WP_SOURCE_REMOTE)
    wp_host_release(c);
  if (!c->ended) /* a replay's end: no more values, nor self-metrics */
    wp_self_dispatch(c);
  return 0;
}
