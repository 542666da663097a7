/* collectd-winperf: the one byte hash of the project's hash tables.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Every table (wp_table.h) is keyed by a hash of its key's bytes from
 * here: names by their UTF-8 bytes, a name memo's key, a (process id,
 * thread id) pair, a dispatched value's key. Eight bytes at a time, a
 * multiply and a shift per word, and a final mix: for tables, not for
 * security. A case-insensitive hash is this hash over the folded form of
 * the text (the parser's pd_hash_folded, perfdata.h); the fleet's shard
 * hash is another, frozen function of its own.
 *
 * A hash over several pieces is the hash of the second seeded with that
 * of the first (wp_hash_bytes_from): the same pieces give the same hash.
 */
#ifndef WP_HASH_H
#define WP_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define WP_HASH_SEED UINT64_C(0x9E3779B97F4A7C15)

/* The hash of len bytes at key, continuing from seed. */
static inline uint64_t wp_hash_bytes_from(uint64_t seed, const void *key,
                                          size_t len) {
  const unsigned char *p = key;
  uint64_t h = seed ^ len, w;
  for (; len >= 8; len -= 8, p += 8) {
    memcpy(&w, p, 8);
    h = (h ^ w) * UINT64_C(0xFF51AFD7ED558CCD);
    h ^= h >> 32;
  }
  w = 0;
  if (len > 0)
    memcpy(&w, p, len);
  h = (h ^ w) * UINT64_C(0xC4CEB9FE1A85EC53);
  return h ^ (h >> 29);
}

/* The hash of len bytes at key. */
static inline uint64_t wp_hash_bytes(const void *key, size_t len) {
  return wp_hash_bytes_from(WP_HASH_SEED, key, len);
}

/* 32 bits of a hash, for the tables' slots. */
static inline uint32_t wp_hash32(uint64_t h) {
  return (uint32_t)(h ^ (h >> 32));
}

#endif
