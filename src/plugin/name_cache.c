/* collectd-winperf: the names a value was dispatched under, kept from one
 * interval to the next (see name_cache.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "name_cache.h"
#include "perfdata.h"
#include "wp_grow.h"

#include <stdlib.h>
#include <string.h>

uint64_t wp_name_cache_hash(const void *key, size_t len) {
  uint64_t h = pd_hash_bytes(key, len); /* keys: 40 to 100 bytes */
  return h != 0 ? h : 1;                /* 0 marks an empty slot */
}

/* Place s in slots (no growth, no duplicate check); where it went. */
static wp_name_slot *place(wp_name_slot *slots, size_t cap,
                           const wp_name_slot *s) {
  size_t i = (size_t)s->hash & (cap - 1);
  while (slots[i].hash != 0)
    i = (i + 1) & (cap - 1);
  slots[i] = *s;
  return &slots[i];
}

/* Rehash into a table of cap slots, keeping the entries keep() accepts and
 * freeing the others. */
static bool rebuild(wp_name_cache *nc, size_t cap, uint32_t oldest) {
  wp_name_slot *slots = calloc(cap, sizeof *slots);
  if (slots == NULL)
    return false;
  size_t count = 0;
  for (size_t i = 0; i < nc->cap; i++) {
    wp_name_slot *s = &nc->slots[i];
    if (s->hash == 0)
      continue;
    if (s->used < oldest) {
      free(s->block);
      continue;
    }
    place(slots, cap, s);
    count++;
  }
  free(nc->slots);
  nc->slots = slots;
  nc->cap = cap;
  nc->count = count;
  return true;
}

void wp_name_cache_tick(wp_name_cache *nc) {
  nc->interval++;
  if (nc->interval % WP_NAME_CACHE_KEEP != 0 ||
      nc->interval <= WP_NAME_CACHE_KEEP)
    return;
  uint32_t oldest = nc->interval - WP_NAME_CACHE_KEEP;
  size_t stale = 0;
  for (size_t i = 0; i < nc->cap; i++)
    stale += nc->slots[i].hash != 0 && nc->slots[i].used < oldest;
  if (stale > 0) /* nothing allocated while the keys stay the same */
    rebuild(nc, nc->cap, oldest);
}

const wp_name_slot *wp_name_cache_find(wp_name_cache *nc, const void *key,
                                       size_t len, uint64_t hash) {
  if (nc->cap == 0)
    return NULL;
  for (size_t i = (size_t)hash & (nc->cap - 1);; i = (i + 1) & (nc->cap - 1)) {
    wp_name_slot *s = &nc->slots[i];
    if (s->hash == 0)
      return NULL;
    if (s->hash == hash && s->key_len == len &&
        memcmp(s->block, key, len) == 0) {
      s->used = nc->interval;
      return s;
    }
  }
}

const wp_name_slot *wp_name_cache_put(wp_name_cache *nc, const void *key,
                                      size_t len, uint64_t hash,
                                      const char *plugin_instance,
                                      const char *type_instance,
                                      const char *type) {
  size_t pi = strlen(plugin_instance) + 1, ti = strlen(type_instance) + 1;
  if (len > UINT32_MAX / 4 || pi + ti > UINT32_MAX / 4)
    return NULL; /* never from dispatch.c: its keys and names are short */
  if ((nc->count + 1) * 2 > nc->cap &&
      !rebuild(nc, nc->cap ? nc->cap * 2 : 64, 0)) {
    nc->failed++;
    return NULL;
  }
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
  nc->count++;
  return place(nc->slots, nc->cap, &s);
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
  if (pos >= nc->hint_cap || nc->hint[pos] >= nc->cap)
    return NULL;
  wp_name_slot *s = &nc->slots[nc->hint[pos]];
  /* A rebuild moves slots: the key itself decides. */
  if (s->hash == 0 || s->key_len != len || memcmp(s->block, key, len) != 0)
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
  for (size_t i = 0; i < nc->cap; i++) {
    free(nc->slots[i].block);
    nc->slots[i] = (wp_name_slot){0};
  }
  nc->count = 0;
  nc->failed = 0;
}

void wp_name_cache_free(wp_name_cache *nc) {
  wp_name_cache_clear(nc);
  free(nc->slots);
  free(nc->hint);
  *nc = (wp_name_cache){0};
}
