/* collectd-winperf: the names a value was dispatched under, kept from one
 * interval to the next.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Building a value's plugin_instance and type_instance (naming.h: a walk
 * over every UTF-8 character of the object, instance and counter names,
 * and the clean profile's table) costs more than decoding, selecting and
 * computing the value itself (doc/sizing.md, "Where the time goes"). The
 * names depend only on the result's key (its path, counter, instance and
 * ids, the names' text, raw or formatted), so they are built once per key
 * and found again by hash the next intervals. The key is bytes the caller
 * builds (dispatch.c); this file knows nothing of collectd.
 *
 * Memory: one slot per distinct key seen in the last WP_NAME_CACHE_KEEP
 * intervals; a key unused that long is dropped (processes come and go).
 * A warm interval whose keys are all known allocates nothing.
 */
#ifndef WP_PLUGIN_NAME_CACHE_H
#define WP_PLUGIN_NAME_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wp_table.h"

enum { WP_NAME_CACHE_KEEP = 64 };

typedef struct wp_name_slot {
  uint64_t hash; /* wp_name_cache_hash of the key */
  char *block; /* the key's bytes, then plugin_instance NUL type_instance NUL */
  uint32_t key_len;
  uint32_t ti;   /* offset of type_instance in block */
  uint32_t used; /* the cache's interval when last found or made */
  const char *type;
} wp_name_slot;

typedef struct wp_name_cache {
  wp_name_slot *slots; /* the keys kept, in the order put */
  size_t count, slots_cap;
  wp_table index; /* slot + 1, by the key's hash (wp_table.h) */
  size_t cap;     /* the index's size in slots (at least twice count) */
  size_t failed;  /* puts refused for want of memory; the caller resets it */
  uint32_t interval;
  /* The slot each result position used last interval: while the instance
   * set stays the same, position k has the same key again and is found
   * without hashing (wp_name_cache_at). */
  size_t *hint;
  size_t hint_cap;
} wp_name_cache;

/* The hash of a key (never 0: wp_hash_bytes, wp_hash.h). */
uint64_t wp_name_cache_hash(const void *key, size_t len);

/* A new interval: every WP_NAME_CACHE_KEEP intervals, the keys unused for
 * that long are dropped. */
void wp_name_cache_tick(wp_name_cache *nc);

/* The slot of key, or NULL. */
const wp_name_slot *wp_name_cache_find(wp_name_cache *nc, const void *key,
                                       size_t len, uint64_t hash);

/* Keep the names of key (copied; type is kept as a pointer: its owner
 * must outlive the entry, see wp_name_cache_clear). NULL when out of
 * memory, counted in `failed` (the caller then uses the names it built). */
const wp_name_slot *wp_name_cache_put(wp_name_cache *nc, const void *key,
                                      size_t len, uint64_t hash,
                                      const char *plugin_instance,
                                      const char *type_instance,
                                      const char *type);

static inline const char *wp_name_slot_plugin_instance(const wp_name_slot *s) {
  return s->block + s->key_len;
}
static inline const char *wp_name_slot_type_instance(const wp_name_slot *s) {
  return s->block + s->ti;
}

/* Room for the hints of `positions` result positions (allocates only when
 * the results outnumber every earlier interval's); false when out of
 * memory (then positions beyond the old room have no hint). */
bool wp_name_cache_positions(wp_name_cache *nc, size_t positions);

/* The slot position pos used last interval, if its key is key; NULL when
 * not (or pos has no hint). */
const wp_name_slot *wp_name_cache_at(wp_name_cache *nc, size_t pos,
                                     const void *key, size_t len);

/* Remember that position pos uses slot s (from _find or _put). */
void wp_name_cache_remember(wp_name_cache *nc, size_t pos,
                            const wp_name_slot *s);

/* Drop every entry (the counters list was replaced: path ids and types
 * mean something else now). The hints stay: each is checked against its
 * key when used. */
void wp_name_cache_clear(wp_name_cache *nc);

/* wp_name_cache_clear and release the table. */
void wp_name_cache_free(wp_name_cache *nc);

#endif
