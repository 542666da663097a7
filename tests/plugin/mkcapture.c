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

#include "sample_capture.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: mkcapture OUTDIR\n");
    return 2;
  }
  const char *dir = argv[1];
  const int64_t t0 = ENC_SAMPLE_T0;
  enc_sample_write(dir, "1.blob", t0, 5000000, 42, false);
  size_t len;
  uint8_t *blob = enc_sample_blob(t0 + 10000000, 12500000, 42, false, &len);
  enc_write_file(dir, "2.blob", blob, len);
  enc_write_file(dir, "3.blob", blob, len < 200 ? len : 200);
  free(blob);
  enc_sample_write(dir, "4.blob", t0 + 30000000, 30500000, 43, true);
  uint8_t table[ENC_SAMPLE_NAMES_MAX];
  enc_write_file(dir, "names.multisz", table, enc_sample_names(table));
  return 0;
}
