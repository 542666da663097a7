/* collectd-winperf: the helper's error value: an error kind for the plugin
 * and a message, plus whether the SMB connection broke.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef WP_REMOTE_HELPER_ERROR_H
#define WP_REMOTE_HELPER_ERROR_H

#include "frame.h"

/* An error to send back: kind + message. */
typedef struct herr {
  wpr_error_kind kind;
  char msg[1024];
  int transport; /* the SMB connection broke: reconnect and maybe retry */
} herr;

/* Record kind and message (transport cleared); returns -1. */
__attribute__((format(printf, 3, 4))) int herr_set(herr *e, wpr_error_kind kind,
                                                   const char *fmt, ...);

#endif
