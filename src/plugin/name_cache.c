/* collectd-winperf: the names a value was dispatched under, kept from one
 * interval to the next (see name_cache.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "name_cache.h"
#include "wp_grow.h"
#include "wp_hash.h"

#include <stdlib.h>
#include <string.h>

uint64_t wp_name_cache_hash(const void *key, size_t len) {
  uint64_t h = wp_hash_bytes(key, len); /* keys: 40 to 100 bytes */
  return h != 0 ? h : 1;
}

/* A key to find, against a kept one. */
typedef struct cache_key {
  const wp_name_cache *nc;
  const void *key;
  size_t len;
} cache_key;

static bool same_key(const void *ctx, uint32_t value) {
  const cache_key *k = ctx;
  const wp_name_slot *s = &k->nc->slots[value - 1];
  return s->key_len == k->len && memcmp(s->block, k->key, k->len) == 0;
}

/* The index anew from the slots there are. */
static void reindex(wp_name_cache *nc) {
  wp_table_clear(&nc->index);
  for (size_t i = 0; i < nc->count; i++)
    wp_table_put(&nc->index, wp_hash32(nc->slots[i].hash), (uint32_t)i + 1);
}

void wp_name_cache_tick(wp_name_cache *nc) {
  nc->interval++;
  if (nc->interval % WP_NAME_CACHE_KEEP != 0 ||
      nc->interval <= WP_NAME_CACHE_KEEP)
    return;
  uint32_t oldest = nc->interval - WP_NAME_CACHE_KEEP;
  size_t kept = 0;
  for (size_t i = 0; i < nc->count; i++) {
    if (nc->slots[i].used < oldest) {
      free(nc->slots[i].block);
      continue;
    }
    nc->slots[kept++] = nc->slots[i];
  }
  if (kept == nc->count) /* nothing changes while the keys stay the same */
    return;
  nc->count = kept;
  reindex(nc);
}

const wp_name_slot *wp_name_cache_find(wp_name_cache *nc, const void *key,
                                       size_t len, uint64_t hash) {
  cache_key k = {nc, key, len};
  uint32_t v = wp_table_find(&nc->index, wp_hash32(hash), same_key, &k);
  if (v == 0)
    return NULL;
  wp_name_slot *s = &nc->slots[v - 1];
  s->used = nc->interval;
  return s;
}

const wp_name_slot *wp_name_cache_put(wp_name_cache *nc, const void *key,
                                      size_t len, uint64_t hash,
                                      const char *plugin_instance,
                                      const char *type_instance,
                                      const char *type) {
  size_t pi = strlen(plugin_instance) + 1, ti = strlen(type_instance) + 1;
  if (len > UINT32_MAX / 4 || pi + ti > UINT32_MAX / 4)
    return NULL; /* never from dispatch.c: its keys and names are short */
  if (WP_GROW(&nc->slots, &nc->slots_cap, nc->count + 1, WP_TABLE_MAX) !=
          WP_GROW_OK ||
      wp_table_reserve(&nc->index, nc->count + 1) != WP_GROW_OK) {
    nc->failed++;
    return NULL;
  }
  nc->cap = nc->index.cap;
  wp_name_slot s = {.hash = hash,
                    .block = malloc(len + pi + ti),
                    .key_len = (uint32_t)len,
                    .ti = (uint32_t)(len + pi),
                    .used = nc->interval,
                    .type = type};
  if (s.block == NULL) {
    nc->failed++;
    return NULL;
  }
  memcpy(s.block, key, len);
  memcpy(s.block + len, plugin_instance, pi);
  memcpy(s.block + len + pi, type_instance, ti);
  wp_table_put(&nc->index, wp_hash32(hash), (uint32_t)nc->count + 1);
  nc->slots[nc->count] = s;
  return &nc->slots[nc->count++];
}

bool wp_name_cache_positions(wp_name_cache *nc, size_t positions) {
  if (positions <= nc->hint_cap)
    return true;
  size_t old_cap = nc->hint_cap;
  if (WP_GROW(&nc->hint, &nc->hint_cap, positions, WP_GROW_NO_CAP) !=
      WP_GROW_OK)
    return false;
  for (size_t i = old_cap; i < nc->hint_cap; i++)
    nc->hint[i] = SIZE_MAX;
  return true;
}

const wp_name_slot *wp_name_cache_at(wp_name_cache *nc, size_t pos,
                                     const void *key, size_t len) {
  if (pos >= nc->hint_cap || nc->hint[pos] >= nc->count)
    return NULL;
  wp_name_slot *s = &nc->slots[nc->hint[pos]];
  /* A sweep moves slots: the key itself decides. */
  if (s->key_len != len || memcmp(s->block, key, len) != 0)
    return NULL;
  s->used = nc->interval;
  return s;
}

void wp_name_cache_remember(wp_name_cache *nc, size_t pos,
                            const wp_name_slot *s) {
  if (pos < nc->hint_cap && s != NULL)
    nc->hint[pos] = (size_t)(s - nc->slots);
}

void wp_name_cache_clear(wp_name_cache *nc) {
  for (size_t i = 0; i < nc->count; i++)
    free(nc->slots[i].block);
  nc->count = 0;
  nc->failed = 0;
  wp_table_clear(&nc->index);
}

void wp_name_cache_free(wp_name_cache *nc) {
  wp_name_cache_clear(nc);
  free(nc->slots);
  wp_table_free(&nc->index);
  free(nc->hint);
  *nc = (wp_name_cache){0};
}
