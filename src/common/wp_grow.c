/* collectd-winperf: the growth helper (wp_grow.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "wp_grow.h"

#include <stdlib.h>
#include <string.h>

/* The capacity to grow to: doubling from max(cap, first), at least need,
 * at most max. Caller guarantees cap < need <= max. */
static size_t next_capacity(size_t cap, size_t need, size_t first, size_t max) {
  size_t n = cap > first ? cap : first;
  if (n > max)
    n = max;
  while (n < need)
    n = n > max / 2 ? max : n * 2;
  return n;
}

static int grow(void *arrayp, size_t *cap, size_t need, size_t elem,
                size_t first, size_t max_elems) {
  if (need <= *cap)
    return WP_GROW_OK;
  if (elem == 0)
    return WP_GROW_LIMIT; /* a caller bug: no size makes sense */
  size_t max = SIZE_MAX / elem;
  if (max_elems < max)
    max = max_elems;
  if (need > max)
    return WP_GROW_LIMIT;
  size_t ncap = next_capacity(*cap, need, first, max);
  void *old;
  memcpy(&old, arrayp, sizeof old);
  void *p = realloc(old, ncap * elem);
  if (p == NULL)
    return WP_GROW_NOMEM;
  memcpy(arrayp, &p, sizeof p);
  *cap = ncap;
  return WP_GROW_OK;
}

int wp_grow(void *arrayp, size_t *cap, size_t need, size_t elem,
            size_t max_elems) {
  return grow(arrayp, cap, need, elem, WP_GROW_FIRST_ELEMS, max_elems);
}

int wp_grow_bytes(void *bufp, size_t *cap, size_t need, size_t max_bytes) {
  return grow(bufp, cap, need, 1, WP_GROW_FIRST_BYTES, max_bytes);
}

int wp_resize(void *arrayp, size_t n, size_t elem) {
  if (n == 0)
    return WP_GROW_OK;
  if (elem == 0 || n > SIZE_MAX / elem)
    return WP_GROW_LIMIT;
  void *old;
  memcpy(&old, arrayp, sizeof old);
  void *p = realloc(old, n * elem);
  if (p == NULL)
    return WP_GROW_NOMEM;
  memcpy(arrayp, &p, sizeof p);
  return WP_GROW_OK;
}
