/* collectd-winperf: the helper's side of the frame stream: read requests
 * from the plugin, answer each with one DATA or ERROR frame
 * (doc/remote-protocol.md 5.2).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef WP_REMOTE_HELPER_REQUESTS_H
#define WP_REMOTE_HELPER_REQUESTS_H

#include "helper_config.h"
#include "helper_error.h"
#include "helper_session.h"

typedef struct hsessions hsessions;

/* Serve requests read from in_fd, answers written to out_fd, until the
 * plugin closes the stream or goes away, or the stream is out of step.
 * One host (table NULL): QUERY and NAMES on c (the credentials are read
 * at each logon: helper_session.h). Several hosts (cfg->sessions): OPEN,
 * SQUERY, SNAMES and CLOSE on the sessions of table (helper_sessions.h). */
void helper_serve_requests(int in_fd, int out_fd, conn *c, helper_cfg *cfg,
                           hsessions *table);

/* A helper that may not serve (helper_startup.h): answer the first request
 * with e, then return. */
void helper_refuse(int in_fd, int out_fd, const herr *e);

#endif
