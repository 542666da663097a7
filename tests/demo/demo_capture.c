/* collectd-winperf: the demo capture in conf/demo, generated (not captured
 * on Windows). Copyright (c) 2026 the collectd-winperf authors.
 * SPDX-License-Identifier: MIT
 *
 *   demo_capture DIR   writes DIR/0000.blob .. 0063.blob and names.multisz
 *
 * A made-up 4-CPU Windows host "DEMO-PC" sampled every 10 s for 64
 * intervals, from 2026-01-15 09:00:00 UTC. Windows' own object and counter
 * name indices and counter types for these counters; the base counters'
 * indices (1408-1416) are made up. Values follow deterministic random walks
 * (integer arithmetic only, fixed seed), so the bytes are identical on every
 * platform: tests/demo/regenerate.sh checks the committed files.
 */
#include "capture.h"
#include "encoder.h"
#include "known_indices.h"
#include "perfdata.h"

#include <stdio.h>
#include <stdlib.h>

#define INTERVALS 64
#define NCPU 4

static const cap_name names[] = {
    {WK_SYSTEM, "System"},
    {WK_MEMORY, "Memory"},
    {WK_PROCESS, "Process"},
    {WK_PHYSICALDISK, "PhysicalDisk"},
    {WK_LOGICALDISK, "LogicalDisk"},
    {WK_PROCESSOR, "Processor"},
    {WK_NETWORK_INTERFACE, "Network Interface"},
    {WK_PROCESSOR_TIME, "% Processor Time"},
    {WK_COMMITTED_BYTES, "Committed Bytes"},
    {WK_PAGES_SEC, "Pages/sec"},
    {WK_QUEUE_LENGTH, "Processor Queue Length"},
    {WK_USER_TIME, "% User Time"},
    {WK_PRIVILEGED_TIME, "% Privileged Time"},
    {WK_CONTEXT_SWITCHES, "Context Switches/sec"},
    {WK_INTERRUPTS, "Interrupts/sec"},
    {WK_WORKING_SET, "Working Set"},
    {WK_DISK_TIME, "% Disk Time"},
    {WK_DISK_SEC_READ, "Avg. Disk sec/Read"},
    {WK_DISK_READS, "Disk Reads/sec"},
    {WK_DISK_BYTES, "Disk Bytes/sec"},
    {WK_PROCESSES, "Processes"},
    {WK_BYTES_TOTAL, "Bytes Total/sec"},
    {WK_FREE_SPACE, "% Free Space"},
    {WK_FREE_MEGABYTES, "Free Megabytes"},
    {WK_BANDWIDTH, "Current Bandwidth"},
    {WK_UP_TIME, "System Up Time"},
    {WK_ID_PROCESS, "ID Process"},
    {WK_HANDLE_COUNT, "Handle Count"},
    {WK_AVAILABLE_BYTES, "Available Bytes"},
    {WK_AVG_DISK_QUEUE_LENGTH, "Avg. Disk Queue Length"},
    {WK_COMMITTED_IN_USE, "% Committed Bytes In Use"},
    {WK_COMMITTED_IN_USE_BASE, "% Committed Bytes In Use Base"},
    {WK_FREE_SPACE_BASE, "% Free Space Base"},
    {WK_DISK_SEC_READ_BASE, "Avg. Disk sec/Read Base"},
};

/* A bounded random walk in integers. */
static int64_t walk(uint64_t *rng, int64_t v, int64_t step, int64_t lo,
                    int64_t hi) {
  v += cap_between(rng, -step, step);
  return v < lo ? lo : v > hi ? hi : v;
}

/* Host state: everything cumulative is what Windows keeps counting. */
typedef struct cpu_state {
  int64_t busy_pm; /* busy per mille, walks */
  uint64_t idle, user, priv;
  uint32_t interrupts;
} cpu_state;

typedef struct disk_state {
  const char *logical, *physical;
  uint32_t total_mb, free_mb;
  uint32_t read_ticks, reads; /* AVERAGE_TIMER and its base, DWORDs */
  uint64_t busy, queue, bytes;
} disk_state;

typedef struct nic_state {
  const char *name;
  uint32_t bandwidth;
  uint64_t bytes;
  int64_t rate; /* bytes/s, walks */
} nic_state;

typedef struct proc_state {
  const char *name;
  uint32_t pid;
  int64_t weight;  /* share of the busy CPU time, walks */
  uint64_t cpu;    /* 100 ns */
  int64_t working; /* bytes */
  int64_t handles;
} proc_state;

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: demo_capture DIR\n");
    return 2;
  }
  const char *dir = argv[1];
  uint64_t rng = 20260115;
  const int64_t start = 1768467600; /* 2026-01-15 09:00:00 UTC */
  const int64_t boot_ms = -((3 * 86400 + 4 * 3600 + 1234) * INT64_C(1000));
  int64_t t_ms = 0; /* since start */

  cpu_state cpu[NCPU] = {{0}};
  for (int c = 0; c < NCPU; c++) {
    cpu[c].busy_pm = 150 + 60 * c;
    cpu[c].idle = UINT64_C(2300000000000) + (uint64_t)c * 7000000000u;
    cpu[c].user = UINT64_C(310000000000) - (uint64_t)c * 3000000000u;
    cpu[c].priv = UINT64_C(120000000000) - (uint64_t)c * 2000000000u;
    cpu[c].interrupts = 180000000u + (uint32_t)c * 9000000u;
  }
  int64_t avail = INT64_C(8) << 30, committed = INT64_C(10) << 30;
  const int64_t commit_limit = INT64_C(19) << 30;
  uint32_t pages = 41000000u, switches = 1500000000u;
  int64_t queue_len = 1, processes = 148, page_rate = 40;
  disk_state disk[2] = {
      {"C:", "0 C:", 487700, 121530, 100000000u, 2500000u, 0, 0, 0},
      {"D:", "1 D:", 953867, 611024, 20000000u, 400000u, 0, 0, 0},
  };
  nic_state nic[2] = {
      {"Intel(R) Ethernet Connection (7) I219-V", 1000000000u,
       UINT64_C(91000000000), 250000},
      {"Intel(R) Wi-Fi 6 AX201 160MHz", 866700000u, UINT64_C(4200000000), 9000},
  };
  proc_state procs[] = {
      {"svchost", 1096, 60, 0, 24 << 20, 900},
      {"svchost", 1340, 30, 0, 14 << 20, 520},
      {"explorer", 5820, 90, 0, 180 << 20, 3100},
      {"chrome", 7712, 300, 0, 410 << 20, 1900},
      {"svchost", 2208, 20, 0, 9 << 20, 310},
      {"chrome", 9044, 150, 0, 230 << 20, 700},
  };
  const int nproc = (int)(sizeof procs / sizeof *procs);
  uint64_t idle_process = 0;
  for (int p = 0; p < nproc; p++)
    procs[p].cpu = UINT64_C(9000000000) * (uint64_t)(p + 1);

  cap_mkdir(dir);
  cap_write_names(dir, names, sizeof names / sizeof *names);

  for (int k = 0; k < INTERVALS; k++) {
    /* Advance the host by one interval (nothing before sample 0). */
    int64_t dt_ms = k == 0 ? 0 : 10000 + cap_between(&rng, -15, 15);
    uint64_t d100 = (uint64_t)dt_ms * 10000; /* 100 ns units */
    t_ms += dt_ms;
    uint64_t busy_sum = 0;
    for (int c = 0; c < NCPU; c++) {
      cpu_state *s = &cpu[c];
      s->busy_pm = walk(&rng, s->busy_pm, 90, 20, 950);
      if (k == 30 && c < 2)
        s->busy_pm = 930; /* a build starts on two CPUs */
      uint64_t busy = d100 * (uint64_t)s->busy_pm / 1000;
      uint64_t user = busy * (uint64_t)cap_between(&rng, 550, 800) / 1000;
      s->idle += d100 - busy;
      s->user += user;
      s->priv += busy - user;
      s->interrupts += (uint32_t)(cap_between(&rng, 400, 1600) * dt_ms / 1000);
      busy_sum += busy;
    }
    avail = walk(&rng, avail, 64 << 20, INT64_C(5) << 30, INT64_C(11) << 30);
    committed =
        walk(&rng, committed, 48 << 20, INT64_C(9) << 30, INT64_C(13) << 30);
    page_rate = walk(&rng, page_rate, 30, 0, 400);
    pages += (uint32_t)((k % 17 == 5 ? 2500 : page_rate) * dt_ms / 1000);
    queue_len = walk(&rng, queue_len, 2, 0, 7);
    switches += (uint32_t)(cap_between(&rng, 9000, 26000) * dt_ms / 1000);
    processes = walk(&rng, processes, 2, 139, 161);
    for (int i = 0; i < 2; i++) {
      disk_state *s = &disk[i];
      uint32_t reads = (uint32_t)cap_between(&rng, 0, i == 0 ? 1500 : 200);
      uint32_t latency = (uint32_t)cap_between(&rng, 1000, 20000); /* ticks */
      int64_t util_pm = reads * 600 / 1500 + cap_between(&rng, 0, 40);
      s->reads += reads;
      s->read_ticks += reads * latency;
      s->busy += d100 * (uint64_t)util_pm / 1000;
      s->queue += d100 * (uint64_t)(util_pm * 3 / 2) / 1000;
      s->bytes += (uint64_t)reads * 4096 * (uint64_t)cap_between(&rng, 4, 32);
      if (k > 0 && s->free_mb > 10)
        s->free_mb -= (uint32_t)cap_between(&rng, 0, 12);
    }
    for (int i = 0; i < 2; i++) {
      nic[i].rate =
          walk(&rng, nic[i].rate, nic[i].rate / 4 + 1000, 500, 30000000);
      nic[i].bytes += (uint64_t)(nic[i].rate * dt_ms / 1000);
    }
    int64_t weight_sum = 0;
    for (int p = 0; p < nproc; p++) {
      procs[p].weight = walk(&rng, procs[p].weight, 25, 1, 600);
      weight_sum += procs[p].weight;
    }
    uint64_t given = 0;
    for (int p = 0; p < nproc; p++) {
      proc_state *s = &procs[p];
      uint64_t share = busy_sum * (uint64_t)s->weight / (uint64_t)weight_sum;
      s->cpu += share;
      given += share;
      s->working = walk(&rng, s->working, 2 << 20, 4 << 20, INT64_C(1) << 30);
      s->handles = walk(&rng, s->handles, 15, 100, 5000);
    }
    if (k == 40) { /* the second chrome restarts: new pid, time from 0 */
      procs[5].pid = 10388;
      procs[5].cpu = 1500000;
      procs[5].working = 60 << 20;
      procs[5].handles = 240;
    }
    idle_process +=
        k == 0 ? UINT64_C(9200000000000) : (uint64_t)NCPU * d100 - given;

    /* Clocks: QPC at 10 MHz counts since boot; PerfTime100nSec is the
     * FILETIME of the sample. */
    int64_t ft = cap_filetime(start) + t_ms * 10000;
    uint16_t st[8];
    cap_system_time(start + t_ms / 1000, st);
    st[7] = (uint16_t)(t_ms % 1000);
    enc_blob *b = enc_new("DEMO-PC");
    enc_set_system_time(b, st);
    enc_set_clock(b, (t_ms - boot_ms) * 10000, 10000000, ft);

    /* System (single instance). System Up Time is an ELAPSED_TIME: the
     * boot time in the object's own clock (format.md 3). */
    enc_object *sys = enc_add_object(b, WK_SYSTEM, ENC_SINGLE_INSTANCE);
    uint32_t s_ql = enc_add_counter(sys, WK_QUEUE_LENGTH, PD_COUNTER_RAWCOUNT);
    uint32_t s_cs =
        enc_add_counter(sys, WK_CONTEXT_SWITCHES, PD_COUNTER_COUNTER);
    uint32_t s_up = enc_add_counter(sys, WK_UP_TIME, PD_ELAPSED_TIME);
    uint32_t s_pr = enc_add_counter(sys, WK_PROCESSES, PD_COUNTER_RAWCOUNT);
    enc_object_set_clock(sys, ft, 10000000);
    enc_set_value(sys, ENC_SINGLE, s_ql, (uint64_t)queue_len);
    enc_set_value(sys, ENC_SINGLE, s_cs, switches);
    enc_set_value(sys, ENC_SINGLE, s_up,
                  (uint64_t)(cap_filetime(start) + boot_ms * 10000));
    enc_set_value(sys, ENC_SINGLE, s_pr, (uint64_t)processes);

    /* Memory (single instance). */
    enc_object *mem = enc_add_object(b, WK_MEMORY, ENC_SINGLE_INSTANCE);
    uint32_t m_av =
        enc_add_counter(mem, WK_AVAILABLE_BYTES, PD_COUNTER_LARGE_RAWCOUNT);
    uint32_t m_cb =
        enc_add_counter(mem, WK_COMMITTED_BYTES, PD_COUNTER_LARGE_RAWCOUNT);
    uint32_t m_pg = enc_add_counter(mem, WK_PAGES_SEC, PD_COUNTER_COUNTER);
    uint32_t m_ci = enc_add_counter(mem, WK_COMMITTED_IN_USE, PD_RAW_FRACTION);
    uint32_t m_cib =
        enc_add_counter(mem, WK_COMMITTED_IN_USE_BASE, PD_RAW_BASE);
    enc_set_value(mem, ENC_SINGLE, m_av, (uint64_t)avail & ~UINT64_C(4095));
    enc_set_value(mem, ENC_SINGLE, m_cb, (uint64_t)committed & ~UINT64_C(4095));
    enc_set_value(mem, ENC_SINGLE, m_pg, pages);
    /* In pages, so both fit a DWORD. */
    enc_set_value(mem, ENC_SINGLE, m_ci, (uint64_t)committed / 4096);
    enc_set_value(mem, ENC_SINGLE, m_cib, (uint64_t)commit_limit / 4096);

    /* Processor: CPUs 0-3 and _Total (the CPUs' average: sums / NCPU). */
    enc_object *pr = enc_add_object(b, WK_PROCESSOR, ENC_MULTI_INSTANCE);
    uint32_t p_pt =
        enc_add_counter(pr, WK_PROCESSOR_TIME, PD_100NSEC_TIMER_INV);
    uint32_t p_ut = enc_add_counter(pr, WK_USER_TIME, PD_100NSEC_TIMER);
    uint32_t p_kt = enc_add_counter(pr, WK_PRIVILEGED_TIME, PD_100NSEC_TIMER);
    uint32_t p_in = enc_add_counter(pr, WK_INTERRUPTS, PD_COUNTER_COUNTER);
    uint64_t sum_idle = 0, sum_user = 0, sum_priv = 0;
    uint32_t sum_int = 0;
    for (int c = 0; c < NCPU; c++) {
      char name[16];
      snprintf(name, sizeof name, "%d", c);
      uint32_t i = enc_add_instance(pr, name);
      enc_set_value(pr, i, p_pt, cpu[c].idle);
      enc_set_value(pr, i, p_ut, cpu[c].user);
      enc_set_value(pr, i, p_kt, cpu[c].priv);
      enc_set_value(pr, i, p_in, cpu[c].interrupts);
      sum_idle += cpu[c].idle;
      sum_user += cpu[c].user;
      sum_priv += cpu[c].priv;
      sum_int += cpu[c].interrupts;
    }
    uint32_t pt = enc_add_instance(pr, "_Total");
    enc_set_value(pr, pt, p_pt, sum_idle / NCPU);
    enc_set_value(pr, pt, p_ut, sum_user / NCPU);
    enc_set_value(pr, pt, p_kt, sum_priv / NCPU);
    enc_set_value(pr, pt, p_in, sum_int);

    /* LogicalDisk: C:, D:, _Total. */
    enc_object *ld = enc_add_object(b, WK_LOGICALDISK, ENC_MULTI_INSTANCE);
    uint32_t l_fs = enc_add_counter(ld, WK_FREE_SPACE, PD_RAW_FRACTION);
    uint32_t l_fsb = enc_add_counter(ld, WK_FREE_SPACE_BASE, PD_RAW_BASE);
    uint32_t l_fm = enc_add_counter(ld, WK_FREE_MEGABYTES, PD_COUNTER_RAWCOUNT);
    uint32_t l_sr = enc_add_counter(ld, WK_DISK_SEC_READ, PD_AVERAGE_TIMER);
    uint32_t l_srb =
        enc_add_counter(ld, WK_DISK_SEC_READ_BASE, PD_AVERAGE_BASE);
    uint32_t l_rd = enc_add_counter(ld, WK_DISK_READS, PD_COUNTER_COUNTER);
    /* PhysicalDisk: "0 C:", "1 D:", _Total. */
    enc_object *pd = enc_add_object(b, WK_PHYSICALDISK, ENC_MULTI_INSTANCE);
    uint32_t d_dt = enc_add_counter(pd, WK_DISK_TIME, PD_100NSEC_TIMER);
    uint32_t d_ql = enc_add_counter(pd, WK_AVG_DISK_QUEUE_LENGTH,
                                    PD_COUNTER_100NS_QUEUELEN_TYPE);
    uint32_t d_by = enc_add_counter(pd, WK_DISK_BYTES, PD_COUNTER_BULK_COUNT);
    disk_state tot = {"_Total", "_Total", 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i <= 2; i++) {
      const disk_state *s = i < 2 ? &disk[i] : &tot;
      uint32_t li = enc_add_instance(ld, s->logical);
      enc_set_value(ld, li, l_fs, s->free_mb);
      enc_set_value(ld, li, l_fsb, s->total_mb);
      enc_set_value(ld, li, l_fm, s->free_mb);
      enc_set_value(ld, li, l_sr, s->read_ticks);
      enc_set_value(ld, li, l_srb, s->reads);
      enc_set_value(ld, li, l_rd, s->reads);
      uint32_t di = enc_add_instance(pd, s->physical);
      /* _Total of a percentage and a queue: the disks' average. */
      enc_set_value(pd, di, d_dt, i < 2 ? s->busy : s->busy / 2);
      enc_set_value(pd, di, d_ql, i < 2 ? s->queue : s->queue / 2);
      enc_set_value(pd, di, d_by, s->bytes);
      if (i < 2) {
        tot.total_mb += s->total_mb;
        tot.free_mb += s->free_mb;
        tot.read_ticks += s->read_ticks;
        tot.reads += s->reads;
        tot.busy += s->busy;
        tot.queue += s->queue;
        tot.bytes += s->bytes;
      }
    }

    /* Network Interface: names with spaces and parentheses. */
    enc_object *ni =
        enc_add_object(b, WK_NETWORK_INTERFACE, ENC_MULTI_INSTANCE);
    uint32_t n_bt = enc_add_counter(ni, WK_BYTES_TOTAL, PD_COUNTER_BULK_COUNT);
    uint32_t n_bw = enc_add_counter(ni, WK_BANDWIDTH, PD_COUNTER_RAWCOUNT);
    for (int i = 0; i < 2; i++) {
      uint32_t n = enc_add_instance(ni, nic[i].name);
      enc_set_value(ni, n, n_bt, nic[i].bytes);
      enc_set_value(ni, n, n_bw, nic[i].bandwidth);
    }

    /* Process: Idle, the processes (svchost x3, chrome x2: duplicates PDH
     * numbers svchost#1, svchost#2, chrome#1), _Total. */
    enc_object *ps = enc_add_object(b, WK_PROCESS, ENC_MULTI_INSTANCE);
    uint32_t c_pt = enc_add_counter(ps, WK_PROCESSOR_TIME, PD_100NSEC_TIMER);
    uint32_t c_ws =
        enc_add_counter(ps, WK_WORKING_SET, PD_COUNTER_LARGE_RAWCOUNT);
    uint32_t c_id = enc_add_counter(ps, WK_ID_PROCESS, PD_COUNTER_RAWCOUNT);
    uint32_t c_hc = enc_add_counter(ps, WK_HANDLE_COUNT, PD_COUNTER_RAWCOUNT);
    uint32_t idle = enc_add_instance(ps, "Idle");
    enc_set_value(ps, idle, c_pt, idle_process);
    enc_set_value(ps, idle, c_ws, 8192);
    enc_set_value(ps, idle, c_id, 0);
    enc_set_value(ps, idle, c_hc, 0);
    uint64_t tot_cpu = idle_process, tot_ws = 8192, tot_hc = 0;
    for (int p = 0; p < nproc; p++) {
      uint32_t i = enc_add_instance(ps, procs[p].name);
      enc_set_value(ps, i, c_pt, procs[p].cpu);
      enc_set_value(ps, i, c_ws, (uint64_t)procs[p].working & ~UINT64_C(4095));
      enc_set_value(ps, i, c_id, procs[p].pid);
      enc_set_value(ps, i, c_hc, (uint64_t)procs[p].handles);
      tot_cpu += procs[p].cpu;
      tot_ws += (uint64_t)procs[p].working & ~UINT64_C(4095);
      tot_hc += (uint64_t)procs[p].handles;
    }
    uint32_t ptot = enc_add_instance(ps, "_Total");
    enc_set_value(ps, ptot, c_pt, tot_cpu);
    enc_set_value(ps, ptot, c_ws, tot_ws);
    enc_set_value(ps, ptot, c_id, 0);
    enc_set_value(ps, ptot, c_hc, tot_hc);

    size_t len;
    uint8_t *blob = enc_build(b, &len);
    cap_write_blob(dir, (unsigned)k, blob, len);
    free(blob);
    enc_free(b);
  }
  return 0;
}
