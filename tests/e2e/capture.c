/* collectd-winperf tests: writing replay captures.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "capture.h"
#include "encoder.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static void die(const char *what, const char *path) {
  fprintf(stderr, "capture: %s %s: %s\n", what, path, strerror(errno));
  exit(99);
}

void cap_mkdir(const char *dir) {
  if (mkdir(dir, 0755) != 0 && errno != EEXIST)
    die("cannot create", dir);
}

static void write_file(const char *path, const uint8_t *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (f == NULL)
    die("cannot open", path);
  if (len > 0 && fwrite(data, 1, len, f) != len)
    die("cannot write", path);
  if (fclose(f) != 0)
    die("cannot close", path);
}

typedef struct wbuf {
  uint8_t *data;
  size_t len, cap;
} wbuf;

/* Append an ASCII string as UTF-16LE with its NUL. */
static void put_utf16(wbuf *w, const char *s) {
  size_t n = strlen(s) + 1;
  if (w->len + 2 * n > w->cap) {
    w->cap = (w->len + 2 * n) * 2;
    w->data = realloc(w->data, w->cap);
    if (w->data == NULL) {
      fprintf(stderr, "capture: out of memory\n");
      exit(99);
    }
  }
  for (size_t i = 0; i < n; i++) {
    w->data[w->len++] = (uint8_t)s[i];
    w->data[w->len++] = 0;
  }
}

static int by_index(const void *a, const void *b) {
  const cap_name *x = a, *y = b;
  return x->index < y->index ? -1 : x->index > y->index;
}

void cap_write_names(const char *dir, const cap_name *names, size_t count) {
  cap_name *sorted = calloc(count ? count : 1, sizeof *sorted);
  wbuf w = {0};
  char num[16], path[4096];
  if (sorted == NULL)
    exit(99);
  memcpy(sorted, names, count * sizeof *sorted);
  qsort(sorted, count, sizeof *sorted, by_index);
  put_utf16(&w, "1");
  snprintf(num, sizeof num, "%u", count ? sorted[count - 1].index : 1u);
  put_utf16(&w, num);
  for (size_t i = 0; i < count; i++) {
    if (i > 0 && sorted[i].index == sorted[i - 1].index) {
      fprintf(stderr, "capture: name index %u twice\n", sorted[i].index);
      exit(99);
    }
    snprintf(num, sizeof num, "%u", sorted[i].index);
    put_utf16(&w, num);
    put_utf16(&w, sorted[i].name);
  }
  put_utf16(&w, ""); /* the empty string that ends a REG_MULTI_SZ */
  snprintf(path, sizeof path, "%s/names.multisz", dir);
  write_file(path, w.data, w.len);
  free(w.data);
  free(sorted);
}

void cap_write_blob(const char *dir, unsigned seq, const uint8_t *data,
                    size_t len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%04u.blob", dir, seq);
  write_file(path, data, len);
}

int64_t cap_filetime(int64_t unix_seconds) {
  /* 11644473600 s from 1601-01-01 to 1970-01-01. */
  return (unix_seconds + INT64_C(11644473600)) * INT64_C(10000000);
}

void cap_system_time(int64_t unix_seconds, uint16_t st[8]) {
  time_t t = (time_t)unix_seconds;
  struct tm tm;
  gmtime_r(&t, &tm);
  st[0] = (uint16_t)(tm.tm_year + 1900);
  st[1] = (uint16_t)(tm.tm_mon + 1);
  st[2] = (uint16_t)tm.tm_wday;
  st[3] = (uint16_t)tm.tm_mday;
  st[4] = (uint16_t)tm.tm_hour;
  st[5] = (uint16_t)tm.tm_min;
  st[6] = (uint16_t)tm.tm_sec;
  st[7] = 0;
}

uint64_t cap_rand(uint64_t *state) {
  uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

int64_t cap_between(uint64_t *state, int64_t lo, int64_t hi) {
  uint64_t span = (uint64_t)(hi - lo) + 1;
  return lo + (int64_t)(cap_rand(state) % span);
}

enc_blob *cap_blob_at(const char *system, int64_t t0, int k) {
  uint16_t st[8];
  enc_blob *b = enc_new(system);
  cap_system_time(t0 + k, st);
  enc_set_system_time(b, st);
  enc_set_clock(b, 1000000000 + (int64_t)k * 10000000, 10000000,
                cap_filetime(t0 + k));
  return b;
}

void cap_write_built(const char *dir, unsigned seq, enc_blob *b) {
  size_t len;
  uint8_t *blob = enc_build(b, &len);
  cap_write_blob(dir, seq, blob, len);
  free(blob);
  enc_free(b);
}

enc_blob *cap_sample_new(const char *system_name, int64_t t0, int k) {
  return cap_blob_at(system_name, t0, k);
}

void cap_sample_write(const char *dir, int k, enc_blob *b) {
  cap_write_built(dir, (unsigned)k, b);
}
