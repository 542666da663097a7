/* collectd-winperf: the helper's private directory: libsmbclient's state,
 * cache and lock directories, and the Kerberos caches.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The plugin (or the winperf tool) makes a directory for each helper it
 * starts (mode 0700, src/source/remote_dir.h) and names it with
 * --private-dir, or --krb5-dir for a helper that logs on with Kerberos;
 * it removes it once the helper has ended. A helper started without one
 * makes its own under $TMPDIR (else /tmp) and removes it when it exits.
 *
 * The helper opens the directory while it is still the user it started
 * as, hands it to the user it becomes (fchown) and names it through the
 * open descriptor from then on (/proc/self/fd/N): what lies between the
 * directory and / (collectd's BaseDir, a test's 0700 directory) need not
 * be open to that user. libsmbclient gets a configuration of the
 * helper's own there (smb.conf: the operator's file, included, then every
 * directory Samba keeps state in pointed at this one), so helpers never
 * share /run/samba, /var/cache/samba or /var/lib/samba; HOME and TMPDIR
 * point there too.
 */
#ifndef WP_REMOTE_HELPER_PRIVATE_H
#define WP_REMOTE_HELPER_PRIVATE_H

#include "helper_error.h"

#include <limits.h>
#include <sys/types.h>

typedef struct hprivate {
  int fd;              /* the directory; -1: none */
  char path[PATH_MAX]; /* its name for the libraries: /proc/self/fd/N */
  char made[PATH_MAX]; /* made by the helper itself (removed at exit) */
  char smb_conf[PATH_MAX + 16]; /* libsmbclient's configuration in it */
} hprivate;

/* Open dir (NULL: make one under $TMPDIR or /tmp). It must be a directory
 * (not a symbolic link) of this user, closed to group and others. 0, or
 * -1 with e (kind config). */
int hprivate_open(hprivate *p, const char *dir, herr *e);

/* Give it to the user the helper becomes (before it does). */
int hprivate_give(hprivate *p, uid_t uid, gid_t gid, herr *e);

/* After the drop: write libsmbclient's configuration (the operator's
 * smb_conf, NULL: /etc/samba/smb.conf, included when it exists), set HOME
 * and TMPDIR. 0, or -1 with e. */
int hprivate_fill(hprivate *p, const char *smb_conf, herr *e);

/* At exit: a directory the helper made itself goes, with what is in it. */
void hprivate_close(hprivate *p);

#endif
