/* collectd-winperf: a remote host's key files (remote_files.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "remote_files.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const what[WP_REMOTE_FILES] = {"credentials file", "keytab",
                                                  "ccache", "Krb5Config"};

/* A ticket cache is named "FILE:/path". */
static const char *file_of(const char *path) {
  return strncmp(path, "FILE:", 5) == 0 ? path + 5 : path;
}

void wp_remote_files_init(wp_remote_files *f, const char *credentials,
                          const char *keytab, const char *ccache,
                          const char *krb5_config) {
  memset(f, 0, sizeof(*f));
  const char *p[WP_REMOTE_FILES] = {credentials, keytab, ccache, krb5_config};
  for (int i = 0; i < WP_REMOTE_FILES; i++)
    f->path[i] = p[i] != NULL && p[i][0] != '\0' ? p[i] : NULL;
}

static void identity(const char *path, uint64_t *dev, uint64_t *ino) {
  struct stat st;
  *dev = *ino = 0;
  if (path != NULL && stat(file_of(path), &st) == 0) {
    *dev = (uint64_t)st.st_dev;
    *ino = (uint64_t)st.st_ino;
  }
}

void wp_remote_files_note(wp_remote_files *f) {
  for (int i = 0; i < WP_REMOTE_FILES; i++)
    identity(f->path[i], &f->dev[i], &f->ino[i]);
  f->noted = true;
}

int wp_remote_files_open(wp_remote_files *f, int fd[WP_REMOTE_FILES],
                         unsigned *mask, const char *host, wp_error *err) {
  int n = 0;
  *mask = 0;
  for (int i = 0; i < WP_REMOTE_FILES; i++) {
    f->dev[i] = f->ino[i] = 0;
    if (f->path[i] == NULL)
      continue;
    /* O_NONBLOCK: a FIFO named by mistake must not hang collectd */
    int d =
        open(file_of(f->path[i]), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    struct stat st;
    if (d < 0 || fstat(d, &st) != 0) {
      int e = errno;
      if (d >= 0)
        close(d);
      while (n > 0)
        close(fd[--n]);
      f->noted = false;
      wp_error_set(err, "remote %s: %s %s: %s", host, what[i],
                   file_of(f->path[i]), strerror(e));
      return -1;
    }
    f->dev[i] = (uint64_t)st.st_dev;
    f->ino[i] = (uint64_t)st.st_ino;
    fd[n++] = d;
    *mask |= 1u << i;
  }
  f->noted = true;
  return 0;
}

bool wp_remote_files_replaced(const wp_remote_files *f) {
  if (!f->noted)
    return false;
  for (int i = 0; i < WP_REMOTE_FILES; i++) {
    uint64_t dev, ino;
    identity(f->path[i], &dev, &ino);
    if (dev != f->dev[i] || ino != f->ino[i])
      return true;
  }
  return false;
}
