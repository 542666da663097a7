/* collectd-winperf: a remote host's authentication, from its resolved
 * settings: the rules of src/remote/auth.h (exactly one Kerberos credential
 * source, a DNS name for Kerberos, a FILE: cache), the credential it logs on
 * with (credentials.h) and what its source (remote.h) is given.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef WP_PLUGIN_FLEET_AUTH_H
#define WP_PLUGIN_FLEET_AUTH_H

#include "credentials.h"
#include "host_settings.h"
#include "wp_error.h"

/* Whether host `name` (given at `where`: "<Host \"x\"> block" or
 * "FILE:LINE:COLUMN") may log on as s says. 0, or -1 with err: a
 * configuration error (collectd refuses to start; a reloaded inventory is
 * refused, the hosts in use stay). */
int wp_fleet_check_auth(const char *name, const char *where,
                        const wp_host_settings *s, wp_error *err);

/* The method's name ("ntlm", "kerberos", "negotiate"), resolved. */
const char *wp_fleet_auth_name(const wp_host_settings *s);

/* The host's credential: (Auth, Domain, User or Principal, source: the
 * Keytab, the CCache's file or the PasswordFile; the environment when none)
 * with one more user; NULL without memory. */
wp_cred *wp_fleet_cred(const wp_host_settings *s);

#endif
