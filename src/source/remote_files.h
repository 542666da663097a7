/* collectd-winperf: the files a remote host's helper reads its keys from,
 * as the plugin side sees them.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A host's credentials file, keytab, ticket cache and krb5.conf. A
 * sandboxed helper (src/remote/helper_sandbox.h) holds them open from its
 * start, or from its session's OPEN, for which this side opens them and
 * passes the descriptors (src/remote/helper_files.h, doc/remote-protocol.md
 * 5.4); it may not open them again itself. A file replaced by another one
 * (a rename: an editor's new file, k5start's or kinit's new cache, a keytab
 * exported again) would stay unseen: before each exchange the remote source
 * asks whether a path still names the file the helper holds, and gives
 * the host a new helper (a helper of its own) or a new session (a shared
 * helper) when not, which opens the new one. A file changed in place is
 * read by the helper itself at its next logon.
 */
#ifndef WP_SOURCE_REMOTE_FILES_H
#define WP_SOURCE_REMOTE_FILES_H

#include "wp_error.h"

#include <stdbool.h>
#include <stdint.h>

#define WP_REMOTE_FILES 4 /* credentials, keytab, ccache, krb5.conf */

typedef struct wp_remote_files {
  const char *path[WP_REMOTE_FILES]; /* NULL: not given; ccache "FILE:..." */
  /* What each path named when the helper got it: 0 when it named nothing */
  uint64_t dev[WP_REMOTE_FILES], ino[WP_REMOTE_FILES];
  bool noted;
} wp_remote_files;

/* The host's files (any may be NULL); nothing noted yet. */
void wp_remote_files_init(wp_remote_files *f, const char *credentials,
                          const char *keytab, const char *ccache,
                          const char *krb5_config);

/* Note what the paths name now: a helper that opens them itself is about
 * to start. */
void wp_remote_files_note(wp_remote_files *f);

/* Open the named files for an OPEN, noting them: fd[k] for the k-th bit of
 * *mask (bit i: file i, frame_session.h's order); close them once sent.
 * 0, or -1 with err (WP_E_FAILED: "credentials file X: why", nothing left
 * open). */
int wp_remote_files_open(wp_remote_files *f, int fd[WP_REMOTE_FILES],
                         unsigned *mask, const char *host, wp_error *err);

/* Whether a path names another file than the one noted (replaced, made
 * since, or gone). false before anything was noted. */
bool wp_remote_files_replaced(const wp_remote_files *f);

#endif
