/* collectd-winperf tests: the capture tests/e2e/reload.sh replays.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   reload_capture DIR T0   12 blobs, sample k at Unix time T0 + k
 *
 * Every blob holds every object, whatever the counter list asks for (a
 * capture holds what was captured), so an entry a reload adds finds its
 * object in the previous blob too. Clocks: PerfTime100nSec = T0 + k s,
 * PerfTime = 1e9 + k * 1e7 ticks at PerfFreq 1e7 (1 s between samples).
 * Raw values of sample k, and what the formatted values are (format.md 3):
 *   Memory  Pages/sec            COUNTER_COUNTER  2000 + 5 k (k + 1)
 *                                                 -> 10 k per second
 *           Available Bytes      LARGE_RAWCOUNT   1e9 + 1000 k
 *   System  Processes            RAWCOUNT         40 + k
 *           Threads              RAWCOUNT         500 + 2 k
 *           Context Switches/sec COUNTER_COUNTER  1000 + 10 k^2
 *                                                 -> 10 (2k - 1) per second
 *           System Calls/sec     COUNTER_COUNTER  5000 + 7 k^2
 *                                                 -> 7 (2k - 1) per second
 */
#include "capture.h"
#include "encoder.h"
#include "known_indices.h"
#include "perfdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cap_name names[] = {
    {WK_SYSTEM, "System"},
    {WK_MEMORY, "Memory"},
    {WK_PAGES_SEC, "Pages/sec"},
    {WK_CONTEXT_SWITCHES, "Context Switches/sec"},
    {WK_SYSTEM_CALLS, "System Calls/sec"},
    {WK_PROCESSES, "Processes"},
    {WK_THREADS, "Threads"},
    {WK_AVAILABLE_BYTES, "Available Bytes"},
};

#define K 12

static void counter(enc_object *o, uint32_t index, uint32_t type,
                    uint64_t value) {
  enc_set_value(o, ENC_SINGLE, enc_add_counter(o, index, type), value);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: reload_capture DIR T0\n");
    return 2;
  }
  const char *dir = argv[1];
  int64_t t0 = strtoll(argv[2], NULL, 10);
  cap_mkdir(dir);
  cap_write_names(dir, names, sizeof names / sizeof *names);
  for (uint64_t k = 0; k < K; k++) {
    enc_blob *b = enc_new("RELOAD");
    enc_set_clock(b, 1000000000 + (int64_t)k * 10000000, 10000000,
                  cap_filetime(t0 + (int64_t)k));
    enc_object *mem = enc_add_object(b, WK_MEMORY, ENC_SINGLE_INSTANCE);
    counter(mem, WK_PAGES_SEC, PD_COUNTER_COUNTER, 2000 + 5 * k * (k + 1));
    counter(mem, WK_AVAILABLE_BYTES, PD_COUNTER_LARGE_RAWCOUNT,
            1000000000 + 1000 * k);
    enc_object *sys = enc_add_object(b, WK_SYSTEM, ENC_SINGLE_INSTANCE);
    counter(sys, WK_PROCESSES, PD_COUNTER_RAWCOUNT, 40 + k);
    counter(sys, WK_THREADS, PD_COUNTER_RAWCOUNT, 500 + 2 * k);
    counter(sys, WK_CONTEXT_SWITCHES, PD_COUNTER_COUNTER, 1000 + 10 * k * k);
    counter(sys, WK_SYSTEM_CALLS, PD_COUNTER_COUNTER, 5000 + 7 * k * k);
    size_t len = 0;
    uint8_t *blob = enc_build(b, &len);
    if (blob == NULL) {
      fprintf(stderr, "reload_capture: cannot build blob %u\n", (unsigned)k);
      return 1;
    }
    cap_write_blob(dir, (unsigned)k, blob, len);
    free(blob);
    enc_free(b);
  }
  return 0;
}
