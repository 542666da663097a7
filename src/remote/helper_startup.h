/* collectd-winperf: the helper's start, up to its first request: what it
 * reads, its private directory, its sandbox.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * helper_startup runs steps 2 to 5 of helper_sandbox.h for the helper
 * main.c has parsed the arguments of: the files of its command line
 * (helper_files.h), the private directory (helper_private.h), the user it
 * becomes, the sandbox, then libsmbclient's configuration in the private
 * directory. When a step fails the helper answers its first request with
 * that error (a configuration error, kind 6: the plugin logs it for the
 * host and backs off) and exits (helper_refuse, helper_requests.h).
 */
#ifndef WP_REMOTE_HELPER_STARTUP_H
#define WP_REMOTE_HELPER_STARTUP_H

#include "helper_config.h"
#include "helper_private.h"

/* 0, or -1 with e: the helper must not serve (its message says what failed
 * and, for the sandbox, that HelperSandbox false runs it without). */
int helper_startup(helper_cfg *cfg, hprivate *priv, herr *e);

#endif
