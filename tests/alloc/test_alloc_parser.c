/* collectd-winperf tests: the parser when allocations fail.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The plugin's whole parser pipeline, on a realistic pair of encoder-built
 * samples: pd_snapshot_new + pd_decode of both, pd_names_parse,
 * pd_selection_new + pd_selection_add of paths with wildcards, indices and
 * instance names (parent/name and #n duplicates, a code-page object),
 * pd_selection_query and pd_selection_evaluate. The sweep (failalloc.h)
 * fails allocation 1, 2, ... of that pipeline, once and persistently.
 *
 * A run passes when every step that fails does so the way its API says
 * (PD_E_NOMEM with a message; NULL from the constructors and
 * pd_selection_query), when, after such a failure, the same step retried
 * on the same objects with allocation working again succeeds and the
 * pipeline ends with exactly the results of a run with no failure (a
 * failure leaves no half-updated state), and when nothing is left
 * allocated after the cleanup. libperfdata and the encoder are linked
 * statically, so every allocation they make goes through the shim.
 *
 * The V2 (PerfLib) path gets the same: pd_v2_counterset_parse,
 * pd_v2_data_decode of two answers and pd_v2_evaluate, with bytes laid out
 * per perfdata_v2.h's structures.
 */
#include "encoder.h"
#include "failalloc.h"
#include "perfdata.h"
#include "perfdata_v2.h"
#include "tap.h"
#include "failalloc_tap.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------- the data */

static const char *const NAMES[] = {
    "1",   "1847",       "2",   "System",       "6",   "% Processor Time",
    "10",  "Processes",  "12",  "Count",        "86",  "Cache",
    "230", "Process",    "232", "Thread",       "238", "Processor",
    "784", "ID Process", "786", "Thread Count",
};

/* A REG_MULTI_SZ Counter table (UTF-16LE, ASCII names). */
static uint8_t *names_table(size_t *len) {
  size_t n = sizeof NAMES / sizeof *NAMES, cap = 4;
  for (size_t i = 0; i < n; i++)
    cap += 2 * (strlen(NAMES[i]) + 1);
  uint8_t *buf = calloc(1, cap), *p = buf;
  for (size_t i = 0; i < n; i++) {
    for (const char *s = NAMES[i]; *s; s++) {
      *p++ = (uint8_t)*s;
      *p++ = 0;
    }
    p += 2;
  }
  p += 2;
  *len = (size_t)(p - buf);
  return buf;
}

/* System (single instance), Processor 0, 1, _Total, four processes (two
 * svchost, one SVCHOST: duplicates), a thread "0" in each (parent/name,
 * duplicated: svchost/0, svchost/0#1, SVCHOST/0#2, chrome/0), and a
 * Latin-1 code-page object. Sample k = 0 or 1. */
static uint8_t *sample_blob(int k, size_t *len) {
  enc_blob *b = enc_new("WINSRV01");
  enc_set_clock(b, 123456789 + 10000000 * k, 10000000,
                133485408000000000 + 10000000 * k);
  enc_object *sys = enc_add_object(b, 2, ENC_SINGLE_INSTANCE);
  enc_set_value(sys, ENC_SINGLE, enc_add_counter(sys, 10, PD_COUNTER_RAWCOUNT),
                42 + (uint64_t)k);

  enc_object *cpu = enc_add_object(b, 238, ENC_MULTI_INSTANCE);
  uint32_t busy = enc_add_counter(cpu, 6, PD_100NSEC_TIMER_INV);
  static const char *const cpus[] = {"0", "1", "_Total"};
  for (uint32_t i = 0; i < 3; i++)
    enc_set_value(cpu, enc_add_instance(cpu, cpus[i]), busy,
                  1000000 + (uint64_t)k * (2500000 + 1000000 * i));

  enc_object *proc = enc_add_object(b, 230, ENC_MULTI_INSTANCE);
  uint32_t ptime = enc_add_counter(proc, 6, PD_100NSEC_TIMER);
  uint32_t pid = enc_add_counter(proc, 784, PD_COUNTER_RAWCOUNT);
  uint32_t threads = enc_add_counter(proc, 786, PD_COUNTER_RAWCOUNT);
  static const char *const procs[] = {"svchost", "svchost", "SVCHOST",
                                      "chrome"};
  for (uint32_t i = 0; i < 4; i++) {
    uint32_t in = enc_add_instance(proc, procs[i]);
    enc_set_value(proc, in, ptime, 5000 + (uint64_t)k * 1000000 * (i + 1));
    enc_set_value(proc, in, pid, 100 * (i + 1));
    enc_set_value(proc, in, threads, 1);
  }

  enc_object *thr = enc_add_object(b, 232, ENC_MULTI_INSTANCE);
  uint32_t ttime = enc_add_counter(thr, 6, PD_100NSEC_TIMER);
  for (uint32_t i = 0; i < 4; i++) {
    uint32_t th = enc_add_instance(thr, "0");
    enc_instance_set_parent(thr, th, 230, i);
    enc_set_value(thr, th, ttime, (uint64_t)k * 500000 * (i + 1));
  }

  enc_object *cache = enc_add_object(b, 86, ENC_MULTI_INSTANCE);
  uint32_t count = enc_add_counter(cache, 12, PD_COUNTER_RAWCOUNT);
  enc_object_set_code_page(cache, 1252);
  enc_set_value(cache, enc_add_instance(cache, "Caf\xc3\xa9"), count, 7);
  enc_set_value(cache, enc_add_instance(cache, "Bar"), count, 8);

  uint8_t *blob = enc_build(b, len);
  enc_free(b);
  return blob;
}

static const char *const PATHS[] = {
    "\\Processor(*)\\% Processor Time",
    "\\Process(svchost#1)\\% Processor Time",
    "\\Process(*)\\*",
    "\\Thread(svchost/*)\\% Processor Time",
    "\\Thread(*/0#2)\\% Processor Time",
    "\\System\\Processes",
    "\\238(_Total)\\6",
    "\\Cache(Caf*)\\Count",
    "\\NoSuchObject\\Count",
};
#define NPATHS (sizeof PATHS / sizeof *PATHS)

typedef struct fixture {
  uint8_t *blob[2];
  size_t len[2];
  uint8_t *names;
  size_t names_len;
  char want[4096]; /* the results of a run with no failure, as text */
} fixture;

/* ----------------------------------------------------- one pipeline run */

typedef struct run {
  char *why;
  size_t whylen;
  bool failed;   /* some step failed cleanly */
  char step[64]; /* the first that did */
  bool broken;   /* some step failed wrongly: why says how */
  char got[4096];
} run;

static void run_init(run *r, char *why, size_t whylen) {
  memset(r, 0, sizeof *r);
  r->why = why;
  r->whylen = whylen;
  why[0] = '\0';
}

__attribute__((format(printf, 2, 3))) static void broken(run *r,
                                                         const char *fmt, ...) {
  if (r->broken)
    return; /* keep the first */
  r->broken = true;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->why, r->whylen, fmt, ap);
  va_end(ap);
}

/* A step returned `st`: OK, or a clean PD_E_NOMEM. True when it must be
 * retried (allocation is working again from here on). */
static bool failed_step(run *r, pd_status st, const pd_error *err,
                        const char *step) {
  if (st == PD_OK)
    return false;
  if (st != PD_E_NOMEM)
    broken(r, "%s: status %s, not out-of-memory (%s)", step, pd_status_name(st),
           err->message);
  else if (err->status != PD_E_NOMEM || err->message[0] == '\0')
    broken(r, "%s: PD_E_NOMEM but the error says %s \"%s\"", step,
           pd_status_name(err->status), err->message);
  if (!r->failed)
    snprintf(r->step, sizeof r->step, "%s", step);
  r->failed = true;
  failalloc_disarm();
  return true;
}

/* A constructor returned NULL: clean, retry with allocation working. */
static void *constructed(run *r, void *p, void *(*again)(void)) {
  if (p != NULL)
    return p;
  if (!r->failed)
    snprintf(r->step, sizeof r->step, "a constructor");
  r->failed = true;
  failalloc_disarm();
  return again();
}

static void *new_snapshot(void) {
  return pd_snapshot_new();
}
static void *new_selection(void) {
  return pd_selection_new();
}
static void *new_v2_data(void) {
  return pd_v2_data_new();
}

static void append(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t cap, const char *fmt, ...) {
  size_t n = strlen(buf);
  if (n + 1 >= cap)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + n, cap - n, fmt, ap);
  va_end(ap);
}

static void pipeline(fixture *f, run *r) {
  pd_error err;
  memset(&err, 0, sizeof err);
  pd_snapshot *snap[2];
  for (int i = 0; i < 2; i++) {
    snap[i] = constructed(r, pd_snapshot_new(), new_snapshot);
    if (failed_step(r, pd_decode(snap[i], f->blob[i], f->len[i], NULL, &err),
                    &err, i ? "pd_decode (newer)" : "pd_decode (older)"))
      failed_step(r, pd_decode(snap[i], f->blob[i], f->len[i], NULL, &err),
                  &err, "pd_decode retried");
  }
  pd_names *names = NULL;
  pd_status st = pd_names_parse(f->names, f->names_len, &names, &err);
  if (failed_step(r, st, &err, "pd_names_parse")) {
    if (names != NULL)
      broken(r, "pd_names_parse failed but returned a table");
    failed_step(r, pd_names_parse(f->names, f->names_len, &names, &err), &err,
                "pd_names_parse retried");
  }
  pd_selection *sel = constructed(r, pd_selection_new(), new_selection);
  pd_selection_set_names(sel, names);
  for (size_t i = 0; i < NPATHS; i++) {
    size_t id = 99;
    if (failed_step(r, pd_selection_add(sel, PATHS[i], &id, &err), &err,
                    "pd_selection_add")) {
      if (pd_selection_path_count(sel) != i)
        broken(r,
               "pd_selection_add failed but the path count is %zu, not "
               "%zu",
               pd_selection_path_count(sel), i);
      failed_step(r, pd_selection_add(sel, PATHS[i], &id, &err), &err,
                  "pd_selection_add retried");
    }
    if (id != i)
      broken(r, "path %zu got id %zu", i, id);
  }
  size_t unresolved = 0;
  const char *query = pd_selection_query(sel, &unresolved);
  if (query == NULL) {
    if (!r->failed)
      snprintf(r->step, sizeof r->step, "pd_selection_query");
    r->failed = true;
    failalloc_disarm();
    query = pd_selection_query(sel, &unresolved);
  }
  append(r->got, sizeof r->got, "query %s (%zu unresolved)\n",
         query ? query : "(null)", unresolved);
  const pd_result *res = NULL;
  size_t n = 0;
  if (failed_step(r,
                  pd_selection_evaluate(sel, snap[0], snap[1], &res, &n, &err),
                  &err, "pd_selection_evaluate"))
    failed_step(r, pd_selection_evaluate(sel, snap[0], snap[1], &res, &n, &err),
                &err, "pd_selection_evaluate retried");
  for (size_t i = 0; i < n; i++)
    append(r->got, sizeof r->got, "%zu %s = %.6g (%s)\n", res[i].path_id,
           res[i].path, res[i].value, pd_value_status_name(res[i].status));
  for (size_t i = 0; i < NPATHS; i++)
    append(r->got, sizeof r->got, "path %zu: %zu matches\n", i,
           pd_selection_matches(sel, i));
  pd_selection_free(sel);
  pd_names_free(names);
  pd_snapshot_free(snap[0]);
  pd_snapshot_free(snap[1]);
}

/* A run's verdict: broken, different results, or how it ended. */
static failalloc_result verdict(run *r, const char *want, char *why,
                                size_t whylen) {
  if (r->broken)
    return FA_BROKEN;
  if (strcmp(r->got, want) != 0) {
    /* Show the first line that differs. */
    const char *a = r->got, *b = want, *line = r->got;
    while (*a && *a == *b) {
      if (*a == '\n')
        line = a + 1;
      a++, b++;
    }
    size_t off = (size_t)(line - r->got);
    snprintf(why, whylen,
             "after %s failed, results differ: \"%.*s\", want \"%.*s\"",
             r->step[0] ? r->step : "no step", (int)strcspn(line, "\n"), line,
             (int)strcspn(want + off, "\n"), want + off);
    return FA_BROKEN;
  }
  return r->failed ? FA_CLEAN_ERROR : FA_SUCCESS;
}

static failalloc_result op_pipeline(void *ctx, char *why, size_t whylen) {
  fixture *f = ctx;
  run r;
  run_init(&r, why, whylen);
  pipeline(f, &r);
  return verdict(&r, f->want, why, whylen);
}

/* -------------------------------------------------------- the V2 path */

/* A PERF_COUNTERSET_REG_INFO with two counters: 100NSEC_TIMER (id 2) and
 * RAWCOUNT (id 4). */
static size_t v2_counterset(uint8_t *b) {
  memset(b, 0, 32 + 2 * 48);
  for (int i = 0; i < 16; i++)
    b[i] = (uint8_t)(0x30 + i); /* the GUID */
  enc_put32(b, 20, 100, false); /* DetailLevel */
  enc_put32(b, 24, 2, false);   /* NumCounters */
  enc_put32(b, 28, 2, false);   /* multiple instances */
  static const uint32_t id[2] = {2, 4},
                        type[2] = {PD_100NSEC_TIMER, PD_COUNTER_RAWCOUNT};
  for (size_t c = 0; c < 2; c++) {
    uint8_t *r = b + 32 + 48 * c;
    enc_put32(r, 0, id[c], false);
    enc_put32(r, 4, type[c], false);
    enc_put32(r, 16, 100, false); /* DetailLevel */
    for (size_t k = 24; k < 40; k += 4)
      enc_put32(r, k, PD_V2_NO_ID, false); /* base, time, freq, multi */
  }
  return 32 + 2 * 48;
}

/* A PerfQueryCounterData answer: one PERF_COUNTERSET block (both counters)
 * with four instances, two of them named alike. Sample k = 0 or 1. */
static size_t v2_answer(uint8_t *b, int k) {
  static const char *const inst[4] = {"w3wp", "svchost", "svchost", "lsass"};
  size_t n = 48;
  memset(b, 0, 1024);
  enc_put32(b, 4, 1, false);                                /* one block */
  enc_put64(b, 8, 1000000 + 10000000 * (uint64_t)k, false); /* PerfTime */
  enc_put64(b, 16, 133485408000000000 + 10000000 * (uint64_t)k, false);
  enc_put64(b, 24, 10000000, false); /* PerfFreq */
  size_t block = n;
  enc_put32(b, block + 4, PD_V2_COUNTERSET, false);
  n += 16;
  enc_put32(b, n, 16, false); /* the counter ids: 8 + 4 * 2, padded */
  enc_put32(b, n + 4, 2, false);
  enc_put32(b, n + 8, 2, false);
  enc_put32(b, n + 12, 4, false);
  n += 16;
  size_t multi = n;
  enc_put32(b, n + 4, 4, false); /* instances */
  n += 8;
  for (uint32_t i = 0; i < 4; i++) {
    size_t head = n, len = strlen(inst[i]);
    enc_put32(b, n + 4, 10 + i, false); /* InstanceId */
    for (size_t c = 0; c <= len; c++)
      enc_put16(b, n + 8 + 2 * c, (uint16_t)inst[i][c], false);
    n = head + ((8 + 2 * (len + 1) + 7) & ~(size_t)7);
    enc_put32(b, head, (uint32_t)(n - head), false);
    enc_put32(b, n, 8, false); /* the timer: 10 % more per instance */
    enc_put32(b, n + 4, 16, false);
    enc_put64(b, n + 8, (uint64_t)k * 1000000 * (i + 1), false);
    enc_put32(b, n + 16, 4, false); /* the raw count */
    enc_put32(b, n + 20, 16, false);
    enc_put32(b, n + 24, 100 * (i + 1), false);
    n += 32;
  }
  enc_put32(b, multi, (uint32_t)(n - multi), false);
  enc_put32(b, block + 8, (uint32_t)(n - block), false);
  enc_put32(b, 0, (uint32_t)n, false);
  return n;
}

typedef struct v2_fixture {
  uint8_t set[128], answer[2][1024];
  size_t set_len, answer_len[2];
  pd_v2_identifier id;
  char want[2048];
} v2_fixture;

static void v2_pipeline(v2_fixture *f, run *r) {
  pd_error err;
  memset(&err, 0, sizeof err);
  pd_v2_counterset *set = NULL;
  if (failed_step(r, pd_v2_counterset_parse(f->set, f->set_len, &set, &err),
                  &err, "pd_v2_counterset_parse")) {
    if (set != NULL)
      broken(r, "pd_v2_counterset_parse failed but returned a set");
    failed_step(r, pd_v2_counterset_parse(f->set, f->set_len, &set, &err), &err,
                "pd_v2_counterset_parse retried");
  }
  pd_v2_data *d[2];
  for (int i = 0; i < 2; i++) {
    d[i] = constructed(r, pd_v2_data_new(), new_v2_data);
    const uint8_t *a = f->answer[i];
    size_t len = f->answer_len[i];
    if (failed_step(r, pd_v2_data_decode(d[i], a, len, &f->id, 1, 0, &err),
                    &err, "pd_v2_data_decode")) {
      if (pd_v2_data_value_count(d[i]) != 0)
        broken(r, "pd_v2_data_decode failed but the data is not empty");
      failed_step(r, pd_v2_data_decode(d[i], a, len, &f->id, 1, 0, &err), &err,
                  "pd_v2_data_decode retried");
    }
  }
  const pd_v2_counterset *sets[1] = {set};
  pd_v2_results res = {0};
  if (failed_step(r, pd_v2_evaluate(sets, 1, d[0], d[1], NULL, &res, &err),
                  &err, "pd_v2_evaluate"))
    failed_step(r, pd_v2_evaluate(sets, 1, d[0], d[1], NULL, &res, &err), &err,
                "pd_v2_evaluate retried");
  for (size_t i = 0; i < res.count; i++)
    append(r->got, sizeof r->got, "%u %s/%u = %.6g (%s)\n",
           res.items[i].counter_id, res.items[i].instance,
           res.items[i].instance_id, res.items[i].value,
           pd_value_status_name(res.items[i].status));
  pd_v2_results_free(&res);
  pd_v2_data_free(d[0]);
  pd_v2_data_free(d[1]);
  pd_v2_counterset_free(set);
}

static failalloc_result op_v2(void *ctx, char *why, size_t whylen) {
  v2_fixture *f = ctx;
  run r;
  run_init(&r, why, whylen);
  v2_pipeline(f, &r);
  return verdict(&r, f->want, why, whylen);
}

/* ------------------------------------------------------------- the tests */

int main(void) {
  static fixture f;
  f.blob[0] = sample_blob(0, &f.len[0]);
  f.blob[1] = sample_blob(1, &f.len[1]);
  f.names = names_table(&f.names_len);

  /* The reference: a run with no failure. */
  run ref;
  char why[256] = "";
  run_init(&ref, why, sizeof why);
  pipeline(&f, &ref);
  OK(!ref.broken && !ref.failed, "the pipeline runs with no failure%s%s",
     why[0] ? ": " : "", why);
  memcpy(f.want, ref.got, sizeof f.want);
  OK(strstr(f.want, "SVCHOST/0#2") != NULL && strstr(f.want, "svchost#1") &&
         strstr(f.want, "Caf\xc3\xa9") && strstr(f.want, "(1 unresolved)"),
     "the reference covers duplicates, parents, code pages, unresolved");
  for (const char *line = f.want; *line;) {
    const char *end = strchr(line, '\n');
    int len = end ? (int)(end - line) : (int)strlen(line);
    tap_diag("  %.*s", len, line);
    line += len + (end != NULL);
  }

  failalloc_tap_sweep("decode, names, selection", op_pipeline, &f,
                      "each a clean error, the same results after a retry",
                      NULL, NULL);

  static v2_fixture v;
  v.set_len = v2_counterset(v.set);
  v.answer_len[0] = v2_answer(v.answer[0], 0);
  v.answer_len[1] = v2_answer(v.answer[1], 1);
  v.id.counter_id = PD_V2_WILDCARD_COUNTER;
  v.id.instance_id = PD_V2_ANY_INSTANCE_ID;
  strcpy(v.id.instance, "*");
  run_init(&ref, why, sizeof why);
  v2_pipeline(&v, &ref);
  OK(!ref.broken && !ref.failed, "the V2 pipeline runs with no failure%s%s",
     why[0] ? ": " : "", why);
  memcpy(v.want, ref.got, sizeof v.want);
  if (!OK(strstr(v.want, "2 svchost/12 = 30 (ok)") != NULL &&
              strstr(v.want, "4 lsass/13 = 400 (ok)") != NULL,
          "the V2 reference: timers and counts of four instances"))
    tap_diag("  %s", v.want);
  failalloc_tap_sweep("V2 counter set, data, evaluate", op_v2, &v,
                      "each a clean error, the same results after a retry",
                      NULL, NULL);

  free(f.blob[0]);
  free(f.blob[1]);
  free(f.names);
  return tap_done();
}
