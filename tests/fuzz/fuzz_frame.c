/* collectd-winperf: libFuzzer target over the helper <-> plugin frames.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * src/remote/frame.c parses both directions of the stream between the
 * plugin and winperf-remote-helper: the helper reads requests from a
 * process it did not start itself, the plugin reads answers from a helper
 * that relays a remote server. The first input byte picks the direction;
 * the rest is the stream, read frame by frame as
 * src/remote/helper_requests.c (requests) and src/source/remote.c (answers)
 * read it, with the session messages of a helper of several hosts
 * (frame_session.h) beside QUERY and NAMES. Checks: every accepted header
 * round-trips through wpr_frame_header, an accepted query is the payload
 * itself, a parsed error message has no control character, an error built from
 * the payload parses back to it, an accepted OPEN builds back to the same
 * bytes, and an accepted session id is never 0.
 */
#include "frame.h"
#include "frame_session.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The plugin's cap on an ERROR payload (src/source/remote.c). */
#define ERROR_PAYLOAD_MAX 4096u

static uint8_t *copy(const uint8_t *p, size_t n) {
  uint8_t *c = malloc(n ? n : 1);
  if (c != NULL && n)
    memcpy(c, p, n);
  return c;
}

static int header(const uint8_t *p, uint32_t max, uint8_t *type,
                  uint32_t *len) {
  wp_error err;
  wp_error_clear(&err);
  uint8_t *h = copy(p, WPR_FRAME_HDR);
  if (h == NULL)
    return -1;
  int rc = wpr_frame_parse_header(h, max, type, len, &err);
  free(h);
  if (rc != 0) {
    if (err.message[0] == '\0')
      abort(); /* a refusal says why */
    return -1;
  }
  uint8_t again[WPR_FRAME_HDR];
  wpr_frame_header(again, *type, *len);
  if (memcmp(again, p, WPR_FRAME_HDR) != 0 || *len > max)
    abort();
  return 0;
}

static void check_error(const uint8_t *payload, size_t len) {
  wpr_error_kind kind = WPR_ERR_OTHER;
  char msg[ERROR_PAYLOAD_MAX + 1];
  wpr_parse_error(payload, len, &kind, msg, sizeof msg);
  if ((unsigned)kind > WPR_ERR_ACCESS)
    abort();
  (void)wpr_error_kind_name(kind);
  size_t n = strlen(msg);
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)msg[i] < 0x20 || msg[i] == 0x7f)
      abort(); /* the plugin logs the message: no control characters */
  /* What the helper would send for it parses back to it. */
  uint8_t out[ERROR_PAYLOAD_MAX + 1];
  size_t m = wpr_build_error(out, sizeof out, kind, msg);
  wpr_error_kind kind2;
  char msg2[ERROR_PAYLOAD_MAX + 1];
  wpr_parse_error(out, m, &kind2, msg2, sizeof msg2);
  if (m < 1 || kind2 != kind || strcmp(msg, msg2) != 0)
    abort();
  /* A small buffer truncates and still terminates. */
  char small[8];
  wpr_parse_error(payload, len, &kind2, small, sizeof small);
  if (strlen(small) >= sizeof small)
    abort();
}

/* An OPEN as the helper reads it: what it accepts builds back to itself. */
static void check_open(const uint8_t *payload, uint32_t len) {
  static wpr_open o;
  static uint8_t again[WPR_OPEN_MAX];
  wp_error err;
  if (wpr_parse_open(payload, len, &o, &err) != 0)
    return;
  if (strlen(o.host) == 0 || strlen(o.host) > WPR_OPEN_HOST_MAX || o.auth < 0 ||
      o.auth > 2 || o.principal == NULL || o.keytab == NULL ||
      o.ccache == NULL || o.krb5_config == NULL)
    abort();
  size_t n = wpr_build_open(again, sizeof again, &o);
  if (n != len || memcmp(again, payload, len) != 0)
    abort();
}

/* A request as the helper handles it. */
static void request(uint8_t type, const uint8_t *payload, uint32_t len) {
  char name[WPR_REQUEST_MAX + 1];
  wp_error err;
  uint32_t id = 0;
  if (type == WPR_MSG_QUERY &&
      wpr_parse_query(payload, len, name, sizeof name, &err) == 0 &&
      (strlen(name) != len || memcmp(name, payload, len) != 0))
    abort();
  if (type == WPR_MSG_OPEN)
    check_open(payload, len);
  if (type == WPR_MSG_SQUERY &&
      wpr_parse_session(payload, len, &id, name, sizeof name, &err) == 0 &&
      (id == 0 || strlen(name) != len - WPR_SESSION_ID_LEN ||
       memcmp(name, payload + WPR_SESSION_ID_LEN, len - 4) != 0))
    abort();
  if ((type == WPR_MSG_SNAMES || type == WPR_MSG_CLOSE) &&
      wpr_parse_session(payload, len, &id, NULL, 0, &err) == 0 && id == 0)
    abort();
}

/* An answer as the plugin handles it. */
static void answer(uint8_t type, const uint8_t *payload, uint32_t len) {
  uint32_t id = 0;
  wp_error err;
  if (type == WPR_MSG_ERROR) {
    check_error(payload, len);
  } else if (type == WPR_MSG_SESSION) {
    if (wpr_parse_session(payload, len, &id, NULL, 0, &err) == 0 && id == 0)
      abort();
  } else {
    /* DATA: u32 registry type, then the value (len >= 4 checked) */
    volatile uint8_t x = payload[0] ^ payload[3];
    (void)x;
  }
}

static bool is_request(uint8_t type) {
  return type == WPR_MSG_QUERY || type == WPR_MSG_NAMES ||
         type == WPR_MSG_REPORT || type == WPR_MSG_OPEN ||
         type == WPR_MSG_SQUERY || type == WPR_MSG_SNAMES ||
         type == WPR_MSG_CLOSE;
}

/* The stream, frame by frame, until it ends or falls out of sync: the
 * helper then answers an ERROR and stops, the plugin kills the helper. */
static void stream(const uint8_t *p, size_t n, bool helper_side) {
  while (n >= WPR_FRAME_HDR) {
    uint8_t type;
    uint32_t len;
    if (header(p, helper_side ? WPR_OPEN_MAX : WPR_FRAME_MAX, &type, &len) != 0)
      return;
    if (helper_side ? !is_request(type)
                    : (type != WPR_MSG_DATA && type != WPR_MSG_ERROR &&
                       type != WPR_MSG_SESSION) ||
                          (type == WPR_MSG_ERROR && len > ERROR_PAYLOAD_MAX))
      return;
    p += WPR_FRAME_HDR;
    n -= WPR_FRAME_HDR;
    if (len > n)
      return;
    uint8_t *payload = copy(p, len);
    if (payload == NULL)
      return;
    (helper_side ? request : answer)(type, payload, len);
    free(payload);
    p += len;
    n -= len;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  stream(data + 1, size - 1, (data[0] & 1) == 0);
  /* Any bytes as an error payload, a query of any length, an OPEN. */
  uint8_t *p = copy(data + 1, size - 1);
  if (p != NULL) {
    check_error(p, size - 1);
    char name[WPR_REQUEST_MAX + 1];
    wp_error err;
    (void)wpr_parse_query(p, size - 1, name, sizeof name, &err);
    if (size - 1 <= WPR_OPEN_MAX)
      check_open(p, (uint32_t)(size - 1));
    free(p);
  }
  return 0;
}
