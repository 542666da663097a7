/* collectd-winperf tests: the captures the end-to-end tests replay.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   e2e_capture exact DIR T0   12 blobs, sample k at Unix time T0 + k
 *   e2e_capture churn DIR N    N blobs of instances coming and going
 *   e2e_capture self DIR       6 blobs of one shape, blob 3 truncated: the
 *                              self-metrics and missing-counter tests
 *
 * "exact": every raw value is chosen so the formatted value is a round
 * number computed by hand (format.md 3); tests/e2e/graphite-influx.sh holds the
 * expected table. Clocks: PerfTime100nSec = T0 + k seconds, PerfTime =
 * 1e9 + k * 1e7 ticks at PerfFreq 1e7, so dD = 1 s between neighbours.
 * Blob 6 is truncated in the middle of its last object (malformed): the
 * plugin must skip it and pair blob 7 with blob 5 (dD = 2 s). Blob 3 resets
 * Pages/sec (its raw value goes backwards): no value that interval.
 */
#include "capture.h"
#include "encoder.h"
#include "known_indices.h"
#include "perfdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cap_name exact_names[] = {
    {WK_MEMORY, "Memory"},
    {WK_PROCESSOR_TIME, "% Processor Time"},
    {WK_PAGES_SEC, "Pages/sec"},
    {WK_WORKING_SET, "Working Set"},
    {WK_DISK_SEC_READ, "Avg. Disk sec/Read"},
    {WK_PROCESS, "Process"},
    {WK_LOGICALDISK, "LogicalDisk"},
    {WK_PROCESSOR, "Processor"},
    {WK_ID_PROCESS, "ID Process"},
    {WK_AVAILABLE_BYTES, "Available Bytes"},
    {WK_COMMITTED_IN_USE, "% Committed Bytes In Use"},
    {WK_COMMITTED_IN_USE_BASE, "% Committed Bytes In Use Base"},
    {WK_DISK_SEC_READ_BASE, "Avg. Disk sec/Read Base"},
};

#define K 12
#define MALFORMED 6

/* Per-interval deltas (index k = change from sample k-1 to k; [0] unused).
 * The expected value of interval k is computed from them by hand in the
 * comments; interval 7 pairs with 5, so its delta is [6] + [7] over 2 s. */

/* Processor(0) idle time, 100 ns (100NSEC_TIMER_INV: 100 (1 - dN/dD)):
 * 30 75 0 10 50 - 25 12.5 40 100 60 */
static const int64_t cpu0_idle[K] = {0,       7000000, 2500000,  10000000,
                                     9000000, 5000000, 10000000, 5000000,
                                     8750000, 6000000, 0,        4000000};
/* Memory Pages/sec raw (COUNTER_COUNTER, dN / (dPerfTime / PerfFreq)):
 * 300 150 (reset: none) 200 100 - 250 0 40 1200 7 */
static const uint32_t pages[K] = {1000, 1300, 1450, 50,  250,  350,
                                  600,  850,  850,  890, 2090, 2097};
/* LogicalDisk(C:) Avg. Disk sec/Read (AVERAGE_TIMER, (dN / PerfFreq) / dB):
 * 0.003 0 0.0025 0.0005 0.05 - 0.0008 0.004 0.01 0 0.00025 */
static const uint32_t disk_ticks[K] = {0,        3000000, 0,       1000000,
                                       2000000,  500000,  3000000, 5000000,
                                       12000000, 700000,  0,       2500000};
static const uint32_t disk_reads[K] = {0,   100, 0,   40, 400, 1,
                                       500, 500, 300, 7,  0,   1000};
/* Process % Processor Time (100NSEC_TIMER, 100 dN / dD). svchost:
 * 10 20 5 0 30 - 20 150 10 2.5 100 */
static const int64_t svchost_cpu[K] = {0,        1000000, 2000000, 500000,
                                       0,        3000000, 1000000, 3000000,
                                       15000000, 1000000, 250000,  10000000};
/* svchost#1: 5 10 15 20 25 - 30 35 40 45 50 */
static const int64_t svchost1_cpu[K] = {0,       500000,  1000000, 1500000,
                                        2000000, 2500000, 3000000, 3000000,
                                        3500000, 4000000, 4500000, 5000000};
/* oldproc (samples 0-4 only): 70 60 50 40 */
static const int64_t oldproc_cpu[5] = {0, 7000000, 6000000, 5000000, 4000000};
/* newproc (samples 8-11 only): first sample none, then 30 60 90 */
static const int64_t newproc_cpu[K] = {0, 0, 0, 0,       0,       0,
                                       0, 0, 0, 3000000, 6000000, 9000000};

static void exact(const char *dir, int64_t t0) {
  int64_t cpu0 = 5000000000, total = 5000000000;
  int64_t sv = 700000000, sv1 = 300000000, old = 200000000, newp = 90000000;
  uint32_t ticks = 1000000, reads = 10;

  cap_mkdir(dir);
  cap_write_names(dir, exact_names, sizeof exact_names / sizeof *exact_names);
  for (int k = 0; k < K; k++) {
    uint16_t st[8];
    enc_blob *b = enc_new("E2EHOST");
    cap_system_time(t0 + k, st);
    enc_set_system_time(b, st);
    enc_set_clock(b, 1000000000 + (int64_t)k * 10000000, 10000000,
                  cap_filetime(t0 + k));

    cpu0 += cpu0_idle[k];
    total += k > 0 ? 5000000 : 0; /* _Total: always 50 % */
    ticks += disk_ticks[k];
    reads += disk_reads[k];
    sv += svchost_cpu[k];
    sv1 += svchost1_cpu[k];
    if (k < 5)
      old += oldproc_cpu[k];
    newp += newproc_cpu[k];

    enc_object *mem = enc_add_object(b, WK_MEMORY, ENC_SINGLE_INSTANCE);
    uint32_t avail =
        enc_add_counter(mem, WK_AVAILABLE_BYTES, PD_COUNTER_LARGE_RAWCOUNT);
    uint32_t pg = enc_add_counter(mem, WK_PAGES_SEC, PD_COUNTER_COUNTER);
    uint32_t frac = enc_add_counter(mem, WK_COMMITTED_IN_USE, PD_RAW_FRACTION);
    uint32_t base = enc_add_counter(mem, WK_COMMITTED_IN_USE_BASE, PD_RAW_BASE);
    /* 6 GiB + k MiB: above 2^32, so a 32-bit truncation would show. */
    enc_set_value(mem, ENC_SINGLE, avail, 6442450944u + (uint64_t)k * 1048576);
    enc_set_value(mem, ENC_SINGLE, pg, pages[k]);
    /* RAW_FRACTION 100 N / B: 12.5 + 2.5 k */
    enc_set_value(mem, ENC_SINGLE, frac, 25 + 5 * (uint64_t)k);
    enc_set_value(mem, ENC_SINGLE, base, 200);

    enc_object *cpu = enc_add_object(b, WK_PROCESSOR, ENC_MULTI_INSTANCE);
    uint32_t pt = enc_add_counter(cpu, WK_PROCESSOR_TIME, PD_100NSEC_TIMER_INV);
    uint32_t i0 = enc_add_instance(cpu, "0");
    uint32_t it = enc_add_instance(cpu, "_Total");
    enc_set_value(cpu, i0, pt, (uint64_t)cpu0);
    enc_set_value(cpu, it, pt, (uint64_t)total);

    enc_object *ld = enc_add_object(b, WK_LOGICALDISK, ENC_MULTI_INSTANCE);
    uint32_t dt = enc_add_counter(ld, WK_DISK_SEC_READ, PD_AVERAGE_TIMER);
    uint32_t db = enc_add_counter(ld, WK_DISK_SEC_READ_BASE, PD_AVERAGE_BASE);
    uint32_t ic = enc_add_instance(ld, "C:");
    uint32_t itot = enc_add_instance(ld, "_Total");
    enc_set_value(ld, ic, dt, ticks);
    enc_set_value(ld, ic, db, reads);
    enc_set_value(ld, itot, dt, ticks);
    enc_set_value(ld, itot, db, reads);

    enc_object *pr = enc_add_object(b, WK_PROCESS, ENC_MULTI_INSTANCE);
    uint32_t ppt = enc_add_counter(pr, WK_PROCESSOR_TIME, PD_100NSEC_TIMER);
    uint32_t pws =
        enc_add_counter(pr, WK_WORKING_SET, PD_COUNTER_LARGE_RAWCOUNT);
    uint32_t pid = enc_add_counter(pr, WK_ID_PROCESS, PD_COUNTER_RAWCOUNT);
    uint32_t s0 = enc_add_instance(pr, "svchost");
    enc_set_value(pr, s0, ppt, (uint64_t)sv);
    enc_set_value(pr, s0, pws, 10485760 + (uint64_t)k * 4096);
    enc_set_value(pr, s0, pid, 800);
    if (k < 5) { /* vanishes at sample 5 */
      uint32_t o = enc_add_instance(pr, "oldproc");
      enc_set_value(pr, o, ppt, (uint64_t)old);
      enc_set_value(pr, o, pws, 5000000 + (uint64_t)k);
      enc_set_value(pr, o, pid, 555);
    }
    uint32_t s1 = enc_add_instance(pr, "svchost"); /* PDH: svchost#1 */
    enc_set_value(pr, s1, ppt, (uint64_t)sv1);
    enc_set_value(pr, s1, pws, 20971520 - (uint64_t)k * 8192);
    enc_set_value(pr, s1, pid, 1200);
    if (k >= 8) { /* appears at sample 8 */
      uint32_t n = enc_add_instance(pr, "newproc");
      enc_set_value(pr, n, ppt, (uint64_t)newp);
      enc_set_value(pr, n, pws, 123456789012u + (uint64_t)k);
      enc_set_value(pr, n, pid, 4242);
    }

    size_t len;
    uint8_t *blob = enc_build(b, &len);
    if (k == MALFORMED) /* cut in the middle of the Process object */
      len = enc_object_offset(pr) + enc_object_total_length(pr) / 2;
    cap_write_blob(dir, (unsigned)k, blob, len);
    free(blob);
    enc_free(b);
  }
}

/* "churn": a small host whose processes come and go with a period of 10
 * samples (so samples j and j + 10 have the same shape), 1 s apart. Every
 * 7th sample resets the counters of one process; sample j % 10 == 4 has a
 * Process object with no instances at all (and 9, where runs of 50 and 200
 * samples end, has several). */
static const cap_name churn_names[] = {
    {WK_MEMORY, "Memory"},
    {WK_PROCESSOR_TIME, "% Processor Time"},
    {WK_WORKING_SET, "Working Set"},
    {WK_PROCESS, "Process"},
    {WK_PROCESSOR, "Processor"},
    {WK_ID_PROCESS, "ID Process"},
    {WK_AVAILABLE_BYTES, "Available Bytes"},
};

static void churn(const char *dir, int count) {
  cap_mkdir(dir);
  cap_write_names(dir, churn_names, sizeof churn_names / sizeof *churn_names);
  for (int j = 0; j < count; j++) {
    int64_t t = 1767225600 + j; /* 2026-01-01 00:00:00 UTC + j s */
    enc_blob *b = enc_new("CHURN");
    enc_set_clock(b, (int64_t)j * 10000000, 10000000, cap_filetime(t));

    enc_object *mem = enc_add_object(b, WK_MEMORY, ENC_SINGLE_INSTANCE);
    uint32_t avail =
        enc_add_counter(mem, WK_AVAILABLE_BYTES, PD_COUNTER_LARGE_RAWCOUNT);
    enc_set_value(mem, ENC_SINGLE, avail, 1000000 + (uint64_t)j);

    enc_object *cpu = enc_add_object(b, WK_PROCESSOR, ENC_MULTI_INSTANCE);
    uint32_t pt = enc_add_counter(cpu, WK_PROCESSOR_TIME, PD_100NSEC_TIMER_INV);
    int ncpu = 1 + j % 3; /* CPUs come and go too */
    for (int c = 0; c < ncpu; c++) {
      char name[16];
      snprintf(name, sizeof name, "%d", c);
      enc_set_value(cpu, enc_add_instance(cpu, name), pt,
                    (uint64_t)j * 5000000);
    }
    enc_set_value(cpu, enc_add_instance(cpu, "_Total"), pt,
                  (uint64_t)j * 5000000);

    enc_object *pr = enc_add_object(b, WK_PROCESS, ENC_MULTI_INSTANCE);
    uint32_t ppt = enc_add_counter(pr, WK_PROCESSOR_TIME, PD_100NSEC_TIMER);
    uint32_t pws =
        enc_add_counter(pr, WK_WORKING_SET, PD_COUNTER_LARGE_RAWCOUNT);
    uint32_t pid = enc_add_counter(pr, WK_ID_PROCESS, PD_COUNTER_RAWCOUNT);
    int phase = j % 10;
    if (phase != 4) {
      /* svchost duplicates: 1..4 of them; job-N: a window of 3 names
       * sliding over 10; a long name that only some samples have. */
      int nsv = 1 + phase % 4;
      for (int s = 0; s < nsv; s++) {
        uint32_t i = enc_add_instance(pr, "svchost");
        uint64_t v = (uint64_t)j * 1000000 * (uint64_t)(s + 1);
        if (j % 7 == 0 && s == 0)
          v = 0; /* a reset */
        enc_set_value(pr, i, ppt, v);
        enc_set_value(pr, i, pws, 4096 * (uint64_t)(s + 1));
        enc_set_value(pr, i, pid, 100 + (uint64_t)s);
      }
      for (int w = 0; w < 3; w++) {
        char name[64];
        snprintf(name, sizeof name, "job-%d", (phase + w) % 10);
        uint32_t i = enc_add_instance(pr, name);
        enc_set_value(pr, i, ppt, (uint64_t)j * 2000000);
        enc_set_value(pr, i, pws, 8192);
        enc_set_value(pr, i, pid, 1000 + (uint64_t)((phase + w) % 10));
      }
      if (phase % 2 == 0) {
        uint32_t i = enc_add_instance(
            pr, "a process with a rather long name (x86) v1.2/beta");
        enc_set_value(pr, i, ppt, (uint64_t)j * 3000000);
        enc_set_value(pr, i, pws, 12288);
        enc_set_value(pr, i, pid, 4000);
      }
    }

    size_t len;
    uint8_t *blob = enc_build(b, &len);
    cap_write_blob(dir, (unsigned)j, blob, len);
    free(blob);
    enc_free(b);
  }
}

/* "self": 6 blobs, 1 s apart, all of one shape, for
 * tests/e2e/self-metrics.sh and tests/e2e/missing-counters.sh. The answer
 * holds 4 objects: System (single-instance, not in their counter files),
 * Memory (single-instance: Available Bytes, and Pages/sec which needs two
 * samples), Process (3 instances: svchost, svchost#1, explorer) and Print
 * Queue (multi-instance with no instance at all). The names table also
 * names Paging File, which no blob holds. Blob 3 is cut in the middle of
 * the Process object (malformed). */
static const cap_name self_names[] = {
    {WK_SYSTEM, "System"},           {WK_MEMORY, "Memory"},
    {WK_PAGES_SEC, "Pages/sec"},     {WK_WORKING_SET, "Working Set"},
    {WK_PROCESS, "Process"},         {WK_PROCESSES, "Processes"},
    {WK_PAGING_FILE, "Paging File"}, {WK_USAGE, "% Usage"},
    {WK_ID_PROCESS, "ID Process"},   {WK_AVAILABLE_BYTES, "Available Bytes"},
    {WK_PRINT_QUEUE, "Print Queue"}, {WK_JOBS, "Jobs"},
};

#define SELF_BLOBS 6
#define SELF_MALFORMED 3

static void self(const char *dir) {
  static const char *const procs[] = {"svchost", "svchost", "explorer"};
  cap_mkdir(dir);
  cap_write_names(dir, self_names, sizeof self_names / sizeof *self_names);
  for (int k = 0; k < SELF_BLOBS; k++) {
    enc_blob *b = enc_new("SELFHOST");
    enc_set_clock(b, (int64_t)k * 10000000, 10000000,
                  cap_filetime(1767225600 + k));
    enc_object *sys = enc_add_object(b, WK_SYSTEM, ENC_SINGLE_INSTANCE);
    enc_set_value(sys, ENC_SINGLE,
                  enc_add_counter(sys, WK_PROCESSES, PD_COUNTER_RAWCOUNT),
                  100 + (uint64_t)k);
    enc_object *mem = enc_add_object(b, WK_MEMORY, ENC_SINGLE_INSTANCE);
    uint32_t avail =
        enc_add_counter(mem, WK_AVAILABLE_BYTES, PD_COUNTER_LARGE_RAWCOUNT);
    uint32_t pg = enc_add_counter(mem, WK_PAGES_SEC, PD_COUNTER_COUNTER);
    enc_set_value(mem, ENC_SINGLE, avail, 1000000 + (uint64_t)k);
    enc_set_value(mem, ENC_SINGLE, pg, 100 * (uint64_t)k);
    enc_object *pr = enc_add_object(b, WK_PROCESS, ENC_MULTI_INSTANCE);
    uint32_t pid = enc_add_counter(pr, WK_ID_PROCESS, PD_COUNTER_RAWCOUNT);
    uint32_t pws =
        enc_add_counter(pr, WK_WORKING_SET, PD_COUNTER_LARGE_RAWCOUNT);
    for (uint32_t i = 0; i < 3; i++) {
      uint32_t inst = enc_add_instance(pr, procs[i]);
      enc_set_value(pr, inst, pid, 800 + i);
      enc_set_value(pr, inst, pws, 4096 * (uint64_t)(i + 1));
    }
    enc_object *pq = enc_add_object(b, WK_PRINT_QUEUE, ENC_MULTI_INSTANCE);
    enc_add_counter(pq, WK_JOBS, PD_COUNTER_RAWCOUNT);

    size_t len;
    uint8_t *blob = enc_build(b, &len);
    if (k == SELF_MALFORMED)
      len = enc_object_offset(pr) + enc_object_total_length(pr) / 2;
    cap_write_blob(dir, (unsigned)k, blob, len);
    free(blob);
    enc_free(b);
  }
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "exact") == 0) {
    exact(argv[2], strtoll(argv[3], NULL, 10));
    return 0;
  }
  if (argc == 4 && strcmp(argv[1], "churn") == 0) {
    churn(argv[2], atoi(argv[3]));
    return 0;
  }
  if (argc == 3 && strcmp(argv[1], "self") == 0) {
    self(argv[2]);
    return 0;
  }
  fprintf(stderr,
          "usage: e2e_capture exact DIR T0 | churn DIR COUNT | self DIR\n");
  return 2;
}
