/* collectd-winperf: credentials that never lock an account.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A credential is (Auth, Domain, User as configured, and its source: the
 * PasswordFile's canonical path, "environment", or later a keytab or
 * ccache path): every host configured with the same four shares one. It
 * is
 *   unproven  until one logon with it succeeds,
 *   proven    from then on, until
 *   paused    a server refuses a logon with it (a failed SMB session
 *             setup; a denial after the logon is the host's own).
 * While unproven or paused, at most one host at a time sends a request
 * (any request may have to log on: a name table or a query); the others
 * skip the interval without counting it as a failure. A paused credential
 * is tried again, by one host other than the one last refused (unless it
 * has no other), when its source changed since the refusal ((st_dev,
 * st_ino, st_size, st_mtim) differ; looked at 4 times a second at most) or
 * AuthRetryInterval after it. So a wrong password costs one failed logon
 * per change of the file (or per AuthRetryInterval), whatever the number
 * of hosts: a domain's lockout threshold is never reached by the poller.
 *
 * The credentials are shared across <Plugin winperf> blocks: one table
 * for the process, under one mutex. No collectd header (unit-tested in
 * tests/plugin/test_credentials.c); times are cdtime_t (2^-30 s).
 */
#ifndef WP_PLUGIN_CREDENTIALS_H
#define WP_PLUGIN_CREDENTIALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WP_CRED_SECONDS(s) ((uint64_t)(s) << 30)
#define WP_CRED_RETRY_DEFAULT WP_CRED_SECONDS(3600)

typedef struct wp_cred wp_cred;

typedef enum wp_cred_state {
  WP_CRED_UNPROVEN,
  WP_CRED_PROVEN,
  WP_CRED_PAUSED,
} wp_cred_state;

/* The credential of (auth, domain, user as configured, its source: a file
 * (the password file; for Kerberos a keytab or ccache) or NULL for the
 * environment), with one more user; NULL without memory. Its label says it
 * in log lines (no password: "ntlm CORP\svc-perf, /etc/collectd/x.cred"). */
wp_cred *wp_cred_get(const char *auth, const char *domain, const char *user,
                     const char *source_file);
/* One user less; the last frees it. */
void wp_cred_put(wp_cred *c);

const char *wp_cred_label(const wp_cred *c);

/* May host `host` send a request now? true: go (call wp_cred_leave after
 * the interval's requests); false: skip this interval. */
bool wp_cred_enter(wp_cred *c, const char *host, uint64_t now,
                   uint64_t retry_interval);

typedef enum wp_cred_outcome {
  WP_CRED_OK,      /* a logon (or a request over a session) succeeded */
  WP_CRED_REFUSED, /* a server refused the logon */
  WP_CRED_OTHER,   /* anything else: the credential is not the question */
} wp_cred_outcome;

/* What wp_cred_leave says to log: nothing, the refusal (with how many
 * other hosts wait), or the credential accepted again after a pause. */
typedef struct wp_cred_news {
  enum { WP_CRED_NEWS_NONE, WP_CRED_NEWS_PAUSED, WP_CRED_NEWS_RESUMED } what;
  unsigned others; /* the other hosts that use it */
} wp_cred_news;

/* The end of host's interval that wp_cred_enter let go. */
void wp_cred_leave(wp_cred *c, const char *host, wp_cred_outcome outcome,
                   uint64_t now, wp_cred_news *news);

wp_cred_state wp_cred_state_now(wp_cred *c);
/* While paused: time until the AuthRetryInterval retry (0 when due, or a
 * changed source will be tried); else 0. */
uint64_t wp_cred_retry_in(wp_cred *c, uint64_t now, uint64_t retry_interval);

#endif
