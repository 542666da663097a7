/* collectd-winperf: a failing <Host>'s wait (backoff.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "backoff.h"

bool wp_backoff_waiting(const wp_backoff *b, uint64_t now, uint64_t interval) {
  return b->failures > 0 && now + interval / 2 < b->retry_at;
}

uint64_t wp_backoff_failed(wp_backoff *b, bool auth, uint64_t started,
                           uint64_t interval) {
  uint64_t cap = interval > WP_BACKOFF_MAX ? interval : WP_BACKOFF_MAX;
  uint64_t d = b->failures == 0 ? interval : 2 * b->wait;
  if (auth && d < WP_BACKOFF_AUTH)
    d = WP_BACKOFF_AUTH;
  if (d > cap)
    d = cap;
  b->wait = d;
  b->failures++;
  b->retry_at = started + d;
  return d;
}

unsigned wp_backoff_recovered(wp_backoff *b) {
  unsigned failures = b->failures;
  b->failures = 0;
  b->wait = 0;
  return failures;
}
