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
 * No collectd header: `size` is DATA_MAX_NAME_LEN in the plugin.
 */
#ifndef WP_NAMING_H
#define WP_NAMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
