/* collectd-winperf: the framed protocol between the plugin and the helper.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Over a stream (the helper's stdin/stdout), each message is
 *   u32 little-endian payload length | u8 type | payload
 * Requests (plugin -> helper), one at a time, each answered by exactly one
 * DATA or ERROR:
 *   QUERY 'Q': the value name to read from HKEY_PERFORMANCE_DATA, ASCII
 *              ("Global" or an index list such as "238 2 4")
 *   NAMES 'N': empty: the "Counter 009" name table
 *   REPORT 'K': empty: how the last logon went (Kerberos: realm, SPN, clock
 *              offset, ticket times), answered by DATA of type 0 holding
 *              "key<TAB>value" lines; for `winperf doctor`
 * Answers (helper -> plugin):
 *   DATA  'D': u32 LE registry type, then the value's bytes
 *   ERROR 'E': u8 error kind (wpr_error_kind), then a UTF-8 message
 * A helper started with --sessions N serves several hosts, each in a
 * session (frame_session.h; doc/remote-protocol.md 5.4):
 *   OPEN    'O': a host's settings (wpr_open) -> SESSION or ERROR
 *   SESSION 'S': u32 LE session id (helper -> plugin)
 *   SQUERY  'q': u32 LE session id, then a value name as in QUERY
 *   SNAMES  'n': u32 LE session id: its "Counter 009" table
 *   CLOSE   'C': u32 LE session id -> SESSION (the same id) or ERROR
 */
#ifndef WP_REMOTE_FRAME_H
#define WP_REMOTE_FRAME_H

#include "wp_error.h"

#include <stddef.h>
#include <stdint.h>

#define WPR_FRAME_HDR 5
/* Largest payload either side accepts: the MS-RRP data limit + the type. */
#define WPR_FRAME_MAX (0x4000000u + 4u)
/* Largest request payload (a value name). */
#define WPR_REQUEST_MAX 1024u
/* Largest OPEN payload (five numbers and four strings). */
#define WPR_OPEN_MAX 4096u
/* A session id, the payload of SESSION, SNAMES, SLAST_COUNTER and CLOSE. */
#define WPR_SESSION_ID_LEN 4u

enum {
  WPR_MSG_QUERY = 'Q',
  WPR_MSG_NAMES = 'N',
  WPR_MSG_REPORT = 'K',
  WPR_MSG_DATA = 'D',
  WPR_MSG_ERROR = 'E',
  WPR_MSG_OPEN = 'O',
  WPR_MSG_SESSION = 'S',
  WPR_MSG_SQUERY = 'q',
  WPR_MSG_SNAMES = 'n',
  WPR_MSG_CLOSE = 'C',
  /* Perflib's Last Counter (doc/remote-protocol.md 5.2): LAST_COUNTER is
   * empty, SLAST_COUNTER a session id; answered by DATA (REG_DWORD). */
  WPR_MSG_LAST_COUNTER = 'L',
  WPR_MSG_SLAST_COUNTER = 'l',
};

typedef enum wpr_error_kind {
  WPR_ERR_OTHER = 0,
  WPR_ERR_AUTH = 1,     /* credentials refused: do not retry fast */
  WPR_ERR_CONNECT = 2,  /* host unreachable, port closed, pipe missing */
  WPR_ERR_TIMEOUT = 3,  /* the server did not answer in time */
  WPR_ERR_PROTOCOL = 4, /* malformed or hostile answer from the server */
  WPR_ERR_SERVER = 5,   /* the server answered with a Win32 error/fault */
  WPR_ERR_CONFIG = 6,   /* bad helper arguments or credentials file */
  WPR_ERR_REQUEST = 7,  /* malformed request from the plugin */
  /* logged on, then refused access (IPC$ or \pipe\winreg denied, OpenHKPD
   * or the query ERROR_ACCESS_DENIED, DCE/RPC fault 5): the account's
   * rights on this host, not its credentials */
  WPR_ERR_ACCESS = 8,
} wpr_error_kind;

/* "auth", "connect", ... */
const char *wpr_error_kind_name(wpr_error_kind kind);

/* Write the 5-byte header. */
void wpr_frame_header(uint8_t out[WPR_FRAME_HDR], uint8_t type,
                      uint32_t payload_len);

/* A DATA message's header and registry type (WPR_DATA_HDR bytes): the
 * value's `data_len` bytes follow. */
#define WPR_DATA_HDR (WPR_FRAME_HDR + 4)
void wpr_data_header(uint8_t out[WPR_DATA_HDR], uint32_t data_len,
                     uint32_t reg_type);

/* Check a received header: a known type, and a payload length within `max`
 * and the type's own bounds (QUERY, NAMES: WPR_REQUEST_MAX; SQUERY: the id
 * and a name; OPEN: WPR_OPEN_MAX; SESSION, SNAMES, CLOSE: exactly the id).
 * 0, or -1 with err (may be NULL). */
int wpr_frame_parse_header(const uint8_t in[WPR_FRAME_HDR], uint32_t max,
                           uint8_t *type, uint32_t *payload_len, wp_error *err);

/* Check a QUERY payload: 1..WPR_REQUEST_MAX printable ASCII bytes. Copies
 * it NUL-terminated into name (size >= WPR_REQUEST_MAX + 1). 0, or -1
 * with err (may be NULL). */
int wpr_parse_query(const uint8_t *payload, size_t len, char *name,
                    size_t namesize, wp_error *err);

/* ERROR payload: kind byte + message (truncated to fit cap). Returns the
 * payload length (>= 1) or 0 if cap < 1. */
size_t wpr_build_error(uint8_t *out, size_t cap, wpr_error_kind kind,
                       const char *msg);
#ifndef _WIN32
/* Write all n bytes of a frame to fd, retrying short writes and EINTR.
 * A socket is written with send(MSG_NOSIGNAL), so a peer that went away
 * gives EPIPE instead of SIGPIPE; anything else (a pipe, a terminal) with
 * write(). 0, or -1 with errno. */
int wpr_write_all(int fd, const void *p, size_t n);
#endif

/* Decode an ERROR payload into kind + NUL-terminated message (control
 * characters replaced by '?'). */
void wpr_parse_error(const uint8_t *payload, size_t len, wpr_error_kind *kind,
                     char *msg, size_t msgsize);

#endif
