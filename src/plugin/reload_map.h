/* collectd-winperf: which entries of a new counter list were already in the
 * list in use (live reload of the CountersFile, reload.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * No collectd header here, so the mapping is unit-tested on its own
 * (tests/plugin/test_reload_map.c).
 */
#ifndef WP_PLUGIN_RELOAD_MAP_H
#define WP_PLUGIN_RELOAD_MAP_H

#include "counters_yaml.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* No entry of the old list: an added entry. */
#define WP_RELOAD_NONE SIZE_MAX

/* For each entry i of `now`, map[i] = the entry of `old` that is the same
 * (wp_reload_entry_same), or WP_RELOAD_NONE: an added entry. Each old entry
 * is used at most once (a path listed twice with the same keys maps to the
 * old list's first, then its second copy). `map` has now->count elements.
 * *kept gets how many entries map to an old one. 0, or -1 when memory runs
 * out (map untouched). */
int wp_reload_map(const wp_counter_list *old, const wp_counter_list *now,
                  size_t *map, size_t *kept);

#endif
