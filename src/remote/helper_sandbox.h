/* collectd-winperf: the helper's sandbox: the least privilege for the one
 * process that parses bytes chosen by Windows hosts.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * doc/winperf-remote.md (THE SANDBOX) says what a sandboxed helper can and
 * cannot do. In order, before the helper opens any connection:
 *   1. at its start it closes every descriptor it inherited but the frame
 *      stream and stderr (hsandbox_close_inherited);
 *   2. it reads what it needs: its credentials file, keytab, cache and
 *      krb5.conf (helper_files.h) and its private directory
 *      (helper_private.h), while it is still the user it was started as;
 *   3. started as root, it becomes HelperUser (--run-as; by default
 *      winperf-helper, the system user the .deb creates, else nobody)
 *      with that user's own groups: initgroups, setresgid, setresuid, and
 *      checks that root cannot come back; a user of uid 0 or group 0 is
 *      refused;
 *   4. it keeps no capability, is not dumpable (its memory and /proc files
 *      are closed to other processes of its user), and sets
 *      PR_SET_NO_NEW_PRIVS;
 *   5. it installs the seccomp filter of helper_filter.h.
 * A step that fails stops the helper with a message that says which and
 * why, unless --no-sandbox (HelperSandbox false) said to go on without it
 * (a warning at each start).
 */
#ifndef WP_REMOTE_HELPER_SANDBOX_H
#define WP_REMOTE_HELPER_SANDBOX_H

#include "helper_error.h"

#include <stddef.h>
#include <sys/types.h>

/* The user a root helper becomes when --run-as does not say. */
#define HSANDBOX_DEFAULT_USER "winperf-helper"
#define HSANDBOX_FALLBACK_USER "nobody"

typedef struct hsandbox_user {
  int change; /* started as root: become uid/gid */
  uid_t uid;
  gid_t gid;
  char name[64];
} hsandbox_user;

/* Close every descriptor above 2 (the inherited ones: the stream is 0 and
 * 1, stderr 2). */
void hsandbox_close_inherited(void);

/* Who to become: nobody to change into unless started as root; then
 * run_as (NULL: HSANDBOX_DEFAULT_USER, else HSANDBOX_FALLBACK_USER). 0, or
 * -1 with e (a user that does not exist, or is root). */
int hsandbox_user_find(const char *run_as, hsandbox_user *u, herr *e);

/* Steps 3 to 5 above. 0, or -1 with e naming the step. */
int hsandbox_enter(const hsandbox_user *u, herr *e);

#endif
