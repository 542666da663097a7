/* collectd-winperf: the framed protocol between the plugin and the helper.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "frame.h"
#include "wire.h"

#include <stdio.h>
#include <string.h>
#ifndef _WIN32
#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

/* The 5-byte header, then (DATA) the registry type. */
enum {
  FRAME_payload_length = 0, /* u32 */
  FRAME_type = 4,           /* u8 */
  DATA_reg_type = WPR_FRAME_HDR,
  ERROR_kind = 0, /* in the payload */
};

const char *wpr_error_kind_name(wpr_error_kind kind) {
  switch (kind) {
  case WPR_ERR_AUTH:
    return "auth";
  case WPR_ERR_CONNECT:
    return "connect";
  case WPR_ERR_TIMEOUT:
    return "timeout";
  case WPR_ERR_PROTOCOL:
    return "protocol";
  case WPR_ERR_SERVER:
    return "server";
  case WPR_ERR_CONFIG:
    return "config";
  case WPR_ERR_REQUEST:
    return "request";
  case WPR_ERR_ACCESS:
    return "access";
  case WPR_ERR_OTHER:
  default:
    return "other";
  }
}

void wpr_frame_header(uint8_t out[WPR_FRAME_HDR], uint8_t type,
                      uint32_t payload_len) {
  wire_out w = wire_out_le(out, WPR_FRAME_HDR);
  wire_st32(&w, FRAME_payload_length, payload_len);
  wire_st8(&w, FRAME_type, type);
}

void wpr_data_header(uint8_t out[WPR_DATA_HDR], uint32_t data_len,
                     uint32_t reg_type) {
  wpr_frame_header(out, WPR_MSG_DATA, data_len + 4);
  wire_out w = wire_out_le(out, WPR_DATA_HDR);
  wire_st32(&w, DATA_reg_type, reg_type);
}

int wpr_frame_parse_header(const uint8_t in[WPR_FRAME_HDR], uint32_t max,
                           uint8_t *type, uint32_t *payload_len,
                           wp_error *err) {
  wire_bytes b = wire_le(in, WPR_FRAME_HDR);
  uint32_t len = wire_ld32(&b, FRAME_payload_length);
  uint8_t t = wire_ld8(&b, FRAME_type);
  uint32_t limit = max < WPR_FRAME_MAX ? max : WPR_FRAME_MAX;
  uint32_t type_max = WPR_FRAME_MAX;
  switch (t) {
  case WPR_MSG_QUERY:
  case WPR_MSG_NAMES:
    type_max = WPR_REQUEST_MAX;
    break;
  case WPR_MSG_REPORT:
  case WPR_MSG_LAST_COUNTER:
    type_max = 0;
    break;
  case WPR_MSG_SQUERY:
    type_max = WPR_SESSION_ID_LEN + WPR_REQUEST_MAX;
    if (len <= WPR_SESSION_ID_LEN)
      return wp_error_set(err,
                          "frame: 'q' payload of %u bytes lacks the "
                          "session id or the name",
                          len);
    break;
  case WPR_MSG_OPEN:
    type_max = WPR_OPEN_MAX;
    break;
  case WPR_MSG_SESSION:
  case WPR_MSG_SNAMES:
  case WPR_MSG_SLAST_COUNTER:
  case WPR_MSG_CLOSE:
    if (len != WPR_SESSION_ID_LEN)
      return wp_error_set(err,
                          "frame: '%c' payload of %u bytes is not a "
                          "session id",
                          t, len);
    break;
  case WPR_MSG_DATA:
    if (len < 4)
      return wp_error_set(err, "frame: data message of %u bytes lacks the type",
                          len);
    break;
  case WPR_MSG_ERROR:
    if (len < 1)
      return wp_error_set(err, "frame: empty error message");
    break;
  default:
    return wp_error_set(err, "frame: unknown message type 0x%02x", t);
  }
  if (limit > type_max)
    limit = type_max;
  if (len > limit)
    return wp_error_set(err, "frame: '%c' payload of %u bytes exceeds %u", t,
                        len, limit);
  *type = t;
  *payload_len = len;
  return 0;
}

int wpr_parse_query(const uint8_t *payload, size_t len, char *name,
                    size_t namesize, wp_error *err) {
  if (len == 0 || len > WPR_REQUEST_MAX || len >= namesize)
    return wp_error_set(err, "query: value name of %zu bytes (1..%u allowed)",
                        len, WPR_REQUEST_MAX);
  for (size_t i = 0; i < len; i++) {
    if (payload[i] < 0x20 || payload[i] > 0x7e)
      return wp_error_set(
          err, "query: byte %zu of the value name is not printable ASCII", i);
  }
  memcpy(name, payload, len);
  name[len] = '\0';
  return 0;
}

size_t wpr_build_error(uint8_t *out, size_t cap, wpr_error_kind kind,
                       const char *msg) {
  if (cap < 1)
    return 0;
  wire_out w = wire_out_le(out, cap);
  wire_st8(&w, ERROR_kind, (uint8_t)kind);
  size_t n = msg ? strlen(msg) : 0;
  if (n > cap - 1)
    n = cap - 1;
  if (n)
    memcpy(out + 1, msg, n);
  return n + 1;
}

void wpr_parse_error(const uint8_t *payload, size_t len, wpr_error_kind *kind,
                     char *msg, size_t msgsize) {
  if (msgsize == 0)
    return;
  if (len == 0) {
    *kind = WPR_ERR_OTHER;
    snprintf(msg, msgsize, "(empty error)");
    return;
  }
  wire_bytes b = wire_le(payload, len);
  uint8_t k = wire_ld8(&b, ERROR_kind);
  *kind = k <= WPR_ERR_ACCESS ? (wpr_error_kind)k : WPR_ERR_OTHER;
  size_t n = len - 1;
  if (n > msgsize - 1)
    n = msgsize - 1;
  for (size_t i = 0; i < n; i++) {
    uint8_t c = payload[1 + i];
    msg[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
  }
  msg[n] = '\0';
}

#ifndef _WIN32
int wpr_write_all(int fd, const void *p, size_t n) {
  const uint8_t *b = p;
  int is_socket = 1;
  size_t off = 0;
  while (off < n) {
    ssize_t w = is_socket ? send(fd, b + off, n - off, MSG_NOSIGNAL)
                          : write(fd, b + off, n - off);
    if (w < 0 && errno == ENOTSOCK && is_socket) {
      is_socket = 0;
      continue;
    }
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return -1;
    off += (size_t)w;
  }
  return 0;
}
#endif
