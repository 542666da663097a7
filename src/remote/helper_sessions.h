/* collectd-winperf: the sessions of a helper that serves several hosts
 * (winperf-remote-helper --sessions N; doc/remote-protocol.md 5.4).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Each OPEN makes a session: the host's settings and credentials (its
 * credentials file, else the environment the helper started with) and a
 * libsmbclient context and MS-RRP key of its own (helper_session.h), so a
 * host's refused login, timeout or unreachable address is that session's
 * ERROR answer and no other session's. Requests are served one at a time.
 */
#ifndef WP_REMOTE_HELPER_SESSIONS_H
#define WP_REMOTE_HELPER_SESSIONS_H

#include "helper_config.h"
#include "helper_session.h"

typedef struct hsession hsession;

typedef struct hsessions {
  const helper_cfg *base; /* --smb-conf, the captured environment */
  hsession **slot;        /* base->sessions of them, NULL: free */
  uint32_t last_id;       /* ids are never reused within a helper */
} hsessions;

/* An empty table of base->sessions slots. 0, or -1 without memory. */
int helper_sessions_init(hsessions *t, const helper_cfg *base);

/* Answer one well-framed OPEN, SQUERY, SNAMES or CLOSE. An OPEN's session
 * keeps the descriptors of its files from rx (taken out of it). 0 to carry
 * on, -1 when the answer could not be written (the plugin went away). */
int helper_sessions_answer(hsessions *t, int out_fd, uint8_t type,
                           const uint8_t *payload, uint32_t len, hreceived *rx);

/* Close every session (BaseRegCloseKey, log off) and free the table. */
void helper_sessions_close(hsessions *t);

#endif
