/* collectd-winperf: building one sample's V1 blob (blob.c, raw_objects.c).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef WP_BLG_BLOB_BUILD_H
#define WP_BLG_BLOB_BUILD_H

#include "blg_internal.h"

enum {
  BLG_OBJECT_HEADER = 64, /* PERF_OBJECT_TYPE */
  BLG_DEF_SIZE = 40,      /* PERF_COUNTER_DEFINITION */
  BLG_INSTANCE_HEADER = 24,
  BLG_SLOT = 16, /* a raw counter's value and its second value (blg.md 4.2) */
  BLG_MAX_CELLS = 1 << 24,
};

/* One raw value: an entry's, for one instance. */
typedef struct raw_cell {
  size_t entry;
  const char *instance; /* NULL: single-instance */
  char *owned;          /* a multi item's name converted (freed) */
  uint64_t first, second;
  uint32_t multi;
  bool valid; /* CStatus 0 or 1 */
} raw_cell;

typedef struct builder {
  blg_log *log;
  size_t machine;
  int64_t utc;
  uint8_t *out;
  size_t cap, len;
  uint32_t objects;
  bool have_header;
  int64_t perf_time, perf_freq, perf_time_100ns;
  bool have_tick, have_freq, have_100ns;
  raw_cell *cells;
  size_t ncells, cells_cap;
} builder;

/* Room for `need` bytes of blob; -1 past 1 GiB or without memory. */
int blg_room(builder *b, size_t need);
/* A type whose base is the next definition (fractions, averages,
 * precision timers): its raw record's SecondValue becomes one. */
bool blg_type_has_base_def(uint32_t t);
/* raw_objects.c: the raw cells as objects appended to the blob. */
int blg_write_raw_objects(builder *b);

/* cells.c: the set of (object, counter, instance) cells the last blob's
 * raw objects hold (blg_cell_logged). */
void blg_cells_reset(blg_log *log);
int blg_cells_add(blg_log *log, uint32_t obj, uint32_t ctr, const char *inst);

#endif
