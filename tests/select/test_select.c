/* collectd-winperf: selection tests — paths against pairs of samples.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Blobs come from the test-side encoder; every expected value is worked
 * out by hand in the comment beside it (formulas: format.md 3).
 */
#include "encoder.h"
#include "perfdata.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

/* A REG_MULTI_SZ Counter table (UTF-16LE) from "index", "name" pairs. */
static uint8_t *names_table(const char *const *pairs, size_t n, size_t *len) {
  size_t cap = 64;
  for (size_t i = 0; i < n; i++)
    cap += 2 * (strlen(pairs[i]) + 1);
  uint8_t *buf = calloc(1, cap), *p = buf;
  for (size_t i = 0; i < n; i++) {
    for (const char *s = pairs[i]; *s; s++) {
      *p++ = (uint8_t)*s; /* ASCII only in these tests */
      *p++ = 0;
    }
    p += 2;
  }
  p += 2;
  *len = (size_t)(p - buf);
  return buf;
}

static const char *const NAMES[] = {
    "1",   "1847",    "2",   "System", "6",   "% Processor Time",
    "8",   "Timer",   "10",  "Disk",   "12",  "Count",
    "230", "Process", "232", "Thread", "784", "ID Process",
    "14",  "Raw",
};

static pd_names *load_names(void) {
  size_t len;
  uint8_t *t = names_table(NAMES, sizeof NAMES / sizeof *NAMES, &len);
  pd_names *names = NULL;
  pd_error err;
  pd_status s = pd_names_parse(t, len, &names, &err);
  if (s != PD_OK)
    tap_diag("names: %s", err.message);
  free(t);
  return names;
}

/* The format.md 1.8 vector: object 2 (RAWCOUNT 42, 100NSEC_TIMER 5e6), object
 * 10 with "_Total" (RAWCOUNT 7). sample 2: +1e7 in PerfTime100nSec, timer
 * 12.5e6 -> 100 * 7.5e6 / 1e7 = 75 %. */
static uint8_t *spec_vector(int sample, size_t *len) {
  enc_blob *b = enc_new("PC");
  if (sample == 2)
    enc_set_clock(b, 123456789, 10000000, 133485408000000000 + 10000000);
  enc_object *os = enc_add_object(b, 2, ENC_SINGLE_INSTANCE);
  uint32_t raw = enc_add_counter(os, 14, PD_COUNTER_RAWCOUNT);
  uint32_t tim = enc_add_counter(os, 8, PD_100NSEC_TIMER);
  enc_set_value(os, ENC_SINGLE, raw, 42);
  enc_set_value(os, ENC_SINGLE, tim, sample == 2 ? 12500000 : 5000000);
  enc_object *om = enc_add_object(b, 10, ENC_MULTI_INSTANCE);
  uint32_t c = enc_add_counter(om, 12, PD_COUNTER_RAWCOUNT);
  uint32_t t = enc_add_instance(om, "_Total");
  enc_set_value(om, t, c, 7);
  uint8_t *blob = enc_build(b, len);
  enc_free(b);
  return blob;
}

typedef struct fixture {
  uint8_t *blob[2];
  size_t len[2];
  pd_snapshot *snap[2];
} fixture;

static void decode_pair(fixture *f) {
  for (int i = 0; i < 2; i++) {
    pd_error err;
    f->snap[i] = pd_snapshot_new();
    pd_status s = pd_decode(f->snap[i], f->blob[i], f->len[i], NULL, &err);
    if (s != PD_OK)
      tap_diag("decode %d: %s", i, err.message);
  }
}

static void free_pair(fixture *f) {
  for (int i = 0; i < 2; i++) {
    pd_snapshot_free(f->snap[i]);
    free(f->blob[i]);
  }
}

static const pd_result *find(const pd_result *r, size_t n, const char *path) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(r[i].path, path) == 0)
      return &r[i];
  return NULL;
}

static void test_spec_pair(void) {
  fixture f;
  f.blob[0] = spec_vector(1, &f.len[0]);
  f.blob[1] = spec_vector(2, &f.len[1]);
  decode_pair(&f);
  pd_names *names = load_names();
  OK(names != NULL, "names table parses");

  pd_selection *sel = pd_selection_new();
  pd_error err;
  size_t id;
  IS_INT(pd_selection_add(sel, "\\System\\Timer", &id, &err), PD_OK,
         "add \\System\\Timer");
  IS_INT(id, 0, "first path id is 0");
  IS_INT(pd_selection_add(sel, "\\Disk(_Total)\\Count", &id, &err), PD_OK,
         "add \\Disk(_Total)\\Count");
  IS_INT(pd_selection_add(sel, "\\2\\14", &id, &err), PD_OK,
         "add numeric \\2\\14");
  IS_INT(pd_selection_add(sel, "\\Nowhere\\Nothing", &id, &err), PD_OK,
         "add a path naming an unknown object");
  pd_selection_set_names(sel, names);
  size_t unresolved = 99;
  IS_STR(pd_selection_query(sel, &unresolved), "2 10",
         "query string lists objects 2 and 10, ascending, once");
  IS_INT(unresolved, 1, "one path's object is not in the names table");

  const pd_result *r;
  size_t n;
  IS_INT(pd_selection_evaluate(sel, f.snap[0], f.snap[1], &r, &n, &err), PD_OK,
         "evaluate the pair");
  IS_INT(n, 3, "three counters matched");
  const pd_result *timer = find(r, n, "\\System\\Timer");
  OK(timer != NULL, "canonical path \\System\\Timer");
  if (timer) {
    IS_INT(timer->status, PD_VALUE_OK, "timer has a value");
    IS_DOUBLE(timer->value, 75.0, "100NSEC_TIMER: 100 * 7.5e6 / 1e7 = 75");
    IS_INT(timer->path_id, 0, "timer came from path 0");
    OK(timer->instance == NULL, "single-instance object has no instance");
    char text[64];
    IS_STR(pd_result_path(timer, text, sizeof text), "\\System\\Timer",
           "pd_result_path: no (...) for a single-instance object");
    IS_U64(timer->raw_value, 12500000, "raw value is the newer N");
    IS_INT(timer->time_100ns, 133485408000000000 + 10000000,
           "time is the newer PerfTime100nSec");
  }
  const pd_result *count = find(r, n, "\\Disk(_Total)\\Count");
  OK(count != NULL, "canonical path \\Disk(_Total)\\Count");
  if (count) {
    IS_DOUBLE(count->value, 7.0, "RAWCOUNT = 7");
    IS_STR(count->instance, "_Total", "instance name");
    IS_STR(count->object, "Disk", "object name");
    IS_STR(count->counter, "Count", "counter name");
  }
  const pd_result *raw = find(r, n, "\\System\\Raw");
  OK(raw != NULL, "numeric path written by name when the table knows it");
  if (raw)
    IS_DOUBLE(raw->value, 42.0, "RAWCOUNT = 42");
  IS_INT(pd_selection_matches(sel, 3), 0, "unknown object matches nothing");
  IS_INT(pd_selection_matches(sel, 0), 1, "path 0 matched one counter");

  /* One sample only: one-sample types have values, two-sample types not. */
  IS_INT(pd_selection_evaluate(sel, NULL, f.snap[1], &r, &n, &err), PD_OK,
         "evaluate one sample");
  timer = find(r, n, "\\System\\Timer");
  OK(timer && timer->status == PD_VALUE_FIRST_SAMPLE,
     "timer without an older sample: first-sample");
  raw = find(r, n, "\\System\\Raw");
  OK(raw && raw->status == PD_VALUE_OK && raw->value == 42.0,
     "raw count with one sample: 42");

  /* Without names, numeric paths still work and are written by index. */
  pd_selection *bare = pd_selection_new();
  pd_selection_add(bare, "\\2\\8", NULL, &err);
  pd_selection_add(bare, "\\10(*)\\*", NULL, &err);
  pd_selection_add(bare, "\\System\\Timer", NULL, &err);
  IS_STR(pd_selection_query(bare, &unresolved), "2 10",
         "numeric paths need no names table");
  IS_INT(unresolved, 1, "a named path without a table is unresolved");
  IS_INT(pd_selection_evaluate(bare, f.snap[0], f.snap[1], &r, &n, &err), PD_OK,
         "evaluate without names");
  IS_INT(n, 2, "two counters matched by index");
  OK(find(r, n, "\\2\\8") != NULL && find(r, n, "\\10(_Total)\\12") != NULL,
     "paths written by index without a table");
  pd_selection_free(bare);
  pd_selection_free(sel);
  pd_names_free(names);
  free_pair(&f);
}

/* Process 230: svchost, svchost, chrome in sample 1; sample 2 drops chrome
 * and adds notepad. % Processor Time (6) is a 100NSEC_TIMER, ID Process
 * (784) a RAWCOUNT. PerfTime100nSec advances 1e7 (one second). */
static uint8_t *process_blob(int sample, size_t *len) {
  enc_blob *b = enc_new("HOST");
  enc_set_clock(b, 1000, 10000000,
                133485408000000000 + (sample == 2 ? 10000000 : 0));
  enc_object *p = enc_add_object(b, 230, ENC_MULTI_INSTANCE);
  uint32_t cpu = enc_add_counter(p, 6, PD_100NSEC_TIMER);
  uint32_t pid = enc_add_counter(p, 784, PD_COUNTER_RAWCOUNT);
  enc_object *t = NULL;
  struct {
    const char *name;
    uint64_t cpu1, cpu2, pid;
  } procs1[] = {{"svchost", 1000, 0, 100},
                {"svchost", 2000, 0, 200},
                {"chrome", 0, 0, 300}},
    procs2[] = {{"svchost", 0, 1000 + 5000000, 100},
                {"SVCHOST", 0, 2000 + 2500000, 200},
                {"notepad", 0, 77, 400}};
  for (int i = 0; i < 3; i++) {
    const char *name = sample == 1 ? procs1[i].name : procs2[i].name;
    uint32_t in = enc_add_instance(p, name);
    enc_set_value(p, in, cpu, sample == 1 ? procs1[i].cpu1 : procs2[i].cpu2);
    enc_set_value(p, in, pid, sample == 1 ? procs1[i].pid : procs2[i].pid);
  }
  /* Thread 232: thread "0" of the third process (chrome / notepad). */
  t = enc_add_object(b, 232, ENC_MULTI_INSTANCE);
  uint32_t tc = enc_add_counter(t, 6, PD_100NSEC_TIMER);
  uint32_t th = enc_add_instance(t, "0");
  enc_instance_set_parent(t, th, 230, 2);
  enc_set_value(t, th, tc, sample == 1 ? 0 : 1000000); /* 10 % */
  uint8_t *blob = enc_build(b, len);
  enc_free(b);
  return blob;
}

/* The two Process/Thread samples decoded into f, the names loaded, and a
 * selection with them and no path yet. */
static pd_selection *process_selection(fixture *f, pd_names **names) {
  f->blob[0] = process_blob(1, &f->len[0]);
  f->blob[1] = process_blob(2, &f->len[1]);
  decode_pair(f);
  *names = load_names();
  pd_selection *sel = pd_selection_new();
  pd_selection_set_names(sel, *names);
  return sel;
}

static void test_instances(void) {
  fixture f;
  pd_names *names;
  pd_selection *sel = process_selection(&f, &names);
  pd_error err;
  pd_selection_add(sel, "\\Process(svchost*)\\% Processor Time", NULL, &err);
  pd_selection_add(sel, "\\process(Svchost#1)\\% processor time", NULL, &err);
  pd_selection_add(sel, "\\Process(*)\\% Processor Time", NULL, &err);
  pd_selection_add(sel, "\\Thread(*/0)\\% Processor Time", NULL, &err);
  const pd_result *r;
  size_t n;
  IS_INT(pd_selection_evaluate(sel, f.snap[0], f.snap[1], &r, &n, &err), PD_OK,
         "evaluate processes");
  /* svchost, svchost#1 (path 0), notepad (path 2), notepad/0 (path 3):
   * the #1 of path 1 and path 2's svchosts are already reported. */
  IS_INT(n, 4, "four distinct counters");
  const pd_result *a = find(r, n, "\\Process(svchost)\\% Processor Time");
  /* The second is written "SVCHOST" in sample 2: PDH keeps its spelling. */
  const pd_result *b = find(r, n, "\\Process(SVCHOST#1)\\% Processor Time");
  OK(a && a->status == PD_VALUE_OK, "svchost has a value");
  if (a)
    IS_DOUBLE(a->value, 50.0, "svchost: 100 * 5e6 / 1e7 = 50");
  OK(b != NULL, "the second svchost is svchost#1 (case-insensitive dup)");
  if (b) {
    IS_DOUBLE(b->value, 25.0, "svchost#1: 100 * 2.5e6 / 1e7 = 25");
    IS_INT(b->path_id, 0, "reported for the first path that matched it");
  }
  IS_INT(pd_selection_matches(sel, 1), 1,
         "path 1 matched one counter (reported under path 0)");
  const pd_result *np = find(r, n, "\\Process(notepad)\\% Processor Time");
  OK(np && np->status == PD_VALUE_FIRST_SAMPLE,
     "a new instance has no older sample: first-sample");
  OK(find(r, n, "\\Process(chrome)\\% Processor Time") == NULL,
     "a vanished instance is not reported");
  const pd_result *th = find(r, n, "\\Thread(notepad/0)\\% Processor Time");
  OK(th != NULL, "thread named parent/name");
  /* Its parent changed from chrome to notepad, so the full name is new. */
  OK(th && th->status == PD_VALUE_FIRST_SAMPLE,
     "thread pairs by full name: chrome/0 and notepad/0 differ");

  /* Exact single-path lookup, and a reset: swap the samples so every
   * timer goes backwards. */
  pd_selection *one = pd_selection_new();
  pd_selection_set_names(one, names);
  pd_selection_add(one, "\\Process(svchost#1)\\% Processor Time", NULL, &err);
  IS_INT(pd_selection_evaluate(one, f.snap[0], f.snap[1], &r, &n, &err), PD_OK,
         "evaluate exact instance");
  OK(n == 1 && r[0].value == 25.0, "exact instance svchost#1 = 25");
  IS_INT(pd_selection_evaluate(one, f.snap[1], f.snap[0], &r, &n, &err), PD_OK,
         "evaluate reversed pair");
  OK(n == 1 && r[0].status == PD_VALUE_NEGATIVE,
     "counter going backwards: negative-delta, no value");
  pd_selection_free(one);
  pd_selection_free(sel);
  pd_names_free(names);
  free_pair(&f);
}

/* pd_selection_set_paths(false): the same results without path, and
 * pd_result_path writes what the path would have said. */
static void test_paths_on_demand(void) {
  fixture f;
  pd_names *names;
  pd_selection *sel = process_selection(&f, &names);
  pd_error err;
  pd_selection_add(sel, "\\Process(*)\\% Processor Time", NULL, &err);
  pd_selection_add(sel, "\\Thread(*/0)\\% Processor Time", NULL, &err);
  const pd_result *r;
  size_t n, n_with = 0;
  char with[8][96];
  IS_INT(pd_selection_evaluate(sel, f.snap[0], f.snap[1], &r, &n, &err), PD_OK,
         "paths on: evaluate");
  for (size_t i = 0; i < n && i < 8; i++, n_with++)
    snprintf(with[i], sizeof with[i], "%s", r[i].path ? r[i].path : "(null)");
  pd_selection_set_paths(sel, false);
  IS_INT(pd_selection_evaluate(sel, f.snap[0], f.snap[1], &r, &n, &err), PD_OK,
         "paths off: evaluate");
  IS_INT(n, n_with, "paths off: as many results");
  for (size_t i = 0; i < n && i < n_with; i++) {
    char buf[96];
    OK(r[i].path == NULL, "paths off: result %zu has no path", i);
    IS_STR(pd_result_path(&r[i], buf, sizeof buf), with[i],
           "pd_result_path writes the path of result %zu", i);
  }
  if (n > 0) {
    char small[8];
    pd_result_path(&r[0], small, sizeof small);
    OK(strlen(small) == 7 && strncmp(small, with[0], 7) == 0,
       "pd_result_path truncates to the buffer, NUL-terminated");
  }
  pd_selection_free(sel);
  pd_names_free(names);
  free_pair(&f);
}

/* Three threads "0" whose parents are svchost, SVCHOST and svchost: PDH
 * names them svchost/0, SVCHOST/0#1 and svchost/0#2 (duplicates numbered
 * case-insensitively). Thread counter 6 is a RAWCOUNT here: 1, 2, 3. */
static uint8_t *duplicate_threads_blob(size_t *len) {
  enc_blob *b = enc_new("HOST");
  enc_object *p = enc_add_object(b, 230, ENC_MULTI_INSTANCE);
  uint32_t pid = enc_add_counter(p, 784, PD_COUNTER_RAWCOUNT);
  static const char *const procs[] = {"svchost", "SVCHOST", "svchost"};
  for (uint32_t i = 0; i < 3; i++)
    enc_set_value(p, enc_add_instance(p, procs[i]), pid, 100 * (i + 1));
  enc_object *t = enc_add_object(b, 232, ENC_MULTI_INSTANCE);
  uint32_t c = enc_add_counter(t, 6, PD_COUNTER_RAWCOUNT);
  for (uint32_t i = 0; i < 3; i++) {
    uint32_t th = enc_add_instance(t, "0");
    enc_instance_set_parent(t, th, 230, i);
    enc_set_value(t, th, c, i + 1);
  }
  uint8_t *blob = enc_build(b, len);
  enc_free(b);
  return blob;
}

/* The values one path yields, in blob order, as "name=value,...". */
static void values_of(pd_snapshot *snap, const pd_names *names,
                      const char *path, char *out, size_t cap) {
  pd_selection *sel = pd_selection_new();
  pd_selection_set_names(sel, names);
  pd_error err;
  const pd_result *r;
  size_t n = 0, used = 0;
  out[0] = '\0';
  if (pd_selection_add(sel, path, NULL, &err) == PD_OK &&
      pd_selection_evaluate(sel, NULL, snap, &r, &n, &err) == PD_OK)
    for (size_t i = 0; i < n && used < cap; i++)
      used += (size_t)snprintf(out + used, cap - used, "%s%s=%g", i ? "," : "",
                               r[i].instance, r[i].value);
  pd_selection_free(sel);
}

static void test_duplicate_wildcards(void) {
  size_t len;
  uint8_t *blob = duplicate_threads_blob(&len);
  pd_snapshot *snap = pd_snapshot_new();
  pd_error err;
  IS_INT(pd_decode(snap, blob, len, NULL, &err), PD_OK, "decode threads");
  pd_names *names = load_names();
  char got[256];
  static const struct {
    const char *path, *want, *why;
  } cases[] = {
      {"\\Thread(*/0)\\% Processor Time",
       "svchost/0=1,SVCHOST/0#1=2,svchost/0#2=3",
       "a wildcard parent matches every duplicate of the names it matches"},
      {"\\Thread(svchost/*)\\% Processor Time",
       "svchost/0=1,SVCHOST/0#1=2,svchost/0#2=3",
       "a wildcard instance matches every duplicate"},
      {"\\Thread(svc*/0)\\% Processor Time",
       "svchost/0=1,SVCHOST/0#1=2,svchost/0#2=3",
       "a partial wildcard matches every duplicate"},
      {"\\Thread(*/0#1)\\% Processor Time", "SVCHOST/0#1=2",
       "a wildcard with #n matches that duplicate only"},
      {"\\Thread(svchost/0)\\% Processor Time", "svchost/0=1",
       "no wildcard, no #n: #0 only, as PDH"},
      {"\\Thread(SVCHOST/0#2)\\% Processor Time", "svchost/0#2=3",
       "no wildcard: #2, case-insensitively"},
      {"\\Process(SVCHOST)\\ID Process", "svchost=100",
       "#n numbering ignores case: SVCHOST without #n is the first svchost"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    values_of(snap, names, cases[i].path, got, sizeof got);
    IS_STR(got, cases[i].want, "%s: %s", cases[i].path, cases[i].why);
  }
  pd_names_free(names);
  pd_snapshot_free(snap);
  free(blob);
}

/* Pairing by full name when the older sample names an object's instances
 * as the newer one does, position by position, pairs i with i; these
 * cases must not: reordered, renamed, a parent renamed, and full names
 * that collide ("a#1" written as a name). Object 10, counter 8 is a
 * 100NSEC_TIMER: 100 * dN / 1e7 %; thread 232 counter 6 likewise. */
typedef struct named_value {
  const char *name, *parent; /* parent: a process name, or NULL */
  uint64_t value;
} named_value;

static uint8_t *pairing_blob(int sample, const named_value *disks, size_t nd,
                             const char *const *procs, size_t np,
                             const named_value *threads, size_t nt,
                             size_t *len) {
  enc_blob *b = enc_new("HOST");
  enc_set_clock(b, 1000, 10000000,
                133485408000000000 + (sample == 2 ? 10000000 : 0));
  enc_object *d = enc_add_object(b, 10, ENC_MULTI_INSTANCE);
  uint32_t dc = enc_add_counter(d, 8, PD_100NSEC_TIMER);
  for (size_t i = 0; i < nd; i++)
    enc_set_value(d, enc_add_instance(d, disks[i].name), dc, disks[i].value);
  enc_object *p = enc_add_object(b, 230, ENC_MULTI_INSTANCE);
  uint32_t pc = enc_add_counter(p, 12, PD_COUNTER_RAWCOUNT);
  for (size_t i = 0; i < np; i++)
    enc_set_value(p, enc_add_instance(p, procs[i]), pc, 1);
  enc_object *t = enc_add_object(b, 232, ENC_MULTI_INSTANCE);
  uint32_t tc = enc_add_counter(t, 6, PD_100NSEC_TIMER);
  for (size_t i = 0; i < nt; i++) {
    uint32_t in = enc_add_instance(t, threads[i].name);
    for (size_t k = 0; k < np; k++)
      if (strcmp(procs[k], threads[i].parent) == 0)
        enc_instance_set_parent(t, in, 230, (uint32_t)k);
    enc_set_value(t, in, tc, threads[i].value);
  }
  uint8_t *blob = enc_build(b, len);
  enc_free(b);
  return blob;
}

/* "instance=value" (or "=first-sample", ...) of every result, in order. */
static void results_text(const pd_result *r, size_t n, char *out, size_t cap) {
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < n && used < cap; i++) {
    if (r[i].status == PD_VALUE_OK)
      used += (size_t)snprintf(out + used, cap - used, "%s%s=%g", i ? "," : "",
                               r[i].instance, r[i].value);
    else
      used +=
          (size_t)snprintf(out + used, cap - used, "%s%s=%s", i ? "," : "",
                           r[i].instance, pd_value_status_name(r[i].status));
  }
}

/* Evaluate `path` over f's pair `times` times (the same answer each
 * time) and check the results' text. */
static void check_pair(fixture *f, const char *path, int times,
                       const char *want, const char *why) {
  decode_pair(f);
  pd_selection *sel = pd_selection_new();
  pd_error err;
  pd_selection_add(sel, path, NULL, &err);
  const pd_result *r;
  size_t n;
  char got[256];
  for (int k = 0; k < times; k++) {
    IS_INT(pd_selection_evaluate(sel, f->snap[0], f->snap[1], &r, &n, &err),
           PD_OK, "evaluate %s (%d)", path, k + 1);
    results_text(r, n, got, sizeof got);
    IS_STR(got, want, "%s", why);
  }
  pd_selection_free(sel);
  free_pair(f);
}

static void test_pairing_by_position(void) {
  static const struct {
    named_value d1[3], d2[3];
    const char *want, *why;
  } cases[] = {
      {{{"x", NULL, 1000000}, {"y", NULL, 3000000}, {NULL, NULL, 0}},
       {{"y", NULL, 5000000}, {"x", NULL, 2000000}, {NULL, NULL, 0}},
       "y=20,x=10",
       "reordered: each pairs with its own name (y 100 * 2e6 / 1e7)"},
      {{{"x", NULL, 1000000}, {"y", NULL, 3000000}, {NULL, NULL, 0}},
       {{"x", NULL, 2000000}, {"z", NULL, 5000000}, {NULL, NULL, 0}},
       "x=10,z=first-sample",
       "renamed: the new name is a first sample"},
      {{{"a", NULL, 1000000}, {"a", NULL, 2000000}, {"a#1", NULL, 3000000}},
       {{"a", NULL, 2000000}, {"a", NULL, 4000000}, {"a#1", NULL, 6000000}},
       "a=10,a#1=20,a#1=40",
       "full names collide (a#1 twice): both pair with the first a#1, as "
       "PDH: 100 * (6e6 - 2e6) / 1e7 = 40"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    fixture f;
    size_t nd1 = cases[c].d1[2].name ? 3 : 2, nd2 = cases[c].d2[2].name ? 3 : 2;
    f.blob[0] = pairing_blob(1, cases[c].d1, nd1, NULL, 0, NULL, 0, &f.len[0]);
    f.blob[1] = pairing_blob(2, cases[c].d2, nd2, NULL, 0, NULL, 0, &f.len[1]);
    /* Twice: the second evaluation of the same pair answers the same. */
    check_pair(&f, "\\10(*)\\8", 2, cases[c].want, cases[c].why);
  }

  /* The processes swap places; the threads' own fields stay the same, so
   * only their parents' names say that p/0 and q/0 swapped too. */
  static const char *const procs1[] = {"p", "q"}, *const procs2[] = {"q", "p"};
  static const named_value t1[] = {{"0", "p", 1000000}, {"0", "q", 3000000}},
                           t2[] = {{"0", "q", 5000000}, {"0", "p", 2000000}};
  fixture f;
  f.blob[0] = pairing_blob(1, NULL, 0, procs1, 2, t1, 2, &f.len[0]);
  f.blob[1] = pairing_blob(2, NULL, 0, procs2, 2, t2, 2, &f.len[1]);
  check_pair(&f, "\\232(*)\\6", 1, "q/0=20,p/0=10",
             "a parent renamed: q/0 100 * (5e6 - 3e6) / 1e7, p/0 100 * 1e6 / "
             "1e7");
}

static void test_bad_path(void) {
  pd_selection *sel = pd_selection_new();
  pd_error err;
  size_t id = 7;
  OK(pd_selection_add(sel, "Processor\\X", &id, &err) == PD_E_PATH,
     "a path without a leading backslash is rejected");
  IS_INT(pd_selection_path_count(sel), 0, "nothing was added");
  pd_selection_free(sel);
}

int main(void) {
  test_spec_pair();
  test_instances();
  test_paths_on_demand();
  test_duplicate_wildcards();
  test_pairing_by_position();
  test_bad_path();
  return tap_done();
}
