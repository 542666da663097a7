/* collectd-winperf: the helper's sandbox (helper_sandbox.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "helper_sandbox.h"
#include "helper_filter.h"

#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

void hsandbox_close_inherited(void) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, 3u, ~0u, 0u) == 0)
    return;
#endif
  /* No close_range (before Linux 5.9): what /proc lists, else a range. */
  DIR *d = opendir("/proc/self/fd");
  if (d == NULL) {
    long max = sysconf(_SC_OPEN_MAX);
    for (long fd = 3; fd < (max > 0 ? max : 65536); fd++)
      (void)close((int)fd);
    return;
  }
  int keep = dirfd(d);
  for (struct dirent *ent; (ent = readdir(d)) != NULL;) {
    int fd = atoi(ent->d_name);
    if (fd > 2 && fd != keep)
      (void)close(fd);
  }
  closedir(d);
}

int hsandbox_user_find(const char *run_as, hsandbox_user *u, herr *e) {
  memset(u, 0, sizeof(*u));
  if (geteuid() != 0 && getuid() != 0)
    return 0; /* not root: stays who it is */
  const char *name = run_as ? run_as : HSANDBOX_DEFAULT_USER;
  struct passwd *pw = getpwnam(name);
  if (pw == NULL && run_as == NULL)
    pw = getpwnam(name = HSANDBOX_FALLBACK_USER);
  if (pw == NULL)
    return herr_set(e, WPR_ERR_CONFIG,
                    "sandbox: no user %s to run as (HelperUser)%s", name,
                    run_as ? "" : " and no nobody either");
  if (pw->pw_uid == 0 || pw->pw_gid == 0)
    return herr_set(e, WPR_ERR_CONFIG,
                    "sandbox: HelperUser %s has uid %u and group %u: a user "
                    "other than root, in a group other than root's, is "
                    "needed",
                    name, (unsigned)pw->pw_uid, (unsigned)pw->pw_gid);
  u->change = 1;
  u->uid = pw->pw_uid;
  u->gid = pw->pw_gid;
  snprintf(u->name, sizeof(u->name), "%s", pw->pw_name);
  return 0;
}

/* Step 3: the user's own groups, then its group and user, all three ids. */
static int become(const hsandbox_user *u, herr *e) {
  if (initgroups(u->name, u->gid) != 0)
    return herr_set(e, WPR_ERR_OTHER, "sandbox: initgroups(%s): %s", u->name,
                    strerror(errno));
  if (setresgid(u->gid, u->gid, u->gid) != 0)
    return herr_set(e, WPR_ERR_OTHER, "sandbox: setresgid(%u): %s",
                    (unsigned)u->gid, strerror(errno));
  if (setresuid(u->uid, u->uid, u->uid) != 0)
    return herr_set(e, WPR_ERR_OTHER, "sandbox: setresuid(%u): %s",
                    (unsigned)u->uid, strerror(errno));
  uid_t r, ef, s;
  gid_t gr, ge, gs;
  if (getresuid(&r, &ef, &s) != 0 || getresgid(&gr, &ge, &gs) != 0 ||
      r != u->uid || ef != u->uid || s != u->uid || gr != u->gid ||
      ge != u->gid || gs != u->gid || setuid(0) == 0 || setgid(0) == 0)
    return herr_set(e, WPR_ERR_OTHER,
                    "sandbox: still able to become root after becoming %s",
                    u->name);
  return 0;
}

/* Step 4: no capability left (a helper started by a non-root collectd
 * given ambient capabilities keeps them otherwise), not dumpable, no new
 * privileges. */
static int lock_down(herr *e) {
  (void)prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2];
  memset(data, 0, sizeof(data));
  if (syscall(SYS_capset, &hdr, data) != 0)
    return herr_set(e, WPR_ERR_OTHER, "sandbox: capset: %s", strerror(errno));
  if (syscall(SYS_capget, &hdr, data) != 0 || data[0].effective ||
      data[0].permitted || data[1].effective || data[1].permitted)
    return herr_set(e, WPR_ERR_OTHER, "sandbox: capabilities remain");
  if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
    return herr_set(e, WPR_ERR_OTHER, "sandbox: PR_SET_DUMPABLE: %s",
                    strerror(errno));
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return herr_set(e, WPR_ERR_OTHER, "sandbox: PR_SET_NO_NEW_PRIVS: %s",
                    strerror(errno));
  return 0;
}

int hsandbox_enter(const hsandbox_user *u, herr *e) {
  if (u->change && become(u, e) != 0)
    return -1;
  if (lock_down(e) != 0)
    return -1;
  char why[256];
  if (hfilter_install(why, sizeof(why)) != 0)
    return herr_set(e, WPR_ERR_OTHER, "sandbox: seccomp filter: %s", why);
  return 0;
}
