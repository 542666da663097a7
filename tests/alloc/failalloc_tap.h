/* collectd-winperf tests: allocation-failure sweeps as TAP lines.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Include after tap.h. One sweep once and one persistent, each one TAP
 * line: "<name> (<mode>): N failure points, <promise>". With `todo` set,
 * a failing line is marked "# TODO <todo>" (a known bug, reported but not
 * failing the suite); the diagnostics above it say which allocations.
 */
#ifndef WINPERF_TESTS_FAILALLOC_TAP_H
#define WINPERF_TESTS_FAILALLOC_TAP_H

#include "failalloc.h"

__attribute__((unused)) static void
failalloc_tap_sweep(const char *name, failalloc_op op, void *ctx,
                    const char *promise, const char *todo) {
  for (int persistent = 0; persistent < 2; persistent++) {
    failalloc_report rep;
    failalloc_sweep(name, op, ctx, persistent, 0, &rep);
    bool pass = failalloc_all_clean(&rep);
    tap_count++;
    if (!pass && todo == NULL)
      tap_failed++;
    printf("%s %d - %s (%s): %lu failure points, %s%s%s\n",
           pass ? "ok" : "not ok", tap_count, name,
           persistent ? "persistent" : "once", rep.runs, promise,
           todo ? " # TODO " : "", todo ? todo : "");
    fflush(stdout);
  }
}

#endif
