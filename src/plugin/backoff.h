/* collectd-winperf: how long a failing <Host> waits before the next try.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The wait starts at one interval and doubles up to WP_BACKOFF_MAX (or the
 * interval, if longer); a refused login waits at least WP_BACKOFF_AUTH,
 * because Windows lockout policies count failed logins. collectd's own
 * suspension of a failing read callback is not used: it doubles up to
 * MaxReadInterval for every kind of failure and logs nothing about why.
 *
 * No collectd header, so it is unit-tested on its own (tests/plugin). Times
 * are collectd's cdtime_t: 2^-30 seconds in a uint64_t.
 */
#ifndef WP_PLUGIN_BACKOFF_H
#define WP_PLUGIN_BACKOFF_H

#include <stdbool.h>
#include <stdint.h>

#define WP_BACKOFF_SECONDS(s) ((uint64_t)(s) << 30)
#define WP_BACKOFF_MAX WP_BACKOFF_SECONDS(300)
#define WP_BACKOFF_AUTH WP_BACKOFF_SECONDS(60)

typedef struct wp_backoff {
  unsigned failures; /* consecutive failed attempts */
  uint64_t wait;     /* the current wait after a failure */
  uint64_t retry_at; /* no attempt before this */
} wp_backoff;

/* Whether an attempt at `now` is still too early. Half an interval of slack,
 * so a retry due "in one interval" is not pushed to the next one by the
 * scheduler's jitter. */
bool wp_backoff_waiting(const wp_backoff *b, uint64_t now, uint64_t interval);

/* An attempt that began at `started` failed (`auth`: a refused login): the
 * next wait, counted from `started` and also kept in b. Counted from the
 * attempt's start, not from the failure: an attempt that timed out after
 * most of an interval is retried at the next interval, so one slow answer
 * costs one interval, not two. */
uint64_t wp_backoff_failed(wp_backoff *b, bool auth, uint64_t started,
                           uint64_t interval);

/* An attempt succeeded: how many had failed before it (0: nothing to tell).
 * The next failure starts again at one interval. */
unsigned wp_backoff_recovered(wp_backoff *b);

#endif
