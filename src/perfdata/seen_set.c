/* collectd-winperf: the set of counters one evaluation has reported.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "seen_set.h"

#include <stdbool.h>

#include <stdlib.h>
#include <string.h>

void pd_seen_free(pd_seen_set *set) {
  free(set->key);
  free(set->mark);
}

void pd_seen_begin(pd_seen_set *set) {
  set->count = 0;
  if (++set->stamp == 0) { /* wrapped: a mark of 0 must mean unused */
    if (set->cap > 0)
      memset(set->mark, 0, set->cap * sizeof *set->mark);
    set->stamp = 1;
  }
}

/* The slot holding key, or the free slot where it goes. */
static size_t slot_of(const uint64_t *keys, const uint32_t *mark,
                      uint32_t stamp, size_t cap, uint64_t key) {
  size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
  while (mark[h] == stamp && keys[h] != key)
    h = (h + 1) & (cap - 1);
  return h;
}

static bool grow(pd_seen_set *set) {
  size_t cap = set->cap ? set->cap * 2 : 256;
  uint64_t *k = malloc(cap * sizeof *k);
  uint32_t *m = calloc(cap, sizeof *m);
  if (k == NULL || m == NULL) {
    free(k);
    free(m);
    return false;
  }
  for (size_t i = 0; i < set->cap; i++) {
    if (set->mark[i] != set->stamp)
      continue;
    size_t h = slot_of(k, m, set->stamp, cap, set->key[i]);
    k[h] = set->key[i];
    m[h] = set->stamp;
  }
  pd_seen_free(set);
  set->key = k;
  set->mark = m;
  set->cap = cap;
  return true;
}

int pd_seen_insert(pd_seen_set *set, uint64_t key) {
  if ((set->count + 1) * 2 > set->cap && !grow(set))
    return -1;
  size_t h = slot_of(set->key, set->mark, set->stamp, set->cap, key);
  if (set->mark[h] == set->stamp)
    return 0;
  set->key[h] = key;
  set->mark[h] = set->stamp;
  set->count++;
  return 1;
}
