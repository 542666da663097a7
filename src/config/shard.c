/* collectd-winperf: rendezvous hashing of host names onto pollers
 * (shard.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * XXH64 as its specification describes it (xxhash_spec.md, "XXH64
 * algorithm description"): four accumulators over 32-byte stripes, then
 * the remaining 8-, 4- and 1-byte lanes, then the avalanche. Written from
 * the specification; the test vectors of doc/sizing.md were computed with
 * an independent implementation (python3-xxhash). Not Debian's libxxhash:
 * this module is also cross-built into the Windows plugin, where that
 * library is not at hand, and the 60 lines below are a frozen interface
 * that the vectors pin down.
 */
#include "shard.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL
#define P5 0x27D4EB2F165667C5ULL

static uint64_t rotl(uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}

/* Little-endian reads, whatever the host's byte order. */
static uint64_t read64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = (v << 8) | p[i];
  return v;
}

static uint32_t read32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

static uint64_t round64(uint64_t acc, uint64_t lane) {
  acc += lane * P2;
  return rotl(acc, 31) * P1;
}

static uint64_t merge(uint64_t acc, uint64_t v) {
  acc ^= round64(0, v);
  return acc * P1 + P4;
}

uint64_t wp_xxh64(const void *data, size_t len, uint64_t seed) {
  const uint8_t *p = data;
  const uint8_t *end = p + len;
  uint64_t acc;
  if (len >= 32) {
    uint64_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
    for (; end - p >= 32; p += 32) {
      v1 = round64(v1, read64(p));
      v2 = round64(v2, read64(p + 8));
      v3 = round64(v3, read64(p + 16));
      v4 = round64(v4, read64(p + 24));
    }
    acc = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
    acc = merge(merge(merge(merge(acc, v1), v2), v3), v4);
  } else {
    acc = seed + P5;
  }
  acc += (uint64_t)len;
  for (; end - p >= 8; p += 8) {
    acc ^= round64(0, read64(p));
    acc = rotl(acc, 27) * P1 + P4;
  }
  if (end - p >= 4) {
    acc ^= (uint64_t)read32(p) * P1;
    acc = rotl(acc, 23) * P2 + P3;
    p += 4;
  }
  for (; p < end; p++) {
    acc ^= (uint64_t)*p * P5;
    acc = rotl(acc, 11) * P1;
  }
  acc ^= acc >> 33;
  acc *= P2;
  acc ^= acc >> 29;
  acc *= P3;
  acc ^= acc >> 32;
  return acc;
}

/* XXH64 (seed 0) of lowercase(name) followed by the `extra` bytes. */
static uint64_t lower_hash(const char *name, const char *extra,
                           size_t extra_len) {
  size_t n = strlen(name);
  char stack[256];
  char *key = n + extra_len <= sizeof(stack) ? stack : malloc(n + extra_len);
  if (key == NULL)
    return 0; /* no memory: every key weighs 0 */
  for (size_t i = 0; i < n; i++) {
    char ch = name[i];
    key[i] = ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
  }
  memcpy(key + n, extra, extra_len);
  uint64_t w = wp_xxh64(key, n + extra_len, 0);
  if (key != stack)
    free(key);
  return w;
}

uint64_t wp_shard_weight(const char *name, unsigned k) {
  char suffix[16];
  suffix[0] = '\0';
  int digits = snprintf(suffix + 1, sizeof(suffix) - 1, "%u", k);
  return lower_hash(name, suffix, 1 + (size_t)digits);
}

/* The high 64 bits of a x b, from 32-bit halves (no 128-bit type needed). */
static uint64_t mul_high(uint64_t a, uint64_t b) {
  uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32;
  uint64_t b_lo = b & 0xffffffffu, b_hi = b >> 32;
  uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi;
  uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xffffffffu) + lo_hi;
  return a_hi * b_hi + (hi_lo >> 32) + (cross >> 32);
}

uint64_t wp_first_read_offset(const char *name, uint64_t interval) {
  return mul_high(lower_hash(name, "", 0), interval);
}

unsigned wp_shard_of(const char *name, unsigned n) {
  unsigned best = 1;
  uint64_t best_w = wp_shard_weight(name, 1);
  for (unsigned k = 2; k <= n; k++) {
    uint64_t w = wp_shard_weight(name, k);
    if (w > best_w) { /* a tie keeps the lower k */
      best = k;
      best_w = w;
    }
  }
  return best;
}

static int parse_count(const char *s, const char *end, unsigned *out) {
  if (s == end || end - s > 7)
    return -1;
  unsigned v = 0;
  for (; s < end; s++) {
    if (*s < '0' || *s > '9')
      return -1;
    v = v * 10 + (unsigned)(*s - '0');
  }
  *out = v;
  return 0;
}

int wp_shard_parse(const char *text, unsigned *k, unsigned *n) {
  const char *slash = strchr(text, '/');
  if (slash == NULL || parse_count(text, slash, k) != 0 ||
      parse_count(slash + 1, slash + strlen(slash), n) != 0)
    return -1;
  return *k >= 1 && *k <= *n && *n <= WP_SHARD_MAX ? 0 : -1;
}
