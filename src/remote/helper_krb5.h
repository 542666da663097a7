/* collectd-winperf: the helper's Kerberos tickets, obtained with MIT
 * libkrb5 and handed to libsmbclient in a FILE: cache.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Before libsmbclient connects with Kerberos, the helper gets the tickets
 * itself (doc/winperf-remote.md, KERBEROS): a TGT for the principal (from a
 * keytab, a password, or copied from the operator's FILE: cache, which is
 * never written), then the service ticket cifs/HOST. Doing it here, not in
 * libsmbclient, is what makes precise errors possible (libsmbclient says
 * only "Invalid argument" or "Permission denied"): clock skew with the
 * offset, an unreachable KDC, an unknown principal or SPN, a refused key.
 *
 * One TGT per principal (and credential source) in the helper, so hosts
 * that share a principal in a shared helper cost one AS exchange, and a
 * wrong key one failed pre-authentication. Each connection gets a FILE:
 * cache of its own in the private directory (--krb5-dir, made 0700 by the
 * plugin or the winperf tool, which removes it after the helper ends)
 * holding that TGT and its service ticket; KRB5CCNAME names it while
 * libsmbclient connects. A ticket is obtained again when less than a
 * quarter of its lifetime is left; a connection whose service ticket is
 * that old is closed and opened again with a fresh one (servers end an
 * SMB session when its ticket expires).
 *
 * The helper's own krb5 context does not correct the local clock with the
 * KDC's (kdc_timesync off, through a krb5.conf of its own placed before
 * the operator's in KRB5_CONFIG): a clock past the KDC's skew limit is an
 * error that names the offset, as Windows servers would refuse it anyway.
 *
 * Test knob: WINPERF_KRB5_TICKET_LIFETIME=SECONDS in the helper's
 * environment requests service tickets of that lifetime (the test DC's own
 * lifetimes are whole hours, and it refuses TGTs of two minutes or less).
 */
#ifndef WP_REMOTE_HELPER_KRB5_H
#define WP_REMOTE_HELPER_KRB5_H

#include "helper_config.h"
#include "helper_error.h"

#include <time.h>

typedef struct hkrb5_principal hkrb5_principal;

/* A connection's Kerberos logon: its cache and its service ticket. */
typedef struct hkrb5_conn {
  hkrb5_principal *principal; /* NULL: none obtained */
  unsigned tgt_generation;    /* the principal's TGT it was stored with */
  char cache[1100];           /* its FILE: cache's path, "": none yet */
  time_t start, end;          /* the service ticket's times */
  char user[256], realm[256]; /* what libsmbclient is told */
  char spn[600];              /* cifs/HOST@REALM as asked for */
} hkrb5_conn;

/* Obtain what cfg's host needs (above), point KRB5CCNAME and KRB5_CONFIG
 * at it for libsmbclient. 0, or -1 with e: WPR_ERR_AUTH when the KDC
 * refused the key or the account (pre-authentication failed, account
 * disabled or locked, password or key expired: refused logons for the
 * lockout rule), WPR_ERR_CONFIG for what the operator must fix (keytab,
 * cache, principal, krb5.conf, an SPN the domain does not know),
 * WPR_ERR_CONNECT for an unreachable KDC, WPR_ERR_OTHER for clock skew. */
int hkrb5_prepare(const helper_cfg *cfg, hkrb5_conn *kc, herr *e);

/* Whether the connection's service ticket has less than a quarter of its
 * lifetime left at `now`. */
int hkrb5_stale(const hkrb5_conn *kc, time_t now);

/* The connection is closed for good: its cache is removed and the
 * principal released. */
void hkrb5_release(hkrb5_conn *kc);

/* `winperf doctor`'s view of the last attempt (the K request): lines of
 * "key<TAB>value" (auth, principal, realm, source, kdc_offset, tgt_start,
 * tgt_end, spn, spn_found, ticket_start, ticket_end, used, error). The
 * length written (NUL-terminated, cut at cap). */
size_t hkrb5_report(const helper_cfg *cfg, char *out, size_t cap);

/* Note how the last logon was made ("kerberos" or "ntlm") and, when it
 * failed, why, for the report. */
void hkrb5_note(const char *used, const char *error);

#endif
