/* collectd-winperf: one sample of a .blg as a V1 blob (doc/blg.md 4).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A sample is one record of records, one per catalog entry in catalog
 * order: whole-object blocks (each a PERF_DATA_BLOCK) are merged under the
 * first one's header; raw counter records (PDH_RAW_COUNTER and raw counter
 * items) are written as objects whose counters hold FirstValue and, in the
 * slot after it, SecondValue or MultiCount, with the clocks in the header
 * and the object: the same (value, base, time) pd_compute takes from a
 * blob (blg.md 4.2). pd_decode then checks everything once more.
 */
#include "blob_build.h"

enum {
  BL_WORD = 0x4c42, /* "BL" */
  BL_SAMPLE = 0x0003,
  BL_SINGLE = 0x0103,
  BL_MULTI = 0x0203,
  BL_OBJECT = 0x0503,
  SINGLE_SIZE = 48, /* BL header + PDH_RAW_COUNTER */
  MULTI_HEADER = 32,
  ITEM_SIZE = 24,
  PERF_HEADER = 88,
};

/* Does type t's formula take a clock, and which (format.md 2.1)? */
static bool type_timed(uint32_t t) {
  uint32_t sub = t & 0xF0000u;
  return (t & 0xC00u) == 0x400u &&
         (sub == 0x10000u || sub == 0x40000u || sub == 0x50000u);
}

/* ------------------------------------------------------ object blocks */

/* Objects in a block's [HeaderLength, TotalByteLength) by their lengths. */
static uint32_t count_objects(const uint8_t *p, size_t hl, size_t total) {
  uint32_t n = 0;
  for (size_t o = hl; o + BLG_OBJECT_HEADER <= total; n++) {
    size_t len = wire_le32(p + o);
    if (len == 0 || len > total - o)
      break;
    o += len;
  }
  return n;
}

/* Append the objects of a PERF_DATA_BLOCK (BL 0x0503 payload). */
static int add_block(builder *b, const uint8_t *p, size_t len, size_t at) {
  blg_log *log = b->log;
  if (len < PERF_HEADER || memcmp(p, "P\0E\0R\0F\0", 8) != 0 ||
      wire_le32(p + 8) != 1) {
    blg_warn(log, at,
             "object record is not a little-endian "
             "PERF_DATA_BLOCK; skipped");
    return 0;
  }
  size_t total = wire_le32(p + 20), hl = wire_le32(p + 24);
  if (total > len)
    total = len; /* the objects end where the record does */
  if (hl < PERF_HEADER || hl > total) {
    blg_warn(log, at,
             "object record's HeaderLength %zu out of range; "
             "skipped",
             hl);
    return 0;
  }
  int64_t pt = (int64_t)wire_le64(p + 56), pf = (int64_t)wire_le64(p + 64),
          p100 = (int64_t)wire_le64(p + 72);
  if (!b->have_header) {
    if (blg_room(b, hl) != 0)
      return -1;
    memcpy(b->out, p, hl);
    b->len = hl;
    b->have_header = true;
    b->perf_time = pt, b->perf_freq = pf, b->perf_time_100ns = p100;
    b->have_tick = b->have_freq = b->have_100ns = true;
  } else if (pt != b->perf_time || pf != b->perf_freq ||
             p100 != b->perf_time_100ns) {
    blg_warn(log, at,
             "object record's clocks differ from the sample's "
             "first; merged with the first's");
  }
  size_t body = total - hl;
  if (blg_room(b, b->len + body) != 0)
    return -1;
  memcpy(b->out + b->len, p + hl, body);
  b->len += body;
  b->objects += count_objects(p, hl, total);
  return 0;
}

/* --------------------------------------------------- raw counter records */

static int add_cell(builder *b, raw_cell c) {
  if (WP_GROW(&b->cells, &b->cells_cap, b->ncells + 1, BLG_MAX_CELLS) !=
      WP_GROW_OK) {
    free(c.owned);
    return -1;
  }
  b->cells[b->ncells++] = c;
  return 0;
}

/* Note an entry's clock for the header (first one wins; a different one
 * later is warned about once per sample). */
static void take_clock(builder *b, const blg_counter *c, uint64_t second,
                       size_t at, bool *warned) {
  uint32_t base = c->type & 0x300000u;
  if (base == 0 && !b->have_freq) {
    b->perf_freq = c->time_base;
    b->have_freq = true;
  }
  if (!type_timed(c->type) || base == 0x200000u)
    return;
  int64_t *clock = base == 0 ? &b->perf_time : &b->perf_time_100ns;
  bool *have = base == 0 ? &b->have_tick : &b->have_100ns;
  if (!*have) {
    *clock = (int64_t)second, *have = true;
  } else if (*clock != (int64_t)second && !*warned) {
    blg_warn(b->log, at,
             "raw counters of one sample with different clocks; "
             "the first one's used");
    *warned = true;
  }
}

static int add_single(builder *b, size_t entry, const uint8_t *r, size_t len,
                      size_t at, bool *warned) {
  if (len < SINGLE_SIZE) {
    blg_warn(b->log, at, "raw counter record of %zu bytes; skipped", len);
    return 0;
  }
  const blg_counter *c = &b->log->counters[entry];
  uint32_t status = wire_le32(r + 8);
  raw_cell cell = {.entry = entry,
                   .instance = c->instance,
                   .first = wire_le64(r + 24),
                   .second = wire_le64(r + 32),
                   .multi = wire_le32(r + 40),
                   .valid = status <= 1};
  if (cell.valid)
    take_clock(b, c, cell.second, at, warned);
  return add_cell(b, cell);
}

static int add_multi(builder *b, size_t entry, const uint8_t *r, size_t len,
                     size_t at, bool *warned) {
  if (len < MULTI_HEADER) {
    blg_warn(b->log, at, "raw counter items record of %zu bytes; skipped", len);
    return 0;
  }
  const blg_counter *c = &b->log->counters[entry];
  size_t count = wire_le32(r + 12);
  uint32_t status = wire_le32(r + 16);
  if (count > (len - MULTI_HEADER) / ITEM_SIZE) {
    blg_warn(b->log, at,
             "%zu raw counter items do not fit the record's %zu "
             "bytes; skipped",
             count, len);
    return 0;
  }
  for (size_t i = 0; i < count; i++) {
    const uint8_t *it = r + MULTI_HEADER + i * ITEM_SIZE;
    size_t next, name = 8 + (size_t)wire_le32(it); /* from the block */
    bool nomem = false;
    char *inst =
        name < len ? blg_utf16_string(r, name, len, &next, &nomem) : NULL;
    if (inst == NULL) {
      if (nomem)
        return -1;
      blg_warn(b->log, at + MULTI_HEADER + i * ITEM_SIZE,
               "raw counter item name out of range; item skipped");
      continue;
    }
    raw_cell cell = {.entry = entry,
                     .instance = inst,
                     .owned = inst,
                     .first = wire_le64(it + 8),
                     .second = wire_le64(it + 16),
                     .multi = wire_le32(it + 4),
                     .valid = status <= 1};
    if (cell.valid)
      take_clock(b, c, cell.second, at, warned);
    if (add_cell(b, cell) != 0)
      return -1;
  }
  return 0;
}

/* ------------------------------------------------ writing raw objects */

static void put_header(builder *b, const char *machine) {
  uint8_t *p = b->out;
  size_t name_len = 2 * (strlen(machine) + 1);
  memset(p, 0, PERF_HEADER);
  memcpy(p, "P\0E\0R\0F\0", 8);
  wire_put_le32(p + 8, 1);
  wire_put_le32(p + 12, 1);
  wire_put_le32(p + 16, 1);
  wire_put_le32(p + 32, 0xffffffffu); /* DefaultObject -1 */
  wire_put_le32(p + 80, (uint32_t)name_len);
  wire_put_le32(p + 84, PERF_HEADER);
}

/* The sample's header when no object block gave one: the machine's name
 * (ASCII-safe UTF-16 of the UTF-8 name) padded to 8. */
static int synth_header(builder *b, const char *machine) {
  size_t len = 0, cap = 0;
  uint8_t *name = NULL;
  if (blg_put_utf16(&name, &len, &cap, machine) != 0)
    return -1;
  size_t hl = (PERF_HEADER + len + 7) & ~(size_t)7;
  if (blg_room(b, hl) != 0) {
    free(name);
    return -1;
  }
  put_header(b, machine);
  wire_put_le32(b->out + 24, (uint32_t)hl);
  wire_put_le32(b->out + 80, (uint32_t)len);
  memcpy(b->out + PERF_HEADER, name, len);
  memset(b->out + PERF_HEADER + len, 0, hl - PERF_HEADER - len);
  free(name);
  b->len = hl;
  b->have_header = true;
  return 0;
}

/* ------------------------------------------------------------- sample */

/* The sample's records into b (blg.md 4.1). */
static int walk_records(builder *b, const uint8_t *r, size_t len, size_t at) {
  blg_log *log = b->log;
  size_t entry = 0;
  bool warned = false;
  for (size_t o = 8; o + 8 <= len; entry++) {
    uint32_t type = wire_le32(r + o);
    size_t rlen = wire_le32(r + o + 4);
    if (rlen < 8 || rlen > len - o) {
      blg_warn(log, at + o,
               "record length %zu out of range; rest of the "
               "sample skipped",
               rlen);
      break;
    }
    uint32_t kind = type >> 16;
    const blg_counter *c =
        entry < log->counter_count ? &log->counters[entry] : NULL;
    int rc = 0;
    if ((type & 0xffffu) != BL_WORD ||
        (kind != BL_SINGLE && kind != BL_MULTI && kind != BL_OBJECT)) {
      blg_warn(log, at + o, "unknown record type 0x%08x skipped", type);
    } else if (c == NULL) {
      blg_warn(log, at + o,
               "record beyond the catalog's %zu entries "
               "skipped",
               log->counter_count);
    } else if ((kind == BL_SINGLE) != (c->kind == BLG_ENTRY_SINGLE) ||
               (kind == BL_MULTI) != (c->kind == BLG_ENTRY_MULTI)) {
      blg_warn(log, at + o,
               "record type 0x%08x does not fit catalog entry "
               "%zu; skipped",
               type, entry);
    } else if (c->machine_id != b->machine) {
      /* another machine's */
    } else if (kind == BL_OBJECT) {
      rc = add_block(b, r + o + 8, rlen - 8, at + o);
    } else if (kind == BL_SINGLE) {
      rc = add_single(b, entry, r + o, rlen, at + o, &warned);
    } else {
      rc = add_multi(b, entry, r + o, rlen, at + o, &warned);
    }
    if (rc != 0)
      return -1;
    o += rlen;
  }
  return 0;
}

int blg_sample_blob(blg_log *log, size_t sample, size_t machine, uint8_t **out,
                    size_t *out_cap, size_t *out_len, wp_error *err) {
  if (sample >= log->sample_count || machine >= log->machine_count)
    return wp_error_set(err, "no sample %zu of machine %zu", sample, machine);
  const blg_sample_ref *s = &log->samples[sample];
  size_t at = log->events[s->first_event].payload, len = 0;
  for (uint32_t k = 0; k < s->parts; k++) {
    const blg_event *ev = &log->events[s->first_event + k];
    if (wp_grow_bytes(&log->record, &log->record_cap, len + ev->length,
                      (size_t)1 << 30) != WP_GROW_OK)
      return wp_error_nomem(err);
    memcpy(log->record + len, log->data + ev->payload, ev->length);
    len += ev->length;
  }
  blg_cells_reset(log);
  const uint8_t *r = log->record;
  if (len < 8 || wire_le32(r) != ((uint32_t)BL_SAMPLE << 16 | BL_WORD) ||
      wire_le32(r + 4) < 8 || wire_le32(r + 4) > len)
    return wp_error_set(err,
                        "offset 0x%zx: sample %zu is not a record of "
                        "records (0x%08x, %zu bytes)",
                        at, sample, len >= 4 ? wire_le32(r) : 0, len);
  builder b = {.log = log,
               .machine = machine,
               .utc = s->utc,
               .out = *out,
               .cap = *out_cap};
  int rc = walk_records(&b, r, wire_le32(r + 4), at);
  bool synthesized = rc == 0 && b.ncells > 0 && !b.have_header;
  if (synthesized)
    rc = synth_header(&b, log->machines[machine]);
  if (rc == 0 && b.ncells > 0)
    rc = blg_write_raw_objects(&b);
  for (size_t i = 0; i < b.ncells; i++)
    free(b.cells[i].owned);
  free(b.cells);
  *out = b.out, *out_cap = b.cap;
  if (rc != 0)
    return wp_error_nomem(err);
  if (!b.have_header) {
    *out_len = 0;
    return 0;
  }
  uint8_t *h = b.out;
  wire_put_le32(h + 20, (uint32_t)b.len);
  wire_put_le32(h + 28, b.objects);
  if (synthesized) { /* the raw counters' clocks (object blocks: theirs) */
    wire_put_le64(h + 56, (uint64_t)b.perf_time);
    wire_put_le64(h + 64, (uint64_t)b.perf_freq);
    wire_put_le64(h + 72,
                  (uint64_t)(b.have_100ns ? b.perf_time_100ns : s->utc));
  }
  *out_len = b.len;
  return 1;
}
