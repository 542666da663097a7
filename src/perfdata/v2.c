/* collectd-winperf: V2 (PerfLib) identifier blocks, answers and values.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Spec 5. Every size and count in an answer is hostile: each structure is
 * bounds-checked against its enclosing block before it is read, and arrays
 * grow only as readings are actually found (each needs at least 8 bytes),
 * so no allocation is sized by a field.
 */
#include "perfdata_v2.h"
#include "pd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- GUIDs */

static int hexval(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

pd_status pd_guid_parse(const char *text, pd_guid *out, pd_error *err) {
  if (text == NULL || out == NULL)
    return pd_error_set(err, PD_E_ARGUMENT, 0, "no GUID given");
  const char *p = text;
  bool brace = *p == '{';
  if (brace)
    p++;
  /* 8-4-4-4-12 hex digits */
  static const int groups[5] = {8, 4, 4, 4, 12};
  uint8_t bytes[16];
  size_t nb = 0;
  for (int g = 0; g < 5; g++) {
    if (g > 0) {
      if (*p != '-')
        return pd_error_set(err, PD_E_ARGUMENT, (size_t)(p - text),
                            "GUID: expected '-' at column %zu",
                            (size_t)(p - text));
      p++;
    }
    for (int i = 0; i < groups[g]; i += 2) {
      int hi = hexval(p[0]), lo = hi < 0 ? -1 : hexval(p[1]);
      if (hi < 0 || lo < 0)
        return pd_error_set(err, PD_E_ARGUMENT, (size_t)(p - text),
                            "GUID: expected a hex digit at column %zu",
                            (size_t)(p - text));
      bytes[nb++] = (uint8_t)(hi << 4 | lo);
      p += 2;
    }
  }
  if (brace && *p++ != '}')
    return pd_error_set(err, PD_E_ARGUMENT, (size_t)(p - 1 - text),
                        "GUID: expected '}'");
  if (*p != '\0')
    return pd_error_set(err, PD_E_ARGUMENT, (size_t)(p - text),
                        "GUID: trailing characters");
  /* The text is big-endian per field; Data4 is a byte array. */
  out->data1 = (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 |
               (uint32_t)bytes[2] << 8 | bytes[3];
  out->data2 = (uint16_t)(bytes[4] << 8 | bytes[5]);
  out->data3 = (uint16_t)(bytes[6] << 8 | bytes[7]);
  memcpy(out->data4, bytes + 8, 8);
  return PD_OK;
}

void pd_guid_format(const pd_guid *g, char out[39]) {
  snprintf(out, 39, "{%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x}",
           (unsigned)g->data1, (unsigned)g->data2, (unsigned)g->data3,
           g->data4[0], g->data4[1], g->data4[2], g->data4[3], g->data4[4],
           g->data4[5], g->data4[6], g->data4[7]);
}

static void put16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static void guid_put(uint8_t *p, const pd_guid *g) {
  put32(p, g->data1);
  put16(p + 4, g->data2);
  put16(p + 6, g->data3);
  memcpy(p + 8, g->data4, 8);
}

static void guid_get(const pd_bytes *b, size_t off, pd_guid *g) {
  g->data1 = pd_ld32(b, off);
  g->data2 = pd_ld16(b, off + 4);
  g->data3 = pd_ld16(b, off + 6);
  memcpy(g->data4, b->data + off + 8, 8);
}

/* ------------------------------------------------------ identifiers */

/* Strict UTF-8 -> UTF-16LE. Returns the number of code units, or -1 for
 * invalid input; writes only units that fit in `cap_units`. */
static long utf8_to_utf16le(const char *s, uint8_t *out, size_t cap_units) {
  const uint8_t *p = (const uint8_t *)s;
  size_t n = 0;
  while (*p) {
    uint32_t cp;
    size_t len;
    if (p[0] < 0x80) {
      cp = p[0];
      len = 1;
    } else if ((p[0] & 0xE0) == 0xC0) {
      cp = p[0] & 0x1Fu;
      len = 2;
    } else if ((p[0] & 0xF0) == 0xE0) {
      cp = p[0] & 0x0Fu;
      len = 3;
    } else if ((p[0] & 0xF8) == 0xF0) {
      cp = p[0] & 0x07u;
      len = 4;
    } else {
      return -1;
    }
    for (size_t i = 1; i < len; i++) {
      if ((p[i] & 0xC0) != 0x80)
        return -1;
      cp = cp << 6 | (p[i] & 0x3Fu);
    }
    static const uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return -1;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      if (n + 2 <= cap_units) {
        put16(out + 2 * n, (uint16_t)(0xD800 | cp >> 10));
        put16(out + 2 * n + 2, (uint16_t)(0xDC00 | (cp & 0x3FF)));
      }
      n += 2;
    } else {
      if (n + 1 <= cap_units)
        put16(out + 2 * n, (uint16_t)cp);
      n++;
    }
    p += len;
  }
  return (long)n;
}

size_t pd_v2_identifier_encode(const pd_guid *set, uint32_t counter_id,
                               const char *instance, uint32_t instance_id,
                               uint8_t *out, size_t cap) {
  size_t size = PD_V2_IDENTIFIER_SIZE;
  long units = 0;
  if (instance != NULL) {
    units = utf8_to_utf16le(instance, NULL, 0);
    if (units < 0)
      return 0;
    size += 2 * ((size_t)units + 1); /* with the NUL */
  }
  size = (size + 7) & ~(size_t)7; /* spec 5: Size a multiple of 8 */
  if (size > UINT32_MAX)
    return 0;
  if (out == NULL || cap < size)
    return size;
  memset(out, 0, size);
  guid_put(out, set);
  put32(out + 16, 0); /* Status: written by PerfAddCounters */
  put32(out + 20, (uint32_t)size);
  put32(out + 24, counter_id);
  put32(out + 28, instance_id);
  put32(out + 32, 0); /* Index: written by PerfQueryCounterInfo */
  put32(out + 36, 0);
  if (instance != NULL)
    utf8_to_utf16le(instance, out + PD_V2_IDENTIFIER_SIZE, (size_t)units);
  return size;
}

pd_status pd_v2_identifier_decode(const uint8_t *data, size_t len,
                                  size_t offset, pd_v2_identifier *out,
                                  size_t *next, pd_error *err) {
  pd_bytes b = {data, len, false};
  if (!pd_has(&b, offset, PD_V2_IDENTIFIER_SIZE))
    return pd_error_set(err, PD_E_TRUNCATED, offset,
                        "offset 0x%zx: PERF_COUNTER_IDENTIFIER runs past the "
                        "end (%zu bytes)",
                        offset, len);
  memset(out, 0, sizeof *out);
  guid_get(&b, offset, &out->set);
  out->status = pd_ld32(&b, offset + 16);
  out->size = pd_ld32(&b, offset + 20);
  out->counter_id = pd_ld32(&b, offset + 24);
  out->instance_id = pd_ld32(&b, offset + 28);
  out->index = pd_ld32(&b, offset + 32);
  if (out->size < PD_V2_IDENTIFIER_SIZE || !pd_has(&b, offset, out->size))
    return pd_error_set(err, PD_E_V2, offset + 20,
                        "offset 0x%zx: identifier Size %u outside [40, %zu]",
                        offset + 20, out->size, len - offset);
  size_t name_units = (out->size - PD_V2_IDENTIFIER_SIZE) / 2;
  if (name_units > 0) {
    size_t need =
        pd_utf16_to_utf8(data + offset + PD_V2_IDENTIFIER_SIZE, name_units,
                         false, out->instance, sizeof out->instance);
    if (need >= sizeof out->instance)
      return pd_error_set(err, PD_E_NAME, offset + PD_V2_IDENTIFIER_SIZE,
                          "offset 0x%zx: instance name longer than %zu bytes",
                          offset + PD_V2_IDENTIFIER_SIZE,
                          sizeof out->instance - 1);
  }
  if (next)
    *next = offset + out->size;
  return PD_OK;
}

/* ------------------------------------------------ registration info */

pd_status pd_v2_counterset_parse(const uint8_t *data, size_t len,
                                 pd_v2_counterset **out, pd_error *err) {
  pd_bytes b = {data, len, false};
  *out = NULL;
  if (!pd_has(&b, 0, PD_V2_COUNTERSET_REG_SIZE))
    return pd_error_set(err, PD_E_TRUNCATED, 0,
                        "offset 0x0: PERF_COUNTERSET_REG_INFO needs 32 bytes, "
                        "have %zu",
                        len);
  uint32_t n = pd_ld32(&b, 24);
  /* bound the count by the bytes present before allocating */
  if ((len - PD_V2_COUNTERSET_REG_SIZE) / PD_V2_COUNTER_REG_SIZE < n)
    return pd_error_set(
        err, PD_E_TRUNCATED, 24,
        "offset 0x18: NumCounters %u needs %zu bytes, have %zu", n,
        (size_t)PD_V2_COUNTERSET_REG_SIZE + (size_t)n * PD_V2_COUNTER_REG_SIZE,
        len);
  pd_v2_counterset *set = calloc(1, sizeof *set);
  if (set == NULL)
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  set->counters = calloc(n ? n : 1, sizeof *set->counters);
  if (set->counters == NULL) {
    free(set);
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  }
  guid_get(&b, 0, &set->guid);
  set->detail_level = pd_ld32(&b, 20);
  set->counter_count = n;
  set->instance_type = pd_ld32(&b, 28);
  for (uint32_t i = 0; i < n; i++) {
    size_t o = PD_V2_COUNTERSET_REG_SIZE + (size_t)i * PD_V2_COUNTER_REG_SIZE;
    pd_v2_counter_info *c = &set->counters[i];
    c->id = pd_ld32(&b, o);
    c->type = pd_ld32(&b, o + 4);
    c->attrib = pd_ld64(&b, o + 8);
    c->detail_level = pd_ld32(&b, o + 16);
    c->default_scale = (int32_t)pd_ld32(&b, o + 20);
    c->base_id = pd_ld32(&b, o + 24);
    c->perf_time_id = pd_ld32(&b, o + 28);
    c->perf_freq_id = pd_ld32(&b, o + 32);
    c->multi_id = pd_ld32(&b, o + 36);
    c->aggregate = pd_ld32(&b, o + 40);
  }
  *out = set;
  return PD_OK;
}

void pd_v2_counterset_free(pd_v2_counterset *set) {
  if (set == NULL)
    return;
  free(set->counters);
  free(set);
}

const pd_v2_counter_info *pd_v2_counterset_find(const pd_v2_counterset *set,
                                                uint32_t id) {
  if (set == NULL)
    return NULL;
  for (uint32_t i = 0; i < set->counter_count; i++)
    if (set->counters[i].id == id)
      return &set->counters[i];
  return NULL;
}

/* --------------------------------------------------------- decoding */

struct pd_v2_data {
  pd_v2_header header;
  pd_v2_block *blocks;
  size_t nblocks, cap_blocks;
  pd_v2_value *values;
  size_t *name_at; /* per value: offset of its name in `names` */
  size_t nvalues, cap_values;
  char *names;
  size_t names_len, names_cap;
};

pd_v2_data *pd_v2_data_new(void) {
  return calloc(1, sizeof(pd_v2_data));
}

void pd_v2_data_free(pd_v2_data *d) {
  if (d == NULL)
    return;
  free(d->blocks);
  free(d->values);
  free(d->name_at);
  free(d->names);
  free(d);
}

const pd_v2_header *pd_v2_data_header(const pd_v2_data *d) {
  return &d->header;
}
size_t pd_v2_data_block_count(const pd_v2_data *d) {
  return d->nblocks;
}
const pd_v2_block *pd_v2_data_block(const pd_v2_data *d, size_t i) {
  return i < d->nblocks ? &d->blocks[i] : NULL;
}
size_t pd_v2_data_value_count(const pd_v2_data *d) {
  return d->nvalues;
}
const pd_v2_value *pd_v2_data_value(const pd_v2_data *d, size_t i) {
  return i < d->nvalues ? &d->values[i] : NULL;
}

typedef struct v2_decoder {
  pd_v2_data *d;
  pd_bytes b;
  size_t max_values;
  pd_error *err;
} v2_decoder;

/* Reserve n + 1 bytes in the name pool; returns their offset or SIZE_MAX. */
static size_t pool_reserve(pd_v2_data *d, size_t n) {
  if (n >= SIZE_MAX / 4)
    return SIZE_MAX;
  if (n + 1 > d->names_cap - d->names_len) {
    size_t cap = d->names_cap ? d->names_cap : 256;
    while (cap - d->names_len < n + 1) {
      if (cap > SIZE_MAX / 2)
        return SIZE_MAX;
      cap *= 2;
    }
    char *p = realloc(d->names, cap);
    if (p == NULL)
      return SIZE_MAX;
    d->names = p;
    d->names_cap = cap;
  }
  size_t at = d->names_len;
  d->names[at + n] = '\0';
  d->names_len += n + 1;
  return at;
}

/* Append a UTF-8 name to the pool. */
static size_t pool_add(pd_v2_data *d, const char *s, size_t n) {
  size_t at = pool_reserve(d, n);
  if (at != SIZE_MAX)
    memcpy(d->names + at, s, n);
  return at;
}

/* Append `units` UTF-16LE units (up to the first NUL) as UTF-8. */
static size_t pool_add_utf16(pd_v2_data *d, const uint8_t *src, size_t units) {
  size_t need = pd_utf16_to_utf8(src, units, false, NULL, 0);
  size_t at = pool_reserve(d, need);
  if (at != SIZE_MAX)
    pd_utf16_to_utf8(src, units, false, d->names + at, need + 1);
  return at;
}

/* The 8-byte structure `what` at off must lie inside [.., end). */
static bool fits(v2_decoder *dc, size_t off, size_t end, const char *what) {
  if (off <= end && end - off >= 8)
    return true;
  pd_error_set(dc->err, PD_E_TRUNCATED, off,
               "offset 0x%zx: %s runs past its block", off, what);
  return false;
}

/* Read a PERF_COUNTER_DATA at `off` inside [.., end); appends one value.
 * *next gets the offset after it. */
static pd_status read_counter_data(v2_decoder *dc, size_t off, size_t end,
                                   uint32_t block, uint32_t counter_id,
                                   bool has_instance, uint32_t instance_id,
                                   size_t name_at, size_t *next) {
  pd_v2_data *d = dc->d;
  if (!fits(dc, off, end, "PERF_COUNTER_DATA"))
    return PD_E_TRUNCATED;
  uint32_t data_size = pd_ld32(&dc->b, off);
  uint32_t size = pd_ld32(&dc->b, off + 4);
  if (size < 8 || size > end - off || data_size > size - 8)
    return pd_error_set(dc->err, PD_E_V2, off,
                        "offset 0x%zx: PERF_COUNTER_DATA dwSize %u / "
                        "dwDataSize %u do not fit (%zu bytes left)",
                        off, size, data_size, end - off);
  if (d->nvalues >= dc->max_values)
    return pd_error_set(dc->err, PD_E_LIMIT, off,
                        "offset 0x%zx: more than %zu readings", off,
                        dc->max_values);
  if (d->nvalues == d->cap_values) {
    size_t cap = d->cap_values ? d->cap_values * 2 : 64;
    pd_v2_value *v = realloc(d->values, cap * sizeof *v);
    if (v == NULL)
      return pd_error_set(dc->err, PD_E_NOMEM, off, "out of memory");
    d->values = v;
    size_t *na = realloc(d->name_at, cap * sizeof *na);
    if (na == NULL)
      return pd_error_set(dc->err, PD_E_NOMEM, off, "out of memory");
    d->name_at = na;
    d->cap_values = cap;
  }
  pd_v2_value *v = &d->values[d->nvalues];
  v->block = block;
  v->counter_id = counter_id;
  v->has_instance = has_instance;
  v->instance_id = instance_id;
  v->instance = NULL;
  v->data_size = data_size;
  v->raw = data_size == 4   ? pd_ld32(&dc->b, off + 8)
           : data_size == 8 ? pd_ld64(&dc->b, off + 8)
                            : 0;
  d->name_at[d->nvalues] = name_at;
  d->nvalues++;
  *next = off + size;
  return PD_OK;
}

/* PERF_MULTI_COUNTERS at off: returns the ids' offset and count. */
static pd_status read_multi_counters(v2_decoder *dc, size_t off, size_t end,
                                     size_t *ids_at, uint32_t *count,
                                     size_t *next) {
  if (!fits(dc, off, end, "PERF_MULTI_COUNTERS"))
    return PD_E_TRUNCATED;
  uint32_t size = pd_ld32(&dc->b, off);
  uint32_t n = pd_ld32(&dc->b, off + 4);
  if (size < 8 || size > end - off || n > (size - 8) / 4)
    return pd_error_set(dc->err, PD_E_V2, off,
                        "offset 0x%zx: PERF_MULTI_COUNTERS dwSize %u / "
                        "dwCounters %u do not fit (%zu bytes left)",
                        off, size, n, end - off);
  *ids_at = off + 8;
  *count = n;
  *next = off + size;
  return PD_OK;
}

/* PERF_MULTI_INSTANCES at off (types 4 and 6): each instance is a
 * PERF_INSTANCE_HEADER + name, then `ncounters` PERF_COUNTER_DATA (ids
 * from ids_at, or `single_id` when ids_at is 0). */
static pd_status read_multi_instances(v2_decoder *dc, size_t off, size_t end,
                                      uint32_t block, size_t ids_at,
                                      uint32_t ncounters, uint32_t single_id) {
  if (!fits(dc, off, end, "PERF_MULTI_INSTANCES"))
    return PD_E_TRUNCATED;
  uint32_t total = pd_ld32(&dc->b, off);
  uint32_t ninst = pd_ld32(&dc->b, off + 4);
  if (total < 8 || total > end - off)
    return pd_error_set(dc->err, PD_E_V2, off,
                        "offset 0x%zx: PERF_MULTI_INSTANCES dwTotalSize %u "
                        "outside [8, %zu]",
                        off, total, end - off);
  size_t iend = off + total;
  size_t p = off + 8;
  for (uint32_t i = 0; i < ninst; i++) {
    if (iend - p < 8)
      return pd_error_set(dc->err, PD_E_TRUNCATED, p,
                          "offset 0x%zx: instance %u of %u runs past "
                          "PERF_MULTI_INSTANCES",
                          p, i, ninst);
    uint32_t isize = pd_ld32(&dc->b, p);
    uint32_t iid = pd_ld32(&dc->b, p + 4);
    if (isize < 8 || isize > iend - p)
      return pd_error_set(dc->err, PD_E_INSTANCE, p,
                          "offset 0x%zx: PERF_INSTANCE_HEADER Size %u outside "
                          "[8, %zu]",
                          p, isize, iend - p);
    size_t name_at = pool_add_utf16(dc->d, dc->b.data + p + 8, (isize - 8) / 2);
    if (name_at == SIZE_MAX)
      return pd_error_set(dc->err, PD_E_NOMEM, p, "out of memory");
    size_t q = p + isize;
    for (uint32_t c = 0; c < ncounters; c++) {
      uint32_t id =
          ids_at ? pd_ld32(&dc->b, ids_at + 4 * (size_t)c) : single_id;
      pd_status st =
          read_counter_data(dc, q, iend, block, id, true, iid, name_at, &q);
      if (st != PD_OK)
        return st;
    }
    p = q;
  }
  return PD_OK;
}

static pd_status decode_block(v2_decoder *dc, size_t off, size_t end,
                              uint32_t block, const pd_v2_identifier *id) {
  uint32_t type = pd_ld32(&dc->b, off + 4);
  size_t p = off + PD_V2_COUNTER_HEADER_SIZE;
  uint32_t counter = id ? id->counter_id : PD_V2_NO_ID;
  /* a single-instance answer names its instance only in the identifier */
  bool named = id && id->instance[0] && strcmp(id->instance, "*") != 0;
  size_t name_at = SIZE_MAX;
  if (named &&
      (type == PD_V2_SINGLE_COUNTER || type == PD_V2_MULTIPLE_COUNTERS)) {
    name_at = pool_add(dc->d, id->instance, strlen(id->instance));
    if (name_at == SIZE_MAX)
      return pd_error_set(dc->err, PD_E_NOMEM, off, "out of memory");
  }
  uint32_t iid = id ? id->instance_id : PD_V2_ANY_INSTANCE_ID;
  size_t ids_at, next;
  uint32_t n;
  pd_status st;
  switch (type) {
  case PD_V2_ERROR_RETURN: /* dwStatus says why; no data follows */
    return PD_OK;
  case PD_V2_SINGLE_COUNTER:
    return read_counter_data(dc, p, end, block, counter, named, iid, name_at,
                             &next);
  case PD_V2_MULTIPLE_COUNTERS:
    st = read_multi_counters(dc, p, end, &ids_at, &n, &p);
    for (uint32_t c = 0; st == PD_OK && c < n; c++)
      st = read_counter_data(dc, p, end, block,
                             pd_ld32(&dc->b, ids_at + 4 * (size_t)c), named,
                             iid, name_at, &p);
    return st;
  case PD_V2_MULTIPLE_INSTANCES:
    return read_multi_instances(dc, p, end, block, 0, 1, counter);
  case PD_V2_COUNTERSET:
    st = read_multi_counters(dc, p, end, &ids_at, &n, &p);
    if (st != PD_OK)
      return st;
    return read_multi_instances(dc, p, end, block, ids_at, n, 0);
  default:
    return pd_error_set(dc->err, PD_E_V2, off + 4,
                        "offset 0x%zx: unknown PERF_COUNTER_HEADER dwType %u",
                        off + 4, type);
  }
}

pd_status pd_v2_data_decode(pd_v2_data *d, const uint8_t *bytes, size_t len,
                            const pd_v2_identifier *ids, size_t nids,
                            size_t max_values, pd_error *err) {
  d->nblocks = d->nvalues = d->names_len = 0;
  memset(&d->header, 0, sizeof d->header);
  v2_decoder dc = {
      d, {bytes, len, false}, max_values ? max_values : 1000000, err};
  if (!pd_has(&dc.b, 0, PD_V2_DATA_HEADER_SIZE))
    return pd_error_set(err, PD_E_TRUNCATED, 0,
                        "offset 0x0: PERF_DATA_HEADER needs 48 bytes, have %zu",
                        len);
  pd_v2_header *h = &d->header;
  h->total_size = pd_ld32(&dc.b, 0);
  h->num_counters = pd_ld32(&dc.b, 4);
  h->perf_time = (int64_t)pd_ld64(&dc.b, 8);
  h->perf_time_100ns = (int64_t)pd_ld64(&dc.b, 16);
  h->perf_freq = (int64_t)pd_ld64(&dc.b, 24);
  for (int i = 0; i < 8; i++)
    h->system_time[i] = pd_ld16(&dc.b, 32 + 2 * (size_t)i);
  /* dwTotalSize bounds the blocks when it is sane; the bytes returned
   * always do. */
  size_t end = len;
  if (h->total_size >= PD_V2_DATA_HEADER_SIZE && h->total_size < len)
    end = h->total_size;
  size_t off = PD_V2_DATA_HEADER_SIZE;
  pd_status st = PD_OK;
  for (uint32_t b = 0; b < h->num_counters; b++) {
    if (end - off < PD_V2_COUNTER_HEADER_SIZE) {
      st = pd_error_set(err, PD_E_TRUNCATED, off,
                        "offset 0x%zx: PERF_COUNTER_HEADER %u of %u runs past "
                        "the end (%zu bytes)",
                        off, b, h->num_counters, end);
      break;
    }
    uint32_t size = pd_ld32(&dc.b, off + 8);
    if (size < PD_V2_COUNTER_HEADER_SIZE || size > end - off) {
      st = pd_error_set(err, PD_E_V2, off + 8,
                        "offset 0x%zx: PERF_COUNTER_HEADER dwSize %u outside "
                        "[16, %zu]",
                        off + 8, size, end - off);
      break;
    }
    if (d->nblocks == d->cap_blocks) {
      size_t cap = d->cap_blocks ? d->cap_blocks * 2 : 16;
      pd_v2_block *nb = realloc(d->blocks, cap * sizeof *nb);
      if (nb == NULL) {
        st = pd_error_set(err, PD_E_NOMEM, off, "out of memory");
        break;
      }
      d->blocks = nb;
      d->cap_blocks = cap;
    }
    pd_v2_block *blk = &d->blocks[d->nblocks++];
    blk->status = pd_ld32(&dc.b, off);
    blk->type = pd_ld32(&dc.b, off + 4);
    blk->first_value = d->nvalues;
    st =
        decode_block(&dc, off, off + size, b, ids && b < nids ? &ids[b] : NULL);
    if (st != PD_OK)
      break;
    blk->value_count = d->nvalues - blk->first_value;
    off += size;
  }
  if (st != PD_OK) {
    d->nblocks = d->nvalues = d->names_len = 0;
    return st;
  }
  /* the pool has stopped moving: point the values at their names */
  for (size_t i = 0; i < d->nvalues; i++)
    d->values[i].instance =
        d->name_at[i] == SIZE_MAX ? "" : d->names + d->name_at[i];
  return PD_OK;
}

/* -------------------------------------------------------- computing */

static bool same_instance(const pd_v2_value *a, const pd_v2_value *b) {
  return a->block == b->block && a->instance_id == b->instance_id &&
         strcmp(a->instance, b->instance) == 0;
}

/* The reading of counter `id` in the same instance as value `vi` of d:
 * first in the contiguous run of that instance in its block (a counter-set
 * answer keeps an instance's counters together), then anywhere in blocks of
 * the same counter set. */
static const pd_v2_value *sibling(const pd_v2_data *d,
                                  const pd_v2_counterset *const *sets,
                                  size_t nsets, size_t vi, uint32_t id) {
  const pd_v2_value *v = &d->values[vi];
  const pd_v2_block *blk = &d->blocks[v->block];
  size_t lo = blk->first_value, hi = blk->first_value + blk->value_count;
  for (size_t j = vi + 1; j < hi && same_instance(&d->values[j], v); j++)
    if (d->values[j].counter_id == id)
      return &d->values[j];
  for (size_t j = vi; j-- > lo && same_instance(&d->values[j], v);)
    if (d->values[j].counter_id == id)
      return &d->values[j];
  const pd_v2_counterset *set = v->block < nsets ? sets[v->block] : NULL;
  for (size_t j = 0; j < d->nvalues; j++) {
    const pd_v2_value *w = &d->values[j];
    if (w->counter_id != id || w->block == v->block || w->block >= nsets ||
        sets[w->block] != set)
      continue;
    if (w->instance_id == v->instance_id &&
        strcmp(w->instance, v->instance) == 0)
      return w;
  }
  return NULL;
}

/* The counter whose value serves as base for `c` (spec 3): an explicit id,
 * else the next registered counter when it is a base (V1 convention). */
static uint32_t base_id_for(const pd_v2_counterset *set,
                            const pd_v2_counter_info *c) {
  bool multi = (c->type & 0x02000000u) != 0;
  if (multi && c->multi_id != PD_V2_NO_ID && c->multi_id != c->id)
    return c->multi_id;
  if (c->base_id != PD_V2_NO_ID && c->base_id != c->id &&
      pd_v2_counterset_find(set, c->base_id) != NULL)
    return c->base_id;
  size_t k = (size_t)(c - set->counters);
  if (k + 1 < set->counter_count && pd_type_is_base(set->counters[k + 1].type))
    return set->counters[k + 1].id;
  return PD_V2_NO_ID;
}

static void fill_sample(const pd_v2_data *d,
                        const pd_v2_counterset *const *sets, size_t nsets,
                        const pd_v2_counterset *set,
                        const pd_v2_counter_info *c, size_t vi, pd_sample *s) {
  const pd_v2_header *h = &d->header;
  memset(s, 0, sizeof *s);
  s->value = d->values[vi].raw;
  s->perf_time = h->perf_time;
  s->perf_freq = h->perf_freq;
  s->perf_time_100ns = h->perf_time_100ns;
  s->object_time = h->perf_time;
  s->object_freq = h->perf_freq;
  if (pd_type_needs_base(c->type)) {
    uint32_t bid = base_id_for(set, c);
    const pd_v2_value *bv =
        bid == PD_V2_NO_ID ? NULL : sibling(d, sets, nsets, vi, bid);
    if (bv != NULL) {
      s->base = bv->raw;
      s->has_base = true;
    }
  }
  if ((c->type & 0x00300000u) == 0x00200000u) { /* OBJECT_TIMER time base */
    const pd_v2_value *t = c->perf_time_id == PD_V2_NO_ID
                               ? NULL
                               : sibling(d, sets, nsets, vi, c->perf_time_id);
    const pd_v2_value *f = c->perf_freq_id == PD_V2_NO_ID
                               ? NULL
                               : sibling(d, sets, nsets, vi, c->perf_freq_id);
    if (t != NULL)
      s->object_time = (int64_t)t->raw;
    if (f != NULL)
      s->object_freq = (int64_t)f->raw;
  }
}

void pd_v2_results_free(pd_v2_results *res) {
  free(res->items);
  res->items = NULL;
  res->count = res->cap = 0;
}

static bool same_reading(const pd_v2_value *a, const pd_v2_value *b) {
  return a->counter_id == b->counter_id && same_instance(a, b);
}

pd_status pd_v2_evaluate(const pd_v2_counterset *const *sets, size_t nsets,
                         const pd_v2_data *older, const pd_v2_data *newer,
                         const pd_calc_options *opt, pd_v2_results *out,
                         pd_error *err) {
  out->count = 0;
  /* Older readings usually sit at the same position, or shifted by the
   * instances that came or went: remember the last shift. */
  ptrdiff_t shift = 0;
  for (size_t i = 0; i < newer->nvalues; i++) {
    const pd_v2_value *v = &newer->values[i];
    const pd_v2_counterset *set = v->block < nsets ? sets[v->block] : NULL;
    if (set == NULL)
      continue;
    const pd_v2_counter_info *c = pd_v2_counterset_find(set, v->counter_id);
    if (c == NULL || !pd_type_is_displayable(c->type))
      continue;
    pd_sample s1, s0;
    fill_sample(newer, sets, nsets, set, c, i, &s1);
    const pd_sample *prev = NULL;
    if (older != NULL) {
      ptrdiff_t j = (ptrdiff_t)i + shift;
      if (j < 0 || (size_t)j >= older->nvalues ||
          !same_reading(&older->values[j], v)) {
        j = -1;
        for (size_t k = 0; k < older->nvalues; k++)
          if (same_reading(&older->values[k], v)) {
            j = (ptrdiff_t)k;
            shift = j - (ptrdiff_t)i;
            break;
          }
      }
      if (j >= 0) {
        fill_sample(older, sets, nsets, set, c, (size_t)j, &s0);
        prev = &s0;
      }
    }
    if (out->count == out->cap) {
      size_t cap = out->cap ? out->cap * 2 : 64;
      pd_v2_result *r = realloc(out->items, cap * sizeof *r);
      if (r == NULL)
        return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
      out->items = r;
      out->cap = cap;
    }
    pd_v2_result *r = &out->items[out->count++];
    r->block = v->block;
    r->counter_id = v->counter_id;
    r->counter_type = c->type;
    r->instance = v->instance;
    r->instance_id = v->instance_id;
    r->raw_value = s1.value;
    r->raw_base = s1.base;
    r->value = 0;
    if (!pd_type_is_displayable(c->type))
      r->status = PD_VALUE_NOT_NUMERIC;
    else if (v->data_size != 4 && v->data_size != 8)
      r->status = PD_VALUE_NOT_NUMERIC;
    else
      r->status = pd_compute(c->type, prev, &s1, opt, &r->value);
  }
  return PD_OK;
}
