/* collectd-winperf: the one hash table of the project (wp_table.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "wp_table.h"
#include "wp_grow.h"

#include <stdlib.h>
#include <string.h>

int wp_table_reserve(wp_table *t, size_t n) {
  if (n > WP_TABLE_MAX)
    return WP_GROW_LIMIT;
  if (2 * (uint64_t)n <= t->cap)
    return WP_GROW_OK;
  uint32_t cap = t->cap ? t->cap : 16;
  while ((uint64_t)cap < 2 * (uint64_t)n)
    cap *= 2;
  wp_table_slot *slot = calloc(cap, sizeof *slot); /* generation 0: empty */
  if (slot == NULL)
    return WP_GROW_NOMEM;
  wp_table grown = {slot, cap, 0, 1};
  for (uint32_t i = 0; i < t->cap; i++)
    if (t->slot[i].gen == t->gen)
      wp_table_put(&grown, t->slot[i].hash, t->slot[i].value);
  free(t->slot);
  *t = grown;
  return WP_GROW_OK;
}

void wp_table_clear(wp_table *t) {
  t->count = 0;
  if (t->cap == 0 || ++t->gen != 0)
    return;
  /* Wrapped: no slot may carry the new generation by chance. */
  memset(t->slot, 0, (size_t)t->cap * sizeof *t->slot);
  t->gen = 1;
}

void wp_table_free(wp_table *t) {
  free(t->slot);
  *t = (wp_table){0};
}

void wp_table_remove(wp_table *t, uint32_t hash, uint32_t value) {
  if (t->cap == 0)
    return;
  const uint32_t mask = t->cap - 1, gen = t->gen;
  uint32_t i = hash & mask;
  for (;; i = (i + 1) & mask) {
    if (t->slot[i].gen != gen)
      return;
    if (t->slot[i].value == value)
      break;
  }
  /* Move back every later value of the run that may sit at i: one whose
   * home slot is not cyclically within (i, j]. */
  for (uint32_t j = i;;) {
    j = (j + 1) & mask;
    if (t->slot[j].gen != gen)
      break;
    uint32_t home = t->slot[j].hash & mask;
    bool between = i <= j ? (i < home && home <= j) : (i < home || home <= j);
    if (between)
      continue;
    t->slot[i] = t->slot[j];
    i = j;
  }
  t->slot[i] = (wp_table_slot){0, 0, 0};
  t->count--;
}
