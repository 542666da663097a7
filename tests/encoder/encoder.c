/* collectd-winperf tests: V1 blob builder (see encoder.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Two passes: lay every structure out (sizes, offsets), then allocate the
 * buffer once and write each field at its explicit offset in the chosen
 * byte order. Layouts follow format.md 1.1/1.2; the automatic alignment rules
 * are documented in encoder.h.
 */
#include "encoder.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENC_STALE_BYTE 0xCC

typedef struct enc_counter {
  uint32_t name_index, help_index, detail_level, type;
  int32_t scale;
  uint32_t size, offset, byte_length;
  bool size_set, offset_set, help_set;
  /* layout of the last build */
  uint32_t eff_size, eff_offset;
} enc_counter;

typedef struct enc_instance {
  size_t name_pos; /* into the object's name arena */
  size_t name_len;
  bool named, raw;
  int32_t unique_id;
  uint32_t parent_object, parent_instance;
  /* layout of the last build */
  size_t def_off, name_abs, block_off, name_wire;
} enc_instance;

typedef struct enc_poke {
  uint32_t inst, offset, value;
} enc_poke;

struct enc_object {
  enc_blob *blob;
  enc_object_kind kind;
  uint32_t index, help_index, detail_level, code_page;
  int32_t default_counter;
  bool help_set;
  int64_t perf_time, perf_freq;

  enc_counter *counters;
  uint32_t ncounters, counters_cap;

  enc_instance *insts;
  uint32_t ninst, insts_cap;

  uint64_t *values; /* [inst * ncounters + counter], insts_cap rows */

  uint8_t *names;
  size_t names_len, names_cap;

  enc_poke *pokes;
  size_t npokes, pokes_cap;

  uint32_t block_length_override;

  /* layout of the last build */
  size_t off, single_block_off;
  uint32_t total_length, definition_length, block_length;
  size_t block_reserved;
};

struct enc_blob {
  char *system_name;
  bool big_endian;
  unsigned quirks;
  uint32_t version, revision;
  int32_t default_object;
  int64_t perf_time, perf_freq, perf_time_100ns;
  uint16_t system_time[8];
  int64_t num_objects;

  enc_object **objects;
  size_t nobjects, objects_cap;

  size_t header_length;
};

/* ------------------------------------------------------------- helpers */

__attribute__((noreturn, format(printf, 1, 2))) static void
enc_die(const char *fmt, ...) {
  va_list ap;
  fputs("encoder: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  abort();
}

static void *enc_xrealloc(void *p, size_t n, size_t size) {
  if (size && n > SIZE_MAX / size)
    enc_die("allocation overflow");
  void *q = realloc(p, n * size > 0 ? n * size : 1);
  if (!q)
    enc_die("out of memory");
  return q;
}

/* Grow *arr (count `n` used, capacity *cap) to hold at least need items. */
static void *enc_grow(void *arr, size_t *cap, size_t need, size_t size) {
  if (need <= *cap)
    return arr;
  size_t c = *cap ? *cap : 8;
  while (c < need)
    c *= 2;
  arr = enc_xrealloc(arr, c, size);
  memset((char *)arr + *cap * size, 0, (c - *cap) * size);
  *cap = c;
  return arr;
}

static size_t align_up(size_t v, size_t a) {
  return (v + a - 1) / a * a;
}

void enc_put16(uint8_t *buf, size_t off, uint16_t v, bool big_endian) {
  uint8_t *p = buf + off;
  if (big_endian) {
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
  } else {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
  }
}

/* Stores go through memcpy of a byte-swapped value (one instruction each
 * with gcc/clang): the benchmark builds 2 MB blobs. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ENC_HOST_BE true
#else
#define ENC_HOST_BE false
#endif

void enc_put32(uint8_t *buf, size_t off, uint32_t v, bool big_endian) {
  if (big_endian != ENC_HOST_BE)
    v = __builtin_bswap32(v);
  memcpy(buf + off, &v, 4);
}

void enc_put64(uint8_t *buf, size_t off, uint64_t v, bool big_endian) {
  if (big_endian != ENC_HOST_BE)
    v = __builtin_bswap64(v);
  memcpy(buf + off, &v, 8);
}

uint32_t enc_get32(const uint8_t *buf, size_t off, bool big_endian) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++)
    v |= (uint32_t)buf[off + (big_endian ? 3 - i : i)] << (8 * i);
  return v;
}

uint64_t enc_get64(const uint8_t *buf, size_t off, bool big_endian) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v |= (uint64_t)buf[off + (big_endian ? 7 - i : i)] << (8 * i);
  return v;
}

/* The low min(size, 8) bytes of v, zero-filled up to size. */
static void put_value(uint8_t *p, uint64_t v, uint32_t size, bool big_endian) {
  if (size == 4) { /* the common sizes first: the benchmark builds 2 MB */
    enc_put32(p, 0, (uint32_t)v, big_endian);
    return;
  }
  if (size == 8) {
    enc_put64(p, 0, v, big_endian);
    return;
  }
  uint32_t n = size < 8 ? size : 8;
  memset(p, 0, size);
  for (uint32_t i = 0; i < n; i++)
    p[big_endian ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* One UTF-8 sequence; invalid or truncated sequences give U+FFFD and
 * consume one byte. */
static uint32_t utf8_next(const uint8_t **ps, const uint8_t *end) {
  const uint8_t *s = *ps;
  uint32_t c = s[0];
  size_t n = c < 0x80             ? 1
             : (c & 0xE0) == 0xC0 ? 2
             : (c & 0xF0) == 0xE0 ? 3
             : (c & 0xF8) == 0xF0 ? 4
                                  : 0;
  if (n == 0 || (size_t)(end - s) < n) {
    *ps = s + 1;
    return 0xFFFD;
  }
  if (n > 1)
    c &= 0x7Fu >> n;
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) {
      *ps = s + 1;
      return 0xFFFD;
    }
    c = c << 6 | (s[i] & 0x3F);
  }
  *ps = s + n;
  return c;
}

/* UTF-8 -> UTF-16 code units plus a NUL unit; returns bytes; out may be
 * NULL to measure. */
static size_t utf16_encode(const uint8_t *s, size_t len, uint8_t *out,
                           bool big_endian) {
  const uint8_t *end = s + len;
  size_t n = 0;
  while (s < end) {
    uint32_t c = *s < 0x80 ? *s++ : utf8_next(&s, end);
    if (c >= 0x10000 && c <= 0x10FFFF) {
      c -= 0x10000;
      if (out) {
        enc_put16(out, n, (uint16_t)(0xD800 | c >> 10), big_endian);
        enc_put16(out, n + 2, (uint16_t)(0xDC00 | (c & 0x3FF)), big_endian);
      }
      n += 4;
    } else {
      if (out)
        enc_put16(out, n, (uint16_t)(c > 0xFFFF ? 0xFFFD : c), big_endian);
      n += 2;
    }
  }
  if (out)
    enc_put16(out, n, 0, big_endian);
  return n + 2;
}

/* Windows-1252 bytes 0x80..0x9F (0 = undefined there). */
static const uint16_t cp1252_high[32] = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,
    0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

static uint8_t codepage_byte(uint32_t c, uint32_t code_page) {
  if (c < 0x80)
    return (uint8_t)c;
  if (code_page == 20127)
    return '?';
  if (c <= 0xFF && (code_page == 28591 || c >= 0xA0))
    return (uint8_t)c;
  if (code_page == 1252)
    for (int i = 0; i < 32; i++)
      if (cp1252_high[i] && cp1252_high[i] == c)
        return (uint8_t)(0x80 + i);
  return '?';
}

/* UTF-8 -> code page bytes plus a NUL byte; returns bytes. */
static size_t codepage_encode(const uint8_t *s, size_t len, uint32_t code_page,
                              uint8_t *out) {
  if (code_page != 1252 && code_page != 28591 && code_page != 20127) {
    if (out) {
      memcpy(out, s, len);
      out[len] = 0;
    }
    return len + 1;
  }
  const uint8_t *end = s + len;
  size_t n = 0;
  while (s < end) {
    uint32_t c = utf8_next(&s, end);
    if (out)
      out[n] = codepage_byte(c, code_page);
    n++;
  }
  if (out)
    out[n] = 0;
  return n + 1;
}

/* Wire bytes of an instance name (NameLength); out may be NULL. */
static size_t name_encode(const enc_object *o, const enc_instance *in,
                          uint8_t *out, bool big_endian) {
  if (!in->named)
    return 0;
  const uint8_t *s = o->names + in->name_pos;
  if (in->raw) {
    if (out && in->name_len)
      memcpy(out, s, in->name_len);
    return in->name_len;
  }
  if (o->code_page)
    return codepage_encode(s, in->name_len, o->code_page, out);
  return utf16_encode(s, in->name_len, out, big_endian);
}

/* ------------------------------------------------------------ the blob */

enc_blob *enc_new(const char *system_name) {
  enc_blob *b = enc_xrealloc(NULL, 1, sizeof *b);
  memset(b, 0, sizeof *b);
  if (system_name) {
    b->system_name = strdup(system_name);
    if (!b->system_name)
      enc_die("out of memory");
  }
  b->version = 1;
  b->revision = 1;
  b->default_object = -1;
  /* format.md 1.8: 2024-01-01 00:00 UTC, a Monday */
  static const uint16_t st[8] = {2024, 1, 1, 1, 0, 0, 0, 0};
  memcpy(b->system_time, st, sizeof st);
  b->perf_time = 123456789;
  b->perf_freq = 10000000;
  b->perf_time_100ns = 133485408000000000LL;
  b->num_objects = -1;
  return b;
}

enc_blob *enc_new_spec_vector(void) {
  enc_blob *b = enc_new("PC");
  enc_object *os = enc_add_object(b, 2, ENC_SINGLE_INSTANCE);
  uint32_t raw = enc_add_counter(os, 6, 0x00010000u); /* RAWCOUNT */
  uint32_t tim = enc_add_counter(os, 8, 0x20510500u); /* 100NSEC_TIMER */
  enc_set_value(os, ENC_SINGLE, raw, 42);
  enc_set_value(os, ENC_SINGLE, tim, 5000000);
  enc_object *om = enc_add_object(b, 10, ENC_MULTI_INSTANCE);
  uint32_t c = enc_add_counter(om, 12, 0x00010000u);
  uint32_t t = enc_add_instance(om, "_Total");
  enc_set_value(om, t, c, 7);
  return b;
}

enc_object *enc_blob_object(const enc_blob *b, size_t k) {
  return k < b->nobjects ? b->objects[k] : NULL;
}

static void object_free(enc_object *o) {
  free(o->counters);
  free(o->insts);
  free(o->values);
  free(o->names);
  free(o->pokes);
  free(o);
}

void enc_free(enc_blob *b) {
  if (!b)
    return;
  for (size_t i = 0; i < b->nobjects; i++)
    object_free(b->objects[i]);
  free(b->objects);
  free(b->system_name);
  free(b);
}

void enc_set_big_endian(enc_blob *b, bool big_endian) {
  b->big_endian = big_endian;
}

void enc_set_quirks(enc_blob *b, unsigned quirks) {
  b->quirks = quirks;
}

void enc_set_version(enc_blob *b, uint32_t version, uint32_t revision) {
  b->version = version;
  b->revision = revision;
}

void enc_set_default_object(enc_blob *b, int32_t default_object) {
  b->default_object = default_object;
}

void enc_set_clock(enc_blob *b, int64_t perf_time, int64_t perf_freq,
                   int64_t perf_time_100ns) {
  b->perf_time = perf_time;
  b->perf_freq = perf_freq;
  b->perf_time_100ns = perf_time_100ns;
}

void enc_set_system_time(enc_blob *b, const uint16_t st[8]) {
  memcpy(b->system_time, st, sizeof b->system_time);
}

void enc_set_num_objects(enc_blob *b, int64_t num_objects) {
  b->num_objects = num_objects;
}

/* ---------------------------------------------------------- objects */

enc_object *enc_add_object(enc_blob *b, uint32_t index, enc_object_kind kind) {
  if (kind < ENC_SINGLE_INSTANCE || kind > ENC_METADATA_NONE)
    enc_die("enc_add_object: bad kind %d", (int)kind);
  enc_object *o = enc_xrealloc(NULL, 1, sizeof *o);
  memset(o, 0, sizeof *o);
  o->blob = b;
  o->kind = kind;
  o->index = index;
  o->detail_level = 100;
  b->objects = enc_grow(b->objects, &b->objects_cap, b->nobjects + 1,
                        sizeof *b->objects);
  b->objects[b->nobjects++] = o;
  return o;
}

void enc_object_set_help_index(enc_object *o, uint32_t help_index) {
  o->help_index = help_index;
  o->help_set = true;
}

void enc_object_set_detail_level(enc_object *o, uint32_t detail_level) {
  o->detail_level = detail_level;
}

void enc_object_set_default_counter(enc_object *o, int32_t default_counter) {
  o->default_counter = default_counter;
}

void enc_object_set_clock(enc_object *o, int64_t perf_time, int64_t perf_freq) {
  o->perf_time = perf_time;
  o->perf_freq = perf_freq;
}

void enc_object_set_code_page(enc_object *o, uint32_t code_page) {
  o->code_page = code_page;
}

void enc_object_set_block_length(enc_object *o, uint32_t byte_length) {
  o->block_length_override = byte_length;
}

/* ---------------------------------------------------------- counters */

static enc_counter *counter_at(const enc_object *o, uint32_t counter,
                               const char *who) {
  if (counter >= o->ncounters)
    enc_die("%s: counter %u out of range (object %u has %u)", who, counter,
            o->index, o->ncounters);
  return &o->counters[counter];
}

uint32_t enc_add_counter(enc_object *o, uint32_t name_index, uint32_t type) {
  if (o->values && o->ncounters) {
    /* Values exist: re-stride them for one more counter (O(n); adding the
     * counters first avoids it). */
    size_t rows = o->insts_cap, n = o->ncounters;
    uint64_t *v = enc_xrealloc(NULL, rows * (n + 1), sizeof *v);
    for (size_t r = 0; r < rows; r++) {
      memcpy(v + r * (n + 1), o->values + r * n, n * sizeof *v);
      v[r * (n + 1) + n] = 0;
    }
    free(o->values);
    o->values = v;
  } else if (o->values) {
    /* no counters yet: the placeholder array had one slot per row */
    memset(o->values, 0, o->insts_cap * sizeof *o->values);
  }
  size_t cap = o->counters_cap;
  o->counters =
      enc_grow(o->counters, &cap, o->ncounters + 1, sizeof *o->counters);
  o->counters_cap = (uint32_t)cap;
  enc_counter *c = &o->counters[o->ncounters];
  memset(c, 0, sizeof *c);
  c->name_index = name_index;
  c->type = type;
  c->detail_level = 100;
  c->byte_length = ENC_CTR_SIZEOF;
  return o->ncounters++;
}

void enc_counter_set_help_index(enc_object *o, uint32_t counter,
                                uint32_t help_index) {
  enc_counter *c = counter_at(o, counter, __func__);
  c->help_index = help_index;
  c->help_set = true;
}

void enc_counter_set_scale(enc_object *o, uint32_t counter, int32_t scale) {
  counter_at(o, counter, __func__)->scale = scale;
}

void enc_counter_set_detail_level(enc_object *o, uint32_t counter,
                                  uint32_t detail_level) {
  counter_at(o, counter, __func__)->detail_level = detail_level;
}

void enc_counter_set_size(enc_object *o, uint32_t counter, uint32_t size) {
  enc_counter *c = counter_at(o, counter, __func__);
  c->size = size;
  c->size_set = true;
}

void enc_counter_set_offset(enc_object *o, uint32_t counter, uint32_t offset) {
  enc_counter *c = counter_at(o, counter, __func__);
  c->offset = offset;
  c->offset_set = true;
}

void enc_counter_set_byte_length(enc_object *o, uint32_t counter,
                                 uint32_t byte_length) {
  counter_at(o, counter, __func__)->byte_length = byte_length;
}

/* ---------------------------------------------------------- instances */

/* Make room for `rows` instances and their values. */
static void ensure_rows(enc_object *o, uint32_t rows) {
  size_t cap = o->insts_cap;
  o->insts = enc_grow(o->insts, &cap, rows, sizeof *o->insts);
  if (cap != o->insts_cap || !o->values) {
    o->values = enc_xrealloc(o->values, cap * (o->ncounters ? o->ncounters : 1),
                             sizeof *o->values);
    size_t old = (size_t)o->insts_cap * o->ncounters;
    memset(o->values + old, 0, (cap * o->ncounters - old) * sizeof *o->values);
    o->insts_cap = (uint32_t)cap;
  }
}

static uint32_t add_instance(enc_object *o, const void *bytes, size_t len,
                             bool named, bool raw) {
  if (o->kind != ENC_MULTI_INSTANCE)
    enc_die("enc_add_instance: object %u is not multi-instance", o->index);
  if (o->ninst == UINT32_MAX)
    enc_die("enc_add_instance: too many instances");
  ensure_rows(o, o->ninst + 1);
  enc_instance *in = &o->insts[o->ninst];
  memset(in, 0, sizeof *in);
  in->named = named;
  in->raw = raw;
  in->unique_id = -1;
  in->name_pos = o->names_len;
  in->name_len = len;
  if (len) {
    o->names = enc_grow(o->names, &o->names_cap, o->names_len + len, 1);
    memcpy(o->names + o->names_len, bytes, len);
    o->names_len += len;
  }
  return o->ninst++;
}

uint32_t enc_add_instance(enc_object *o, const char *name) {
  return add_instance(o, name, name ? strlen(name) : 0, name != NULL, false);
}

uint32_t enc_add_instance_bytes(enc_object *o, const void *bytes, size_t len) {
  return add_instance(o, bytes, len, len > 0, true);
}

static enc_instance *instance_at(const enc_object *o, uint32_t inst,
                                 const char *who) {
  if (inst >= o->ninst)
    enc_die("%s: instance %u out of range (object %u has %u)", who, inst,
            o->index, o->ninst);
  return &o->insts[inst];
}

void enc_instance_set_unique_id(enc_object *o, uint32_t inst,
                                int32_t unique_id) {
  instance_at(o, inst, __func__)->unique_id = unique_id;
}

void enc_instance_set_parent(enc_object *o, uint32_t inst,
                             uint32_t parent_object_index,
                             uint32_t parent_instance) {
  enc_instance *in = instance_at(o, inst, __func__);
  in->parent_object = parent_object_index;
  in->parent_instance = parent_instance;
}

/* ---------------------------------------------------------- values */

static size_t value_slot(const enc_object *o, uint32_t inst, uint32_t counter,
                         const char *who) {
  counter_at(o, counter, who);
  if (o->kind == ENC_SINGLE_INSTANCE) {
    if (inst != ENC_SINGLE)
      enc_die("%s: single-instance object %u takes ENC_SINGLE", who, o->index);
  } else if (o->kind == ENC_MULTI_INSTANCE) {
    instance_at(o, inst, who);
  } else {
    enc_die("%s: metadata-only object %u has no values", who, o->index);
  }
  return (size_t)inst * o->ncounters + counter;
}

void enc_set_value(enc_object *o, uint32_t inst, uint32_t counter,
                   uint64_t value) {
  size_t slot = value_slot(o, inst, counter, __func__);
  if (!o->values)
    ensure_rows(o, 1); /* single-instance: one row */
  o->values[slot] = value;
}

uint64_t enc_get_value(const enc_object *o, uint32_t inst, uint32_t counter) {
  size_t slot = value_slot(o, inst, counter, __func__);
  return o->values ? o->values[slot] : 0;
}

void enc_poke32(enc_object *o, uint32_t inst, uint32_t block_offset,
                uint32_t value) {
  if (o->kind == ENC_SINGLE_INSTANCE ? inst != ENC_SINGLE : inst >= o->ninst)
    enc_die("enc_poke32: no instance %u in object %u", inst, o->index);
  o->pokes = enc_grow(o->pokes, &o->pokes_cap, o->npokes + 1, sizeof *o->pokes);
  o->pokes[o->npokes++] = (enc_poke){inst, block_offset, value};
}

/* ------------------------------------------------------------ building */

static uint32_t default_size(uint32_t type, unsigned quirks) {
  switch (type & 0x300u) { /* format.md 2.1 size bits */
  case 0x000:
    return quirks & ENC_QUIRK_SAMBA_DWORD_AS_8 ? 8 : 4;
  case 0x100:
    return 8;
  default:
    return 0; /* ZERO, VARIABLE_LEN: set the size explicitly */
  }
}

static uint32_t checked32(uint64_t v, const char *what, uint32_t index) {
  if (v > UINT32_MAX)
    enc_die("object %u: %s does not fit 32 bits", index, what);
  return (uint32_t)v;
}

/* Pass 1 for one object starting at `off`: counter layout, instance and
 * block offsets, lengths. Returns the object's size in bytes. */
static size_t layout_object(enc_object *o, size_t off, unsigned quirks) {
  bool be = o->blob->big_endian;
  o->off = off;

  uint32_t align = 4;
  for (uint32_t i = 0; i < o->ncounters; i++) {
    enc_counter *c = &o->counters[i];
    c->eff_size = c->size_set ? c->size : default_size(c->type, quirks);
    if (c->eff_size == 8)
      align = 8;
  }
  uint64_t cursor = ENC_BLOCK_SIZE, end = ENC_BLOCK_SIZE;
  for (uint32_t i = 0; i < o->ncounters; i++) {
    enc_counter *c = &o->counters[i];
    c->eff_offset =
        c->offset_set ? c->offset
                      : checked32(align_up(cursor, align), "offset", o->index);
    uint64_t cend = (uint64_t)c->eff_offset + c->eff_size;
    if (cend > cursor)
      cursor = cend;
    if (cend > end)
      end = cend;
  }
  for (size_t i = 0; i < o->npokes; i++)
    if ((uint64_t)o->pokes[i].offset + 4 > end)
      end = (uint64_t)o->pokes[i].offset + 4;
  uint64_t auto_len = align_up(end, 8);
  o->block_length = o->block_length_override
                        ? o->block_length_override
                        : checked32(auto_len, "block length", o->index);
  o->block_reserved = auto_len > o->block_length ? auto_len : o->block_length;

  uint64_t deflen = ENC_OBJ_SIZE;
  for (uint32_t i = 0; i < o->ncounters; i++)
    deflen += o->counters[i].byte_length;
  o->definition_length = checked32(deflen, "DefinitionLength", o->index);

  size_t p = off + deflen;
  if (o->kind == ENC_SINGLE_INSTANCE) {
    o->single_block_off = p;
    p += o->block_reserved;
  } else if (o->kind == ENC_MULTI_INSTANCE) {
    for (uint32_t i = 0; i < o->ninst; i++) {
      enc_instance *in = &o->insts[i];
      in->def_off = p;
      in->name_abs = p + ENC_INST_SIZE;
      in->name_wire = name_encode(o, in, NULL, be);
      p += align_up(ENC_INST_SIZE + in->name_wire, 8);
      in->block_off = p;
      p += o->block_reserved;
    }
  }
  size_t total = align_up(p - off, 8);
  o->total_length = checked32(total, "TotalByteLength", o->index);
  return total;
}

static void write_object(const enc_object *o, uint8_t *buf, bool be) {
  uint8_t *ob = buf + o->off;
  enc_put32(ob, ENC_OBJ_TOTAL_BYTE_LENGTH, o->total_length, be);
  enc_put32(ob, ENC_OBJ_DEFINITION_LENGTH, o->definition_length, be);
  enc_put32(ob, ENC_OBJ_HEADER_LENGTH, ENC_OBJ_SIZE, be);
  enc_put32(ob, ENC_OBJ_NAME_INDEX, o->index, be);
  enc_put32(ob, 16, 0, be); /* ObjectNameTitle */
  enc_put32(ob, ENC_OBJ_HELP_INDEX, o->help_set ? o->help_index : o->index + 1,
            be);
  enc_put32(ob, 24, 0, be); /* ObjectHelpTitle */
  enc_put32(ob, ENC_OBJ_DETAIL_LEVEL, o->detail_level, be);
  enc_put32(ob, ENC_OBJ_NUM_COUNTERS, o->ncounters, be);
  enc_put32(ob, ENC_OBJ_DEFAULT_COUNTER, (uint32_t)o->default_counter, be);
  int32_t ni = o->kind == ENC_SINGLE_INSTANCE  ? -1
               : o->kind == ENC_METADATA_MULTI ? -2
               : o->kind == ENC_METADATA_NONE  ? -3
                                               : (int32_t)o->ninst;
  enc_put32(ob, ENC_OBJ_NUM_INSTANCES, (uint32_t)ni, be);
  enc_put32(ob, ENC_OBJ_CODE_PAGE, o->code_page, be);
  enc_put64(ob, ENC_OBJ_PERF_TIME, (uint64_t)o->perf_time, be);
  enc_put64(ob, ENC_OBJ_PERF_FREQ, (uint64_t)o->perf_freq, be);

  uint8_t *d = ob + ENC_OBJ_SIZE;
  for (uint32_t i = 0; i < o->ncounters; i++) {
    const enc_counter *c = &o->counters[i];
    enc_put32(d, ENC_CTR_BYTE_LENGTH, c->byte_length, be);
    enc_put32(d, ENC_CTR_NAME_INDEX, c->name_index, be);
    enc_put32(d, 8, 0, be); /* CounterNameTitle */
    enc_put32(d, ENC_CTR_HELP_INDEX,
              c->help_set ? c->help_index : c->name_index + 1, be);
    enc_put32(d, 16, 0, be); /* CounterHelpTitle */
    enc_put32(d, ENC_CTR_DEFAULT_SCALE, (uint32_t)c->scale, be);
    enc_put32(d, ENC_CTR_DETAIL_LEVEL, c->detail_level, be);
    enc_put32(d, ENC_CTR_TYPE, c->type, be);
    enc_put32(d, ENC_CTR_SIZE, c->eff_size, be);
    enc_put32(d, ENC_CTR_OFFSET, c->eff_offset, be);
    d += c->byte_length;
  }

  uint32_t rows = o->kind == ENC_SINGLE_INSTANCE  ? 1
                  : o->kind == ENC_MULTI_INSTANCE ? o->ninst
                                                  : 0;
  for (uint32_t r = 0; r < rows; r++) {
    size_t boff;
    if (o->kind == ENC_MULTI_INSTANCE) {
      const enc_instance *in = &o->insts[r];
      uint8_t *id = buf + in->def_off;
      name_encode(o, in, buf + in->name_abs, be);
      enc_put32(id, ENC_INST_BYTE_LENGTH,
                (uint32_t)(in->block_off - in->def_off), be);
      enc_put32(id, ENC_INST_PARENT_OBJECT, in->parent_object, be);
      enc_put32(id, ENC_INST_PARENT_INSTANCE, in->parent_instance, be);
      enc_put32(id, ENC_INST_UNIQUE_ID, (uint32_t)in->unique_id, be);
      enc_put32(id, ENC_INST_NAME_OFFSET, ENC_INST_SIZE, be);
      enc_put32(id, ENC_INST_NAME_LENGTH, (uint32_t)in->name_wire, be);
      boff = in->block_off;
    } else {
      boff = o->single_block_off;
    }
    uint8_t *blk = buf + boff;
    enc_put32(blk, ENC_BLOCK_BYTE_LENGTH, o->block_length, be);
    const uint64_t *vals =
        o->values ? o->values + (size_t)r * o->ncounters : NULL;
    for (uint32_t i = 0; i < o->ncounters; i++) {
      const enc_counter *c = &o->counters[i];
      put_value(blk + c->eff_offset, vals ? vals[i] : 0, c->eff_size, be);
    }
    for (size_t k = 0; k < o->npokes; k++)
      if (o->pokes[k].inst == r)
        enc_put32(blk, o->pokes[k].offset, o->pokes[k].value, be);
  }
}

uint8_t *enc_build(enc_blob *b, size_t *len) {
  bool be = b->big_endian;
  size_t name_bytes = 0;
  if (b->system_name)
    name_bytes = utf16_encode((const uint8_t *)b->system_name,
                              strlen(b->system_name), NULL, be);
  size_t hl = ENC_HDR_SIZE + name_bytes;
  if ((b->quirks & ENC_QUIRK_SAMBA_HEADER_PAD) && hl % 8 == 0)
    hl += 8; /* format.md 6: Samba pads a full 8 bytes when already aligned */
  hl = align_up(hl, 8);
  b->header_length = hl;

  size_t total = hl;
  for (size_t i = 0; i < b->nobjects; i++)
    total += layout_object(b->objects[i], total, b->quirks);
  if (total > UINT32_MAX)
    enc_die("blob of %zu bytes does not fit TotalByteLength", total);

  uint8_t *buf = malloc(total);
  if (!buf)
    enc_die("out of memory (%zu bytes)", total);
  memset(buf, b->quirks & ENC_QUIRK_STALE_PADDING ? ENC_STALE_BYTE : 0, total);

  static const char sig[4] = {'P', 'E', 'R', 'F'};
  for (int i = 0; i < 4; i++)
    enc_put16(buf, (size_t)i * 2, (uint16_t)sig[i], be);
  enc_put32(buf, ENC_HDR_LITTLE_ENDIAN, be ? 0 : 1, be);
  enc_put32(buf, ENC_HDR_VERSION, b->version, be);
  enc_put32(buf, ENC_HDR_REVISION, b->revision, be);
  enc_put32(
      buf, ENC_HDR_TOTAL_BYTE_LENGTH,
      (uint32_t)(b->quirks & ENC_QUIRK_SAMBA_TOTAL_LENGTH ? total - hl : total),
      be);
  enc_put32(buf, ENC_HDR_HEADER_LENGTH, (uint32_t)hl, be);
  enc_put32(
      buf, ENC_HDR_NUM_OBJECT_TYPES,
      (uint32_t)(b->num_objects >= 0 ? (uint64_t)b->num_objects : b->nobjects),
      be);
  enc_put32(buf, ENC_HDR_DEFAULT_OBJECT, (uint32_t)b->default_object, be);
  for (int i = 0; i < 8; i++)
    enc_put16(buf, ENC_HDR_SYSTEM_TIME + (size_t)i * 2, b->system_time[i], be);
  enc_put64(buf, ENC_HDR_PERF_TIME, (uint64_t)b->perf_time, be);
  enc_put64(buf, ENC_HDR_PERF_FREQ, (uint64_t)b->perf_freq, be);
  enc_put64(buf, ENC_HDR_PERF_TIME_100NS, (uint64_t)b->perf_time_100ns, be);
  enc_put32(buf, ENC_HDR_SYSTEM_NAME_LENGTH, (uint32_t)name_bytes, be);
  enc_put32(buf, ENC_HDR_SYSTEM_NAME_OFFSET, ENC_HDR_SIZE, be);
  if (b->system_name)
    utf16_encode((const uint8_t *)b->system_name, strlen(b->system_name),
                 buf + ENC_HDR_SIZE, be);

  for (size_t i = 0; i < b->nobjects; i++)
    write_object(b->objects[i], buf, be);
  *len = total;
  return buf;
}

/* ---------------------------------------------- layout of the last build */

size_t enc_header_length(const enc_blob *b) {
  return b->header_length;
}

size_t enc_object_offset(const enc_object *o) {
  return o->off;
}

uint32_t enc_object_total_length(const enc_object *o) {
  return o->total_length;
}

uint32_t enc_object_definition_length(const enc_object *o) {
  return o->definition_length;
}

size_t enc_counter_def_offset(const enc_object *o, uint32_t counter) {
  counter_at(o, counter, __func__);
  size_t off = o->off + ENC_OBJ_SIZE;
  for (uint32_t i = 0; i < counter; i++)
    off += o->counters[i].byte_length;
  return off;
}

size_t enc_instance_offset(const enc_object *o, uint32_t inst) {
  return instance_at(o, inst, __func__)->def_off;
}

size_t enc_instance_name_offset(const enc_object *o, uint32_t inst) {
  return instance_at(o, inst, __func__)->name_abs;
}

size_t enc_block_offset(const enc_object *o, uint32_t inst) {
  if (o->kind == ENC_SINGLE_INSTANCE) {
    if (inst != ENC_SINGLE)
      enc_die("enc_block_offset: single-instance object takes ENC_SINGLE");
    return o->single_block_off;
  }
  return instance_at(o, inst, __func__)->block_off;
}

uint32_t enc_block_length(const enc_object *o) {
  return o->block_length;
}

size_t enc_value_offset(const enc_object *o, uint32_t inst, uint32_t counter) {
  return enc_block_offset(o, inst) +
         counter_at(o, counter, __func__)->eff_offset;
}

uint32_t enc_counter_offset(const enc_object *o, uint32_t counter) {
  return counter_at(o, counter, __func__)->eff_offset;
}

uint32_t enc_counter_size(const enc_object *o, uint32_t counter) {
  return counter_at(o, counter, __func__)->eff_size;
}

uint32_t enc_object_counter_count(const enc_object *o) {
  return o->ncounters;
}

uint32_t enc_object_instance_count(const enc_object *o) {
  return o->ninst;
}
