/* collectd-winperf: live reload of a context's CountersFile.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Called once at the start of every interval (wp_read_interval): one stat
 * of the file, nothing allocated while it is unchanged. When its identity
 * (modification time, size, and the inode and device where the platform
 * has them) changed since the list in use was read, the file is read and
 * built beside the list in use (counters.h) and swapped in when it is
 * good. The two snapshots stay, so an unchanged entry (same path, same
 * keys: wp_reload_entry_same) pairs this interval's sample with the
 * previous one as before: no gap, no spike. An added entry dispatches
 * nothing in its first interval (its first sample, even when the previous
 * blob happens to hold its object); a removed one stops. A file that does
 * not load is logged once (FILE:LINE:COLUMN) and the list in use stays
 * until the file changes again.
 */
#ifndef WP_PLUGIN_RELOAD_H
#define WP_PLUGIN_RELOAD_H

#include "context.h"

/* The configuration's read of the CountersFile (wp_counters_read into
 * c->counters), the file's identity taken first: a change made from then
 * on, even before the first interval, is a reload. */
int wp_reload_read_first(wp_ctx *c);

/* At the start of each interval. */
void wp_reload_check(wp_ctx *c);

#endif
