/* collectd-winperf: a .blg's ETW buffers, its log header and its PDH events
 * (doc/blg.md 2).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The file is a sequence of equal buffers. The first starts with the
 * logfile header event (a SYSTEM_TRACE_HEADER and TRACE_LOGFILE_HEADER);
 * every buffer holds 8-byte aligned events up to its used length, each a
 * FULL_HEADER (32- or 64-bit) carrying PDH's event GUID. Every field is
 * read at its offset and checked against the buffer before use.
 */
#include "blg_internal.h"

enum {
  BUFFER_HEADER = 0x48, /* WMI_BUFFER_HEADER (blg.md 2.1) */
  BUFFER_USED = 0x30,   /* its used-bytes field */
  SYSTEM_HEADER = 32,   /* SYSTEM_TRACE_HEADER before the log header */
  FULL_HEADER = 48,     /* EVENT_TRACE_HEADER of a PDH event */
  HEADER_TYPE_SYSTEM32 = 0x01,
  HEADER_TYPE_SYSTEM64 = 0x02,
  HEADER_TYPE_FULL32 = 0x0a,
  HEADER_TYPE_FULL64 = 0x14,
  MARKER_FLAGS = 0xc0,
  TZI_SIZE = 172,
  PAYLOAD_PREFIX = 24, /* session GUID, fragment i, fragment n */
  MIN_BUFFER = 1024,
  MAX_BUFFER = 16 << 20,
};

/* {933f3bb3-943e-490d-9ced-3cbb14c14479} as the bytes of an event header
 * (blg.md 2.3). */
static const uint8_t pdh_guid[16] = {0xb3, 0x3b, 0x3f, 0x93, 0x3e, 0x94,
                                     0x0d, 0x49, 0x9c, 0xed, 0x3c, 0xbb,
                                     0x14, 0xc1, 0x44, 0x79};

static void read_systemtime(const uint8_t *p, uint16_t out[8]) {
  for (int i = 0; i < 8; i++)
    out[i] = wire_le16(p + 2 * i);
}

/* A fixed WCHAR[32] name as UTF-8 (malloc'ed); NULL without memory. */
static char *fixed_name(const uint8_t *p) {
  size_t next;
  bool nomem = false;
  char *s = blg_utf16_string(p, 0, 64, &next, &nomem);
  if (s == NULL && !nomem)
    s = strdup(""); /* no NUL in 32 characters: not a name we can show */
  return s;
}

/* The TIME_ZONE_INFORMATION at tz (blg.md 2.2). */
static int read_zone(blg_log *log, const uint8_t *tz, wp_error *err) {
  blg_info *in = &log->info;
  in->tz_bias = (int32_t)wire_le32(tz);
  log->tz_std = fixed_name(tz + 4);
  read_systemtime(tz + 68, in->tz_standard_date);
  in->tz_standard_bias = (int32_t)wire_le32(tz + 84);
  log->tz_dst = fixed_name(tz + 88);
  read_systemtime(tz + 152, in->tz_daylight_date);
  in->tz_daylight_bias = (int32_t)wire_le32(tz + 168);
  if (log->tz_std == NULL || log->tz_dst == NULL)
    return wp_error_nomem(err);
  in->tz_standard_name = log->tz_std;
  in->tz_daylight_name = log->tz_dst;
  return 0;
}

/* The logfile header event of the first buffer (blg.md 2.2). */
static int read_log_header(blg_log *log, size_t used, wp_error *err) {
  const uint8_t *d = log->data;
  size_t h = BUFFER_HEADER;
  if (d[h + 2] != HEADER_TYPE_SYSTEM32 && d[h + 2] != HEADER_TYPE_SYSTEM64)
    return wp_error_set(err,
                        "offset 0x%zx: not a .blg: the first event is "
                        "not a logfile header (header type 0x%02x)",
                        h, d[h + 2]);
  size_t lh = h + SYSTEM_HEADER, size = wire_le16(d + h + 4);
  blg_info *in = &log->info;
  if (size < SYSTEM_HEADER + 56 || h + size > used)
    return wp_error_set(err,
                        "offset 0x%zx: logfile header event of %zu "
                        "bytes does not fit its buffer",
                        h, size);
  in->os_major = d[lh + 4];
  in->os_minor = d[lh + 5];
  in->os_build = wire_le32(d + lh + 8);
  in->pointer_size = wire_le32(d + lh + 44);
  if (in->pointer_size != 4 && in->pointer_size != 8)
    return wp_error_set(err,
                        "offset 0x%zx: logfile header pointer size %u "
                        "(expected 4 or 8)",
                        lh + 44, in->pointer_size);
  size_t tz = lh + 56 + 2 * (size_t)in->pointer_size;
  /* the zone, then 4 bytes of padding and BootTime, PerfFreq, StartTime,
   * two DWORDs, and the logger and file names */
  size_t names = tz + TZI_SIZE + 4 + 32;
  if (names > h + size)
    return wp_error_set(err,
                        "offset 0x%zx: logfile header event of %zu "
                        "bytes too short for its time zone",
                        h, size);
  if (read_zone(log, d + tz, err) != 0)
    return -1;
  size_t next;
  bool nomem = false;
  char *logger = blg_utf16_string(d, names, h + size, &next, &nomem);
  if (logger != NULL)
    log->log_name = blg_utf16_string(d, next, h + size, &next, &nomem);
  free(logger);
  if (nomem)
    return wp_error_nomem(err);
  in->log_file_name = log->log_name ? log->log_name : "";
  return 0;
}

/* One PDH event at buffer offset o (its header checked by the caller). */
static int add_event(blg_log *log, size_t at, size_t size, wp_error *err) {
  const uint8_t *d = log->data;
  if (memcmp(d + at + 0x18, pdh_guid, sizeof pdh_guid) != 0) {
    blg_warn(log, at, "event of another provider skipped");
    return 0;
  }
  if (size < FULL_HEADER + PAYLOAD_PREFIX) {
    blg_warn(log, at, "PDH event of %zu bytes too short, skipped", size);
    return 0;
  }
  uint8_t type = d[at + 4];
  if (type != BLG_EVENT_CATALOG && type != BLG_EVENT_DATA &&
      type != BLG_EVENT_NAMES) {
    blg_warn(log, at, "unknown PDH event type 0x%02x skipped", type);
    return 0;
  }
  size_t p = at + FULL_HEADER;
  blg_event ev = {
      .offset = at,
      .payload = p + PAYLOAD_PREFIX,
      .length = size - FULL_HEADER - PAYLOAD_PREFIX,
      .type = type,
      .part = wire_le32(d + p + 16),
      .parts = wire_le32(d + p + 20),
      .time = (int64_t)wire_le64(d + at + 0x10),
  };
  if (ev.parts == 0 || ev.parts > BLG_MAX_FRAGMENTS || ev.part == 0 ||
      ev.part > ev.parts) {
    blg_warn(log, at, "PDH event fragment %u of %u skipped", ev.part, ev.parts);
    return 0;
  }
  int rc = WP_GROW(&log->events, &log->event_cap, log->event_count + 1,
                   (size_t)BLG_MAX_SAMPLES * 4);
  if (rc != WP_GROW_OK)
    return wp_error_grow(err, rc, (size_t)BLG_MAX_SAMPLES * 4, "events");
  log->events[log->event_count++] = ev;
  return 0;
}

/* The events of the buffer at `base` (blg.md 2.1). */
static int read_buffer(blg_log *log, size_t base, size_t bsize, bool first,
                       wp_error *err) {
  const uint8_t *d = log->data;
  size_t used = wire_le32(d + base + BUFFER_USED);
  if (used < BUFFER_HEADER || used > bsize) {
    blg_warn(log, base + BUFFER_USED,
             "buffer used length %zu out of range; buffer skipped", used);
    return 0;
  }
  size_t o = BUFFER_HEADER;
  if (first) { /* the logfile header event comes first */
    size_t size = wire_le16(d + base + o + 4);
    o += (size + 7) & ~(size_t)7;
  }
  while (o + 8 <= used) {
    size_t at = base + o, size = wire_le16(d + at);
    uint8_t ht = d[at + 2], flags = d[at + 3];
    if (size == 0)
      break;
    if (size < 8 || o + size > used) {
      blg_warn(log, at,
               "event of %zu bytes runs past its buffer's %zu used "
               "bytes; rest of the buffer skipped",
               size, used);
      break;
    }
    if ((flags & MARKER_FLAGS) == MARKER_FLAGS &&
        (ht == HEADER_TYPE_FULL32 || ht == HEADER_TYPE_FULL64) &&
        size >= FULL_HEADER) {
      if (add_event(log, at, size, err) != 0)
        return -1;
    } else {
      blg_warn(log, at, "event header type 0x%02x skipped", ht);
    }
    o += (size + 7) & ~(size_t)7;
  }
  return 0;
}

int blg_read_container(blg_log *log, wp_error *err) {
  const uint8_t *d = log->data;
  if (log->len < BUFFER_HEADER + SYSTEM_HEADER + 56)
    return wp_error_set(err,
                        "offset 0x0: not a .blg: %zu bytes, shorter "
                        "than a log header",
                        log->len);
  size_t bsize = wire_le32(d);
  if (bsize < MIN_BUFFER || bsize > MAX_BUFFER || bsize % 8 != 0)
    return wp_error_set(err,
                        "offset 0x0: not a Vista-or-later .blg: buffer "
                        "size %zu",
                        bsize);
  if (d[BUFFER_HEADER + 3] != MARKER_FLAGS)
    return wp_error_set(err,
                        "offset 0x%x: not a .blg: no event trace "
                        "marker at the first event",
                        BUFFER_HEADER);
  size_t used = wire_le32(d + BUFFER_USED);
  if (used > bsize || used > log->len)
    return wp_error_set(err,
                        "offset 0x%x: first buffer's used length %zu "
                        "out of range",
                        BUFFER_USED, used);
  if (read_log_header(log, used, err) != 0)
    return -1;
  log->info.buffer_size = (uint32_t)bsize;
  size_t whole = log->len / bsize;
  if (log->len % bsize != 0)
    blg_warn(log, whole * bsize,
             "file ends inside a buffer (%zu of %zu bytes); read up to the "
             "last whole buffer",
             log->len % bsize, bsize);
  for (size_t b = 0; b < whole; b++)
    if (read_buffer(log, b * bsize, bsize, b == 0, err) != 0)
      return -1;
  return 0;
}
