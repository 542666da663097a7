/* collectd-winperf: the growable byte buffer sources write into.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "source.h"

#include "wp_grow.h"

#include <stdlib.h>

int wp_buffer_reserve(wp_buffer *buf, size_t cap) {
  return wp_grow_bytes(&buf->data, &buf->cap, cap, WP_BUFFER_MAX_BYTES) ==
                 WP_GROW_OK
             ? 0
             : -1;
}

void wp_buffer_free(wp_buffer *buf) {
  free(buf->data);
  buf->data = NULL;
  buf->len = buf->cap = 0;
}
