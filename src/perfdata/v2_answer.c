/* collectd-winperf: V2 (PerfLib) answers: decoding and computing.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * format.md 5. Every size and count in an answer is hostile: each structure is
 * bounds-checked against its enclosing block before it is read, and arrays
 * grow only as readings are actually found (each needs at least 8 bytes),
 * so no allocation is sized by a field.
 */
#include "perfdata_v2.h"
#include "pd_internal.h"

#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------- decoding */

struct pd_v2_data {
  pd_v2_header header;
  pd_v2_block *blocks;
  size_t nblocks, cap_blocks;
  pd_v2_value *values;
  size_t *name_at; /* per value: offset of its instance name in `pool` */
  size_t nvalues, cap_values;
  char *pool; /* the instance names, NUL-terminated one after another */
  size_t pool_len, pool_cap;
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
  free(d->pool);
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
  wire_bytes b;
  size_t max_values;
  pd_error *err;
} v2_decoder;

/* Reserve n + 1 bytes in the name pool; returns their offset or SIZE_MAX. */
static size_t pool_reserve(pd_v2_data *d, size_t n) {
  if (n >= SIZE_MAX / 4)
    return SIZE_MAX;
  if (wp_grow_bytes(&d->pool, &d->pool_cap, d->pool_len + n + 1,
                    WP_GROW_NO_CAP) != WP_GROW_OK)
    return SIZE_MAX;
  size_t at = d->pool_len;
  d->pool[at + n] = '\0';
  d->pool_len += n + 1;
  return at;
}

/* Append a UTF-8 name to the pool. */
static size_t pool_add(pd_v2_data *d, const char *s, size_t n) {
  size_t at = pool_reserve(d, n);
  if (at != SIZE_MAX)
    memcpy(d->pool + at, s, n);
  return at;
}

/* Append `units` UTF-16LE units (up to the first NUL) as UTF-8. */
static size_t pool_add_utf16(pd_v2_data *d, const uint8_t *src, size_t units) {
  size_t need = pd_utf16_to_utf8(src, units, false, NULL, 0);
  size_t at = pool_reserve(d, need);
  if (at != SIZE_MAX)
    pd_utf16_to_utf8(src, units, false, d->pool + at, need + 1);
  return at;
}

/* The 8-byte structure `what` at off, inside [.., end), holding its own
 * size at `field`. */
static wire_check sized(v2_decoder *dc, size_t off, size_t end, size_t field,
                        const char *what, wire_sized *s) {
  wire_check c = wire_sized_at(&dc->b, off, end, 8, field, s);
  if (c == WIRE_SHORT)
    pd_error_set(dc->err, PD_E_TRUNCATED, off,
                 "offset 0x%zx: %s runs past its block", off, what);
  return c;
}

/* Read a PERF_COUNTER_DATA at `off` inside [.., end); appends one value.
 * *next gets the offset after it. */
static pd_status read_counter_data(v2_decoder *dc, size_t off, size_t end,
                                   uint32_t block, uint32_t counter_id,
                                   bool has_instance, uint32_t instance_id,
                                   size_t name_at, size_t *next) {
  pd_v2_data *d = dc->d;
  wire_sized cd;
  wire_check cdc =
      sized(dc, off, end, PERF_COUNTER_DATA_dwSize, "PERF_COUNTER_DATA", &cd);
  if (cdc == WIRE_SHORT)
    return PD_E_TRUNCATED;
  uint32_t data_size = wire_ld32(&dc->b, off + PERF_COUNTER_DATA_dwDataSize);
  uint32_t size = cd.length;
  if (cdc == WIRE_RANGE || data_size > size - PERF_COUNTER_DATA_SIZE)
    return pd_error_set(dc->err, PD_E_V2, off,
                        "offset 0x%zx: PERF_COUNTER_DATA dwSize %u / "
                        "dwDataSize %u do not fit (%zu bytes left)",
                        off, size, data_size, end - off);
  if (d->nvalues >= dc->max_values)
    return pd_error_set(dc->err, PD_E_LIMIT, off,
                        "offset 0x%zx: more than %zu readings", off,
                        dc->max_values);
  if (d->nvalues == d->cap_values) {
    size_t cap = d->cap_values;
    if (WP_GROW(&d->values, &cap, d->nvalues + 1, WP_GROW_NO_CAP) !=
            WP_GROW_OK ||
        WP_RESIZE(&d->name_at, cap) != WP_GROW_OK)
      return pd_error_set(dc->err, PD_E_NOMEM, off, "out of memory");
    d->cap_values = cap;
  }
  pd_v2_value *v = &d->values[d->nvalues];
  v->block = block;
  v->counter_id = counter_id;
  v->has_instance = has_instance;
  v->instance_id = instance_id;
  v->instance = NULL;
  v->data_size = data_size;
  size_t at = off + PERF_COUNTER_DATA_SIZE; /* the value */
  v->raw = data_size == 4   ? wire_ld32(&dc->b, at)
           : data_size == 8 ? wire_ld64(&dc->b, at)
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
  wire_sized mc;
  wire_check mcc = sized(dc, off, end, PERF_MULTI_COUNTERS_dwSize,
                         "PERF_MULTI_COUNTERS", &mc);
  if (mcc == WIRE_SHORT)
    return PD_E_TRUNCATED;
  uint32_t size = mc.length;
  uint32_t n = wire_ld32(&dc->b, off + PERF_MULTI_COUNTERS_dwCounters);
  if (mcc == WIRE_RANGE || n > (size - PERF_MULTI_COUNTERS_SIZE) / 4)
    return pd_error_set(dc->err, PD_E_V2, off,
                        "offset 0x%zx: PERF_MULTI_COUNTERS dwSize %u / "
                        "dwCounters %u do not fit (%zu bytes left)",
                        off, size, n, end - off);
  *ids_at = off + PERF_MULTI_COUNTERS_SIZE;
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
  wire_sized mi;
  wire_check mic = sized(dc, off, end, PERF_MULTI_INSTANCES_dwTotalSize,
                         "PERF_MULTI_INSTANCES", &mi);
  if (mic == WIRE_SHORT)
    return PD_E_TRUNCATED;
  uint32_t ninst = wire_ld32(&dc->b, off + PERF_MULTI_INSTANCES_dwInstances);
  if (mic == WIRE_RANGE)
    return pd_error_range(dc->err, PD_E_V2, &mi,
                          "PERF_MULTI_INSTANCES dwTotalSize");
  size_t iend = off + mi.length;
  size_t p = off + PERF_MULTI_INSTANCES_SIZE;
  for (uint32_t i = 0; i < ninst; i++) {
    wire_sized ih;
    wire_check ihc = wire_sized_at(&dc->b, p, iend, PERF_INSTANCE_HEADER_SIZE,
                                   PERF_INSTANCE_HEADER_Size, &ih);
    if (ihc == WIRE_SHORT)
      return pd_error_set(dc->err, PD_E_TRUNCATED, p,
                          "offset 0x%zx: instance %u of %u runs past "
                          "PERF_MULTI_INSTANCES",
                          p, i, ninst);
    if (ihc == WIRE_RANGE)
      return pd_error_range(dc->err, PD_E_INSTANCE, &ih,
                            "PERF_INSTANCE_HEADER Size");
    uint32_t iid = wire_ld32(&dc->b, p + PERF_INSTANCE_HEADER_InstanceId);
    size_t name_at =
        pool_add_utf16(dc->d, dc->b.data + p + PERF_INSTANCE_HEADER_SIZE,
                       (ih.length - PERF_INSTANCE_HEADER_SIZE) / 2);
    if (name_at == SIZE_MAX)
      return pd_error_set(dc->err, PD_E_NOMEM, p, "out of memory");
    size_t q = p + ih.length;
    for (uint32_t c = 0; c < ncounters; c++) {
      uint32_t id =
          ids_at ? wire_ld32(&dc->b, ids_at + 4 * (size_t)c) : single_id;
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
  uint32_t type = wire_ld32(&dc->b, off + PERF_COUNTER_HEADER_dwType);
  size_t p = off + PERF_COUNTER_HEADER_SIZE;
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
                             wire_ld32(&dc->b, ids_at + 4 * (size_t)c), named,
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
    return pd_error_set(dc->err, PD_E_V2, off + PERF_COUNTER_HEADER_dwType,
                        "offset 0x%zx: unknown PERF_COUNTER_HEADER dwType %u",
                        off + PERF_COUNTER_HEADER_dwType, type);
  }
}

static void read_data_header(const wire_bytes *b, pd_v2_header *h) {
  h->total_size = wire_ld32(b, PERF_DATA_HEADER_dwTotalSize);
  h->num_counters = wire_ld32(b, PERF_DATA_HEADER_dwNumCounters);
  h->perf_time = (int64_t)wire_ld64(b, PERF_DATA_HEADER_PerfTimeStamp);
  h->perf_time_100ns = (int64_t)wire_ld64(b, PERF_DATA_HEADER_PerfTime100NSec);
  h->perf_freq = (int64_t)wire_ld64(b, PERF_DATA_HEADER_PerfFreq);
  for (int i = 0; i < 8; i++)
    h->system_time[i] =
        wire_ld16(b, PERF_DATA_HEADER_SystemTime + 2 * (size_t)i);
}

static pd_v2_block *add_block(pd_v2_data *d) {
  if (WP_GROW(&d->blocks, &d->cap_blocks, d->nblocks + 1, WP_GROW_NO_CAP) !=
      WP_GROW_OK)
    return NULL;
  return &d->blocks[d->nblocks++];
}

/* The PERF_COUNTER_HEADER blocks after the PERF_DATA_HEADER, up to end. */
static pd_status decode_blocks(v2_decoder *dc, size_t end,
                               const pd_v2_identifier *ids, size_t nids) {
  pd_v2_data *d = dc->d;
  uint32_t count = d->header.num_counters;
  size_t off = PERF_DATA_HEADER_SIZE;
  for (uint32_t b = 0; b < count; b++) {
    wire_sized ch;
    wire_check chc = wire_sized_at(&dc->b, off, end, PERF_COUNTER_HEADER_SIZE,
                                   PERF_COUNTER_HEADER_dwSize, &ch);
    if (chc == WIRE_SHORT)
      return pd_error_set(dc->err, PD_E_TRUNCATED, off,
                          "offset 0x%zx: PERF_COUNTER_HEADER %u of %u runs "
                          "past the end (%zu bytes)",
                          off, b, count, end);
    if (chc == WIRE_RANGE)
      return pd_error_range(dc->err, PD_E_V2, &ch,
                            "PERF_COUNTER_HEADER dwSize");
    pd_v2_block *blk = add_block(d);
    if (blk == NULL)
      return pd_error_set(dc->err, PD_E_NOMEM, off, "out of memory");
    blk->status = wire_ld32(&dc->b, off + PERF_COUNTER_HEADER_dwStatus);
    blk->type = wire_ld32(&dc->b, off + PERF_COUNTER_HEADER_dwType);
    blk->first_value = d->nvalues;
    pd_status st = decode_block(dc, off, off + ch.length, b,
                                ids && b < nids ? &ids[b] : NULL);
    if (st != PD_OK)
      return st;
    blk->value_count = d->nvalues - blk->first_value;
    off += ch.length;
  }
  return PD_OK;
}

pd_status pd_v2_data_decode(pd_v2_data *d, const uint8_t *bytes, size_t len,
                            const pd_v2_identifier *ids, size_t nids,
                            size_t max_values, pd_error *err) {
  d->nblocks = d->nvalues = d->pool_len = 0;
  memset(&d->header, 0, sizeof d->header);
  v2_decoder dc = {d, wire_le(bytes, len), max_values ? max_values : 1000000,
                   err};
  if (!wire_has(&dc.b, 0, PERF_DATA_HEADER_SIZE))
    return pd_error_set(err, PD_E_TRUNCATED, 0,
                        "offset 0x0: PERF_DATA_HEADER needs 48 bytes, have %zu",
                        len);
  pd_v2_header *h = &d->header;
  read_data_header(&dc.b, h);
  /* dwTotalSize bounds the blocks when it is sane; the bytes returned
   * always do. */
  size_t end = len;
  if (h->total_size >= PERF_DATA_HEADER_SIZE && h->total_size < len)
    end = h->total_size;
  pd_status st = decode_blocks(&dc, end, ids, nids);
  if (st != PD_OK) {
    d->nblocks = d->nvalues = d->pool_len = 0;
    return st;
  }
  /* the pool has stopped moving: point the values at their names */
  for (size_t i = 0; i < d->nvalues; i++)
    d->values[i].instance =
        d->name_at[i] == SIZE_MAX ? "" : d->pool + d->name_at[i];
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

/* The counter whose value serves as base for `c` (format.md 3): an explicit id,
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
    if (WP_GROW(&out->items, &out->cap, out->count + 1, WP_GROW_NO_CAP) !=
        WP_GROW_OK)
      return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
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
