/* collectd-winperf: a context's Counter name table, which turns the names
 * in counter paths into the indices a query asks for.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Fetching it is an expensive query on a live host, so a reload happens at
 * most once per WP_NAMES_RELOAD_MIN unless forced.
 */
#ifndef WP_PLUGIN_NAME_TABLE_H
#define WP_PLUGIN_NAME_TABLE_H

#include "context.h"

#define WP_NAMES_RELOAD_MIN TIME_T_TO_CDTIME_T_STATIC(60)

/* Load (or reload) the table and hand it to the selection. Returns whether
 * a new table is in use; a failure is logged as a warning (only numeric
 * paths resolve without a table). */
bool wp_names_load(wp_ctx *c, bool force);

/* A <Host>'s first load: as wp_names_load(c, true), but a failure at the
 * source is not logged; it returns false with the reason in err, for the
 * caller's backoff. Returns true otherwise. */
bool wp_names_first_load(wp_ctx *c, wp_error *err);

#endif
