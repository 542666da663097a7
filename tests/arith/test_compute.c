/* collectd-winperf: formatted counter values (format.md 3, 3.1, 3.2, 3.3).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Every expected number is worked out by hand from the spec's formulas; the
 * arithmetic stands next to it.
 */
#include "perfdata.h"
#include "tap.h"

#include <stdint.h>

/* The 1.8 test vector's PerfTime100nSec (2024-01-01 00:00 UTC). */
#define T100 INT64_C(133485408000000000)

/* Default clocks, one interval apart, each time base with its own length
 * so a formula reading the wrong clock gives a different number:
 *   TICK   perf_time 5,000,000 -> 8,000,000 at perf_freq 2,000,000: dD 3e6,
 *          1.5 s
 *   100NS  perf_time_100ns T100 -> T100 + 20,000,000: dD 2e7, 2 s
 *   OBJECT object_time 1,000,000 -> 1,400,000 at object_freq 100,000:
 *          dD 4e5, 4 s */
static pd_sample s0(uint64_t n, uint64_t b) {
  return (pd_sample){.value = n,
                     .base = b,
                     .has_base = true,
                     .perf_time = 5000000,
                     .perf_freq = 2000000,
                     .perf_time_100ns = T100,
                     .object_time = 1000000,
                     .object_freq = 100000};
}

static pd_sample s1(uint64_t n, uint64_t b) {
  return (pd_sample){.value = n,
                     .base = b,
                     .has_base = true,
                     .perf_time = 8000000,
                     .perf_freq = 2000000,
                     .perf_time_100ns = T100 + 20000000,
                     .object_time = 1400000,
                     .object_freq = 100000};
}

static const pd_calc_options reskit = {PD_MULTI_TIMER_RESKIT, false};
static const pd_calc_options msdn = {PD_MULTI_TIMER_MSDN_SAMPLE, false};
static const pd_calc_options cap = {PD_MULTI_TIMER_RESKIT, true};

/* One pd_compute call: its status, and its value (0 unless OK). */
static void check(const char *what, uint32_t type, const pd_sample *older,
                  const pd_sample *newer, const pd_calc_options *opt,
                  pd_value_status want, double want_value) {
  double v = -12345.0;
  pd_value_status st = pd_compute(type, older, newer, opt, &v);
  if (!tap_ok(st == want, "%s: status %s", what, pd_value_status_name(want)))
    tap_diag("  got %s", pd_value_status_name(st));
  if (want != PD_VALUE_OK)
    want_value = 0; /* *value is left 0 on every other status */
  IS_DOUBLE(v, want_value, "%s: value %.17g", what, want_value);
}

/* Two samples with the default clocks. */
static void check2(const char *what, uint32_t type, uint64_t n0, uint64_t b0,
                   uint64_t n1, uint64_t b1, const pd_calc_options *opt,
                   pd_value_status want, double want_value) {
  pd_sample o = s0(n0, b0), n = s1(n1, b1);
  check(what, type, &o, &n, opt, want, want_value);
}

#define OKV PD_VALUE_OK

/* format.md 3.3, each row verbatim; the clocks the row does not name are left
 * at values that would change the answer if the wrong one were used. */
static void worked_examples(void) {
  pd_sample o, n;

  /* COUNTER_COUNTER: N 1000 -> 1600, dPerfTime 2e7, PerfFreq 1e7:
   * 600 / (2e7 / 1e7) = 600 / 2 = 300 /s */
  o = s0(1000, 0), n = s1(1600, 0);
  o.perf_time = 0, n.perf_time = 20000000;
  o.perf_freq = n.perf_freq = 10000000;
  check("3.3 COUNTER_COUNTER", PD_COUNTER_COUNTER, &o, &n, NULL, OKV, 300.0);

  /* 100NSEC_TIMER: dN 7.5e6, dD 1e7: 100 * 7.5e6 / 1e7 = 75 % */
  o = s0(0, 0), n = s1(7500000, 0);
  n.perf_time_100ns = T100 + 10000000;
  check("3.3 100NSEC_TIMER", PD_100NSEC_TIMER, &o, &n, NULL, OKV, 75.0);

  /* 100NSEC_TIMER_INV: dN 7e6, dD 1e7: 100 * (1 - 0.7) = 30 % */
  o = s0(0, 0), n = s1(7000000, 0);
  n.perf_time_100ns = T100 + 10000000;
  check("3.3 100NSEC_TIMER_INV", PD_100NSEC_TIMER_INV, &o, &n, NULL, OKV, 30.0);

  /* AVERAGE_TIMER: dN 3e6, PerfFreq 1e7, dB 100:
   * (3e6 / 1e7) / 100 = 0.3 / 100 = 0.003 s */
  o = s0(0, 0), n = s1(3000000, 100);
  o.perf_freq = n.perf_freq = 10000000;
  check("3.3 AVERAGE_TIMER", PD_AVERAGE_TIMER, &o, &n, NULL, OKV, 0.003);

  /* RAW_FRACTION: N 25, B 200: 100 * 25 / 200 = 12.5 % */
  n = s1(25, 200);
  check("3.3 RAW_FRACTION", PD_RAW_FRACTION, NULL, &n, NULL, OKV, 12.5);

  /* SAMPLE_FRACTION: dN 30, dB 100: 100 * 30 / 100 = 30 % */
  check2("3.3 SAMPLE_FRACTION", PD_SAMPLE_FRACTION, 0, 0, 30, 100, NULL, OKV,
         30.0);

  /* ELAPSED_TIME: object PerfTime 5e9, N 1e9, object PerfFreq 1e7:
   * (5e9 - 1e9) / 1e7 = 4e9 / 1e7 = 400 s */
  n = s1(1000000000, 0);
  n.object_time = 5000000000, n.object_freq = 10000000;
  check("3.3 ELAPSED_TIME", PD_ELAPSED_TIME, NULL, &n, NULL, OKV, 400.0);

  /* 100NSEC_MULTI_TIMER: dN 1.5e7, dD 1e7, B 2:
   * 100 * (1.5e7 / 1e7) / 2 = 100 * 1.5 / 2 = 75 % */
  o = s0(0, 2), n = s1(15000000, 2);
  n.perf_time_100ns = T100 + 10000000;
  check("3.3 100NSEC_MULTI_TIMER", PD_100NSEC_MULTI_TIMER, &o, &n, NULL, OKV,
        75.0);

  /* PRECISION_100NS_TIMER: dN 2.5e6, d(timestamp) 1e7:
   * 100 * 2.5e6 / 1e7 = 25 % */
  check2("3.3 PRECISION_100NS_TIMER", PD_PRECISION_100NS_TIMER, 0, 50000000,
         2500000, 60000000, NULL, OKV, 25.0);

  /* 100NS_QUEUELEN: dN 3.5e7, dD 1e7: 3.5e7 / 1e7 = 3.5 */
  o = s0(0, 0), n = s1(35000000, 0);
  n.perf_time_100ns = T100 + 10000000;
  check("3.3 100NS_QUEUELEN", PD_COUNTER_100NS_QUEUELEN_TYPE, &o, &n, NULL, OKV,
        3.5);

  /* COUNTER_DELTA: 10 -> 15: 15 - 10 = 5 */
  check2("3.3 COUNTER_DELTA", PD_COUNTER_DELTA, 10, 0, 15, 0, NULL, OKV, 5.0);

  /* format.md 1.8's second sample: 100NSEC_TIMER 5,000,000 -> 12,500,000 with
   * PerfTime100nSec + 1e7: 100 * 7.5e6 / 1e7 = 75 % */
  o = s0(5000000, 0), n = s1(12500000, 0);
  n.perf_time_100ns = T100 + 10000000;
  check("1.8 second sample", PD_100NSEC_TIMER, &o, &n, NULL, OKV, 75.0);
}

/* One hand-computed case for every numeric type of format.md 2.2, on the
 * default clocks (TICK 1.5 s, 100NS 2 s, OBJECT 4 s). */
static void every_type(void) {
  pd_sample n;

  /* One-sample numbers: N1 whatever the older sample says. */
  check2("RAWCOUNT", PD_COUNTER_RAWCOUNT, 1, 0, 42, 0, NULL, OKV, 42.0);
  n = s1(4294967295u, 0); /* DWORD maximum, zero-extended: not -1 */
  check("RAWCOUNT 0xFFFFFFFF", PD_COUNTER_RAWCOUNT, NULL, &n, NULL, OKV,
        4294967295.0);
  n = s1(UINT64_C(1099511627776), 0); /* 2^40 */
  check("LARGE_RAWCOUNT 2^40", PD_COUNTER_LARGE_RAWCOUNT, NULL, &n, NULL, OKV,
        1099511627776.0);
  n = s1(0xFF, 0); /* 0xFF = 255 */
  check("RAWCOUNT_HEX 0xff", PD_COUNTER_RAWCOUNT_HEX, NULL, &n, NULL, OKV,
        255.0);
  n = s1(UINT64_C(0x100000000), 0); /* 2^32 = 4294967296 */
  check("LARGE_RAWCOUNT_HEX 2^32", PD_COUNTER_LARGE_RAWCOUNT_HEX, NULL, &n,
        NULL, OKV, 4294967296.0);

  /* Deltas: dN, no clock. 7 -> 107 = 100 */
  check2("COUNTER_DELTA", PD_COUNTER_DELTA, 7, 0, 107, 0, NULL, OKV, 100.0);
  /* 2^40 -> 2^40 + 123 = 123 */
  check2("LARGE_DELTA", PD_COUNTER_LARGE_DELTA, UINT64_C(1) << 40, 0,
         (UINT64_C(1) << 40) + 123, 0, NULL, OKV, 123.0);

  /* Rates, dN / (dD / F), TICK: dD / F = 3e6 / 2e6 = 1.5 s.
   * COUNTER_COUNTER 1000 -> 4000: 3000 / 1.5 = 2000 /s */
  check2("COUNTER_COUNTER", PD_COUNTER_COUNTER, 1000, 0, 4000, 0, NULL, OKV,
         2000.0);
  /* BULK_COUNT 1e9 -> 4e9: 3e9 / 1.5 = 2e9 /s */
  check2("BULK_COUNT", PD_COUNTER_BULK_COUNT, 1000000000, 0, 4000000000u, 0,
         NULL, OKV, 2e9);
  /* SAMPLE_COUNTER 0 -> 30: 30 / 1.5 = 20 /s */
  check2("SAMPLE_COUNTER", PD_SAMPLE_COUNTER, 0, 0, 30, 0, NULL, OKV, 20.0);

  /* Queue lengths, dN / dD on each time base.
   * QUEUELEN (TICK): 6e6 / 3e6 = 2 */
  check2("QUEUELEN", PD_COUNTER_QUEUELEN_TYPE, 0, 0, 6000000, 0, NULL, OKV,
         2.0);
  /* LARGE_QUEUELEN (TICK): 4.5e6 / 3e6 = 1.5 */
  check2("LARGE_QUEUELEN", PD_COUNTER_LARGE_QUEUELEN_TYPE, 0, 0, 4500000, 0,
         NULL, OKV, 1.5);
  /* 100NS_QUEUELEN: 3.5e7 / 2e7 = 1.75 */
  check2("100NS_QUEUELEN", PD_COUNTER_100NS_QUEUELEN_TYPE, 0, 0, 35000000, 0,
         NULL, OKV, 1.75);
  /* OBJ_TIME_QUEUELEN (object clock): 1e6 / 4e5 = 2.5 */
  check2("OBJ_TIME_QUEUELEN", PD_COUNTER_OBJ_TIME_QUEUELEN_TYPE, 0, 0, 1000000,
         0, NULL, OKV, 2.5);

  /* Timers, 100 dN / dD.
   * COUNTER_TIMER (TICK): 100 * 1.5e6 / 3e6 = 50 % */
  check2("COUNTER_TIMER", PD_COUNTER_TIMER, 0, 0, 1500000, 0, NULL, OKV, 50.0);
  /* 100NSEC_TIMER: 100 * 5e6 / 2e7 = 25 % */
  check2("100NSEC_TIMER", PD_100NSEC_TIMER, 0, 0, 5000000, 0, NULL, OKV, 25.0);
  /* OBJ_TIME_TIMER (object clock, format.md 3.2): 100 * 3e5 / 4e5 = 75 % */
  check2("OBJ_TIME_TIMER", PD_OBJ_TIME_TIMER, 0, 0, 300000, 0, NULL, OKV, 75.0);

  /* Inverse timers, 100 (1 - dN / dD).
   * COUNTER_TIMER_INV: 6e5 / 3e6 = 0.2; 100 * 0.8 = 80 % */
  check2("COUNTER_TIMER_INV", PD_COUNTER_TIMER_INV, 0, 0, 600000, 0, NULL, OKV,
         80.0);
  /* 100NSEC_TIMER_INV: 1.5e7 / 2e7 = 0.75; 100 * 0.25 = 25 % */
  check2("100NSEC_TIMER_INV", PD_100NSEC_TIMER_INV, 0, 0, 15000000, 0, NULL,
         OKV, 25.0);

  /* Multi timers, 100 (dN / dD) / B1.
   * COUNTER_MULTI_TIMER: 6e6 / 3e6 = 2; 100 * 2 / 4 = 50 % */
  check2("COUNTER_MULTI_TIMER", PD_COUNTER_MULTI_TIMER, 0, 4, 6000000, 4, NULL,
         OKV, 50.0);
  /* 100NSEC_MULTI_TIMER: 3e7 / 2e7 = 1.5; 100 * 1.5 / 2 = 75 % */
  check2("100NSEC_MULTI_TIMER", PD_100NSEC_MULTI_TIMER, 0, 2, 30000000, 2, NULL,
         OKV, 75.0);
  /* Multi inverse, 100 (B1 - dN / dD).
   * COUNTER_MULTI_TIMER_INV: 6e6 / 3e6 = 2; 100 * (4 - 2) = 200 % */
  check2("COUNTER_MULTI_TIMER_INV", PD_COUNTER_MULTI_TIMER_INV, 0, 4, 6000000,
         4, NULL, OKV, 200.0);
  /* 100NSEC_MULTI_TIMER_INV: 3e7 / 2e7 = 1.5; 100 * (2 - 1.5) = 50 % */
  check2("100NSEC_MULTI_TIMER_INV", PD_100NSEC_MULTI_TIMER_INV, 0, 2, 30000000,
         2, NULL, OKV, 50.0);
  /* B1 is the newer count: B0 = 9 must not matter.
   * 100NSEC_MULTI_TIMER 3e7 / 2e7 = 1.5; 100 * 1.5 / 3 = 50 % */
  check2("100NSEC_MULTI_TIMER uses B1", PD_100NSEC_MULTI_TIMER, 0, 9, 30000000,
         3, NULL, OKV, 50.0);

  /* Fractions and averages.
   * SAMPLE_FRACTION: 10 -> 40, 100 -> 200: 100 * 30 / 100 = 30 % */
  check2("SAMPLE_FRACTION", PD_SAMPLE_FRACTION, 10, 100, 40, 200, NULL, OKV,
         30.0);
  /* RAW_FRACTION: 100 * 1 / 8 = 12.5 %; older ignored */
  check2("RAW_FRACTION", PD_RAW_FRACTION, 999, 999, 1, 8, NULL, OKV, 12.5);
  /* LARGE_RAW_FRACTION: 100 * 3e12 / 4e12 = 75 % */
  n = s1(UINT64_C(3000000000000), UINT64_C(4000000000000));
  check("LARGE_RAW_FRACTION", PD_LARGE_RAW_FRACTION, NULL, &n, NULL, OKV, 75.0);
  /* AVERAGE_TIMER, F = block PerfFreq 2e6: dN 3e6, dB 50:
   * (3e6 / 2e6) / 50 = 1.5 / 50 = 0.03 s */
  check2("AVERAGE_TIMER", PD_AVERAGE_TIMER, 1000, 10, 3001000, 60, NULL, OKV,
         0.03);
  /* AVERAGE_BULK: dN 655360, dB 10: 65536 bytes per operation */
  check2("AVERAGE_BULK", PD_AVERAGE_BULK, 0, 5, 655360, 15, NULL, OKV, 65536.0);

  /* ELAPSED_TIME, object clock: (1,400,000 - 400,000) / 100,000 = 10 s */
  n = s1(400000, 0);
  check("ELAPSED_TIME", PD_ELAPSED_TIME, NULL, &n, NULL, OKV, 10.0);

  /* PRECISION timers, 100 dN / d(timestamp in the base field); the time
   * base clocks must not matter.
   * SYSTEM: 100 * 250 / (2000 - 1000) = 25 % */
  check2("PRECISION_SYSTEM_TIMER", PD_PRECISION_SYSTEM_TIMER, 0, 1000, 250,
         2000, NULL, OKV, 25.0);
  /* 100NS: 100 * 5e6 / 1e7 = 50 % */
  check2("PRECISION_100NS_TIMER", PD_PRECISION_100NS_TIMER, 1, 10000000,
         5000001, 20000000, NULL, OKV, 50.0);
  /* OBJECT: 100 * 999 / 1000 = 99.9 % */
  check2("PRECISION_OBJECT_TIMER", PD_PRECISION_OBJECT_TIMER, 0, 0, 999, 1000,
         NULL, OKV, 99.9);

  /* Not numeric: text, no data, histogram, every base. */
  static const uint32_t not_numeric[] = {
      PD_COUNTER_TEXT, PD_COUNTER_NODATA, PD_COUNTER_HISTOGRAM_TYPE,
      PD_SAMPLE_BASE,  PD_AVERAGE_BASE,   PD_COUNTER_MULTI_BASE,
      PD_RAW_BASE,     PD_LARGE_RAW_BASE, PD_PRECISION_TIMESTAMP};
  for (size_t i = 0; i < sizeof not_numeric / sizeof not_numeric[0]; i++) {
    char what[64];
    snprintf(what, sizeof what, "0x%08x not numeric", (unsigned)not_numeric[i]);
    check2(what, not_numeric[i], 1, 1, 2, 2, NULL, PD_VALUE_NOT_NUMERIC, 0);
  }

  /* Types format.md 2.2 does not name. */
  check2("0x00020000 (DEC_1000) unknown", 0x00020000u, 1, 1, 2000, 2, NULL,
         PD_VALUE_UNKNOWN_TYPE, 0);
  check2("0xFFFFFFFF unknown", 0xFFFFFFFFu, 1, 1, 2, 2, NULL,
         PD_VALUE_UNKNOWN_TYPE, 0);
  check2("0x20710500 (time base 0x300000) unknown", 0x20710500u, 1, 1, 2, 2,
         NULL, PD_VALUE_UNKNOWN_TYPE, 0);
  n = s1(1, 1);
  check("unknown type, first sample", 0x12345678u, NULL, &n, NULL,
        PD_VALUE_UNKNOWN_TYPE, 0);
}

/* The two-sample types of format.md 3 (delta bits plus the averages). */
static const uint32_t two_sample[] = {
    PD_COUNTER_COUNTER,
    PD_COUNTER_TIMER,
    PD_COUNTER_QUEUELEN_TYPE,
    PD_COUNTER_LARGE_QUEUELEN_TYPE,
    PD_COUNTER_100NS_QUEUELEN_TYPE,
    PD_COUNTER_OBJ_TIME_QUEUELEN_TYPE,
    PD_COUNTER_BULK_COUNT,
    PD_SAMPLE_FRACTION,
    PD_SAMPLE_COUNTER,
    PD_COUNTER_TIMER_INV,
    PD_AVERAGE_TIMER,
    PD_AVERAGE_BULK,
    PD_OBJ_TIME_TIMER,
    PD_100NSEC_TIMER,
    PD_100NSEC_TIMER_INV,
    PD_COUNTER_MULTI_TIMER,
    PD_COUNTER_MULTI_TIMER_INV,
    PD_100NSEC_MULTI_TIMER,
    PD_100NSEC_MULTI_TIMER_INV,
    PD_COUNTER_DELTA,
    PD_COUNTER_LARGE_DELTA,
    PD_PRECISION_SYSTEM_TIMER,
    PD_PRECISION_100NS_TIMER,
    PD_PRECISION_OBJECT_TIMER,
};
#define N_TWO (sizeof two_sample / sizeof two_sample[0])

static void edge_first_sample(void) {
  pd_sample n = s1(100, 10);
  for (size_t i = 0; i < N_TWO; i++) {
    char what[80];
    snprintf(what, sizeof what, "%s first sample", pd_type_name(two_sample[i]));
    check(what, two_sample[i], NULL, &n, NULL, PD_VALUE_FIRST_SAMPLE, 0);
  }
  /* One-sample types have a value without an older sample. */
  check("RAWCOUNT no older", PD_COUNTER_RAWCOUNT, NULL, &n, NULL, OKV, 100.0);
  /* 100 * 100 / 10 = 1000 % */
  check("RAW_FRACTION no older", PD_RAW_FRACTION, NULL, &n, NULL, OKV, 1000.0);
  /* (1,400,000 - 100) / 100,000 = 13.999 s */
  check("ELAPSED_TIME no older", PD_ELAPSED_TIME, NULL, &n, NULL, OKV, 13.999);
}

/* dN < 0 and base going backwards: NEGATIVE (format.md 3.1). */
static void edge_negative(void) {
  for (size_t i = 0; i < N_TWO; i++) {
    uint32_t t = two_sample[i];
    char what[80];
    snprintf(what, sizeof what, "%s counter back 1000 -> 999", pd_type_name(t));
    /* base 1000 -> 2000 so every base-using type has a sane base */
    check2(what, t, 1000, 1000, 999, 2000, NULL, PD_VALUE_NEGATIVE, 0);
  }
  /* Base going backwards with the counter growing. */
  check2("SAMPLE_FRACTION base back", PD_SAMPLE_FRACTION, 10, 200, 20, 100,
         NULL, PD_VALUE_NEGATIVE, 0);
  check2("AVERAGE_TIMER base back", PD_AVERAGE_TIMER, 10, 200, 20, 100, NULL,
         PD_VALUE_NEGATIVE, 0);
  check2("AVERAGE_BULK base back", PD_AVERAGE_BULK, 10, 200, 20, 100, NULL,
         PD_VALUE_NEGATIVE, 0);
  /* A DWORD counter wrapping: 0xFFFFFFF0 -> 0x10 is a drop of the unsigned
   * raw value, not a delta of 0x20. */
  check2("COUNTER_COUNTER DWORD wrap", PD_COUNTER_COUNTER, 0xFFFFFFF0u, 0, 0x10,
         0, NULL, PD_VALUE_NEGATIVE, 0);
  /* A 64-bit value crossing 2^63 is a rise, not a sign change:
   * 2^63 - 1 -> 2^63 + 2 = 3; 3 / 1.5 s = 2 /s */
  check2("BULK_COUNT across 2^63", PD_COUNTER_BULK_COUNT,
         (UINT64_C(1) << 63) - 1, 0, (UINT64_C(1) << 63) + 2, 0, NULL, OKV,
         2.0);
  /* ... and dropping from above 2^63 to below is negative */
  check2("BULK_COUNT drop across 2^63", PD_COUNTER_BULK_COUNT,
         (UINT64_C(1) << 63) + 2, 0, (UINT64_C(1) << 63) - 1, 0, NULL,
         PD_VALUE_NEGATIVE, 0);
  /* ELAPSED_TIME with a start after the object's clock: (1,400,000 -
   * 1,400,001) < 0 */
  pd_sample n = s1(1400001, 0);
  check("ELAPSED_TIME start after now", PD_ELAPSED_TIME, NULL, &n, NULL,
        PD_VALUE_NEGATIVE, 0);
  /* a start exactly now: 0 s */
  n = s1(1400000, 0);
  check("ELAPSED_TIME start now", PD_ELAPSED_TIME, NULL, &n, NULL, OKV, 0.0);
  /* negative object clock */
  n = s1(0, 0);
  n.object_time = -5;
  check("ELAPSED_TIME negative clock", PD_ELAPSED_TIME, NULL, &n, NULL,
        PD_VALUE_NEGATIVE, 0);
}

/* Which clock a type reads, per its time-base bits: stop that clock (and
 * then turn it back) while the others advance. */
typedef enum { CLK_TICK, CLK_100NS, CLK_OBJECT, CLK_PRECISION } clk;

static void stop_clock(pd_sample *n, const pd_sample *o, clk c, int64_t by) {
  switch (c) {
  case CLK_TICK:
    n->perf_time = o->perf_time + by;
    break;
  case CLK_100NS:
    n->perf_time_100ns = o->perf_time_100ns + by;
    break;
  case CLK_OBJECT:
    n->object_time = o->object_time + by;
    break;
  case CLK_PRECISION:
    n->base = (uint64_t)((int64_t)o->base + by);
    break;
  }
}

static void edge_time(void) {
  static const struct {
    uint32_t type;
    clk c;
  } timed[] = {
      {PD_COUNTER_COUNTER, CLK_TICK},
      {PD_COUNTER_BULK_COUNT, CLK_TICK},
      {PD_SAMPLE_COUNTER, CLK_TICK},
      {PD_COUNTER_QUEUELEN_TYPE, CLK_TICK},
      {PD_COUNTER_LARGE_QUEUELEN_TYPE, CLK_TICK},
      {PD_COUNTER_100NS_QUEUELEN_TYPE, CLK_100NS},
      {PD_COUNTER_OBJ_TIME_QUEUELEN_TYPE, CLK_OBJECT},
      {PD_COUNTER_TIMER, CLK_TICK},
      {PD_100NSEC_TIMER, CLK_100NS},
      {PD_OBJ_TIME_TIMER, CLK_OBJECT},
      {PD_COUNTER_TIMER_INV, CLK_TICK},
      {PD_100NSEC_TIMER_INV, CLK_100NS},
      {PD_COUNTER_MULTI_TIMER, CLK_TICK},
      {PD_COUNTER_MULTI_TIMER_INV, CLK_TICK},
      {PD_100NSEC_MULTI_TIMER, CLK_100NS},
      {PD_100NSEC_MULTI_TIMER_INV, CLK_100NS},
      {PD_PRECISION_SYSTEM_TIMER, CLK_PRECISION},
      {PD_PRECISION_100NS_TIMER, CLK_PRECISION},
      {PD_PRECISION_OBJECT_TIMER, CLK_PRECISION},
  };
  for (size_t i = 0; i < sizeof timed / sizeof timed[0]; i++) {
    static const int64_t by[] = {0, -1};
    for (size_t k = 0; k < 2; k++) {
      pd_sample o = s0(100, 1000), n = s1(200, 1000);
      stop_clock(&n, &o, timed[i].c, by[k]);
      char what[80];
      snprintf(what, sizeof what, "%s clock %s", pd_type_name(timed[i].type),
               by[k] ? "back" : "stopped");
      check(what, timed[i].type, &o, &n, NULL, PD_VALUE_NO_TIME_DELTA, 0);
    }
  }
  /* The MSDN multi formula reads the same clock. */
  pd_sample o = s0(100, 4), n = s1(200, 4);
  n.perf_time = o.perf_time;
  check("MULTI_TIMER msdn clock stopped", PD_COUNTER_MULTI_TIMER, &o, &n, &msdn,
        PD_VALUE_NO_TIME_DELTA, 0);

  /* Types without a clock ignore a stopped one: all clocks frozen. */
  o = s0(10, 100), n = s0(40, 200);
  /* SAMPLE_FRACTION 100 * 30 / 100 = 30 % */
  check("SAMPLE_FRACTION clocks frozen", PD_SAMPLE_FRACTION, &o, &n, NULL, OKV,
        30.0);
  /* AVERAGE_BULK 30 / 100 = 0.3 */
  check("AVERAGE_BULK clocks frozen", PD_AVERAGE_BULK, &o, &n, NULL, OKV, 0.3);
  /* AVERAGE_TIMER (30 / 2e6) / 100 = 1.5e-7 s */
  check("AVERAGE_TIMER clocks frozen", PD_AVERAGE_TIMER, &o, &n, NULL, OKV,
        1.5e-7);
  /* COUNTER_DELTA 40 - 10 = 30 */
  check("COUNTER_DELTA clocks frozen", PD_COUNTER_DELTA, &o, &n, NULL, OKV,
        30.0);
}

static void edge_frequency(void) {
  pd_sample o, n;
  static const int64_t bad[] = {0, -10000000};
  for (size_t k = 0; k < 2; k++) {
    const char *w = bad[k] ? "negative" : "zero";
    char what[80];
    /* Rates read F = block PerfFreq. */
    static const uint32_t rates[] = {PD_COUNTER_COUNTER, PD_COUNTER_BULK_COUNT,
                                     PD_SAMPLE_COUNTER};
    for (size_t i = 0; i < 3; i++) {
      o = s0(0, 0), n = s1(30, 0);
      o.perf_freq = n.perf_freq = bad[k];
      snprintf(what, sizeof what, "%s PerfFreq %s", pd_type_name(rates[i]), w);
      check(what, rates[i], &o, &n, NULL, PD_VALUE_ZERO_FREQUENCY, 0);
    }
    /* AVERAGE_TIMER: F = block PerfFreq. */
    o = s0(0, 0), n = s1(30, 10);
    o.perf_freq = n.perf_freq = bad[k];
    snprintf(what, sizeof what, "AVERAGE_TIMER PerfFreq %s", w);
    check(what, PD_AVERAGE_TIMER, &o, &n, NULL, PD_VALUE_ZERO_FREQUENCY, 0);
    /* ELAPSED_TIME: F = object PerfFreq. */
    n = s1(30, 0);
    n.object_freq = bad[k];
    snprintf(what, sizeof what, "ELAPSED_TIME object PerfFreq %s", w);
    check(what, PD_ELAPSED_TIME, NULL, &n, NULL, PD_VALUE_ZERO_FREQUENCY, 0);
    /* COUNTER_MULTI_TIMER with the MSDN formula reads F. */
    o = s0(0, 4), n = s1(30, 4);
    o.perf_freq = n.perf_freq = bad[k];
    snprintf(what, sizeof what, "MULTI_TIMER msdn PerfFreq %s", w);
    check(what, PD_COUNTER_MULTI_TIMER, &o, &n, &msdn, PD_VALUE_ZERO_FREQUENCY,
          0);
  }

  /* Formulas without F do not care about it. PerfFreq 0 and object
   * PerfFreq 0: */
  o = s0(0, 4), n = s1(1500000, 4);
  o.perf_freq = n.perf_freq = 0;
  o.object_freq = n.object_freq = 0;
  /* COUNTER_TIMER 100 * 1.5e6 / 3e6 = 50 % */
  check("COUNTER_TIMER ignores PerfFreq", PD_COUNTER_TIMER, &o, &n, NULL, OKV,
        50.0);
  /* COUNTER_MULTI_TIMER reskit: 100 * (1.5e6 / 3e6) / 4 = 12.5 % */
  check("MULTI_TIMER reskit ignores PerfFreq", PD_COUNTER_MULTI_TIMER, &o, &n,
        NULL, OKV, 12.5);
  /* 100NSEC_TIMER: F is 1e7 by definition; 100 * 1.5e6 / 2e7 = 7.5 % */
  check("100NSEC_TIMER ignores PerfFreq", PD_100NSEC_TIMER, &o, &n, NULL, OKV,
        7.5);
  /* OBJ_TIME_QUEUELEN: 1.5e6 / 4e5 = 3.75 */
  check("OBJ_TIME_QUEUELEN ignores object PerfFreq",
        PD_COUNTER_OBJ_TIME_QUEUELEN_TYPE, &o, &n, NULL, OKV, 3.75);
  /* PRECISION_SYSTEM_TIMER, timestamp 1e6 -> 4e6:
   * 100 * 1.5e6 / 3e6 = 50 % */
  o.base = 1000000, n.base = 4000000;
  check("PRECISION_SYSTEM_TIMER ignores PerfFreq", PD_PRECISION_SYSTEM_TIMER,
        &o, &n, NULL, OKV, 50.0);

  /* ELAPSED_TIME reads the object's F, not the block's: block PerfFreq 0
   * gives (1,400,000 - 400,000) / 100,000 = 10 s */
  n = s1(400000, 0);
  n.perf_freq = 0;
  check("ELAPSED_TIME ignores block PerfFreq", PD_ELAPSED_TIME, NULL, &n, NULL,
        OKV, 10.0);
  /* AVERAGE_TIMER reads the block's F, not the object's: object F 0 gives
   * (3e6 / 2e6) / 50 = 0.03 s */
  o = s0(0, 0), n = s1(3000000, 50);
  o.object_freq = n.object_freq = 0;
  check("AVERAGE_TIMER ignores object PerfFreq", PD_AVERAGE_TIMER, &o, &n, NULL,
        OKV, 0.03);
}

/* Base 0 / base delta 0 / multi count 0: value 0, status OK (format.md 3.1). */
static void edge_zero_base(void) {
  check2("AVERAGE_TIMER dB 0", PD_AVERAGE_TIMER, 0, 7, 3000000, 7, NULL, OKV,
         0.0);
  check2("AVERAGE_BULK dB 0", PD_AVERAGE_BULK, 0, 7, 4096, 7, NULL, OKV, 0.0);
  check2("SAMPLE_FRACTION dB 0", PD_SAMPLE_FRACTION, 0, 7, 5, 7, NULL, OKV,
         0.0);
  check2("AVERAGE_TIMER idle (dN 0, dB 0)", PD_AVERAGE_TIMER, 5, 7, 5, 7, NULL,
         OKV, 0.0);
  pd_sample n = s1(25, 0);
  check("RAW_FRACTION B 0", PD_RAW_FRACTION, NULL, &n, NULL, OKV, 0.0);
  check("LARGE_RAW_FRACTION B 0", PD_LARGE_RAW_FRACTION, NULL, &n, NULL, OKV,
        0.0);
  static const uint32_t multi[] = {
      PD_COUNTER_MULTI_TIMER, PD_COUNTER_MULTI_TIMER_INV,
      PD_100NSEC_MULTI_TIMER, PD_100NSEC_MULTI_TIMER_INV};
  for (size_t i = 0; i < 4; i++) {
    char what[80];
    snprintf(what, sizeof what, "%s multi count 0", pd_type_name(multi[i]));
    check2(what, multi[i], 0, 0, 1500000, 0, NULL, OKV, 0.0);
  }
  check2("MULTI_TIMER msdn multi count 0", PD_COUNTER_MULTI_TIMER, 0, 0,
         1500000, 0, &msdn, OKV, 0.0);
}

/* Inverse results below 0 clamp at 0 (format.md 3.1). */
static void edge_inverse_clamp(void) {
  /* COUNTER_TIMER_INV: 100 * (1 - 6e6 / 3e6) = -100 -> 0 */
  check2("COUNTER_TIMER_INV clamps", PD_COUNTER_TIMER_INV, 0, 0, 6000000, 0,
         NULL, OKV, 0.0);
  /* 100NSEC_TIMER_INV: 100 * (1 - 2.2e7 / 2e7) = -10 -> 0 */
  check2("100NSEC_TIMER_INV clamps", PD_100NSEC_TIMER_INV, 0, 0, 22000000, 0,
         NULL, OKV, 0.0);
  /* exactly idle: 100 * (1 - 2e7 / 2e7) = 0 */
  check2("100NSEC_TIMER_INV fully busy", PD_100NSEC_TIMER_INV, 0, 0, 20000000,
         0, NULL, OKV, 0.0);
  /* COUNTER_MULTI_TIMER_INV: 100 * (2 - 9e6 / 3e6) = 100 * (2 - 3) -> 0 */
  check2("COUNTER_MULTI_TIMER_INV clamps", PD_COUNTER_MULTI_TIMER_INV, 0, 2,
         9000000, 2, NULL, OKV, 0.0);
  /* 100NSEC_MULTI_TIMER_INV: 100 * (1 - 4e7 / 2e7) = -100 -> 0 */
  check2("100NSEC_MULTI_TIMER_INV clamps", PD_100NSEC_MULTI_TIMER_INV, 0, 1,
         40000000, 1, NULL, OKV, 0.0);
}

/* Percentages above 100: kept by default, capped with cap100. */
static void edge_cap100(void) {
  /* COUNTER_TIMER: 100 * 6e6 / 3e6 = 200 % */
  check2("COUNTER_TIMER 200% uncapped", PD_COUNTER_TIMER, 0, 0, 6000000, 0,
         NULL, OKV, 200.0);
  check2("COUNTER_TIMER 200% explicit nocap", PD_COUNTER_TIMER, 0, 0, 6000000,
         0, &reskit, OKV, 200.0);
  check2("COUNTER_TIMER 200% cap100", PD_COUNTER_TIMER, 0, 0, 6000000, 0, &cap,
         OKV, 100.0);
  /* below 100 untouched by cap100: 100 * 1.5e6 / 3e6 = 50 % */
  check2("COUNTER_TIMER 50% cap100", PD_COUNTER_TIMER, 0, 0, 1500000, 0, &cap,
         OKV, 50.0);
  /* RAW_FRACTION: 100 * 300 / 200 = 150 % */
  check2("RAW_FRACTION 150% uncapped", PD_RAW_FRACTION, 0, 0, 300, 200, NULL,
         OKV, 150.0);
  check2("RAW_FRACTION 150% cap100", PD_RAW_FRACTION, 0, 0, 300, 200, &cap, OKV,
         100.0);
  /* COUNTER_MULTI_TIMER_INV: 100 * (4 - 6e6 / 3e6) = 200 % */
  check2("MULTI_TIMER_INV 200% cap100", PD_COUNTER_MULTI_TIMER_INV, 0, 4,
         6000000, 4, &cap, OKV, 100.0);
  /* PRECISION_100NS_TIMER: 100 * 3e7 / 1e7 = 300 % */
  check2("PRECISION_100NS 300% uncapped", PD_PRECISION_100NS_TIMER, 0, 0,
         30000000, 10000000, NULL, OKV, 300.0);
  check2("PRECISION_100NS 300% cap100", PD_PRECISION_100NS_TIMER, 0, 0,
         30000000, 10000000, &cap, OKV, 100.0);
  /* SAMPLE_FRACTION: 100 * 20 / 10 = 200 % */
  check2("SAMPLE_FRACTION 200% cap100", PD_SAMPLE_FRACTION, 0, 0, 20, 10, &cap,
         OKV, 100.0);
  /* Not percentages: cap100 leaves them alone.
   * COUNTER_COUNTER 3000 / 1.5 = 2000 /s */
  check2("COUNTER_COUNTER cap100 untouched", PD_COUNTER_COUNTER, 1000, 0, 4000,
         0, &cap, OKV, 2000.0);
  /* QUEUELEN 6e8 / 3e6 = 200 */
  check2("QUEUELEN cap100 untouched", PD_COUNTER_QUEUELEN_TYPE, 0, 0, 600000000,
         0, &cap, OKV, 200.0);
  /* RAWCOUNT 1000 */
  check2("RAWCOUNT cap100 untouched", PD_COUNTER_RAWCOUNT, 0, 0, 1000, 0, &cap,
         OKV, 1000.0);
  /* COUNTER_DELTA 0 -> 500 */
  check2("COUNTER_DELTA cap100 untouched", PD_COUNTER_DELTA, 0, 0, 500, 0, &cap,
         OKV, 500.0);
  /* AVERAGE_BULK 4096 */
  check2("AVERAGE_BULK cap100 untouched", PD_AVERAGE_BULK, 0, 0, 4096, 1, &cap,
         OKV, 4096.0);
  /* ELAPSED_TIME (1,400,000 - 0) / 100,000 = 14 s */
  pd_sample n = s1(0, 0);
  check("ELAPSED_TIME cap100 untouched (14 s)", PD_ELAPSED_TIME, NULL, &n, &cap,
        OKV, 14.0);
  /* ... and > 100 */
  n.object_time = 100000000; /* 1e8 / 1e5 = 1000 s */
  check("ELAPSED_TIME cap100 untouched (1000 s)", PD_ELAPSED_TIME, NULL, &n,
        &cap, OKV, 1000.0);
}

/* format.md 3.2: both PERF_COUNTER_MULTI_TIMER formulas. */
static void multi_timer_formulas(void) {
  /* dN 6e6, dD 3e6 (TICK), F 2e6, B1 4.
   * reskit: 100 * (6e6 / 3e6) / 4 = 100 * 2 / 4 = 50 %
   * msdn:   100 * (6e6 / (3e6 / 2e6)) / 4 = 100 * (6e6 / 1.5) / 4
   *         = 100 * 4e6 / 4 = 1e8 */
  check2("MULTI_TIMER default (NULL opt) = reskit", PD_COUNTER_MULTI_TIMER, 0,
         4, 6000000, 4, NULL, OKV, 50.0);
  check2("MULTI_TIMER reskit", PD_COUNTER_MULTI_TIMER, 0, 4, 6000000, 4,
         &reskit, OKV, 50.0);
  check2("MULTI_TIMER msdn", PD_COUNTER_MULTI_TIMER, 0, 4, 6000000, 4, &msdn,
         OKV, 1e8);
  /* msdn with cap100 still a percentage type: 1e8 -> 100 */
  const pd_calc_options msdn_cap = {PD_MULTI_TIMER_MSDN_SAMPLE, true};
  check2("MULTI_TIMER msdn cap100", PD_COUNTER_MULTI_TIMER, 0, 4, 6000000, 4,
         &msdn_cap, OKV, 100.0);
  /* The two agree only when F = 1: dN 1e6, dD 2e6, F 1, B1 2:
   * reskit 100 * (1e6 / 2e6) / 2 = 25 %
   * msdn   100 * (1e6 / (2e6 / 1)) / 2 = 25 % */
  pd_sample o = s0(0, 2), n = s1(1000000, 2);
  o.perf_time = 0, n.perf_time = 2000000;
  o.perf_freq = n.perf_freq = 1;
  check("MULTI_TIMER msdn F 1 = reskit", PD_COUNTER_MULTI_TIMER, &o, &n, &msdn,
        OKV, 25.0);
  check("MULTI_TIMER reskit F 1", PD_COUNTER_MULTI_TIMER, &o, &n, &reskit, OKV,
        25.0);
  /* The switch touches COUNTER_MULTI_TIMER only: the 100ns variant and the
   * inverse stay as format.md 3 writes them.
   * 100NSEC_MULTI_TIMER 100 * (3e7 / 2e7) / 2 = 75 % */
  check2("100NSEC_MULTI_TIMER under msdn", PD_100NSEC_MULTI_TIMER, 0, 2,
         30000000, 2, &msdn, OKV, 75.0);
  /* COUNTER_MULTI_TIMER_INV 100 * (4 - 6e6 / 3e6) = 200 % */
  check2("MULTI_TIMER_INV under msdn", PD_COUNTER_MULTI_TIMER_INV, 0, 4,
         6000000, 4, &msdn, OKV, 200.0);
}

/* Base-needing types without their base (format.md 3.1: "no base"). */
static void edge_no_base(void) {
  static const uint32_t needs[] = {
      PD_SAMPLE_FRACTION,
      PD_AVERAGE_TIMER,
      PD_AVERAGE_BULK,
      PD_COUNTER_MULTI_TIMER,
      PD_COUNTER_MULTI_TIMER_INV,
      PD_100NSEC_MULTI_TIMER,
      PD_100NSEC_MULTI_TIMER_INV,
      PD_RAW_FRACTION,
      PD_LARGE_RAW_FRACTION,
      PD_PRECISION_SYSTEM_TIMER,
      PD_PRECISION_100NS_TIMER,
      PD_PRECISION_OBJECT_TIMER,
  };
  for (size_t i = 0; i < sizeof needs / sizeof needs[0]; i++) {
    pd_sample o = s0(0, 1000), n = s1(100, 2000);
    char what[80];
    n.has_base = false;
    snprintf(what, sizeof what, "%s newer without base",
             pd_type_name(needs[i]));
    check(what, needs[i], &o, &n, NULL, PD_VALUE_NO_BASE, 0);
    /* also when it is the first sample: the base is missing for good */
    snprintf(what, sizeof what, "%s no base, no older", pd_type_name(needs[i]));
    check(what, needs[i], NULL, &n, NULL, PD_VALUE_NO_BASE, 0);
  }
  /* dB needs the older base too. */
  static const uint32_t delta_base[] = {
      PD_SAMPLE_FRACTION,       PD_AVERAGE_TIMER,
      PD_AVERAGE_BULK,          PD_PRECISION_SYSTEM_TIMER,
      PD_PRECISION_100NS_TIMER, PD_PRECISION_OBJECT_TIMER};
  for (size_t i = 0; i < sizeof delta_base / sizeof delta_base[0]; i++) {
    pd_sample o = s0(0, 1000), n = s1(100, 2000);
    char what[80];
    o.has_base = false;
    snprintf(what, sizeof what, "%s older without base",
             pd_type_name(delta_base[i]));
    check(what, delta_base[i], &o, &n, NULL, PD_VALUE_NO_BASE, 0);
  }
  /* MULTI reads B1 only: an older sample without base is fine.
   * 100NSEC_MULTI_TIMER 100 * (3e7 / 2e7) / 2 = 75 % */
  pd_sample o = s0(0, 0), n = s1(30000000, 2);
  o.has_base = false;
  check("100NSEC_MULTI_TIMER older without base", PD_100NSEC_MULTI_TIMER, &o,
        &n, NULL, OKV, 75.0);
  /* Types that need no base ignore has_base: COUNTER_TIMER 50 % */
  o = s0(0, 0), n = s1(1500000, 0);
  o.has_base = n.has_base = false;
  check("COUNTER_TIMER without base", PD_COUNTER_TIMER, &o, &n, NULL, OKV,
        50.0);
}

/* 64-bit values near 2^63 and 2^64, DWORD-size values. */
static void big_values(void) {
  /* COUNTER_DELTA across 2^63: (2^63 + 500) - (2^63 - 1000) = 1500. Done in
   * doubles this would be 2048 or 0 (doubles are 2048 apart there). */
  check2("LARGE_DELTA near 2^63", PD_COUNTER_LARGE_DELTA,
         (UINT64_C(1) << 63) - 1000, 0, (UINT64_C(1) << 63) + 500, 0, NULL, OKV,
         1500.0);
  /* BULK_COUNT at the top of uint64: dN 3e6 over 1.5 s = 2e6 /s */
  check2("BULK_COUNT near 2^64", PD_COUNTER_BULK_COUNT, UINT64_MAX - 3000000, 0,
         UINT64_MAX, 0, NULL, OKV, 2000000.0);
  /* LARGE_RAWCOUNT 2^63 + 1 is 9223372036854775809; as a double it rounds to
   * 9223372036854775808 (2^63), never negative. */
  pd_sample n = s1((UINT64_C(1) << 63) + 1, 0);
  check("LARGE_RAWCOUNT 2^63 + 1", PD_COUNTER_LARGE_RAWCOUNT, NULL, &n, NULL,
        OKV, 9223372036854775808.0);
  /* UINT64_MAX = 18446744073709551615 -> 2^64 as a double */
  n = s1(UINT64_MAX, 0);
  check("LARGE_RAWCOUNT UINT64_MAX", PD_COUNTER_LARGE_RAWCOUNT, NULL, &n, NULL,
        OKV, 18446744073709551616.0);

  /* Clocks near INT64_MAX: PerfTime100nSec INT64_MAX - 2e7 -> INT64_MAX
   * (dD 2e7), 100NSEC_TIMER dN 1e7: 100 * 1e7 / 2e7 = 50 % */
  pd_sample o = s0(0, 0);
  n = s1(10000000, 0);
  o.perf_time_100ns = INT64_MAX - 20000000;
  n.perf_time_100ns = INT64_MAX;
  check("100NSEC_TIMER clock near INT64_MAX", PD_100NSEC_TIMER, &o, &n, NULL,
        OKV, 50.0);
  /* A clock going from INT64_MIN to INT64_MAX: dD = 2^64 - 1 without signed
   * overflow; with dN 2^63: 100 * 2^63 / (2^64 - 1) = 50 % (to 1e-9). */
  o = s0(0, 0), n = s1(UINT64_C(1) << 63, 0);
  o.perf_time = INT64_MIN, n.perf_time = INT64_MAX;
  check("COUNTER_TIMER clock INT64_MIN -> INT64_MAX", PD_COUNTER_TIMER, &o, &n,
        NULL, OKV, 50.0);
  /* ... and from INT64_MAX back to INT64_MIN is no time delta */
  o.perf_time = INT64_MAX, n.perf_time = INT64_MIN;
  check("COUNTER_TIMER clock INT64_MAX -> INT64_MIN", PD_COUNTER_TIMER, &o, &n,
        NULL, PD_VALUE_NO_TIME_DELTA, 0);
  /* Negative clock values advancing: object_time -1000 -> 1000, dD 2000;
   * OBJ_TIME_TIMER dN 500: 100 * 500 / 2000 = 25 % */
  o = s0(0, 0), n = s1(500, 0);
  o.object_time = -1000, n.object_time = 1000;
  check("OBJ_TIME_TIMER negative clock advancing", PD_OBJ_TIME_TIMER, &o, &n,
        NULL, OKV, 25.0);
  /* PRECISION timestamp near 2^64: UINT64_MAX - 1e7 -> UINT64_MAX, dN 5e6:
   * 100 * 5e6 / 1e7 = 50 % */
  check2("PRECISION_100NS timestamp near 2^64", PD_PRECISION_100NS_TIMER, 0,
         UINT64_MAX - 10000000, 5000000, UINT64_MAX, NULL, OKV, 50.0);
  /* ELAPSED_TIME near INT64_MAX: object clock INT64_MAX, start
   * INT64_MAX - 1e9 at F 1e7: 1e9 / 1e7 = 100 s */
  n = s1((uint64_t)INT64_MAX - 1000000000, 0);
  n.object_time = INT64_MAX, n.object_freq = 10000000;
  check("ELAPSED_TIME near INT64_MAX", PD_ELAPSED_TIME, NULL, &n, NULL, OKV,
        100.0);
  /* ELAPSED_TIME with a start above INT64_MAX (unsigned raw value) is after
   * any clock value: negative */
  n = s1((UINT64_C(1) << 63) + 5, 0);
  n.object_time = INT64_MAX;
  check("ELAPSED_TIME start above 2^63", PD_ELAPSED_TIME, NULL, &n, NULL,
        PD_VALUE_NEGATIVE, 0);
  /* AVERAGE_BULK with 64-bit dN and dB: dN 2^62, dB 2^61: 2 */
  check2("AVERAGE_BULK 64-bit", PD_AVERAGE_BULK, UINT64_C(1) << 62,
         UINT64_C(1) << 61, UINT64_C(1) << 63, UINT64_C(1) << 62, NULL, OKV,
         2.0);
  /* LARGE_RAW_FRACTION 2^63 / 2^64-ish: N 2^62, B 2^63: 50 % */
  n = s1(UINT64_C(1) << 62, UINT64_C(1) << 63);
  check("LARGE_RAW_FRACTION 64-bit", PD_LARGE_RAW_FRACTION, NULL, &n, NULL, OKV,
        50.0);

  /* DWORD-size values.
   * COUNTER_COUNTER 4294967000 -> 4294967295: dN 295; 295 / 1.5 = 196.666..
   * (= 590 / 3) */
  check2("COUNTER_COUNTER DWORD top", PD_COUNTER_COUNTER, 4294967000u, 0,
         4294967295u, 0, NULL, OKV, 590.0 / 3.0);
  /* RAW_FRACTION DWORD: 100 * 0xFFFFFFFF / 0xFFFFFFFF = 100 % */
  check2("RAW_FRACTION DWORD max / max", PD_RAW_FRACTION, 0, 0, 0xFFFFFFFFu,
         0xFFFFFFFFu, NULL, OKV, 100.0);
  /* AVERAGE_TIMER DWORD: 0 -> 0xFFFFFFFF (4294967295 ticks) at 2e6/s over
   * dB 1: 4294967295 / 2e6 = 2147.4836475 s */
  check2("AVERAGE_TIMER DWORD", PD_AVERAGE_TIMER, 0, 0, 0xFFFFFFFFu, 1, NULL,
         OKV, 2147.4836475);
  /* SAMPLE_FRACTION DWORD: 0xFFFFFF00 -> 0xFFFFFFFF (255),
   * base 0xFFFFF000 -> 0xFFFFFFFF (4095): 100 * 255 / 4095 = 6.2271062.. */
  check2("SAMPLE_FRACTION DWORD", PD_SAMPLE_FRACTION, 0xFFFFFF00u, 0xFFFFF000u,
         0xFFFFFFFFu, 0xFFFFFFFFu, NULL, OKV, 25500.0 / 4095.0);
  /* A DWORD value that reads negative as int32 (0x80000000 = 2147483648)
   * is positive: RAWCOUNT 2147483648 */
  n = s1(0x80000000u, 0);
  check("RAWCOUNT 0x80000000", PD_COUNTER_RAWCOUNT, NULL, &n, NULL, OKV,
        2147483648.0);
}

/* pd_compute's arguments: NULL options = defaults, NULL value allowed. */
static void arguments(void) {
  pd_sample o = s0(0, 0), n = s1(1500000, 0);
  OK(pd_compute(PD_COUNTER_TIMER, &o, &n, NULL, NULL) == PD_VALUE_OK,
     "NULL value pointer: status still computed");
  double v = 7;
  OK(pd_compute(PD_COUNTER_TIMER, &o, NULL, NULL, &v) != PD_VALUE_OK && v == 0,
     "NULL newer: no value, *value 0");
  /* Precedence: an unknown type wins over a missing sample. */
  OK(pd_compute(0x12345678u, NULL, NULL, NULL, &v) == PD_VALUE_UNKNOWN_TYPE,
     "unknown type with no samples: unknown-type");
  /* Not numeric beats first sample. */
  OK(pd_compute(PD_AVERAGE_BASE, NULL, &n, NULL, &v) == PD_VALUE_NOT_NUMERIC,
     "base type, first sample: not-numeric");
}

int main(void) {
  worked_examples();
  every_type();
  edge_first_sample();
  edge_negative();
  edge_time();
  edge_frequency();
  edge_zero_base();
  edge_inverse_clamp();
  edge_cap100();
  multi_timer_formulas();
  edge_no_base();
  big_values();
  arguments();
  return tap_done();
}
