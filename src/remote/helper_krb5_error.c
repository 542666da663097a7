/* collectd-winperf: the helper's Kerberos errors and report
 * (helper_krb5_error.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "helper_krb5_error.h"
#include "auth.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *realm_of(const char *principal) {
  const char *at = principal ? strrchr(principal, '@') : NULL;
  return at ? at + 1 : "the realm";
}

/* What holds the key: "keytab /etc/x.keytab", "the password of ...". */
static void source_text(const helper_cfg *cfg, char *out, size_t cap) {
  if (cfg->keytab != NULL)
    snprintf(out, cap, "keytab %s", cfg->keytab);
  else if (cfg->ccache != NULL)
    snprintf(out, cap, "ticket cache %s", cfg->ccache);
  else if (cfg->credentials != NULL)
    snprintf(out, cap, "password in %s", cfg->credentials);
  else
    snprintf(out, cap, "password in WINPERF_REMOTE_PASSWORD");
}

/* The refusals of the key or the account (the lockout rule counts them). */
static int refused(herr *e, krb5_error_code rc, const helper_cfg *cfg,
                   const char *who, const char *src) {
  const char *h = cfg->host;
  if (rc == KRB5KDC_ERR_CLIENT_REVOKED)
    return herr_set(e, WPR_ERR_AUTH,
                    "%s: Kerberos: the KDC refused %s: the account is "
                    "disabled, locked out or expired (KDC_ERR_CLIENT_REVOKED); "
                    "a domain administrator must enable or unlock it",
                    h, who);
  if (rc == KRB5KDC_ERR_KEY_EXP)
    return herr_set(e, WPR_ERR_AUTH,
                    "%s: Kerberos: the password (key) of %s has expired "
                    "(KDC_ERR_KEY_EXPIRED): set a new one%s",
                    h, who, cfg->keytab ? " and export the keytab again" : "");
  return herr_set(e, WPR_ERR_AUTH,
                  "%s: Kerberos: the KDC of %s refused the %s for %s "
                  "(pre-authentication failed, KDC_ERR_PREAUTH_FAILED): %s",
                  h, realm_of(who), src, who,
                  cfg->keytab ? "the keytab is wrong or outdated (export it "
                                "again after every password change)"
                              : "the password is wrong");
}

static int skew(herr *e, const helper_cfg *cfg, const char *who,
                const hk5_offset *off) {
  if (off == NULL || !off->known)
    return herr_set(e, WPR_ERR_OTHER,
                    "%s: Kerberos: clock skew too great between this machine "
                    "and the KDC of %s (KRB_AP_ERR_SKEW): fix the time (NTP) "
                    "here or on the domain controllers",
                    cfg->host, realm_of(who));
  long s = off->seconds < 0 ? -off->seconds : off->seconds;
  return herr_set(e, WPR_ERR_OTHER,
                  "%s: Kerberos: clock skew: this machine's clock is %ld s "
                  "%s the KDC of %s, more than the KDC allows "
                  "(KRB_AP_ERR_SKEW; 300 s by default): fix the time (NTP) "
                  "here or on the domain controllers",
                  cfg->host, s, off->seconds < 0 ? "ahead of" : "behind",
                  realm_of(who));
}

int hk5_fail(herr *e, krb5_context ctx, krb5_error_code rc, hk5_stage stage,
             const helper_cfg *cfg, const char *principal,
             const hk5_offset *offset) {
  const char *h = cfg->host;
  const char *who = principal && principal[0] ? principal
                    : cfg->principal          ? cfg->principal
                                              : cfg->user;
  char src[1100];
  source_text(cfg, src, sizeof(src));
  switch (rc) {
  case KRB5KDC_ERR_PREAUTH_FAILED:
  case KRB5KRB_AP_ERR_BAD_INTEGRITY:
  case KRB5KDC_ERR_CLIENT_REVOKED:
  case KRB5KDC_ERR_KEY_EXP:
    if (stage == HK5_AS)
      return refused(e, rc, cfg, who, src);
    break;
  case KRB5KRB_AP_ERR_SKEW:
  case KRB5_KDCREP_SKEW:
    return skew(e, cfg, who, offset);
  case KRB5_KDC_UNREACH:
    return herr_set(e, WPR_ERR_CONNECT,
                    "%s: Kerberos: cannot reach a KDC of %s "
                    "(KRB5_KDC_UNREACH): check its kdc lines in krb5.conf "
                    "[realms] (or DNS SRV _kerberos._udp.%s) and that "
                    "88/tcp and 88/udp are open",
                    h, realm_of(who), realm_of(who));
  case KRB5_REALM_UNKNOWN:
  case KRB5_REALM_CANT_RESOLVE:
    return herr_set(e, WPR_ERR_CONFIG,
                    "%s: Kerberos: no KDC is known for %s: add it to "
                    "krb5.conf [realms] (kdc = ...) or to DNS",
                    h, realm_of(who));
  case KRB5KDC_ERR_C_PRINCIPAL_UNKNOWN:
    return herr_set(e, WPR_ERR_CONFIG,
                    "%s: Kerberos: the KDC of %s knows no principal %s "
                    "(KDC_ERR_C_PRINCIPAL_UNKNOWN): check Principal (or User "
                    "and Domain); the realm is upper case",
                    h, realm_of(who), who);
  case KRB5KDC_ERR_S_PRINCIPAL_UNKNOWN:
    return herr_set(e, WPR_ERR_CONFIG,
                    "%s: Kerberos: the KDC of %s knows no service principal "
                    "cifs/%s (KDC_ERR_S_PRINCIPAL_UNKNOWN): give Address the "
                    "name the computer is registered under (setspn -L "
                    "COMPUTER lists its SPNs), or register this one: setspn "
                    "-S cifs/%s COMPUTER",
                    h, realm_of(who), h, h);
  case KRB5_KT_NOTFOUND:
  case KRB5_KT_KVNONOTFOUND:
    return herr_set(e, WPR_ERR_CONFIG,
                    "%s: Kerberos: keytab %s has no key for %s "
                    "(klist -k %s lists the ones it has)",
                    h, cfg->keytab ? cfg->keytab : "?", who,
                    cfg->keytab ? cfg->keytab : "KEYTAB");
  case KRB5KDC_ERR_ETYPE_NOSUPP:
    return herr_set(e, WPR_ERR_CONFIG,
                    "%s: Kerberos: the KDC of %s shares no encryption type "
                    "with the %s (KDC_ERR_ETYPE_NOSUPP): export keys of the "
                    "types the domain allows (AES)",
                    h, realm_of(who), src);
  case KRB5KRB_AP_ERR_TKT_EXPIRED:
    if (stage == HK5_CACHE)
      return herr_set(e, WPR_ERR_CONFIG,
                      "%s: Kerberos: the ticket of %s in %s has expired: "
                      "renew it (kinit, k5start), the plugin never writes "
                      "that cache",
                      h, who, cfg->ccache);
    break;
  case KRB5_CC_NOTFOUND:
  case KRB5_FCC_NOFILE:
  case KRB5_CC_END:
    if (stage == HK5_CACHE)
      return herr_set(e, WPR_ERR_CONFIG,
                      "%s: Kerberos: no ticket for %s in %s: get one (kinit "
                      "-c %s)",
                      h, who, cfg->ccache, cfg->ccache);
    break;
  default:
    break;
  }
  const char *m = krb5_get_error_message(ctx, rc);
  static const char *const what[] = {"the principal", "the ticket cache",
                                     "the TGT", "the service ticket"};
  herr_set(e, stage == HK5_TGS ? WPR_ERR_OTHER : WPR_ERR_CONFIG,
           "%s: Kerberos: %s of %s: %s (krb5 error %ld)", h, what[stage], who,
           m, (long)rc);
  krb5_free_error_message(ctx, m);
  return -1;
}

/* Append one "key\tvalue\n" line. */
__attribute__((format(printf, 5, 6))) static void
line(char *out, size_t cap, size_t *n, const char *key, const char *fmt, ...) {
  if (*n + 1 >= cap)
    return;
  int k = snprintf(out + *n, cap - *n, "%s\t", key);
  if (k > 0)
    *n += (size_t)k < cap - *n ? (size_t)k : cap - *n - 1;
  va_list ap;
  va_start(ap, fmt);
  k = vsnprintf(out + *n, cap - *n, fmt, ap);
  va_end(ap);
  if (k > 0)
    *n += (size_t)k < cap - *n ? (size_t)k : cap - *n - 1;
  if (*n + 1 < cap) {
    out[(*n)++] = '\n';
    out[*n] = '\0';
  }
}

static void time_line(char *out, size_t cap, size_t *n, const char *key,
                      time_t t) {
  char buf[32] = "";
  struct tm tm;
  if (t != 0 && gmtime_r(&t, &tm) != NULL)
    strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (buf[0])
    line(out, cap, n, key, "%s", buf);
}

size_t hk5_report_text(const hk5_report *r, const helper_cfg *cfg, char *out,
                       size_t cap) {
  size_t n = 0;
  char src[1100];
  if (cap == 0)
    return 0;
  out[0] = '\0';
  line(out, cap, &n, "auth", "%s", wpr_auth_name((wpr_auth)cfg->auth));
  if (r->used[0])
    line(out, cap, &n, "used", "%s", r->used);
  if (cfg->auth == WPR_AUTH_NTLM)
    return n;
  source_text(cfg, src, sizeof(src));
  line(out, cap, &n, "source", "%s", src);
  if (r->principal[0]) {
    line(out, cap, &n, "principal", "%s", r->principal);
    line(out, cap, &n, "realm", "%s", realm_of(r->principal));
  }
  if (r->offset.known)
    line(out, cap, &n, "kdc_offset", "%+ld", r->offset.seconds);
  time_line(out, cap, &n, "tgt_start", r->tgt_start);
  time_line(out, cap, &n, "tgt_end", r->tgt_end);
  if (r->spn[0]) {
    line(out, cap, &n, "spn", "%s", r->spn);
    line(out, cap, &n, "spn_found", "%s",
         r->spn_state > 0   ? "yes"
         : r->spn_state < 0 ? "no"
                            : "not known");
  }
  time_line(out, cap, &n, "ticket_start", r->tkt_start);
  time_line(out, cap, &n, "ticket_end", r->tkt_end);
  if (r->error[0])
    line(out, cap, &n, "error", "%s", r->error);
  return n;
}
