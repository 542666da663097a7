/* collectd-winperf: the helper's request loop (helper_requests.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "helper_requests.h"
#include "frame.h"
#include "helper_answer.h"
#include "helper_krb5.h"
#include "helper_sessions.h"

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

/* Answer one well-framed request of a helper of one host. 0 to carry on,
 * -1 when the plugin went away (an answer could not be written). */
static int answer(int out_fd, conn *c, helper_cfg *cfg, uint8_t type,
                  const uint8_t *payload, uint32_t len) {
  wp_error pe = {0};
  char name[WPR_REQUEST_MAX + 1];
  if (type == WPR_MSG_NAMES)
    return helper_answer_query(out_fd, c, cfg, NULL);
  if (type == WPR_MSG_REPORT) {
    char text[4096];
    size_t n = hkrb5_report(cfg, text, sizeof(text));
    return helper_send_data(out_fd, 0, (const uint8_t *)text, (uint32_t)n);
  }
  if (wpr_parse_query(payload, len, name, sizeof(name), &pe) != 0) {
    herr e;
    herr_set(&e, WPR_ERR_REQUEST, "%s", pe.message);
    return helper_send_error(out_fd, &e);
  }
  return helper_answer_query(out_fd, c, cfg, name);
}

/* Whether a request of that type belongs to this helper's stream. */
static int expected(const helper_cfg *cfg, uint8_t type) {
  if (cfg->sessions == 0)
    return type == WPR_MSG_QUERY || type == WPR_MSG_NAMES ||
           type == WPR_MSG_REPORT;
  return type == WPR_MSG_OPEN || type == WPR_MSG_SQUERY ||
         type == WPR_MSG_SNAMES || type == WPR_MSG_CLOSE;
}

void helper_serve_requests(int in_fd, int out_fd, conn *c, helper_cfg *cfg,
                           hsessions *table) {
  for (;;) {
    uint8_t hdr[WPR_FRAME_HDR], payload[WPR_OPEN_MAX + 1];
    wp_error pe = {0};
    uint8_t type;
    uint32_t len;
    /* 0: the plugin closed the stream (done); -1: it broke. */
    if (read_full(in_fd, hdr, sizeof(hdr)) != 1)
      break;
    wp_error_clear(&pe);
    if (wpr_frame_parse_header(hdr, WPR_OPEN_MAX, &type, &len, &pe) != 0 ||
        !expected(cfg, type)) {
      /* Out of sync: say so once and stop. */
      herr e;
      herr_set(&e, WPR_ERR_REQUEST, "%s",
               pe.message[0] ? pe.message : "unexpected message");
      helper_send_error(out_fd, &e);
      break;
    }
    if (len && read_full(in_fd, payload, len) != 1)
      break;
    int rc;
    if (table != NULL)
      rc = helper_sessions_answer(table, out_fd, type, payload, len);
    else
      rc = answer(out_fd, c, cfg, type, payload, len);
    if (rc != 0)
      break;
  }
}
