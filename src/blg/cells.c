/* collectd-winperf: which raw counter cells the last sample's blob holds
 * (doc/blg.md 4.3): a set of (object, counter, instance) on the one hash
 * table (wp_table.h), rebuilt per blob, so a lookup costs one hash
 * whatever the log's size.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "blob_build.h"

/* The marker counter of "this object is a raw one" (no real index). */
#define OBJECT_MARK UINT32_MAX

typedef struct cell_key {
  const blg_log *log;
  uint32_t obj, ctr;
  const char *inst;
} cell_key;

static uint32_t cell_hash(const cell_key *k) {
  uint32_t head[3] = {k->obj, k->ctr, k->inst != NULL};
  uint64_t h = wp_hash_bytes(head, sizeof head);
  if (k->inst != NULL)
    h = wp_hash_bytes_from(h, k->inst, strlen(k->inst));
  return wp_hash32(h);
}

static bool same(const void *ctx, uint32_t value) {
  const cell_key *k = ctx;
  const blg_cell *c = &k->log->cells[value - 1];
  return c->object_index == k->obj && c->counter_index == k->ctr &&
         (c->instance == NULL
              ? k->inst == NULL
              : k->inst != NULL && strcmp(c->instance, k->inst) == 0);
}

void blg_cells_reset(blg_log *log) {
  for (size_t i = 0; i < log->cell_count; i++)
    free(log->cells[i].instance);
  log->cell_count = 0;
  wp_table_clear(&log->cell_index);
}

static int add(blg_log *log, uint32_t obj, uint32_t ctr, const char *inst) {
  if (WP_GROW(&log->cells, &log->cell_cap, log->cell_count + 1,
              BLG_MAX_CELLS) != WP_GROW_OK ||
      wp_table_reserve(&log->cell_index, log->cell_count + 1) != WP_GROW_OK)
    return -1;
  cell_key k = {log, obj, ctr, inst};
  uint32_t h = cell_hash(&k);
  if (wp_table_find(&log->cell_index, h, same, &k) != 0)
    return 0; /* already there */
  char *copy = inst ? strdup(inst) : NULL;
  if (inst && copy == NULL)
    return -1;
  log->cells[log->cell_count] = (blg_cell){obj, ctr, copy};
  wp_table_put(&log->cell_index, h, (uint32_t)++log->cell_count);
  return 0;
}

int blg_cells_add(blg_log *log, uint32_t obj, uint32_t ctr, const char *inst) {
  return add(log, obj, OBJECT_MARK, NULL) == 0 && add(log, obj, ctr, inst) == 0
             ? 0
             : -1;
}

static bool has(const blg_log *log, uint32_t obj, uint32_t ctr,
                const char *inst) {
  cell_key k = {log, obj, ctr, inst};
  return wp_table_find(&log->cell_index, cell_hash(&k), same, &k) != 0;
}

bool blg_cell_logged(const blg_log *log, uint32_t obj, uint32_t ctr,
                     const char *instance) {
  /* a whole object's counters are all logged */
  return !has(log, obj, OBJECT_MARK, NULL) || has(log, obj, ctr, instance);
}
