/* collectd-winperf: per-entry instance filters of the CountersFile
 * (include, exclude, total; the keys themselves: src/config/card_keys.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * No collectd header here (the unit tests use it alone). The selection
 * calls the filter once per instance and interval
 * (pd_selection_set_instance_filter); the decision is computed once per
 * full instance name and kept in a table that only allocates when a name
 * appears, so a steady interval allocates nothing. `_Total` and
 * `_Global_` (also as the last "/" part, e.g. Thread's "_Total/_Total")
 * are decided by `total` alone; include and exclude decide the others.
 */
#ifndef WP_PLUGIN_CARDINALITY_H
#define WP_PLUGIN_CARDINALITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "card_keys.h"

/* "_Total" or "_Global_", also as the part after the last '/'. */
bool wp_card_is_total(const char *full_name);

/* What the table keeps for one full instance name. */
typedef struct wp_card_inst {
  char *full; /* the key; the base name follows its NUL */
  const char *base;
  uint64_t seen; /* the interval it was last asked about */
  bool keep;
  bool total;
} wp_card_inst;

typedef struct wp_card wp_card;

/* The filters of e; NULL without memory (e's expressions were checked by
 * the loader, so nothing else fails). */
wp_card *wp_card_new(const wp_card_config *e);
void wp_card_free(wp_card *card);
/* A new interval begins (names not asked about for a while may go). */
void wp_card_begin(wp_card *card);
/* The decision for an instance: 1 keep, 0 leave out, -1 out of memory.
 * full "" (a single-instance object) is always kept. */
int wp_card_keep(wp_card *card, const char *full, const char *base);
/* What was decided for full (asked this interval), or NULL. */
const wp_card_inst *wp_card_lookup(const wp_card *card, const char *full);
/* Names kept in the table (for tests). */
size_t wp_card_size(const wp_card *card);

#endif
