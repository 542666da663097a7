/* collectd-winperf: the V2 (PerfLib consumer) source, Windows only.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A thin layer over PerfOpenQueryHandle / PerfAddCounters /
 * PerfQueryCounterInfo / PerfQueryCounterData /
 * PerfQueryCounterSetRegistrationInfo (Windows 10 1607+, looked up in
 * advapi32.dll at run time). It only moves bytes: building the
 * PERF_COUNTER_IDENTIFIER blocks and decoding the answers is the portable
 * src/perfdata/v2.c (perfdata_v2.h), unit-tested on Linux. Wine returns no
 * V2 data, so this part is compiled in the mingw build but not exercised.
 */
#ifndef WP_PERFLIB_V2_H
#define WP_PERFLIB_V2_H

#include "perfdata_v2.h"
#include "source.h"

typedef struct wp_v2_query wp_v2_query;

/* machine NULL: the local computer. NULL with the reason in err on failure
 * (e.g. a Windows without the V2 consumer API). */
wp_v2_query *wp_v2_open(const char *machine, wp_error *err);
void wp_v2_close(wp_v2_query *q);

/* Add one counter specification (instance NULL for a single-instance set,
 * "*" for all; counter_id PD_V2_WILDCARD_COUNTER for all counters). The
 * Status PerfAddCounters writes back is checked. */
wp_source_status wp_v2_add(wp_v2_query *q, const pd_guid *set,
                           uint32_t counter_id, const char *instance,
                           wp_error *err);

/* The added identifiers with Index filled (PerfQueryCounterInfo), as
 * PERF_COUNTER_IDENTIFIER blocks for pd_v2_identifier_decode. */
wp_source_status wp_v2_identifiers(wp_v2_query *q, wp_buffer *out,
                                   wp_error *err);

/* One PerfQueryCounterData answer (for pd_v2_data_decode); the buffer
 * grows on ERROR_NOT_ENOUGH_MEMORY to the size the call reports. */
wp_source_status wp_v2_collect(wp_v2_query *q, wp_buffer *out, wp_error *err);

/* A counter set's PERF_COUNTERSET_REG_INFO block (for
 * pd_v2_counterset_parse). */
wp_source_status wp_v2_counterset_info(wp_v2_query *q, const pd_guid *set,
                                       wp_buffer *out, wp_error *err);

#endif
