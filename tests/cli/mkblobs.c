/* collectd-winperf tests: richer blob pairs for the winperf CLI tests.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Usage: mkblobs OUTDIR. Writes rich1.blob/rich2.blob (little-endian) and
 * rich-be1.blob/rich-be2.blob (the same, big-endian), ids.blob and
 * ids-be.blob (identity counters), renumber1.blob and renumber2.blob
 * (a renumbered process), built with the
 * test-side encoder (never the decoder). Between the two samples PerfTime
 * and PerfTime100nSec both advance by 2e7 (2 s at PerfFreq 1e7). Expected
 * values, by hand (format.md 3, 3.3), are in tests/cli/rich.sh:
 *
 *   230 Process, 5 instances (duplicate names), counters
 *       6 PERF_100NSEC_TIMER: 0 -> dN; 100 dN / 2e7
 *         svchost 1e7 -> 50, svchost#1 5e6 -> 25, w3wp 2e7 -> 100,
 *         w3wp#1 3e6 -> 15, Idle 0 -> 0
 *       784 PERF_COUNTER_RAWCOUNT: the UniqueID (100, 200, 300, 400, 0)
 *   232 Thread, parents in Process: "svchost/0", "svchost/0#1", "w3wp/1";
 *       12 PERF_COUNTER_COUNTER 1000 -> 1600: 600 / (2e7 / 1e7) = 300 /s
 *   238 Processor, "_Total": 20 PERF_COUNTER_MULTI_TIMER 0 -> 3e7 with
 *       22 PERF_COUNTER_MULTI_BASE 2: reskit 100 (3e7 / 2e7) / 2 = 75,
 *       msdn 100 (3e7 / (2e7 / 1e7)) / 2 = 7.5e8
 *   240 metadata only (-2), one definition (24 PERF_COUNTER_RAWCOUNT)
 *   242 single instance, 26 of type 0x00070000 (not in format.md 2.2) = 5
 *
 * ids.blob and ids-be.blob: one sample with identity counters, for the
 * pid/tid of `query --json` (tests/cli/json.sh), PerfTime100nSec
 * 133485408000000000:
 *   230 Process: 6 PERF_COUNTER_RAWCOUNT, 784 ("ID Process") RAWCOUNT
 *       Idle pid 0 (6 = 1), svchost pid 812 (6 = 2), svchost#1 pid 1024
 *       (6 = 3), _Total pid 0 (6 = 6)
 *   232 Thread: 12 RAWCOUNT, 784 RAWCOUNT, 804 ("ID Thread") RAWCOUNT
 *       svchost/0 pid 812 tid 4100 (12 = 10), svchost/0#1 pid 1024
 *       tid 5200 (12 = 20), Idle/0 pid 0 tid 0 (12 = 30)
 *   238 Processor: _Total, 6 RAWCOUNT = 50; no identity counter
 *   500 single instance: 902 RAWCOUNT = 7, 900 PERF_COUNTER_LARGE_RAWCOUNT
 *       = 4294967301 (2^32 + 5), "ID Process" only in a names table that
 *       says so
 */
#include "encoder.h"
#include "perfdata.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct rich {
  enc_blob *b;
  enc_object *proc, *thread, *cpu;
  uint32_t proc_timer, thread_cs, cpu_timer;
} rich;

static const char *const proc_names[] = {"svchost", "svchost", "w3wp", "w3wp",
                                         "Idle"};
static const uint64_t proc_dn[] = {10000000, 5000000, 20000000, 3000000, 0};

static void build(rich *r, bool big_endian) {
  r->b = enc_new("HOST");
  enc_set_big_endian(r->b, big_endian);
  enc_set_clock(r->b, 1000000000, 10000000, INT64_C(133485408000000000));

  r->proc = enc_add_object(r->b, 230, ENC_MULTI_INSTANCE);
  r->proc_timer = enc_add_counter(r->proc, 6, PD_100NSEC_TIMER);
  uint32_t pid = enc_add_counter(r->proc, 784, PD_COUNTER_RAWCOUNT);
  for (uint32_t i = 0; i < 5; i++) {
    uint32_t k = enc_add_instance(r->proc, proc_names[i]);
    int32_t uid = i < 4 ? (int32_t)(100 * (i + 1)) : 0;
    enc_instance_set_unique_id(r->proc, k, uid);
    enc_set_value(r->proc, k, pid, (uint64_t)uid);
  }

  r->thread = enc_add_object(r->b, 232, ENC_MULTI_INSTANCE);
  r->thread_cs = enc_add_counter(r->thread, 12, PD_COUNTER_COUNTER);
  static const char *const tnames[] = {"0", "0", "1"};
  static const uint32_t tparent[] = {0, 1, 2};
  for (uint32_t i = 0; i < 3; i++) {
    uint32_t k = enc_add_instance(r->thread, tnames[i]);
    enc_instance_set_parent(r->thread, k, 230, tparent[i]);
    enc_set_value(r->thread, k, r->thread_cs, 1000);
  }

  r->cpu = enc_add_object(r->b, 238, ENC_MULTI_INSTANCE);
  r->cpu_timer = enc_add_counter(r->cpu, 20, PD_COUNTER_MULTI_TIMER);
  uint32_t base = enc_add_counter(r->cpu, 22, PD_COUNTER_MULTI_BASE);
  uint32_t total = enc_add_instance(r->cpu, "_Total");
  enc_set_value(r->cpu, total, base, 2);

  enc_object *meta = enc_add_object(r->b, 240, ENC_METADATA_MULTI);
  enc_add_counter(meta, 24, PD_COUNTER_RAWCOUNT);

  enc_object *odd = enc_add_object(r->b, 242, ENC_SINGLE_INSTANCE);
  uint32_t c = enc_add_counter(odd, 26, 0x00070000u);
  enc_set_value(odd, ENC_SINGLE, c, 5);
}

/* The second sample: clocks + 2e7, counters advanced. */
static void advance(rich *r) {
  enc_set_clock(r->b, 1000000000 + 20000000, 10000000,
                INT64_C(133485408000000000) + 20000000);
  for (uint32_t i = 0; i < 5; i++)
    enc_set_value(r->proc, i, r->proc_timer, proc_dn[i]);
  for (uint32_t i = 0; i < 3; i++)
    enc_set_value(r->thread, i, r->thread_cs, 1600);
  enc_set_value(r->cpu, 0, r->cpu_timer, 30000000);
}

/* ids.blob (see the header comment). */
static enc_blob *build_ids(bool big_endian) {
  enc_blob *b = enc_new("HOST");
  enc_set_big_endian(b, big_endian);
  enc_set_clock(b, 1000000000, 10000000, INT64_C(133485408000000000));

  enc_object *proc = enc_add_object(b, 230, ENC_MULTI_INSTANCE);
  uint32_t pc = enc_add_counter(proc, 6, PD_COUNTER_RAWCOUNT);
  uint32_t ppid = enc_add_counter(proc, 784, PD_COUNTER_RAWCOUNT);
  static const char *const pnames[] = {"Idle", "svchost", "svchost", "_Total"};
  static const uint64_t pids[] = {0, 812, 1024, 0}, pval[] = {1, 2, 3, 6};
  for (uint32_t i = 0; i < 4; i++) {
    uint32_t k = enc_add_instance(proc, pnames[i]);
    enc_set_value(proc, k, pc, pval[i]);
    enc_set_value(proc, k, ppid, pids[i]);
  }

  enc_object *thr = enc_add_object(b, 232, ENC_MULTI_INSTANCE);
  uint32_t tc = enc_add_counter(thr, 12, PD_COUNTER_RAWCOUNT);
  uint32_t tpid = enc_add_counter(thr, 784, PD_COUNTER_RAWCOUNT);
  uint32_t ttid = enc_add_counter(thr, 804, PD_COUNTER_RAWCOUNT);
  static const uint32_t parent[] = {1, 2, 0};
  static const uint64_t tids[] = {4100, 5200, 0}, tval[] = {10, 20, 30};
  for (uint32_t i = 0; i < 3; i++) {
    uint32_t k = enc_add_instance(thr, "0");
    enc_instance_set_parent(thr, k, 230, parent[i]);
    enc_set_value(thr, k, tc, tval[i]);
    enc_set_value(thr, k, tpid, pids[parent[i]]);
    enc_set_value(thr, k, ttid, tids[i]);
  }

  enc_object *cpu = enc_add_object(b, 238, ENC_MULTI_INSTANCE);
  uint32_t cc = enc_add_counter(cpu, 6, PD_COUNTER_RAWCOUNT);
  enc_set_value(cpu, enc_add_instance(cpu, "_Total"), cc, 50);

  enc_object *job = enc_add_object(b, 500, ENC_SINGLE_INSTANCE);
  uint32_t jc = enc_add_counter(job, 902, PD_COUNTER_RAWCOUNT);
  uint32_t jid = enc_add_counter(job, 900, PD_COUNTER_LARGE_RAWCOUNT);
  enc_set_value(job, ENC_SINGLE, jc, 7);
  enc_set_value(job, ENC_SINGLE, jid, UINT64_C(4294967301));
  return b;
}

/* renumber1.blob and renumber2.blob, 1 s apart (PerfTime100nSec +1e7):
 * 230 Process, 6 PERF_100NSEC_TIMER, 784 ID Process. w3wp#1 (pid 20)
 * exits; Windows renumbers w3wp#2 (pid 30) to w3wp#1.
 *   sample 1: w3wp pid 10 1e6, w3wp#1 pid 20 2e6, w3wp#2 pid 30 3e6
 *   sample 2: w3wp pid 10 6e6, w3wp#1 pid 30 5.5e6
 * By id: w3wp 100 * 5e6 / 1e7 = 50, w3wp#1 100 * 2.5e6 / 1e7 = 25.
 * By name (PDH): w3wp#1 100 * (5.5e6 - 2e6) / 1e7 = 35. */
static enc_blob *build_renumber(int sample) {
  enc_blob *b = enc_new("HOST");
  enc_set_clock(b, 1000000000, 10000000,
                INT64_C(133485408000000000) + (sample == 2 ? 10000000 : 0));
  enc_object *proc = enc_add_object(b, 230, ENC_MULTI_INSTANCE);
  uint32_t cpu = enc_add_counter(proc, 6, PD_100NSEC_TIMER);
  uint32_t pid = enc_add_counter(proc, 784, PD_COUNTER_RAWCOUNT);
  static const uint64_t pids1[] = {10, 20, 30},
                        cpu1[] = {1000000, 2000000, 3000000};
  static const uint64_t pids2[] = {10, 30}, cpu2[] = {6000000, 5500000};
  for (uint32_t i = 0; i < (sample == 1 ? 3u : 2u); i++) {
    uint32_t k = enc_add_instance(proc, "w3wp");
    enc_set_value(proc, k, cpu, sample == 1 ? cpu1[i] : cpu2[i]);
    enc_set_value(proc, k, pid, sample == 1 ? pids1[i] : pids2[i]);
  }
  return b;
}

static int write_blob(enc_blob *b, const char *dir, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  size_t len;
  uint8_t *data = enc_build(b, &len);
  FILE *f = fopen(path, "wb");
  int ok = f != NULL && fwrite(data, 1, len, f) == len;
  if (f != NULL && fclose(f) != 0)
    ok = 0;
  free(data);
  if (!ok)
    fprintf(stderr, "mkblobs: cannot write %s\n", path);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: mkblobs OUTDIR\n");
    return 2;
  }
  int ok = 1;
  for (int be = 0; be <= 1; be++) {
    rich r;
    build(&r, be);
    ok &= write_blob(r.b, argv[1], be ? "rich-be1.blob" : "rich1.blob");
    advance(&r);
    ok &= write_blob(r.b, argv[1], be ? "rich-be2.blob" : "rich2.blob");
    enc_free(r.b);
    enc_blob *ids = build_ids(be);
    ok &= write_blob(ids, argv[1], be ? "ids-be.blob" : "ids.blob");
    enc_free(ids);
  }
  for (int sample = 1; sample <= 2; sample++) {
    enc_blob *b = build_renumber(sample);
    ok &= write_blob(b, argv[1],
                     sample == 1 ? "renumber1.blob" : "renumber2.blob");
    enc_free(b);
  }
  return ok ? 0 : 1;
}
