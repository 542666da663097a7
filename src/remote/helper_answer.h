/* collectd-winperf: the helper's answers: a DATA or ERROR frame.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef WP_REMOTE_HELPER_ANSWER_H
#define WP_REMOTE_HELPER_ANSWER_H

#include "helper_config.h"
#include "helper_error.h"
#include "helper_session.h"

/* Answer a request for value name (NULL: the "Counter 009" names) with a
 * DATA or ERROR frame. 0, or -1 when the frame could not be written. */
int helper_answer_query(int out_fd, conn *c, helper_cfg *cfg, const char *name);

/* An ERROR frame for e; a DATA frame. 0, or -1 when it could not be
 * written. */
/* Answer LAST_COUNTER: DATA of type REG_DWORD, Perflib's Last Counter as
 * 4 bytes little-endian, or ERROR (session_last_counter). */
int helper_answer_last_counter(int out_fd, conn *c, helper_cfg *cfg);

int helper_send_error(int out_fd, const herr *e);
int helper_send_data(int out_fd, uint32_t type, const uint8_t *data,
                     uint32_t len);

#endif
