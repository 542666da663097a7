/* collectd-winperf: MaxConcurrentConnects, the requests in flight that
 * start a helper or log on, capped per <Plugin winperf> block.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A fleet (fleet.h) owns one; each of its hosts (host.h) takes a place
 * before such a request and gives it back after, or skips its interval
 * when none is free. No collectd header.
 */
#ifndef WP_PLUGIN_CONNECTS_H
#define WP_PLUGIN_CONNECTS_H

#include <pthread.h>
#include <stdbool.h>

typedef struct wp_connects {
  pthread_mutex_t lock;
  unsigned max, in_flight;
} wp_connects;

void wp_connects_init(wp_connects *c, unsigned max);
void wp_connects_destroy(wp_connects *c);
/* A place, or false when all max are taken. */
bool wp_connects_take(wp_connects *c);
void wp_connects_give(wp_connects *c);

#endif
