/* collectd-winperf: two counters dispatched under one name.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * MetricNames "clean" maps names many to one ("C:" and "c" are both "c";
 * "Ærø" and "aero" both "aero"), as can overrides and the '/' -> '_' of the
 * default rule. Two different counters under one collectd identifier
 * (plugin_instance, type and type_instance) write one series: whichever
 * comes last wins. Each such pair is logged once, naming both, over the
 * results of the first interval after a names table is loaded (for replay
 * and remote sources it arrives after start-up); instances that appear
 * later are not looked at.
 */
#ifndef WP_PLUGIN_CLASHES_H
#define WP_PLUGIN_CLASHES_H

#include "context.h"

/* After an evaluation: look for clashes among res when the names table is
 * not the one last looked at. Allocates only then (and logs "out of
 * memory" when it cannot). */
void wp_clashes_check(wp_ctx *c, const pd_result *res, size_t n);

#endif
