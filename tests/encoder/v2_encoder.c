/* collectd-winperf tests: the byte builder and the V2 blocks (v2_encoder.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "v2_encoder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for n more bytes, or a loud stop. */
static void room(const enc_vec *v, size_t n) {
  if (v->n > ENC_VEC_MAX || n > ENC_VEC_MAX - v->n) {
    fprintf(stderr, "v2_encoder: more than %d bytes\n", ENC_VEC_MAX);
    abort();
  }
}

size_t enc_u8(enc_vec *v, uint8_t x) {
  room(v, 1);
  v->b[v->n] = x;
  return v->n++;
}

size_t enc_u16(enc_vec *v, uint16_t x) {
  size_t at = enc_u8(v, (uint8_t)x);
  enc_u8(v, (uint8_t)(x >> 8));
  return at;
}

size_t enc_u32(enc_vec *v, uint32_t x) {
  size_t at = enc_u16(v, (uint16_t)x);
  enc_u16(v, (uint16_t)(x >> 16));
  return at;
}

size_t enc_u64(enc_vec *v, uint64_t x) {
  size_t at = enc_u32(v, (uint32_t)x);
  enc_u32(v, (uint32_t)(x >> 32));
  return at;
}

void enc_set16(enc_vec *v, size_t at, uint16_t x) {
  if (at > v->n || v->n - at < 2) {
    fprintf(stderr, "v2_encoder: set16 at %zu past %zu bytes\n", at, v->n);
    abort();
  }
  v->b[at] = (uint8_t)x;
  v->b[at + 1] = (uint8_t)(x >> 8);
}

void enc_set32(enc_vec *v, size_t at, uint32_t x) {
  enc_set16(v, at, (uint16_t)x);
  enc_set16(v, at + 2, (uint16_t)(x >> 16));
}

void enc_bytes(enc_vec *v, const void *p, size_t n) {
  if (n == 0)
    return;
  room(v, n);
  memcpy(v->b + v->n, p, n);
  v->n += n;
}

void enc_pad(enc_vec *v, size_t from, size_t to) {
  while ((v->n - from) % to)
    enc_u8(v, 0);
}

void enc_wstr(enc_vec *v, const char *ascii) {
  for (const char *p = ascii;; p++) {
    enc_u16(v, (uint8_t)*p);
    if (*p == '\0')
      break;
  }
}

/* ------------------------------------------------------------------ V2 */

void enc_v2_header(enc_vec *v, uint32_t blocks, int64_t perf_time,
                   int64_t perf_time_100ns, int64_t perf_freq) {
  v->n = 0;
  enc_u32(v, 0); /* dwTotalSize: enc_v2_finish */
  enc_u32(v, blocks);
  enc_u64(v, (uint64_t)perf_time);
  enc_u64(v, (uint64_t)perf_time_100ns);
  enc_u64(v, (uint64_t)perf_freq);
  enc_u64(v, 0); /* SystemTime, 16 bytes */
  enc_u64(v, 0);
}

void enc_v2_finish(enc_vec *v) {
  enc_set32(v, 0, (uint32_t)v->n);
}

size_t enc_v2_begin(enc_vec *v, uint32_t status, uint32_t type) {
  size_t at = enc_u32(v, status);
  enc_u32(v, type);
  enc_u32(v, 0); /* dwSize: enc_v2_end */
  enc_u32(v, 0); /* Reserved */
  return at;
}

void enc_v2_end(enc_vec *v, size_t at) {
  enc_set32(v, at + 8, (uint32_t)(v->n - at));
}

void enc_v2_counter(enc_vec *v, uint32_t size, uint64_t value) {
  size_t at = enc_u32(v, size); /* dwDataSize */
  enc_u32(v, 0);                /* dwSize, below */
  if (size == 8)
    enc_u64(v, value);
  else
    enc_u32(v, (uint32_t)value);
  enc_pad(v, at, 8);
  enc_set32(v, at + 4, (uint32_t)(v->n - at));
}

void enc_v2_multi(enc_vec *v, const uint32_t *ids, uint32_t n) {
  enc_u32(v, 8 + 4 * n);
  enc_u32(v, n);
  for (uint32_t i = 0; i < n; i++)
    enc_u32(v, ids[i]);
}

size_t enc_v2_instances(enc_vec *v, uint32_t n) {
  size_t at = enc_u32(v, 0); /* dwTotalSize: enc_v2_instances_end */
  enc_u32(v, n);
  return at;
}

void enc_v2_instances_end(enc_vec *v, size_t at) {
  enc_set32(v, at, (uint32_t)(v->n - at));
}

size_t enc_v2_instance(enc_vec *v, uint32_t id, const char *name) {
  size_t at = enc_u32(v, 0); /* Size, below */
  enc_u32(v, id);
  enc_wstr(v, name);
  enc_pad(v, at, 8);
  enc_set32(v, at, (uint32_t)(v->n - at));
  return at;
}

void enc_v2_counterset(enc_vec *v, const enc_v2_reg *r, uint32_t n) {
  v->n = 0;
  for (int i = 0; i < 16; i++)
    enc_u8(v, (uint8_t)(0x10 + i)); /* CounterSetGuid */
  enc_u32(v, 0);                    /* CounterSetType */
  enc_u32(v, 100);                  /* DetailLevel */
  enc_u32(v, n);                    /* NumCounters */
  enc_u32(v, 2);                    /* InstanceType: multiple instances */
  for (uint32_t i = 0; i < n; i++) {
    enc_u32(v, r[i].id);
    enc_u32(v, r[i].type);
    enc_u64(v, 0);   /* Attrib */
    enc_u32(v, 100); /* DetailLevel */
    enc_u32(v, 0);   /* DefaultScale */
    enc_u32(v, r[i].base);
    enc_u32(v, r[i].ptime);
    enc_u32(v, r[i].pfreq);
    enc_u32(v, r[i].multi);
    enc_u32(v, 0); /* AggregateFunc */
    enc_u32(v, 0); /* Reserved: 48 bytes */
  }
}

void enc_v2_answer_all_types(enc_vec *v, uint32_t k) {
  enc_v2_header(v, 5, 1000000 + 20000000 * (int64_t)k,
                133485408000000000 + 10000000 * (int64_t)k, 10000000);
  size_t b = enc_v2_begin(v, 0x490, ENC_V2_ERROR_RETURN); /* NOT_FOUND */
  enc_v2_end(v, b);
  b = enc_v2_begin(v, 0, ENC_V2_SINGLE_COUNTER);
  enc_v2_counter(v, 4, 1000 + 600 * k);
  enc_v2_end(v, b);
  b = enc_v2_begin(v, 0, ENC_V2_MULTIPLE_COUNTERS);
  static const uint32_t ids2[3] = {8, 10, 12};
  enc_v2_multi(v, ids2, 3);
  enc_v2_counter(v, 4, 25);
  enc_v2_counter(v, 4, 200);
  enc_v2_counter(v, 8, 5000000 + 7500000 * k);
  enc_v2_end(v, b);
  b = enc_v2_begin(v, 0, ENC_V2_MULTIPLE_INSTANCES);
  size_t mi = enc_v2_instances(v, 2);
  enc_v2_instance(v, 0, "0");
  enc_v2_counter(v, 8, 1000000 + 7000000 * k);
  enc_v2_instance(v, 1, "1");
  enc_v2_counter(v, 8, 2000000 + 7000000 * k);
  enc_v2_instances_end(v, mi);
  enc_v2_end(v, b);
  b = enc_v2_begin(v, 0, ENC_V2_COUNTERSET);
  static const uint32_t ids4[4] = {20, 22, 24, 26};
  enc_v2_multi(v, ids4, 4);
  mi = enc_v2_instances(v, 2);
  enc_v2_instance(v, 7, "w3wp");
  enc_v2_counter(v, 8, 1000 + 3000000 * k);
  enc_v2_counter(v, 4, 50 + 100 * k);
  enc_v2_counter(v, 8, 9000 + 15000000 * k);
  enc_v2_counter(v, 4, 2);
  enc_v2_instance(v, 9, "svchost");
  enc_v2_counter(v, 8, 0);
  enc_v2_counter(v, 4, 10);
  enc_v2_counter(v, 8, 2500000 * k);
  enc_v2_counter(v, 4, 0);
  enc_v2_instances_end(v, mi);
  enc_v2_end(v, b);
  enc_v2_finish(v);
}
