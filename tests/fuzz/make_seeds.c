/* collectd-winperf: write the fuzz seed corpora with the test encoder.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   make_seeds PERFDATA_DIR TEXT_DIR
 *
 * PERFDATA_DIR gets blob pairs in fuzz_perfdata's input format (2-byte LE
 * length of the older blob, the older blob, the newer blob); TEXT_DIR gets
 * name tables and counter paths for fuzz_text.
 */
#include "encoder.h"
#include "perfdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int write_file(const char *dir, const char *name, const uint8_t *a,
                      size_t alen, const uint8_t *b, size_t blen) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (f == NULL) {
    perror(path);
    return -1;
  }
  fwrite(a, 1, alen, f);
  if (b != NULL)
    fwrite(b, 1, blen, f);
  return fclose(f);
}

/* Two samples of one shape as a pair input. */
static int write_pair(const char *dir, const char *name, enc_blob *b,
                      enc_object *o, uint32_t counter) {
  size_t la, lb;
  uint8_t *a = enc_build(b, &la);
  uint32_t n = enc_object_instance_count(o);
  for (uint32_t i = 0; i < (n ? n : 1); i++)
    enc_set_value(o, i, counter, enc_get_value(o, i, counter) + 2500000);
  enc_set_clock(b, 223456789, 10000000, 133485408000000000 + 10000000);
  uint8_t *bb = enc_build(b, &lb);
  uint8_t hdr[2] = {(uint8_t)(la & 0xFF), (uint8_t)(la >> 8)};
  uint8_t *joined = malloc(2 + la);
  memcpy(joined, hdr, 2);
  memcpy(joined + 2, a, la);
  int rc = la < 65536 ? write_file(dir, name, joined, 2 + la, bb, lb) : 0;
  free(joined);
  free(a);
  free(bb);
  return rc;
}

static int processes(const char *dir, const char *name, bool big_endian,
                     unsigned quirks) {
  enc_blob *b = enc_new("HOST");
  enc_set_big_endian(b, big_endian);
  enc_set_quirks(b, quirks);
  enc_object *p = enc_add_object(b, 230, ENC_MULTI_INSTANCE);
  uint32_t cpu = enc_add_counter(p, 6, PD_100NSEC_TIMER);
  enc_add_counter(p, 784, PD_COUNTER_RAWCOUNT);
  enc_add_counter(p, 180, PD_COUNTER_LARGE_RAWCOUNT);
  const char *names[] = {"svchost", "svchost", "SVCHOST", "chrome (2)",
                         "_Total"};
  for (uint32_t i = 0; i < 5; i++) {
    uint32_t in = enc_add_instance(p, names[i]);
    enc_set_value(p, in, cpu, 1000 * i);
  }
  enc_object *t = enc_add_object(b, 232, ENC_MULTI_INSTANCE);
  uint32_t tc = enc_add_counter(t, 6, PD_100NSEC_TIMER);
  for (uint32_t i = 0; i < 3; i++) {
    uint32_t in = enc_add_instance(t, i == 2 ? NULL : "0");
    enc_instance_set_parent(t, in, 230, i);
    enc_instance_set_unique_id(t, in, (int32_t)i);
    enc_set_value(t, in, tc, 10 * i);
  }
  int rc = write_pair(dir, name, b, p, cpu);
  enc_free(b);
  return rc;
}

static int every_type(const char *dir) {
  static const uint32_t types[] = {
      PD_COUNTER_COUNTER,
      PD_COUNTER_TIMER,
      PD_COUNTER_QUEUELEN_TYPE,
      PD_COUNTER_LARGE_QUEUELEN_TYPE,
      PD_COUNTER_100NS_QUEUELEN_TYPE,
      PD_COUNTER_OBJ_TIME_QUEUELEN_TYPE,
      PD_COUNTER_BULK_COUNT,
      PD_COUNTER_RAWCOUNT,
      PD_COUNTER_LARGE_RAWCOUNT,
      PD_SAMPLE_FRACTION,
      PD_SAMPLE_BASE,
      PD_COUNTER_TIMER_INV,
      PD_AVERAGE_TIMER,
      PD_AVERAGE_BASE,
      PD_AVERAGE_BULK,
      PD_AVERAGE_BASE,
      PD_OBJ_TIME_TIMER,
      PD_100NSEC_TIMER_INV,
      PD_COUNTER_MULTI_TIMER,
      PD_COUNTER_MULTI_BASE,
      PD_100NSEC_MULTI_TIMER,
      PD_100NSEC_MULTI_TIMER_INV,
      PD_RAW_FRACTION,
      PD_RAW_BASE,
      PD_LARGE_RAW_FRACTION,
      PD_LARGE_RAW_BASE,
      PD_ELAPSED_TIME,
      PD_COUNTER_DELTA,
      PD_COUNTER_LARGE_DELTA,
      PD_PRECISION_100NS_TIMER,
      PD_PRECISION_TIMESTAMP,
      PD_COUNTER_TEXT,
      PD_COUNTER_NODATA,
      PD_COUNTER_HISTOGRAM_TYPE,
  };
  enc_blob *b = enc_new("TYPES");
  enc_object *o = enc_add_object(b, 500, ENC_SINGLE_INSTANCE);
  enc_object_set_clock(o, 50000000000, 10000000);
  uint32_t first = 0;
  for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
    uint32_t c = enc_add_counter(o, 502 + 2 * (uint32_t)i, types[i]);
    if (i == 0)
      first = c;
  }
  for (uint32_t c = 0; c < enc_object_counter_count(o); c++)
    enc_set_value(o, ENC_SINGLE, c, 1000 + 7 * c);
  int rc = write_pair(dir, "every-type", b, o, first);
  enc_free(b);
  return rc;
}

static int spec_vector(const char *dir) {
  /* The spec 1.8 vector, plus the shapes it lacks. */
  enc_blob *b = enc_new_spec_vector();
  enc_object *os = enc_blob_object(b, 0);
  uint32_t tim = 1;                          /* its 100NSEC_TIMER */
  enc_add_object(b, 20, ENC_MULTI_INSTANCE); /* zero instances */
  enc_object *meta = enc_add_object(b, 30, ENC_METADATA_MULTI);
  enc_add_counter(meta, 32, PD_COUNTER_COUNTER);
  enc_object *cp = enc_add_object(b, 40, ENC_MULTI_INSTANCE);
  enc_object_set_code_page(cp, 1252);
  uint32_t cc = enc_add_counter(cp, 42, PD_COUNTER_RAWCOUNT);
  enc_set_value(cp, enc_add_instance(cp, "caf\xc3\xa9"), cc, 1);
  int rc = write_pair(dir, "spec-vector", b, os, tim);
  enc_free(b);
  return rc;
}

static int text_seeds(const char *dir) {
  static const char *const paths[] = {
      "\\Processor(_Total)\\% Processor Time",
      "\\\\HOST\\Process(svchost#2)\\ID Process",
      "\\Thread(explorer/0)\\% Processor Time",
      "\\PhysicalDisk(0 C:)\\Avg. Disk sec/Read",
      "\\Process(w3wp*)\\*",
      "\\238(_Total)\\6",
      "\\Process(chrome (2))\\# of Exceps Thrown",
  };
  char name[32];
  for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
    snprintf(name, sizeof name, "path-%zu", i);
    if (write_file(dir, name, (const uint8_t *)paths[i], strlen(paths[i]), NULL,
                   0) != 0)
      return -1;
  }
  /* A Counter table: "1" "1847" "2" "System" "6" "% Processor Time" "". */
  static const char *const pairs[] = {"1",      "1847", "2",
                                      "System", "6",    "% Processor Time"};
  uint8_t table[256], *p = table;
  for (size_t i = 0; i < 6; i++) {
    for (const char *s = pairs[i]; *s; s++) {
      *p++ = (uint8_t)*s;
      *p++ = 0;
    }
    *p++ = 0;
    *p++ = 0;
  }
  *p++ = 0;
  *p++ = 0;
  return write_file(dir, "names-table", table, (size_t)(p - table), NULL, 0);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: make_seeds PERFDATA_DIR TEXT_DIR\n");
    return 2;
  }
  const char *dir = argv[1];
  if (spec_vector(dir) || every_type(dir) ||
      processes(dir, "processes-le", false, 0) ||
      processes(dir, "processes-be", true, 0) ||
      processes(dir, "processes-samba", false,
                ENC_QUIRK_SAMBA | ENC_QUIRK_STALE_PADDING) ||
      text_seeds(argv[2]))
    return 1;
  return 0;
}
