/* collectd-winperf: a .blg's counter catalog and name tables (doc/blg.md 3).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "blg_internal.h"

enum {
  CATALOG_HEADER = 8, /* two DWORDs before the first entry (blg.md 3.1) */
  ENTRY_HEADER = 52,  /* an entry's fixed part; its strings follow */
  FLAG_MULTI = 0x01,
  FLAG_OBJECT = 0x10,
  NO_STRING = 0xffffffffu,
};

/* The machine's index for `name`, adding it; -1 without memory or room. */
static int64_t machine_id(blg_log *log, const char *name) {
  for (size_t i = 0; i < log->machine_count; i++)
    if (pd_name_casecmp(log->machines[i], name) == 0)
      return (int64_t)i;
  if (log->machine_count >= BLG_MAX_MACHINES)
    return -1;
  if (WP_GROW(&log->machines, &log->machine_cap, log->machine_count + 1,
              BLG_MAX_MACHINES) != WP_GROW_OK)
    return -1;
  char *copy = strdup(name);
  if (copy == NULL)
    return -1;
  log->machines[log->machine_count] = copy;
  return (int64_t)log->machine_count++;
}

/* An entry's string at `rel` (from its strings' start s, bounded by end):
 * NULL (with *bad) when out of range; *nomem without memory. */
static char *entry_string(const uint8_t *d, size_t s, size_t end, uint32_t rel,
                          bool *bad, bool *nomem) {
  size_t next;
  if (rel >= end - s) {
    *bad = true;
    return NULL;
  }
  char *v = blg_utf16_string(d, s + rel, end, &next, nomem);
  if (v == NULL && !*nomem)
    *bad = true;
  return v;
}

static void counter_free_strings(blg_counter *c) {
  free((char *)c->machine);
  free((char *)c->object);
  free((char *)c->instance);
  free((char *)c->parent);
  free((char *)c->counter);
}

/* One catalog entry at d[e..e+len) (blg.md 3.2): 1 added, 0 skipped
 * (warned), -1 out of memory. */
static int read_entry(blg_log *log, const uint8_t *d, size_t e, size_t len,
                      size_t file_off) {
  blg_counter c = {.offset = file_off};
  c.flags = wire_le32(d + e + 4);
  c.type = wire_le32(d + e + 12);
  c.time_base = (int64_t)wire_le64(d + e + 16);
  c.scale = (int32_t)wire_le32(d + e + 24);
  c.instance_index = wire_le32(d + e + 44);
  c.kind = (c.flags & FLAG_OBJECT)  ? BLG_ENTRY_OBJECT
           : (c.flags & FLAG_MULTI) ? BLG_ENTRY_MULTI
                                    : BLG_ENTRY_SINGLE;
  size_t s = e + ENTRY_HEADER, end = e + len;
  bool bad = false, nomem = false;
  char *machine = entry_string(d, s, end, wire_le32(d + e + 28), &bad, &nomem);
  c.machine = machine;
  c.object = entry_string(d, s, end, wire_le32(d + e + 32), &bad, &nomem);
  c.counter = entry_string(d, s, end, wire_le32(d + e + 48), &bad, &nomem);
  uint32_t inst = wire_le32(d + e + 36), parent = wire_le32(d + e + 40);
  if (inst != NO_STRING)
    c.instance = entry_string(d, s, end, inst, &bad, &nomem);
  if (parent != NO_STRING)
    c.parent = entry_string(d, s, end, parent, &bad, &nomem);
  if (nomem) {
    counter_free_strings(&c);
    return -1;
  }
  if (bad || c.object[0] == '\0' || c.counter[0] == '\0') {
    blg_warn(log, file_off,
             "catalog entry with a name out of range or "
             "empty; skipped");
    counter_free_strings(&c);
    return 0;
  }
  /* "\\MACHINE" as logged; the machine is the name without them. */
  const char *m = machine;
  while (*m == '\\')
    m++;
  memmove(machine, m, strlen(m) + 1);
  int64_t id = machine_id(log, machine);
  int rc = WP_GROW(&log->counters, &log->counter_cap, log->counter_count + 1,
                   BLG_MAX_COUNTERS);
  if (id < 0 || rc != WP_GROW_OK) {
    counter_free_strings(&c);
    if (rc == WP_GROW_LIMIT || id < 0) {
      blg_warn(log, file_off,
               "more than %u catalog entries or %u machines; "
               "entry skipped",
               BLG_MAX_COUNTERS, BLG_MAX_MACHINES);
      return 0;
    }
    return -1;
  }
  c.machine_id = (size_t)id;
  log->counters[log->counter_count++] = c;
  return 1;
}

/* Map an offset in a reassembled buffer back to the file (for messages):
 * the events are the record's fragments. */
static size_t file_offset(const blg_log *log, size_t first, size_t rel) {
  for (size_t i = first; i < log->event_count; i++) {
    if (rel < log->events[i].length)
      return log->events[i].payload + rel;
    rel -= log->events[i].length;
  }
  return log->len;
}

/* The catalog's entries (reassembled from events[first..]). */
static int read_catalog(blg_log *log, size_t first, const uint8_t *d,
                        size_t len, wp_error *err) {
  if (len < CATALOG_HEADER) {
    blg_warn(log, log->events[first].offset, "catalog of %zu bytes skipped",
             len);
    return 0;
  }
  size_t e = CATALOG_HEADER;
  while (e + ENTRY_HEADER <= len) {
    size_t elen = wire_le32(d + e);
    if (elen == 0)
      break;
    if (elen < ENTRY_HEADER || elen > len - e) {
      blg_warn(log, file_offset(log, first, e),
               "catalog entry length %zu out of range; rest of the catalog "
               "skipped",
               elen);
      break;
    }
    if (read_entry(log, d, e, elen, file_offset(log, first, e)) < 0)
      return wp_error_nomem(err);
    e += elen;
  }
  return 0;
}

/* One name-table event: "\\MACHINE", then index/name pairs (blg.md 3.3),
 * appended to the log's REG_MULTI_SZ bytes (the first machine's only). */
static int read_names(blg_log *log, const blg_event *ev, char **first_machine,
                      wp_error *err) {
  const uint8_t *d = log->data;
  size_t o = ev->payload, end = ev->payload + ev->length, next;
  bool nomem = false;
  char *machine = blg_utf16_string(d, o, end, &next, &nomem);
  if (machine == NULL)
    return nomem ? wp_error_nomem(err) : 0;
  if (*first_machine == NULL) {
    *first_machine = machine;
  } else if (pd_name_casecmp(*first_machine, machine) != 0) {
    blg_warn(log, ev->offset, "name table of a second machine (%s) skipped",
             machine);
    free(machine);
    return 0;
  } else {
    free(machine);
  }
  /* Copy whole strings as they are (UTF-16LE), each with its NUL. */
  for (o = next; o + 2 <= end;) {
    size_t n = o;
    while (n + 2 <= end && (d[n] | d[n + 1]) != 0)
      n += 2;
    if (n + 2 > end || n == o)
      break; /* unterminated, or the empty string that ends the list */
    size_t need = log->names_len + (n + 2 - o);
    if (wp_grow_bytes(&log->names_bytes, &log->names_cap, need + 2,
                      (size_t)64 << 20) != WP_GROW_OK)
      return wp_error_set(err, "offset 0x%zx: name table above 64 MiB",
                          ev->offset);
    memcpy(log->names_bytes + log->names_len, d + o, n + 2 - o);
    log->names_len = need;
    o = n + 2;
  }
  return 0;
}

/* Reassemble the record of events[i..i+parts) into log->record. */
static int reassemble(blg_log *log, size_t i, size_t *len) {
  size_t parts = log->events[i].parts, total = 0;
  for (size_t k = 0; k < parts; k++) {
    const blg_event *ev = &log->events[i + k];
    if (wp_grow_bytes(&log->record, &log->record_cap, total + ev->length,
                      (size_t)1 << 30) != WP_GROW_OK)
      return -1;
    memcpy(log->record + total, log->data + ev->payload, ev->length);
    total += ev->length;
  }
  *len = total;
  return 0;
}

/* The fragments of the event at i: parts events of the same type numbered
 * 1..n in a row; 0 when they are not (a warning says so). */
static size_t whole_record(blg_log *log, size_t i) {
  const blg_event *ev = &log->events[i];
  if (ev->part != 1)
    return 0;
  if (log->event_count - i < ev->parts) {
    blg_warn(log, ev->offset,
             "record of %u fragments cut off by the end of "
             "the file",
             ev->parts);
    return 0;
  }
  for (uint32_t k = 1; k < ev->parts; k++) {
    const blg_event *f = &log->events[i + k];
    if (f->type != ev->type || f->part != k + 1 || f->parts != ev->parts) {
      blg_warn(log, f->offset, "fragment %u of %u expected, event skipped",
               k + 1, ev->parts);
      return 0;
    }
  }
  return ev->parts;
}

static int add_sample(blg_log *log, size_t i, uint32_t parts, wp_error *err) {
  int rc = WP_GROW(&log->samples, &log->sample_cap, log->sample_count + 1,
                   BLG_MAX_SAMPLES);
  if (rc != WP_GROW_OK)
    return wp_error_grow(err, rc, BLG_MAX_SAMPLES, "samples");
  int64_t local = log->events[i].time;
  log->samples[log->sample_count++] = (blg_sample_ref){
      .first_event = i,
      .parts = parts,
      .local = local,
      .utc = blg_local_to_utc(&log->info, local),
  };
  return 0;
}

int blg_read_catalog(blg_log *log, wp_error *err) {
  char *names_machine = NULL;
  bool catalog = false;
  int rc = 0;
  for (size_t i = 0; i < log->event_count && rc == 0;) {
    const blg_event *ev = &log->events[i];
    size_t parts = whole_record(log, i), len;
    if (parts == 0) {
      if (ev->part != 1 && i + 1 < log->event_count)
        blg_warn(log, ev->offset,
                 "fragment %u of %u without its first; "
                 "skipped",
                 ev->part, ev->parts);
      i++;
      continue;
    }
    if (ev->type == BLG_EVENT_NAMES) {
      for (size_t k = 0; k < parts && rc == 0; k++)
        rc = read_names(log, &log->events[i + k], &names_machine, err);
    } else if (ev->type == BLG_EVENT_CATALOG) {
      if (reassemble(log, i, &len) != 0)
        rc = wp_error_nomem(err);
      else if (!catalog)
        rc = read_catalog(log, i, log->record, len, err);
      else
        blg_warn(log, ev->offset, "second catalog skipped");
      catalog = true;
    } else if (!catalog) {
      blg_warn(log, ev->offset, "data before the catalog skipped");
    } else {
      rc = add_sample(log, i, (uint32_t)parts, err);
    }
    i += parts;
  }
  free(names_machine);
  if (rc != 0)
    return -1;
  if (!catalog)
    return wp_error_set(err, "offset 0x%zx: no counter catalog in the log",
                        log->event_count ? log->events[0].offset
                                         : (size_t)log->info.buffer_size);
  return 0;
}
