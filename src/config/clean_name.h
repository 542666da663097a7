/* collectd-winperf: the "clean" metric-name profile (MetricNames "clean").
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Maps one PDH name (an object, an instance or a counter, each on its own)
 * to a name Graphite, InfluxDB and Grafana take without a rename layer,
 * in this order (doc/collectd-winperf.5, "Metric names"):
 *   1. letters of Latin-1 Supplement and Latin Extended-A transliterated
 *      (ä a, æ ae, ø o, ß ss, é e, ç c, ñ n, ...); any other non-ASCII
 *      character removed;
 *   2. ASCII lower case;
 *   3. "%" -> "pct_", a trailing "/sec" -> "_per_sec";
 *   4. every character outside [a-z0-9_] -> "_";
 *   5. runs of "_" squeezed to one and trimmed at both ends, except that a
 *      name that began with "_" keeps one leading "_"; empty -> "_".
 *   "% Processor Time" -> "pct_processor_time", "_Total" -> "_total",
 *   "svchost#1" -> "svchost_1", "Ærøskøbing" -> "aeroskobing".
 * No collectd header: `size` is DATA_MAX_NAME_LEN in the plugin.
 */
#ifndef WP_CLEAN_NAME_H
#define WP_CLEAN_NAME_H

#include <stddef.h>

/* The clean form of UTF-8 `src` into dst (size bytes including the NUL;
 * cut to fit). Invalid UTF-8 bytes count as "other non-ASCII": removed. */
void wp_name_clean(char *dst, size_t size, const char *src);

#endif
