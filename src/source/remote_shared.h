/* collectd-winperf: one helper process for several remote sources
 * (the plugin's HostsPerHelper).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The helper runs as `winperf-remote-helper --sessions N` and each source
 * opens a session of its own in it (src/remote/frame_session.h). The
 * helper serves one request at a time, and collectd calls read callbacks
 * from several threads: a source holds the mutex for the whole exchange
 * (OPEN when needed, the request, the answer), and its deadline starts
 * once it holds it, so time spent waiting for another host's answer never
 * counts against its own. A helper that dies or is killed takes every
 * session with it: each source notices the new helper's generation and
 * opens its session again on its next request.
 *
 * Reference-counted: the creator and every source that uses it hold a
 * reference; the last release closes the stream (the helper closes its
 * sessions and exits) and frees it.
 */
#ifndef WP_SOURCE_REMOTE_SHARED_H
#define WP_SOURCE_REMOTE_SHARED_H

#include "wp_error.h"

typedef struct wp_remote_helper wp_remote_helper;

/* A shared helper that runs `path` (NULL: the installed helper) for at most
 * `hosts` sources (2..1024). It starts on the first request. NULL with err
 * on bad arguments or no memory. */
wp_remote_helper *wp_remote_helper_new(const char *path, unsigned hosts,
                                       wp_error *err);
/* A source on h logs on with Kerberos: the helper's private directory
 * (made at each start under parent, NULL: $TMPDIR or /tmp; the first
 * caller's parent is kept; removed when it ends) is named for its
 * Kerberos caches (--krb5-dir). */
void wp_remote_helper_want_krb5(wp_remote_helper *h, const char *parent);
/* Where h's helper gets its private directory (parent: collectd's
 * BaseDir; NULL: $TMPDIR or /tmp) and its sandbox (remote.h's helper_user,
 * no_sandbox): the first caller's settings are kept (the hosts of one
 * <Plugin winperf> block share them). */
void wp_remote_helper_want_sandbox(wp_remote_helper *h, const char *parent,
                                   const char *user, int no_sandbox);
/* Take one more reference (h may be NULL). */
void wp_remote_helper_ref(wp_remote_helper *h);
/* Drop one (h may be NULL); the last one stops the helper. */
void wp_remote_helper_unref(wp_remote_helper *h);

/* For the remote source (remote.c): the exchange is made under the lock;
 * proc is the running helper (pid -1 when none); the generation changes at
 * each start; start runs a new helper (wp_proc_spawn's results). */
struct wp_helper_proc;
void wp_remote_helper_lock(wp_remote_helper *h);
void wp_remote_helper_unlock(wp_remote_helper *h);
struct wp_helper_proc *wp_remote_helper_proc(wp_remote_helper *h);
unsigned wp_remote_helper_generation(const wp_remote_helper *h);
const char *wp_remote_helper_path(const wp_remote_helper *h);
int wp_remote_helper_start(wp_remote_helper *h, const char **what, int *errnum);

#endif
