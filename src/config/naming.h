/* collectd-winperf: how a counter becomes a collectd identifier.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The rule (documented in doc/collectd-winperf.5, fixed: writers and
 * dashboards depend on it):
 *   plugin          "winperf"
 *   plugin_instance object, plus "-" and the full PDH instance name
 *                   (parent/name#n) when the object has instances
 *   type_instance   counter name
 *   type            "gauge"; raw mode: "derive" for monotonic counter types
 *   every field     '/', '\' and control characters (C0, DEL, C1) -> '_';
 *                   everything else unchanged; cut to fit on a UTF-8
 *                   character boundary.
 * A YAML override replaces the default; when the path has a wildcard in that
 * part, "-" and the matched name are appended so the metrics stay distinct.
 *
 * Two profiles change the names before that rule (doc/collectd-winperf.5,
 * "Metric names" and "Instance names"); the functions below take the names
 * they produce:
 *   InstanceNames "pid"  an instance known by its process id (pd_result's
 *                        id_base) is "BASE:PID", a thread "BASE:PID:TID";
 *                        a name already "BASE:PID" (Process V2) stays
 *   MetricNames "clean"  object, instance and counter each through
 *                        wp_name_clean (clean_name.h); overrides as written
 * No collectd header: `size` is DATA_MAX_NAME_LEN in the plugin.
 */
#ifndef WP_NAMING_H
#define WP_NAMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata.h"

/* MetricNames and InstanceNames (and the YAML keys metric_names,
 * instance_names, and the CLI's --metric-names, --instance-names). */
typedef enum wp_metric_names {
  WP_METRIC_NAMES_PDH = 0,
  WP_METRIC_NAMES_CLEAN,
} wp_metric_names;
typedef enum wp_instance_names {
  WP_INSTANCE_NAMES_PDH = 0,
  WP_INSTANCE_NAMES_PID,
} wp_instance_names;
/* Their spellings, by value: {"pdh", "clean"} and {"pdh", "pid"}. */
extern const char *const wp_metric_names_text[2];
extern const char *const wp_instance_names_text[2];
/* The value (0 or 1) whose spelling is s, ASCII case ignored; -1 if none. */
int wp_name_choice(const char *const text[2], const char *s);

/* The instance's name under `mode`, for single-instance objects NULL:
 * r->instance, or "BASE:PID" / "BASE:PID:TID" built in buf (size bytes;
 * BASE is cut on a UTF-8 boundary so the ids always fit). */
const char *wp_name_instance(char *buf, size_t size, const pd_result *r,
                             wp_instance_names mode);

/* One name (object, instance or counter) under the profile: name itself
 * for "pdh" (NULL stays NULL), else its wp_name_clean form in buf. */
const char *wp_name_part(char *buf, size_t size, const char *name,
                         wp_metric_names mode);

/* Sanitized copy of src into dst (size bytes including the NUL). */
void wp_name_sanitize(char *dst, size_t size, const char *src);

/* Default "object" or "object-instance"; instance NULL for single-instance
 * objects. With an override: the override, plus "-instance" when
 * instance_wildcard and there is an instance. */
void wp_name_plugin_instance(char *dst, size_t size, const char *object,
                             const char *instance, const char *override,
                             bool instance_wildcard);

/* Default the counter name; with an override: the override, plus "-counter"
 * when counter_wildcard. */
void wp_name_type_instance(char *dst, size_t size, const char *counter,
                           const char *override, bool counter_wildcard);

/* The default types.db type: "gauge" for formatted values; raw values of a
 * monotonic counter type (pd_type_is_monotonic) "derive", else "gauge". */
const char *wp_name_default_type(bool raw, uint32_t counter_type);

#endif
