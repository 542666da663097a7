/* collectd-winperf: which raw counter cells the last sample's blob holds
 * (doc/blg.md 4.3): an open-addressing set of (object, counter, instance),
 * rebuilt per blob, so a lookup costs one hash whatever the log's size.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "blob_build.h"

/* The marker counter of "this object is a raw one" (no real index). */
#define OBJECT_MARK UINT32_MAX

static uint64_t cell_hash(uint32_t obj, uint32_t ctr, const char *inst) {
  uint64_t h = inst ? pd_hash_bytes(inst, strlen(inst)) : 0x51ed27u;
  h ^= ((uint64_t)obj << 32 | ctr) * 0x9E3779B97F4A7C15u;
  h ^= h >> 31;
  return h ? h : 1; /* 0 marks an empty slot */
}

static bool same(const blg_cell *c, uint32_t obj, uint32_t ctr,
                 const char *inst) {
  return c->object_index == obj && c->counter_index == ctr &&
         (c->instance == NULL ? inst == NULL
                              : inst != NULL && strcmp(c->instance, inst) == 0);
}

void blg_cells_reset(blg_log *log) {
  for (size_t i = 0; i < log->cell_cap; i++) {
    free(log->cells[i].instance);
    log->cells[i] = (blg_cell){0};
  }
  log->cell_count = 0;
}

static blg_cell *slot(blg_cell *cells, size_t cap, uint64_t h, uint32_t obj,
                      uint32_t ctr, const char *inst) {
  size_t i = (size_t)h & (cap - 1);
  while (cells[i].hash != 0 &&
         !(cells[i].hash == h && same(&cells[i], obj, ctr, inst)))
    i = (i + 1) & (cap - 1);
  return &cells[i];
}

static int grow(blg_log *log) {
  size_t cap = log->cell_cap ? log->cell_cap * 2 : 256;
  if (cap > (size_t)BLG_MAX_CELLS * 2)
    return -1;
  blg_cell *cells = calloc(cap, sizeof *cells);
  if (cells == NULL)
    return -1;
  for (size_t i = 0; i < log->cell_cap; i++) {
    const blg_cell *c = &log->cells[i];
    if (c->hash != 0)
      *slot(cells, cap, c->hash, c->object_index, c->counter_index,
            c->instance) = *c;
  }
  free(log->cells);
  log->cells = cells;
  log->cell_cap = cap;
  return 0;
}

static int add(blg_log *log, uint32_t obj, uint32_t ctr, const char *inst) {
  if ((log->cell_count + 1) * 2 > log->cell_cap && grow(log) != 0)
    return -1;
  uint64_t h = cell_hash(obj, ctr, inst);
  blg_cell *c = slot(log->cells, log->cell_cap, h, obj, ctr, inst);
  if (c->hash != 0)
    return 0; /* already there */
  char *copy = inst ? strdup(inst) : NULL;
  if (inst && copy == NULL)
    return -1;
  *c = (blg_cell){
      .hash = h, .object_index = obj, .counter_index = ctr, .instance = copy};
  log->cell_count++;
  return 0;
}

int blg_cells_add(blg_log *log, uint32_t obj, uint32_t ctr, const char *inst) {
  return add(log, obj, OBJECT_MARK, NULL) == 0 && add(log, obj, ctr, inst) == 0
             ? 0
             : -1;
}

static bool has(const blg_log *log, uint32_t obj, uint32_t ctr,
                const char *inst) {
  if (log->cell_cap == 0)
    return false;
  uint64_t h = cell_hash(obj, ctr, inst);
  return slot(log->cells, log->cell_cap, h, obj, ctr, inst)->hash != 0;
}

bool blg_cell_logged(const blg_log *log, uint32_t obj, uint32_t ctr,
                     const char *instance) {
  /* a whole object's counters are all logged */
  return !has(log, obj, OBJECT_MARK, NULL) || has(log, obj, ctr, instance);
}
