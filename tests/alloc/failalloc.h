/* collectd-winperf tests: fail the n-th allocation (SQLite's malloc tests).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * failalloc.c defines __wrap_malloc, __wrap_calloc, __wrap_realloc,
 * __wrap_free, __wrap_strdup and __wrap_strndup. A test program links it
 * with FAILALLOC_WRAP (tests/alloc/Makefile.inc):
 *   -Wl,--wrap=malloc -Wl,--wrap=calloc -Wl,--wrap=realloc -Wl,--wrap=free
 *   -Wl,--wrap=strdup -Wl,--wrap=strndup
 * so every call made from objects linked into the program statically (our
 * convenience libraries, and any static library on the link line) goes
 * through the shim. Calls made inside shared libraries (libc's own, a
 * shared libyaml) do not; they are neither counted nor failed.
 *
 * The shim counts allocation calls (malloc, calloc, realloc, strdup,
 * strndup: one each) and keeps the set of blocks it handed out that are
 * still live, so a leak check is "live blocks after the cleanup == live
 * blocks before the operation". It works the same under AddressSanitizer
 * (the real functions are ASan's), and the sweep also asks LeakSanitizer.
 *
 * The sweep: run the operation once with no failure to learn that it works
 * and how many allocations it makes; then, for N = 1, 2, ..., fail the
 * N-th allocation (and, in persistent mode, every one after it) until a
 * run completes without reaching N. The runs happen in a forked worker
 * process, so a crash is a reported failure of that run (a new worker
 * goes on with the next N), not of the whole test program; the worker
 * ends with one LeakSanitizer pass in sanitizer builds.
 *
 * FAILALLOC_BACKTRACE=N in the environment prints the stack of each
 * injected failure of allocation N, to find the code a bad run points at.
 */
#ifndef WINPERF_TESTS_FAILALLOC_H
#define WINPERF_TESTS_FAILALLOC_H

#include <stdbool.h>
#include <stddef.h>

/* Start counting from 0 and fail allocation call number n (1-based; 0
 * never fails). persistent: every call after the n-th fails too. */
void failalloc_arm(unsigned long n, bool persistent);
/* Stop failing (counting goes on). For an operation that checks it can
 * carry on after a failure (reuse of a snapshot, a selection, ...). */
void failalloc_disarm(void);
/* Allocation calls since the last arm, and how many of them failed. */
unsigned long failalloc_calls(void);
unsigned long failalloc_failures(void);
/* Blocks handed out by the shim and not freed yet. */
size_t failalloc_live(void);

/* What an operation says about one run. */
typedef enum failalloc_result {
  FA_SUCCESS = 0, /* completed, and its results are right */
  FA_CLEAN_ERROR, /* failed, with the error value the API promises */
  FA_BROKEN,      /* anything else: why says what */
} failalloc_result;

/* One run: set up, operate, check, clean up everything it made. `why`
 * (cap `whylen`) explains a FA_BROKEN result. */
typedef failalloc_result (*failalloc_op)(void *ctx, char *why, size_t whylen);

typedef struct failalloc_report {
  unsigned long calls;     /* allocation calls of the run with no failure */
  unsigned long runs;      /* runs with an injected failure */
  unsigned long clean;     /* ... that ended in a clean error */
  unsigned long success;   /* ... that still completed correctly */
  unsigned long broken;    /* ... that returned something wrong */
  unsigned long leaked;    /* ... that left blocks behind */
  unsigned long crashed;   /* ... that died (signal, sanitizer report) */
  bool baseline_ok;        /* the run with no failure succeeded, no leak */
  unsigned long first_bad; /* N of the first bad run (0: none) */
} failalloc_report;

/* The sweep described above; prints "# " diagnostics for the first few
 * bad runs (which N, what happened). Stops at max_runs runs (0: 100000). */
void failalloc_sweep(const char *name, failalloc_op op, void *ctx,
                     bool persistent, unsigned long max_runs,
                     failalloc_report *report);

/* All runs good: baseline ok, no broken, leaked or crashed run. */
bool failalloc_all_clean(const failalloc_report *report);

#endif
