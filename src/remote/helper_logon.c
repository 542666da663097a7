/* collectd-winperf: how the helper logs on to a host (helper_logon.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "helper_logon.h"
#include "auth.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* libsmbclient's last "... login failed: <status text>" while connecting. */
static char login_failure[300];

static void log_line(void *priv, int level, const char *msg) {
  (void)priv;
  if (level <= 0)
    fputs(msg, stderr);
  const char *p = strstr(msg, "login failed: ");
  if (p != NULL) {
    snprintf(login_failure, sizeof(login_failure), "%s", p + 14);
    login_failure[strcspn(login_failure, "\r\n")] = '\0';
  }
}

int helper_logon_prepare(helper_cfg *cfg, hkrb5_conn *kc, herr *e) {
  cfg->krb_logon = NULL;
  if (cfg->auth == WPR_AUTH_NTLM)
    return 0;
  if (wpr_host_is_address(cfg->host)) {
    if (cfg->auth == WPR_AUTH_NEGOTIATE) {
      hkrb5_note("ntlm", "an address: no Kerberos");
      return 0;
    }
    return herr_set(e, WPR_ERR_CONFIG,
                    "%s is an IP address (or localhost): Kerberos needs the "
                    "host's DNS name, whose SPN cifs/NAME the domain knows",
                    cfg->host);
  }
  if (hkrb5_prepare(cfg, kc, e) == 0) {
    cfg->krb_logon = kc;
    return 0;
  }
  hkrb5_note("", e->msg);
  /* negotiate: NTLM unless the KDC refused the key (counted once only) */
  if (cfg->auth == WPR_AUTH_NEGOTIATE && e->kind != WPR_ERR_AUTH) {
    hkrb5_note("ntlm", e->msg);
    return 0;
  }
  return -1;
}

void helper_logon_context(SMBCCTX *ctx, const helper_cfg *cfg) {
  login_failure[0] = '\0';
  smbc_setLogCallback(ctx, NULL, log_line);
  smbc_setDebug(ctx, 3);
  smbc_setOptionUseKerberos(ctx, cfg->krb_logon != NULL);
  smbc_setOptionFallbackAfterKerberos(ctx, 0);
}

void helper_logon_identity(const helper_cfg *cfg, char *wg, int wglen, char *un,
                           int unlen, char *pw, int pwlen) {
  const hkrb5_conn *kc = cfg->krb_logon;
  const char *domain = kc ? kc->realm : cfg->domain;
  if (domain[0] && wglen > 0)
    snprintf(wg, (size_t)wglen, "%s", domain);
  if (unlen > 0)
    snprintf(un, (size_t)unlen, "%s", kc ? kc->user : cfg->user);
  /* Kerberos: the tickets only, never a password libsmbclient could use
   * for a pre-authentication of its own. */
  if (pwlen > 0)
    snprintf(pw, (size_t)pwlen, "%s", kc ? "" : cfg->password);
}

int helper_logon_failed(herr *e, const helper_cfg *cfg, int errnum) {
  const hkrb5_conn *kc = cfg->krb_logon;
  const char *sep = cfg->domain[0] ? "\\" : "";
  const char *said = login_failure[0] ? login_failure : strerror(errnum);
  if (kc != NULL) {
    if (!login_failure[0] && errnum != EINVAL && errnum != EPERM)
      return 0;
    /* The KDC gave the ticket: the server itself would not take it. */
    herr_set(e, WPR_ERR_OTHER,
             "%s refused the Kerberos logon of %s@%s with a ticket for %s "
             "(%s): the computer's keys may differ from the domain's (rejoin "
             "it or reset its account), or the SPN belongs to another "
             "computer",
             cfg->host, kc->user, kc->realm, kc->spn, said);
  } else if (strstr(login_failure, "NTLM was blocked") != NULL) {
    herr_set(e, WPR_ERR_AUTH,
             "authentication failed: %s refused the NTLM logon of user "
             "%s%s%s (NT_STATUS_NTLM_BLOCKED: the domain restricts NTLM): "
             "use Auth \"kerberos\"",
             cfg->host, cfg->domain, sep, cfg->user);
  } else if (login_failure[0] || errnum == EPERM) {
    herr_set(e, WPR_ERR_AUTH,
             "authentication failed: %s refused the NTLM logon (SMB session "
             "setup) of user %s%s%s%s: %s%s",
             cfg->host, cfg->domain, sep, cfg->user,
             cfg->encrypt && !login_failure[0] ? " (or would not encrypt)" : "",
             login_failure[0] ? login_failure
                              : "libsmbclient reports no NT status",
             login_failure[0] ? ""
                              : "; if the domain restricts NTLM, try "
                                "Auth \"kerberos\"");
  } else {
    return 0;
  }
  return 1;
}

void helper_logon_done(SMBCCTX *ctx, helper_cfg *cfg, const herr *e) {
  if (ctx != NULL)
    smbc_setDebug(ctx, 0);
  if (cfg->auth != WPR_AUTH_NTLM)
    hkrb5_note(cfg->krb_logon ? "kerberos" : "ntlm", e ? e->msg : NULL);
  cfg->krb_logon = NULL;
}

int helper_logon_stale(const hkrb5_conn *kc) {
  return hkrb5_stale(kc, time(NULL));
}
