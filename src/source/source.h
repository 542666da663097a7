/* collectd-winperf: where blobs come from.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * One small interface for every source (replay directory, the local
 * registry on Windows, a remote host through the helper program). A source
 * writes into a caller-owned buffer, so a consumer can keep the previous
 * sample's bytes alive (snapshots point into them) by alternating two
 * buffers, and steady-state collection allocates nothing.
 */
#ifndef WP_SOURCE_H
#define WP_SOURCE_H

#include <stddef.h>
#include <stdint.h>

typedef struct wp_buffer {
  uint8_t *data;
  size_t len; /* bytes of the current content */
  size_t cap; /* bytes allocated */
} wp_buffer;

/* Grow to at least `cap` bytes (keeps content). 0 on success, -1 on ENOMEM. */
int wp_buffer_reserve(wp_buffer *buf, size_t cap);
void wp_buffer_free(wp_buffer *buf);
void wp_buffer_swap(wp_buffer *a, wp_buffer *b);

typedef enum wp_source_status {
  WP_SOURCE_OK = 0,
  WP_SOURCE_ERROR = -1, /* this interval failed; errbuf says why; retry later */
  WP_SOURCE_END = 1,    /* a replay that does not loop has no more samples */
} wp_source_status;

typedef struct wp_source wp_source;
struct wp_source {
  const char *kind; /* "replay", "registry", "remote" */
  /* One performance-data blob for `query` (an object index list such as
   * "238 2 4", or "Global") into *out. */
  wp_source_status (*collect)(wp_source *src, const char *query, wp_buffer *out,
                              char *errbuf, size_t errlen);
  /* The English Counter name table, REG_MULTI_SZ UTF-16LE bytes, into *out. */
  wp_source_status (*names)(wp_source *src, wp_buffer *out, char *errbuf,
                            size_t errlen);
  /* Close and free the source. */
  void (*destroy)(wp_source *src);
};

#endif
