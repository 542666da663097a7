/* collectd-winperf: a helper's private directory for its Kerberos caches.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A helper that logs on with Kerberos keeps its tickets in FILE: caches
 * (src/remote/helper_krb5.h) in a directory made for it alone: mode 0700,
 * a fresh name under the plugin's collectd BaseDir or, for the winperf
 * tool, under $TMPDIR (else /tmp). It is made before the helper starts
 * and removed, with the caches in it, once the helper has ended, however
 * it ended (wp_proc_reap: exited, or killed).
 */
#ifndef WP_SOURCE_REMOTE_DIR_H
#define WP_SOURCE_REMOTE_DIR_H

#include "wp_error.h"

/* Make "<parent>/winperf-krb5.XXXXXX" (parent NULL: $TMPDIR or /tmp),
 * mode 0700; *dir is then its malloc'd path. 0, or -1 with err. */
int wp_private_dir_make(const char *parent, char **dir, wp_error *err);

/* Remove the files in *dir and *dir itself, free it and set it NULL (no-op
 * for NULL). Subdirectories are not followed: a helper makes none. */
void wp_private_dir_remove(char **dir);

#endif
