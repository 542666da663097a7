/* collectd-winperf: the prepared formulas (pd_rate_prepare/_compute) give
 * exactly what pd_compute gives, status and value bit for bit.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The selection computes the common types through a plan prepared once per
 * object and pair of samples (type_props.h); pd_compute is the reference
 * (test_compute checks it against format.md 3). Every fast type against
 * clocks that advance, stand still, go back, or have no frequency, and
 * readings that rise, fall, stay, wrap near 2^64, with and without an
 * older sample, with and without cap100.
 */
#include "tap.h"
#include "type_props.h"

#include <stdint.h>
#include <string.h>

static const uint32_t fast_types[] = {
    PD_COUNTER_RAWCOUNT,
    PD_COUNTER_LARGE_RAWCOUNT,
    PD_COUNTER_RAWCOUNT_HEX,
    PD_COUNTER_LARGE_RAWCOUNT_HEX,
    PD_COUNTER_DELTA,
    PD_COUNTER_LARGE_DELTA,
    PD_COUNTER_COUNTER,
    PD_COUNTER_BULK_COUNT,
    PD_SAMPLE_COUNTER,
    PD_COUNTER_QUEUELEN_TYPE,
    PD_COUNTER_LARGE_QUEUELEN_TYPE,
    PD_COUNTER_100NS_QUEUELEN_TYPE,
    PD_COUNTER_OBJ_TIME_QUEUELEN_TYPE,
    PD_COUNTER_TIMER,
    PD_100NSEC_TIMER,
    PD_OBJ_TIME_TIMER,
    PD_COUNTER_TIMER_INV,
    PD_100NSEC_TIMER_INV,
};

/* Clocks: perf_time, perf_freq, perf_time_100ns, object_time, object_freq. */
static const int64_t clocks[][5] = {
    {1000000, 10000000, 5000000, 700, 1000},
    {3000000, 10000000, 9000000, 900, 1000}, /* advanced */
    {1000000, 10000000, 5000000, 700, 1000}, /* stood still */
    {500000, 10000000, 1000000, 100, 1000},  /* went back */
    {3000000, 0, 9000000, 900, 0},           /* no frequency */
    {INT64_MAX, 1, INT64_MAX, INT64_MAX, 1}, /* the far end */
};
#define N_CLOCKS (sizeof clocks / sizeof *clocks)

static const uint64_t readings[][2] = {
    {0, 0},
    {5, 10},
    {10, 5},
    {1000000, 3500000},
    {UINT64_MAX - 1, UINT64_MAX},
    {0, UINT64_MAX},
    {7, 7},
    {123456789, 987654321},
};
#define N_READINGS (sizeof readings / sizeof *readings)

static void set_clocks(pd_sample *s, const int64_t c[5]) {
  memset(s, 0, sizeof *s);
  s->perf_time = c[0];
  s->perf_freq = c[1];
  s->perf_time_100ns = c[2];
  s->object_time = c[3];
  s->object_freq = c[4];
}

/* Mismatches of one type under opt over every case. */
static int mismatches(uint32_t type, const pd_calc_options *opt) {
  int bad = 0;
  for (size_t a = 0; a <= N_CLOCKS; a++) /* a == N_CLOCKS: no older */
    for (size_t b = 0; b < N_CLOCKS; b++) {
      pd_sample o, n;
      if (a < N_CLOCKS)
        set_clocks(&o, clocks[a]);
      set_clocks(&n, clocks[b]);
      pd_rate_plan plan;
      pd_rate_prepare(type, a < N_CLOCKS ? &o : NULL, &n, opt, &plan);
      if (plan.kind == PD_FAST_NONE)
        return -1;
      for (size_t r = 0; r < N_READINGS; r++)
        for (int paired = 0; paired <= (a < N_CLOCKS); paired++) {
          o.value = readings[r][0];
          n.value = readings[r][1];
          double want = -1, got = -2;
          pd_value_status ws =
              pd_compute(type, paired ? &o : NULL, &n, opt, &want);
          pd_value_status gs = pd_rate_compute(
              &plan, paired ? &readings[r][0] : NULL, readings[r][1], &got);
          if (ws != gs || memcmp(&want, &got, sizeof want) != 0) {
            if (bad++ < 3)
              tap_diag("type 0x%08x clocks %zu/%zu readings %zu paired %d: "
                       "pd_compute %s %.17g, plan %s %.17g",
                       type, a, b, r, paired, pd_value_status_name(ws), want,
                       pd_value_status_name(gs), got);
          }
        }
    }
  return bad;
}

int main(void) {
  const pd_calc_options cap = {PD_MULTI_TIMER_RESKIT, true};
  for (size_t t = 0; t < sizeof fast_types / sizeof *fast_types; t++) {
    tap_ok(mismatches(fast_types[t], NULL) == 0,
           "type 0x%08x: the plan computes as pd_compute", fast_types[t]);
    tap_ok(mismatches(fast_types[t], &cap) == 0,
           "type 0x%08x with cap100: the plan computes as pd_compute",
           fast_types[t]);
  }
  pd_rate_plan plan;
  pd_sample s;
  memset(&s, 0, sizeof s);
  pd_rate_prepare(PD_RAW_FRACTION, &s, &s, NULL, &plan);
  tap_ok(plan.kind == PD_FAST_NONE, "a type with a base has no plan");
  pd_rate_prepare(PD_AVERAGE_TIMER, &s, &s, NULL, &plan);
  tap_ok(plan.kind == PD_FAST_NONE, "AVERAGE_TIMER has no plan");
  pd_rate_prepare(0x00300000u | PD_COUNTER_COUNTER, &s, &s, NULL, &plan);
  tap_ok(plan.kind == PD_FAST_NONE, "an unnamed type has no plan");
  return tap_done();
}
