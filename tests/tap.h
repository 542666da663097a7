/* collectd-winperf: a minimal TAP producer for the C unit tests.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Each check prints "ok N - what" or "not ok N - what" plus a diagnostic;
 * tap_done() prints the plan and returns the exit status. Automake's TAP
 * driver counts every line, so one check is one counted test.
 */
#ifndef WINPERF_TESTS_TAP_H
#define WINPERF_TESTS_TAP_H

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_count;
static int tap_failed;

__attribute__((format(printf, 2, 3), unused)) static int
tap_ok(int pass, const char *fmt, ...) {
  va_list ap;
  tap_count++;
  if (!pass)
    tap_failed++;
  printf("%s %d - ", pass ? "ok" : "not ok", tap_count);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
  fflush(stdout);
  return pass;
}

__attribute__((format(printf, 1, 2), unused)) static void
tap_diag(const char *fmt, ...) {
  va_list ap;
  printf("# ");
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
}

/* Relative-or-absolute tolerance compare for computed doubles. */
__attribute__((unused)) static int tap_near(double got, double want,
                                            double tol) {
  if (isnan(got) || isnan(want))
    return 0;
  double diff = fabs(got - want);
  return diff <= tol || diff <= tol * fabs(want);
}

#define OK(cond, ...) tap_ok(!!(cond), __VA_ARGS__)

#define IS_INT(got, want, ...)                                                 \
  do {                                                                         \
    long long tap_g_ = (long long)(got), tap_w_ = (long long)(want);           \
    if (!tap_ok(tap_g_ == tap_w_, __VA_ARGS__))                                \
      tap_diag("  got %lld, want %lld (%s:%d)", tap_g_, tap_w_, __FILE__,      \
               __LINE__);                                                      \
  } while (0)

#define IS_U64(got, want, ...)                                                 \
  do {                                                                         \
    uint64_t tap_g_ = (uint64_t)(got), tap_w_ = (uint64_t)(want);              \
    if (!tap_ok(tap_g_ == tap_w_, __VA_ARGS__))                                \
      tap_diag("  got %" PRIu64 ", want %" PRIu64 " (%s:%d)", tap_g_, tap_w_,  \
               __FILE__, __LINE__);                                            \
  } while (0)

#define IS_STR(got, want, ...)                                                 \
  do {                                                                         \
    const char *tap_g_ = (got), *tap_w_ = (want);                              \
    int tap_p_ = (tap_g_ == NULL && tap_w_ == NULL) ||                         \
                 (tap_g_ && tap_w_ && strcmp(tap_g_, tap_w_) == 0);            \
    if (!tap_ok(tap_p_, __VA_ARGS__))                                          \
      tap_diag("  got \"%s\", want \"%s\" (%s:%d)",                            \
               tap_g_ ? tap_g_ : "(null)", tap_w_ ? tap_w_ : "(null)",         \
               __FILE__, __LINE__);                                            \
  } while (0)

/* Doubles: within 1e-9 relative unless a tolerance is given by IS_NEAR. */
#define IS_NEAR(got, want, tol, ...)                                           \
  do {                                                                         \
    double tap_g_ = (got), tap_w_ = (want);                                    \
    if (!tap_ok(tap_near(tap_g_, tap_w_, (tol)), __VA_ARGS__))                 \
      tap_diag("  got %.17g, want %.17g (%s:%d)", tap_g_, tap_w_, __FILE__,    \
               __LINE__);                                                      \
  } while (0)
#define IS_DOUBLE(got, want, ...) IS_NEAR(got, want, 1e-9, __VA_ARGS__)

__attribute__((unused)) static int tap_done(void) {
  printf("1..%d\n", tap_count);
  if (tap_failed)
    tap_diag("%d of %d checks failed", tap_failed, tap_count);
  return tap_failed ? 1 : 0;
}

#endif
