/* collectd-winperf: a sample's raw counter values written as V1 objects
 * (doc/blg.md 4.2).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Per object (catalog entries with the same object name): one definition
 * per distinct counter (and a LARGE_RAW_BASE one after a type whose base
 * is the next definition), one instance per distinct instance name
 * (case-insensitive, first spelling kept), and in each instance's counter
 * block a 16-byte slot per counter: FirstValue, then SecondValue (or the
 * MultiCount DWORD of a MULTI type). Lookups go through the one hash
 * table (wp_table.h), so a sample of n values costs O(n).
 */
#include "blob_build.h"

enum { MAX_BLOB = 1 << 30 };

int blg_room(builder *b, size_t need) {
  if (need > MAX_BLOB)
    return -1;
  return wp_grow_bytes(&b->out, &b->cap, need, MAX_BLOB) == WP_GROW_OK ? 0 : -1;
}

bool blg_type_has_base_def(uint32_t t) {
  uint32_t sub = t & 0xF0000u;
  return (t & 0xC00u) == 0x400u && (sub == 0x20000u || sub == 0x70000u);
}

/* Names (case-insensitive, pd_name_casecmp) and counter indices to their
 * 0-based positions, on the one hash table (wp_table.h). */
typedef struct name_key {
  const char **insts;
  const char *name;
} name_key;

static bool same_name(const void *ctx, uint32_t value) {
  const name_key *k = ctx;
  return pd_name_casecmp(k->insts[value - 1], k->name) == 0;
}

/* The position of instance name among insts[0..*count), adding it (at
 * *count). */
static size_t name_pos(wp_table *m, const char **insts, size_t *count,
                       const char *name) {
  name_key k = {insts, name};
  uint32_t v = wp_table_find_or_put(m, pd_hash_folded(name),
                                    (uint32_t)*count + 1, same_name, &k);
  if (v != 0)
    return v - 1;
  insts[*count] = name;
  return (*count)++;
}

typedef struct counter_key {
  const uint32_t *keys;
  uint32_t key;
} counter_key;

static bool same_counter(const void *ctx, uint32_t value) {
  const counter_key *k = ctx;
  return k->keys[value - 1] == k->key;
}

/* The position of key among keys[0..*count), adding it. */
static size_t key_pos(wp_table *m, uint32_t *keys, size_t *count,
                      uint32_t key) {
  counter_key k = {keys, key};
  uint32_t v = wp_table_find_or_put(m, wp_hash32(wp_hash_bytes(&key, 4)),
                                    (uint32_t)*count + 1, same_counter, &k);
  if (v != 0)
    return v - 1;
  keys[*count] = key;
  return (*count)++;
}

/* One object's cells (idx[0..n)) laid out: instance and counter of each. */
typedef struct layout {
  const char **insts;
  size_t ni;
  uint32_t *ctrs;
  size_t *ctr_entry; /* the first entry with that counter */
  size_t nc;
  size_t *cell_inst, *cell_ctr; /* per cell of the object */
} layout;

static int lay_out(const builder *b, const size_t *idx, size_t n, layout *l) {
  const blg_log *log = b->log;
  wp_table mi = {0}, mc = {0};
  int rc = n > UINT32_MAX / 2 || wp_table_reserve(&mi, n) != WP_GROW_OK ||
                   wp_table_reserve(&mc, n) != WP_GROW_OK
               ? -1
               : 0;
  for (size_t k = 0; k < n && rc == 0; k++) {
    const raw_cell *c = &b->cells[idx[k]];
    size_t before = l->nc;
    l->cell_ctr[k] =
        key_pos(&mc, l->ctrs, &l->nc, log->counter_index[c->entry]);
    if (l->nc > before)
      l->ctr_entry[l->nc - 1] = c->entry;
    l->cell_inst[k] =
        c->instance ? name_pos(&mi, l->insts, &l->ni, c->instance) : 0;
  }
  wp_table_free(&mi);
  wp_table_free(&mc);
  return rc;
}

/* The object's header and definitions at p (deflen bytes). */
static void put_definitions(const builder *b, uint8_t *p, uint32_t obj,
                            const layout *l, size_t ndefs, size_t deflen) {
  const blg_log *log = b->log;
  wire_put_le32(p + 4, (uint32_t)deflen);
  wire_put_le32(p + 8, BLG_OBJECT_HEADER);
  wire_put_le32(p + 12, obj);
  wire_put_le32(p + 28, 100);
  wire_put_le32(p + 32, (uint32_t)ndefs);
  wire_put_le32(p + 40, l->ni ? (uint32_t)l->ni : 0xffffffffu);
  uint8_t *d = p + BLG_OBJECT_HEADER;
  for (size_t k = 0; k < l->nc; k++, d += BLG_DEF_SIZE) {
    const blg_counter *e = &log->counters[l->ctr_entry[k]];
    wire_put_le32(d, BLG_DEF_SIZE);
    wire_put_le32(d + 4, l->ctrs[k]);
    wire_put_le32(d + 20, (uint32_t)e->scale);
    wire_put_le32(d + 24, 100);
    wire_put_le32(d + 28, e->type);
    wire_put_le32(d + 32, 8);
    wire_put_le32(d + 36, (uint32_t)(8 + BLG_SLOT * k));
    if (blg_type_has_base_def(e->type)) {
      d += BLG_DEF_SIZE;
      wire_put_le32(d, BLG_DEF_SIZE);
      wire_put_le32(d + 24, 100);
      wire_put_le32(d + 28, PD_LARGE_RAW_BASE);
      wire_put_le32(d + 32, 8);
      wire_put_le32(d + 36, (uint32_t)(8 + BLG_SLOT * k + 8));
    }
  }
}

/* The instances (names and empty counter blocks) after the definitions;
 * block_at[i] gets each block's offset from p. Returns the object's
 * length, 0 without memory. */
static size_t put_instances(uint8_t *p, size_t at, const layout *l,
                            size_t block, size_t *block_at) {
  for (size_t i = 0; i < (l->ni ? l->ni : 1); i++) {
    if (l->ni) {
      uint8_t *def = p + at, *name = NULL;
      size_t len = 0, cap = 0;
      if (blg_put_utf16(&name, &len, &cap, l->insts[i]) != 0)
        return 0;
      size_t padded = (len + 7) & ~(size_t)7;
      wire_put_le32(def, (uint32_t)(BLG_INSTANCE_HEADER + padded));
      wire_put_le32(def + 12, 0xffffffffu); /* no UniqueID */
      wire_put_le32(def + 16, BLG_INSTANCE_HEADER);
      wire_put_le32(def + 20, (uint32_t)len);
      memcpy(def + BLG_INSTANCE_HEADER, name, len);
      free(name);
      at += BLG_INSTANCE_HEADER + padded;
    }
    block_at[i] = at;
    wire_put_le32(p + at, (uint32_t)block);
    at += block;
  }
  return at;
}

/* The object clock of its OBJECT_TIMER counters (ELAPSED_TIME too). */
static void put_object_clock(const builder *b, uint8_t *p, const size_t *idx,
                             size_t n) {
  for (size_t k = 0; k < n; k++) {
    const raw_cell *c = &b->cells[idx[k]];
    const blg_counter *e = &b->log->counters[c->entry];
    if (c->valid && (e->type & 0x300000u) == 0x200000u) {
      wire_put_le64(p + 48, c->second);
      wire_put_le64(p + 56, (uint64_t)e->time_base);
      return;
    }
  }
}

static int write_object(builder *b, uint32_t obj, const size_t *idx, size_t n,
                        layout *l, size_t *block_at) {
  blg_log *log = b->log;
  l->ni = l->nc = 0;
  if (lay_out(b, idx, n, l) != 0)
    return -1;
  size_t ndefs = l->nc;
  for (size_t k = 0; k < l->nc; k++)
    ndefs += blg_type_has_base_def(log->counters[l->ctr_entry[k]].type);
  size_t block = 8 + BLG_SLOT * l->nc;
  size_t deflen = BLG_OBJECT_HEADER + BLG_DEF_SIZE * ndefs, total = deflen;
  for (size_t i = 0; i < (l->ni ? l->ni : 1); i++) /* UTF-16: 2 per byte */
    total += (l->ni ? BLG_INSTANCE_HEADER +
                          ((2 * strlen(l->insts[i]) + 2 + 7) & ~(size_t)7)
                    : 0) +
             block;
  size_t o = b->len;
  if (blg_room(b, o + total) != 0)
    return -1;
  uint8_t *p = b->out + o;
  memset(p, 0, total);
  put_definitions(b, p, obj, l, ndefs, deflen);
  put_object_clock(b, p, idx, n);
  size_t len = put_instances(p, deflen, l, block, block_at);
  if (len == 0)
    return -1;
  for (size_t k = 0; k < n; k++) {
    const raw_cell *c = &b->cells[idx[k]];
    if (!c->valid)
      continue;
    uint8_t *slot =
        p + block_at[l->cell_inst[k]] + 8 + BLG_SLOT * l->cell_ctr[k];
    wire_put_le64(slot, c->first);
    if (log->counters[c->entry].type & 0x02000000u) /* PERF_MULTI_COUNTER */
      wire_put_le32(slot + 8, c->multi);
    else
      wire_put_le64(slot + 8, c->second);
    if (blg_cells_add(log, obj, l->ctrs[l->cell_ctr[k]],
                      l->ni ? l->insts[l->cell_inst[k]] : NULL) != 0)
      return -1;
  }
  wire_put_le32(p, (uint32_t)len);
  b->len = o + len;
  b->objects++;
  return 0;
}

int blg_write_raw_objects(builder *b) {
  size_t n = b->ncells, m = n ? n : 1;
  /* cells grouped by object, objects in the order first met */
  uint32_t *objs = calloc(m, sizeof *objs);
  size_t *group = calloc(m, sizeof *group),
         *start = calloc(m + 1, sizeof *start);
  size_t *idx = calloc(m, sizeof *idx), *block_at = calloc(m, sizeof *block_at);
  layout l = {.insts = calloc(m, sizeof *l.insts),
              .ctrs = calloc(m, sizeof *l.ctrs),
              .ctr_entry = calloc(m, sizeof *l.ctr_entry),
              .cell_inst = calloc(m, sizeof *l.cell_inst),
              .cell_ctr = calloc(m, sizeof *l.cell_ctr)};
  wp_table mo = {0};
  size_t nobj = 0;
  int rc = objs && group && start && idx && block_at && l.insts && l.ctrs &&
                   l.ctr_entry && l.cell_inst && l.cell_ctr &&
                   n <= UINT32_MAX / 2 && wp_table_reserve(&mo, n) == WP_GROW_OK
               ? 0
               : -1;
  for (size_t i = 0; i < n && rc == 0; i++) {
    group[i] =
        key_pos(&mo, objs, &nobj, b->log->object_index[b->cells[i].entry]);
    start[group[i] + 1]++;
  }
  for (size_t g = 0; g < nobj && rc == 0; g++)
    start[g + 1] += start[g];
  for (size_t i = 0, *fill = block_at; i < n && rc == 0; i++)
    idx[start[group[i]] + fill[group[i]]++] = i; /* block_at as counters */
  for (size_t g = 0; g < nobj && rc == 0; g++)
    rc = write_object(b, objs[g], idx + start[g], start[g + 1] - start[g], &l,
                      block_at);
  wp_table_free(&mo);
  free(objs);
  free(group);
  free(start);
  free(idx);
  free(block_at);
  free(l.insts);
  free(l.ctrs);
  free(l.ctr_entry);
  free(l.cell_inst);
  free(l.cell_ctr);
  return rc;
}
