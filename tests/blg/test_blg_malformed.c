/* collectd-winperf: hostile .blg files (doc/blg.md 6): not a log, cut
 * anywhere, unknown kinds, lengths and counts out of range, and byte flips
 * over both record kinds of the fixture and of the real logs. Every case
 * must end in a clear error or warning naming an offset, never in a crash
 * (run under ASan/UBSan in the sanitizer build), and what can be read
 * still is.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "blg.h"
#include "blg_file.h"
#include "tap.h"

#include <stdlib.h>

static uint8_t *load(const char *name, size_t *len) {
  const char *top = getenv("top_srcdir");
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/data/blg/%s", top ? top : ".", name);
  uint8_t *data;
  wp_error err;
  return blg_read_file(path, &data, len, &err) == 0 ? data : NULL;
}

/* The flips build only the first samples: the bytes they change are in
 * the first buffers. */
static size_t max_samples = SIZE_MAX;

/* Open and build every sample of every machine, decoding each blob;
 * returns the samples whose blob decoded (-1: the open failed). */
static long exercise(const uint8_t *data, size_t len, wp_error *err,
                     size_t *warnings) {
  uint8_t *copy = malloc(len ? len : 1);
  memcpy(copy, data, len);
  blg_log *log = blg_open(copy, len, err);
  if (log == NULL) {
    free(copy);
    return -1;
  }
  pd_snapshot *snap = pd_snapshot_new();
  uint8_t *buf = NULL;
  size_t cap = 0, blen;
  long good = 0;
  wp_error e2;
  for (size_t s = 0; s < blg_sample_count(log) && s < max_samples; s++)
    for (size_t m = 0; m < blg_machine_count(log); m++) {
      pd_error perr;
      if (blg_sample_blob(log, s, m, &buf, &cap, &blen, &e2) == 1 &&
          pd_decode(snap, buf, blen, NULL, &perr) == PD_OK)
        good++;
    }
  if (warnings)
    *warnings = blg_warning_count(log);
  free(buf);
  pd_snapshot_free(snap);
  blg_close(log);
  free(copy);
  return good;
}

static bool has_offset(const char *msg) {
  return strstr(msg, "offset 0x");
}

static void not_a_log(void) {
  wp_error err;
  const uint8_t text[] = "\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\HOST\\Memory\"\r\n";
  IS_INT(exercise(text, sizeof text, &err, NULL), -1, "a CSV is refused");
  OK(has_offset(err.message) && strstr(err.message, "not a"),
     "... with the offset and 'not a .blg': %s", err.message);
  uint8_t zero[4096] = {0};
  IS_INT(exercise(zero, sizeof zero, &err, NULL), -1, "zeros are refused");
  OK(has_offset(err.message), "... naming an offset: %s", err.message);
  IS_INT(exercise(zero, 0, &err, NULL), -1, "an empty file is refused");
  size_t len;
  uint8_t *d = load("fixture-both-kinds.blg", &len);
  if (d == NULL)
    return;
  d[0x48 + 2] = 0x0a; /* the first event is not a logfile header */
  IS_INT(exercise(d, len, &err, NULL), -1, "no logfile header: refused");
  OK(strstr(err.message, "offset 0x48") != NULL, "... at 0x48: %s",
     err.message);
  free(d);
}

/* Cut the file at many points: whole samples only, never a crash. */
static void truncated(const char *name, long whole) {
  size_t len;
  uint8_t *d = load(name, &len);
  if (d == NULL)
    return;
  long prev = 0;
  bool monotonic = true, within = true;
  size_t step = len / 97 + 1;
  for (size_t cut = 0; cut <= len; cut += step) {
    wp_error err;
    long got = exercise(d, cut, &err, NULL);
    if (got < 0)
      continue;
    monotonic &= got >= prev;
    within &= got <= whole;
    prev = got;
  }
  OK(monotonic && within,
     "%s: cut at 98 points, read up to the last whole "
     "sample (never more than %ld)",
     name, whole);
  free(d);
}

/* A cut inside a buffer: the whole buffers are read, a warning says where. */
static void cut_in_buffer(void) {
  size_t len;
  uint8_t *d = load("tx-BasicPerfCounters.blg", &len);
  if (d == NULL)
    return;
  wp_error err;
  blg_log *log = blg_open(d, 3 * 65536 + 1000, &err);
  if (OK(log != NULL, "tx cut inside its 4th buffer opens")) {
    /* buffer 1 holds the catalog and 125 samples, 2 and 3 125 each */
    OK(blg_sample_count(log) > 200 && blg_sample_count(log) < 601,
       "... with the samples of the whole buffers (%zu)",
       blg_sample_count(log));
    const blg_warning *w = blg_warning_at(log, 0);
    OK(w && w->offset == 0x30000 && strstr(w->message, "ends inside"),
       "... and a warning at 0x30000: %s", w ? w->message : "(none)");
    blg_close(log);
  }
  free(d);
}

/* The first event of `type` in the fixture (its offset), 0 if none. */
static size_t find_event(const uint8_t *d, size_t len, uint8_t type) {
  for (size_t o = 0x48; o + 48 <= len; o += 8)
    if (d[o + 2] == 0x14 && d[o + 3] == 0xc0 && d[o + 4] == type)
      return o;
  return 0;
}

static void kinds(void) {
  size_t len;
  uint8_t *d = load("fixture-both-kinds.blg", &len);
  if (d == NULL)
    return;
  wp_error err;
  size_t warnings = 0;
  long whole = exercise(d, len, &err, &warnings);
  IS_INT(whole, 3, "fixture: 3 good samples");
  /* an unknown record kind: the single raw record's "BL" 0x0103 -> 0x0903 */
  uint8_t *m = malloc(len);
  memcpy(m, d, len);
  size_t hits = 0;
  for (size_t o = 0; o + 4 <= len; o++)
    if (memcmp(m + o, "BL\x03\x01", 4) == 0)
      m[o + 3] = 0x09, hits++;
  blg_log *log = blg_open(m, len, &err);
  if (OK(log && hits == 3, "fixture with 3 unknown records opens")) {
    uint8_t *buf = NULL;
    size_t cap = 0, blen;
    pd_snapshot *snap = pd_snapshot_new();
    pd_error perr;
    OK(blg_sample_blob(log, 0, 0, &buf, &cap, &blen, &err) == 1 &&
           pd_decode(snap, buf, blen, NULL, &perr) == PD_OK,
       "... its other records still make a blob that decodes");
    const blg_warning *w = blg_warning_at(log, 0);
    OK(w && strstr(w->message, "unknown record type 0x09034c42") &&
           w->offset > 0 && w->offset < len,
       "... the skipped record named with its offset (0x%zx): %s",
       w ? w->offset : 0, w ? w->message : "(none)");
    free(buf);
    pd_snapshot_free(snap);
    blg_close(log);
  }
  /* an unknown event kind */
  memcpy(m, d, len);
  size_t ev = find_event(m, len, 0x22);
  m[ev + 4] = 0x99;
  log = blg_open(m, len, &err);
  if (OK(log != NULL, "fixture with an unknown event kind opens")) {
    char want[64];
    snprintf(want, sizeof want, "0x99");
    const blg_warning *w = blg_warning_at(log, 0);
    OK(w && w->offset == ev && strstr(w->message, want),
       "... warned at its offset 0x%zx: %s", ev, w ? w->message : "(none)");
    blg_close(log);
  }
  /* the catalog's first entry claims 1 GB: the rest is skipped, warned */
  memcpy(m, d, len);
  size_t cat = find_event(m, len, 0x20);
  memcpy(m + cat + 48 + 24 + 8, "\0\0\0\x40", 4);
  log = blg_open(m, len, &err);
  OK(log == NULL && has_offset(err.message),
     "a catalog without a usable entry: refused with an offset: %s",
     log ? "(opened)" : err.message);
  blg_close(log);
  /* a multi record claiming 2^31 items */
  memcpy(m, d, len);
  for (size_t o = 0; o + 16 <= len; o++)
    if (memcmp(m + o, "BL\x03\x02", 4) == 0)
      memcpy(m + o + 12, "\0\0\0\x80", 4);
  size_t w2 = 0;
  long got = exercise(m, len, &err, &w2);
  OK(got == 3 && w2 >= 1,
     "raw items with a huge count: skipped with a "
     "warning, the samples still read (%ld, %zu)",
     got, w2);
  free(m);
  free(d);
}

/* Every byte of a region flipped in turn (three patterns). */
static void flips(const char *name, size_t from, size_t to, size_t stride) {
  size_t len;
  uint8_t *d = load(name, &len);
  if (d == NULL)
    return;
  if (to > len)
    to = len;
  size_t opened = 0, runs = 0;
  max_samples = 4;
  const uint8_t pattern[3] = {0xff, 0x80, 0x01};
  for (size_t o = from; o < to; o += stride)
    for (int p = 0; p < 3; p++) {
      uint8_t keep = d[o];
      d[o] ^= pattern[p];
      wp_error err;
      opened += exercise(d, len, &err, NULL) >= 0;
      runs++;
      d[o] = keep;
    }
  max_samples = SIZE_MAX;
  OK(runs > 0, "%s: %zu byte flips in [0x%zx, 0x%zx), %zu opened, no crash",
     name, runs, from, to, opened);
  free(d);
}

int main(void) {
  not_a_log();
  truncated("fixture-both-kinds.blg", 3);
  truncated("tx-BasicPerfCounters.blg", 601);
  truncated("pal-SampleLog.blg", 11);
  cut_in_buffer();
  kinds();
  /* both record kinds of the fixture: the whole file, every other byte */
  flips("fixture-both-kinds.blg", 0, 4096, 2);
  /* Windows 8: the log header, the catalog, the first raw samples */
  flips("tx-BasicPerfCounters.blg", 0, 0x300, 3);
  flips("tx-BasicPerfCounters.blg", 0x10000, 0x10700, 3);
  /* Vista: the catalog and the first whole-object sample's blocks */
  flips("pal-SampleLog.blg", 0x2a050, 0x2b300, 5);
  printf("1..%d\n", tap_count);
  return tap_failed ? 1 : 0;
}
