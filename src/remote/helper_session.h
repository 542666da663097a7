/* collectd-winperf: the helper's session with one host over MS-RRP.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * One SMB connection to \\HOST\IPC$\winreg (libsmbclient only as a
 * named-pipe transport; the DCE/RPC and NDR are dcerpc.c and rrp.c), kept
 * open between requests: bind, OpenHKPD once, then BaseRegQueryValue per
 * request with a growing buffer (doc/remote-protocol.md 2-4). Every step
 * runs under the watchdog (helper_watchdog.h).
 */
#ifndef WP_REMOTE_HELPER_SESSION_H
#define WP_REMOTE_HELPER_SESSION_H

#include "dcerpc.h"
#include "helper_config.h"
#include "helper_error.h"
#include "helper_krb5.h"
#include "rrp.h"

#include <libsmbclient.h>

typedef struct conn {
  SMBCCTX *ctx;
  SMBCFILE *pipe;
  int have_key;
  rrp_handle key;
  uint32_t call_id;
  uint16_t max_xmit;
  uint32_t size_hint; /* last data buffer size that sufficed */
  uint32_t names_hint;
  hkrb5_conn krb; /* its Kerberos tickets, when it logs on so */
  dcerpc_reasm reasm;
  uint8_t frag[DCERPC_MAX_FRAG + 1];
} conn;

/* Read value `name` (connecting first when there is no open key), starting
 * from the buffer size *hint (0: cfg->buffer_size) and storing the size that
 * sufficed there. A transport failure on a cached connection (the server
 * restarted since the last request) is retried once on a fresh one. On
 * success res->data points into c->reasm, valid until the next call. 0, or
 * -1 with e. */
int session_query(conn *c, helper_cfg *cfg, const char *name, uint32_t *hint,
                  rrp_query_result *res, herr *e);

/* Perflib's "Last Counter" (doc/format.md 4.1) through OpenHKLM,
 * BaseRegOpenKey and BaseRegQueryValue, connecting first when there is no
 * open key, as session_query does. 0 with *value, or -1 with e (a Win32
 * error: the access or server kind; a value that is no REG_DWORD of 4
 * bytes: protocol). */
int session_last_counter(conn *c, helper_cfg *cfg, uint32_t *value, herr *e);

/* BaseRegCloseKey when a key is open, then close the connection and free
 * the session's buffers. */
void session_close(conn *c, const helper_cfg *cfg);

#endif
