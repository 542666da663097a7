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

/* Deeper than anything libsmbclient or krb5 makes (Samba: a level or two). */
#define REMOVE_DEPTH 8

int wp_private_dir_make(const char *parent, const char *prefix, char **dir,
                        wp_error *err) {
  if (parent == NULL || parent[0] == '\0')
    parent = getenv("TMPDIR");
  if (parent == NULL || parent[0] == '\0')
    parent = "/tmp";
  size_t n = strlen(parent) + strlen(prefix) + sizeof("/.XXXXXX");
  char *path = malloc(n);
  if (path == NULL) {
    wp_error_set_code(err, WP_E_NOMEM, "remote: out of memory");
    return -1;
  }
  snprintf(path, n, "%s/%s.XXXXXX", parent, prefix);
  /* mkdtemp makes it 0700 and unique, whatever the umask */
  if (mkdtemp(path) == NULL) {
    wp_error_set(err,
                 "remote: cannot make a private directory for the helper "
                 "under %s: %s",
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

/* Empty the open directory fd (closed here). Entries are unlinked; a
 * subdirectory is opened with O_NOFOLLOW relative to fd and emptied
 * first, never left through a symbolic link or into another file system. */
static void empty_dir(int fd, dev_t dev, int depth) {
  DIR *d = fdopendir(fd);
  if (d == NULL) {
    close(fd);
    return;
  }
  for (struct dirent *ent; (ent = readdir(d)) != NULL;) {
    const char *name = ent->d_name;
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
      continue;
    if (unlinkat(dirfd(d), name, 0) == 0 || errno != EISDIR)
      continue;
    int sub =
        openat(dirfd(d), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (sub >= 0 && depth < REMOVE_DEPTH && fstat(sub, &st) == 0 &&
        st.st_dev == dev)
      empty_dir(sub, dev, depth + 1);
    else if (sub >= 0)
      close(sub);
    (void)unlinkat(dirfd(d), name, AT_REMOVEDIR);
  }
  closedir(d);
}

void wp_private_dir_remove(char **dir) {
  if (dir == NULL || *dir == NULL)
    return;
  int fd = open(*dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) == 0)
    empty_dir(fd, st.st_dev, 0);
  else if (fd >= 0)
    close(fd);
  (void)rmdir(*dir);
  free(*dir);
  *dir = NULL;
}
