/* collectd-winperf tests: the small capture the plugin smoke test replays.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * mkcapture OUTDIR writes:
 *   1.blob  format.md 1.8's test vector (byte for byte: the smoke test compares
 *           it with conf/sample/sample1.blob, typed in from the spec)
 *   2.blob  its second sample: PerfTime100nSec + 1e7, 100NSEC_TIMER 12.5e6
 *           (100 * 7.5e6 / 1e7 = 75 %)
 *   3.blob  2.blob cut to 200 bytes: malformed, the plugin skips it
 *   4.blob  PerfTime100nSec + 3e7, 100NSEC_TIMER 30.5e6 (paired with 2.blob:
 *           100 * 18e6 / 2e7 = 90 %), RAWCOUNT 43, and a new instance "a/b"
 *           of object 10 with Items 3
 *   names.multisz  1 "12", 2 System, 6 Processes, 8 "% Busy Time",
 *           10 Queue, 12 Items (UTF-16LE REG_MULTI_SZ, format.md 4.1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoder.h"
#include "perfdata.h"

#define T0 133485408000000000LL /* 2024-01-01 00:00:00 UTC */

static void write_bytes(const char *dir, const char *name, const void *data,
                        size_t len) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
    perror(path);
    exit(1);
  }
}

static uint8_t *sample(int64_t t100, uint64_t timer, uint64_t procs, bool extra,
                       size_t *len) {
  enc_blob *b = enc_new("PC");
  enc_set_clock(b, 123456789, 10000000, t100);
  enc_object *os = enc_add_object(b, 2, ENC_SINGLE_INSTANCE);
  uint32_t raw = enc_add_counter(os, 6, PD_COUNTER_RAWCOUNT);
  uint32_t tim = enc_add_counter(os, 8, PD_100NSEC_TIMER);
  enc_set_value(os, ENC_SINGLE, raw, procs);
  enc_set_value(os, ENC_SINGLE, tim, timer);
  enc_object *om = enc_add_object(b, 10, ENC_MULTI_INSTANCE);
  uint32_t c = enc_add_counter(om, 12, PD_COUNTER_RAWCOUNT);
  uint32_t t = enc_add_instance(om, "_Total");
  enc_set_value(om, t, c, 7);
  if (extra) {
    uint32_t ab = enc_add_instance(om, "a/b");
    enc_set_value(om, ab, c, 3);
  }
  uint8_t *blob = enc_build(b, len);
  enc_free(b);
  return blob;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: mkcapture OUTDIR\n");
    return 2;
  }
  const char *dir = argv[1];
  size_t len;
  uint8_t *blob = sample(T0, 5000000, 42, false, &len);
  write_bytes(dir, "1.blob", blob, len);
  free(blob);
  blob = sample(T0 + 10000000, 12500000, 42, false, &len);
  write_bytes(dir, "2.blob", blob, len);
  write_bytes(dir, "3.blob", blob, len < 200 ? len : 200);
  free(blob);
  blob = sample(T0 + 30000000, 30500000, 43, true, &len);
  write_bytes(dir, "4.blob", blob, len);
  free(blob);

  static const char *const names[] = {"1",  "12",        "2",  "System",
                                      "6",  "Processes", "8",  "% Busy Time",
                                      "10", "Queue",     "12", "Items"};
  uint8_t table[512];
  size_t n = 0;
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    for (const char *p = names[i]; *p; p++) { /* ASCII -> UTF-16LE */
      table[n++] = (uint8_t)*p;
      table[n++] = 0;
    }
    table[n++] = 0;
    table[n++] = 0;
  }
  table[n++] = 0; /* the empty string that ends a REG_MULTI_SZ */
  table[n++] = 0;
  write_bytes(dir, "names.multisz", table, n);
  return 0;
}
