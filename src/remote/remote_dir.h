/* collectd-winperf: a helper's private directory.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Every helper keeps its state in a directory made for it alone
 * (src/remote/helper_private.h): libsmbclient's state, cache and lock
 * files and, when it logs on with Kerberos, its ticket caches
 * (src/remote/helper_krb5.h). Mode 0700, a fresh name under the plugin's
 * collectd BaseDir or, for the winperf tool, under $TMPDIR (else /tmp).
 * It is made before the helper starts and removed, with everything in it,
 * once the helper has ended, however it ended (wp_proc_reap: exited, or
 * killed). A helper started as root gives it to the user it becomes.
 */
#ifndef WP_SOURCE_REMOTE_DIR_H
#define WP_SOURCE_REMOTE_DIR_H

#include "wp_error.h"

/* Make "<parent>/<prefix>.XXXXXX" (parent NULL: $TMPDIR or /tmp), mode
 * 0700; *dir is then its malloc'd absolute path. 0, or -1 with err. */
int wp_private_dir_make(const char *parent, const char *prefix, char **dir,
                        wp_error *err);

/* Remove *dir and everything in it, free it and set it NULL (no-op for
 * NULL). What the helper left there is untrusted: nothing is followed out
 * of the directory (no symbolic link, no mount point), every step is made
 * relative to a directory already open, and the depth is bounded. */
void wp_private_dir_remove(char **dir);

#endif
