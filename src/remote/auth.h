/* collectd-winperf: how a remote host is logged on to: NTLM, Kerberos or
 * negotiate, and which credential source goes with it.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * One set of rules for the plugin's options and inventory keys, the winperf
 * tool's options and the helper itself (doc/winperf-remote.md, KERBEROS):
 *   Auth "ntlm"       User / Domain and a password (PasswordFile or the
 *                     environment); no Keytab, CCache or Principal;
 *   Auth "kerberos"   exactly one credential source: Keytab (with
 *                     Principal), CCache "FILE:/path" (the operator's cache,
 *                     never written), or a password (PasswordFile or the
 *                     environment; principal = Principal, or User@REALM);
 *                     the host by its DNS name, never an IP address;
 *   Auth "negotiate"  Kerberos with the password, then NTLM where the
 *                     server allows; only when set.
 * Without Auth: "kerberos" when Keytab or CCache is given, else "ntlm"
 * (negotiate with a password would make a domain count a wrong password
 * twice: Kerberos pre-authentication, then NTLM). Pure functions, no
 * Samba and no Kerberos header: the plugin and the tests use them too.
 */
#ifndef WP_REMOTE_AUTH_H
#define WP_REMOTE_AUTH_H

#include <stdbool.h>
#include <stddef.h>

typedef enum wpr_auth {
  WPR_AUTH_DEFAULT = -1, /* not given: see wpr_auth_resolve */
  WPR_AUTH_NTLM = 0,
  WPR_AUTH_KERBEROS = 1,
  WPR_AUTH_NEGOTIATE = 2,
} wpr_auth;

/* A host's authentication settings as configured (NULL or "": not given). */
typedef struct wpr_auth_settings {
  wpr_auth auth;
  const char *principal, *keytab, *ccache, *krb5_config;
  bool password; /* a PasswordFile is given (or the environment's) */
} wpr_auth_settings;

/* "ntlm", "kerberos", "negotiate" (any case); -1 (WPR_AUTH_DEFAULT) for
 * anything else. */
wpr_auth wpr_auth_parse(const char *name);
/* "ntlm", "kerberos", "negotiate". */
const char *wpr_auth_name(wpr_auth auth);

/* The method a host uses: s->auth, or its default (above). */
wpr_auth wpr_auth_resolve(const wpr_auth_settings *s);

/* Whether the host may be logged on to as s says: exactly one credential
 * source for Kerberos, a FILE: cache, a DNS name for Kerberos. `host` is
 * the address the helper connects to. true, or false with the reason in
 * why ("HOST: ..."; a configuration error: the plugin refuses to start or
 * keeps the old inventory). */
bool wpr_auth_check(const wpr_auth_settings *s, const char *host, char *why,
                    size_t whylen);

/* Whether host is an IPv4 or IPv6 address literal or "localhost": a name
 * Kerberos cannot be used with (there is no cifs/ SPN for it). */
bool wpr_host_is_address(const char *host);

#endif
