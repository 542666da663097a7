/* collectd-winperf: the helper's request loop (helper_requests.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "helper_requests.h"
#include "frame.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

static int read_full(int fd, uint8_t *p, size_t n) {
  size_t off = 0;
  while (off < n) {
    ssize_t r = read(fd, p + off, n - off);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return off == 0 && r == 0 ? 0 : -1;
    off += (size_t)r;
  }
  return 1;
}

static int send_error(int out_fd, const herr *e) {
  uint8_t buf[WPR_FRAME_HDR + sizeof(e->msg) + 1];
  size_t n = wpr_build_error(buf + WPR_FRAME_HDR, sizeof(buf) - WPR_FRAME_HDR,
                             e->kind, e->msg);
  wpr_frame_header(buf, WPR_MSG_ERROR, (uint32_t)n);
  return wpr_write_all(out_fd, buf, WPR_FRAME_HDR + n);
}

static int send_data(int out_fd, uint32_t type, const uint8_t *data,
                     uint32_t len) {
  uint8_t hdr[WPR_DATA_HDR];
  wpr_data_header(hdr, len, type);
  if (wpr_write_all(out_fd, hdr, sizeof(hdr)) != 0)
    return -1;
  return len ? wpr_write_all(out_fd, data, len) : 0;
}

/* Answer one well-framed request. 0 to carry on, -1 when the plugin went
 * away (an answer could not be written). */
static int answer(int out_fd, conn *c, const helper_cfg *cfg, uint8_t type,
                  const uint8_t *payload, uint32_t len) {
  wp_error pe = {0};
  char name[WPR_REQUEST_MAX + 1];
  herr e = {WPR_ERR_OTHER, "", 0};
  uint32_t *hint = &c->size_hint;
  if (type == WPR_MSG_NAMES) {
    snprintf(name, sizeof(name), "Counter 009");
    hint = &c->names_hint;
  } else if (wpr_parse_query(payload, len, name, sizeof(name), &pe) != 0) {
    herr_set(&e, WPR_ERR_REQUEST, "%s", pe.message);
    return send_error(out_fd, &e);
  }
  rrp_query_result res = {0};
  if (session_query(c, cfg, name, hint, &res, &e) != 0)
    return send_error(out_fd, &e);
  return send_data(out_fd, res.has_type ? res.type : 3, res.data, res.data_len);
}

void helper_serve_requests(int in_fd, int out_fd, conn *c,
                           const helper_cfg *cfg, const herr *cred_err) {
  for (;;) {
    uint8_t hdr[WPR_FRAME_HDR], payload[WPR_REQUEST_MAX + 1];
    wp_error pe = {0};
    uint8_t type;
    uint32_t len;
    /* 0: the plugin closed the stream (done); -1: it broke. */
    if (read_full(in_fd, hdr, sizeof(hdr)) != 1)
      break;
    wp_error_clear(&pe);
    if (wpr_frame_parse_header(hdr, WPR_REQUEST_MAX, &type, &len, &pe) != 0 ||
        (type != WPR_MSG_QUERY && type != WPR_MSG_NAMES)) {
      /* Out of sync: say so once and stop. */
      herr e;
      herr_set(&e, WPR_ERR_REQUEST, "%s",
               pe.message[0] ? pe.message : "unexpected message");
      send_error(out_fd, &e);
      break;
    }
    if (len && read_full(in_fd, payload, len) != 1)
      break;
    int rc = cred_err != NULL ? send_error(out_fd, cred_err)
                              : answer(out_fd, c, cfg, type, payload, len);
    if (rc != 0)
      break;
  }
}
