/* collectd-winperf: one computed counter value to collectd's writers, and
 * the names values go under.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef WP_PLUGIN_DISPATCH_H
#define WP_PLUGIN_DISPATCH_H

#include "context.h"

/* Dispatch one result of the context's selection as a value_list_t named by
 * the naming rule (naming.h) and the entry's overrides. Returns whether a
 * value was dispatched (a formatted value needs a computed value; a raw one
 * a numeric counter; counter and absolute types cannot carry negatives).
 * The names are kept in c's name cache (name_cache.h) for the next
 * intervals. */
bool wp_dispatch_result(wp_ctx *c, const pd_result *r);

/* The names a result of the context's selection is dispatched under: its
 * plugin_instance and type_instance (naming.h, with the entry's or the
 * block's MetricNames and InstanceNames and the entry's overrides), and
 * its type, returned. */
const char *wp_result_names(const wp_ctx *c, const pd_result *r,
                            char plugin_instance[DATA_MAX_NAME_LEN],
                            char type_instance[DATA_MAX_NAME_LEN]);

/* Dispatch an aggregate (CountersFile `aggregate`): r's names and type with
 * `instance` (the base name) and the computed `value`, always as a
 * formatted value (an aggregate folds computed values, whatever ValueMode
 * says). Returns whether a value was dispatched. */
bool wp_dispatch_aggregate(wp_ctx *c, const pd_result *r, const char *instance,
                           double value);

/* Two counters dispatched under one name: MetricNames "clean" maps names
 * many to one ("C:" and "c" are both "c"; "Ærø" and "aero" both "aero"),
 * as can overrides and the '/' -> '_' of the default rule. Two different
 * counters under one collectd identifier (plugin_instance, type and
 * type_instance) write one series: whichever comes last wins. So does
 * one counter of two entries whose output settings differ (so both
 * dispatch it: dedup_groups.h) but not its name (a scale, a pairing, a
 * raw value of the same type). Each such pair of counters (of entries) is
 * logged once, naming both, over the results of the first
 * interval after a names table is loaded (for replay and remote sources it
 * arrives after start-up); instances that appear later are not looked at.
 * Called after an evaluation: looks for clashes among res when the names
 * table is not the one last looked at. Allocates only then (and logs "out
 * of memory" when it cannot). */
void wp_clashes_check(wp_ctx *c, const pd_result *res, size_t n);

#endif
