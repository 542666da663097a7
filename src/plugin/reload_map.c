/* collectd-winperf: old and new counter list entries paired (reload_map.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * An open-addressing table of the old entries, hashed on the path only (so
 * a new key needs no change here: entries that differ in a key share a
 * bucket and wp_reload_entry_same tells them apart). A matched old entry
 * leaves a tombstone, so it is not used twice.
 */
#include "reload_map.h"

#include <stdlib.h>
#include <string.h>

#define TOMBSTONE SIZE_MAX /* a used old entry; 0 is an empty slot */

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

bool wp_reload_entry_same(const wp_counter_entry *a,
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

static size_t hash_path(const char *s) { /* FNV-1a */
  uint64_t h = 14695981039346656037ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return (size_t)(h ^ (h >> 32));
}

int wp_reload_map(const wp_counter_list *old, const wp_counter_list *now,
                  size_t *map, size_t *kept) {
  size_t cap = 16;
  while (cap < 2 * old->count) /* old->count <= WP_COUNTERS_MAX_ENTRIES */
    cap *= 2;
  size_t *slot = calloc(cap, sizeof(*slot)); /* old index + 1, 0: empty */
  if (slot == NULL)
    return -1;
  for (size_t j = 0; j < old->count; j++) {
    size_t h = hash_path(old->entries[j].path) & (cap - 1);
    while (slot[h] != 0)
      h = (h + 1) & (cap - 1);
    slot[h] = j + 1;
  }
  *kept = 0;
  for (size_t i = 0; i < now->count; i++) {
    const wp_counter_entry *e = &now->entries[i];
    map[i] = WP_RELOAD_NONE;
    /* First free-or-matching slot in insertion order: the old list's
     * first copy of a duplicated entry is found first. */
    for (size_t h = hash_path(e->path) & (cap - 1); slot[h] != 0;
         h = (h + 1) & (cap - 1)) {
      if (slot[h] == TOMBSTONE ||
          !wp_reload_entry_same(&old->entries[slot[h] - 1], e))
        continue;
      map[i] = slot[h] - 1;
      slot[h] = TOMBSTONE;
      (*kept)++;
      break;
    }
  }
  free(slot);
  return 0;
}
