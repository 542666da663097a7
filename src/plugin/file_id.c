/* collectd-winperf: what tells a changed file (file_id.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "file_id.h"

#include <string.h>
#include <sys/stat.h>

int wp_file_id_of(const char *path, wp_file_id *id) {
  memset(id, 0, sizeof(*id));
#ifdef _WIN32
  struct _stat64 st;
  if (_stat64(path, &st) != 0)
    return -1;
  id->mtime_s = (int64_t)st.st_mtime;
#else
  struct stat st;
  if (stat(path, &st) != 0)
    return -1;
  id->mtime_s = (int64_t)st.st_mtim.tv_sec;
  id->mtime_ns = (int64_t)st.st_mtim.tv_nsec;
#endif
  id->size = (int64_t)st.st_size;
  id->ino = (uint64_t)st.st_ino;
  id->dev = (uint64_t)st.st_dev;
  return 0;
}

bool wp_file_id_same(const wp_file_id *a, const wp_file_id *b) {
  return a->mtime_s == b->mtime_s && a->mtime_ns == b->mtime_ns &&
         a->size == b->size && a->ino == b->ino && a->dev == b->dev;
}
