/* collectd-winperf: the authentication rules (src/remote/auth.h): which
 * combinations of Auth, Keytab, CCache, PasswordFile and Principal a host
 * may have, and what is an address Kerberos cannot be used with.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "auth.h"
#include "tap.h"

#include <string.h>

static char why[600];

static bool check(wpr_auth auth, const char *principal, const char *keytab,
                  const char *ccache, bool password, const char *host) {
  wpr_auth_settings s = {auth, principal, keytab, ccache, NULL, password};
  why[0] = '\0';
  return wpr_auth_check(&s, host, why, sizeof why);
}

static void refused(bool ok, const char *want, const char *what) {
  tap_ok(!ok && strstr(why, want) != NULL, "refused: %s", what);
  if (ok || strstr(why, want) == NULL)
    tap_diag("got \"%s\", want \"...%s...\"", why, want);
}

int main(void) {
  const char *h = "web01.corp.example";
  tap_ok(wpr_auth_parse("Kerberos") == WPR_AUTH_KERBEROS &&
             wpr_auth_parse("NTLM") == WPR_AUTH_NTLM &&
             wpr_auth_parse("negotiate") == WPR_AUTH_NEGOTIATE &&
             wpr_auth_parse("krb5") == WPR_AUTH_DEFAULT &&
             wpr_auth_parse(NULL) == WPR_AUTH_DEFAULT,
         "names, any case; anything else is none");
  wpr_auth_settings d = {WPR_AUTH_DEFAULT, NULL, NULL, NULL, NULL, true};
  tap_ok(wpr_auth_resolve(&d) == WPR_AUTH_NTLM, "default: ntlm");
  d.keytab = "/k";
  tap_ok(wpr_auth_resolve(&d) == WPR_AUTH_KERBEROS,
         "default with a Keytab: kerberos");
  d.keytab = NULL;
  d.ccache = "FILE:/c";
  tap_ok(wpr_auth_resolve(&d) == WPR_AUTH_KERBEROS,
         "default with a CCache: kerberos (never negotiate)");

  tap_ok(check(WPR_AUTH_DEFAULT, NULL, NULL, NULL, true, "10.0.0.12"),
         "ntlm to an address with a password");
  tap_ok(check(WPR_AUTH_DEFAULT, "svc@CORP", "/k", NULL, false, h),
         "a keytab and its principal");
  tap_ok(check(WPR_AUTH_KERBEROS, NULL, NULL, "FILE:/tmp/cc", false, h),
         "a FILE: cache alone");
  tap_ok(check(WPR_AUTH_KERBEROS, NULL, NULL, NULL, true, h),
         "kerberos with a password");
  tap_ok(check(WPR_AUTH_NEGOTIATE, NULL, NULL, NULL, true, "10.0.0.12"),
         "negotiate with a password, even to an address (NTLM there)");

  refused(check(WPR_AUTH_KERBEROS, NULL, NULL, NULL, false, h),
          "exactly one credential source", "kerberos without a source");
  refused(check(WPR_AUTH_KERBEROS, "s@R", "/k", NULL, true, h),
          "more than one is given", "a keytab and a password file");
  refused(check(WPR_AUTH_DEFAULT, "s@R", "/k", "FILE:/c", false, h),
          "more than one is given", "a keytab and a cache");
  refused(check(WPR_AUTH_KERBEROS, NULL, "/k", NULL, false, h),
          "Keytab needs Principal", "a keytab without principal");
  refused(check(WPR_AUTH_KERBEROS, NULL, NULL, "MEMORY:x", false, h),
          "only a FILE: cache", "a MEMORY: cache");
  refused(check(WPR_AUTH_KERBEROS, NULL, NULL, "FILE:rel", false, h),
          "only a FILE: cache with an absolute path", "a relative cache");
  refused(check(WPR_AUTH_NEGOTIATE, "s@R", "/k", NULL, false, h),
          "Auth \"negotiate\" takes a PasswordFile", "negotiate with a keytab");
  refused(check(WPR_AUTH_NTLM, "s@R", "/k", NULL, false, h),
          "are for Auth \"kerberos\"", "ntlm with a keytab");
  refused(check(WPR_AUTH_NTLM, "s@R", NULL, NULL, true, h),
          "are for Auth \"kerberos\"", "ntlm with a principal");
  refused(check(WPR_AUTH_DEFAULT, "s@R", "/k", NULL, false, "10.0.0.12"),
          "10.0.0.12 is an IP address", "kerberos to an IPv4 address");
  refused(check(WPR_AUTH_KERBEROS, NULL, NULL, NULL, true, "fe80::1"),
          "is an IP address", "kerberos to an IPv6 address");
  refused(check(WPR_AUTH_KERBEROS, NULL, NULL, NULL, true, "[::1]"),
          "is an IP address", "kerberos to a bracketed IPv6 address");
  refused(check(WPR_AUTH_KERBEROS, NULL, NULL, NULL, true, "LOCALHOST"),
          "is an IP address (or localhost)", "kerberos to localhost");

  tap_ok(!wpr_host_is_address("10.0.0.12.corp.example") &&
             !wpr_host_is_address("web01") &&
             !wpr_host_is_address("1web.corp.example") &&
             !wpr_host_is_address("localhostile.example") &&
             wpr_host_is_address("localhost.") &&
             wpr_host_is_address("10.12") &&
             wpr_host_is_address("fe80::1%eth0"),
         "names that look like addresses are names; a zone id is an address");
  return tap_done();
}
