/* collectd-winperf: the portable part of the V2 (PerfLib consumer) path.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * format.md 5. Bytes in, values out, no Windows header: the Windows consumer
 * (src/source/perflib_v2.c) only moves these byte blocks through
 * PerfAddCounters / PerfQueryCounterData / PerfQueryCounterSetRegistrationInfo.
 *
 *   pd_v2_identifier_encode   -> PERF_COUNTER_IDENTIFIER blocks to add
 *   pd_v2_counterset_parse    <- PERF_COUNTERSET_REG_INFO (types, bases)
 *   pd_v2_data_decode         <- a PerfQueryCounterData answer
 *   pd_v2_evaluate            -> values via pd_compute, as the V1 path
 */
#ifndef PERFDATA_V2_H
#define PERFDATA_V2_H

#include "perfdata.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pd_guid {
  uint32_t data1;
  uint16_t data2, data3;
  uint8_t data4[8];
} pd_guid;

/* "{01234567-89ab-cdef-0123-456789abcdef}" (braces optional). */
pd_status pd_guid_parse(const char *text, pd_guid *out, pd_error *err);
/* Writes the braced, lower-case form (39 bytes with the NUL). */
void pd_guid_format(const pd_guid *guid, char out[39]);

enum {
  PD_V2_IDENTIFIER_SIZE = 40,  /* PERF_COUNTER_IDENTIFIER */
  PD_V2_DATA_HEADER_SIZE = 48, /* PERF_DATA_HEADER */
  PD_V2_COUNTER_HEADER_SIZE = 16,
  PD_V2_COUNTERSET_REG_SIZE = 32, /* PERF_COUNTERSET_REG_INFO */
  PD_V2_COUNTER_REG_SIZE = 48,    /* PERF_COUNTER_REG_INFO */
};

#define PD_V2_WILDCARD_COUNTER 0xFFFFFFFFu /* PERF_WILDCARD_COUNTER */
#define PD_V2_ANY_INSTANCE_ID 0xFFFFFFFFu  /* no InstanceId filter */
#define PD_V2_NO_ID 0xFFFFFFFFu            /* "none" in the reg info ids */

/* PERF_COUNTER_HEADER.dwType (PerfCounterDataType). */
enum {
  PD_V2_ERROR_RETURN = 0,
  PD_V2_SINGLE_COUNTER = 1,
  PD_V2_MULTIPLE_COUNTERS = 2,
  PD_V2_MULTIPLE_INSTANCES = 4,
  PD_V2_COUNTERSET = 6,
};

/* ------------------------------------------------------- identifiers */

/* Write one PERF_COUNTER_IDENTIFIER block: the 40-byte struct, then (when
 * `instance` is not NULL) the UTF-8 `instance` as NUL-terminated UTF-16LE,
 * zero-padded so Size is a multiple of 8 (format.md 5). `instance` "*" means
 * all instances; counter_id PD_V2_WILDCARD_COUNTER all counters. Returns the
 * block size; writes only when it fits in `cap` (like snprintf). Returns 0
 * when `instance` is not valid UTF-8. */
size_t pd_v2_identifier_encode(const pd_guid *set, uint32_t counter_id,
                               const char *instance, uint32_t instance_id,
                               uint8_t *out, size_t cap);

/* Write Index (the position of this identifier's results, format.md 5) into an
 * identifier block of `len` bytes; false when the block is too short. */
bool pd_v2_identifier_set_index(uint8_t *block, size_t len, uint32_t index);

typedef struct pd_v2_identifier {
  pd_guid set;
  uint32_t status; /* written by PerfAddCounters (a Win32 error code) */
  uint32_t size;
  uint32_t counter_id;
  uint32_t instance_id;
  uint32_t index;     /* written by PerfQueryCounterInfo */
  char instance[256]; /* UTF-8; "" when none (truncated names are an error) */
} pd_v2_identifier;

/* Read the block at `offset` of a buffer of blocks; *next gets the offset of
 * the following block. */
pd_status pd_v2_identifier_decode(const uint8_t *data, size_t len,
                                  size_t offset, pd_v2_identifier *out,
                                  size_t *next, pd_error *err);

/* ------------------------------------------------ registration info */

typedef struct pd_v2_counter_info {
  uint32_t id;
  uint32_t type; /* a format.md 2.2 CounterType */
  uint64_t attrib;
  uint32_t detail_level;
  int32_t default_scale;
  uint32_t base_id;      /* BaseCounterId */
  uint32_t perf_time_id; /* object clock for OBJECT_TIMER types */
  uint32_t perf_freq_id;
  uint32_t multi_id;
  uint32_t aggregate;
} pd_v2_counter_info;

typedef struct pd_v2_counterset {
  pd_guid guid;
  uint32_t detail_level;
  uint32_t instance_type;
  uint32_t counter_count;
  pd_v2_counter_info *counters; /* registration order */
} pd_v2_counterset;

/* Parse a PERF_COUNTERSET_REG_INFO block (PerfQueryCounterSetRegistration-
 * Info with PERF_REG_COUNTERSET_STRUCT): the 32-byte struct, then
 * NumCounters PERF_COUNTER_REG_INFO of 48 bytes. */
pd_status pd_v2_counterset_parse(const uint8_t *data, size_t len,
                                 pd_v2_counterset **out, pd_error *err);
void pd_v2_counterset_free(pd_v2_counterset *set);
/* The registration of counter `id`, or NULL. */
const pd_v2_counter_info *pd_v2_counterset_find(const pd_v2_counterset *set,
                                                uint32_t id);

/* --------------------------------------------------------- the answer */

typedef struct pd_v2_header {
  uint32_t total_size;
  uint32_t num_counters; /* PERF_COUNTER_HEADER blocks */
  int64_t perf_time;     /* PerfTimeStamp */
  int64_t perf_time_100ns;
  int64_t perf_freq;
  uint16_t system_time[8];
} pd_v2_header;

/* One PERF_COUNTER_HEADER block: the answer to one added identifier, in the
 * identifiers' Index order. */
typedef struct pd_v2_block {
  uint32_t status; /* dwStatus (a Win32 error code; 0 = ok) */
  uint32_t type;   /* PD_V2_ERROR_RETURN ... PD_V2_COUNTERSET */
  size_t first_value;
  size_t value_count;
} pd_v2_block;

/* One raw reading. */
typedef struct pd_v2_value {
  uint32_t block;
  uint32_t counter_id;
  bool has_instance;
  uint32_t instance_id;
  const char *instance; /* UTF-8, owned by the pd_v2_data; "" when none */
  uint32_t data_size;   /* dwDataSize: 4 or 8 for numbers */
  uint64_t raw;         /* zero-extended; 0 for other sizes */
} pd_v2_value;

/* A decoded answer; reusable like pd_snapshot (decoding again reuses its
 * memory). Everything is copied out: the input may be freed afterwards. */
typedef struct pd_v2_data pd_v2_data;

pd_v2_data *pd_v2_data_new(void);
void pd_v2_data_free(pd_v2_data *data);
/* Decode a PerfQueryCounterData answer. ids[b] is the identifier whose
 * Index is b (from PerfQueryCounterInfo): single-counter answers (types 1
 * and 4) do not name their counter, and single-instance answers (1 and 2)
 * not their instance, so those come from it (ids may be NULL: counter
 * PD_V2_NO_ID, no instance). `max_values` bounds the readings (0:
 * 1,000,000). On error the data is empty. */
pd_status pd_v2_data_decode(pd_v2_data *data, const uint8_t *bytes, size_t len,
                            const pd_v2_identifier *ids, size_t nids,
                            size_t max_values, pd_error *err);
const pd_v2_header *pd_v2_data_header(const pd_v2_data *data);
size_t pd_v2_data_block_count(const pd_v2_data *data);
const pd_v2_block *pd_v2_data_block(const pd_v2_data *data, size_t i);
size_t pd_v2_data_value_count(const pd_v2_data *data);
const pd_v2_value *pd_v2_data_value(const pd_v2_data *data, size_t i);

/* ------------------------------------------------------- computing */

typedef struct pd_v2_result {
  uint32_t block;
  uint32_t counter_id;
  uint32_t counter_type;
  const char *instance; /* "" when the counter set is single-instance */
  uint32_t instance_id;
  double value; /* valid when status == PD_VALUE_OK */
  pd_value_status status;
  uint64_t raw_value;
  uint64_t raw_base;
} pd_v2_result;

/* Result storage, reused across evaluations. */
typedef struct pd_v2_results {
  pd_v2_result *items;
  size_t count;
  size_t cap;
} pd_v2_results;

void pd_v2_results_free(pd_v2_results *res);

/* Compute every displayable reading of `newer` (format.md 3 formulas, through
 * pd_compute) with `older` (may be NULL) as the previous sample. sets[b] is
 * the registration of block b's counter set (NULL or b >= nsets: that
 * block is skipped). Clocks: the header's PerfTimeStamp / PerfFreq /
 * PerfTime100NSec; OBJECT_TIMER types use the counters PerfTimeId /
 * PerfFreqId of the same instance. Base, multi count and PRECISION
 * timestamp: the counter BaseCounterId (MultiId for MULTI types) of the same
 * instance, else the next registered counter when it is a base type (the
 * V1 convention). Readings pair across samples by block, counter,
 * instance name and instance id. Results point into `newer`. */
pd_status pd_v2_evaluate(const pd_v2_counterset *const *sets, size_t nsets,
                         const pd_v2_data *older, const pd_v2_data *newer,
                         const pd_calc_options *opt, pd_v2_results *out,
                         pd_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PERFDATA_V2_H */
