/* collectd-winperf: the remote source's authentication settings
 * (remote_auth.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "remote_auth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *copy(const char *s, bool *ok) {
  if (s == NULL || s[0] == '\0')
    return NULL;
  char *d = strdup(s);
  if (d == NULL)
    *ok = false;
  return d;
}

int wp_remote_auth_init(wp_remote_auth *a, const char *auth,
                        const char *principal, const char *keytab,
                        const char *ccache, const char *krb5_config,
                        const char *krb5_parent, const char *host,
                        bool password, wp_error *err) {
  memset(a, 0, sizeof(*a));
  wpr_auth_settings s = {WPR_AUTH_DEFAULT, principal,   keytab,
                         ccache,           krb5_config, password};
  if (auth != NULL && (s.auth = wpr_auth_parse(auth)) == WPR_AUTH_DEFAULT) {
    wp_error_set(err,
                 "remote %s: Auth \"%s\": expected \"ntlm\", \"kerberos\" or "
                 "\"negotiate\"",
                 host, auth);
    return -1;
  }
  char why[512];
  if (!wpr_auth_check(&s, host, why, sizeof(why))) {
    wp_error_set(err, "remote %s", why);
    return -1;
  }
  a->auth = wpr_auth_resolve(&s);
  snprintf(a->name, sizeof(a->name), "%s", wpr_auth_name(a->auth));
  bool ok = true;
  a->principal = copy(principal, &ok);
  a->keytab = copy(keytab, &ok);
  a->ccache = copy(ccache, &ok);
  a->krb5_config = copy(krb5_config, &ok);
  a->krb5_parent = copy(krb5_parent, &ok);
  if (!ok) {
    wp_remote_auth_free(a);
    wp_error_set_code(err, WP_E_NOMEM, "remote: out of memory");
    return -1;
  }
  return 0;
}

void wp_remote_auth_free(wp_remote_auth *a) {
  free(a->principal);
  free(a->keytab);
  free(a->ccache);
  free(a->krb5_config);
  free(a->krb5_parent);
  memset(a, 0, sizeof(*a));
}

bool wp_remote_auth_krb5(const wp_remote_auth *a) {
  return a->auth != WPR_AUTH_NTLM;
}

void wp_remote_auth_argv(const wp_remote_auth *a, const char *dir,
                         const char **argv, int *n) {
  const char *opt[5] = {"--principal", "--keytab", "--ccache", "--krb5-config",
                        "--krb5-dir"};
  const char *val[5] = {a->principal, a->keytab, a->ccache, a->krb5_config,
                        dir};
  argv[(*n)++] = "--auth";
  argv[(*n)++] = a->name;
  for (int i = 0; i < 5; i++) {
    if (val[i] != NULL) {
      argv[(*n)++] = opt[i];
      argv[(*n)++] = val[i];
    }
  }
}

void wp_remote_auth_open(const wp_remote_auth *a, wpr_open *o) {
  o->auth = (int)a->auth;
  o->principal = a->principal;
  o->keytab = a->keytab;
  o->ccache = a->ccache;
  o->krb5_config = a->krb5_config;
}
