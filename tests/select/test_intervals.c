/* collectd-winperf tests: one selection over many intervals, as the plugin
 * runs it (two snapshots taking turns).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * What an evaluation keeps for the next one must never show: the pairing
 * by id kept while names and ids stay (and recomputed when two processes
 * keep their names and positions but swap ids), results written in place
 * (and written whole again after paths were turned on and off), a counter
 * reported by a "(*)" path not reported again by a later exact path. Every
 * expected value is worked out by hand: % Processor Time (index 6) is a
 * 100NSEC_TIMER, 100 * (N1 - N0) / (T1 - T0), the clock advancing 1e7 (1 s)
 * an interval.
 */
#include "encoder.h"
#include "perfdata.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

enum { CPU = 6, ID_PROCESS = 784, INTERVALS = 6 };

/* Per interval, the three instances "a", "a" (a#1) and "b": pid and cpu. */
typedef struct interval {
  uint32_t pid[3];
  uint64_t cpu[3];
} interval;

static const interval plan[INTERVALS] = {
    {{10, 20, 30}, {0, 0, 0}},
    {{10, 20, 30}, {1000000, 2000000, 3000000}},
    /* a and a#1 swap ids (and so their counts): by id each pairs with its
     * own process, now at the other position */
    {{20, 10, 30}, {3000000, 6000000, 6000000}},
    {{20, 10, 30}, {4000000, 7000000, 7000000}},
    {{20, 10, 30}, {5000000, 8000000, 9000000}},
    {{20, 10, 30}, {6000000, 9000000, 9500000}},
};

/* The expected % of a, a#1 and b in interval k (from 1). */
static const double expect[INTERVALS][3] = {
    {0, 0, 0},    {10, 20, 30},
    {10, 50, 30}, /* a: pid 20 2e6 -> 3e6; a#1: pid 10 1e6 -> 6e6 */
    {10, 10, 10}, {10, 10, 20},
    {10, 10, 5},
};

static const char names[3][4] = {"a", "a#1", "b"};

static uint8_t *sample(int k, size_t *len) {
  enc_blob *b = enc_new("HOST");
  enc_set_clock(b, 1000, 10000000, 133485408000000000 + (int64_t)k * 10000000);
  enc_object *po = enc_add_object(b, 230, ENC_MULTI_INSTANCE);
  uint32_t cpu = enc_add_counter(po, CPU, PD_100NSEC_TIMER);
  uint32_t pid = enc_add_counter(po, ID_PROCESS, PD_COUNTER_RAWCOUNT);
  for (int i = 0; i < 3; i++) {
    uint32_t in = enc_add_instance(po, i < 2 ? "a" : "b");
    enc_set_value(po, in, cpu, plan[k].cpu[i]);
    enc_set_value(po, in, pid, plan[k].pid[i]);
  }
  uint8_t *blob = enc_build(b, len);
  enc_free(b);
  return blob;
}

/* Interval k's results: a, a#1, b in that order, each whole. */
static void check(int k, const pd_result *r, size_t n, bool paths) {
  IS_INT(n, 3, "interval %d: three values (b once)", k);
  if (n != 3)
    return;
  for (int i = 0; i < 3; i++) {
    char want[64], got[64];
    snprintf(want, sizeof want, "\\230(%s)\\6", names[i]);
    IS_STR(r[i].instance, names[i], "interval %d: result %d is %s", k, i,
           names[i]);
    IS_INT(r[i].path_id, 0, "interval %d: %s under the (*) path", k, names[i]);
    IS_STR(pd_result_path(&r[i], got, sizeof got), want,
           "interval %d: %s: its path", k, names[i]);
    if (paths)
      IS_STR(r[i].path ? r[i].path : "(null)", want,
             "interval %d: %s: paths on: its path", k, names[i]);
    else
      OK(r[i].path == NULL, "interval %d: %s: paths off: no path", k, names[i]);
    IS_INT(r[i].counter_index, CPU, "interval %d: %s: counter 6", k, names[i]);
    IS_INT(r[i].counter_type, PD_100NSEC_TIMER, "interval %d: %s: its type", k,
           names[i]);
    OK(r[i].has_pid && r[i].pid == plan[k].pid[i], "interval %d: %s: pid %u", k,
       names[i], plan[k].pid[i]);
    IS_U64(r[i].raw_value, plan[k].cpu[i], "interval %d: %s: raw value", k,
           names[i]);
    OK(r[i].time_100ns == 133485408000000000 + (int64_t)k * 10000000,
       "interval %d: %s: this interval's time", k, names[i]);
    if (k == 0) {
      IS_INT(r[i].status, PD_VALUE_FIRST_SAMPLE, "interval 0: %s: first",
             names[i]);
      continue;
    }
    IS_INT(r[i].status, PD_VALUE_OK, "interval %d: %s: a value", k, names[i]);
    IS_DOUBLE(r[i].value, expect[k][i], "interval %d: %s = %g", k, names[i],
              expect[k][i]);
  }
}

int main(void) {
  pd_snapshot *snap[2] = {pd_snapshot_new(), pd_snapshot_new()};
  uint8_t *blob[2] = {NULL, NULL};
  pd_selection *sel = pd_selection_new();
  pd_error err;
  pd_selection_add(sel, "\\230(*)\\6", NULL, &err);
  pd_selection_add(sel, "\\230(b)\\6", NULL, &err);
  pd_selection_set_paths(sel, false);
  for (int k = 0; k < INTERVALS; k++) {
    size_t len;
    free(blob[k & 1]);
    blob[k & 1] = sample(k, &len);
    IS_INT(pd_decode(snap[k & 1], blob[k & 1], len, NULL, &err), PD_OK,
           "interval %d: decode", k);
    bool paths = k == 3; /* on for one interval, then off again */
    pd_selection_set_paths(sel, paths);
    const pd_result *r;
    size_t n;
    IS_INT(pd_selection_evaluate(sel, k ? snap[!(k & 1)] : NULL, snap[k & 1],
                                 &r, &n, &err),
           PD_OK, "interval %d: evaluate", k);
    check(k, r, n, paths);
    IS_INT(pd_selection_matches(sel, 1), 1,
           "interval %d: the exact path matched b (reported under path 0)", k);
  }
  pd_selection_free(sel);
  for (int i = 0; i < 2; i++) {
    pd_snapshot_free(snap[i]);
    free(blob[i]);
  }
  return tap_done();
}
