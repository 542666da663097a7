/* collectd-winperf: NTLM, Kerberos or negotiate, and the credential source
 * that goes with it (auth.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "auth.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const names[] = {"ntlm", "kerberos", "negotiate"};

wpr_auth wpr_auth_parse(const char *name) {
  for (int i = 0; name != NULL && i < 3; i++)
    if (strcasecmp(name, names[i]) == 0)
      return (wpr_auth)i;
  return WPR_AUTH_DEFAULT;
}

const char *wpr_auth_name(wpr_auth auth) {
  return auth >= WPR_AUTH_NTLM && auth <= WPR_AUTH_NEGOTIATE ? names[auth]
                                                             : "ntlm";
}

static bool given(const char *s) {
  return s != NULL && s[0] != '\0';
}

wpr_auth wpr_auth_resolve(const wpr_auth_settings *s) {
  if (s->auth != WPR_AUTH_DEFAULT)
    return s->auth;
  return given(s->keytab) || given(s->ccache) ? WPR_AUTH_KERBEROS
                                              : WPR_AUTH_NTLM;
}

/* An address literal, without the socket headers (this builds for Windows
 * too): a colon only appears in IPv6 ("fe80::1", "[::1]", "fe80::1%eth0"),
 * and a name of digits and dots alone is an IPv4 address in one of the
 * forms inet_aton takes ("10.0.0.12", "10.12"); no DNS name is either. */
bool wpr_host_is_address(const char *host) {
  if (host == NULL || host[0] == '\0')
    return false;
  if (strcasecmp(host, "localhost") == 0 ||
      strncasecmp(host, "localhost.", 10) == 0 || strchr(host, ':') != NULL)
    return true;
  return strspn(host, "0123456789.") == strlen(host);
}

__attribute__((format(printf, 3, 4))) static bool refuse(char *why, size_t len,
                                                         const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, len, fmt, ap);
  va_end(ap);
  return false;
}

/* The rules of Auth "kerberos" and "negotiate" (auth.h). */
static bool check_kerberos(const wpr_auth_settings *s, wpr_auth auth,
                           const char *host, char *why, size_t len) {
  const char *name = wpr_auth_name(auth);
  int sources = given(s->keytab) + given(s->ccache) + s->password;
  if (auth == WPR_AUTH_NEGOTIATE && (given(s->keytab) || given(s->ccache)))
    return refuse(why, len,
                  "%s: Auth \"negotiate\" takes a PasswordFile (its NTLM step "
                  "needs the password), not a Keytab or CCache: use Auth "
                  "\"kerberos\" with those",
                  host);
  if (sources != 1)
    return refuse(why, len,
                  "%s: Auth \"%s\" needs exactly one credential source: "
                  "Keytab (with Principal), CCache \"FILE:/path\" or "
                  "PasswordFile; %s",
                  host, name,
                  sources == 0 ? "none is given"
                               : "more than one is given (Keytab, CCache and "
                                 "PasswordFile exclude each other)");
  if (given(s->keytab) && !given(s->principal))
    return refuse(why, len,
                  "%s: Keytab needs Principal (the keytab's client, such as "
                  "\"svc-perf@CORP.EXAMPLE\")",
                  host);
  if (given(s->ccache) && (strncmp(s->ccache, "FILE:/", 6) != 0))
    return refuse(why, len,
                  "%s: CCache \"%s\": only a FILE: cache with an absolute "
                  "path works (\"FILE:/path\"; libsmbclient sees no "
                  "MEMORY:, KEYRING: or KCM: cache)",
                  host, s->ccache);
  if (auth == WPR_AUTH_KERBEROS && wpr_host_is_address(host))
    return refuse(why, len,
                  "%s is an IP address (or localhost): Kerberos needs the "
                  "host's DNS name, whose SPN cifs/NAME the domain knows; "
                  "give Address the name, or use Auth \"ntlm\"",
                  host);
  return true;
}

bool wpr_auth_check(const wpr_auth_settings *s, const char *host, char *why,
                    size_t len) {
  wpr_auth auth = wpr_auth_resolve(s);
  if (auth != WPR_AUTH_NTLM)
    return check_kerberos(s, auth, host, why, len);
  if (given(s->keytab) || given(s->ccache) || given(s->principal))
    return refuse(why, len,
                  "%s: Keytab, CCache and Principal are for Auth "
                  "\"kerberos\" (or \"negotiate\"), not \"ntlm\"",
                  host);
  return true;
}
