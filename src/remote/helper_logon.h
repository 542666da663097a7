/* collectd-winperf: how the helper logs on to a host: NTLM with the
 * password, or Kerberos with the tickets of helper_krb5.h, and what
 * libsmbclient said when the SMB session setup failed.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Auth "kerberos": the tickets first (their errors are precise), then
 * libsmbclient with Kerberos required, no fallback, and no password (so it
 * never tries a pre-authentication of its own). Auth "negotiate": the same
 * with the password; when the KDC part fails for a reason other than a
 * refused key (no KDC, no SPN, an address, clock skew), NTLM with that
 * password; a refused key is never tried again over NTLM (a domain would
 * count it twice). Auth "ntlm": as before.
 *
 * libsmbclient keeps no NT status for a failed session setup (smbc_open
 * says EINVAL or EPERM), but logs it at debug level 3 ("SPNEGO login
 * failed: ..."): while it connects, its log goes to a callback that keeps
 * that line, so NT_STATUS_NTLM_BLOCKED and the like can be named. Level 0
 * lines still go to stderr as before.
 */
#ifndef WP_REMOTE_HELPER_LOGON_H
#define WP_REMOTE_HELPER_LOGON_H

#include "helper_config.h"
#include "helper_error.h"
#include "helper_krb5.h"

#include <libsmbclient.h>

/* Before connecting: Kerberos or NTLM for this logon, and the tickets.
 * Sets cfg->krb_logon to kc for a Kerberos logon, NULL for NTLM. 0, or -1
 * with e. */
int helper_logon_prepare(helper_cfg *cfg, hkrb5_conn *kc, herr *e);

/* The libsmbclient context's settings for that logon, and the log
 * capture (call before smbc_init_context). */
void helper_logon_context(SMBCCTX *ctx, const helper_cfg *cfg);

/* The auth callback's workgroup, user and password. */
void helper_logon_identity(const helper_cfg *cfg, char *wg, int wglen, char *un,
                           int unlen, char *pw, int pwlen);

/* smbc_open failed with errnum: when libsmbclient logged why the session
 * setup failed (or the failure is the one a refused NTLM logon gives), e
 * says so and 1 is returned; else 0 (the caller maps errnum). */
int helper_logon_failed(herr *e, const helper_cfg *cfg, int errnum);

/* The open is over (ctx may be NULL): stop the capture; note the outcome
 * for the report (e NULL: success). */
void helper_logon_done(SMBCCTX *ctx, helper_cfg *cfg, const herr *e);

/* Whether an open connection's Kerberos ticket is old enough to log on
 * again (helper_krb5.h). */
int helper_logon_stale(const hkrb5_conn *kc);

#endif
