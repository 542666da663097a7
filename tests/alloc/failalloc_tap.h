/* collectd-winperf tests: allocation-failure sweeps as TAP lines.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Include after tap.h. One sweep once and one persistent, each two TAP
 * lines: "<name> (<mode>): N failure points, none crashes or leaks" and
 * "<name> (<mode>): ... <promise>" (what each failing run must return).
 * With todo_memory / todo_results set, that line, when it fails, is marked
 * "# TODO <reason>" (a known bug, reported but not failing the suite); the
 * diagnostics above it say which allocations.
 */
#ifndef WINPERF_TESTS_FAILALLOC_TAP_H
#define WINPERF_TESTS_FAILALLOC_TAP_H

#include "failalloc.h"

__attribute__((unused)) static void
failalloc_tap_line(bool pass, const char *todo, const char *what) {
  tap_count++;
  if (!pass && todo == NULL)
    tap_failed++;
  printf("%s %d - %s%s%s\n", pass ? "ok" : "not ok", tap_count, what,
         todo ? " # TODO " : "", todo ? todo : "");
  fflush(stdout);
}

__attribute__((unused)) static void
failalloc_tap_sweep(const char *name, failalloc_op op, void *ctx,
                    const char *promise, const char *todo_memory,
                    const char *todo_results) {
  for (int persistent = 0; persistent < 2; persistent++) {
    failalloc_report rep;
    failalloc_sweep(name, op, ctx, persistent, 0, &rep);
    char what[512];
    const char *mode = persistent ? "persistent" : "once";
    snprintf(what, sizeof what,
             "%s (%s): %lu failure points, none crashes or leaks", name, mode,
             rep.runs);
    failalloc_tap_line(rep.baseline_ok && rep.runs > 0 && rep.crashed == 0 &&
                           rep.leaked == 0,
                       todo_memory, what);
    snprintf(what, sizeof what, "%s (%s): %s", name, mode, promise);
    failalloc_tap_line(rep.baseline_ok && rep.runs > 0 && rep.broken == 0,
                       todo_results, what);
  }
}

#endif
