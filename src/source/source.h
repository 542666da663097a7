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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wp_error.h"

typedef struct wp_buffer {
  uint8_t *data;
  size_t len; /* bytes of the current content */
  size_t cap; /* bytes allocated */
} wp_buffer;

/* The largest buffer a source grows: far above any performance-data blob
 * or name table, a bound on a peer or registry that keeps asking for more. */
#define WP_BUFFER_MAX_BYTES ((size_t)1024 * 1024 * 1024)

/* Grow to at least `cap` bytes (keeps content; doubling, wp_grow.h). 0 on
 * success, -1 without memory or above WP_BUFFER_MAX_BYTES. */
int wp_buffer_reserve(wp_buffer *buf, size_t cap);
void wp_buffer_free(wp_buffer *buf);

typedef enum wp_source_status {
  WP_SOURCE_OK = 0,
  WP_SOURCE_ERROR = -1, /* this interval failed; err says why; retry later */
  WP_SOURCE_END = 1,    /* a replay that does not loop has no more samples */
} wp_source_status;

/* The kind of a failed call, for a caller's retry policy and log lines. The
 * values are the remote helper's error kinds (src/remote/frame.h), so the
 * remote source passes them through unchanged. */
typedef enum wp_source_fault {
  WP_SOURCE_FAULT_NONE = -1, /* the last call succeeded */
  WP_SOURCE_FAULT_OTHER = 0,
  WP_SOURCE_FAULT_AUTH = 1, /* credentials refused: do not retry fast */
  WP_SOURCE_FAULT_CONNECT = 2,
  WP_SOURCE_FAULT_TIMEOUT = 3,
  WP_SOURCE_FAULT_PROTOCOL = 4,
  WP_SOURCE_FAULT_SERVER = 5,
  WP_SOURCE_FAULT_CONFIG = 6,
  WP_SOURCE_FAULT_REQUEST = 7,
  WP_SOURCE_FAULT_ACCESS = 8,   /* logged on, then access denied: this
                                 * host's rights, not the credentials */
  WP_SOURCE_FAULT_HELPER = 100, /* the helper could not start or died */
} wp_source_fault;

typedef struct wp_source wp_source;
struct wp_source {
  const char *kind; /* "replay", "registry", "remote" */
  /* One performance-data blob for `query` (an object index list such as
   * "238 2 4", or "Global") into *out. */
  wp_source_status (*collect)(wp_source *src, const char *query, wp_buffer *out,
                              wp_error *err);
  /* The English Counter name table, REG_MULTI_SZ UTF-16LE bytes, into *out. */
  wp_source_status (*names)(wp_source *src, wp_buffer *out, wp_error *err);
  /* Close and free the source. */
  void (*destroy)(wp_source *src);
  /* Optional, NULL when the source cannot tell: the kind of the last
   * failure. Read it through wp_source_last_fault. */
  wp_source_fault (*fault)(const wp_source *src);
  /* Optional, NULL when the table cannot change under a running source:
   * whether the name table changed since it was last fetched (counters
   * installed or removed), so the caller fetches it again. */
  bool (*names_changed)(wp_source *src);
  /* Optional, NULL for a source that never logs on: whether the next
   * request goes over an established session (no helper start, no logon).
   * Read it through wp_source_connected. */
  bool (*connected)(const wp_source *src);
  /* Optional, NULL when the source cannot tell: Perflib's Last Counter, the
   * highest name index in use (format.md 4.1), as the registry (or a
   * capture's `last-counter` file) says; 0 when unknown. The Counter table's
   * leading "1" pair is not it. Read it through wp_source_last_counter. */
  uint32_t (*last_counter)(wp_source *src);
};

/* The kind of the last failure; WP_SOURCE_FAULT_OTHER for a source that
 * cannot tell. */
wp_source_fault wp_source_last_fault(const wp_source *src);
/* A short description of a fault for log lines ("timeout", ...). */
const char *wp_source_fault_name(wp_source_fault fault);
/* src->connected; true for a source without it (nothing to log on to). */
bool wp_source_connected(const wp_source *src);
/* src->names_changed, false for a source without it. */
bool wp_source_names_changed(wp_source *src);
/* src->last_counter, 0 (unknown) for a source without it. */
uint32_t wp_source_last_counter(wp_source *src);

#endif
