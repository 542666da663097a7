/* collectd-winperf: a counter type's properties, looked up once per
 * definition instead of per value, and the common types' formulas
 * (compute.c).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef PD_TYPE_PROPS_H
#define PD_TYPE_PROPS_H

#include "perfdata.h"

typedef struct pd_type_props {
  bool named;       /* pd_type_name is not NULL */
  bool displayable; /* pd_type_is_displayable */
  bool needs_base;  /* pd_type_needs_base */
  bool two_samples; /* pd_type_needs_two_samples */
} pd_type_props;

pd_type_props pd_type_props_of(uint32_t type);

/* pd_compute with the type's properties already looked up (same result). */
pd_value_status pd_compute_props(uint32_t type, pd_type_props props,
                                 const pd_sample *older, const pd_sample *newer,
                                 const pd_calc_options *opt, double *value);

/* ---- per-value formulas prepared once per counter and pair of samples ----
 *
 * The common types' formulas take the counter's two readings and clocks
 * that are the same for every instance of an object (format.md 3): their
 * clock checks and time delta are worked out once per object, and per
 * value there remain the reading's delta and one division. */
enum {
  PD_FAST_NONE = 0,   /* any other type: pd_compute_props */
  PD_FAST_RAW,        /* N1: the RAWCOUNT types */
  PD_FAST_DELTA,      /* dN: COUNTER_DELTA, COUNTER_LARGE_DELTA */
  PD_FAST_PER_SECOND, /* dN / (dD / F): COUNTER_COUNTER, BULK, SAMPLE_COUNTER */
  PD_FAST_QUEUE,      /* dN / dD: the QUEUELEN types */
  PD_FAST_TIMER,      /* 100 dN / dD */
  PD_FAST_TIMER_INV,  /* 100 (1 - dN / dD) */
};

typedef struct pd_rate_plan {
  uint8_t kind;           /* PD_FAST_* */
  bool cap100;            /* a percentage and opt->cap100 */
  pd_value_status clocks; /* the clocks' checks, before the delta's */
  pd_value_status time;   /* dD > 0, after the delta's */
  double dd, dd_per_f;    /* dD, and dD / F for PD_FAST_PER_SECOND */
} pd_rate_plan;

/* The plan of `type` for samples with the clocks of older (NULL: none)
 * and newer (pd_sample_clocks); kind PD_FAST_NONE for the other types. */
void pd_rate_prepare(uint32_t type, const pd_sample *older,
                     const pd_sample *newer, const pd_calc_options *opt,
                     pd_rate_plan *plan);

/* The one implementation of the common types' formulas, for a counter
 * whose newer reading is n1 and older one n0 (paired false: a first
 * sample), with the clocks the plan was prepared for: pd_compute (which
 * calls it for these types), the selection's general loop and its loops
 * over every instance. kind is the plan's, passed apart so a loop that
 * knows it inlines one formula. Checks in pd_compute's order (compute.c):
 * first sample, the clocks', a negative delta, then the time delta. */
static inline __attribute__((always_inline)) pd_value_status
pd_rate_value(const pd_rate_plan *p, uint8_t kind, bool paired, uint64_t n0,
              uint64_t n1, double *value) {
  double v;
  *value = 0;
  if (kind == PD_FAST_RAW) {
    v = (double)n1;
  } else {
    if (!paired)
      return PD_VALUE_FIRST_SAMPLE;
    if (p->clocks != PD_VALUE_OK)
      return p->clocks;
    if (n1 < n0)
      return PD_VALUE_NEGATIVE;
    double dn = (double)(n1 - n0);
    if (kind != PD_FAST_DELTA && p->time != PD_VALUE_OK)
      return p->time;
    switch (kind) {
    case PD_FAST_PER_SECOND: /* dN / (dD / F) */
      v = dn / p->dd_per_f;
      break;
    case PD_FAST_QUEUE: /* dN / dD (100NS_QUEUELEN too: format.md 3.2) */
      v = dn / p->dd;
      break;
    case PD_FAST_TIMER: /* 100 dN / dD */
      v = 100.0 * dn / p->dd;
      break;
    case PD_FAST_TIMER_INV: /* 100 (1 - dN / dD), clamped at 0 (3.1) */
      v = 100.0 * (1.0 - dn / p->dd);
      if (v < 0)
        v = 0;
      break;
    default: /* PD_FAST_DELTA: dN */
      v = dn;
      break;
    }
  }
  if (p->cap100 && v > 100)
    v = 100;
  *value = v;
  return PD_VALUE_OK;
}

/* pd_rate_value with the plan's own kind (not PD_FAST_NONE) and the older
 * reading as a pointer (NULL: a first sample). */
static inline pd_value_status pd_rate_compute(const pd_rate_plan *p,
                                              const uint64_t *n0, uint64_t n1,
                                              double *value) {
  return pd_rate_value(p, p->kind, n0 != NULL, n0 ? *n0 : 0, n1, value);
}

#endif
