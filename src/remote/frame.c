/* collectd-winperf: the framed protocol between the plugin and the helper.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "frame.h"

#include <stdio.h>
#include <string.h>

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
  case WPR_ERR_OTHER:
  default:
    return "other";
  }
}

void wpr_frame_header(uint8_t out[WPR_FRAME_HDR], uint8_t type,
                      uint32_t payload_len) {
  out[0] = (uint8_t)payload_len;
  out[1] = (uint8_t)(payload_len >> 8);
  out[2] = (uint8_t)(payload_len >> 16);
  out[3] = (uint8_t)(payload_len >> 24);
  out[4] = type;
}

int wpr_frame_parse_header(const uint8_t in[WPR_FRAME_HDR], uint32_t max,
                           uint8_t *type, uint32_t *payload_len, char *err,
                           size_t errlen) {
  uint32_t len = (uint32_t)in[0] | ((uint32_t)in[1] << 8) |
                 ((uint32_t)in[2] << 16) | ((uint32_t)in[3] << 24);
  uint8_t t = in[4];
  uint32_t limit = max < WPR_FRAME_MAX ? max : WPR_FRAME_MAX;
  switch (t) {
  case WPR_MSG_QUERY:
  case WPR_MSG_NAMES:
    if (limit > WPR_REQUEST_MAX)
      limit = WPR_REQUEST_MAX;
    break;
  case WPR_MSG_DATA:
    if (len < 4) {
      snprintf(err, errlen, "frame: data message of %u bytes lacks the type",
               len);
      return -1;
    }
    break;
  case WPR_MSG_ERROR:
    if (len < 1) {
      snprintf(err, errlen, "frame: empty error message");
      return -1;
    }
    break;
  default:
    snprintf(err, errlen, "frame: unknown message type 0x%02x", t);
    return -1;
  }
  if (len > limit) {
    snprintf(err, errlen, "frame: '%c' payload of %u bytes exceeds %u", t, len,
             limit);
    return -1;
  }
  *type = t;
  *payload_len = len;
  return 0;
}

int wpr_parse_query(const uint8_t *payload, size_t len, char *name,
                    size_t namesize, char *err, size_t errlen) {
  if (len == 0 || len > WPR_REQUEST_MAX || len >= namesize) {
    snprintf(err, errlen, "query: value name of %zu bytes (1..%u allowed)", len,
             WPR_REQUEST_MAX);
    return -1;
  }
  for (size_t i = 0; i < len; i++) {
    if (payload[i] < 0x20 || payload[i] > 0x7e) {
      snprintf(err, errlen,
               "query: byte %zu of the value name is not printable ASCII", i);
      return -1;
    }
  }
  memcpy(name, payload, len);
  name[len] = '\0';
  return 0;
}

size_t wpr_build_error(uint8_t *out, size_t cap, wpr_error_kind kind,
                       const char *msg) {
  if (cap < 1)
    return 0;
  out[0] = (uint8_t)kind;
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
  *kind = payload[0] <= WPR_ERR_REQUEST ? (wpr_error_kind)payload[0]
                                        : WPR_ERR_OTHER;
  size_t n = len - 1;
  if (n > msgsize - 1)
    n = msgsize - 1;
  for (size_t i = 0; i < n; i++) {
    uint8_t c = payload[1 + i];
    msg[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
  }
  msg[n] = '\0';
}
