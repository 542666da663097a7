/* collectd-winperf: the one place that reads and writes wire integers.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Every integer of a performance-data blob (V1 and V2), a DCE/RPC PDU, an
 * NDR stub or a helper frame is read or written here, at an explicit offset
 * and byte by byte: no struct overlays, no alignment assumptions. A V1 blob
 * chooses its byte order once (its signature); everything else is
 * little-endian.
 *
 * Three kinds of access:
 *   - checked:   wire_has(), wire_get*() and wire_sized() test the bounds
 *                and report failure; use them on anything not yet checked;
 *   - unchecked: wire_ld*() and wire_st*() read or write inside a range a
 *                check has already accepted. They assert the bounds, so a
 *                debug or sanitizer build catches a missing check; a
 *                release build (NDEBUG) compiles the assertion out;
 *   - raw:       wire_le32() and friends on a pointer, for callers that
 *                checked a plain (pointer, length) pair themselves.
 *
 * Header only, plain C: the parser (src/perfdata) and the remote code
 * (src/remote) both include it, and neither may depend on the other.
 */
#ifndef WIRE_H
#define WIRE_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------ raw, on a pointer */

static inline uint16_t wire_le16(const uint8_t *p) {
  return (uint16_t)(p[1] << 8 | p[0]);
}
static inline uint16_t wire_be16(const uint8_t *p) {
  return (uint16_t)(p[0] << 8 | p[1]);
}
static inline uint32_t wire_le32(const uint8_t *p) {
  return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 |
         (uint32_t)p[0];
}
static inline uint32_t wire_be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
         (uint32_t)p[3];
}
static inline uint64_t wire_le64(const uint8_t *p) {
  return (uint64_t)wire_le32(p + 4) << 32 | wire_le32(p);
}
static inline uint64_t wire_be64(const uint8_t *p) {
  return (uint64_t)wire_be32(p) << 32 | wire_be32(p + 4);
}

static inline void wire_put_le16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static inline void wire_put_be16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}
static inline void wire_put_le32(uint8_t *p, uint32_t v) {
  wire_put_le16(p, (uint16_t)v);
  wire_put_le16(p + 2, (uint16_t)(v >> 16));
}
static inline void wire_put_be32(uint8_t *p, uint32_t v) {
  wire_put_be16(p, (uint16_t)(v >> 16));
  wire_put_be16(p + 2, (uint16_t)v);
}
static inline void wire_put_le64(uint8_t *p, uint64_t v) {
  wire_put_le32(p, (uint32_t)v);
  wire_put_le32(p + 4, (uint32_t)(v >> 32));
}
static inline void wire_put_be64(uint8_t *p, uint64_t v) {
  wire_put_be32(p, (uint32_t)(v >> 32));
  wire_put_be32(p + 4, (uint32_t)v);
}

/* ------------------------------------------------------ reading */

/* Bytes to read, and their byte order. */
typedef struct wire_bytes {
  const uint8_t *data;
  size_t len;
  bool big_endian;
} wire_bytes;

/* Little-endian bytes (everything but a big-endian V1 blob). */
static inline wire_bytes wire_le(const uint8_t *data, size_t len) {
  wire_bytes b = {data, len, false};
  return b;
}

/* True when [off, off + n) lies inside the buffer; overflow-safe. */
static inline bool wire_has(const wire_bytes *b, size_t off, size_t n) {
  return off <= b->len && n <= b->len - off;
}

/* The `len` bytes at `off` as a buffer of their own, so that a structure's
 * fields are read at their offsets from its start; a check accepted
 * [off, off + len) before. */
static inline wire_bytes wire_view(const wire_bytes *b, size_t off,
                                   size_t len) {
  assert(wire_has(b, off, len));
  wire_bytes v = {b->data + off, len, b->big_endian};
  return v;
}

/* Unchecked loads: a check accepted [off, off + size) before. */
static inline uint8_t wire_ld8(const wire_bytes *b, size_t off) {
  assert(wire_has(b, off, 1));
  return b->data[off];
}
static inline uint16_t wire_ld16(const wire_bytes *b, size_t off) {
  assert(wire_has(b, off, 2));
  return b->big_endian ? wire_be16(b->data + off) : wire_le16(b->data + off);
}
static inline uint32_t wire_ld32(const wire_bytes *b, size_t off) {
  assert(wire_has(b, off, 4));
  return b->big_endian ? wire_be32(b->data + off) : wire_le32(b->data + off);
}
static inline uint64_t wire_ld64(const wire_bytes *b, size_t off) {
  assert(wire_has(b, off, 8));
  return b->big_endian ? wire_be64(b->data + off) : wire_le64(b->data + off);
}

/* Checked loads: false (and *out untouched) when out of bounds. */
static inline bool wire_get16(const wire_bytes *b, size_t off, uint16_t *out) {
  if (!wire_has(b, off, 2))
    return false;
  *out = wire_ld16(b, off);
  return true;
}
static inline bool wire_get32(const wire_bytes *b, size_t off, uint32_t *out) {
  if (!wire_has(b, off, 4))
    return false;
  *out = wire_ld32(b, off);
  return true;
}
static inline bool wire_get64(const wire_bytes *b, size_t off, uint64_t *out) {
  if (!wire_has(b, off, 8))
    return false;
  *out = wire_ld64(b, off);
  return true;
}

/* Overflow-safe a + b for offsets. */
static inline bool wire_add(size_t a, size_t b, size_t *out) {
  if (b > SIZE_MAX - a)
    return false;
  *out = a + b;
  return true;
}

/* ------------------------------------- structures that carry their size */

typedef enum wire_check {
  WIRE_OK = 0,
  WIRE_SHORT, /* the fixed part does not fit before the enclosing end */
  WIRE_RANGE, /* the structure's own length is outside [min, max] */
} wire_check;

/* What wire_sized() found: enough to name the offset, the field and the
 * allowed range in an error message. */
typedef struct wire_sized {
  wire_check check; /* on failure (wire_sized_at returns WIRE_OK alone) */
  size_t at;        /* WIRE_SHORT: the structure; else its length field */
  uint32_t length;  /* the length read (WIRE_OK, WIRE_RANGE) */
  uint32_t min;     /* allowed: [min, max] */
  size_t max;       /* the bytes from the structure to the enclosing end */
} wire_sized;

/* A structure at `off`, inside [off, end) (end <= b->len), whose `size`-byte
 * fixed part holds its own u32 length at offset `field`; the length covers
 * at least the fixed part and must stay inside the enclosing end. On
 * WIRE_OK, [off, off + s->length) is inside the buffer; otherwise all of
 * *s says where and why. Only the length is stored on success: the hot
 * loops pay for nothing else. */
static inline wire_check wire_sized_at(const wire_bytes *b, size_t off,
                                       size_t end, uint32_t size, size_t field,
                                       wire_sized *s) {
  assert(end <= b->len && field + 4 <= size);
  if (off > end || end - off < size) {
    *s = (wire_sized){WIRE_SHORT, off, 0, size, off > end ? 0 : end - off};
    return WIRE_SHORT;
  }
  uint32_t length = wire_ld32(b, off + field);
  s->length = length;
  if (length < size || length > end - off) {
    *s = (wire_sized){WIRE_RANGE, off + field, length, size, end - off};
    return WIRE_RANGE;
  }
  return WIRE_OK;
}

/* ------------------------------------------------------ writing */

/* A buffer being written: `cap` bytes, `len` of them written so far by the
 * appending stores (wire_push*). */
typedef struct wire_out {
  uint8_t *data;
  size_t cap;
  size_t len;
  bool big_endian;
} wire_out;

static inline wire_out wire_out_le(uint8_t *data, size_t cap) {
  wire_out w = {data, cap, 0, false};
  return w;
}

static inline bool wire_out_has(const wire_out *w, size_t off, size_t n) {
  return off <= w->cap && n <= w->cap - off;
}

/* Unchecked stores at an offset: the caller checked the capacity. */
static inline void wire_st8(wire_out *w, size_t off, uint8_t v) {
  assert(wire_out_has(w, off, 1));
  w->data[off] = v;
}
static inline void wire_st16(wire_out *w, size_t off, uint16_t v) {
  assert(wire_out_has(w, off, 2));
  if (w->big_endian)
    wire_put_be16(w->data + off, v);
  else
    wire_put_le16(w->data + off, v);
}
static inline void wire_st32(wire_out *w, size_t off, uint32_t v) {
  assert(wire_out_has(w, off, 4));
  if (w->big_endian)
    wire_put_be32(w->data + off, v);
  else
    wire_put_le32(w->data + off, v);
}
static inline void wire_st64(wire_out *w, size_t off, uint64_t v) {
  assert(wire_out_has(w, off, 8));
  if (w->big_endian)
    wire_put_be64(w->data + off, v);
  else
    wire_put_le64(w->data + off, v);
}

/* Unchecked appends at w->len. */
static inline void wire_push16(wire_out *w, uint16_t v) {
  wire_st16(w, w->len, v);
  w->len += 2;
}
static inline void wire_push32(wire_out *w, uint32_t v) {
  wire_st32(w, w->len, v);
  w->len += 4;
}

#endif
