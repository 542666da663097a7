/* collectd-winperf tests: the small capture the plugin tests replay.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * format.md 1.8's test vector (enc_new_spec_vector) at other clocks and
 * values, and its name table, for tests/plugin/mkcapture.c (the collectd
 * smoke test's capture) and tests/alloc/test_alloc_plugin.c (the plugin's
 * read path under allocation failures). Part of libencoder.la.
 *
 * A sample: "PC", PerfTime 123456789, PerfFreq 1e7, PerfTime100nSec t100;
 *   object 2 (System), single instance: counter 6 (Processes, RAWCOUNT) =
 *   processes, counter 8 (% Busy Time, 100NSEC_TIMER) = busy_timer;
 *   object 10 (Queue): instance "_Total" with counter 12 (Items, RAWCOUNT)
 *   = 7, and with `extra` a second instance "a/b" with Items 3.
 * enc_sample_blob(ENC_SAMPLE_T0, 5000000, 42, false) is format.md 1.8's
 * 416 bytes exactly (conf/sample/sample1.blob).
 */
#ifndef WINPERF_TESTS_SAMPLE_CAPTURE_H
#define WINPERF_TESTS_SAMPLE_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* format.md 1.8's PerfTime100nSec: 2024-01-01 00:00:00 UTC. */
#define ENC_SAMPLE_T0 133485408000000000LL

/* The sample's blob, malloc'ed (free() it), its length in *len. */
uint8_t *enc_sample_blob(int64_t t100, uint64_t busy_timer, uint64_t processes,
                         bool extra, size_t *len);

/* The name table for the samples as REG_MULTI_SZ UTF-16LE (format.md 4.1):
 * 1 "12", 2 System, 6 Processes, 8 "% Busy Time", 10 Queue, 12 Items.
 * Written into out (ENC_SAMPLE_NAMES_MAX bytes suffice); returns its
 * length. */
#define ENC_SAMPLE_NAMES_MAX 512
size_t enc_sample_names(uint8_t out[ENC_SAMPLE_NAMES_MAX]);

/* Write len bytes to DIR/NAME; on failure print "Bail out! cannot write
 * PATH" (a TAP abort, also plain enough for a tool) and exit(1). */
void enc_write_file(const char *dir, const char *name, const void *data,
                    size_t len);

/* enc_sample_blob written to DIR/NAME. */
void enc_sample_write(const char *dir, const char *name, int64_t t100,
                      uint64_t busy_timer, uint64_t processes, bool extra);

#ifdef __cplusplus
}
#endif

#endif
