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

/* After an evaluation of slot c->cur: report once per entry that matched
 * nothing, until it matches again, with the case and its fix (pd_diagnose:
 * unknown name with the closest names, object absent, names table corrupt;
 * an object without instances is info, not a warning). Returns whether any
 * entry matched nothing. */
bool wp_counters_check_matches(wp_ctx *c);

/* Counter-file entries that matched nothing in the last evaluation (an
 * entry counts once, whatever the paths it stands for). */
size_t wp_counters_unmatched(const wp_ctx *c);

/* The source failed with `err` (its message): when that says access denied
 * or RemoteRegistry stopped, say so with the fix, once until the source
 * answers again. */
void wp_counters_source_failed(wp_ctx *c, const char *err);

#endif
