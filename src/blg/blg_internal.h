/* collectd-winperf: the .blg reader's own state, shared by its files.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef WP_BLG_INTERNAL_H
#define WP_BLG_INTERNAL_H

#include "blg.h"
#include "wp_grow.h"
#include "wp_hash.h"
#include "wp_table.h"
#include "wire.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* blg.md 2.3: the PDH events' class types. */
enum {
  BLG_EVENT_CATALOG = 0x20,
  BLG_EVENT_DATA = 0x22,
  BLG_EVENT_NAMES = 0x24,
};

/* One PDH event's payload after the session GUID (blg.md 2.3). */
typedef struct blg_event {
  size_t offset;        /* of the event header in the file */
  size_t payload;       /* first byte after the fragment numbers */
  size_t length;        /* bytes from there */
  uint8_t type;         /* BLG_EVENT_* */
  uint32_t part, parts; /* fragment i of n (1-based) */
  int64_t time;         /* the event's timestamp: local time (blg.md 5) */
} blg_event;

typedef struct blg_sample_ref {
  size_t first_event; /* index into events */
  uint32_t parts;
  int64_t local, utc;
} blg_sample_ref;

/* A raw counter entry's cell as the last blob of a sample wrote it (a set
 * on wp_table, cells.c). */
typedef struct blg_cell {
  uint32_t object_index, counter_index;
  char *instance; /* NULL: single-instance */
} blg_cell;

struct blg_log {
  const uint8_t *data;
  size_t len;
  blg_info info;
  char *strings; /* the info's strings, one allocation each below */
  char *tz_std, *tz_dst, *log_name;
  blg_event *events;
  size_t event_count, event_cap;
  blg_counter *counters;
  size_t counter_count, counter_cap;
  char **machines;
  size_t machine_count, machine_cap;
  blg_sample_ref *samples;
  size_t sample_count, sample_cap;
  blg_warning warnings[BLG_MAX_WARNINGS];
  size_t warning_count;
  /* name table */
  uint8_t *names_bytes;
  size_t names_len, names_cap;
  pd_names *names;
  uint32_t next_index; /* for names the log's table lacks */
  /* per-entry indices (raw entries): object and counter */
  uint32_t *object_index, *counter_index;
  /* reassembly and the cells of the last blob */
  uint8_t *record;
  size_t record_cap;
  blg_cell *cells;
  size_t cell_count, cell_cap;
  wp_table cell_index; /* cell + 1, by cell_hash */
};

/* Record a warning at `offset` (kept up to BLG_MAX_WARNINGS). */
void blg_warn(blg_log *log, size_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* container.c: the ETW buffers and the PDH events in them (blg.md 2). */
int blg_read_container(blg_log *log, wp_error *err);
/* catalog.c: the catalog and the name tables (blg.md 3). */
int blg_read_catalog(blg_log *log, wp_error *err);
/* blg_names.c: the name table and the indices of raw entries (blg.md
 * 3.3). */
int blg_build_names(blg_log *log, wp_error *err);
/* A UTF-16LE string at data[off..end) up to its NUL, as UTF-8 (malloc'ed)
 * and *next past the NUL; NULL when it runs past end, or without memory
 * (*nomem set). */
char *blg_utf16_string(const uint8_t *data, size_t off, size_t end,
                       size_t *next, bool *nomem);
/* Append s (UTF-8) as UTF-16LE with its NUL to a growable byte buffer;
 * -1 without memory. */
int blg_put_utf16(uint8_t **buf, size_t *len, size_t *cap, const char *s);
/* The samples' UTC times from the logged zone (time.c, blg.md 5). */
int64_t blg_local_to_utc(const blg_info *info, int64_t local);

#endif
