/* collectd-winperf: CounterType names and classification (format.md 2).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The classification functions read the bit fields of format.md 2.1 (as
 * winperf.h composes the types), so they give a sensible answer for unnamed
 * types too; only pd_type_name (and through it pd_compute's "unknown type"
 * status) is limited to the types format.md 2.2 names.
 */
#include "pd_internal.h"
#include "type_props.h"

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
