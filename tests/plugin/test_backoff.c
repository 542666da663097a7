/* collectd-winperf tests: a failing <Host>'s backoff (src/plugin/backoff.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The wait starts at one interval and doubles up to 5 minutes (or the
 * interval, if longer); a refused login waits at least a minute; a success
 * starts the sequence again. Times are collectd's cdtime_t (2^-30 s).
 */
#include "backoff.h"
#include "tap.h"

#define S(x) WP_BACKOFF_SECONDS(x)

static void test_doubling(void) {
  wp_backoff b = {0};
  uint64_t now = S(1000), iv = S(10);
  OK(!wp_backoff_waiting(&b, now, iv), "healthy: no wait");
  static const unsigned want[] = {10, 20, 40, 80, 160, 300, 300};
  for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
    uint64_t d = wp_backoff_failed(&b, false, now, iv);
    IS_INT(d >> 30, want[i], "failure %zu: next in %u s", i + 1, want[i]);
    IS_INT(b.failures, i + 1, "failure %zu counted", i + 1);
    IS_U64(b.retry_at, now + d, "failure %zu: retry at now + wait", i + 1);
  }
  IS_INT(wp_backoff_recovered(&b), 7, "recovery tells the failures before");
  OK(!wp_backoff_waiting(&b, now, iv), "recovered: no wait");
  IS_INT(wp_backoff_failed(&b, false, now, iv) >> 30, 10,
         "after a recovery the wait starts at one interval again");
  IS_INT(wp_backoff_recovered(&b), 1, "one failure told");
  IS_INT(wp_backoff_recovered(&b), 0, "a second recovery: nothing to tell");
}

static void test_waiting(void) {
  wp_backoff b = {0};
  uint64_t now = S(1000), iv = S(10);
  wp_backoff_failed(&b, false, now, iv); /* retry at +10 s */
  OK(wp_backoff_waiting(&b, now, iv), "right after the failure: waiting");
  OK(wp_backoff_waiting(&b, now + S(4), iv), "4 s later: waiting");
  OK(!wp_backoff_waiting(&b, now + S(5), iv),
     "5 s later (half an interval early): tried, not pushed a whole "
     "interval by jitter");
  OK(!wp_backoff_waiting(&b, now + S(11), iv), "after the retry time: tried");
}

static void test_auth(void) {
  wp_backoff b = {0};
  uint64_t now = S(0), iv = S(10);
  IS_INT(wp_backoff_failed(&b, true, now, iv) >> 30, 60,
         "a refused login waits a minute, not an interval");
  IS_INT(wp_backoff_failed(&b, true, now, iv) >> 30, 120,
         "then doubles from there");
  IS_INT(wp_backoff_failed(&b, false, now, iv) >> 30, 240,
         "another kind of failure keeps doubling");
  wp_backoff_recovered(&b);
  iv = S(120);
  IS_INT(wp_backoff_failed(&b, true, now, iv) >> 30, 120,
         "an interval above a minute is the first wait, auth or not");
}

static void test_long_interval(void) {
  wp_backoff b = {0};
  uint64_t iv = S(600);
  IS_INT(wp_backoff_failed(&b, false, 0, iv) >> 30, 600,
         "interval 10 min: first wait one interval");
  IS_INT(wp_backoff_failed(&b, false, 0, iv) >> 30, 600,
         "capped at the interval, which is above 5 min");
}

/* The wait counts from the attempt's start: an attempt that began on its
 * slot and timed out a whole interval later is retried at once (collectd
 * calls the late read right away), not an interval after the failure. */
static void test_slow_failure(void) {
  wp_backoff b = {0};
  uint64_t start = S(1000), iv = S(5);
  wp_backoff_failed(&b, false, start, iv); /* it failed at start + 5 s */
  IS_U64(b.retry_at, start + iv, "retry one interval after the start");
  OK(!wp_backoff_waiting(&b, start + iv, iv),
     "the next slot (start + 5 s, right after the 5 s timeout): tried");
  OK(wp_backoff_waiting(&b, start + S(1), iv),
     "a call 1 s after the start would still wait");
  /* the second failure in a row, a 5 s timeout again: waits 10 s from its
   * start, the slot at +5 s skipped, the one at +10 s tried */
  uint64_t second = start + iv;
  wp_backoff_failed(&b, false, second, iv);
  OK(wp_backoff_waiting(&b, second + iv, iv), "failure 2: the next slot waits");
  OK(!wp_backoff_waiting(&b, second + 2 * iv, iv),
     "failure 2: the one after is tried");
}

int main(void) {
  test_doubling();
  test_waiting();
  test_slow_failure();
  test_auth();
  test_long_interval();
  return tap_done();
}
