/* collectd-winperf: the winperf tool's files: blobs and name tables in,
 * captures out. Copyright (c) 2026 the collectd-winperf authors.
 * SPDX-License-Identifier: MIT
 */
#include "cli.h"
#include "wp_grow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef _WIN32
#include <direct.h>
#endif

bool cli_read_file(const char *path, uint8_t **data, size_t *len) {
  *data = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    cli_error("%s: cannot open: %s", path, strerror(errno));
    return false;
  }
  /* Read in growing chunks rather than trusting a seek/tell size, so pipes
   * and special files work too; stop at the bound. */
  size_t cap = 0, n = 0;
  uint8_t *buf = NULL;
  for (;;) {
    if (n == cap) {
      /* One byte past the cap tells "exactly at the limit" from "above". */
      int rc = wp_grow_bytes(&buf, &cap, n + 1, CLI_MAX_FILE_SIZE + 1);
      if (rc != WP_GROW_OK) {
        free(buf);
        fclose(f);
        if (rc == WP_GROW_LIMIT)
          cli_error("%s: larger than the %zu MiB limit", path,
                    CLI_MAX_FILE_SIZE >> 20);
        else
          cli_error("%s: out of memory reading the file", path);
        return false;
      }
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) {
      if (ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        cli_error("%s: read error at offset 0x%zx: %s", path, n,
                  e ? strerror(e) : "I/O error");
        return false;
      }
      break;
    }
  }
  fclose(f);
  if (n > CLI_MAX_FILE_SIZE) {
    free(buf);
    cli_error("%s: larger than the %zu MiB limit", path,
              CLI_MAX_FILE_SIZE >> 20);
    return false;
  }
  *data = buf;
  *len = n;
  return true;
}

bool cli_load_names(const char *path, pd_names **names) {
  uint8_t *data;
  size_t len;
  *names = NULL;
  if (!cli_read_file(path, &data, &len))
    return false;
  pd_error err = {0};
  pd_status st = pd_names_parse(data, len, names, &err);
  free(data);
  if (st != PD_OK) {
    cli_error_at(path, &err);
    return false;
  }
  return true;
}

bool cli_blob_load(cli_blob *b) {
  if (!cli_read_file(b->file, &b->data, &b->len))
    return false;
  b->snap = pd_snapshot_new();
  if (b->snap == NULL) {
    cli_error("%s: out of memory", b->file);
    return false;
  }
  pd_error err = {0};
  if (pd_decode(b->snap, b->data, b->len, NULL, &err) != PD_OK) {
    cli_error_at(b->file, &err);
    return false;
  }
  return true;
}

void cli_blob_clear(cli_blob *b) {
  if (b->snap != NULL)
    pd_snapshot_free(b->snap);
  free(b->data);
  b->snap = NULL;
  b->data = NULL;
  b->len = 0;
}

bool cli_write_file(const char *path, const uint8_t *data, size_t len) {
  FILE *f = fopen(path, "wb");
  bool ok = f != NULL && fwrite(data, 1, len, f) == len;
  if (f != NULL && fclose(f) != 0)
    ok = false;
  if (!ok)
    cli_error("%s: cannot write: %s", path, strerror(errno));
  return ok;
}

bool cli_make_dir(const char *dir) {
#ifdef _WIN32
  int rc = _mkdir(dir);
#else
  int rc = mkdir(dir, 0777);
#endif
  if (rc == 0 || errno == EEXIST)
    return true;
  cli_error("%s: cannot create the directory: %s", dir, strerror(errno));
  return false;
}
