/* collectd-winperf: selection tests — deduplication groups
 * (pd_selection_set_path_group).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A value (a counter of an instance) several paths of one group match is
 * reported once, under the first of them; paths of different groups each
 * report it. Built with the parser's sources and assert() kept (as
 * test_name_churn), so the debug-build dedup check (dedup_check.c) runs
 * after every evaluation here, in every build.
 *
 * The two samples, one second apart (PerfTime +1e7 at PerfFreq 1e7,
 * PerfTime100nSec +1e7):
 *   Memory (4), single instance: Pages/sec (40, COUNTER_COUNTER) 100 ->
 *     350: dN / 1 s = 250, raw 350;
 *   Process (230): a, b, _Total; % Processor Time (6, 100NSEC_TIMER,
 *     100 dN / 1e7): a 0 -> 2e6 = 20, b 0 -> 5e6 = 50, _Total 0 -> 7e6 =
 *     70.
 */
#include "encoder.h"
#include "perfdata.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MEMORY = 4, PAGES = 40, PROCESS = 230, CPU = 6 };

static uint8_t *sample(int k, size_t *len) {
  enc_blob *b = enc_new("HOST");
  enc_set_clock(b, 1000 + (int64_t)k * 10000000, 10000000,
                133485408000000000 + (int64_t)k * 10000000);
  enc_object *mem = enc_add_object(b, MEMORY, ENC_SINGLE_INSTANCE);
  uint32_t pg = enc_add_counter(mem, PAGES, PD_COUNTER_COUNTER);
  enc_set_value(mem, ENC_SINGLE, pg, k == 0 ? 100 : 350);
  enc_object *pr = enc_add_object(b, PROCESS, ENC_MULTI_INSTANCE);
  uint32_t cpu = enc_add_counter(pr, CPU, PD_100NSEC_TIMER);
  static const char *const names[3] = {"a", "b", "_Total"};
  static const uint64_t after[3] = {2000000, 5000000, 7000000};
  for (int i = 0; i < 3; i++)
    enc_set_value(pr, enc_add_instance(pr, names[i]), cpu,
                  k == 0 ? 0 : after[i]);
  uint8_t *blob = enc_build(b, len);
  enc_free(b);
  return blob;
}

typedef struct fixture {
  uint8_t *blob[2];
  pd_snapshot *snap[2];
} fixture;

static void fixture_open(fixture *f) {
  for (int k = 0; k < 2; k++) {
    size_t len;
    pd_error err;
    f->blob[k] = sample(k, &len);
    f->snap[k] = pd_snapshot_new();
    if (pd_decode(f->snap[k], f->blob[k], len, NULL, &err) != PD_OK)
      tap_diag("decode %d: %s", k, err.message);
  }
}

static void fixture_close(fixture *f) {
  for (int k = 0; k < 2; k++) {
    pd_snapshot_free(f->snap[k]);
    free(f->blob[k]);
  }
}

/* A selection of numeric paths (no names table needed), each in the group
 * groups[i]. */
static pd_selection *selection(const char *const *paths, const uint32_t *groups,
                               size_t n) {
  pd_selection *sel = pd_selection_new();
  for (size_t i = 0; i < n; i++) {
    size_t id;
    pd_error err;
    if (pd_selection_add(sel, paths[i], &id, &err) != PD_OK)
      tap_diag("%s: %s", paths[i], err.message);
    else if (!pd_selection_set_path_group(sel, id, groups[i]))
      tap_diag("%s: group %u refused", paths[i], groups[i]);
  }
  return sel;
}

/* The results as "path_id:instance=value" words in result order. */
static void results_text(const pd_result *r, size_t n, char *out, size_t cap) {
  size_t w = 0;
  out[0] = '\0';
  for (size_t i = 0; i < n && w < cap; i++)
    w += (size_t)snprintf(out + w, cap - w, "%s%zu:%s=%g", i ? " " : "",
                          r[i].path_id, r[i].instance ? r[i].instance : "-",
                          r[i].status == PD_VALUE_OK ? r[i].value : -1.0);
}

/* Evaluate sel over the fixture's pair: the results as results_text. */
static void evaluate(pd_selection *sel, fixture *f, char *out, size_t cap) {
  const pd_result *r;
  size_t n;
  pd_error err;
  if (pd_selection_evaluate(sel, f->snap[0], f->snap[1], &r, &n, &err) !=
      PD_OK) {
    snprintf(out, cap, "error: %s", err.message);
    return;
  }
  results_text(r, n, out, cap);
}

static void test_single_instance(fixture *f) {
  static const char *const twice[2] = {"\\4\\40", "\\4\\40"};
  char got[512];

  pd_selection *sel = selection(twice, (const uint32_t[]){0, 0}, 2);
  evaluate(sel, f, got, sizeof got);
  IS_STR(got, "0:-=250",
         "one group (the default): Pages/sec once, under the first path");
  IS_INT(pd_selection_matches(sel, 1), 1,
         "the second path matched it (reported under the first)");
  pd_selection_free(sel);

  sel = selection(twice, (const uint32_t[]){0, 1}, 2);
  evaluate(sel, f, got, sizeof got);
  IS_STR(got, "0:-=250 1:-=250",
         "groups 0 and 1: each path reports Pages/sec (250 = 250 / 1 s)");
  const pd_result *r;
  size_t n;
  pd_error err;
  pd_selection_evaluate(sel, f->snap[0], f->snap[1], &r, &n, &err);
  OK(n == 2 && r[0].raw_value == 350 && r[1].raw_value == 350,
     "both carry the raw reading 350");

  /* Back to one group between evaluations, and apart again: the results
   * kept from the last evaluation (in_place) never show. */
  pd_selection_set_path_group(sel, 1, 0);
  evaluate(sel, f, got, sizeof got);
  IS_STR(got, "0:-=250", "path 1 moved to group 0: once again");
  pd_selection_set_path_group(sel, 1, 7);
  evaluate(sel, f, got, sizeof got);
  IS_STR(got, "0:-=250 1:-=250", "path 1 moved to group 7: twice again");
  pd_selection_free(sel);

  sel = selection(twice, (const uint32_t[]){9, 9}, 2);
  evaluate(sel, f, got, sizeof got);
  IS_STR(got, "0:-=250", "one group other than 0 deduplicates as group 0");
  pd_selection_free(sel);
}

static void test_instances(fixture *f) {
  char got[512];
  /* Groups interleaved in path order: group 1 is paths 0 and 2, group 0
   * paths 1 and 3. Group 1: the exact a first, then (*) takes b and
   * _Total (a is reported already). Group 0: (*) takes all three, so the
   * exact _Total after it has nothing left. */
  static const char *const paths[4] = {"\\230(a)\\6", "\\230(*)\\6",
                                       "\\230(*)\\6", "\\230(_Total)\\6"};
  pd_selection *sel = selection(paths, (const uint32_t[]){1, 0, 1, 0}, 4);
  evaluate(sel, f, got, sizeof got);
  IS_STR(got, "0:a=20 1:a=20 1:b=50 1:_Total=70 2:b=50 2:_Total=70",
         "groups interleaved: each value once per group, in path order, "
         "under the group's first path");
  IS_INT(pd_selection_matches(sel, 2), 3,
         "path 2 matched three (one reported under path 0)");
  IS_INT(pd_selection_matches(sel, 3), 1,
         "path 3 matched _Total (reported under path 1)");
  pd_selection_free(sel);

  /* The same paths in one group: as before groups existed. */
  sel = selection(paths, (const uint32_t[]){0, 0, 0, 0}, 4);
  evaluate(sel, f, got, sizeof got);
  IS_STR(got, "0:a=20 1:b=50 1:_Total=70",
         "one group: a under the exact path 0, the rest under path 1");
  pd_selection_free(sel);

  /* Every path its own group: every path reports all it matches, and
   * both objects' paths mixed in. */
  static const char *const mixed[5] = {"\\230(*)\\6", "\\4\\40", "\\230(b)\\6",
                                       "\\4\\40", "\\230(*)\\6"};
  sel = selection(mixed, (const uint32_t[]){3, 4, 5, 6, 7}, 5);
  evaluate(sel, f, got, sizeof got);
  IS_STR(got,
         "0:a=20 0:b=50 0:_Total=70 1:-=250 2:b=50 3:-=250 4:a=20 4:b=50 "
         "4:_Total=70",
         "a group per path: nothing deduplicated");
  pd_selection_free(sel);

  sel = pd_selection_new();
  OK(!pd_selection_set_path_group(sel, 0, 1),
     "a group for an unknown path is refused");
  pd_selection_free(sel);
}

int main(void) {
  fixture f;
  fixture_open(&f);
  test_single_instance(&f);
  test_instances(&f);
  fixture_close(&f);
  return tap_done();
}
