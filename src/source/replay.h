/* collectd-winperf: the replay source (a capture directory).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A capture directory holds `*.blob` files (each the raw bytes of one
 * RegQueryValueEx answer) and `names.multisz` (the English Counter table,
 * REG_MULTI_SZ UTF-16LE), and may hold `last-counter` (Perflib's Last
 * Counter of the captured host, decimal text: wp_source_last_counter). The
 * blobs are listed once at open, sorted by name (byte order), and returned
 * one per collect call; the query is ignored.
 * A path ending in .blg is a Perfmon binary log instead (replay_blg.h).
 */
#ifndef WP_REPLAY_H
#define WP_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "source.h"

/* Largest blob or names file the replay source reads. */
#define WP_REPLAY_MAX_BYTES ((size_t)256 * 1024 * 1024)
/* Most *.blob files a capture directory may hold. */
#define WP_REPLAY_MAX_FILES 1000000

/* Open the capture directory `dir`. After the last blob, collect starts
 * again with the first when `loop`, else it returns WP_SOURCE_END (and keeps
 * doing so). Returns NULL with a message naming the directory and the reason
 * in err (no *.blob files, unreadable directory, no memory). */
wp_source *wp_replay_open(const char *dir, bool loop, wp_error *err);

/* The path of the file the last collect or names call read (or tried to
 * read), for log lines; NULL before the first call or for another kind of
 * source. Owned by the source. */
const char *wp_replay_last_file(const wp_source *src);

/* How many blobs the directory holds. 0 for another kind of source. */
size_t wp_replay_blob_count(const wp_source *src);

#endif
