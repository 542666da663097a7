/* collectd-winperf tests: the capture tests/e2e/cardinality.sh replays.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   card_capture DIR T0   5 blobs, sample k at Unix time T0 + k
 *
 * Clocks: PerfTime100nSec = T0 + k seconds, so a 100NSEC_TIMER's value
 * is 100 dN / 1e7 per interval: a rate of r % is dN = r * 1e5. Every rate
 * and raw value below is what cardinality.sh expects, per instance; the
 * test computes the aggregates from them by hand.
 *
 * Process (230), instances in blob order: svchost, svchost (PDH:
 * svchost#1), w3wp (samples 0-2 only), svchost (svchost#2), _Total.
 * Processor (238): 0, 1, _Total. Memory (4). The names table also has
 * "Paging File" (700) and "% Usage" (702), objects no sample carries.
 */
#include "capture.h"
#include "encoder.h"
#include "known_indices.h"
#include "perfdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Counter names table, "INDEX NAME" per line. */
static const char names_text[] = "4 Memory\n"
                                 "6 % Processor Time\n"
                                 "142 % User Time\n"
                                 "174 Virtual Bytes\n"
                                 "180 Working Set\n"
                                 "186 Private Bytes\n"
                                 "230 Process\n"
                                 "238 Processor\n"
                                 "700 Paging File\n"
                                 "702 % Usage\n"
                                 "952 Handle Count\n"
                                 "1380 Available Bytes\n"
                                 "1746 % Idle Time\n";

static void write_names(const char *dir) {
  static char text[sizeof names_text];
  cap_name names[32];
  size_t n = 0;
  memcpy(text, names_text, sizeof text);
  for (char *line = strtok(text, "\n"); line && n < 32;
       line = strtok(NULL, "\n")) {
    char *sp = strchr(line, ' ');
    *sp = '\0';
    names[n].index = (uint32_t)strtoul(line, NULL, 10);
    names[n++].name = sp + 1;
  }
  cap_write_names(dir, names, n);
}

#define K 5
#define NPROC 5

static const char *const proc_name[NPROC] = {"svchost", "svchost", "w3wp",
                                             "svchost", "_Total"};
/* Rates in %, interval k = samples k-1 .. k ([0] unused). */
static const int cpu_rate[NPROC][K] = {{0, 10, 20, 30, 40},
                                       {0, 5, 5, 5, 5},
                                       {0, 50, 50, 0, 0},
                                       {0, 1, 2, 3, 4},
                                       {0, 70, 80, 90, 100}};
static const int user_rate[NPROC][K] = {{0, 10, 10, 10, 10},
                                        {0, 20, 30, 40, 50},
                                        {0, 7, 9, 0, 0},
                                        {0, 30, 50, 10, 0},
                                        {0, 100, 100, 100, 100}};

/* Raw values of sample k. */
static uint64_t working_set(int p, int k) {
  static const uint64_t base[NPROC] = {1000, 2000, 50000, 300, 999999};
  static const uint64_t step[NPROC] = {1, 10, 0, 100, 0};
  return base[p] + step[p] * (uint64_t)k;
}
static uint64_t private_bytes(int p, int k) {
  static const uint64_t v[NPROC] = {0, 500, 8000, 650, 4242};
  return p == 0 ? 700 - 100 * (uint64_t)k : v[p];
}
static uint64_t virtual_bytes(int p, int k) {
  static const uint64_t v[NPROC] = {0, 125, 77, 50, 1000000};
  return p == 0 ? 100 + 10 * (uint64_t)k : v[p];
}

static void process(enc_blob *b, int k, uint64_t cpu[NPROC],
                    uint64_t user[NPROC]) {
  enc_object *pr = enc_add_object(b, WK_PROCESS, ENC_MULTI_INSTANCE);
  uint32_t c_cpu = enc_add_counter(pr, WK_PROCESSOR_TIME, PD_100NSEC_TIMER);
  uint32_t c_user = enc_add_counter(pr, WK_USER_TIME, PD_100NSEC_TIMER);
  uint32_t c_ws =
      enc_add_counter(pr, WK_WORKING_SET, PD_COUNTER_LARGE_RAWCOUNT);
  uint32_t c_pb =
      enc_add_counter(pr, WK_PRIVATE_BYTES, PD_COUNTER_LARGE_RAWCOUNT);
  uint32_t c_vb =
      enc_add_counter(pr, WK_VIRTUAL_BYTES, PD_COUNTER_LARGE_RAWCOUNT);
  uint32_t c_hc = enc_add_counter(pr, WK_HANDLE_COUNT, PD_COUNTER_RAWCOUNT);
  static const uint64_t handles[NPROC] = {11, 22, 44, 33, 110};
  for (int p = 0; p < NPROC; p++) {
    cpu[p] += (uint64_t)cpu_rate[p][k] * 100000;
    user[p] += (uint64_t)user_rate[p][k] * 100000;
    if (p == 2 && k >= 3) /* w3wp exits after sample 2 */
      continue;
    uint32_t in = enc_add_instance(pr, proc_name[p]);
    enc_set_value(pr, in, c_cpu, cpu[p]);
    enc_set_value(pr, in, c_user, user[p]);
    enc_set_value(pr, in, c_ws, working_set(p, k));
    enc_set_value(pr, in, c_pb, private_bytes(p, k));
    enc_set_value(pr, in, c_vb, virtual_bytes(p, k));
    enc_set_value(pr, in, c_hc, handles[p]);
  }
}

/* Processor: % Processor Time 10, 30, _Total 20; % Idle Time 90, 70, 80
 * (100NSEC_TIMER, every interval). */
static void processor(enc_blob *b, int k) {
  static const char *const cpu_names[3] = {"0", "1", "_Total"};
  static const uint64_t busy[3] = {10, 30, 20}, idle[3] = {90, 70, 80};
  enc_object *o = enc_add_object(b, WK_PROCESSOR, ENC_MULTI_INSTANCE);
  uint32_t c_busy = enc_add_counter(o, WK_PROCESSOR_TIME, PD_100NSEC_TIMER);
  uint32_t c_idle = enc_add_counter(o, WK_IDLE_TIME, PD_100NSEC_TIMER);
  for (int i = 0; i < 3; i++) {
    uint32_t in = enc_add_instance(o, cpu_names[i]);
    enc_set_value(o, in, c_busy, 1000000000 + busy[i] * 100000 * (uint64_t)k);
    enc_set_value(o, in, c_idle, 1000000000 + idle[i] * 100000 * (uint64_t)k);
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: card_capture DIR T0\n");
    return 2;
  }
  const char *dir = argv[1];
  int64_t t0 = strtoll(argv[2], NULL, 10);
  uint64_t cpu[NPROC] = {0}, user[NPROC] = {0};
  for (int p = 0; p < NPROC; p++)
    cpu[p] = user[p] = 500000000;
  cap_mkdir(dir);
  write_names(dir);
  for (int k = 0; k < K; k++) {
    enc_blob *b = cap_sample_new("CARDHOST", t0, k);
    enc_object *mem = enc_add_object(b, WK_MEMORY, ENC_SINGLE_INSTANCE);
    enc_set_value(
        mem, ENC_SINGLE,
        enc_add_counter(mem, WK_AVAILABLE_BYTES, PD_COUNTER_LARGE_RAWCOUNT),
        6000000000u + (uint64_t)k);
    process(b, k, cpu, user);
    processor(b, k);
    cap_sample_write(dir, k, b);
  }
  return 0;
}
