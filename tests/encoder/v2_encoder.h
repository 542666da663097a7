/* collectd-winperf tests: a byte builder, and V2 (PerfLib) blocks built with
 * it field by field from the doc/format.md 5 layouts.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Like encoder.h it never calls the decoder: offsets, sizes and type values
 * come from the spec alone, so the V2 unit tests (tests/windows/test_v2.c)
 * and the fuzz seeds (tests/fuzz/make_seeds.c) build the same independent
 * vectors. Part of libencoder.la.
 *
 *   enc_vec v;
 *   enc_v2_header(&v, 1, ts, t100, freq);       // PERF_DATA_HEADER
 *   size_t b = enc_v2_begin(&v, 0, ENC_V2_SINGLE_COUNTER);
 *   enc_v2_counter(&v, 4, 1000);                // PERF_COUNTER_DATA
 *   enc_v2_end(&v, b);                          // the block's dwSize
 *   enc_v2_finish(&v);                          // dwTotalSize
 *
 * Writing past ENC_VEC_MAX bytes prints a message to stderr and aborts (test
 * support code: mistakes should be loud).
 */
#ifndef WINPERF_TESTS_V2_ENCODER_H
#define WINPERF_TESTS_V2_ENCODER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------ the byte builder */

#define ENC_VEC_MAX 8192

/* Bytes written so far (n), little-endian integers. */
typedef struct enc_vec {
  uint8_t b[ENC_VEC_MAX];
  size_t n;
} enc_vec;

/* Append an integer; each returns the offset it was written at. */
size_t enc_u8(enc_vec *v, uint8_t x);
size_t enc_u16(enc_vec *v, uint16_t x);
size_t enc_u32(enc_vec *v, uint32_t x);
size_t enc_u64(enc_vec *v, uint64_t x);
/* Overwrite an integer written earlier at `at`. */
void enc_set16(enc_vec *v, size_t at, uint16_t x);
void enc_set32(enc_vec *v, size_t at, uint32_t x);
/* Append n bytes (p may be NULL when n is 0). */
void enc_bytes(enc_vec *v, const void *p, size_t n);
/* Append zeros until the length counted from `from` is a multiple of `to`. */
void enc_pad(enc_vec *v, size_t from, size_t to);
/* Append an ASCII string as UTF-16LE with its NUL. */
void enc_wstr(enc_vec *v, const char *ascii);

/* ----------------------------------------------------- V2 (format.md 5) */

/* PERF_COUNTER_HEADER dwType values (format.md 5, the answer). */
enum {
  ENC_V2_ERROR_RETURN = 0,
  ENC_V2_SINGLE_COUNTER = 1,
  ENC_V2_MULTIPLE_COUNTERS = 2,
  ENC_V2_MULTIPLE_INSTANCES = 4,
  ENC_V2_COUNTERSET = 6,
};

/* Start v over with a PERF_DATA_HEADER (48 bytes, SystemTime 0); its
 * dwTotalSize is written by enc_v2_finish. */
void enc_v2_header(enc_vec *v, uint32_t blocks, int64_t perf_time,
                   int64_t perf_time_100ns, int64_t perf_freq);
/* dwTotalSize = the bytes written. */
void enc_v2_finish(enc_vec *v);
/* A PERF_COUNTER_HEADER; returns its offset for enc_v2_end, which writes
 * its dwSize (the header and all that follows it). */
size_t enc_v2_begin(enc_vec *v, uint32_t status, uint32_t type);
void enc_v2_end(enc_vec *v, size_t at);
/* PERF_COUNTER_DATA with a 4- or 8-byte value (size), padded to 8. */
void enc_v2_counter(enc_vec *v, uint32_t size, uint64_t value);
/* PERF_MULTI_COUNTERS and its n ids. */
void enc_v2_multi(enc_vec *v, const uint32_t *ids, uint32_t n);
/* PERF_MULTI_INSTANCES for n instances; returns its offset for
 * enc_v2_instances_end, which writes its dwTotalSize. */
size_t enc_v2_instances(enc_vec *v, uint32_t n);
void enc_v2_instances_end(enc_vec *v, size_t at);
/* PERF_INSTANCE_HEADER with its UTF-16LE name, padded to 8; returns its
 * offset. */
size_t enc_v2_instance(enc_vec *v, uint32_t id, const char *name);

/* One PERF_COUNTER_REG_INFO's ids and type (the rest: Attrib 0,
 * DetailLevel 100, DefaultScale 0, AggregateFunc 0). */
typedef struct enc_v2_reg {
  uint32_t id, type, base, ptime, pfreq, multi;
} enc_v2_reg;

/* Start v over with a PERF_COUNTERSET_REG_INFO: GUID bytes 10 11 ... 1f
 * ({13121110-1514-1716-1819-1a1b1c1d1e1f}), CounterSetType 0, DetailLevel
 * 100, InstanceType 2 (multiple instances), then the n counters. */
void enc_v2_counterset(enc_vec *v, const enc_v2_reg *r, uint32_t n);

/* The answer with every dwType that test_v2.c's format.md 3.3 examples
 * evaluate; k is the sample (0 or 1), the raw values move by these steps
 * between them (20,000,000 PerfTimeStamp ticks at 1e7/s = 2 s, 1 s of
 * PerfTime100NSec):
 *   block 0  error, dwStatus 0x490 (ERROR_NOT_FOUND)
 *   block 1  single counter: 1000 + 600 k (4 bytes)
 *   block 2  multiple counters 8, 10, 12: 25, 200 (4 bytes each),
 *            5,000,000 + 7,500,000 k (8 bytes)
 *   block 3  multiple instances "0" (id 0): 1,000,000 + 7,000,000 k and
 *            "1" (id 1): 2,000,000 + 7,000,000 k (8 bytes)
 *   block 4  counter set 20, 22, 24, 26: instance "w3wp" (id 7) 1000 +
 *            3,000,000 k, 50 + 100 k, 9000 + 15,000,000 k, 2; instance
 *            "svchost" (id 9) 0, 10, 2,500,000 k, 0 (8, 4, 8, 4 bytes) */
void enc_v2_answer_all_types(enc_vec *v, uint32_t k);

#ifdef __cplusplus
}
#endif

#endif
