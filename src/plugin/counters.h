/* collectd-winperf: a context's counter list, from the CountersFile to the
 * selection the read path evaluates.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The steps take their inputs and outputs as arguments, so a new list can
 * be loaded and built beside the one in use and swapped in when it is good.
 */
#ifndef WP_PLUGIN_COUNTERS_H
#define WP_PLUGIN_COUNTERS_H

#include "context.h"

/* Read and parse the context's CountersFile into *out. 0, or -1 with the
 * error logged (FILE:LINE:COLUMN, and the <Host> block if any). */
int wp_counters_read(const wp_ctx *c, wp_counter_list *out);

/* Build the selection for the context's list and the per-entry state
 * (c->sel, c->rt, c->paths; set only on success): every path of an entry
 * (its alternatives get consecutive path ids, c->paths maps an id back to
 * its entry), the filters of its cardinality keys, and every type override
 * checked against types.db (read after the configuration, so this runs at
 * init). 0, or -1 with the error logged (FILE:LINE:COLUMN of the entry). */
int wp_counters_select(wp_ctx *c);

/* Before an evaluation of `snap`: a new interval for the filters, and for
 * each entry with alternatives the first path whose object is in the
 * answer (chosen again when the names table changed, and each interval
 * while none is). */
void wp_counters_begin(wp_ctx *c, const pd_snapshot *snap);

/* Dispatch an evaluation's results: each through its entry (path id ->
 * entry), grouped and capped where the entry has aggregate or
 * max_instances. */
void wp_counters_dispatch(wp_ctx *c, const pd_result *res, size_t count);

/* After an evaluation: warn once per entry that matched nothing, until it
 * matches again (an entry with alternatives counts once). Returns whether
 * any entry matched nothing. */
bool wp_counters_check_matches(wp_ctx *c);

/* How many entries matched nothing in the last interval (as counted by
 * wp_counters_check_matches). */
size_t wp_counters_unmatched(const wp_ctx *c);

#endif
