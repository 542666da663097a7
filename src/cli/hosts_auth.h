/* collectd-winperf: `winperf hosts --check`'s look at a host's
 * authentication: the rules the plugin applies (src/remote/auth.h) and
 * the modes of its keytab or ticket cache.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef WINPERF_HOSTS_AUTH_H
#define WINPERF_HOSTS_AUTH_H

#include "host_settings.h"

/* Host `name` (at `where`, "FILE:LINE:COLUMN") with resolved settings s:
 * an error on stderr and 1 when the plugin would refuse it (two credential
 * sources, an IP address with Kerberos...), else 0; a warning on stdout for
 * a keytab or cache the helper would refuse for its mode. */
int cli_hosts_check_auth(const char *name, const char *where,
                         const wp_host_settings *s);

#endif
