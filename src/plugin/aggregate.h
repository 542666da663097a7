/* collectd-winperf: one entry's results of an interval grouped for
 * `aggregate` and capped for `max_instances` (CountersFile, cardinality.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * No collectd header here. The read loop feeds the results of one entry
 * (wp_agg_add), wp_agg_finish sorts them by instance name in byte order,
 * folds each base name's values into one (aggregate) and keeps the first
 * max_instances names; the caller dispatches what is left. The storage is
 * kept across intervals and grows only when an entry has more results than
 * ever before, so a steady interval allocates nothing.
 */
#ifndef WP_PLUGIN_AGGREGATE_H
#define WP_PLUGIN_AGGREGATE_H

#include <stdbool.h>
#include <stddef.h>

#include "perfdata.h"

typedef struct wp_agg_item {
  const pd_result *r; /* the group's first result: object, counter, type */
  const char *name;   /* the instance name to dispatch */
  double value;       /* an aggregate: the folded value */
  size_t n;           /* an aggregate: how many values were folded in */
  bool total;         /* _Total/_Global_: dispatched as itself, uncounted */
} wp_agg_item;

typedef struct wp_agg {
  wp_agg_item *items;
  size_t count, cap;
  int mode;          /* WP_AGG_* */
  unsigned long max; /* max_instances, 0: none */
  size_t names;      /* after wp_agg_finish: distinct names, totals aside */
  size_t dropped;    /* ... and how many of them the cap left out */
} wp_agg;

/* Start an entry: mode WP_AGG_*, max its max_instances (0: no cap). */
void wp_agg_begin(wp_agg *a, int mode, unsigned long max);
/* One result: name its full instance name, base its base name (used with
 * an aggregate mode unless total). -1 when out of memory. */
int wp_agg_add(wp_agg *a, const pd_result *r, const char *name,
               const char *base, bool total);
/* Sort, fold and cap: items[0 .. count) are what to dispatch, in byte
 * order of name. An aggregate item with n == 0 has no value. */
void wp_agg_finish(wp_agg *a);
void wp_agg_free(wp_agg *a);

#endif
