/* collectd-winperf: the files the helper holds open (helper_files.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "helper_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define COPY_MAX (16u * 1024u * 1024u)

void hreceived_close(hreceived *rx) {
  for (unsigned i = 0; i < rx->n; i++)
    close(rx->fd[i]);
  rx->n = 0;
  rx->overflow = 0;
}

void hfile_open(hfile *f, const char *path) {
  f->fd = -1;
  f->err = 0;
  if (path == NULL || path[0] == '\0')
    return;
  if (strncmp(path, "FILE:", 5) == 0)
    path += 5;
  /* O_NONBLOCK: a FIFO named by mistake must not hang the start */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) {
    f->err = errno;
    return;
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0)
    (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  f->fd = fd;
}

void hfile_adopt(hfile *f, int fd) {
  f->fd = fd;
  f->err = fd < 0 ? EBADF : 0;
}

void hfile_close(hfile *f) {
  if (f->fd >= 0)
    close(f->fd);
  f->fd = -1;
  f->err = 0;
}

int hfile_given(const hfile *f) {
  return f->fd >= 0 || f->err != 0;
}

int hfile_stat(const hfile *f, struct stat *st) {
  if (f->fd < 0) {
    errno = f->err ? f->err : ENOENT;
    return -1;
  }
  return fstat(f->fd, st);
}

FILE *hfile_stream(const hfile *f) {
  if (f->fd < 0) {
    errno = f->err ? f->err : ENOENT;
    return NULL;
  }
  /* A descriptor of its own (the held one stays open), read from the
   * start: the two share the file offset, which nothing else uses. */
  int d = fcntl(f->fd, F_DUPFD_CLOEXEC, 0);
  if (d < 0)
    return NULL;
  FILE *s = lseek(d, 0, SEEK_SET) == 0 ? fdopen(d, "r") : NULL;
  if (s == NULL) {
    int e = errno;
    close(d);
    errno = e;
  }
  return s;
}

/* The held file's bytes into the memfd m, from offset 0 (pread: the held
 * descriptor's offset stays). */
static int copy_into(int from, int m) {
  uint8_t buf[8192];
  off_t off = 0;
  for (;;) {
    ssize_t n = pread(from, buf, sizeof(buf), off);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return -1;
    if (n == 0)
      break;
    if ((uint64_t)off + (uint64_t)n > COPY_MAX) {
      errno = EFBIG;
      return -1;
    }
    for (ssize_t w = 0; w < n;) {
      ssize_t k = write(m, buf + w, (size_t)(n - w));
      if (k < 0 && errno == EINTR)
        continue;
      if (k < 0)
        return -1;
      w += k;
    }
    off += n;
  }
  explicit_bzero(buf, sizeof(buf));
  return 0;
}

int hfile_copy(const hfile *f, const char *prefix, char *name, size_t cap) {
  if (f->fd < 0) {
    errno = f->err ? f->err : ENOENT;
    return -1;
  }
  int m = memfd_create("winperf-helper-copy", MFD_CLOEXEC);
  if (m < 0)
    return -1;
  if (copy_into(f->fd, m) != 0 || lseek(m, 0, SEEK_SET) != 0) {
    int e = errno;
    close(m);
    errno = e;
    return -1;
  }
  snprintf(name, cap, "%s/proc/self/fd/%d", prefix, m);
  return m;
}
