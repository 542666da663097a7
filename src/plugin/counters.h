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

/* Build the selection for a list (entry i is path id i) and the per-entry
 * state: every type override is checked against types.db (read after the
 * configuration, so this runs at init). 0, or -1 with the error logged
 * (FILE:LINE:COLUMN of the entry) and nothing returned. */
int wp_counters_select(const wp_counter_list *list, const char *file,
                       const pd_calc_options *calc, pd_selection **sel_out,
                       wp_entry_rt **rt_out);

/* After an evaluation: warn once per entry that matched nothing, until it
 * matches again. Returns whether any entry matched nothing. */
bool wp_counters_check_matches(wp_ctx *c);

#endif
