/* collectd-winperf: what tells a changed file: its modification time,
 * size, and its inode and device where the platform has them.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * For the CountersFile's live reload (reload.h), the inventories' (fleet.h)
 * and a paused credential's password file (credentials.h). No collectd
 * header. Windows: _stat64 gives no inode (0) and whole seconds: there it
 * is size, time and drive.
 */
#ifndef WP_PLUGIN_FILE_ID_H
#define WP_PLUGIN_FILE_ID_H

#include <stdbool.h>
#include <stdint.h>

typedef struct wp_file_id {
  int64_t mtime_s, mtime_ns, size;
  uint64_t ino, dev; /* 0 where the platform has none */
} wp_file_id;

/* The identity of `path` into *id (zeroed first). 0, or -1 with errno. */
int wp_file_id_of(const char *path, wp_file_id *id);

bool wp_file_id_same(const wp_file_id *a, const wp_file_id *b);

#endif
