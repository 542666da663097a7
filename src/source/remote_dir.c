/* collectd-winperf: a helper's private directory (remote_dir.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "remote_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int wp_private_dir_make(const char *parent, char **dir, wp_error *err) {
  if (parent == NULL || parent[0] == '\0')
    parent = getenv("TMPDIR");
  if (parent == NULL || parent[0] == '\0')
    parent = "/tmp";
  size_t n = strlen(parent) + sizeof("/winperf-krb5.XXXXXX");
  char *path = malloc(n);
  if (path == NULL) {
    wp_error_set_code(err, WP_E_NOMEM, "remote: out of memory");
    return -1;
  }
  snprintf(path, n, "%s/winperf-krb5.XXXXXX", parent);
  /* mkdtemp makes it 0700 and unique, whatever the umask */
  if (mkdtemp(path) == NULL) {
    wp_error_set(err,
                 "remote: cannot make a private directory for the Kerberos "
                 "caches under %s: %s",
                 parent, strerror(errno));
    free(path);
    return -1;
  }
  /* The helper needs it absolute (collectd's BaseDir may be relative). */
  char *full = path[0] == '/' ? NULL : realpath(path, NULL);
  if (full != NULL) {
    free(path);
    path = full;
  }
  *dir = path;
  return 0;
}

void wp_private_dir_remove(char **dir) {
  if (dir == NULL || *dir == NULL)
    return;
  int fd = open(*dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  if (d == NULL && fd >= 0)
    close(fd);
  for (struct dirent *ent; d != NULL && (ent = readdir(d)) != NULL;) {
    if (strcmp(ent->d_name, ".") != 0 && strcmp(ent->d_name, "..") != 0)
      (void)unlinkat(dirfd(d), ent->d_name, 0);
  }
  if (d != NULL)
    closedir(d);
  (void)rmdir(*dir);
  free(*dir);
  *dir = NULL;
}
