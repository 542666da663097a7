/* collectd-winperf tests: the capture tests/e2e/backends.sh replays into
 * Prometheus, VictoriaMetrics, carbon + graphite-web and InfluxDB at once.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   backends_capture DIR T0   12 blobs, sample k at Unix time T0 + k
 *
 * Clocks: PerfTime100nSec = T0 + k seconds and PerfTime advances 1e7 ticks
 * at PerfFreq 1e7 per sample, so every rate below is per second and every
 * two-sample value is the same in every interval. Every value, by hand
 * (formatted mode; "raw" is what a `raw: true` entry dispatches):
 *
 *   Processor 238, % Processor Time 6 (100NSEC_TIMER_INV, 100 (1 - dN/dD)):
 *     0: idle 7e6 a second -> 30; 1: 5e6 -> 50; _Total: 6e6 -> 40
 *   Memory 4: Available Bytes 1380 (LARGE_RAWCOUNT) 4 GiB + k MiB;
 *     Committed Bytes 26 = 2 GiB; Commit Limit 30 = 8 GiB (LARGE_RAWCOUNT);
 *     Pages/sec 40 (COUNTER_COUNTER) raw 1000 + 250 k -> 250
 *   LogicalDisk 236: % Free Space 408 (RAW_FRACTION over 1410): C: 250/1000
 *     -> 25, D: 500/1000 -> 50, _Total 750/2000 -> 37.5; Free Megabytes 410
 *     (RAWCOUNT) C: 51200, D: 102400, _Total 153600; Disk Read Bytes/sec
 *     220 (BULK_COUNT) raw C: 1048576 k, D: 0, _Total 1048576 k
 *     -> 1048576, 0, 1048576
 *   Network Interface 510, instances "Intel(R) Ethernet Connection I219-V"
 *     and "vEthernet (Default Switch)": Bytes Received/sec 264 125000 k and
 *     1000 k, Bytes Sent/sec 896 25000 k and 500 k (BULK_COUNT) -> 125000,
 *     1000; 25000, 500
 *   System 2: Processor Queue Length 44 = 3, Processes 248 = 120, Threads
 *     250 = 1500 (RAWCOUNT); Context Switches/sec 146 (COUNTER_COUNTER)
 *     raw 5000 k -> 5000
 *   Process 230, % Processor Time 6 (100NSEC_TIMER, 100 dN/dD), Working Set
 *     180 (LARGE_RAWCOUNT), ID Process 784 (RAWCOUNT):
 *       svchost  pid 800   1e6 a second -> 10   Working Set 10 MiB
 *       svchost  pid 1200  5e5 -> 5 (svchost#1)             20 MiB
 *       w3wp     pid 4242  6e6 -> 60                        300 MiB
 *       Ærøskøbing pid 77  2e6 -> 20                        5 MiB
 *       _Total   pid 0     9.5e6 -> 95                      335 MiB
 *   Name Probe 9000, Value 9002 (RAWCOUNT): one instance per character
 *     class a backend's query language may refuse (probe_names below,
 *     value i + 1 for the i-th; other letters around each character, so
 *     no two names meet when a writer turns characters into "_"), for
 *     the name measurements of doc/backends.md.
 */
#include "capture.h"
#include "encoder.h"
#include "known_indices.h"
#include "perfdata.h"

#include <stdio.h>
#include <stdlib.h>

/* Windows' indices: tests/encoder/known_indices.h; Name Probe is made up
 * here. */
enum {
  OBJ_PROBE = 9000,
  CTR_PROBE_VALUE = 9002,
};

static const cap_name names[] = {
    {WK_SYSTEM, "System"},
    {WK_MEMORY, "Memory"},
    {WK_PROCESSOR_TIME, "% Processor Time"},
    {WK_COMMITTED_BYTES, "Committed Bytes"},
    {WK_COMMIT_LIMIT, "Commit Limit"},
    {WK_PAGES_SEC, "Pages/sec"},
    {WK_QUEUE_LENGTH, "Processor Queue Length"},
    {WK_CONTEXT_SWITCHES, "Context Switches/sec"},
    {WK_WORKING_SET, "Working Set"},
    {WK_DISK_READ_BYTES, "Disk Read Bytes/sec"},
    {WK_PROCESS, "Process"},
    {WK_LOGICALDISK, "LogicalDisk"},
    {WK_PROCESSOR, "Processor"},
    {WK_PROCESSES, "Processes"},
    {WK_THREADS, "Threads"},
    {WK_BYTES_RECEIVED, "Bytes Received/sec"},
    {WK_FREE_SPACE, "% Free Space"},
    {WK_FREE_MEGABYTES, "Free Megabytes"},
    {WK_NETWORK_INTERFACE, "Network Interface"},
    {WK_ID_PROCESS, "ID Process"},
    {WK_BYTES_SENT, "Bytes Sent/sec"},
    {WK_AVAILABLE_BYTES, "Available Bytes"},
    {OBJ_PROBE, "Name Probe"},
    {CTR_PROBE_VALUE, "Value"},
    {WK_FREE_SPACE_BASE, "% Free Space Base"},
};

#define K 12

/* The instance names of Name Probe: tests/e2e/backends.sh and the table
 * in doc/backends.md list them in this order. */
static const char *const probe_names[] = {
    "%",   "#1",   "(R)", "x y",  "c/d", "\xc3\x86r\xc3\xb8",
    "0,1", "{4D}", "[2]", "it's", "m;n", "o|p",
    "q=r", "e\"f", "g:h", "i.j",  "k*l"};

static void add_processor(enc_blob *b, int k) {
  enc_object *o = enc_add_object(b, WK_PROCESSOR, ENC_MULTI_INSTANCE);
  uint32_t c = enc_add_counter(o, WK_PROCESSOR_TIME, PD_100NSEC_TIMER_INV);
  static const struct {
    const char *name;
    uint64_t idle; /* 100 ns of idle a second */
  } cpus[] = {{"0", 7000000}, {"1", 5000000}, {"_Total", 6000000}};
  for (size_t i = 0; i < 3; i++)
    enc_set_value(o, enc_add_instance(o, cpus[i].name), c,
                  1000000000 + (uint64_t)k * cpus[i].idle);
}

static void add_memory(enc_blob *b, int k) {
  enc_object *o = enc_add_object(b, WK_MEMORY, ENC_SINGLE_INSTANCE);
  uint32_t avail =
      enc_add_counter(o, WK_AVAILABLE_BYTES, PD_COUNTER_LARGE_RAWCOUNT);
  uint32_t committed =
      enc_add_counter(o, WK_COMMITTED_BYTES, PD_COUNTER_LARGE_RAWCOUNT);
  uint32_t limit =
      enc_add_counter(o, WK_COMMIT_LIMIT, PD_COUNTER_LARGE_RAWCOUNT);
  uint32_t pages = enc_add_counter(o, WK_PAGES_SEC, PD_COUNTER_COUNTER);
  enc_set_value(o, ENC_SINGLE, avail, 4294967296u + (uint64_t)k * 1048576);
  enc_set_value(o, ENC_SINGLE, committed, 2147483648u);
  enc_set_value(o, ENC_SINGLE, limit, 8589934592u);
  enc_set_value(o, ENC_SINGLE, pages, 1000 + 250 * (uint64_t)k);
}

static void add_disks(enc_blob *b, int k) {
  enc_object *o = enc_add_object(b, WK_LOGICALDISK, ENC_MULTI_INSTANCE);
  uint32_t free = enc_add_counter(o, WK_FREE_SPACE, PD_RAW_FRACTION);
  uint32_t base = enc_add_counter(o, WK_FREE_SPACE_BASE, PD_RAW_BASE);
  uint32_t mb = enc_add_counter(o, WK_FREE_MEGABYTES, PD_COUNTER_RAWCOUNT);
  uint32_t rd = enc_add_counter(o, WK_DISK_READ_BYTES, PD_COUNTER_BULK_COUNT);
  static const struct {
    const char *name;
    uint64_t free, base, mb, read; /* read: bytes a second */
  } disks[] = {{"C:", 250, 1000, 51200, 1048576},
               {"D:", 500, 1000, 102400, 0},
               {"_Total", 750, 2000, 153600, 1048576}};
  for (size_t i = 0; i < 3; i++) {
    uint32_t in = enc_add_instance(o, disks[i].name);
    enc_set_value(o, in, free, disks[i].free);
    enc_set_value(o, in, base, disks[i].base);
    enc_set_value(o, in, mb, disks[i].mb);
    enc_set_value(o, in, rd, (uint64_t)k * disks[i].read);
  }
}

static void add_network(enc_blob *b, int k) {
  enc_object *o = enc_add_object(b, WK_NETWORK_INTERFACE, ENC_MULTI_INSTANCE);
  uint32_t rx = enc_add_counter(o, WK_BYTES_RECEIVED, PD_COUNTER_BULK_COUNT);
  uint32_t tx = enc_add_counter(o, WK_BYTES_SENT, PD_COUNTER_BULK_COUNT);
  static const struct {
    const char *name;
    uint64_t rx, tx; /* bytes a second */
  } nics[] = {{"Intel(R) Ethernet Connection I219-V", 125000, 25000},
              {"vEthernet (Default Switch)", 1000, 500}};
  for (size_t i = 0; i < 2; i++) {
    uint32_t in = enc_add_instance(o, nics[i].name);
    enc_set_value(o, in, rx, (uint64_t)k * nics[i].rx);
    enc_set_value(o, in, tx, (uint64_t)k * nics[i].tx);
  }
}

static void add_system(enc_blob *b, int k) {
  enc_object *o = enc_add_object(b, WK_SYSTEM, ENC_SINGLE_INSTANCE);
  uint32_t ql = enc_add_counter(o, WK_QUEUE_LENGTH, PD_COUNTER_RAWCOUNT);
  uint32_t procs = enc_add_counter(o, WK_PROCESSES, PD_COUNTER_RAWCOUNT);
  uint32_t threads = enc_add_counter(o, WK_THREADS, PD_COUNTER_RAWCOUNT);
  uint32_t cs = enc_add_counter(o, WK_CONTEXT_SWITCHES, PD_COUNTER_COUNTER);
  enc_set_value(o, ENC_SINGLE, ql, 3);
  enc_set_value(o, ENC_SINGLE, procs, 120);
  enc_set_value(o, ENC_SINGLE, threads, 1500);
  enc_set_value(o, ENC_SINGLE, cs, 5000 * (uint64_t)k);
}

static void add_processes(enc_blob *b, int k) {
  enc_object *o = enc_add_object(b, WK_PROCESS, ENC_MULTI_INSTANCE);
  uint32_t cpu = enc_add_counter(o, WK_PROCESSOR_TIME, PD_100NSEC_TIMER);
  uint32_t ws = enc_add_counter(o, WK_WORKING_SET, PD_COUNTER_LARGE_RAWCOUNT);
  uint32_t pid = enc_add_counter(o, WK_ID_PROCESS, PD_COUNTER_RAWCOUNT);
  static const struct {
    const char *name;
    uint64_t pid, cpu, ws_mib; /* cpu: 100 ns a second */
  } procs[] = {{"svchost", 800, 1000000, 10},
               {"svchost", 1200, 500000, 20},
               {"w3wp", 4242, 6000000, 300},
               {"\xc3\x86r\xc3\xb8sk\xc3\xb8"
                "bing",
                77, 2000000, 5},
               {"_Total", 0, 9500000, 335}};
  for (size_t i = 0; i < 5; i++) {
    uint32_t in = enc_add_instance(o, procs[i].name);
    enc_set_value(o, in, cpu, (uint64_t)k * procs[i].cpu);
    enc_set_value(o, in, ws, procs[i].ws_mib * 1048576);
    enc_set_value(o, in, pid, procs[i].pid);
  }
}

static void add_probe(enc_blob *b) {
  enc_object *o = enc_add_object(b, OBJ_PROBE, ENC_MULTI_INSTANCE);
  uint32_t v = enc_add_counter(o, CTR_PROBE_VALUE, PD_COUNTER_RAWCOUNT);
  for (size_t i = 0; i < sizeof probe_names / sizeof *probe_names; i++)
    enc_set_value(o, enc_add_instance(o, probe_names[i]), v, i + 1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: backends_capture DIR T0\n");
    return 2;
  }
  const char *dir = argv[1];
  int64_t t0 = strtoll(argv[2], NULL, 10);
  cap_mkdir(dir);
  cap_write_names(dir, names, sizeof names / sizeof *names);
  for (int k = 0; k < K; k++) {
    enc_blob *b = cap_blob_at("BACKENDS", t0, k);
    add_processor(b, k);
    add_memory(b, k);
    add_disks(b, k);
    add_network(b, k);
    add_system(b, k);
    add_processes(b, k);
    add_probe(b);
    cap_write_built(dir, (unsigned)k, b);
  }
  return 0;
}
