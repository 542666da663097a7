/* collectd-winperf: the one place that reads wire bytes.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Every field of a blob is read at an explicit offset with a bounds check
 * and byte-by-byte assembly: no struct overlays, no alignment assumptions
 * (spec, "Conventions"). The byte order is chosen once per blob (spec 1.7).
 */
#ifndef PD_CURSOR_H
#define PD_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pd_bytes {
  const uint8_t *data;
  size_t len;
  bool big_endian;
} pd_bytes;

/* True when [off, off + n) lies inside the buffer; overflow-safe. */
static inline bool pd_has(const pd_bytes *b, size_t off, size_t n) {
  return off <= b->len && n <= b->len - off;
}

/* Unchecked loads: callers check with pd_has() first (once per structure,
 * then read its fields). */
static inline uint16_t pd_ld16(const pd_bytes *b, size_t off) {
  const uint8_t *p = b->data + off;
  return b->big_endian ? (uint16_t)(p[0] << 8 | p[1])
                       : (uint16_t)(p[1] << 8 | p[0]);
}

static inline uint32_t pd_ld32(const pd_bytes *b, size_t off) {
  const uint8_t *p = b->data + off;
  if (b->big_endian)
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           (uint32_t)p[3];
  return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 |
         (uint32_t)p[0];
}

static inline uint64_t pd_ld64(const pd_bytes *b, size_t off) {
  uint64_t lo = pd_ld32(b, b->big_endian ? off + 4 : off);
  uint64_t hi = pd_ld32(b, b->big_endian ? off : off + 4);
  return hi << 32 | lo;
}

/* Checked loads: false (and *out untouched) when out of bounds. */
static inline bool pd_get32(const pd_bytes *b, size_t off, uint32_t *out) {
  if (!pd_has(b, off, 4))
    return false;
  *out = pd_ld32(b, off);
  return true;
}

static inline bool pd_get64(const pd_bytes *b, size_t off, uint64_t *out) {
  if (!pd_has(b, off, 8))
    return false;
  *out = pd_ld64(b, off);
  return true;
}

/* Overflow-safe a + b for offsets. */
static inline bool pd_add(size_t a, size_t b, size_t *out) {
  if (b > SIZE_MAX - a)
    return false;
  *out = a + b;
  return true;
}

#endif
