/* collectd-winperf: old and new counter list entries paired (reload_map.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A table (wp_table.h) of the old entries, hashed on the path only (so a
 * new key needs no change here: entries that differ in a key share a hash
 * and wp_reload_entry_same tells them apart). A matched old entry is
 * marked used, so it is not used twice.
 */
#include "reload_map.h"
#include "wp_grow.h"
#include "wp_hash.h"
#include "wp_table.h"

#include <stdlib.h>
#include <string.h>

static bool same_str(const char *a, const char *b) {
  if (a == NULL || b == NULL)
    return a == b;
  return strcmp(a, b) == 0;
}

/* The same alternatives (path: as a list), in the same order. */
static bool same_alts(const wp_counter_entry *a, const wp_counter_entry *b) {
  if (a->alt_count != b->alt_count)
    return false;
  for (size_t i = 0; i < a->alt_count; i++)
    if (!same_str(a->alts[i].path, b->alts[i].path))
      return false;
  return true;
}

/* The same cardinality keys (include, exclude, total, aggregate, cap). */
static bool same_card(const wp_card_config *a, const wp_card_config *b) {
  return same_str(a->include, b->include) && same_str(a->exclude, b->exclude) &&
         a->total == b->total && a->aggregate == b->aggregate &&
         a->max_instances == b->max_instances;
}

/* Whether two entries are the same: the same path and the same keys (type,
 * naming overrides, scale, raw). Where in the file they are does not count.
 * THE one place that says it: a new field of wp_counter_entry that changes
 * what an entry dispatches is compared here. */
static bool wp_reload_entry_same(const wp_counter_entry *a,
                                 const wp_counter_entry *b) {
  /* Every key of wp_counter_entry is compared here, and a new key must be
   * added here. Not compared: line, column, type_line, type_column (where,
   * not what); the wildcard flags (they follow from the paths). */
  return same_str(a->path, b->path) && same_str(a->type, b->type) &&
         same_str(a->plugin_instance, b->plugin_instance) &&
         same_str(a->type_instance, b->type_instance) && a->scale == b->scale &&
         a->raw == b->raw && a->pair_by == b->pair_by &&
         a->instance_names == b->instance_names &&
         a->metric_names == b->metric_names && same_alts(a, b) &&
         same_card(&a->card, &b->card);
}

static uint32_t hash_path(const char *s) {
  return wp_hash32(wp_hash_bytes(s, strlen(s)));
}

/* A new entry against the old ones not used yet. */
typedef struct old_key {
  const wp_counter_list *old;
  const bool *used;
  const wp_counter_entry *e;
} old_key;

static bool unused_same(const void *ctx, uint32_t value) {
  const old_key *k = ctx;
  return !k->used[value - 1] &&
         wp_reload_entry_same(&k->old->entries[value - 1], k->e);
}

int wp_reload_map(const wp_counter_list *old, const wp_counter_list *now,
                  size_t *map, size_t *kept) {
  wp_table index = {0}; /* old->count <= WP_COUNTERS_MAX_ENTRIES */
  bool *used = calloc(old->count ? old->count : 1, sizeof *used);
  if (used == NULL || wp_table_reserve(&index, old->count) != WP_GROW_OK) {
    free(used);
    wp_table_free(&index);
    return -1;
  }
  for (size_t j = 0; j < old->count; j++)
    wp_table_put(&index, hash_path(old->entries[j].path), (uint32_t)j + 1);
  *kept = 0;
  for (size_t i = 0; i < now->count; i++) {
    const wp_counter_entry *e = &now->entries[i];
    /* The first unused match in the order put: the old list's first copy
     * of a duplicated entry is found first. */
    old_key k = {old, used, e};
    uint32_t v = wp_table_find(&index, hash_path(e->path), unused_same, &k);
    map[i] = v == 0 ? WP_RELOAD_NONE : v - 1;
    if (v != 0) {
      used[v - 1] = true;
      (*kept)++;
    }
  }
  free(used);
  wp_table_free(&index);
  return 0;
}
