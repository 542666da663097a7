/* collectd-winperf tests: writing replay captures (a directory of *.blob
 * files plus names.multisz) from blobs built with tests/encoder.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Used by the end-to-end capture generators and the demo capture generator.
 * Everything here is deterministic: the same arguments give the same bytes.
 */
#ifndef WINPERF_TESTS_CAPTURE_H
#define WINPERF_TESTS_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "encoder.h"

/* One (index, name) pair of a Counter name table (format.md 4.1). */
typedef struct cap_name {
  uint32_t index;
  const char *name; /* ASCII */
} cap_name;

/* Create `dir` if needed. Exits the program on failure (test support). */
void cap_mkdir(const char *dir);

/* Write dir/names.multisz: UTF-16LE REG_MULTI_SZ, the "1", "<highest>" pair
 * first, then the pairs in ascending index order, then the empty string that
 * ends a REG_MULTI_SZ (format.md 4.1). */
void cap_write_names(const char *dir, const cap_name *names, size_t count);

/* Write `len` bytes to dir/NNNN.blob (NNNN = seq, 4 digits, so name order is
 * interval order). */
void cap_write_blob(const char *dir, unsigned seq, const uint8_t *data,
                    size_t len);

/* A new blob for sample k of a capture that starts at Unix time t0: the
 * SYSTEMTIME and PerfTime100nSec of t0 + k, PerfTime 1e9 + k * 1e7 ticks
 * at PerfFreq 1e7 (one second per sample). Needs tests/encoder. */
struct enc_blob;
struct enc_blob *cap_sample_new(const char *system_name, int64_t t0, int k);
/* Build b, write it as dir/NNNN.blob (NNNN = k) and free b. */
void cap_sample_write(const char *dir, int k, struct enc_blob *b);

/* PerfTime100nSec of a Unix time: 100 ns units since 1601-01-01 UTC. */
int64_t cap_filetime(int64_t unix_seconds);

/* SYSTEMTIME fields (year, month, day of week, day, hour, minute, second,
 * ms) of a Unix time in UTC. */
void cap_system_time(int64_t unix_seconds, uint16_t st[8]);

/* A blob of system `system` whose sample k is at Unix time t0 + k: its
 * SYSTEMTIME, PerfTime100nSec, and PerfTime 1e9 + k * 1e7 at PerfFreq 1e7
 * (1 s between samples). */
enc_blob *cap_blob_at(const char *system, int64_t t0, int k);
/* Build b into dir/NNNN.blob (cap_write_blob) and free it. */
void cap_write_built(const char *dir, unsigned seq, enc_blob *b);

/* Deterministic pseudo-random numbers (splitmix64). */
uint64_t cap_rand(uint64_t *state);
/* Uniform integer in [lo, hi] (integers only, so the bytes do not depend on
 * the platform's floating point, e.g. FMA contraction). */
int64_t cap_between(uint64_t *state, int64_t lo, int64_t hi);

#endif
