/* collectd-winperf tests: the capture tests/e2e/naming.sh replays.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   naming_capture DIR T0   3 blobs, sample k at Unix time T0 + k
 *
 * Clocks: PerfTime100nSec = T0 + k seconds, so a 100NSEC_TIMER's value is
 * 100 dN / 1e7 = dN / 1e5 %. Between samples 1 and 2, w3wp#1 (pid 20)
 * exits and Windows renumbers w3wp#2 (pid 30) to w3wp#1. Every value, by
 * hand (interval 0 has no two-sample value):
 *
 *   230 Process (UTF-16 names), 6 "% Processor Time" and 142 "% User Time"
 *   (both 100NSEC_TIMER, the same raw values), 784 "ID Process":
 *     Idle        pid 0   0, 5e6, 10e6         -> 50, 50
 *     w3wp        pid 10  0, 1e6, 3e6          -> 10, 20
 *     w3wp#1      pid 20  1e6, 4e6 (exits)     -> 30
 *     w3wp#2      pid 30  2e6, 6e6; then w3wp#1 8.5e6
 *                                   by id      -> 40, 25
 *                                   by name    w3wp#1 at 2: 8.5e6 - 4e6 -> 45
 *     Ærøskøbing  pid 77  0, 7e6, 14e6         -> 70, 70
 *     _Total      pid 0   0, 1e7, 2e7          -> 100, 100
 *   232 Thread (UTF-16), 6, 784, 804 "ID Thread", parents in Process:
 *     w3wp/0      pid 10 tid 100  0, 1e6, 2e6  -> 10, 10
 *     Idle/0      pid 0  tid 0    0, 5e6, 1e7  -> 50, 50
 *   236 LogicalDisk (CodePage 1252 names), 410 "Free Megabytes" RAWCOUNT:
 *     C: 100 + k, Dépôt 200 + k, _Total 300 + 2k
 *   2200 "Process V2" (instances named name:pid as Windows names them),
 *   784 "ID Process", 2202 "Handle Count" RAWCOUNT:
 *     w3wp:10 (pid 10) 500 + k, w3wp:30 (pid 30) 600 + k, _Total (pid 0)
 *     1100 + 2k
 *   2300 "Paging File", 2302 "% Usage" RAWCOUNT: C:\pagefile.sys 5 and
 *     c:_pagefile.sys 6 (one clean name: the clash the plugin logs)
 */
#include "capture.h"
#include "encoder.h"
#include "known_indices.h"
#include "perfdata.h"

#include <stdio.h>
#include <stdlib.h>

enum {
  OBJ_PROCESS_V2 = 2200,
  OBJ_PAGING_FILE = 2300,
  CTR_HANDLE_COUNT = 2202,
  CTR_USAGE = 2302,
};

static const cap_name names[] = {{WK_PROCESS, "Process"},
                                 {WK_THREAD, "Thread"},
                                 {WK_LOGICALDISK, "LogicalDisk"},
                                 {OBJ_PROCESS_V2, "Process V2"},
                                 {OBJ_PAGING_FILE, "Paging File"},
                                 {WK_PROCESSOR_TIME, "% Processor Time"},
                                 {WK_USER_TIME, "% User Time"},
                                 {WK_FREE_MEGABYTES, "Free Megabytes"},
                                 {WK_ID_PROCESS, "ID Process"},
                                 {WK_ID_THREAD, "ID Thread"},
                                 {CTR_HANDLE_COUNT, "Handle Count"},
                                 {CTR_USAGE, "% Usage"}};

#define K 3

typedef struct proc {
  const char *name;
  uint64_t pid;
  int64_t cpu[K]; /* -1: not in that sample */
} proc;

/* Blob order per sample: w3wp instances in pid order, so PDH numbers
 * them #0, #1, #2 and renumbers pid 30 to #1 when pid 20 is gone. */
static const proc procs[] = {
    {"Idle", 0, {0, 5000000, 10000000}},
    {"w3wp", 10, {0, 1000000, 3000000}},
    {"w3wp", 20, {1000000, 4000000, -1}},
    {"w3wp", 30, {2000000, 6000000, 8500000}},
    {"\xc3\x86r\xc3\xb8sk\xc3\xb8"
     "bing",
     77,
     {0, 7000000, 14000000}},
    {"_Total", 0, {0, 10000000, 20000000}},
};
enum { NPROCS = sizeof procs / sizeof *procs };

/* Process: returns the instance position of each proc in this sample. */
static void add_processes(enc_blob *b, int k, uint32_t pos[NPROCS]) {
  enc_object *o = enc_add_object(b, WK_PROCESS, ENC_MULTI_INSTANCE);
  uint32_t cpu = enc_add_counter(o, WK_PROCESSOR_TIME, PD_100NSEC_TIMER);
  uint32_t user = enc_add_counter(o, WK_USER_TIME, PD_100NSEC_TIMER);
  uint32_t pid = enc_add_counter(o, WK_ID_PROCESS, PD_COUNTER_RAWCOUNT);
  for (size_t i = 0; i < NPROCS; i++) {
    if (procs[i].cpu[k] < 0)
      continue;
    pos[i] = enc_add_instance(o, procs[i].name);
    enc_set_value(o, pos[i], cpu, (uint64_t)procs[i].cpu[k]);
    enc_set_value(o, pos[i], user, (uint64_t)procs[i].cpu[k]);
    enc_set_value(o, pos[i], pid, procs[i].pid);
  }
}

static void add_threads(enc_blob *b, int k, const uint32_t pos[NPROCS]) {
  enc_object *o = enc_add_object(b, WK_THREAD, ENC_MULTI_INSTANCE);
  uint32_t cpu = enc_add_counter(o, WK_PROCESSOR_TIME, PD_100NSEC_TIMER);
  uint32_t pid = enc_add_counter(o, WK_ID_PROCESS, PD_COUNTER_RAWCOUNT);
  uint32_t tid = enc_add_counter(o, WK_ID_THREAD, PD_COUNTER_RAWCOUNT);
  uint32_t t = enc_add_instance(o, "0"); /* w3wp/0: pid 10, tid 100 */
  enc_instance_set_parent(o, t, WK_PROCESS, pos[1]);
  enc_set_value(o, t, cpu, (uint64_t)k * 1000000);
  enc_set_value(o, t, pid, 10);
  enc_set_value(o, t, tid, 100);
  t = enc_add_instance(o, "0"); /* Idle/0: pid 0, tid 0 */
  enc_instance_set_parent(o, t, WK_PROCESS, pos[0]);
  enc_set_value(o, t, cpu, (uint64_t)k * 5000000);
}

static void add_rawcounts(enc_blob *b, int k) {
  enc_object *ld = enc_add_object(b, WK_LOGICALDISK, ENC_MULTI_INSTANCE);
  enc_object_set_code_page(ld, 1252);
  uint32_t mb = enc_add_counter(ld, WK_FREE_MEGABYTES, PD_COUNTER_RAWCOUNT);
  enc_set_value(ld, enc_add_instance(ld, "C:"), mb, 100 + (uint64_t)k);
  enc_set_value(ld, enc_add_instance(ld, "D\xc3\xa9p\xc3\xb4t"), mb,
                200 + (uint64_t)k);
  enc_set_value(ld, enc_add_instance(ld, "_Total"), mb, 300 + 2 * (uint64_t)k);

  enc_object *v2 = enc_add_object(b, OBJ_PROCESS_V2, ENC_MULTI_INSTANCE);
  uint32_t pid = enc_add_counter(v2, WK_ID_PROCESS, PD_COUNTER_RAWCOUNT);
  uint32_t hc = enc_add_counter(v2, CTR_HANDLE_COUNT, PD_COUNTER_RAWCOUNT);
  static const struct {
    const char *name;
    uint64_t pid, handles;
  } v2i[] = {{"w3wp:10", 10, 500}, {"w3wp:30", 30, 600}, {"_Total", 0, 1100}};
  for (size_t i = 0; i < 3; i++) {
    uint32_t in = enc_add_instance(v2, v2i[i].name);
    enc_set_value(v2, in, pid, v2i[i].pid);
    enc_set_value(v2, in, hc,
                  v2i[i].handles + (i == 2 ? 2u : 1u) * (uint64_t)k);
  }

  enc_object *pf = enc_add_object(b, OBJ_PAGING_FILE, ENC_MULTI_INSTANCE);
  uint32_t use = enc_add_counter(pf, CTR_USAGE, PD_COUNTER_RAWCOUNT);
  enc_set_value(pf, enc_add_instance(pf, "C:\\pagefile.sys"), use, 5);
  enc_set_value(pf, enc_add_instance(pf, "c:_pagefile.sys"), use, 6);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: naming_capture DIR T0\n");
    return 2;
  }
  const char *dir = argv[1];
  int64_t t0 = strtoll(argv[2], NULL, 10);
  cap_mkdir(dir);
  cap_write_names(dir, names, sizeof names / sizeof *names);
  for (int k = 0; k < K; k++) {
    enc_blob *b = cap_blob_at("NAMING", t0, k);
    uint32_t pos[NPROCS] = {0};
    add_processes(b, k, pos);
    add_threads(b, k, pos);
    add_rawcounts(b, k);
    cap_write_built(dir, (unsigned)k, b);
  }
  return 0;
}
