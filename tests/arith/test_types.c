/* collectd-winperf: counter type names and classification (format.md 2).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Every type of format.md 2.2 with its hex value copied from the spec (which
 * also checks the header's constants) and the classification worked out by hand
 * from format.md 2.1 and the format.md 3 table: B = base type, D = displayable,
 * 2 = needs two samples, NB = needs a base, M = monotonic raw value.
 */
#include "perfdata.h"
#include "tap.h"

#define B 1u
#define D 2u
#define TWO 4u
#define NB 8u
#define M 16u

typedef struct expect {
  uint32_t constant; /* the header's PD_ constant */
  uint32_t spec_hex; /* the value as format.md 2.2 writes it */
  const char *name;
  unsigned flags;
} expect;

static const expect types[] = {
    /* rates over the tick clock: two samples, raw value grows */
    {PD_COUNTER_COUNTER, 0x10410400u, "PERF_COUNTER_COUNTER", D | TWO | M},
    {PD_COUNTER_TIMER, 0x20410500u, "PERF_COUNTER_TIMER", D | TWO | M},
    {PD_COUNTER_QUEUELEN_TYPE, 0x00450400u, "PERF_COUNTER_QUEUELEN_TYPE",
     D | TWO | M},
    {PD_COUNTER_LARGE_QUEUELEN_TYPE, 0x00450500u,
     "PERF_COUNTER_LARGE_QUEUELEN_TYPE", D | TWO | M},
    {PD_COUNTER_100NS_QUEUELEN_TYPE, 0x00550500u,
     "PERF_COUNTER_100NS_QUEUELEN_TYPE", D | TWO | M},
    {PD_COUNTER_OBJ_TIME_QUEUELEN_TYPE, 0x00650500u,
     "PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE", D | TWO | M},
    {PD_COUNTER_BULK_COUNT, 0x10410500u, "PERF_COUNTER_BULK_COUNT",
     D | TWO | M},
    /* text: nothing numeric */
    {PD_COUNTER_TEXT, 0x00000B00u, "PERF_COUNTER_TEXT", 0},
    /* raw numbers: one sample, gauges */
    {PD_COUNTER_RAWCOUNT, 0x00010000u, "PERF_COUNTER_RAWCOUNT", D},
    {PD_COUNTER_LARGE_RAWCOUNT, 0x00010100u, "PERF_COUNTER_LARGE_RAWCOUNT", D},
    {PD_COUNTER_RAWCOUNT_HEX, 0x00000000u, "PERF_COUNTER_RAWCOUNT_HEX", D},
    {PD_COUNTER_LARGE_RAWCOUNT_HEX, 0x00000100u,
     "PERF_COUNTER_LARGE_RAWCOUNT_HEX", D},
    /* DELTA_COUNTER and DELTA_BASE: numerator needs its base, so not M */
    {PD_SAMPLE_FRACTION, 0x20C20400u, "PERF_SAMPLE_FRACTION", D | TWO | NB},
    {PD_SAMPLE_COUNTER, 0x00410400u, "PERF_SAMPLE_COUNTER", D | TWO | M},
    {PD_COUNTER_NODATA, 0x40000200u, "PERF_COUNTER_NODATA", 0},
    {PD_COUNTER_TIMER_INV, 0x21410500u, "PERF_COUNTER_TIMER_INV", D | TWO | M},
    {PD_SAMPLE_BASE, 0x40030401u, "PERF_SAMPLE_BASE", B},
    /* averages: no delta bit, still two samples (format.md 3) */
    {PD_AVERAGE_TIMER, 0x30020400u, "PERF_AVERAGE_TIMER", D | TWO | NB},
    {PD_AVERAGE_BASE, 0x40030402u, "PERF_AVERAGE_BASE", B},
    {PD_AVERAGE_BULK, 0x40020500u, "PERF_AVERAGE_BULK", D | TWO | NB},
    {PD_OBJ_TIME_TIMER, 0x20610500u, "PERF_OBJ_TIME_TIMER", D | TWO | M},
    {PD_100NSEC_TIMER, 0x20510500u, "PERF_100NSEC_TIMER", D | TWO | M},
    {PD_100NSEC_TIMER_INV, 0x21510500u, "PERF_100NSEC_TIMER_INV", D | TWO | M},
    /* multi timers need their item count B1 */
    {PD_COUNTER_MULTI_TIMER, 0x22410500u, "PERF_COUNTER_MULTI_TIMER",
     D | TWO | NB | M},
    {PD_COUNTER_MULTI_TIMER_INV, 0x23410500u, "PERF_COUNTER_MULTI_TIMER_INV",
     D | TWO | NB | M},
    {PD_COUNTER_MULTI_BASE, 0x42030500u, "PERF_COUNTER_MULTI_BASE", B},
    {PD_100NSEC_MULTI_TIMER, 0x22510500u, "PERF_100NSEC_MULTI_TIMER",
     D | TWO | NB | M},
    {PD_100NSEC_MULTI_TIMER_INV, 0x23510500u, "PERF_100NSEC_MULTI_TIMER_INV",
     D | TWO | NB | M},
    /* raw fractions: one sample, N1 / B1 */
    {PD_RAW_FRACTION, 0x20020400u, "PERF_RAW_FRACTION", D | NB},
    {PD_LARGE_RAW_FRACTION, 0x20020500u, "PERF_LARGE_RAW_FRACTION", D | NB},
    {PD_RAW_BASE, 0x40030403u, "PERF_RAW_BASE", B},
    {PD_LARGE_RAW_BASE, 0x40030500u, "PERF_LARGE_RAW_BASE", B},
    /* a start time: one sample, constant raw value */
    {PD_ELAPSED_TIME, 0x30240500u, "PERF_ELAPSED_TIME", D},
    {PD_COUNTER_HISTOGRAM_TYPE, 0x80000000u, "PERF_COUNTER_HISTOGRAM_TYPE", 0},
    /* delta counters: raw is a running count, display per interval */
    {PD_COUNTER_DELTA, 0x00400400u, "PERF_COUNTER_DELTA", D | TWO | M},
    {PD_COUNTER_LARGE_DELTA, 0x00400500u, "PERF_COUNTER_LARGE_DELTA",
     D | TWO | M},
    /* PRECISION: subtype 0x70000 contains the BASE bits 0x30000 but these
     * are not bases (format.md 2.1); they need the timestamp after them */
    {PD_PRECISION_SYSTEM_TIMER, 0x20470500u, "PERF_PRECISION_SYSTEM_TIMER",
     D | TWO | NB | M},
    {PD_PRECISION_100NS_TIMER, 0x20570500u, "PERF_PRECISION_100NS_TIMER",
     D | TWO | NB | M},
    {PD_PRECISION_OBJECT_TIMER, 0x20670500u, "PERF_PRECISION_OBJECT_TIMER",
     D | TWO | NB | M},
};

static void check_flag(const char *name, const char *what, bool got,
                       bool want) {
  if (!tap_ok(got == want, "%s: %s", name, what))
    tap_diag("  got %s, want %s", got ? "true" : "false",
             want ? "true" : "false");
}

int main(void) {
  size_t n = sizeof types / sizeof types[0];
  IS_INT(n, 39,
         "format.md 2.2: 40 names, 39 values (PRECISION_TIMESTAMP shares)");

  for (size_t i = 0; i < n; i++) {
    const expect *e = &types[i];
    IS_U64(e->constant, e->spec_hex, "%s: header constant = spec hex 0x%08x",
           e->name, (unsigned)e->spec_hex);
    const char *got = pd_type_name(e->spec_hex);
    if (!tap_ok(got && strcmp(got, e->name) == 0, "%s: name", e->name))
      tap_diag("  got %s", got ? got : "NULL");
    check_flag(e->name, "is_base", pd_type_is_base(e->spec_hex),
               (e->flags & B) != 0);
    check_flag(e->name, "is_displayable", pd_type_is_displayable(e->spec_hex),
               (e->flags & D) != 0);
    check_flag(e->name, "needs_two_samples",
               pd_type_needs_two_samples(e->spec_hex), (e->flags & TWO) != 0);
    check_flag(e->name, "needs_base", pd_type_needs_base(e->spec_hex),
               (e->flags & NB) != 0);
    check_flag(e->name, "is_monotonic", pd_type_is_monotonic(e->spec_hex),
               (e->flags & M) != 0);
  }

  /* PERF_PRECISION_TIMESTAMP is the same value as PERF_LARGE_RAW_BASE: one
   * name for it, and it is a base. */
  IS_U64(PD_PRECISION_TIMESTAMP, 0x40030500u, "PRECISION_TIMESTAMP 0x40030500");
  IS_STR(pd_type_name(PD_PRECISION_TIMESTAMP), "PERF_LARGE_RAW_BASE",
         "PRECISION_TIMESTAMP is named as LARGE_RAW_BASE");
  OK(pd_type_is_base(PD_PRECISION_TIMESTAMP), "PRECISION_TIMESTAMP is a base");
  OK(!pd_type_is_displayable(PD_PRECISION_TIMESTAMP),
     "PRECISION_TIMESTAMP is not displayable");

  /* The trap of format.md 2.1: (t & 0x30000) == 0x30000 holds for all three
   * PRECISION timers (subtype 0x70000) ... */
  OK((PD_PRECISION_SYSTEM_TIMER & 0x30000u) == 0x30000u &&
         (PD_PRECISION_100NS_TIMER & 0x30000u) == 0x30000u &&
         (PD_PRECISION_OBJECT_TIMER & 0x30000u) == 0x30000u,
     "PRECISION timers carry the BASE bits (the trap is real)");
  /* ... yet they are not bases, while every real base is. */
  OK(!pd_type_is_base(PD_PRECISION_SYSTEM_TIMER) &&
         !pd_type_is_base(PD_PRECISION_100NS_TIMER) &&
         !pd_type_is_base(PD_PRECISION_OBJECT_TIMER),
     "PRECISION timers are not bases");
  /* NUMBER-class value with subtype bits 0x30000 (type bits 0x000): not a
   * base either, the type field must be COUNTER (0x400). */
  OK(!pd_type_is_base(0x00030000u), "0x00030000 (NUMBER class) is not a base");

  /* Values format.md 2.2 does not name. */
  IS_STR(pd_type_name(0x00020000u), NULL, "DEC_1000 number is not named");
  IS_STR(pd_type_name(0xFFFFFFFFu), NULL, "0xFFFFFFFF is not named");
  IS_STR(pd_type_name(0x20410400u), NULL,
         "COUNTER_TIMER with DWORD size bits is not named");
  IS_STR(pd_type_name(0x40030404u), NULL, "0x40030404 is not named");
  /* ... but the bit rules still classify them: an unnamed base value */
  OK(pd_type_is_base(0x40030404u), "unnamed 0x40030404 is a base by its bits");

  /* Status names: stable short strings used in JSON. */
  IS_STR(pd_value_status_name(PD_VALUE_OK), "ok", "status ok");
  IS_STR(pd_value_status_name(PD_VALUE_FIRST_SAMPLE), "first-sample",
         "status first-sample");
  IS_STR(pd_value_status_name(PD_VALUE_NEGATIVE), "negative-delta",
         "status negative-delta");
  IS_STR(pd_value_status_name(PD_VALUE_NO_TIME_DELTA), "no-time-delta",
         "status no-time-delta");
  IS_STR(pd_value_status_name(PD_VALUE_ZERO_FREQUENCY), "zero-frequency",
         "status zero-frequency");
  IS_STR(pd_value_status_name(PD_VALUE_NOT_NUMERIC), "not-numeric",
         "status not-numeric");
  IS_STR(pd_value_status_name(PD_VALUE_NO_BASE), "no-base", "status no-base");
  IS_STR(pd_value_status_name(PD_VALUE_UNKNOWN_TYPE), "unknown-type",
         "status unknown-type");
  OK(pd_value_status_name((pd_value_status)99) != NULL,
     "an out-of-range status still gets a string");

  return tap_done();
}
