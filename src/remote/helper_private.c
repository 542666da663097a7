/* collectd-winperf: the helper's private directory (helper_private.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "helper_private.h"
#include "remote_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SYSTEM_SMB_CONF "/etc/samba/smb.conf"

/* A name for the directory that needs no access to its parents: the
 * descriptor's, when /proc says it is the same directory. */
static void name_it(hprivate *p, const char *dir, const struct stat *st) {
  struct stat via;
  snprintf(p->path, sizeof(p->path), "/proc/self/fd/%d", p->fd);
  if (stat(p->path, &via) != 0 || via.st_dev != st->st_dev ||
      via.st_ino != st->st_ino)
    snprintf(p->path, sizeof(p->path), "%s", dir); /* no /proc */
}

int hprivate_open(hprivate *p, const char *dir, herr *e) {
  p->fd = -1;
  p->made[0] = p->smb_conf[0] = '\0';
  if (dir == NULL) {
    char *m = NULL;
    wp_error we = {0};
    if (wp_private_dir_make(NULL, "winperf-helper", &m, &we) != 0)
      return herr_set(e, WPR_ERR_CONFIG, "%s", we.message);
    snprintf(p->made, sizeof(p->made), "%s", m);
    free(m);
    dir = p->made;
  }
  if (dir[0] != '/')
    return herr_set(e, WPR_ERR_CONFIG,
                    "private directory %s: an absolute path is needed", dir);
  p->fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (p->fd < 0 || fstat(p->fd, &st) != 0)
    return herr_set(e, WPR_ERR_CONFIG, "private directory %s: %s", dir,
                    strerror(errno));
  /* Made for this helper alone: ours, closed to everyone else. */
  if (st.st_uid != geteuid() || (st.st_mode & 077) != 0)
    return herr_set(e, WPR_ERR_CONFIG,
                    "private directory %s: owned by uid %u with mode %04o; "
                    "expected uid %u and mode 0700",
                    dir, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777),
                    (unsigned)geteuid());
  name_it(p, dir, &st);
  return 0;
}

int hprivate_give(hprivate *p, uid_t uid, gid_t gid, herr *e) {
  if (fchown(p->fd, uid, gid) != 0)
    return herr_set(e, WPR_ERR_CONFIG,
                    "private directory %s: cannot give it to uid %u: %s",
                    p->path, (unsigned)uid, strerror(errno));
  return 0;
}

/* libsmbclient's smb.conf: the operator's settings first (included: the
 * client settings of doc/winperf-remote.md apply), then, in a [global]
 * section of its own (the included file may end in a share), every
 * directory Samba keeps state, caches or locks in. */
static int write_conf(hprivate *p, const char *smb_conf, herr *e) {
  const char *conf = smb_conf ? smb_conf : SYSTEM_SMB_CONF;
  int have = access(conf, F_OK) == 0;
  if (have && access(conf, R_OK) != 0)
    return herr_set(e, WPR_ERR_CONFIG,
                    "%s is not readable by the helper's user (uid %u): its "
                    "client settings would be lost; make it readable "
                    "(chmod 644)",
                    conf, (unsigned)geteuid());
  if (!have && smb_conf != NULL)
    return herr_set(e, WPR_ERR_CONFIG, "cannot load %s: %s", conf,
                    strerror(errno));
  int fd = openat(p->fd, "smb.conf",
                  O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (f == NULL) {
    int err = errno;
    if (fd >= 0)
      close(fd);
    return herr_set(e, WPR_ERR_CONFIG, "cannot write %s/smb.conf: %s", p->path,
                    strerror(err));
  }
  fprintf(f, "# winperf-remote-helper: its own libsmbclient settings\n");
  if (have)
    fprintf(f, "[global]\n\tinclude = %s\n", conf);
  fprintf(f, "[global]\n");
  static const char *const dirs[] = {
      "lock directory", "state directory", "cache directory", "private dir",
      "pid directory",  "ncalrpc dir",     "binddns dir"};
  for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
    fprintf(f, "\t%s = %s\n", dirs[i], p->path);
  if (fclose(f) != 0)
    return herr_set(e, WPR_ERR_CONFIG, "cannot write %s/smb.conf: %s", p->path,
                    strerror(errno));
  snprintf(p->smb_conf, sizeof(p->smb_conf), "%s/smb.conf", p->path);
  return 0;
}

int hprivate_fill(hprivate *p, const char *smb_conf, herr *e) {
  if (write_conf(p, smb_conf, e) != 0)
    return -1;
  /* Libraries look for their settings and scratch files there (Samba:
   * ~/.smb/smb.conf), never in the home of the user the helper was. */
  setenv("HOME", p->path, 1);
  setenv("TMPDIR", p->path, 1);
  return 0;
}

void hprivate_close(hprivate *p) {
  if (p->fd >= 0)
    close(p->fd);
  p->fd = -1;
  if (p->made[0] != '\0') {
    char *dir = strdup(p->made);
    wp_private_dir_remove(&dir);
    p->made[0] = '\0';
  }
}
