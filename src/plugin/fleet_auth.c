/* collectd-winperf: a remote host's authentication (fleet_auth.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "fleet_auth.h"
#include "auth.h"

#include <stdlib.h>
#include <string.h>

int wp_fleet_check_auth(const char *name, const char *where,
                        const wp_host_settings *s, wp_error *err) {
  wpr_auth_settings a = wp_hs_auth(s);
  /* The SPN is the address's: the one the helper connects to. */
  const char *address = s->address ? s->address : name;
  char why[600];
  if (wpr_auth_check(&a, address, why, sizeof(why)))
    return 0;
  /* "NAME: ..." says the address; once is enough when it is the name */
  size_t n = strlen(address);
  const char *text = why;
  if (strcmp(address, name) == 0 && strncmp(why, address, n) == 0 &&
      strncmp(why + n, ": ", 2) == 0)
    text = why + n + 2;
  return wp_error_set(err, "%s: host \"%s\": %s", where, name, text);
}

const char *wp_fleet_auth_name(const wp_host_settings *s) {
  wpr_auth_settings a = wp_hs_auth(s);
  return wpr_auth_name(wpr_auth_resolve(&a));
}

wp_cred *wp_fleet_cred(const wp_host_settings *s) {
  const char *source = s->password_file;
  if (s->keytab != NULL)
    source = s->keytab;
  else if (s->ccache != NULL) /* "FILE:/path": the file */
    source = strchr(s->ccache, ':') ? strchr(s->ccache, ':') + 1 : s->ccache;
  return wp_cred_get(wp_fleet_auth_name(s), s->domain,
                     s->principal ? s->principal : s->user, source);
}
