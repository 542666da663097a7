/* collectd-winperf: Perfmon binary logs (.blg), Vista and later.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * No public specification of the format exists: doc/blg.md is the layout as
 * observed in real logs and the choices made here ("blg.md 2.3" below).
 * The file is hostile input: every length and offset is checked before it
 * is read, nothing is sized by an unchecked field, and nothing here prints.
 *
 * The data's path:
 *   file bytes --blg_open--> blg_log: the log header, the counter catalog,
 *       the machines' name tables, the samples (their events, reassembled
 *       on demand), warnings for what was skipped
 *   blg_sample_blob(sample, machine) --> one V1 PERF_DATA_BLOCK: the
 *       whole-object blocks of that sample merged, and the raw counter
 *       records written as objects of their own (blg.md 4), so that
 *       pd_decode, pd_selection_evaluate and pd_compute take both kinds
 *   blg_names --> the Counter name table those blobs' indices refer to
 *
 * Like the parser (src/perfdata), this module has no collectd and no
 * Windows header and no global state; it uses only perfdata.h's public API.
 */
#ifndef WP_BLG_H
#define WP_BLG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata.h"
#include "wp_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bounds on what one log may declare (hostile input: blg.md 6). */
#define BLG_MAX_COUNTERS 100000u /* catalog entries */
#define BLG_MAX_SAMPLES 10000000u
#define BLG_MAX_MACHINES 256u
#define BLG_MAX_WARNINGS 64u   /* kept; the rest are only counted */
#define BLG_MAX_FRAGMENTS 4096 /* ETW events one record may span */

/* Where the value of a catalog entry comes from in each sample. */
typedef enum blg_entry_kind {
  BLG_ENTRY_SINGLE = 1, /* one raw counter record (BL 0x0103) */
  BLG_ENTRY_MULTI,      /* raw counter items of every instance (BL 0x0203) */
  BLG_ENTRY_OBJECT,     /* a whole object, a PERF_DATA_BLOCK (BL 0x0503) */
} blg_entry_kind;

/* One logged counter path (blg.md 3.2), strings UTF-8 and log-owned. */
typedef struct blg_counter {
  size_t offset;           /* of the entry in the file */
  blg_entry_kind kind;     /* from the entry's flags */
  uint32_t flags;          /* as on the wire */
  uint32_t type;           /* CounterType (raw entries) */
  int64_t time_base;       /* ticks per second of a TICK type's clock */
  int32_t scale;           /* DefaultScale */
  const char *machine;     /* without the leading backslashes */
  const char *object;      /* "" never: an entry without one is skipped */
  const char *instance;    /* NULL: none; "*" for a wildcard */
  const char *parent;      /* NULL: none */
  uint32_t instance_index; /* #n */
  const char *counter;     /* "*" for a whole object */
  size_t machine_id;       /* index into the log's machines */
} blg_counter;

/* The log header's facts (blg.md 2.2). */
typedef struct blg_info {
  uint32_t os_major, os_minor, os_build; /* of the logging Windows */
  uint32_t pointer_size;                 /* 4 or 8 */
  uint32_t buffer_size;                  /* bytes per ETW buffer */
  int32_t tz_bias;                       /* minutes, UTC = local + bias */
  int32_t tz_standard_bias, tz_daylight_bias;
  uint16_t tz_standard_date[8], tz_daylight_date[8]; /* SYSTEMTIME rules */
  const char *tz_standard_name, *tz_daylight_name;   /* as logged */
  const char *log_file_name;                         /* as logged */
} blg_info;

typedef struct blg_warning {
  size_t offset;
  char message[200];
} blg_warning;

typedef struct blg_log blg_log;

/* Read a whole .blg image (the bytes must stay alive and unchanged while
 * the log is used). A file that is not a Vista-or-later .blg, or has no
 * catalog, is an error naming the offset and the reason; a truncated file
 * is read up to its last whole sample (a warning says so); unknown events
 * and records are skipped with a warning naming their offset. */
blg_log *blg_open(const uint8_t *data, size_t len, wp_error *err);
void blg_close(blg_log *log);

const blg_info *blg_log_info(const blg_log *log);
size_t blg_counter_count(const blg_log *log);
const blg_counter *blg_counter_at(const blg_log *log, size_t i);
/* The logged machines, in the order the catalog names them. */
size_t blg_machine_count(const blg_log *log);
const char *blg_machine_at(const blg_log *log, size_t i);

size_t blg_sample_count(const blg_log *log);
/* A sample's time as logged: local time of the logging machine, 100 ns
 * units since 1601-01-01 (what relog prints). */
int64_t blg_sample_local(const blg_log *log, size_t i);
/* The same in UTC (the logged zone's rules, blg.md 5). */
int64_t blg_sample_utc(const blg_log *log, size_t i);
/* The file offset of the sample's first event (for messages). */
size_t blg_sample_offset(const blg_log *log, size_t i);

/* Warnings (skipped events, records, entries; truncation), the first
 * BLG_MAX_WARNINGS kept, all counted. Samples add theirs as they are
 * built. */
size_t blg_warning_count(const blg_log *log);
size_t blg_warnings_kept(const blg_log *log);
const blg_warning *blg_warning_at(const blg_log *log, size_t i);

/* The Counter name table of the log's blobs (REG_MULTI_SZ bytes and
 * parsed): the machine's table where the log carries one (blg.md 3.3),
 * plus indices given to the names of raw counter entries it lacks. */
const pd_names *blg_names(const blg_log *log);
const uint8_t *blg_names_multisz(const blg_log *log, size_t *len);

/* Sample `sample`'s V1 blob for machine `machine` into *out (grown as
 * needed, *out_cap its capacity, *out_len the bytes written). Returns 1
 * and the blob, 0 when the machine has nothing in that sample, -1 when
 * the sample cannot be read (err names the offset and the reason; the
 * other samples are unaffected). */
int blg_sample_blob(blg_log *log, size_t sample, size_t machine, uint8_t **out,
                    size_t *out_cap, size_t *out_len, wp_error *err);

/* Whether sample `sample` logged counter `counter_index` of `object_index`
 * for instance `instance` (NULL: single-instance) on `machine`, as the last
 * blg_sample_blob for that sample and machine found it: false for a cell
 * the blob had to fill because another logged counter of that object had
 * the instance (blg.md 4.3). */
bool blg_cell_logged(const blg_log *log, uint32_t object_index,
                     uint32_t counter_index, const char *instance);

/* "YYYY-MM-DD HH:MM:SS.mmm" of a 100 ns count since 1601 (no zone). */
void blg_format_time(int64_t t100ns, char *buf, size_t cap);
/* Parse "YYYY-MM-DD[ T]HH:MM[:SS[.fff]]" or "MM/DD/YYYY HH:MM[:SS[.fff]]"
 * into a 100 ns count since 1601; false when malformed. */
bool blg_parse_time(const char *text, int64_t *t100ns);

#ifdef __cplusplus
}
#endif

#endif
