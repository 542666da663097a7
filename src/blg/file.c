/* collectd-winperf: reading a .blg file into memory (the module's one file
 * that does I/O; the reader itself works on bytes).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "blg_file.h"

#include "wp_grow.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int blg_read_file(const char *path, uint8_t **data, size_t *len,
                  wp_error *err) {
  *data = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return wp_error_errno(err, errno, "%s: cannot open", path);
  size_t cap = 0, n = 0;
  uint8_t *buf = NULL;
  for (;;) {
    if (n == cap) {
      int rc = wp_grow_bytes(&buf, &cap, n + 1, BLG_MAX_FILE_BYTES + 1);
      if (rc != WP_GROW_OK) {
        free(buf);
        fclose(f);
        return rc == WP_GROW_LIMIT
                   ? wp_error_set(err, "%s: larger than %zu MiB", path,
                                  (size_t)(BLG_MAX_FILE_BYTES >> 20))
                   : wp_error_set(err, "%s: out of memory reading it", path);
      }
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) {
      int e = errno;
      bool bad = ferror(f);
      fclose(f);
      if (bad) {
        free(buf);
        return wp_error_errno(err, e, "%s: read failed", path);
      }
      break;
    }
  }
  *data = buf;
  *len = n;
  return 0;
}
