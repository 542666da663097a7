/* collectd-winperf: a test V1 performance provider (Open/Collect/Close).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Publishes Processor (238), System (2) and Process (230) with counters of
 * known types whose raw values advance at known rates, so a consumer's
 * formatted values can be checked against numbers fixed here (listed in
 * tests/windows/wine.sh):
 *
 *   object clock: the provider stamps each object's PerfTime (100 ns units
 *   from QueryPerformanceCounter, rounded down to 10 ms) and PerfFreq 1e7.
 *   Counters on that clock have exact values; counters on the block's
 *   clocks (stamped by the system, not by us) are right within timing
 *   jitter.
 *
 * Answers "Global" (all three) and index lists (only the objects named);
 * "Costly", "Foreign ..." and anything else get no objects.
 *
 * Two more modes, chosen by the export names the registry gives Wine:
 *
 *   CollectRenumberPerfData (with OpenPerfData): a Process object (230)
 *   whose w3wp#1 exits after the first sample, so Windows-style
 *   renumbering makes the old w3wp#2 the new w3wp#1 (issue 13). The sample
 *   number is the DWORD "Renumber Sample" under the service's Performance
 *   key (0 when absent), incremented after each answer; the object clock
 *   is 1000 + 10 * sample seconds, so every value is known by hand:
 *
 *     pid   % Processor Time  started at   sample 0          sample 1+
 *     1100  20 %              100 s        w3wp              w3wp
 *     2200  50 %              800 s        w3wp (w3wp#1)     exited
 *     3300  30 %              300 s        w3wp (w3wp#2)     w3wp (w3wp#1)
 *
 *   raw % Processor Time = busy * (clock - start): by id (pid) the rates
 *   are 20 and 30; by name w3wp#1 is (30 * 710 - 50 * 200) / 10 = 1130.
 *
 *   OpenFailPerfData: returns ERROR_FILE_NOT_FOUND, so the collector skips
 *   the provider (Windows logs a Perflib event; Wine says nothing) and its
 *   object 5000 (CollectFailPerfData, never reached) is absent.
 *
 * Under Wine 8
 * (detected by ntdll's wine_get_version export) it compensates Wine's
 * offset bug for the first provider (doc/wine.md).
 *
 * Producer code for a test: it uses the winperf.h structures directly.
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <winperf.h>

#include <stdint.h>
#include <string.h>

#define EXPORT __declspec(dllexport)

EXPORT DWORD APIENTRY OpenPerfData(LPWSTR device_names);
EXPORT DWORD APIENTRY CollectPerfData(LPWSTR value_name, LPVOID *data,
                                      LPDWORD total_bytes,
                                      LPDWORD num_object_types);
EXPORT DWORD APIENTRY ClosePerfData(void);

/* Counter types by value (format.md 2.2), in case a header lacks one. */
#define T_100NSEC_TIMER 0x20510500u
#define T_100NSEC_TIMER_INV 0x21510500u
#define T_OBJ_TIME_TIMER 0x20610500u
#define T_COUNTER_COUNTER 0x10410400u
#define T_OBJ_TIME_QUEUELEN 0x00650500u
#define T_ELAPSED_TIME 0x30240500u
#define T_RAWCOUNT 0x00010000u
#define T_RAW_FRACTION 0x20020400u
#define T_RAW_BASE 0x40030403u
#define T_AVERAGE_BULK 0x40020500u
#define T_AVERAGE_BASE 0x40030402u

#define OBJ_FREQ 10000000LL
#define OBJ_QUANTUM 100000LL /* 10 ms: makes every object-clock rate exact */

typedef struct clocks {
  int64_t obj;  /* object clock, 100 ns, multiple of OBJ_QUANTUM */
  int64_t t100; /* GetSystemTimeAsFileTime */
  int64_t qpc;  /* QueryPerformanceCounter */
  int64_t qpc_freq;
} clocks;

/* What a counter's raw value is, for instance i (0-based). */
typedef enum rule {
  R_IDLE_100NS, /* t100 * (1 - busy[i]) */
  R_BUSY_100NS, /* t100 * busy[i] */
  R_BUSY_OBJ,   /* obj * busy[i] */
  R_RATE_QPC,   /* rate[i] per second of QPC time (DWORD) */
  R_QUEUE_OBJ,  /* obj * 7 / 2: queue length 3.5 */
  R_ELAPSED,    /* obj - 12345 s: up 12345 s */
  R_CONST,      /* rate[i] */
  R_BULK,       /* 3 (i + 1) * (obj / OBJ_QUANTUM) */
  R_BULK_BASE,  /* obj / OBJ_QUANTUM (100 per second) */
  R_SINCE,      /* arg[i] = busy % * 10000 + start s: busy * (obj - start) */
} rule;

typedef struct counter {
  DWORD index;
  DWORD type;
  DWORD size;
  rule rule;
  /* per instance: busy fraction in 1/8 units, or a rate / constant */
  int64_t arg[4];
} counter;

typedef struct object {
  DWORD index;
  int ninst; /* PERF_NO_INSTANCES for a single instance */
  const wchar_t *names[4];
  int ncounters;
  counter counters[6];
} object;

/* busy fractions in eighths: 2/8 = 25 %, 4/8 = 50 %, 3/8 = 37.5 % */
static const object objects[] = {
    {238,
     3,
     {L"0", L"1", L"_Total"},
     3,
     {{6, T_100NSEC_TIMER_INV, 8, R_IDLE_100NS, {2, 4, 3}},
      {10001, T_OBJ_TIME_TIMER, 8, R_BUSY_OBJ, {2, 4, 3}},
      {148, T_COUNTER_COUNTER, 4, R_RATE_QPC, {1000, 2000, 3000}}}},
    {2,
     PERF_NO_INSTANCES,
     {NULL},
     6,
     {{146, T_COUNTER_COUNTER, 4, R_RATE_QPC, {5000}},
      {10002, T_OBJ_TIME_QUEUELEN, 8, R_QUEUE_OBJ, {0}},
      {674, T_ELAPSED_TIME, 8, R_ELAPSED, {0}},
      {250, T_RAWCOUNT, 4, R_CONST, {42}},
      {10004, T_RAW_FRACTION, 4, R_CONST, {25}},
      {10005, T_RAW_BASE, 4, R_CONST, {200}}}},
    /* busy in eighths would not give 10 %: Process uses tenths (arg/10) */
    {230,
     4,
     {L"Idle", L"svchost", L"svchost", L"winperf"},
     5,
     {{6, T_100NSEC_TIMER, 8, R_BUSY_100NS, {1, 2, 3, 4}},
      {784, T_RAWCOUNT, 4, R_CONST, {0, 100, 200, 300}},
      {10003, T_OBJ_TIME_TIMER, 8, R_BUSY_OBJ, {1, 2, 3, 4}},
      {10006, T_AVERAGE_BULK, 8, R_BULK, {0}},
      {10007, T_AVERAGE_BASE, 4, R_BULK_BASE, {0}}}},
};
#define NOBJECTS (sizeof objects / sizeof objects[0])

/* The renumbering Process object, before and after pid 2200 exits. */
static const object renumber[2] = {
    {230,
     3,
     {L"w3wp", L"w3wp", L"w3wp"},
     2,
     {{6, T_OBJ_TIME_TIMER, 8, R_SINCE, {200100, 500800, 300300}},
      {784, T_RAWCOUNT, 4, R_CONST, {1100, 2200, 3300}}}},
    {230,
     2,
     {L"w3wp", L"w3wp"},
     2,
     {{6, T_OBJ_TIME_TIMER, 8, R_SINCE, {200100, 300300}},
      {784, T_RAWCOUNT, 4, R_CONST, {1100, 3300}}}},
};

/* The failing provider's object (never collected). */
static const object failing = {
    5000, PERF_NO_INSTANCES, {NULL}, 1, {{5002, T_RAWCOUNT, 4, R_CONST, {7}}}};

/* Processor's fractions are eighths, Process's tenths. */
static int64_t denominator(const object *o) {
  return o->index == 230 ? 10 : 8;
}

static uint64_t raw_value(const object *o, const counter *c, int i,
                          const clocks *k) {
  int64_t d = denominator(o);
  switch (c->rule) {
  case R_IDLE_100NS:
    return (uint64_t)(k->t100 / d * (d - c->arg[i]));
  case R_BUSY_100NS:
    return (uint64_t)(k->t100 / d * c->arg[i]);
  case R_BUSY_OBJ: /* obj is a multiple of 1e5: divisible by 8 and 10 */
    return (uint64_t)(k->obj / d * c->arg[i]);
  case R_RATE_QPC:
    return (uint32_t)((k->qpc / k->qpc_freq) * c->arg[i] +
                      (k->qpc % k->qpc_freq) * c->arg[i] / k->qpc_freq);
  case R_QUEUE_OBJ:
    return (uint64_t)(k->obj / 2 * 7);
  case R_ELAPSED:
    return (uint64_t)(k->obj - 12345 * OBJ_FREQ);
  case R_CONST:
    return (uint64_t)c->arg[i];
  case R_BULK:
    return (uint64_t)(3 * (i + 1) * (k->obj / OBJ_QUANTUM));
  case R_BULK_BASE:
    return (uint64_t)(k->obj / OBJ_QUANTUM);
  case R_SINCE:
    return (uint64_t)((k->obj - c->arg[i] % 10000 * OBJ_FREQ) / 100 *
                      (c->arg[i] / 10000));
  }
  return 0;
}

/* Sizes, all multiples of 8. */
static DWORD name_bytes(const wchar_t *name) {
  DWORD n = (DWORD)((wcslen(name) + 1) * sizeof(wchar_t));
  return (n + 7) & ~7u;
}
static DWORD block_bytes(const object *o) {
  return 8 + 8 * (DWORD)o->ncounters;
}
static DWORD def_bytes(const object *o) {
  return sizeof(PERF_OBJECT_TYPE) +
         (DWORD)o->ncounters * sizeof(PERF_COUNTER_DEFINITION);
}

static DWORD object_bytes(const object *o) {
  DWORD n = def_bytes(o);
  if (o->ninst == PERF_NO_INSTANCES)
    return n + block_bytes(o);
  for (int i = 0; i < o->ninst; i++)
    n += sizeof(PERF_INSTANCE_DEFINITION) + name_bytes(o->names[i]) +
         block_bytes(o);
  return n;
}

static BYTE *write_block(BYTE *p, const object *o, int inst, const clocks *k) {
  DWORD len = block_bytes(o);
  memset(p, 0, len);
  ((PERF_COUNTER_BLOCK *)p)->ByteLength = len;
  for (int j = 0; j < o->ncounters; j++) {
    const counter *c = &o->counters[j];
    uint64_t v = raw_value(o, c, inst, k);
    if (c->size == 4) {
      DWORD d = (DWORD)v;
      memcpy(p + 8 + 8 * j, &d, 4);
    } else {
      memcpy(p + 8 + 8 * j, &v, 8);
    }
  }
  return p + len;
}

static BYTE *write_object(BYTE *p, const object *o, const clocks *k) {
  PERF_OBJECT_TYPE *ot = (PERF_OBJECT_TYPE *)p;
  memset(ot, 0, sizeof *ot);
  ot->TotalByteLength = object_bytes(o);
  ot->DefinitionLength = def_bytes(o);
  ot->HeaderLength = sizeof *ot;
  ot->ObjectNameTitleIndex = o->index;
  ot->ObjectHelpTitleIndex = o->index + 1;
  ot->DetailLevel = PERF_DETAIL_NOVICE;
  ot->NumCounters = (DWORD)o->ncounters;
  ot->DefaultCounter = 0;
  ot->NumInstances = o->ninst;
  ot->CodePage = 0;
  ot->PerfTime.QuadPart = k->obj;
  ot->PerfFreq.QuadPart = OBJ_FREQ;
  p += sizeof *ot;
  for (int j = 0; j < o->ncounters; j++) {
    PERF_COUNTER_DEFINITION *cd = (PERF_COUNTER_DEFINITION *)p;
    memset(cd, 0, sizeof *cd);
    cd->ByteLength = sizeof *cd;
    cd->CounterNameTitleIndex = o->counters[j].index;
    cd->CounterHelpTitleIndex = o->counters[j].index + 1;
    cd->DetailLevel = PERF_DETAIL_NOVICE;
    cd->CounterType = o->counters[j].type;
    cd->CounterSize = o->counters[j].size;
    cd->CounterOffset = 8 + 8 * (DWORD)j;
    p += sizeof *cd;
  }
  if (o->ninst == PERF_NO_INSTANCES)
    return write_block(p, o, 0, k);
  for (int i = 0; i < o->ninst; i++) {
    PERF_INSTANCE_DEFINITION *id = (PERF_INSTANCE_DEFINITION *)p;
    DWORD nb = name_bytes(o->names[i]);
    memset(id, 0, sizeof *id + nb);
    id->ByteLength = sizeof *id + nb;
    id->ParentObjectTitleIndex = 0;
    id->ParentObjectInstance = 0;
    id->UniqueID = PERF_NO_UNIQUE_ID;
    id->NameOffset = sizeof *id;
    id->NameLength = (DWORD)((wcslen(o->names[i]) + 1) * sizeof(wchar_t));
    memcpy(p + sizeof *id, o->names[i], id->NameLength);
    p = write_block(p + sizeof *id + nb, o, i, k);
  }
  return p;
}

/* Is `index` in the space-separated decimal list? */
static BOOL in_list(const wchar_t *list, DWORD index) {
  const wchar_t *s = list;
  while (*s) {
    while (*s == L' ')
      s++;
    if (*s < L'0' || *s > L'9') {
      while (*s && *s != L' ')
        s++;
      continue;
    }
    DWORD v = 0;
    while (*s >= L'0' && *s <= L'9')
      v = v * 10 + (DWORD)(*s++ - L'0');
    if (v == index && (*s == L' ' || *s == 0))
      return TRUE;
  }
  return FALSE;
}

static BOOL under_wine(void) {
  HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  return ntdll != NULL && GetProcAddress(ntdll, "wine_get_version") != NULL;
}

/* Wine 8 hands the first provider block + 88 + HeaderLength instead of
 * block + HeaderLength. Recognise that case: 88 bytes back there must be
 * the end of a PERF_DATA_BLOCK whose TotalByteLength still equals its
 * HeaderLength (no provider has written yet). */
static BOOL wine_first_provider_shift(const BYTE *p) {
  for (DWORD hl = sizeof(PERF_DATA_BLOCK); hl <= 1024; hl += 8) {
    const BYTE *b = p - 88 - hl;
    DWORD total, header;
    memcpy(&total, b + 20, 4);
    memcpy(&header, b + 24, 4);
    if (memcmp(b, L"PERF", 8) == 0 && header == hl && total == hl)
      return TRUE;
  }
  return FALSE;
}

static void now(clocks *k) {
  LARGE_INTEGER c, f;
  FILETIME ft;
  QueryPerformanceCounter(&c);
  QueryPerformanceFrequency(&f);
  GetSystemTimeAsFileTime(&ft);
  k->qpc = c.QuadPart;
  k->qpc_freq = f.QuadPart > 0 ? f.QuadPart : 1;
  k->t100 = (int64_t)((uint64_t)ft.dwHighDateTime << 32 | ft.dwLowDateTime);
  int64_t obj = (k->qpc / k->qpc_freq) * OBJ_FREQ +
                (k->qpc % k->qpc_freq) * OBJ_FREQ / k->qpc_freq;
  /* keep ELAPSED_TIME's start positive on a host just booted */
  obj += 20000 * OBJ_FREQ;
  k->obj = obj - obj % OBJ_QUANTUM;
}

DWORD APIENTRY OpenPerfData(LPWSTR device_names) {
  (void)device_names;
  return ERROR_SUCCESS;
}

DWORD APIENTRY ClosePerfData(void) {
  return ERROR_SUCCESS;
}

/* Write the objects of `list` that the query asks for at *data. */
static DWORD collect(const object *const *list, size_t n, const clocks *k,
                     LPWSTR value_name, LPVOID *data, LPDWORD total_bytes,
                     LPDWORD num_object_types) {
  BYTE *p = *data;
  DWORD room = *total_bytes;
  if (under_wine() && wine_first_provider_shift(p)) {
    p -= 88;
    room = room >= 88 ? room - 88 : 0;
  }
  const wchar_t *q = value_name ? value_name : L"Global";
  BOOL global = q[0] == 0 || _wcsicmp(q, L"Global") == 0;
  BOOL want[NOBJECTS];
  DWORD need = 0, count = 0;
  for (size_t i = 0; i < n; i++) {
    want[i] = global || in_list(q, list[i]->index);
    if (want[i]) {
      need += object_bytes(list[i]);
      count++;
    }
  }
  if (need > room) {
    *total_bytes = 0;
    *num_object_types = 0;
    return ERROR_MORE_DATA;
  }
  BYTE *start = p;
  for (size_t i = 0; i < n; i++)
    if (want[i])
      p = write_object(p, list[i], k);
  *data = p;
  *total_bytes = (DWORD)(p - start);
  *num_object_types = count;
  return ERROR_SUCCESS;
}

DWORD APIENTRY CollectPerfData(LPWSTR value_name, LPVOID *data,
                               LPDWORD total_bytes, LPDWORD num_object_types) {
  const object *list[NOBJECTS];
  for (size_t i = 0; i < NOBJECTS; i++)
    list[i] = &objects[i];
  clocks k;
  now(&k);
  return collect(list, NOBJECTS, &k, value_name, data, total_bytes,
                 num_object_types);
}

/* ------------------------------------------------- renumbering processes */

#define RENUMBER_KEY                                                           \
  L"System\\CurrentControlSet\\Services\\WinperfRenumber\\Performance"

EXPORT DWORD APIENTRY CollectRenumberPerfData(LPWSTR value_name, LPVOID *data,
                                              LPDWORD total_bytes,
                                              LPDWORD num_object_types);

DWORD APIENTRY CollectRenumberPerfData(LPWSTR value_name, LPVOID *data,
                                       LPDWORD total_bytes,
                                       LPDWORD num_object_types) {
  HKEY key;
  DWORD sample = 0, size = sizeof sample, type = 0;
  if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, RENUMBER_KEY, 0,
                    KEY_QUERY_VALUE | KEY_SET_VALUE, &key) != ERROR_SUCCESS)
    return ERROR_FILE_NOT_FOUND;
  if (RegQueryValueExW(key, L"Renumber Sample", NULL, &type, (LPBYTE)&sample,
                       &size) != ERROR_SUCCESS ||
      type != REG_DWORD)
    sample = 0;
  clocks k = {0};
  k.obj = (1000 + 10 * (int64_t)sample) * OBJ_FREQ;
  const object *list[1] = {&renumber[sample == 0 ? 0 : 1]};
  DWORD rc =
      collect(list, 1, &k, value_name, data, total_bytes, num_object_types);
  if (rc == ERROR_SUCCESS) {
    sample++;
    RegSetValueExW(key, L"Renumber Sample", 0, REG_DWORD, (const BYTE *)&sample,
                   sizeof sample);
  }
  RegCloseKey(key);
  return rc;
}

/* ------------------------------------------------ a provider that fails */

EXPORT DWORD APIENTRY OpenFailPerfData(LPWSTR device_names);
EXPORT DWORD APIENTRY CollectFailPerfData(LPWSTR value_name, LPVOID *data,
                                          LPDWORD total_bytes,
                                          LPDWORD num_object_types);

DWORD APIENTRY OpenFailPerfData(LPWSTR device_names) {
  (void)device_names;
  return ERROR_FILE_NOT_FOUND;
}

/* Never called when Open fails; if it were, object 5000 would show. */
DWORD APIENTRY CollectFailPerfData(LPWSTR value_name, LPVOID *data,
                                   LPDWORD total_bytes,
                                   LPDWORD num_object_types) {
  const object *list[1] = {&failing};
  clocks k;
  now(&k);
  return collect(list, 1, &k, value_name, data, total_bytes, num_object_types);
}
