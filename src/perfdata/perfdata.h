/* collectd-winperf: the shared performance-data parser.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Portable C over byte buffers: no I/O, no collectd header, no Windows header,
 * no global mutable state but one atomic counter that gives every decode a
 * process-unique id (pd_decode; the pairing memo knows a sample by it).
 * Section references ("format.md 1.3") point at doc/format.md, the format
 * reference this code implements. The data's path through the code:
 * doc/architecture.md.
 *
 * The data's path through this header:
 *   blob bytes --pd_decode--> pd_snapshot            (decode.c)
 *   REG_MULTI_SZ --pd_names_parse--> pd_names        (names.c)
 *   "\Processor(*)\% Processor Time" --pd_path_parse--> pd_path  (path.c)
 *   paths + two snapshots --pd_selection_evaluate--> pd_result[] (evaluate.c)
 *   raw samples --pd_compute--> double + pd_value_status      (compute.c)
 */
#ifndef PERFDATA_H
#define PERFDATA_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wire.h" /* pd_counter_raw's loads */

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ errors */

/* Errors travel as values: a status plus a message that names the offset. */
typedef enum pd_status {
  PD_OK = 0,
  PD_E_TRUNCATED,     /* a structure runs past the bytes returned */
  PD_E_SIGNATURE,     /* not "PERF" in UTF-16 (format.md 1.2) */
  PD_E_BYTE_ORDER,    /* signature order and LittleEndian disagree (1.7) */
  PD_E_HEADER,        /* PERF_DATA_BLOCK field out of range */
  PD_E_OBJECT,        /* PERF_OBJECT_TYPE field out of range */
  PD_E_COUNTER_DEF,   /* PERF_COUNTER_DEFINITION out of range */
  PD_E_INSTANCE,      /* PERF_INSTANCE_DEFINITION out of range */
  PD_E_COUNTER_BLOCK, /* PERF_COUNTER_BLOCK out of range */
  PD_E_NAME,          /* a name's offset/length out of range or malformed */
  PD_E_LIMIT,         /* a count above the decoder's configured limit */
  PD_E_NOMEM,         /* allocation failed */
  PD_E_NAMES_TABLE,   /* malformed REG_MULTI_SZ name table (4.1) */
  PD_E_PATH,          /* counter path syntax (4.2); offset = column */
  PD_E_ARGUMENT,      /* caller error */
  PD_E_V2,            /* malformed V2 (PerfLib) data (format.md 5) */
} pd_status;

typedef struct pd_error {
  pd_status status;
  size_t offset;     /* byte offset in the input (column for paths) */
  char message[224]; /* "offset 0x1a8: instance name runs past ..." */
} pd_error;

/* Short stable identifier, e.g. "truncated", "bad-signature". */
const char *pd_status_name(pd_status status);

/* Fill *err (if non-NULL) and return status. The message is formatted
 * printf-style; used by every module so messages look alike. */
pd_status pd_error_set(pd_error *err, pd_status status, size_t offset,
                       const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The parser's error as the error value of the code around it
 * (src/common/wp_error.h): its message (or its status name when the
 * message is empty); code WP_E_NOMEM for PD_E_NOMEM, WP_E_LIMIT for
 * PD_E_LIMIT, else WP_E_PARSER. Returns -1. */
struct wp_error;
int wp_error_from_pd(struct wp_error *err, const pd_error *pd);

/* ----------------------------------------------------------- counter types */

/* format.md 2.2. */
enum {
  PD_COUNTER_COUNTER = 0x10410400u,
  PD_COUNTER_TIMER = 0x20410500u,
  PD_COUNTER_QUEUELEN_TYPE = 0x00450400u,
  PD_COUNTER_LARGE_QUEUELEN_TYPE = 0x00450500u,
  PD_COUNTER_100NS_QUEUELEN_TYPE = 0x00550500u,
  PD_COUNTER_OBJ_TIME_QUEUELEN_TYPE = 0x00650500u,
  PD_COUNTER_BULK_COUNT = 0x10410500u,
  PD_COUNTER_TEXT = 0x00000B00u,
  PD_COUNTER_RAWCOUNT = 0x00010000u,
  PD_COUNTER_LARGE_RAWCOUNT = 0x00010100u,
  PD_COUNTER_RAWCOUNT_HEX = 0x00000000u,
  PD_COUNTER_LARGE_RAWCOUNT_HEX = 0x00000100u,
  PD_SAMPLE_FRACTION = 0x20C20400u,
  PD_SAMPLE_COUNTER = 0x00410400u,
  PD_COUNTER_NODATA = 0x40000200u,
  PD_COUNTER_TIMER_INV = 0x21410500u,
  PD_SAMPLE_BASE = 0x40030401u,
  PD_AVERAGE_TIMER = 0x30020400u,
  PD_AVERAGE_BASE = 0x40030402u,
  PD_AVERAGE_BULK = 0x40020500u,
  PD_OBJ_TIME_TIMER = 0x20610500u,
  PD_100NSEC_TIMER = 0x20510500u,
  PD_100NSEC_TIMER_INV = 0x21510500u,
  PD_COUNTER_MULTI_TIMER = 0x22410500u,
  PD_COUNTER_MULTI_TIMER_INV = 0x23410500u,
  PD_COUNTER_MULTI_BASE = 0x42030500u,
  PD_100NSEC_MULTI_TIMER = 0x22510500u,
  PD_100NSEC_MULTI_TIMER_INV = 0x23510500u,
  PD_RAW_FRACTION = 0x20020400u,
  PD_LARGE_RAW_FRACTION = 0x20020500u,
  PD_RAW_BASE = 0x40030403u,
  PD_LARGE_RAW_BASE = 0x40030500u,
  PD_ELAPSED_TIME = 0x30240500u,
  PD_COUNTER_HISTOGRAM_TYPE = 0x80000000u,
  PD_COUNTER_DELTA = 0x00400400u,
  PD_COUNTER_LARGE_DELTA = 0x00400500u,
  PD_PRECISION_SYSTEM_TIMER = 0x20470500u,
  PD_PRECISION_100NS_TIMER = 0x20570500u,
  PD_PRECISION_OBJECT_TIMER = 0x20670500u,
  PD_PRECISION_TIMESTAMP = 0x40030500u, /* == PD_LARGE_RAW_BASE */
};

/* "PERF_COUNTER_COUNTER", ... or NULL for a value not in format.md 2.2. */
const char *pd_type_name(uint32_t type);
/* format.md 2.1: (t & 0xC00) == 0x400 && (t & 0xF0000) == 0x30000. */
bool pd_type_is_base(uint32_t type);
/* False for TEXT, NODATA, HISTOGRAM and base types (never shown alone). */
bool pd_type_is_displayable(uint32_t type);
/* format.md 3: DELTA_COUNTER or DELTA_BASE bit, or AVERAGE_TIMER/AVERAGE_BULK.
 */
bool pd_type_needs_two_samples(uint32_t type);
/* Needs the next definition as its base (fractions, averages, multi,
 * precision). */
bool pd_type_needs_base(uint32_t type);
/* Rate-like: the raw value only grows (COUNTER types, timers); used by the
 * plugin's raw mode to dispatch DERIVE. */
bool pd_type_is_monotonic(uint32_t type);

/* ------------------------------------------------------------ arithmetic */

/* Why a counter has no value (or PD_VALUE_OK). format.md 3.1. */
typedef enum pd_value_status {
  PD_VALUE_OK = 0,
  PD_VALUE_FIRST_SAMPLE,   /* two-sample type, no older sample (or instance new)
                            */
  PD_VALUE_NEGATIVE,       /* counter or base went backwards (reset, wrap) */
  PD_VALUE_NO_TIME_DELTA,  /* the clock did not advance (or went back) */
  PD_VALUE_ZERO_FREQUENCY, /* the time base's frequency is 0 */
  PD_VALUE_NOT_NUMERIC,    /* text, nodata, histogram, base counter */
  PD_VALUE_NO_BASE,        /* the base counter the type needs is missing */
  PD_VALUE_UNKNOWN_TYPE,   /* a CounterType format.md 2.2 does not name */
} pd_value_status;

/* "ok", "first-sample", "negative-delta", ... (stable, used in JSON). */
const char *pd_value_status_name(pd_value_status status);

/* format.md 3.2: PERF_COUNTER_MULTI_TIMER is disputed. */
typedef enum pd_multi_timer_formula {
  /* 100 (dN / dD) / B1 — Server 2003 resource kit; a percentage when N
   * counts ticks. The default; unverified against Windows. */
  PD_MULTI_TIMER_RESKIT = 0,
  /* 100 (dN / (dD / F)) / B1 — Microsoft's sample code. */
  PD_MULTI_TIMER_MSDN_SAMPLE = 1,
} pd_multi_timer_formula;

typedef struct pd_calc_options {
  pd_multi_timer_formula multi_timer;
  bool
      cap100; /* clamp percentages at 100 (PDH without NOCAP100); default off */
} pd_calc_options;

/* One counter's raw reading plus every clock that might be its time base. */
typedef struct pd_sample {
  uint64_t value; /* N: CounterSize bytes, zero-extended */
  uint64_t base;  /* B: base counter, multi count, or PRECISION timestamp */
  bool has_base;
  int64_t perf_time;       /* block PerfTime (TICK time base) */
  int64_t perf_freq;       /* block PerfFreq */
  int64_t perf_time_100ns; /* block PerfTime100nSec (100NS time base) */
  int64_t object_time;     /* object PerfTime (OBJECT_TIMER time base) */
  int64_t object_freq;     /* object PerfFreq */
} pd_sample;

/* Compute the formatted value of a counter of `type` (format.md 3, 3.1).
 * `older` may be NULL (first sample). opt may be NULL for defaults.
 * Never divides by zero; on any status but OK, *value is left 0. */
pd_value_status pd_compute(uint32_t type, const pd_sample *older,
                           const pd_sample *newer, const pd_calc_options *opt,
                           double *value);

/* ------------------------------------------------------------ the snapshot */

typedef struct pd_counter_def {
  size_t wire_offset;  /* where the definition sits in the blob */
  uint32_t name_index; /* CounterNameTitleIndex */
  uint32_t help_index;
  int32_t default_scale;
  uint32_t detail_level;
  uint32_t type;   /* CounterType */
  uint32_t size;   /* CounterSize */
  uint32_t offset; /* CounterOffset, from the counter block */
  uint8_t load;    /* how pd_counter_raw reads it (PD_LOAD_*, set at decode) */
} pd_counter_def;

typedef struct pd_instance {
  size_t wire_offset;     /* PERF_INSTANCE_DEFINITION (0 for single-instance) */
  uint32_t parent_object; /* ParentObjectTitleIndex, 0 = none */
  uint32_t parent_instance; /* ParentObjectInstance */
  int32_t unique_id;        /* -1 = none */
  size_t name_offset;       /* raw name bytes in the blob (absolute) */
  uint32_t name_bytes;      /* NameLength as on the wire (usually with the
                             * NUL); 0 = unnamed */
  size_t block_offset;      /* PERF_COUNTER_BLOCK, absolute */
  uint32_t block_length;    /* its ByteLength */
  const uint8_t *block;     /* its first byte in the decoded blob */
} pd_instance;

typedef struct pd_object {
  size_t wire_offset;
  uint32_t name_index; /* ObjectNameTitleIndex */
  uint32_t help_index;
  uint32_t detail_level;
  int32_t default_counter;
  int32_t num_instances; /* as on the wire: -1, 0, n, -2, -3 (format.md 1.5) */
  uint32_t code_page;    /* 0 = UTF-16 names */
  int64_t perf_time;     /* the object's own clock */
  int64_t perf_freq;
  uint32_t counter_count;
  const pd_counter_def *counters;
  /* Single-instance objects (num_instances == -1) have exactly one entry
   * here, unnamed, with wire_offset 0; metadata-only and empty objects none. */
  uint32_t instance_count;
  const pd_instance *instances;
} pd_object;

typedef struct pd_header {
  bool big_endian;
  uint32_t version, revision;
  uint32_t
      total_byte_length; /* advisory (format.md 6: Samba omits the header) */
  uint32_t header_length;
  uint32_t num_object_types; /* as claimed; pd_snapshot_object_count is real */
  int32_t default_object;
  uint16_t system_time[8]; /* SYSTEMTIME: year, month, dow, day, h, m, s, ms */
  int64_t perf_time, perf_freq, perf_time_100ns;
  const char *system_name; /* UTF-8, snapshot-owned */
} pd_header;

typedef struct pd_decode_limits {
  uint32_t max_objects;   /* default 4096 */
  uint32_t max_counters;  /* per object, default 65536 */
  uint32_t max_instances; /* per object, default 1,000,000 */
} pd_decode_limits;

/* A decoded blob. Reusable: decoding into the same snapshot again reuses its
 * memory, so steady-state decoding allocates nothing. The snapshot points
 * into the blob bytes (values are read from them on demand): keep the bytes
 * alive and unchanged while the snapshot is used. */
typedef struct pd_snapshot pd_snapshot;

pd_snapshot *pd_snapshot_new(void);
void pd_snapshot_free(pd_snapshot *snap);

/* Decode a V1 blob (format.md 1). On error, *err names the offset and reason
 * and the snapshot holds the objects fully validated before the error (the
 * header is valid whenever the status is not SIGNATURE/BYTE_ORDER/HEADER/
 * TRUNCATED-in-header). limits may be NULL. */
pd_status pd_decode(pd_snapshot *snap, const uint8_t *data, size_t len,
                    const pd_decode_limits *limits, pd_error *err);

const pd_header *pd_snapshot_header(const pd_snapshot *snap);
const uint8_t *pd_snapshot_bytes(const pd_snapshot *snap, size_t *len);
uint32_t pd_snapshot_object_count(const pd_snapshot *snap);
const pd_object *pd_snapshot_object(const pd_snapshot *snap, uint32_t i);
/* First object whose ObjectNameTitleIndex is `index`, or NULL. */
const pd_object *pd_snapshot_find_object(const pd_snapshot *snap,
                                         uint32_t index);

/* How a counter's value is read (pd_counter_def.load): its CounterSize in
 * the blob's byte order; NONE for sizes other than 4 and 8 (text, zero). */
enum {
  PD_LOAD_NONE = 0,
  PD_LOAD_LE32,
  PD_LOAD_LE64,
  PD_LOAD_BE32,
  PD_LOAD_BE64
};

/* The raw value of counter `def` in instance `inst`: 4- or 8-byte counters
 * zero-extended; 0 otherwise. Never out of bounds: decode checked
 * CounterOffset + CounterSize against every counter block once (format.md
 * 1.3), so this only reads (the bound is asserted in debug and sanitizer
 * builds). Inline: it is the innermost loop of every evaluation. */
static inline uint64_t pd_counter_raw(const pd_snapshot *snap,
                                      const pd_instance *inst,
                                      const pd_counter_def *def) {
  (void)snap; /* the block pointer was resolved against it at decode */
  const uint8_t *p = inst->block + def->offset;
  switch (def->load) {
  case PD_LOAD_LE32:
    assert((uint64_t)def->offset + 4 <= inst->block_length);
    return wire_le32(p);
  case PD_LOAD_LE64:
    assert((uint64_t)def->offset + 8 <= inst->block_length);
    return wire_le64(p);
  case PD_LOAD_BE32:
    assert((uint64_t)def->offset + 4 <= inst->block_length);
    return wire_be32(p);
  case PD_LOAD_BE64:
    assert((uint64_t)def->offset + 8 <= inst->block_length);
    return wire_be64(p);
  default:
    return 0;
  }
}

/* Fill a pd_sample for counter number `counter` of `obj` in `inst`: the raw
 * value, its base (format.md 3: the next definition for base-using types; for
 * MULTI types a following MULTI_BASE definition, else the DWORD after the
 * 8-byte value) and the clocks. has_base is false when none can be read. */
void pd_snapshot_sample(const pd_snapshot *snap, const pd_object *obj,
                        const pd_instance *inst, uint32_t counter,
                        pd_sample *out);

/* Instance names (format.md 1.4), converted on first use per object and cached
 * in the snapshot until the next decode. Returns a UTF-8 NUL-terminated string
 * owned by the snapshot, or NULL on allocation failure. For single-instance
 * objects: "". */
/* The instance's own name: UTF-16 (block byte order) or the object's code
 * page converted to UTF-8; an unnamed instance with a UniqueID is that
 * number in decimal. */
const char *pd_instance_name(pd_snapshot *snap, const pd_object *obj,
                             uint32_t inst);
/* PDH's full name: "parent/name" when it has a parent, then "#n" for the
 * n-th case-insensitive duplicate of that in blob order (first: no suffix). */
const char *pd_instance_full_name(pd_snapshot *snap, const pd_object *obj,
                                  uint32_t inst);
/* The full name without PDH's "#n": "parent/name" (or just the name). */
const char *pd_instance_base_name(pd_snapshot *snap, const pd_object *obj,
                                  uint32_t inst);
/* Index of the instance of obj whose full name equals `full_name`
 * case-insensitively, or -1. Hash lookup after the first call per object. */
int64_t pd_find_instance(pd_snapshot *snap, const pd_object *obj,
                         const char *full_name);

/* -------------------------------------------------------------- name tables */

/* format.md 4.1: a REG_MULTI_SZ Counter (or Help) table, UTF-16LE. A leading
 * "1", "<number>" pair is skipped: on Windows it is a historical constant,
 * not a name and not the highest index in use (Perflib's Last Counter, which
 * only the registry knows). */
typedef struct pd_names pd_names;

pd_status pd_names_parse(const uint8_t *multisz, size_t len, pd_names **out,
                         pd_error *err);
void pd_names_free(pd_names *names);
/* UTF-8 name of index, or NULL. */
const char *pd_names_get(const pd_names *names, uint32_t index);
/* Every index `name` has (case-insensitive), ascending; returns the count and
 * points *indices at names-owned storage. */
size_t pd_names_lookup(const pd_names *names, const char *name,
                       const uint32_t **indices);
/* Number of (index, name) pairs. */
size_t pd_names_count(const pd_names *names);
/* Pair i (0 <= i < pd_names_count) in ascending index order, an index
 * listed twice in table order (the later one is what pd_names_get gives):
 * its UTF-8 name, *index (if non-NULL) its index; NULL past the end. */
const char *pd_names_at(const pd_names *names, size_t i, uint32_t *index);

/* ----------------------------------------------------------- counter paths */

/* format.md 4.2: [\\machine]\object[(parent/instance#n)]\counter */
typedef struct pd_path {
  char *machine;      /* NULL when absent */
  char *object;       /* name, or decimal index when object_is_index */
  char *parent;       /* NULL when absent */
  char *instance;     /* NULL when the path has no "(...)" */
  uint32_t dup_index; /* #n; 0 when absent */
  char *counter;
  bool object_is_index;
  bool counter_is_index;
  bool instance_has_wildcard; /* '*' in parent or instance */
  bool counter_has_wildcard;
} pd_path;

pd_status pd_path_parse(const char *text, pd_path *out, pd_error *err);
void pd_path_clear(pd_path *path);
/* Case-insensitive match; '*' matches any run of characters (incl. none). */
bool pd_wildcard_match(const char *pattern, const char *text);
/* ASCII/UTF-8 case-insensitive compare: Latin letters and the Latin-1 and
 * Greek/Cyrillic basic ranges fold; returns <0, 0, >0. */
int pd_name_casecmp(const char *a, const char *b);
/* The case-insensitive hash of UTF-8 text: texts pd_name_casecmp calls
 * equal hash alike (wp_hash_bytes, src/common/wp_hash.h, over the folded
 * code points; 32 bits). The name tables, memos and instance index key on
 * it, as does any table of names compared with pd_name_casecmp. */
uint32_t pd_hash_folded(const char *s);

/* --------------------------------------------------------------- selection */

typedef struct pd_result {
  size_t path_id;       /* which configured path (order of _add) */
  const char *path;     /* canonical "\Object(instance)\Counter"; NULL
                         * after pd_selection_set_paths(sel, false): then
                         * pd_result_path formats it on demand */
  const char *object;   /* object name (or index as text) */
  const char *instance; /* full PDH instance name; NULL if single */
  const char *counter;  /* counter name (or index as text) */
  uint32_t object_index;
  uint32_t counter_index;
  uint32_t counter_type;
  double value; /* valid when status == PD_VALUE_OK */
  pd_value_status status;
  uint64_t raw_value; /* newer N, for raw mode */
  uint64_t raw_base;  /* newer B */
  int64_t time_100ns; /* newer sample's PerfTime100nSec */
  /* The instance's raw "ID Process" / "ID Thread" value, where its object
   * has such a counter (found by name through the names table, else by the
   * standard indices PD_INDEX_ID_PROCESS / PD_INDEX_ID_THREAD). */
  uint64_t pid;
  uint64_t tid;
  bool has_pid;
  bool has_tid;
  /* When the instance is known by its id (the path pairs by id and the
   * instance does, format.md 1.4): the name it goes by, its own name or,
   * for a thread (ID Thread and a parent), its process's own name; never
   * with "#n". NULL when it pairs by full name: single-instance objects,
   * _Total, id 0, an id twice in the sample, no ID Process counter; and
   * always NULL unless pd_selection_set_id_base asked for it. */
  const char *id_base;
} pd_result;

/* The counter name indices Windows gives "ID Process" and "ID Thread" (the
 * Process and Thread objects' identity counters). */
enum { PD_INDEX_ID_PROCESS = 784, PD_INDEX_ID_THREAD = 804 };

/* How instances of two samples are paired (format.md 1.4, "Pairing"). */
typedef enum pd_pair_by {
  PD_PAIR_BY_ID = 0,    /* by ID Process (and ID Thread) where the object has
                         * them, else by full name; the default */
  PD_PAIR_BY_FULL_NAME, /* always by full name ("w3wp#1"), as PDH */
} pd_pair_by;

/* Configured paths, compiled against a names table and matched against
 * snapshots. Owns the result storage, reused across evaluations. */
typedef struct pd_selection pd_selection;

pd_selection *pd_selection_new(void);
void pd_selection_free(pd_selection *sel);
/* Add a configured path; *path_id gets its number (0, 1, ...). */
pd_status pd_selection_add(pd_selection *sel, const char *path, size_t *path_id,
                           pd_error *err);
/* Names used to resolve object and counter names (NULL: numeric only).
 * The selection keeps the pointer: keep `names` alive, call again after a
 * reload. */
void pd_selection_set_names(pd_selection *sel, const pd_names *names);
void pd_selection_set_options(pd_selection *sel, const pd_calc_options *opt);
void pd_selection_set_pairing(pd_selection *sel, pd_pair_by pair_by);
/* Pairing for one path (its path_id), over the selection's; false for an
 * unknown path_id or mode. */
bool pd_selection_set_path_pairing(pd_selection *sel, size_t path_id,
                                   pd_pair_by pair_by);
/* Which paths deduplicate among themselves: a value (a counter of an
 * instance) that several paths of one group match is reported once, under
 * the first of them; paths of different groups each report it. Every path
 * starts in group 0 (each value once in all). Returns false for an unknown
 * path_id. */
bool pd_selection_set_path_group(pd_selection *sel, size_t path_id,
                                 uint32_t group);
/* Whether results carry id_base (names by process id need it; finding it
 * costs a lookup per instance, so it is off unless asked for). */
void pd_selection_set_id_base(pd_selection *sel, bool want);
/* Whether results carry `path` (default true). Formatting it costs a copy
 * of three names per value every interval; a caller that needs the path
 * only now and then (a log line) turns it off and calls pd_result_path. */
void pd_selection_set_paths(pd_selection *sel, bool want);
/* r's canonical "\Object(instance)\Counter" into out[0..len), as
 * pd_result.path has it (truncated to fit, always NUL-terminated when len >
 * 0); returns out. */
char *pd_result_path(const pd_result *r, char *out, size_t len);
/* An instance filter: called by pd_selection_evaluate once per instance a
 * path's pattern matches, before anything is computed or named for it,
 * with its full and base names (pd_instance_full_name / _base_name; both ""
 * for a single-instance object). Returns 1 to keep the instance, 0 to leave
 * it out (nothing computed, not reported under this path; a later path may
 * still report it), -1 when out of memory (the evaluation fails with
 * PD_E_NOMEM). */
typedef int (*pd_instance_filter)(void *ctx, size_t path_id,
                                  const char *full_name, const char *base_name);
/* Set (or with NULL clear) path_id's filter; ctx is handed back. */
void pd_selection_set_instance_filter(pd_selection *sel, size_t path_id,
                                      pd_instance_filter filter, void *ctx);
/* The object index list a query needs, e.g. "238 2 4" (ascending, unique).
 * Paths whose object name does not resolve are left out; *unresolved gets
 * how many (may be NULL). Returns selection-owned storage, or NULL when
 * memory runs out. */
const char *pd_selection_query(pd_selection *sel, size_t *unresolved);
/* One pass over `newer` (and `older`, which may be NULL): every counter the
 * paths match, in path order then blob order; instances are paired across
 * samples by process id or full name (pd_selection_set_pairing). A value
 * matched by two paths of one group appears once, under the first
 * (pd_selection_set_path_group). The results and their strings
 * stay valid until the next evaluation or the next decode into `newer`,
 * whichever comes first (instance names point into the newer snapshot).
 * They are the caller's to read only: the next evaluation reuses the array
 * and leaves fields it finds as it would write them in place. */
pd_status pd_selection_evaluate(pd_selection *sel, pd_snapshot *older,
                                pd_snapshot *newer, const pd_result **results,
                                size_t *count, pd_error *err);
/* How many counters path `path_id` matched in the last evaluation,
 * including those reported under an earlier path of its group. */
size_t pd_selection_matches(const pd_selection *sel, size_t path_id);
size_t pd_selection_path_count(const pd_selection *sel);

#ifdef __cplusplus
}
#endif

#endif /* PERFDATA_H */
