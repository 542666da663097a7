/* collectd-winperf: the entries whose output settings are alike, as one
 * deduplication group (dedup_groups.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "dedup_groups.h"
#include "naming.h"
#include "wp_grow.h"
#include "wp_hash.h"
#include "wp_table.h"

#include <stdlib.h>
#include <string.h>

/* What a value of one path becomes, as far as the entry's settings decide
 * (dedup_groups.h): each setting as it takes effect, -1 (or NULL) where it
 * cannot change the value or its identifier. */
typedef struct output_key {
  const char *type;            /* NULL: the rule's by counter type (raw) */
  const char *plugin_instance; /* overrides, NULL: none */
  const char *type_instance;
  uint64_t scale_bits; /* the scale's bits: 0.0 and -0.0 differ */
  size_t own;          /* the entry, for aggregate / max_instances; else 0 */
  int8_t raw, instance_wildcard, counter_wildcard;
  int8_t metric_names, instance_names, pair_by;
  bool alone; /* aggregate or max_instances: a group of its own */
} output_key;

size_t wp_dedup_path_count(const wp_counter_list *list) {
  size_t n = 0;
  for (size_t i = 0; i < list->count; i++)
    n += 1 + list->entries[i].alt_count;
  return n;
}

static int either(int entry, int block) {
  return entry >= 0 ? entry : block;
}

/* The key of entry e's path a (0: e->path, else e->alts[a - 1]); with
 * names_only, of its identifier alone: the settings that change only the
 * value (scale, pairing but for pid names, raw with a type) left out. */
static output_key key_of(const wp_counter_entry *e, size_t entry, size_t a,
                         const wp_output_defaults *d, bool names_only) {
  bool iw =
      a > 0 ? e->alts[a - 1].instance_has_wildcard : e->instance_has_wildcard;
  bool cw =
      a > 0 ? e->alts[a - 1].counter_has_wildcard : e->counter_has_wildcard;
  bool raw = e->raw >= 0 ? e->raw == 1 : d->raw;
  int instance_names = either(e->instance_names, d->instance_names);
  /* Which names of the counter the identifier holds (naming.h). */
  bool object_named = e->plugin_instance == NULL;
  bool instance_named = e->plugin_instance == NULL || iw;
  bool counter_named = e->type_instance == NULL || cw;
  output_key k;
  memset(&k, 0, sizeof k); /* padding too: hashed */
  k.type = e->type ? e->type : raw ? NULL : "gauge";
  k.plugin_instance = e->plugin_instance;
  k.type_instance = e->type_instance;
  memcpy(&k.scale_bits, &e->scale, sizeof k.scale_bits);
  k.raw = raw;
  k.instance_wildcard = e->plugin_instance != NULL && iw;
  k.counter_wildcard = e->type_instance != NULL && cw;
  k.metric_names = (int8_t)(object_named || instance_named || counter_named
                                ? either(e->metric_names, d->metric_names)
                                : -1);
  k.instance_names = (int8_t)(instance_named ? instance_names : -1);
  k.pair_by = (int8_t)(!raw || (instance_named &&
                                instance_names == WP_INSTANCE_NAMES_PID)
                           ? either(e->pair_by, d->pair_by)
                           : -1);
  k.alone = e->card.aggregate != WP_AGG_NONE || e->card.max_instances > 0;
  k.own = k.alone ? entry : 0;
  if (names_only) { /* raw without a type is in k.type (NULL) already */
    k.scale_bits = 0;
    k.raw = 0;
    if (!instance_named || instance_names != WP_INSTANCE_NAMES_PID)
      k.pair_by = -1;
  }
  return k;
}

static bool same_text(const char *a, const char *b) {
  return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static bool same_key(const output_key *a, const output_key *b) {
  return same_text(a->type, b->type) &&
         same_text(a->plugin_instance, b->plugin_instance) &&
         same_text(a->type_instance, b->type_instance) &&
         a->scale_bits == b->scale_bits && a->own == b->own &&
         a->raw == b->raw && a->instance_wildcard == b->instance_wildcard &&
         a->counter_wildcard == b->counter_wildcard &&
         a->metric_names == b->metric_names &&
         a->instance_names == b->instance_names && a->pair_by == b->pair_by &&
         a->alone == b->alone;
}

/* A text and its NUL into the hash; NULL as a lone 0x01 byte. */
static uint64_t hash_text(uint64_t h, const char *s) {
  return s ? wp_hash_bytes_from(h, s, strlen(s) + 1)
           : wp_hash_bytes_from(h, "\x01", 1);
}

static uint32_t hash_key(const output_key *k) {
  output_key scalars = *k;
  scalars.type = scalars.plugin_instance = scalars.type_instance = NULL;
  uint64_t h = wp_hash_bytes(&scalars, sizeof scalars);
  h = hash_text(h, k->type);
  h = hash_text(h, k->plugin_instance);
  return wp_hash32(hash_text(h, k->type_instance));
}

typedef struct key_lookup {
  const output_key *keys; /* one per group */
  const output_key *key;
} key_lookup;

static bool is_key(const void *ctx, uint32_t value) {
  const key_lookup *l = ctx;
  return same_key(&l->keys[value - 1], l->key);
}

/* groups[] numbered by key_of(names_only), as wp_dedup_groups says. */
static int number_paths(const wp_counter_list *list,
                        const wp_output_defaults *d, bool names_only,
                        uint32_t *groups) {
  size_t n = wp_dedup_path_count(list);
  output_key *keys = malloc((n ? n : 1) * sizeof *keys);
  wp_table index = {0};
  if (keys == NULL || n > UINT32_MAX - 1 ||
      wp_table_reserve(&index, n) != WP_GROW_OK) {
    free(keys);
    wp_table_free(&index);
    return -1;
  }
  uint32_t distinct = 0;
  size_t path = 0;
  for (size_t i = 0; i < list->count; i++) {
    const wp_counter_entry *e = &list->entries[i];
    for (size_t a = 0; a <= e->alt_count; a++, path++) {
      output_key k = key_of(e, i, a, d, names_only);
      keys[distinct] = k;
      key_lookup l = {keys, &k};
      uint32_t found =
          wp_table_find_or_put(&index, hash_key(&k), distinct + 1, is_key, &l);
      groups[path] = found ? found - 1 : distinct++;
    }
  }
  free(keys);
  wp_table_free(&index);
  return 0;
}

int wp_dedup_groups(const wp_counter_list *list, const wp_output_defaults *d,
                    uint32_t *groups) {
  return number_paths(list, d, false, groups);
}

/* What makes entries b and a of one name dispatch two values (one of the
 * settings key_of leaves out with names_only). */
static const char *difference(const wp_counter_entry *a,
                              const wp_counter_entry *b,
                              const wp_output_defaults *d) {
  if (memcmp(&a->scale, &b->scale, sizeof a->scale) != 0)
    return "scale";
  if ((a->raw >= 0 ? a->raw == 1 : d->raw) !=
      (b->raw >= 0 ? b->raw == 1 : d->raw))
    return "raw";
  return "pair_by";
}

int wp_dedup_clashes(const wp_counter_list *list, const wp_output_defaults *d,
                     const uint32_t *groups, wp_clash **out, size_t *count) {
  size_t n = wp_dedup_path_count(list), cap = 0;
  uint32_t *names = malloc((n ? n : 1) * sizeof *names);
  size_t *first = malloc((list->count ? list->count : 1) * sizeof *first);
  wp_shadowed *sh = NULL;
  size_t covered = 0;
  int rc = names == NULL || first == NULL ||
                   number_paths(list, d, true, names) != 0 ||
                   wp_dedup_shadowed(list, names, &sh, &covered) != 0
               ? -1
               : 0;
  *out = NULL;
  *count = 0;
  for (size_t i = 0, p = 0; rc == 0 && i < list->count; i++) {
    first[i] = p;
    p += 1 + list->entries[i].alt_count;
  }
  /* Covered by an earlier entry of its name: a clash unless alike (then
   * shadowed: dispatched once, under the earlier one). */
  for (size_t k = 0; rc == 0 && k < covered; k++) {
    size_t e = sh[k].entry, by = sh[k].by;
    if (groups[first[e]] == groups[first[by]])
      continue;
    if (WP_GROW(out, &cap, *count + 1, WP_GROW_NO_CAP) != WP_GROW_OK)
      rc = -1;
    else
      (*out)[(*count)++] = (wp_clash){
          e, by, difference(&list->entries[by], &list->entries[e], d)};
  }
  free(sh);
  free(first);
  free(names);
  if (rc != 0) {
    free(*out);
    *out = NULL;
    *count = 0;
  }
  return rc;
}
