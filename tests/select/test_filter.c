/* collectd-winperf: the selection's instance filter hook
 * (pd_selection_set_instance_filter).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * One Process object (230) with svchost, svchost (PDH: svchost#1), w3wp and
 * _Total, two counters each (% Processor Time 6, a 100NSEC_TIMER; ID
 * Process 784, a RAWCOUNT), and the single-instance System object (2)
 * with Raw (14). Sample 2 is 1 s (1e7) later; svchost's timer grows 5e6
 * (50 %), svchost#1's 2.5e6 (25 %), w3wp's 1e6 (10 %), _Total's 8.5e6.
 */
#include "encoder.h"
#include "perfdata.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const NAMES[] = {
    "2",   "System",  "6",   "% Processor Time", "14", "Raw",
    "230", "Process", "784", "ID Process"};

static pd_names *load_names(void) {
  uint8_t buf[512], *p = buf;
  for (size_t i = 0; i < sizeof NAMES / sizeof *NAMES; i++) {
    for (const char *s = NAMES[i]; *s; s++) { /* ASCII -> UTF-16LE */
      *p++ = (uint8_t)*s;
      *p++ = 0;
    }
    *p++ = 0;
    *p++ = 0;
  }
  *p++ = 0;
  *p++ = 0;
  pd_names *names = NULL;
  pd_error err;
  if (pd_names_parse(buf, (size_t)(p - buf), &names, &err) != PD_OK)
    tap_diag("names: %s", err.message);
  return names;
}

static uint8_t *blob(int sample, size_t *len) {
  static const struct {
    const char *name;
    uint64_t cpu1, cpu2, pid;
  } procs[] = {{"svchost", 1000, 5001000, 100},
               {"svchost", 2000, 2502000, 200},
               {"w3wp", 0, 1000000, 300},
               {"_Total", 3000, 8503000, 0}};
  enc_blob *b = enc_new("HOST");
  enc_set_clock(b, 1000, 10000000,
                133485408000000000 + (sample == 2 ? 10000000 : 0));
  enc_object *s = enc_add_object(b, 2, ENC_SINGLE_INSTANCE);
  enc_set_value(s, ENC_SINGLE, enc_add_counter(s, 14, PD_COUNTER_RAWCOUNT), 42);
  enc_object *p = enc_add_object(b, 230, ENC_MULTI_INSTANCE);
  uint32_t cpu = enc_add_counter(p, 6, PD_100NSEC_TIMER);
  uint32_t pid = enc_add_counter(p, 784, PD_COUNTER_RAWCOUNT);
  for (int i = 0; i < 4; i++) {
    uint32_t in = enc_add_instance(p, procs[i].name);
    enc_set_value(p, in, cpu, sample == 1 ? procs[i].cpu1 : procs[i].cpu2);
    enc_set_value(p, in, pid, procs[i].pid);
  }
  uint8_t *out = enc_build(b, len);
  enc_free(b);
  return out;
}

/* What the filter saw: "PATH:FULL|BASE" per call, space-separated. */
typedef struct seen {
  char calls[512];
  int answer; /* -1: out of memory; else drop base "w3wp" */
} seen;

static int filter(void *ctx, size_t path_id, const char *full,
                  const char *base) {
  seen *s = ctx;
  size_t at = strlen(s->calls);
  snprintf(s->calls + at, sizeof s->calls - at, "%s%zu:%s|%s", at ? " " : "",
           path_id, full, base);
  if (s->answer < 0)
    return -1;
  return strcmp(base, "w3wp") != 0;
}

static void results_text(const pd_result *r, size_t n, char *out, size_t cap) {
  out[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    size_t at = strlen(out);
    snprintf(out + at, cap - at, "%zu %s=%g\n", r[i].path_id, r[i].path,
             r[i].status == PD_VALUE_OK ? r[i].value : -1.0);
  }
}

int main(void) {
  size_t len[2];
  uint8_t *bytes[2] = {blob(1, &len[0]), blob(2, &len[1])};
  pd_snapshot *snap[2];
  pd_error err;
  for (int i = 0; i < 2; i++) {
    snap[i] = pd_snapshot_new();
    if (pd_decode(snap[i], bytes[i], len[i], NULL, &err) != PD_OK)
      tap_diag("decode %d: %s", i, err.message);
  }
  pd_names *names = load_names();
  pd_selection *sel = pd_selection_new();
  pd_selection_set_names(sel, names);
  pd_selection_add(sel, "\\Process(*)\\*", NULL, &err);
  pd_selection_add(sel, "\\Process(w3wp)\\% Processor Time", NULL, &err);
  pd_selection_add(sel, "\\System\\Raw", NULL, &err);
  seen s0 = {"", 0}, s2 = {"", 0};
  pd_selection_set_instance_filter(sel, 0, filter, &s0);
  pd_selection_set_instance_filter(sel, 2, filter, &s2);
  pd_selection_set_instance_filter(sel, 7, filter, &s2); /* no such path */

  const pd_result *r;
  size_t n;
  char got[2048];
  IS_INT(pd_selection_evaluate(sel, snap[0], snap[1], &r, &n, &err), PD_OK,
         "evaluate with filters");
  IS_STR(s0.calls,
         "0:svchost|svchost 0:svchost#1|svchost 0:w3wp|w3wp 0:_Total|_Total",
         "called once per instance (not per counter), in blob order, with "
         "the full and the base name");
  IS_STR(s2.calls, "2:|", "a single-instance object: once, with \"\" \"\"");
  results_text(r, n, got, sizeof got);
  /* svchost 100 * 5e6 / 1e7 = 50, svchost#1 25, _Total 85; ID Process raw.
   * w3wp is left out of path 0 and reported by path 1: 100 * 1e6 / 1e7. */
  IS_STR(got,
         "0 \\Process(svchost)\\% Processor Time=50\n"
         "0 \\Process(svchost)\\ID Process=100\n"
         "0 \\Process(svchost#1)\\% Processor Time=25\n"
         "0 \\Process(svchost#1)\\ID Process=200\n"
         "0 \\Process(_Total)\\% Processor Time=85\n"
         "0 \\Process(_Total)\\ID Process=0\n"
         "1 \\Process(w3wp)\\% Processor Time=10\n"
         "2 \\System\\Raw=42\n",
         "the left-out instance is not reported under its path; a later "
         "path still reports it");
  IS_INT(pd_selection_matches(sel, 0), 6,
         "path 0 matched 6 counters (not the left-out instance's)");

  s0.answer = -1;
  IS_INT(pd_selection_evaluate(sel, snap[0], snap[1], &r, &n, &err), PD_E_NOMEM,
         "a filter's -1 fails the evaluation: out of memory");

  pd_selection_set_instance_filter(sel, 0, NULL, NULL);
  IS_INT(pd_selection_evaluate(sel, snap[0], snap[1], &r, &n, &err), PD_OK,
         "evaluate with path 0's filter cleared");
  results_text(r, n, got, sizeof got);
  OK(strstr(got, "0 \\Process(w3wp)\\% Processor Time=10\n") != NULL && n == 9,
     "cleared: w3wp is path 0's again (9 results)");

  pd_selection_free(sel);
  pd_names_free(names);
  for (int i = 0; i < 2; i++) {
    pd_snapshot_free(snap[i]);
    free(bytes[i]);
  }
  return tap_done();
}
