/* collectd-winperf tests: pairing instances across samples by process id.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * w3wp#1 exits between two samples and Windows renumbers w3wp#2 to w3wp#1.
 * By id (the default) every rate is the one process's own; by full name
 * (PDH's rule) w3wp#1's rate mixes two processes. Every expected value is
 * worked out by hand: % Processor Time (index 6) is a 100NSEC_TIMER,
 * 100 * (N1 - N0) / (T1 - T0), and PerfTime100nSec advances 1e7 (1 s).
 * Numeric paths: the ids are found by the standard indices 784 (ID
 * Process) and 804 (ID Thread). */
#include "encoder.h"
#include "perfdata.h"
#include "tap.h"

#include <stdlib.h>

enum { CPU = 6, ID_PROCESS = 784, ID_THREAD = 804 };

typedef struct proc {
  const char *name;
  uint32_t pid;
  uint64_t cpu;
} proc;

typedef struct thread {
  uint32_t parent; /* position of the process in the same sample */
  uint32_t pid, tid;
  uint64_t cpu;
} thread;

/* Sample 1 and 2 of Process (230) and Thread (232). */
static const proc procs1[] = {
    {"w3wp", 10, 1000000}, {"w3wp", 20, 2000000},  {"w3wp", 30, 3000000},
    {"Idle", 0, 0},        {"_Total", 0, 6000000}, {"dup", 77, 1000000},
    {"dupb", 77, 2000000}, {"app", 55, 9000000},   {"old", 88, 100},
};
static const proc procs2[] = {
    {"w3wp", 10, 6000000},   /* 50 % */
    {"w3wp", 30, 5500000},   /* was w3wp#2: 25 % (by name: 35 %) */
    {"Idle", 0, 4000000},    /* pid 0: by name, 40 % */
    {"_Total", 0, 14000000}, /* by name, 80 % */
    {"dup", 77, 2000000},    /* pid twice in a sample: by name, 10 % */
    {"dupb", 77, 5000000},   /* by name, 30 % */
    {"app", 66, 1000000},    /* a new app: first sample (by name: negative) */
    {"fresh", 88, 200},      /* pid 88 reused by another name: first sample */
};
static const thread threads1[] = {
    {1, 20, 200, 1000000}, /* w3wp/0 */
    {2, 30, 300, 2000000}, /* w3wp/0#1 */
    {3, 0, 0, 500000},     /* Idle/0 */
};
static const thread threads2[] = {
    {1, 30, 300, 3000000}, /* now w3wp/0: 10 % (by name: 20 %) */
    {2, 0, 0, 1500000},    /* Idle/0: tid 0, by name: 10 % */
};

static uint8_t *sample(int which, size_t *len) {
  const proc *p = which == 1 ? procs1 : procs2;
  size_t np = which == 1 ? sizeof procs1 / sizeof *procs1
                         : sizeof procs2 / sizeof *procs2;
  const thread *t = which == 1 ? threads1 : threads2;
  size_t nt = which == 1 ? sizeof threads1 / sizeof *threads1
                         : sizeof threads2 / sizeof *threads2;
  enc_blob *b = enc_new("HOST");
  enc_set_clock(b, 1000, 10000000,
                133485408000000000 + (which == 2 ? 10000000 : 0));
  enc_object *po = enc_add_object(b, 230, ENC_MULTI_INSTANCE);
  uint32_t cpu = enc_add_counter(po, CPU, PD_100NSEC_TIMER);
  uint32_t pid = enc_add_counter(po, ID_PROCESS, PD_COUNTER_RAWCOUNT);
  for (size_t i = 0; i < np; i++) {
    uint32_t in = enc_add_instance(po, p[i].name);
    enc_set_value(po, in, cpu, p[i].cpu);
    enc_set_value(po, in, pid, p[i].pid);
  }
  enc_object *to = enc_add_object(b, 232, ENC_MULTI_INSTANCE);
  uint32_t tcpu = enc_add_counter(to, CPU, PD_100NSEC_TIMER);
  uint32_t tpid = enc_add_counter(to, ID_PROCESS, PD_COUNTER_RAWCOUNT);
  uint32_t ttid = enc_add_counter(to, ID_THREAD, PD_COUNTER_RAWCOUNT);
  for (size_t i = 0; i < nt; i++) {
    uint32_t in = enc_add_instance(to, "0");
    enc_instance_set_parent(to, in, 230, t[i].parent);
    enc_set_value(to, in, tcpu, t[i].cpu);
    enc_set_value(to, in, tpid, t[i].pid);
    enc_set_value(to, in, ttid, t[i].tid);
  }
  uint8_t *blob = enc_build(b, len);
  enc_free(b);
  return blob;
}

/* The result for `instance` of `object` (230 or 232), or NULL. */
static const pd_result *result(const pd_result *r, size_t n, uint32_t object,
                               const char *instance) {
  for (size_t i = 0; i < n; i++)
    if (r[i].object_index == object && strcmp(r[i].instance, instance) == 0)
      return &r[i];
  return NULL;
}

typedef struct expect {
  uint32_t object;
  const char *instance;
  pd_value_status status;
  double value; /* when PD_VALUE_OK */
  const char *why;
} expect;

static void check(pd_pair_by by, const expect *e, size_t n_expect,
                  pd_snapshot *s1, pd_snapshot *s2) {
  const char *mode = by == PD_PAIR_BY_ID ? "by id" : "by name";
  pd_selection *sel = pd_selection_new();
  pd_error err;
  pd_selection_add(sel, "\\230(*)\\6", NULL, &err);
  pd_selection_add(sel, "\\232(*)\\6", NULL, &err);
  pd_selection_set_pairing(sel, by);
  const pd_result *r;
  size_t n;
  IS_INT(pd_selection_evaluate(sel, s1, s2, &r, &n, &err), PD_OK,
         "%s: evaluate", mode);
  IS_INT(n, 10, "%s: 8 processes and 2 threads", mode);
  for (size_t i = 0; i < n_expect; i++) {
    const pd_result *got = result(r, n, e[i].object, e[i].instance);
    if (!OK(got != NULL, "%s: %s is reported", mode, e[i].instance))
      continue;
    IS_STR(pd_value_status_name(got->status), pd_value_status_name(e[i].status),
           "%s: %s status: %s", mode, e[i].instance, e[i].why);
    if (e[i].status == PD_VALUE_OK)
      IS_DOUBLE(got->value, e[i].value, "%s: %s = %g: %s", mode, e[i].instance,
                e[i].value, e[i].why);
  }
  pd_selection_free(sel);
}

/* One path's own pairing beside the selection's: pd_selection_set_path_
 * pairing. Paths on the same object with different modes each get their
 * own pairing in one evaluation. */
static void check_path_pairing(pd_snapshot *s1, pd_snapshot *s2) {
  static const struct {
    const char *path;
    int pair_by; /* -1: the selection's (by name here) */
    const char *instance;
    pd_value_status status;
    double value;
    const char *why;
  } paths[] = {
      {"\\230(w3wp#1)\\6", PD_PAIR_BY_ID, "w3wp#1", PD_VALUE_OK, 25,
       "the path's id pairing: pid 30 with itself"},
      {"\\230(app)\\6", -1, "app", PD_VALUE_NEGATIVE, 0,
       "the selection's name pairing: the old app's sample"},
      {"\\230(fresh)\\6", PD_PAIR_BY_ID, "fresh", PD_VALUE_FIRST_SAMPLE, 0,
       "the path's id pairing: pid 88 reused, a new process"},
      {"\\232(*)\\6", -1, "w3wp/0", PD_VALUE_OK, 20,
       "the selection's name pairing: PDH's wrong 20"},
  };
  enum { N = sizeof paths / sizeof *paths };
  pd_selection *sel = pd_selection_new();
  pd_error err;
  for (size_t i = 0; i < N; i++) {
    size_t id;
    pd_selection_add(sel, paths[i].path, &id, &err);
    if (paths[i].pair_by >= 0)
      OK(pd_selection_set_path_pairing(sel, id, (pd_pair_by)paths[i].pair_by),
         "path %zu: its own pairing accepted", id);
  }
  OK(!pd_selection_set_path_pairing(sel, N, PD_PAIR_BY_ID),
     "an unknown path id is refused");
  OK(!pd_selection_set_path_pairing(sel, 0, (pd_pair_by)7),
     "an unknown mode is refused");
  pd_selection_set_pairing(sel, PD_PAIR_BY_FULL_NAME);
  const pd_result *r;
  size_t n;
  IS_INT(pd_selection_evaluate(sel, s1, s2, &r, &n, &err), PD_OK,
         "per path: evaluate");
  for (size_t i = 0; i < N; i++) {
    const pd_result *got = result(r, n, i < 3 ? 230 : 232, paths[i].instance);
    if (!OK(got != NULL, "per path: %s reported", paths[i].instance))
      continue;
    IS_STR(pd_value_status_name(got->status),
           pd_value_status_name(paths[i].status), "per path: %s status: %s",
           paths[i].instance, paths[i].why);
    if (paths[i].status == PD_VALUE_OK)
      IS_DOUBLE(got->value, paths[i].value, "per path: %s = %g: %s",
                paths[i].instance, paths[i].value, paths[i].why);
  }
  pd_selection_free(sel);
}

/* id_base, the name InstanceNames "pid" builds on: the own name (a
 * thread's process's) of each instance that pairs by id; NULL for those
 * that pair by name, and for every instance under name pairing. With and
 * without an older sample. */
/* Not asked for (pd_selection_set_id_base): no result carries one, as
 * finding it costs a lookup per instance. */
static void check_id_base_off(pd_snapshot *s1, pd_snapshot *s2) {
  pd_selection *sel = pd_selection_new();
  pd_error err;
  pd_selection_add(sel, "\\230(*)\\6", NULL, &err);
  const pd_result *r;
  size_t n = 0, with = 0;
  IS_INT(pd_selection_evaluate(sel, s1, s2, &r, &n, &err), PD_OK,
         "id_base off: evaluate");
  for (size_t i = 0; i < n; i++)
    with += r[i].id_base != NULL;
  OK(n > 0 && with == 0, "id_base off: none of %zu results has one", n);
  pd_selection_free(sel);
}

static void check_id_base(pd_snapshot *s1, pd_snapshot *s2) {
  static const struct {
    int sample; /* 1: sample 1 alone; 2: sample 2 after 1 */
    uint32_t object;
    const char *instance, *base;
  } want[] = {
      {2, 230, "w3wp", "w3wp"},     {2, 230, "w3wp#1", "w3wp"},
      {2, 230, "Idle", NULL},       {2, 230, "_Total", NULL},
      {2, 230, "dup", NULL},        {2, 230, "dupb", NULL},
      {2, 230, "app", "app"},       {2, 230, "fresh", "fresh"},
      {2, 232, "w3wp/0", "w3wp"},   {2, 232, "Idle/0", NULL},
      {1, 230, "w3wp#2", "w3wp"},   {1, 230, "dup", NULL},
      {1, 232, "w3wp/0#1", "w3wp"}, {1, 232, "Idle/0", NULL},
      {1, 230, "old", "old"},
  };
  for (int by = 0; by < 2; by++) {
    for (int sample = 1; sample <= 2; sample++) {
      pd_selection *sel = pd_selection_new();
      pd_error err;
      pd_selection_add(sel, "\\230(*)\\6", NULL, &err);
      pd_selection_add(sel, "\\232(*)\\6", NULL, &err);
      pd_selection_set_pairing(sel, (pd_pair_by)by);
      pd_selection_set_id_base(sel, true);
      const pd_result *r;
      size_t n;
      pd_status st = sample == 1
                         ? pd_selection_evaluate(sel, NULL, s1, &r, &n, &err)
                         : pd_selection_evaluate(sel, s1, s2, &r, &n, &err);
      IS_INT(st, PD_OK, "id_base: evaluate sample %d", sample);
      for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        if (want[i].sample != sample)
          continue;
        const pd_result *got = result(r, n, want[i].object, want[i].instance);
        const char *w = by == PD_PAIR_BY_ID ? want[i].base : NULL;
        if (!OK(got != NULL, "id_base: %s reported", want[i].instance))
          continue;
        OK(w == NULL ? got->id_base == NULL
                     : got->id_base != NULL && strcmp(got->id_base, w) == 0,
           "%s, sample %d: %s has id_base %s (got %s)",
           by == PD_PAIR_BY_ID ? "by id" : "by name", sample, want[i].instance,
           w ? w : "NULL", got->id_base ? got->id_base : "NULL");
      }
      pd_selection_free(sel);
    }
  }
}

int main(void) {
  size_t len[2];
  uint8_t *blob[2] = {sample(1, &len[0]), sample(2, &len[1])};
  pd_snapshot *snap[2] = {pd_snapshot_new(), pd_snapshot_new()};
  pd_error err;
  for (int i = 0; i < 2; i++)
    IS_INT(pd_decode(snap[i], blob[i], len[i], NULL, &err), PD_OK,
           "decode sample %d", i + 1);

  static const expect by_id[] = {
      {230, "w3wp", PD_VALUE_OK, 50, "pid 10 with itself"},
      {230, "w3wp#1", PD_VALUE_OK, 25,
       "renumbered from w3wp#2: pid 30 with itself, 100 * 2.5e6 / 1e7"},
      {230, "Idle", PD_VALUE_OK, 40, "pid 0 pairs by name"},
      {230, "_Total", PD_VALUE_OK, 80, "_Total pairs by name"},
      {230, "dup", PD_VALUE_OK, 10, "a pid twice in a sample pairs by name"},
      {230, "dupb", PD_VALUE_OK, 30, "a pid twice in a sample pairs by name"},
      {230, "app", PD_VALUE_FIRST_SAMPLE, 0, "a new pid is a first sample"},
      {230, "fresh", PD_VALUE_FIRST_SAMPLE, 0,
       "a reused pid under another name is a new process"},
      {232, "w3wp/0", PD_VALUE_OK, 10,
       "thread (30, 300) with itself (was w3wp/0#1), 100 * 1e6 / 1e7"},
      {232, "Idle/0", PD_VALUE_OK, 10, "tid 0 pairs by name"},
  };
  check(PD_PAIR_BY_ID, by_id, sizeof by_id / sizeof *by_id, snap[0], snap[1]);

  static const expect by_name[] = {
      {230, "w3wp", PD_VALUE_OK, 50, "w3wp with w3wp"},
      {230, "w3wp#1", PD_VALUE_OK, 35,
       "PDH's wrong value: pid 30 against pid 20, 100 * 3.5e6 / 1e7"},
      {230, "app", PD_VALUE_NEGATIVE, 0,
       "PDH pairs the new app with the old one: the timer goes back"},
      {232, "w3wp/0", PD_VALUE_OK, 20,
       "PDH's wrong value: thread 300 against thread 200"},
  };
  check(PD_PAIR_BY_FULL_NAME, by_name, sizeof by_name / sizeof *by_name,
        snap[0], snap[1]);
  check_path_pairing(snap[0], snap[1]);
  check_id_base(snap[0], snap[1]);
  check_id_base_off(snap[0], snap[1]);

  for (int i = 0; i < 2; i++) {
    pd_snapshot_free(snap[i]);
    free(blob[i]);
  }
  return tap_done();
}
