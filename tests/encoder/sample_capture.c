/* collectd-winperf tests: the small capture the plugin tests replay
 * (sample_capture.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "sample_capture.h"

#include "encoder.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint8_t *enc_sample_blob(int64_t t100, uint64_t busy_timer, uint64_t processes,
                         bool extra, size_t *len) {
  enc_blob *b = enc_new_spec_vector();
  enc_set_clock(b, 123456789, 10000000, t100);
  enc_object *os = enc_blob_object(b, 0);
  enc_set_value(os, ENC_SINGLE, 0, processes);  /* 6: RAWCOUNT */
  enc_set_value(os, ENC_SINGLE, 1, busy_timer); /* 8: 100NSEC_TIMER */
  if (extra) {
    enc_object *om = enc_blob_object(b, 1);
    enc_set_value(om, enc_add_instance(om, "a/b"), 0, 3);
  }
  uint8_t *blob = enc_build(b, len);
  enc_free(b);
  return blob;
}

size_t enc_sample_names(uint8_t out[ENC_SAMPLE_NAMES_MAX]) {
  static const char *const names[] = {"1",  "12",        "2",  "System",
                                      "6",  "Processes", "8",  "% Busy Time",
                                      "10", "Queue",     "12", "Items"};
  size_t n = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    for (const char *p = names[i]; *p; p++) { /* ASCII -> UTF-16LE */
      out[n++] = (uint8_t)*p;
      out[n++] = 0;
    }
    out[n++] = 0;
    out[n++] = 0;
  }
  out[n++] = 0; /* the empty string that ends a REG_MULTI_SZ */
  out[n++] = 0;
  return n;
}

void enc_write_file(const char *dir, const char *name, const void *data,
                    size_t len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
    printf("Bail out! cannot write %s: %s\n", path, strerror(errno));
    exit(1);
  }
}

void enc_sample_write(const char *dir, const char *name, int64_t t100,
                      uint64_t busy_timer, uint64_t processes, bool extra) {
  size_t len = 0;
  uint8_t *blob = enc_sample_blob(t100, busy_timer, processes, extra, &len);
  enc_write_file(dir, name, blob, len);
  free(blob);
}
