/* collectd-winperf: MaxConcurrentConnects (connects.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "connects.h"

void wp_connects_init(wp_connects *c, unsigned max) {
  pthread_mutex_init(&c->lock, NULL);
  c->max = max;
  c->in_flight = 0;
}

void wp_connects_destroy(wp_connects *c) {
  pthread_mutex_destroy(&c->lock);
}

bool wp_connects_take(wp_connects *c) {
  pthread_mutex_lock(&c->lock);
  bool ok = c->in_flight < c->max;
  if (ok)
    c->in_flight++;
  pthread_mutex_unlock(&c->lock);
  return ok;
}

void wp_connects_give(wp_connects *c) {
  pthread_mutex_lock(&c->lock);
  if (c->in_flight > 0)
    c->in_flight--;
  pthread_mutex_unlock(&c->lock);
}
