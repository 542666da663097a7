/* collectd-winperf: the remote source, a Windows host read over MS-RRP.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The source runs winperf-remote-helper (src/remote/helper_main.c) as a
 * child process (fork/exec, no shell) and speaks the framed protocol of
 * src/remote/frame.h with it over a socket pair. libsmbclient lives only in
 * the helper. A helper that dies or stops answering within the timeout is
 * killed and started again on the next call.
 *
 * One source per host, used by one thread at a time. Sources given the
 * same shared helper (remote_shared.h) may be used from different threads:
 * they take turns on it.
 */
#ifndef WP_SOURCE_REMOTE_H
#define WP_SOURCE_REMOTE_H

#include "remote_shared.h"
#include "source.h"

#include <sys/types.h>

#define WP_REMOTE_DEFAULT_PORT 445u

typedef struct wp_remote_options {
  const char *host;             /* required: name or address */
  unsigned port;                /* 0: 445 (always passed to the helper) */
  const char *user;             /* "[DOMAIN\]name"; NULL: from the file/env */
  const char *domain;           /* NULL: from the user or the file */
  const char *credentials_file; /* smbclient -A format; NULL: environment */
  const char *helper;           /* NULL: WP_REMOTE_HELPER_PATH */
  unsigned connect_timeout_ms;  /* 0: 10000 */
  unsigned query_timeout_ms;    /* 0: 30000 */
  unsigned buffer_size;         /* first query buffer; 0: 256 KiB */
  int encrypt;                  /* require SMB3 encryption */
  /* How to log on (src/remote/auth.h): "ntlm", "kerberos", "negotiate";
   * NULL: ntlm, or kerberos when a keytab or cache is given. Kerberos'
   * credential source: a keytab (with the principal), a FILE: cache, or
   * the password of credentials_file (or the environment). NULL: not
   * given. */
  const char *auth;
  const char *principal, *keytab, *ccache, *krb5_config;
  /* Where the helper's private directory is made (remote_dir.h): the
   * plugin's BaseDir; NULL: $TMPDIR or /tmp. */
  const char *krb5_parent;
  /* The helper's sandbox (src/remote/helper_sandbox.h): the user a helper
   * started as root becomes (NULL: winperf-helper, else nobody), and
   * no_sandbox to run it without (HelperSandbox false). */
  const char *helper_user;
  int no_sandbox;
  /* NULL: a helper of its own; else a session in this helper (the source
   * takes a reference; helper above is then unused). */
  wp_remote_helper *shared;
} wp_remote_options;

/* Why the last call failed (src/remote/frame.h wpr_error_kind values, the
 * same as source.h's wp_source_fault), so the caller can back off harder on
 * an authentication failure. */
enum {
  WP_REMOTE_ERR_NONE = WP_SOURCE_FAULT_NONE,
  WP_REMOTE_ERR_OTHER = WP_SOURCE_FAULT_OTHER,
  WP_REMOTE_ERR_AUTH = WP_SOURCE_FAULT_AUTH,
  WP_REMOTE_ERR_CONNECT = WP_SOURCE_FAULT_CONNECT,
  WP_REMOTE_ERR_TIMEOUT = WP_SOURCE_FAULT_TIMEOUT,
  WP_REMOTE_ERR_PROTOCOL = WP_SOURCE_FAULT_PROTOCOL,
  WP_REMOTE_ERR_SERVER = WP_SOURCE_FAULT_SERVER,
  WP_REMOTE_ERR_CONFIG = WP_SOURCE_FAULT_CONFIG,
  WP_REMOTE_ERR_REQUEST = WP_SOURCE_FAULT_REQUEST,
  WP_REMOTE_ERR_ACCESS = WP_SOURCE_FAULT_ACCESS,
  WP_REMOTE_ERR_HELPER = WP_SOURCE_FAULT_HELPER,
};

/* Create the source. The helper starts lazily, on the first collect/names.
 * Returns NULL (err says why) on bad options or no memory. */
wp_source *wp_remote_source_new(const wp_remote_options *opt, wp_error *err);

/* The kind of the last failure (WP_REMOTE_ERR_*), WP_REMOTE_ERR_NONE after
 * a success. src must come from wp_remote_source_new. */
int wp_remote_last_error(const wp_source *src);

/* The helper's pid, or -1 when none runs (for tests and diagnostics). */
pid_t wp_remote_helper_pid(const wp_source *src);

/* How the last logon went, as the helper tells it (the REPORT request:
 * "key<TAB>value" lines; Kerberos: realm, SPN, clock offset, ticket
 * times), into out. Only for a source with a helper of its own. */
wp_source_status wp_remote_report(wp_source *src, wp_buffer *out,
                                  wp_error *err);

#endif
