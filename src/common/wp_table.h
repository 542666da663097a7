/* collectd-winperf: the one hash table of the project.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * An index over an array the caller owns: each slot holds a 32-bit hash
 * (wp_hash.h) and a value, the position of an element in the caller's
 * array plus one. Open addressing, linear probing, a power-of-two number
 * of slots at most half full. A slot is in use when it carries the table's
 * generation, so emptying the table (wp_table_clear, once per decode or
 * evaluation for some) writes nothing. The table never looks at
 * a key: a lookup hands the caller each value whose hash matches, and the
 * caller's `eq` says whether that element is the one. Every probe loop of
 * the project is here; the parser's name tables and memos, its instance
 * index, pairing by id and de-duplication, and the plugin's caches and
 * filters use it.
 *
 *   wp_table t = {0};
 *   if (wp_table_reserve(&t, n + 1) != WP_GROW_OK) ...  // before puts
 *   wp_table_put(&t, hash, i + 1);                      // element i
 *   uint32_t v = wp_table_find(&t, hash, same_key, &key);
 *   if (v != 0) ... element v - 1 ...
 *
 * Order: values of equal elements are found in the order they were put,
 * as long as nothing was removed since the table was last cleared (linear
 * probing keeps a later one further along the same run).
 */
#ifndef WP_TABLE_H
#define WP_TABLE_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wp_table_slot {
  uint32_t hash;
  uint32_t value; /* the caller's position + 1 */
  uint32_t gen;   /* in use when the table's generation */
} wp_table_slot;

typedef struct wp_table {
  wp_table_slot *slot;
  uint32_t cap;   /* slots: a power of two, or 0 */
  uint32_t count; /* values put and not removed */
  uint32_t gen;   /* the slots in use carry it; never 0 once slots exist */
} wp_table;

/* Whether the element of `value` is the one looked for (ctx: the key). */
typedef bool (*wp_table_eq)(const void *ctx, uint32_t value);

/* Most values a table takes (its slots stay addressable in 32 bits). */
#define WP_TABLE_MAX (UINT32_C(1) << 30)

/* Room for `n` values in all, at most half the slots used: grows (and
 * rehashes) when needed. WP_GROW_OK, WP_GROW_NOMEM (the table unchanged)
 * or WP_GROW_LIMIT (n above WP_TABLE_MAX), as wp_grow (wp_grow.h). */
int wp_table_reserve(wp_table *t, size_t n);
/* Every slot empty (a new generation; the slots are kept for reuse). */
void wp_table_clear(wp_table *t);
void wp_table_free(wp_table *t);

/* The first value put under `hash` whose element eq accepts, or 0. */
static inline __attribute__((always_inline)) uint32_t
wp_table_find(const wp_table *t, uint32_t hash, wp_table_eq eq,
              const void *ctx) {
  if (t->cap == 0)
    return 0;
  const uint32_t mask = t->cap - 1, gen = t->gen;
  for (uint32_t i = hash & mask;; i = (i + 1) & mask) {
    const wp_table_slot *s = &t->slot[i];
    if (s->gen != gen)
      return 0;
    if (s->hash == hash && eq(ctx, s->value))
      return s->value;
  }
}

/* Put value under hash (room reserved; no check for an equal element). */
static inline void wp_table_put(wp_table *t, uint32_t hash, uint32_t value) {
  assert(value != 0 && 2 * ((uint64_t)t->count + 1) <= t->cap);
  const uint32_t mask = t->cap - 1, gen = t->gen;
  uint32_t i = hash & mask;
  while (t->slot[i].gen == gen)
    i = (i + 1) & mask;
  t->slot[i] = (wp_table_slot){hash, value, gen};
  t->count++;
}

/* The first value under hash whose element eq accepts; when there is
 * none, value is put there (room reserved) and 0 returned. */
static inline __attribute__((always_inline)) uint32_t
wp_table_find_or_put(wp_table *t, uint32_t hash, uint32_t value, wp_table_eq eq,
                     const void *ctx) {
  assert(value != 0 && 2 * ((uint64_t)t->count + 1) <= t->cap);
  const uint32_t mask = t->cap - 1, gen = t->gen;
  uint32_t i = hash & mask;
  for (;; i = (i + 1) & mask) {
    wp_table_slot *s = &t->slot[i];
    if (s->gen != gen)
      break;
    if (s->hash == hash && eq(ctx, s->value))
      return s->value;
  }
  t->slot[i] = (wp_table_slot){hash, value, gen};
  t->count++;
  return 0;
}

/* Take value (put under hash) out; nothing when it is not there. The
 * values after it in its run move back (no tombstones), so the order
 * promise above ends here until the next clear. */
void wp_table_remove(wp_table *t, uint32_t hash, uint32_t value);

#endif
