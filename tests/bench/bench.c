/* collectd-winperf: parser benchmarks (figures, never assertions).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   bench            realistic blobs built with the test encoder:
 *                    ~0.5 MB (Memory, Processor x17, Process x1,000 with
 *                    duplicate names, 60 counters each) and ~2 MB (the same
 *                    plus Thread x13,000 with Process parents)
 *   bench FILE...    any blob(s), every counter of every object selected
 *
 * For each blob: decode alone, and decode + select + compute for a typical
 * configuration (20 paths, some wildcards) over alternating samples, as the
 * plugin runs each interval. Prints the median time per blob, ns per
 * instance, MB/s, and allocations per interval once warm (counted by
 * wrapping malloc/calloc/realloc at link time). For scale it also times a
 * plain pass reading every byte of the blob once.
 */
#include "encoder.h"
#include "known_indices.h"
#include "perfdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Under callgrind (tests/bench/instructions.sh starts it with
 * --instr-atstart=no) only the measured rounds are instrumented: the
 * blobs are built and the warm-up rounds run at full speed. Elsewhere the
 * requests do nothing. */
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

/* ------------------------------------------------ allocation counting */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
static unsigned long allocations;
void *__wrap_malloc(size_t n) {
  allocations++;
  return __real_malloc(n);
}
void *__wrap_calloc(size_t n, size_t m) {
  allocations++;
  return __real_calloc(n, m);
}
void *__wrap_realloc(void *p, size_t n) {
  allocations++;
  return __real_realloc(p, n);
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

enum { MAX_RUNS = 2001 };

#define COUNT_OF(a) (sizeof(a) / sizeof *(a))

/* ------------------------------------------------------- the blobs */

typedef struct host {
  enc_blob *blob;
  enc_object *memory, *processor, *process, *thread;
} host;

static uint32_t counter_type_for(uint32_t i) {
  static const uint32_t mix[] = {PD_100NSEC_TIMER, PD_COUNTER_LARGE_RAWCOUNT,
                                 PD_COUNTER_BULK_COUNT, PD_COUNTER_RAWCOUNT,
                                 PD_COUNTER_COUNTER};
  return mix[i % 5];
}

/* The host; its process at position i is the one of slot first + i (its
 * name and id), so a host built with first + 10 has had the 10 oldest
 * processes exit and 10 new ones start at the end: every later instance,
 * and every thread, has moved. */
static host build_host_from(bool with_threads, int first) {
  host h;
  memset(&h, 0, sizeof h);
  h.blob = enc_new("BENCH-HOST");
  enc_set_clock(h.blob, 1000000000, 10000000, 133485408000000000);

  h.memory = enc_add_object(h.blob, WK_MEMORY, ENC_SINGLE_INSTANCE);
  enc_add_counter(h.memory, WK_AVAILABLE_BYTES, PD_COUNTER_LARGE_RAWCOUNT);
  enc_add_counter(h.memory, WK_COMMITTED_BYTES, PD_COUNTER_LARGE_RAWCOUNT);
  enc_add_counter(h.memory, WK_PAGES_SEC, PD_COUNTER_COUNTER);
  for (uint32_t c = 0; c < 27; c++)
    enc_add_counter(h.memory, 2000 + 2 * c, counter_type_for(c));

  h.processor = enc_add_object(h.blob, WK_PROCESSOR, ENC_MULTI_INSTANCE);
  enc_add_counter(h.processor, WK_PROCESSOR_TIME, PD_100NSEC_TIMER_INV);
  enc_add_counter(h.processor, WK_USER_TIME, PD_100NSEC_TIMER);
  enc_add_counter(h.processor, WK_PRIVILEGED_TIME, PD_100NSEC_TIMER);
  enc_add_counter(h.processor, WK_INTERRUPTS, PD_COUNTER_COUNTER);
  for (uint32_t c = 0; c < 11; c++)
    enc_add_counter(h.processor, 2100 + 2 * c, counter_type_for(c));
  for (int i = 0; i < 17; i++) {
    char name[16];
    if (i == 16)
      snprintf(name, sizeof name, "_Total");
    else
      snprintf(name, sizeof name, "%d", i);
    enc_add_instance(h.processor, name);
  }

  h.process = enc_add_object(h.blob, WK_PROCESS, ENC_MULTI_INSTANCE);
  enc_add_counter(h.process, WK_PROCESSOR_TIME, PD_100NSEC_TIMER);
  enc_add_counter(h.process, WK_WORKING_SET, PD_COUNTER_LARGE_RAWCOUNT);
  enc_add_counter(h.process, WK_HANDLE_COUNT, PD_COUNTER_RAWCOUNT);
  enc_add_counter(h.process, WK_ID_PROCESS, PD_COUNTER_RAWCOUNT);
  enc_add_counter(h.process, WK_IO_READ_BYTES, PD_COUNTER_BULK_COUNT);
  for (uint32_t c = 0; c < 55; c++)
    enc_add_counter(h.process, 2200 + 2 * c, counter_type_for(c));
  static const char *const names[] = {
      "svchost",  "chrome",   "RuntimeBroker", "conhost",   "w3wp",
      "sqlservr", "explorer", "dllhost",       "taskhostw", "MsMpEng"};
  for (int i = 0; i < 1000; i++) {
    char name[32];
    int slot = first + i;
    if (i == 999)
      snprintf(name, sizeof name, "_Total");
    else if (slot % 3 == 0) /* a third are duplicates of a few names */
      snprintf(name, sizeof name, "%s", names[slot % 10]);
    else
      snprintf(name, sizeof name, "%s-%d", names[slot % 10], slot);
    uint32_t in = enc_add_instance(h.process, name);
    enc_set_value(h.process, in, 3, (uint64_t)(4 * slot + 4));
  }

  if (with_threads) {
    h.thread = enc_add_object(h.blob, WK_THREAD, ENC_MULTI_INSTANCE);
    enc_add_counter(h.thread, WK_PROCESSOR_TIME, PD_100NSEC_TIMER);
    enc_add_counter(h.thread, WK_THREAD_STATE, PD_COUNTER_RAWCOUNT);
    for (uint32_t c = 0; c < 10; c++)
      enc_add_counter(h.thread, 2400 + 2 * c, counter_type_for(c));
    for (int i = 0; i < 13000; i++) {
      char name[16];
      snprintf(name, sizeof name, "%d", i % 13);
      uint32_t in = enc_add_instance(h.thread, name);
      enc_instance_set_parent(h.thread, in, WK_PROCESS, (uint32_t)(i / 13));
    }
  }
  return h;
}

static host build_host(bool with_threads) {
  return build_host_from(with_threads, 0);
}

/* Advance every value as one interval (1 s) would. */
static void advance(host *h, int step) {
  enc_set_clock(h->blob, 1000000000 + (int64_t)step * 10000000, 10000000,
                133485408000000000 + (int64_t)step * 10000000);
  enc_object *objs[] = {h->memory, h->processor, h->process, h->thread};
  for (int k = 0; k < 4; k++) {
    enc_object *o = objs[k];
    if (o == NULL)
      continue;
    uint32_t ni = enc_object_instance_count(o),
             nc = enc_object_counter_count(o);
    if (o == h->memory)
      ni = 1;
    for (uint32_t i = 0; i < ni; i++)
      for (uint32_t c = 0; c < nc; c++)
        if (o != h->process || c != 3) /* ID Process stays */
          enc_set_value(o, i, c,
                        enc_get_value(o, i, c) + 1000 * (uint64_t)(c + i % 7));
  }
}

/* The churn case's interval k: every interval 1 % of the processes (10 of
 * 1,000, and so their 130 threads) exit and others start, cumulatively:
 * the processes of slot i % 100 <= k are others by now (another first
 * letter, so other full names and #n numbering, and another id). Patched
 * into the built blob: the names keep their length. */
static void churn_processes(const host *h, uint8_t *blob, int k) {
  for (uint32_t i = 0; i < 999; i++) { /* not _Total */
    if ((int)(i % 100) > k)
      continue;
    enc_put16(blob, enc_instance_name_offset(h->process, i), 'Z', false);
    enc_put32(blob, enc_value_offset(h->process, i, 3), 100000 + 4 * i + 4,
              false);
  }
}

static void append(uint8_t **buf, size_t *len, size_t *cap, const char *s) {
  size_t n = strlen(s);
  if (*len + 2 * n + 4 > *cap) {
    *cap = (*cap + 2 * n + 4) * 2;
    *buf = realloc(*buf, *cap);
  }
  for (size_t i = 0; i <= n; i++) { /* with the NUL */
    (*buf)[(*len)++] = (uint8_t)s[i];
    (*buf)[(*len)++] = 0;
  }
}

/* The name table of the bench host as REG_MULTI_SZ (format.md 4.1). */
static uint8_t *bench_names_multisz(size_t *out_len) {
  static const char *const pairs[] = {
      "1",    "2500",
      "2",    "System",
      "4",    "Memory",
      "230",  "Process",
      "232",  "Thread",
      "238",  "Processor",
      "6",    "% Processor Time",
      "142",  "% User Time",
      "144",  "% Privileged Time",
      "148",  "Interrupts/sec",
      "1380", "Available Bytes",
      "26",   "Committed Bytes",
      "40",   "Pages/sec",
      "180",  "Working Set",
      "952",  "Handle Count",
      "784",  "ID Process",
      "1420", "IO Read Bytes/sec",
      "46",   "Thread State",
  };
  uint8_t *buf = NULL;
  size_t len = 0, cap = 0;
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
    append(&buf, &len, &cap, pairs[i]);
  append(&buf, &len, &cap, "");
  *out_len = len;
  return buf;
}

static pd_names *bench_names(void) {
  size_t len = 0;
  uint8_t *buf = bench_names_multisz(&len);
  pd_names *names = NULL;
  pd_error err;
  if (pd_names_parse(buf, len, &names, &err) != PD_OK)
    fprintf(stderr, "bench: names: %s\n", err.message);
  free(buf);
  return names;
}

static const char *const typical_paths[] = {
    "\\Processor(*)\\% Processor Time",
    "\\Processor(_Total)\\% User Time",
    "\\Processor(_Total)\\% Privileged Time",
    "\\Processor(_Total)\\Interrupts/sec",
    "\\Memory\\Available Bytes",
    "\\Memory\\Committed Bytes",
    "\\Memory\\Pages/sec",
    "\\Process(*)\\% Processor Time",
    "\\Process(*)\\Working Set",
    "\\Process(svchost*)\\Handle Count",
    "\\Process(_Total)\\IO Read Bytes/sec",
    "\\Process(_Total)\\Handle Count",
    "\\Process(w3wp*)\\ID Process",
    "\\Process(explorer)\\Working Set",
    "\\Process(sqlservr)\\% Processor Time",
    "\\Process(chrome#2)\\Working Set",
    "\\Processor(0)\\% User Time",
    "\\Processor(1)\\% Privileged Time",
    "\\Processor(2)\\% Processor Time",
    "\\Memory\\Pages/sec",
};

/* Thread paths make every thread's full name ("process/n#k") necessary:
 * measured separately. */
static const char *const thread_paths[] = {
    "\\Thread(explorer/*)\\% Processor Time",
    "\\Thread(_Total/*)\\Thread State",
};

/* ------------------------------------------- the threads host */

/* interval-threads: a host shaped as Windows gives it, built apart from
 * the host above: Processor x17, Memory, Process x1,000 (Windows' own
 * counter set, ID Process among them, a third of the names duplicates) and
 * Thread x13,000 (13 per process, each with its process as parent and ID
 * Process and ID Thread), every instance in every sample. The paths: 3
 * \Processor(*), 9 \Memory, 8 \Process(*) and 2 \Thread(*) ones, 34,060 values.
 */
typedef struct counter_spec {
  uint32_t index, type;
  const char *name;
} counter_spec;

static const counter_spec th_processor[] = {
    {WK_PROCESSOR_TIME, PD_100NSEC_TIMER_INV, "% Processor Time"},
    {WK_USER_TIME, PD_100NSEC_TIMER, "% User Time"},
    {WK_PRIVILEGED_TIME, PD_100NSEC_TIMER, "% Privileged Time"},
    {WK_INTERRUPTS, PD_COUNTER_COUNTER, "Interrupts/sec"},
    {WK_IDLE_TIME, PD_100NSEC_TIMER, "% Idle Time"},
};
static const counter_spec th_memory[] = {
    {WK_PAGE_FAULTS, PD_COUNTER_COUNTER, "Page Faults/sec"},
    {WK_AVAILABLE_BYTES, PD_COUNTER_LARGE_RAWCOUNT, "Available Bytes"},
    {WK_COMMITTED_BYTES, PD_COUNTER_LARGE_RAWCOUNT, "Committed Bytes"},
    {WK_COMMIT_LIMIT, PD_COUNTER_LARGE_RAWCOUNT, "Commit Limit"},
    {WK_PAGES_SEC, PD_COUNTER_COUNTER, "Pages/sec"},
    {WK_CACHE_BYTES, PD_COUNTER_LARGE_RAWCOUNT, "Cache Bytes"},
    {WK_POOL_PAGED, PD_COUNTER_LARGE_RAWCOUNT, "Pool Paged Bytes"},
    {WK_POOL_NONPAGED, PD_COUNTER_LARGE_RAWCOUNT, "Pool Nonpaged Bytes"},
    {WK_COMMITTED_IN_USE, PD_RAW_FRACTION, "% Committed Bytes In Use"},
    {WK_COMMITTED_IN_USE_BASE, PD_RAW_BASE, "% Committed Bytes In Use Base"},
};
static const counter_spec th_process[] = {
    {WK_PROCESSOR_TIME, PD_100NSEC_TIMER, "% Processor Time"},
    {WK_USER_TIME, PD_100NSEC_TIMER, "% User Time"},
    {WK_PRIVILEGED_TIME, PD_100NSEC_TIMER, "% Privileged Time"},
    {WK_VIRTUAL_BYTES_PEAK, PD_COUNTER_LARGE_RAWCOUNT, "Virtual Bytes Peak"},
    {WK_VIRTUAL_BYTES, PD_COUNTER_LARGE_RAWCOUNT, "Virtual Bytes"},
    {WK_PAGE_FAULTS, PD_COUNTER_COUNTER, "Page Faults/sec"},
    {WK_WORKING_SET_PEAK, PD_COUNTER_LARGE_RAWCOUNT, "Working Set Peak"},
    {WK_WORKING_SET, PD_COUNTER_LARGE_RAWCOUNT, "Working Set"},
    {WK_PAGE_FILE_BYTES_PEAK, PD_COUNTER_LARGE_RAWCOUNT,
     "Page File Bytes Peak"},
    {WK_PAGE_FILE_BYTES, PD_COUNTER_LARGE_RAWCOUNT, "Page File Bytes"},
    {WK_PRIVATE_BYTES, PD_COUNTER_LARGE_RAWCOUNT, "Private Bytes"},
    {WK_THREAD_COUNT, PD_COUNTER_RAWCOUNT, "Thread Count"},
    {WK_PRIORITY_BASE, PD_COUNTER_RAWCOUNT, "Priority Base"},
    {WK_ELAPSED_TIME, PD_ELAPSED_TIME, "Elapsed Time"},
    {WK_ID_PROCESS, PD_COUNTER_RAWCOUNT, "ID Process"},
    {WK_POOL_PAGED, PD_COUNTER_RAWCOUNT, "Pool Paged Bytes"},
    {WK_POOL_NONPAGED, PD_COUNTER_RAWCOUNT, "Pool Nonpaged Bytes"},
    {WK_HANDLE_COUNT, PD_COUNTER_RAWCOUNT, "Handle Count"},
    {WK_IO_READ_OPS, PD_COUNTER_BULK_COUNT, "IO Read Operations/sec"},
    {WK_IO_WRITE_OPS, PD_COUNTER_BULK_COUNT, "IO Write Operations/sec"},
    {WK_IO_READ_BYTES, PD_COUNTER_BULK_COUNT, "IO Read Bytes/sec"},
    {WK_IO_WRITE_BYTES, PD_COUNTER_BULK_COUNT, "IO Write Bytes/sec"},
    {WK_PRIVATE_WORKING_SET, PD_COUNTER_LARGE_RAWCOUNT,
     "Working Set - Private"},
};
static const counter_spec th_thread[] = {
    {WK_PROCESSOR_TIME, PD_100NSEC_TIMER, "% Processor Time"},
    {WK_USER_TIME, PD_100NSEC_TIMER, "% User Time"},
    {WK_PRIVILEGED_TIME, PD_100NSEC_TIMER, "% Privileged Time"},
    {WK_CONTEXT_SWITCHES, PD_COUNTER_COUNTER, "Context Switches/sec"},
    {WK_ELAPSED_TIME, PD_ELAPSED_TIME, "Elapsed Time"},
    {WK_PRIORITY_CURRENT, PD_COUNTER_RAWCOUNT, "Priority Current"},
    {WK_PRIORITY_BASE, PD_COUNTER_RAWCOUNT, "Priority Base"},
    {WK_START_ADDRESS, PD_COUNTER_LARGE_RAWCOUNT_HEX, "Start Address"},
    {WK_THREAD_STATE, PD_COUNTER_RAWCOUNT, "Thread State"},
    {WK_THREAD_WAIT_REASON, PD_COUNTER_RAWCOUNT, "Thread Wait Reason"},
    {WK_ID_PROCESS, PD_COUNTER_RAWCOUNT, "ID Process"},
    {WK_ID_THREAD, PD_COUNTER_RAWCOUNT, "ID Thread"},
};

enum { TH_PROCESSES = 1000, TH_THREADS = 13 };

typedef struct threads_host {
  enc_blob *blob;
  enc_object *obj[4]; /* Processor, Memory, Process, Thread */
  const counter_spec *spec[4];
  uint32_t counters[4];
} threads_host;

static void add_counters(threads_host *h, int k, const counter_spec *spec,
                         uint32_t n) {
  h->spec[k] = spec;
  h->counters[k] = n;
  for (uint32_t c = 0; c < n; c++)
    enc_add_counter(h->obj[k], spec[c].index, spec[c].type);
}

/* Process i's name: Idle and System first, _Total last, between them
 * the mix of a busy server (a third svchost). */
static void process_name(int i, char *name, size_t size) {
  static const char *const common[] = {
      "svchost", "svchost", "svchost", "chrome",        "svchost",
      "conhost", "w3wp",    "chrome",  "RuntimeBroker", "dllhost"};
  if (i == 0)
    snprintf(name, size, "Idle");
  else if (i == 1)
    snprintf(name, size, "System");
  else if (i == TH_PROCESSES - 1)
    snprintf(name, size, "_Total");
  else if (i % 4 == 0)
    snprintf(name, size, "app%03d", i);
  else
    snprintf(name, size, "%s", common[i % 10]);
}

/* The position of counter `index` in spec[0, n). */
static uint32_t position_of(const counter_spec *spec, uint32_t n,
                            uint32_t index) {
  uint32_t c = 0;
  while (c < n && spec[c].index != index)
    c++;
  return c;
}

static threads_host build_threads_host(void) {
  const uint32_t pid = position_of(th_process, COUNT_OF(th_process),
                                   WK_ID_PROCESS),
                 tpid =
                     position_of(th_thread, COUNT_OF(th_thread), WK_ID_PROCESS),
                 tid =
                     position_of(th_thread, COUNT_OF(th_thread), WK_ID_THREAD);
  threads_host h;
  memset(&h, 0, sizeof h);
  h.blob = enc_new("THREADS-HOST");
  enc_set_clock(h.blob, 1000000000, 10000000, 133485408000000000);
  h.obj[0] = enc_add_object(h.blob, WK_PROCESSOR, ENC_MULTI_INSTANCE);
  add_counters(&h, 0, th_processor, COUNT_OF(th_processor));
  for (int i = 0; i < 17; i++) {
    char name[16];
    snprintf(name, sizeof name, i == 16 ? "_Total" : "%d", i);
    enc_add_instance(h.obj[0], name);
  }
  h.obj[1] = enc_add_object(h.blob, WK_MEMORY, ENC_SINGLE_INSTANCE);
  add_counters(&h, 1, th_memory, COUNT_OF(th_memory));
  h.obj[2] = enc_add_object(h.blob, WK_PROCESS, ENC_MULTI_INSTANCE);
  add_counters(&h, 2, th_process, COUNT_OF(th_process));
  h.obj[3] = enc_add_object(h.blob, WK_THREAD, ENC_MULTI_INSTANCE);
  add_counters(&h, 3, th_thread, COUNT_OF(th_thread));
  for (int i = 0; i < TH_PROCESSES; i++) {
    char name[32];
    process_name(i, name, sizeof name);
    bool zero = i == 0 || i == TH_PROCESSES - 1; /* Idle, _Total: id 0 */
    uint32_t p = enc_add_instance(h.obj[2], name);
    enc_set_value(h.obj[2], p, pid, zero ? 0 : 4 * (uint64_t)i + 4);
    for (int t = 0; t < TH_THREADS; t++) {
      char tname[16];
      snprintf(tname, sizeof tname, i == TH_PROCESSES - 1 ? "_Total" : "%d", t);
      uint32_t in = enc_add_instance(h.obj[3], tname);
      enc_instance_set_parent(h.obj[3], in, WK_PROCESS, p);
      enc_set_value(h.obj[3], in, tpid, zero ? 0 : 4 * (uint64_t)i + 4);
      enc_set_value(h.obj[3], in, tid,
                    zero ? 0 : 100000 + 4 * (uint64_t)(i * TH_THREADS + t));
    }
  }
  return h;
}

/* Sample k: every counter but the ids, start times and addresses moves
 * as one more second would move it. */
static void advance_threads_host(threads_host *h, int k) {
  enc_set_clock(h->blob, 1000000000 + (int64_t)k * 10000000, 10000000,
                133485408000000000 + (int64_t)k * 10000000);
  for (int o = 0; o < 4; o++) {
    uint32_t ni = o == 1 ? 1 : enc_object_instance_count(h->obj[o]);
    for (uint32_t c = 0; c < h->counters[o]; c++) {
      uint32_t index = h->spec[o][c].index;
      if (index == WK_ID_PROCESS || index == WK_ID_THREAD ||
          index == WK_ELAPSED_TIME || index == WK_START_ADDRESS)
        continue;
      for (uint32_t i = 0; i < ni; i++) {
        uint64_t step = 1000 * (uint64_t)(c + 1) + (i % 7) * 997;
        if (index == WK_COMMITTED_IN_USE_BASE)
          step = 100000;
        enc_set_value(h->obj[o], i, c, 5000000 + step * (uint64_t)(k + 1));
      }
    }
  }
}

static const char *const threads_paths[] = {
    "\\Processor(*)\\% Processor Time",
    "\\Processor(*)\\% User Time",
    "\\Processor(*)\\% Privileged Time",
    "\\Memory\\Available Bytes",
    "\\Memory\\Committed Bytes",
    "\\Memory\\Commit Limit",
    "\\Memory\\Pages/sec",
    "\\Memory\\Page Faults/sec",
    "\\Memory\\Cache Bytes",
    "\\Memory\\Pool Paged Bytes",
    "\\Memory\\Pool Nonpaged Bytes",
    "\\Memory\\% Committed Bytes In Use",
    "\\Process(*)\\% Processor Time",
    "\\Process(*)\\% User Time",
    "\\Process(*)\\% Privileged Time",
    "\\Process(*)\\Working Set",
    "\\Process(*)\\Private Bytes",
    "\\Process(*)\\Handle Count",
    "\\Process(*)\\Thread Count",
    "\\Process(*)\\IO Read Bytes/sec",
    "\\Thread(*)\\% Processor Time",
    "\\Thread(*)\\Context Switches/sec",
};

/* The same paths by index. */
static const char *const threads_numeric[] = {
    "\\238(*)\\6",   "\\238(*)\\142", "\\238(*)\\144", "\\4\\1380",
    "\\4\\26",       "\\4\\30",       "\\4\\40",       "\\4\\28",
    "\\4\\818",      "\\4\\56",       "\\4\\58",       "\\4\\1406",
    "\\230(*)\\6",   "\\230(*)\\142", "\\230(*)\\144", "\\230(*)\\180",
    "\\230(*)\\186", "\\230(*)\\952", "\\230(*)\\680", "\\230(*)\\1420",
    "\\232(*)\\6",   "\\232(*)\\146",
};

/* The threads host's name table: its objects and counters. */
static pd_names *threads_names(void) {
  uint8_t *buf = NULL;
  size_t len = 0, cap = 0;
  static const struct {
    uint32_t index;
    const char *name;
  } objects[] = {{WK_PROCESSOR, "Processor"},
                 {WK_MEMORY, "Memory"},
                 {WK_PROCESS, "Process"},
                 {WK_THREAD, "Thread"}};
  char num[16];
  append(&buf, &len, &cap, "1");
  append(&buf, &len, &cap, "2500");
  for (size_t i = 0; i < COUNT_OF(objects); i++) {
    snprintf(num, sizeof num, "%u", objects[i].index);
    append(&buf, &len, &cap, num);
    append(&buf, &len, &cap, objects[i].name);
  }
  const counter_spec *specs[] = {th_processor, th_memory, th_process,
                                 th_thread};
  const size_t counts[] = {COUNT_OF(th_processor), COUNT_OF(th_memory),
                           COUNT_OF(th_process), COUNT_OF(th_thread)};
  for (int o = 0; o < 4; o++)
    for (size_t c = 0; c < counts[o]; c++) {
      snprintf(num, sizeof num, "%u", specs[o][c].index);
      append(&buf, &len, &cap, num);
      append(&buf, &len, &cap, specs[o][c].name);
    }
  append(&buf, &len, &cap, "");
  pd_names *names = NULL;
  pd_error err;
  if (pd_names_parse(buf, len, &names, &err) != PD_OK)
    fprintf(stderr, "bench: threads names: %s\n", err.message);
  free(buf);
  return names;
}

/* ------------------------------------------------------- measuring */

enum { SAMPLES = 8 };

/* Consecutive samples of one host, cycled through as intervals. */
typedef struct blob_pair {
  const char *label;
  uint8_t *bytes[SAMPLES];
  size_t len[SAMPLES];
  int count;
} blob_pair;

static size_t total_instances(pd_snapshot *snap) {
  size_t n = 0;
  for (uint32_t k = 0; k < pd_snapshot_object_count(snap); k++)
    n += pd_snapshot_object(snap, k)->instance_count;
  return n;
}

static uint64_t read_every_byte(const uint8_t *p, size_t len) {
  uint64_t acc = 0, w;
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    memcpy(&w, p + i, 8);
    acc ^= w;
  }
  for (; i < len; i++)
    acc ^= p[i];
  return acc;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return v[n / 2];
}

/* Runs for about `budget_ns` or MAX_RUNS, whichever first. */
static int runs_for(double one_ns, double budget_ns) {
  int n = one_ns > 0 ? (int)(budget_ns / one_ns) : MAX_RUNS;
  return n < 21 ? 21 : n > MAX_RUNS ? MAX_RUNS : n;
}

static void measure(blob_pair *bp, pd_selection *sel, const char *sel_label,
                    bool header) {
  static double t[MAX_RUNS];
  pd_snapshot *snap[2] = {pd_snapshot_new(), pd_snapshot_new()};
  pd_error err;
  size_t len = bp->len[0];

  if (pd_decode(snap[1], bp->bytes[0], len, NULL, &err) != PD_OK) {
    printf("%s: decode error: %s\n", bp->label, err.message);
    return;
  }
  size_t inst = total_instances(snap[1]);
  uint32_t objects = pd_snapshot_object_count(snap[1]);

  double t0, one;
  int n;
  unsigned long a0;
  if (header) {
    /* The floor: one pass reading every byte (xor of 8-byte words). */
    t0 = now_ns();
    volatile uint64_t sink = read_every_byte(bp->bytes[0], len);
    one = now_ns() - t0;
    n = runs_for(one, 3e8);
    for (int i = 0; i < n; i++) {
      t0 = now_ns();
      sink = read_every_byte(bp->bytes[0], len);
      t[i] = now_ns() - t0;
    }
    (void)sink;
    double memchr_ns = median(t, n);

    /* Decode alone, into a warm snapshot. */
    t0 = now_ns();
    pd_decode(snap[0], bp->bytes[0], len, NULL, &err);
    one = now_ns() - t0;
    n = runs_for(one, 1e9);
    a0 = allocations;
    for (int i = 0; i < n; i++) {
      t0 = now_ns();
      pd_decode(snap[0], bp->bytes[0], len, NULL, &err);
      t[i] = now_ns() - t0;
    }
    unsigned long decode_allocs = allocations - a0;
    double decode_ns = median(t, n);
    printf("%s: %.2f MB, %u objects, %zu instances\n", bp->label, len / 1e6,
           objects, inst);
    if (memchr_ns > 0)
      printf("  read every byte once (floor)   %9.1f us\n", memchr_ns / 1e3);
    printf("  decode                        %9.1f us  %6.1f ns/instance  "
           "%7.0f MB/s  %.2f allocs/blob\n",
           decode_ns / 1e3, decode_ns / (double)(inst ? inst : 1),
           len / decode_ns * 1e3, (double)decode_allocs / n);
  }
  /* Interval loop: decode the newer sample, evaluate against the older,
   * alternate snapshots, as the plugin does. Warm up first. */
  const pd_result *results = NULL;
  size_t count = 0;
  for (int w = 0; w < 4; w++) {
    int cur = w & 1, k = w % bp->count;
    pd_decode(snap[cur], bp->bytes[k], bp->len[k], NULL, &err);
    pd_selection_evaluate(sel, snap[!cur], snap[cur], &results, &count, &err);
  }
  t0 = now_ns();
  pd_decode(snap[0], bp->bytes[0], bp->len[0], NULL, &err);
  pd_selection_evaluate(sel, snap[1], snap[0], &results, &count, &err);
  one = now_ns() - t0;
  size_t ok = 0;
  bool counted = false;
  n = runs_for(one, 2e9);
  a0 = allocations;
  for (int i = 0; i < n; i++) {
    int cur = i & 1, k = i % bp->count;
    t0 = now_ns();
    pd_decode(snap[cur], bp->bytes[k], bp->len[k], NULL, &err);
    pd_selection_evaluate(sel, snap[!cur], snap[cur], &results, &count, &err);
    t[i] = now_ns() - t0;
    if (!counted && (k != 0 || bp->count == 1) &&
        i >= n - 8) { /* consecutive samples */
      counted = true;
      for (size_t r = 0; r < count; r++)
        ok += results[r].status == PD_VALUE_OK;
    }
  }
  unsigned long interval_allocs = allocations - a0;
  double interval_ns = median(t, n);

  printf("  + select + compute, %-9s %9.1f us  %6.1f ns/instance  "
         "%7.0f MB/s  %.2f allocs/interval  (%zu paths -> %zu values, %zu "
         "with a value)\n",
         sel_label, interval_ns / 1e3, interval_ns / (double)(inst ? inst : 1),
         len / interval_ns * 1e3, (double)interval_allocs / n,
         pd_selection_path_count(sel), count, ok);
  pd_snapshot_free(snap[0]);
  pd_snapshot_free(snap[1]);
}

/* ------------------------------------- instruction counts (callgrind) */

/* `bench --instructions CASE` runs ROUNDS warm intervals of one case
 * inside the bench_measured_* functions; tests/bench/instructions.sh counts
 * their instructions with callgrind's --toggle-collect (stable on a shared
 * machine, unlike times) and divides by what this prints. */
enum { ROUNDS = 8 };

/* The typical paths by index (no names table), in the same order. */
static const char *const typical_numeric[] = {
    "\\238(*)\\6",
    "\\238(_Total)\\142",
    "\\238(_Total)\\144",
    "\\238(_Total)\\148",
    "\\4\\1380",
    "\\4\\26",
    "\\4\\40",
    "\\230(*)\\6",
    "\\230(*)\\180",
    "\\230(svchost*)\\952",
    "\\230(_Total)\\1420",
    "\\230(_Total)\\952",
    "\\230(w3wp*)\\784",
    "\\230(explorer)\\180",
    "\\230(sqlservr)\\6",
    "\\230(chrome#2)\\180",
    "\\238(0)\\142",
    "\\238(1)\\144",
    "\\238(2)\\6",
    "\\4\\40",
};
static const char *const all_threads[] = {"\\Thread(*)\\% Processor Time",
                                          "\\Thread(*)\\Thread State"};
static const char *const all_threads_numeric[] = {"\\232(*)\\6",
                                                  "\\232(*)\\46"};

size_t bench_measured_decode(pd_snapshot *snap, const uint8_t *b, size_t len);
uint64_t bench_measured_decode_read(pd_snapshot *snap, const uint8_t *b,
                                    size_t len);
size_t bench_measured_interval(pd_selection *sel, pd_snapshot *older,
                               pd_snapshot *newer, const uint8_t *b,
                               size_t len);

/* Each measured function has an inline twin for the warm-up rounds, which
 * callgrind must not count. */
static inline size_t decode_once(pd_snapshot *snap, const uint8_t *b,
                                 size_t len) {
  pd_error err;
  return pd_decode(snap, b, len, NULL, &err) == PD_OK;
}

__attribute__((noinline)) size_t
bench_measured_decode(pd_snapshot *snap, const uint8_t *b, size_t len) {
  return decode_once(snap, b, len);
}

/* Decode, then read every raw value of every counter of every instance. */
static inline uint64_t decode_read_once(pd_snapshot *snap, const uint8_t *b,
                                        size_t len) {
  pd_error err;
  uint64_t sum = 0;
  if (pd_decode(snap, b, len, NULL, &err) != PD_OK)
    return 0;
  for (uint32_t k = 0; k < pd_snapshot_object_count(snap); k++) {
    const pd_object *o = pd_snapshot_object(snap, k);
    for (uint32_t i = 0; i < o->instance_count; i++)
      for (uint32_t c = 0; c < o->counter_count; c++)
        sum += pd_counter_raw(snap, &o->instances[i], &o->counters[c]);
  }
  return sum;
}

__attribute__((noinline)) uint64_t
bench_measured_decode_read(pd_snapshot *snap, const uint8_t *b, size_t len) {
  return decode_read_once(snap, b, len);
}

/* One interval as the plugin runs it: decode the newer sample, select and
 * compute against the older one. */
static inline size_t interval_once(pd_selection *sel, pd_snapshot *older,
                                   pd_snapshot *newer, const uint8_t *b,
                                   size_t len) {
  pd_error err;
  const pd_result *results;
  size_t count = 0;
  pd_decode(newer, b, len, NULL, &err);
  pd_selection_evaluate(sel, older, newer, &results, &count, &err);
  return count;
}

__attribute__((noinline)) size_t
bench_measured_interval(pd_selection *sel, pd_snapshot *older,
                        pd_snapshot *newer, const uint8_t *b, size_t len) {
  return interval_once(sel, older, newer, b, len);
}

static size_t raw_values(pd_snapshot *snap) {
  size_t n = 0;
  for (uint32_t k = 0; k < pd_snapshot_object_count(snap); k++) {
    const pd_object *o = pd_snapshot_object(snap, k);
    n += (size_t)o->instance_count * o->counter_count;
  }
  return n;
}

static pd_selection *selection_of(const char *const *a, size_t na,
                                  const char *const *b, size_t nb,
                                  const pd_names *names) {
  pd_selection *sel = pd_selection_new();
  pd_error err;
  for (size_t i = 0; i < na + nb; i++) {
    const char *path = i < na ? a[i] : b[i - na];
    if (pd_selection_add(sel, path, NULL, &err) != PD_OK)
      fprintf(stderr, "bench: %s: %s\n", path, err.message);
  }
  pd_selection_set_names(sel, names);
  /* As the plugin: paths formatted only when a log line needs one. */
  pd_selection_set_paths(sel, false);
  return sel;
}

/* Prints "values N" (what one round yields) and "rounds R". */
static int bench_instructions(const char *which) {
  /* The threads cases: their own host (decode-threads is its decode). */
  bool threads = strstr(which, "threads") != NULL;
  host h = {0};
  threads_host th = {0};
  uint8_t *blob[ROUNDS + 4];
  size_t len[ROUNDS + 4];
  bool churn = strcmp(which, "interval-churn") == 0;
  bool moved = strcmp(which, "interval-moved") == 0;
  if (threads)
    th = build_threads_host();
  else
    h = build_host(true);
  for (int k = 0; k < ROUNDS + 4; k++) {
    if (threads) {
      advance_threads_host(&th, k);
      blob[k] = enc_build(th.blob, &len[k]);
      continue;
    }
    if (moved) { /* 10 processes exit, 10 start at the end, all move */
      enc_free(h.blob);
      h = build_host_from(true, 10 * k);
    }
    advance(&h, k);
    blob[k] = enc_build(h.blob, &len[k]);
    if (churn)
      churn_processes(&h, blob[k], k);
  }
  pd_names *names = threads ? threads_names() : bench_names();
  pd_snapshot *snap[2] = {pd_snapshot_new(), pd_snapshot_new()};
  size_t values = 0;
  int rc = 0;
  if (strncmp(which, "decode", 6) == 0) {
    bool read = strncmp(which, "decode-read", 11) == 0;
    for (int k = 0; k < ROUNDS + 4; k++) { /* four warm-up rounds first */
      if (k == 4)
        CALLGRIND_START_INSTRUMENTATION;
      if (read)
        k < 4 ? decode_read_once(snap[0], blob[k], len[k])
              : bench_measured_decode_read(snap[0], blob[k], len[k]);
      else
        k < 4 ? decode_once(snap[0], blob[k], len[k])
              : bench_measured_decode(snap[0], blob[k], len[k]);
    }
    values = raw_values(snap[0]);
  } else if (strncmp(which, "interval-", 9) == 0) {
    bool numeric = strstr(which, "numeric") != NULL;
    pd_selection *sel;
    if (threads)
      sel = numeric ? selection_of(threads_numeric, COUNT_OF(threads_numeric),
                                   NULL, 0, NULL)
                    : selection_of(threads_paths, COUNT_OF(threads_paths), NULL,
                                   0, names);
    else
      sel = numeric ? selection_of(typical_numeric, COUNT_OF(typical_numeric),
                                   all_threads_numeric,
                                   COUNT_OF(all_threads_numeric), NULL)
                    : selection_of(typical_paths, COUNT_OF(typical_paths),
                                   all_threads, COUNT_OF(all_threads), names);
    for (int k = 0; k < ROUNDS + 4; k++) {
      if (k == 4)
        CALLGRIND_START_INSTRUMENTATION;
      values = k < 4 ? interval_once(sel, snap[!(k & 1)], snap[k & 1], blob[k],
                                     len[k])
                     : bench_measured_interval(sel, snap[!(k & 1)], snap[k & 1],
                                               blob[k], len[k]);
    }
    pd_selection_free(sel);
  } else {
    fprintf(stderr, "bench: unknown case %s\n", which);
    rc = 2;
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  printf("values %zu\nrounds %d\n", values, ROUNDS);
  for (int k = 0; k < ROUNDS + 4; k++)
    free(blob[k]);
  pd_snapshot_free(snap[0]);
  pd_snapshot_free(snap[1]);
  pd_names_free(names);
  enc_free(threads ? th.blob : h.blob);
  return rc;
}

static uint8_t *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = n > 0 ? malloc((size_t)n) : NULL;
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = (size_t)(n > 0 ? n : 0);
  return buf;
}

static int bench_files(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    blob_pair bp = {.label = argv[i]};
    bp.bytes[0] = read_file(argv[i], &bp.len[0]);
    if (bp.bytes[0] == NULL) {
      fprintf(stderr, "bench: cannot read %s\n", argv[i]);
      return 1;
    }
    bp.count = 1;
    /* Every counter of every object in the blob. */
    pd_snapshot *snap = pd_snapshot_new();
    pd_error err;
    pd_selection *sel = pd_selection_new();
    if (pd_decode(snap, bp.bytes[0], bp.len[0], NULL, &err) != PD_OK)
      fprintf(stderr, "bench: %s: %s\n", argv[i], err.message);
    for (uint32_t k = 0; k < pd_snapshot_object_count(snap); k++) {
      char path[48];
      const pd_object *o = pd_snapshot_object(snap, k);
      snprintf(path, sizeof path,
               o->num_instances == -1 ? "\\%u\\*" : "\\%u(*)\\*",
               o->name_index);
      pd_selection_add(sel, path, NULL, &err);
    }
    pd_snapshot_free(snap);
    measure(&bp, sel, "all", true);
    pd_selection_free(sel);
    free(bp.bytes[0]);
  }
  return 0;
}

/* ------------------------------------------ a capture for collectd */

static bool write_file(const char *path, const uint8_t *b, size_t len) {
  FILE *f = fopen(path, "wb");
  bool ok = f != NULL && fwrite(b, 1, len, f) == len;
  if (f != NULL && fclose(f) != 0)
    ok = false;
  if (!ok)
    fprintf(stderr, "bench: cannot write %s\n", path);
  return ok;
}

/* `bench --write-capture DIR N`: the instruction cases' host (with its
 * threads) as a replay capture of N samples 1 s apart (DIR/NNNN.blob and
 * DIR/names.multisz), and DIR/paths.yaml holding the interval-names case's
 * paths: what tests/bench/collectd-share.sh replays inside collectd. */
static int write_capture(const char *dir, int samples) {
  char path[4096];
  bool ok = true;
  host h = build_host(true);
  for (int k = 0; k < samples && ok; k++) {
    advance(&h, k);
    size_t len = 0;
    uint8_t *b = enc_build(h.blob, &len);
    snprintf(path, sizeof path, "%s/%04d.blob", dir, k);
    ok = b != NULL && write_file(path, b, len);
    free(b);
  }
  enc_free(h.blob);
  size_t len = 0;
  uint8_t *names = bench_names_multisz(&len);
  snprintf(path, sizeof path, "%s/names.multisz", dir);
  ok = ok && write_file(path, names, len);
  free(names);
  snprintf(path, sizeof path, "%s/paths.yaml", dir);
  FILE *f = ok ? fopen(path, "w") : NULL;
  if (f == NULL)
    return 1;
  for (size_t i = 0; i < sizeof typical_paths / sizeof *typical_paths; i++)
    fprintf(f, "- '%s'\n", typical_paths[i]);
  for (size_t i = 0; i < sizeof all_threads / sizeof *all_threads; i++)
    fprintf(f, "- '%s'\n", all_threads[i]);
  return fclose(f) == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--instructions") == 0)
    return bench_instructions(argv[2]);
  if (argc == 4 && strcmp(argv[1], "--write-capture") == 0)
    return write_capture(argv[2], atoi(argv[3]));
  if (argc > 1)
    return bench_files(argc, argv);
  pd_names *names = bench_names();
  pd_selection *sel = pd_selection_new();
  pd_error err;
  for (size_t i = 0; i < sizeof typical_paths / sizeof *typical_paths; i++)
    if (pd_selection_add(sel, typical_paths[i], NULL, &err) != PD_OK)
      fprintf(stderr, "bench: %s: %s\n", typical_paths[i], err.message);
  pd_selection_set_names(sel, names);
  pd_selection *sel_threads = pd_selection_new();
  for (size_t i = 0; i < sizeof typical_paths / sizeof *typical_paths; i++)
    pd_selection_add(sel_threads, typical_paths[i], NULL, &err);
  for (size_t i = 0; i < sizeof thread_paths / sizeof *thread_paths; i++)
    pd_selection_add(sel_threads, thread_paths[i], NULL, &err);
  pd_selection_set_names(sel_threads, names);

  for (int with_threads = 0; with_threads <= 1; with_threads++) {
    host h = build_host(with_threads);
    blob_pair bp = {.label = with_threads ? "host + Thread x13000"
                                          : "host (Memory, Processor x17, "
                                            "Process x1000)"};
    bp.count = SAMPLES;
    for (int k = 0; k < SAMPLES; k++) {
      advance(&h, k);
      bp.bytes[k] = enc_build(h.blob, &bp.len[k]);
    }
    measure(&bp, sel, "20 paths", true);
    if (with_threads)
      measure(&bp, sel_threads, "+2 Thread", false);
    for (int k = 0; k < SAMPLES; k++)
      free(bp.bytes[k]);
    enc_free(h.blob);
  }
  pd_selection_free(sel);
  pd_selection_free(sel_threads);
  pd_names_free(names);
  return 0;
}
