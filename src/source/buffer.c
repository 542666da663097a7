/* collectd-winperf: the growable byte buffer sources write into.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "source.h"

#include <stdlib.h>

int wp_buffer_reserve(wp_buffer *buf, size_t cap) {
  if (cap <= buf->cap)
    return 0;
  size_t want = buf->cap ? buf->cap : 4096;
  while (want < cap) {
    if (want > SIZE_MAX / 2) {
      want = cap;
      break;
    }
    want *= 2;
  }
  uint8_t *p = realloc(buf->data, want);
  if (p == NULL)
    return -1;
  buf->data = p;
  buf->cap = want;
  return 0;
}

void wp_buffer_free(wp_buffer *buf) {
  free(buf->data);
  buf->data = NULL;
  buf->len = buf->cap = 0;
}

void wp_buffer_swap(wp_buffer *a, wp_buffer *b) {
  wp_buffer t = *a;
  *a = *b;
  *b = t;
}
