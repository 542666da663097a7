/* collectd-winperf: counter types and formatted values (format.md 2, 3).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The types: their names (format.md 2.2) and classification, read from the
 * bit fields of format.md 2.1 (as winperf.h composes the types), so they
 * give a sensible answer for unnamed types too; only pd_type_name (and
 * through it pd_compute's "unknown type" status) is limited to the types
 * format.md 2.2 names.
 *
 * The values: the formula is chosen per named type (format.md 2.2/3), as
 * PDH does; the common types' formulas are pd_rate_value (type_props.h),
 * the others' here. The time base (D, F) always comes from the time-base
 * bits (format.md 2.1), so ELAPSED_TIME and AVERAGE_TIMER follow the same
 * rule as the timers.
 *
 * Raw values are unsigned and clocks signed 64-bit: every difference is
 * taken in integers after comparing (never "n1 - n0" on wrapped or signed
 * values, never in double, which loses exactness above 2^53), then
 * converted.
 *
 * Order of the checks when several apply (format.md 3.1 does not rank them):
 * unknown type, not numeric, missing base, first sample, zero frequency
 * (a property of the producer, so it is named even when the interval is
 * also bad), negative counter/base delta, then time delta <= 0.
 */
#include "pd_internal.h"
#include "type_props.h"

/* ------------------------------------------------ the types (format.md 2) */

/* format.md 2.1 bit fields (winperf.h names without the PERF_ prefix). */
enum {
  PDT_SIZE_MASK = 0x300u,
  PDT_SIZE_ZERO = 0x200u,
  PDT_TYPE_MASK = 0xC00u,
  PDT_TYPE_COUNTER = 0x400u,
  PDT_TYPE_TEXT = 0x800u,
  PDT_SUBTYPE_MASK = 0xF0000u,
  PDT_COUNTER_FRACTION = 0x20000u,
  PDT_COUNTER_BASE = 0x30000u,
  PDT_COUNTER_HISTOGRAM = 0x60000u,
  PDT_COUNTER_PRECISION = 0x70000u,
  PDT_DELTA_COUNTER = 0x400000u,
  PDT_DELTA_BASE = 0x800000u,
  PDT_MULTI_COUNTER = 0x2000000u,
  PDT_HISTOGRAM_FLAG = 0x80000000u, /* PERF_COUNTER_HISTOGRAM_TYPE */
};

/* format.md 2.2, in its order: a switch, so the lookup is O(1) (pd_compute asks
 * per value). PERF_PRECISION_TIMESTAMP is the same value as
 * PERF_LARGE_RAW_BASE: winperf.h defines it as an alias, so the value is
 * named after the base type it really is. */
#define PD_TYPE_CASE(t)                                                        \
  case PD_##t:                                                                 \
    return "PERF_" #t

const char *pd_type_name(uint32_t type) {
  switch (type) {
    PD_TYPE_CASE(COUNTER_COUNTER);
    PD_TYPE_CASE(COUNTER_TIMER);
    PD_TYPE_CASE(COUNTER_QUEUELEN_TYPE);
    PD_TYPE_CASE(COUNTER_LARGE_QUEUELEN_TYPE);
    PD_TYPE_CASE(COUNTER_100NS_QUEUELEN_TYPE);
    PD_TYPE_CASE(COUNTER_OBJ_TIME_QUEUELEN_TYPE);
    PD_TYPE_CASE(COUNTER_BULK_COUNT);
    PD_TYPE_CASE(COUNTER_TEXT);
    PD_TYPE_CASE(COUNTER_RAWCOUNT);
    PD_TYPE_CASE(COUNTER_LARGE_RAWCOUNT);
    PD_TYPE_CASE(COUNTER_RAWCOUNT_HEX);
    PD_TYPE_CASE(COUNTER_LARGE_RAWCOUNT_HEX);
    PD_TYPE_CASE(SAMPLE_FRACTION);
    PD_TYPE_CASE(SAMPLE_COUNTER);
    PD_TYPE_CASE(COUNTER_NODATA);
    PD_TYPE_CASE(COUNTER_TIMER_INV);
    PD_TYPE_CASE(SAMPLE_BASE);
    PD_TYPE_CASE(AVERAGE_TIMER);
    PD_TYPE_CASE(AVERAGE_BASE);
    PD_TYPE_CASE(AVERAGE_BULK);
    PD_TYPE_CASE(OBJ_TIME_TIMER);
    PD_TYPE_CASE(100NSEC_TIMER);
    PD_TYPE_CASE(100NSEC_TIMER_INV);
    PD_TYPE_CASE(COUNTER_MULTI_TIMER);
    PD_TYPE_CASE(COUNTER_MULTI_TIMER_INV);
    PD_TYPE_CASE(COUNTER_MULTI_BASE);
    PD_TYPE_CASE(100NSEC_MULTI_TIMER);
    PD_TYPE_CASE(100NSEC_MULTI_TIMER_INV);
    PD_TYPE_CASE(RAW_FRACTION);
    PD_TYPE_CASE(LARGE_RAW_FRACTION);
    PD_TYPE_CASE(RAW_BASE);
    PD_TYPE_CASE(LARGE_RAW_BASE); /* also PERF_PRECISION_TIMESTAMP */
    PD_TYPE_CASE(ELAPSED_TIME);
    PD_TYPE_CASE(COUNTER_HISTOGRAM_TYPE);
    PD_TYPE_CASE(COUNTER_DELTA);
    PD_TYPE_CASE(COUNTER_LARGE_DELTA);
    PD_TYPE_CASE(PRECISION_SYSTEM_TIMER);
    PD_TYPE_CASE(PRECISION_100NS_TIMER);
    PD_TYPE_CASE(PRECISION_OBJECT_TIMER);
  default:
    return NULL;
  }
}

#undef PD_TYPE_CASE

bool pd_type_is_base(uint32_t type) {
  /* format.md 2.1: the subtype must be compared whole; testing the BASE bits
   * alone (t & 0x30000) == 0x30000 also matches PRECISION (0x70000). */
  return (type & PDT_TYPE_MASK) == PDT_TYPE_COUNTER &&
         (type & PDT_SUBTYPE_MASK) == PDT_COUNTER_BASE;
}

bool pd_type_is_displayable(uint32_t type) {
  if (pd_type_is_base(type))
    return false; /* SAMPLE/AVERAGE/RAW/MULTI bases, PRECISION_TIMESTAMP */
  if ((type & PDT_TYPE_MASK) == PDT_TYPE_TEXT)
    return false; /* PERF_COUNTER_TEXT */
  if ((type & PDT_SIZE_MASK) == PDT_SIZE_ZERO)
    return false; /* PERF_COUNTER_NODATA: no data at all */
  if ((type & PDT_HISTOGRAM_FLAG) ||
      ((type & PDT_TYPE_MASK) == PDT_TYPE_COUNTER &&
       (type & PDT_SUBTYPE_MASK) == PDT_COUNTER_HISTOGRAM))
    return false; /* PERF_COUNTER_HISTOGRAM_TYPE */
  return true;
}

bool pd_type_needs_two_samples(uint32_t type) {
  /* format.md 3: the delta bits, plus the two averages, which carry no delta
   * bit in their value but are computed from differences (dN / dB). */
  return (type & (PDT_DELTA_COUNTER | PDT_DELTA_BASE)) != 0 ||
         type == PD_AVERAGE_TIMER || type == PD_AVERAGE_BULK;
}

bool pd_type_needs_base(uint32_t type) {
  if ((type & PDT_TYPE_MASK) != PDT_TYPE_COUNTER || pd_type_is_base(type))
    return false;
  uint32_t sub = type & PDT_SUBTYPE_MASK;
  /* Fractions and averages divide by a base counter, MULTI types by their
   * item count, PRECISION timers by their PRECISION_TIMESTAMP (format.md 3). */
  return sub == PDT_COUNTER_FRACTION || sub == PDT_COUNTER_PRECISION ||
         (type & PDT_MULTI_COUNTER) != 0;
}

bool pd_type_is_monotonic(uint32_t type) {
  /* A COUNTER-class type whose displayed value is a difference of its raw
   * value (DELTA_COUNTER) over time or over nothing, with no base delta:
   * COUNTER_COUNTER, BULK_COUNT, SAMPLE_COUNTER, the four QUEUELEN
   * accumulators, every TIMER (tick, 100ns, object, inverse, multi),
   * the PRECISION timers and COUNTER_DELTA/LARGE_DELTA (their raw value is a
   * running count; only the display is per interval). Their raw values only
   * grow, a drop being a reset (format.md 3.1), so raw mode can hand them to
   * collectd as DERIVE. Not monotonic in that sense: raw counts (gauges),
   * fractions and averages (SAMPLE_FRACTION has DELTA_BASE too: the
   * numerator means nothing without its base), bases, elapsed time (a start
   * time, constant), text. */
  return (type & PDT_TYPE_MASK) == PDT_TYPE_COUNTER &&
         (type & PDT_DELTA_COUNTER) != 0 && (type & PDT_DELTA_BASE) == 0 &&
         !pd_type_is_base(type);
}

pd_type_props pd_type_props_of(uint32_t type) {
  pd_type_props p = {pd_type_name(type) != NULL, pd_type_is_displayable(type),
                     pd_type_needs_base(type), pd_type_needs_two_samples(type)};
  return p;
}

const char *pd_value_status_name(pd_value_status status) {
  switch (status) {
  case PD_VALUE_OK:
    return "ok";
  case PD_VALUE_FIRST_SAMPLE:
    return "first-sample";
  case PD_VALUE_NEGATIVE:
    return "negative-delta";
  case PD_VALUE_NO_TIME_DELTA:
    return "no-time-delta";
  case PD_VALUE_ZERO_FREQUENCY:
    return "zero-frequency";
  case PD_VALUE_NOT_NUMERIC:
    return "not-numeric";
  case PD_VALUE_NO_BASE:
    return "no-base";
  case PD_VALUE_UNKNOWN_TYPE:
    return "unknown-type";
  }
  return "unknown-status";
}

/* --------------------------------------------- the formulas (format.md 3) */

/* format.md 2.1 fields the formulas need. */
#define TIMEBASE_MASK 0x300000u
#define TIMEBASE_TICK 0x000000u
#define TIMEBASE_100NS 0x100000u
#define TIMEBASE_OBJECT 0x200000u
#define DISPLAY_MASK 0xF0000000u
#define DISPLAY_PERCENT 0x20000000u

/* 100NS time base: PerfTime100nSec counts 1e7 per second (format.md 2.1). */
#define FREQ_100NS INT64_C(10000000)

/* D and F of a sample per the type's time-base bits. False for the one
 * undefined combination (0x300000). */
static bool time_base(uint32_t type, const pd_sample *s, int64_t *d,
                      int64_t *f) {
  switch (type & TIMEBASE_MASK) {
  case TIMEBASE_TICK:
    *d = s->perf_time;
    *f = s->perf_freq;
    return true;
  case TIMEBASE_100NS:
    *d = s->perf_time_100ns;
    *f = FREQ_100NS;
    return true;
  case TIMEBASE_OBJECT:
    *d = s->object_time;
    *f = s->object_freq;
    return true;
  default:
    return false;
  }
}

/* n1 - n0 of unsigned raw values; NEGATIVE when it went backwards. */
static pd_value_status delta_u64(uint64_t n0, uint64_t n1, double *out) {
  if (n1 < n0)
    return PD_VALUE_NEGATIVE;
  *out = (double)(n1 - n0);
  return PD_VALUE_OK;
}

/* d1 - d0 of signed clocks, strictly positive, without signed overflow. */
static pd_value_status delta_time(int64_t d0, int64_t d1, double *out) {
  if (d1 <= d0)
    return PD_VALUE_NO_TIME_DELTA;
  *out = (double)((uint64_t)d1 - (uint64_t)d0);
  return PD_VALUE_OK;
}

/* D of a sample per the type's time base and, when f is given (the
 * formula uses it), a positive F. */
static pd_value_status clock_of(uint32_t type, const pd_sample *s, int64_t *d,
                                double *f) {
  int64_t fi;
  if (!time_base(type, s, d, &fi))
    return PD_VALUE_UNKNOWN_TYPE;
  if (f) {
    if (fi <= 0)
      return PD_VALUE_ZERO_FREQUENCY;
    *f = (double)fi;
  }
  return PD_VALUE_OK;
}

/* dN and dD (and F if asked) of a two-sample type over time, in the order
 * of checks given at the top. */
static pd_value_status rate_inputs(uint32_t type, const pd_sample *older,
                                   const pd_sample *newer, double *dn,
                                   double *dd, double *f) {
  int64_t d0, d1;
  pd_value_status st = clock_of(type, older, &d0, NULL);
  if (st == PD_VALUE_OK)
    st = clock_of(type, newer, &d1, f);
  if (st == PD_VALUE_OK)
    st = delta_u64(older->value, newer->value, dn);
  if (st != PD_VALUE_OK)
    return st;
  return delta_time(d0, d1, dd);
}

/* Which sample's fields a type reads (format.md 3 table). */
static bool uses_older_base(uint32_t type) {
  /* dB: the sample fraction, the averages and the PRECISION timestamp;
   * MULTI types read only B1. */
  switch (type) {
  case PD_SAMPLE_FRACTION:
  case PD_AVERAGE_TIMER:
  case PD_AVERAGE_BULK:
  case PD_PRECISION_SYSTEM_TIMER:
  case PD_PRECISION_100NS_TIMER:
  case PD_PRECISION_OBJECT_TIMER:
    return true;
  default:
    return false;
  }
}

/* One function per row of the format.md 3 table that pd_rate_value
 * (type_props.h) does not compute, each given a named, numeric type of
 * its row whose samples are present. */

/* 100 (dN / dD) / B1: 100NSEC_MULTI_TIMER, and COUNTER_MULTI_TIMER unless
 * the MSDN sample's 100 (dN / (dD / F)) / B1 is asked for (format.md 3.2: that
 * F applies to COUNTER_MULTI_TIMER only). Multi count 0: 0 (format.md 3.1). */
static pd_value_status multi_timer(uint32_t type, const pd_sample *o,
                                   const pd_sample *n,
                                   const pd_calc_options *opt, double *v) {
  double dn = 0, dd = 0, f = 0;
  bool msdn = type == PD_COUNTER_MULTI_TIMER &&
              opt->multi_timer == PD_MULTI_TIMER_MSDN_SAMPLE;
  pd_value_status st = rate_inputs(type, o, n, &dn, &dd, msdn ? &f : NULL);
  if (st != PD_VALUE_OK || n->base == 0)
    return st;
  *v = msdn ? 100.0 * (dn / (dd / f)) / (double)n->base
            : 100.0 * (dn / dd) / (double)n->base;
  return st;
}

/* 100 (B1 - dN / dD), not divided by B1 (format.md 3.2):
 * COUNTER_MULTI_TIMER_INV, 100NSEC_MULTI_TIMER_INV. Multi count 0: 0
 * (format.md 3.1). */
static pd_value_status multi_timer_inv(uint32_t type, const pd_sample *o,
                                       const pd_sample *n, double *v) {
  double dn = 0, dd = 0;
  pd_value_status st = rate_inputs(type, o, n, &dn, &dd, NULL);
  if (st != PD_VALUE_OK || n->base == 0)
    return st;
  *v = 100.0 * ((double)n->base - dn / dd);
  return st;
}

/* dN and dB, in that order of checks, of the types over operations. */
static pd_value_status base_deltas(const pd_sample *o, const pd_sample *n,
                                   double *dn, double *db) {
  pd_value_status st = delta_u64(o->value, n->value, dn);
  if (st == PD_VALUE_OK)
    st = delta_u64(o->base, n->base, db);
  return st;
}

/* 100 dN / dB: SAMPLE_FRACTION. dB 0, no operations: 0 (format.md 3.1). */
static pd_value_status sample_fraction(const pd_sample *o, const pd_sample *n,
                                       double *v) {
  double dn = 0, db = 0;
  pd_value_status st = base_deltas(o, n, &dn, &db);
  if (st == PD_VALUE_OK && db != 0)
    *v = 100.0 * dn / db;
  return st;
}

/* 100 N1 / B1: RAW_FRACTION, LARGE_RAW_FRACTION. B1 0: 0 (format.md 3.1). */
static pd_value_status raw_fraction(const pd_sample *n, double *v) {
  if (n->base != 0)
    *v = 100.0 * (double)n->value / (double)n->base;
  return PD_VALUE_OK;
}

/* (dN / F) / dB: AVERAGE_TIMER, F of its time base (TICK: block PerfFreq,
 * format.md 3). dB 0: 0 (format.md 3.1). */
static pd_value_status average_timer(uint32_t type, const pd_sample *o,
                                     const pd_sample *n, double *v) {
  double dn = 0, db = 0, f = 0;
  int64_t d;
  pd_value_status st = clock_of(type, n, &d, &f);
  if (st == PD_VALUE_OK)
    st = base_deltas(o, n, &dn, &db);
  if (st == PD_VALUE_OK && db != 0)
    *v = (dn / f) / db;
  return st;
}

/* dN / dB: AVERAGE_BULK. dB 0: 0 (format.md 3.1). */
static pd_value_status average_bulk(const pd_sample *o, const pd_sample *n,
                                    double *v) {
  double dn = 0, db = 0;
  pd_value_status st = base_deltas(o, n, &dn, &db);
  if (st == PD_VALUE_OK && db != 0)
    *v = dn / db;
  return st;
}

/* (D - N1) / F: ELAPSED_TIME, N1 a start time on the type's own clock. A
 * start after "now" is a difference going backwards: NEGATIVE. */
static pd_value_status elapsed_time(uint32_t type, const pd_sample *n,
                                    double *v) {
  double f = 0;
  int64_t d;
  pd_value_status st = clock_of(type, n, &d, &f);
  if (st != PD_VALUE_OK)
    return st;
  if (d < 0 || (uint64_t)d < n->value)
    return PD_VALUE_NEGATIVE;
  *v = (double)((uint64_t)d - n->value) / f;
  return PD_VALUE_OK;
}

/* 100 dN / dD: the PRECISION timers, D the PRECISION_TIMESTAMP in the base
 * field; it not advancing is a time delta <= 0 (format.md 3.1), not a negative
 * base. */
static pd_value_status precision_timer(const pd_sample *o, const pd_sample *n,
                                       double *v) {
  double dn = 0;
  pd_value_status st = delta_u64(o->value, n->value, &dn);
  if (st != PD_VALUE_OK)
    return st;
  if (n->base <= o->base)
    return PD_VALUE_NO_TIME_DELTA;
  *v = 100.0 * dn / (double)(n->base - o->base);
  return PD_VALUE_OK;
}

/* The formula of one named, numeric type whose samples are present and
 * that pd_rate_value does not compute: the other rows of the format.md 3
 * table, in its order. */
static pd_value_status formula(uint32_t type, const pd_sample *o,
                               const pd_sample *n, const pd_calc_options *opt,
                               double *v) {
  switch (type) {
  case PD_COUNTER_MULTI_TIMER:
  case PD_100NSEC_MULTI_TIMER:
    return multi_timer(type, o, n, opt, v);
  case PD_COUNTER_MULTI_TIMER_INV:
  case PD_100NSEC_MULTI_TIMER_INV:
    return multi_timer_inv(type, o, n, v);
  case PD_SAMPLE_FRACTION:
    return sample_fraction(o, n, v);
  case PD_RAW_FRACTION:
  case PD_LARGE_RAW_FRACTION:
    return raw_fraction(n, v);
  case PD_AVERAGE_TIMER:
    return average_timer(type, o, n, v);
  case PD_AVERAGE_BULK:
    return average_bulk(o, n, v);
  case PD_ELAPSED_TIME:
    return elapsed_time(type, n, v);
  case PD_PRECISION_SYSTEM_TIMER:
  case PD_PRECISION_100NS_TIMER:
  case PD_PRECISION_OBJECT_TIMER:
    return precision_timer(o, n, v);
  default:
    return PD_VALUE_UNKNOWN_TYPE;
  }
}

pd_value_status pd_compute(uint32_t type, const pd_sample *older,
                           const pd_sample *newer, const pd_calc_options *opt,
                           double *value) {
  return pd_compute_props(type, pd_type_props_of(type), older, newer, opt,
                          value);
}

pd_value_status pd_compute_props(uint32_t type, pd_type_props props,
                                 const pd_sample *older, const pd_sample *newer,
                                 const pd_calc_options *opt, double *value) {
  static const pd_calc_options defaults = {PD_MULTI_TIMER_RESKIT, false};
  double v = 0;

  if (value)
    *value = 0;
  if (!opt)
    opt = &defaults;
  if (!props.named)
    return PD_VALUE_UNKNOWN_TYPE;
  if (!props.displayable)
    return PD_VALUE_NOT_NUMERIC;
  if (!newer) /* nothing sampled yet: as the first sample */
    return PD_VALUE_FIRST_SAMPLE;
  if (props.needs_base && !newer->has_base)
    return PD_VALUE_NO_BASE;
  if (props.two_samples) {
    if (!older)
      return PD_VALUE_FIRST_SAMPLE;
    if (uses_older_base(type) && !older->has_base)
      return PD_VALUE_NO_BASE;
  }

  /* The common types: their one formula (type_props.h). */
  pd_rate_plan plan;
  pd_rate_prepare(type, older, newer, opt, &plan);
  if (plan.kind != PD_FAST_NONE) {
    pd_value_status st =
        pd_rate_value(&plan, plan.kind, older != NULL, older ? older->value : 0,
                      newer->value, &v);
    if (value)
      *value = v;
    return st;
  }

  pd_value_status st = formula(type, older, newer, opt, &v);
  if (st != PD_VALUE_OK)
    return st;
  if (v < 0)
    v = 0; /* multi-timer inverse (format.md 3.1: clamp) */
  if (opt->cap100 && (type & DISPLAY_MASK) == DISPLAY_PERCENT && v > 100)
    v = 100;
  if (value)
    *value = v;
  return PD_VALUE_OK;
}

/* The fast kind of a named type, PD_FAST_NONE for the rest. */
static uint8_t fast_kind(uint32_t type) {
  switch (type) {
  case PD_COUNTER_RAWCOUNT:
  case PD_COUNTER_LARGE_RAWCOUNT:
  case PD_COUNTER_RAWCOUNT_HEX:
  case PD_COUNTER_LARGE_RAWCOUNT_HEX:
    return PD_FAST_RAW;
  case PD_COUNTER_DELTA:
  case PD_COUNTER_LARGE_DELTA:
    return PD_FAST_DELTA;
  case PD_COUNTER_COUNTER:
  case PD_COUNTER_BULK_COUNT:
  case PD_SAMPLE_COUNTER:
    return PD_FAST_PER_SECOND;
  case PD_COUNTER_QUEUELEN_TYPE:
  case PD_COUNTER_LARGE_QUEUELEN_TYPE:
  case PD_COUNTER_100NS_QUEUELEN_TYPE:
  case PD_COUNTER_OBJ_TIME_QUEUELEN_TYPE:
    return PD_FAST_QUEUE;
  case PD_COUNTER_TIMER:
  case PD_100NSEC_TIMER:
  case PD_OBJ_TIME_TIMER:
    return PD_FAST_TIMER;
  case PD_COUNTER_TIMER_INV:
  case PD_100NSEC_TIMER_INV:
    return PD_FAST_TIMER_INV;
  default:
    return PD_FAST_NONE;
  }
}

/* rate_inputs' checks of the clocks, once: those before the counter's
 * delta into plan->clocks, the time delta's after it into plan->time. */
void pd_rate_prepare(uint32_t type, const pd_sample *older,
                     const pd_sample *newer, const pd_calc_options *opt,
                     pd_rate_plan *plan) {
  plan->kind = fast_kind(type);
  plan->cap100 =
      opt != NULL && opt->cap100 && (type & DISPLAY_MASK) == DISPLAY_PERCENT;
  plan->clocks = plan->time = PD_VALUE_OK;
  plan->dd = plan->dd_per_f = 0;
  if (plan->kind <= PD_FAST_DELTA || older == NULL)
    return; /* no clocks; or every value a first sample */
  int64_t d0, d1;
  double f = 0;
  plan->clocks = clock_of(type, older, &d0, NULL);
  if (plan->clocks == PD_VALUE_OK)
    plan->clocks = clock_of(type, newer, &d1,
                            plan->kind == PD_FAST_PER_SECOND ? &f : NULL);
  if (plan->clocks != PD_VALUE_OK)
    return;
  plan->time = delta_time(d0, d1, &plan->dd);
  if (plan->kind == PD_FAST_PER_SECOND)
    plan->dd_per_f = plan->dd / f;
}
