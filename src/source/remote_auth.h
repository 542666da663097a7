/* collectd-winperf: the remote source's authentication settings: NTLM,
 * Kerberos or negotiate (src/remote/auth.h), as helper arguments or in a
 * shared helper's OPEN, and the private directory Kerberos needs.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef WP_SOURCE_REMOTE_AUTH_H
#define WP_SOURCE_REMOTE_AUTH_H

#include "auth.h"
#include "frame_session.h"
#include "wp_error.h"

#include <stdbool.h>

/* Copies of a source's authentication options. */
typedef struct wp_remote_auth {
  wpr_auth auth; /* resolved: ntlm, kerberos or negotiate */
  char name[12]; /* its name, for the helper's --auth */
  char *principal, *keytab, *ccache, *krb5_config;
  char *krb5_parent; /* where the private directory goes; NULL: $TMPDIR */
} wp_remote_auth;

/* From the options (auth: a name or NULL for the default; the strings NULL
 * when not given), checked with wpr_auth_check for host; password: a
 * PasswordFile or the environment's password is there. 0, or -1 with err
 * (a configuration error, or no memory). */
int wp_remote_auth_init(wp_remote_auth *a, const char *auth,
                        const char *principal, const char *keytab,
                        const char *ccache, const char *krb5_config,
                        const char *krb5_parent, const char *host,
                        bool password, wp_error *err);
void wp_remote_auth_free(wp_remote_auth *a);

/* Whether the helper needs a private directory (Kerberos or negotiate). */
bool wp_remote_auth_krb5(const wp_remote_auth *a);

/* Append "--auth NAME" and the Kerberos options (and "--krb5-dir dir"
 * when dir is not NULL) to argv at *n. At most 12 entries. */
void wp_remote_auth_argv(const wp_remote_auth *a, const char *dir,
                         const char **argv, int *n);

/* Fill OPEN's auth fields (strings point into a). */
void wp_remote_auth_open(const wp_remote_auth *a, wpr_open *o);

#endif
