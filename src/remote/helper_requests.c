/* collectd-winperf: the helper's request loop (helper_requests.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "helper_requests.h"
#include "frame.h"
#include "helper_answer.h"
#include "helper_krb5.h"
#include "helper_sessions.h"
#include "helper_test_hook.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Read from the stream, keeping the descriptors that come with the bytes
 * (an OPEN's files: frame_session.h) in rx; a stream that is no socket
 * (a pipe, by hand) is read plainly. */
static ssize_t read_some(int fd, uint8_t *p, size_t n, hreceived *rx) {
  union {
    struct cmsghdr align;
    char buf[CMSG_SPACE(sizeof(int) * HRECEIVED_MAX)];
  } ctl;
  struct iovec iov = {p, n};
  struct msghdr m = {0};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  m.msg_control = ctl.buf;
  m.msg_controllen = sizeof(ctl.buf);
  ssize_t r = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);
  if (r < 0 && errno == ENOTSOCK)
    return read(fd, p, n);
  if (r < 0)
    return r;
  if (m.msg_flags & MSG_CTRUNC)
    rx->overflow = 1; /* the kernel closed what did not fit */
  for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c != NULL;
       c = CMSG_NXTHDR(&m, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
      continue;
    size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < k; i++) {
      int got;
      memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
      if (rx->n < HRECEIVED_MAX)
        rx->fd[rx->n++] = got;
      else {
        close(got);
        rx->overflow = 1;
      }
    }
  }
  return r;
}

static int read_full(int fd, uint8_t *p, size_t n, hreceived *rx) {
  size_t off = 0;
  while (off < n) {
    ssize_t r = read_some(fd, p + off, n - off, rx);
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
  if (type == WPR_MSG_LAST_COUNTER)
    return helper_answer_last_counter(out_fd, c, cfg);
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
           type == WPR_MSG_REPORT || type == WPR_MSG_LAST_COUNTER;
  return type == WPR_MSG_OPEN || type == WPR_MSG_SQUERY ||
         type == WPR_MSG_SNAMES || type == WPR_MSG_CLOSE ||
         type == WPR_MSG_SLAST_COUNTER;
}

void helper_serve_requests(int in_fd, int out_fd, conn *c, helper_cfg *cfg,
                           hsessions *table) {
  for (;;) {
    uint8_t hdr[WPR_FRAME_HDR], payload[WPR_OPEN_MAX + 1];
    wp_error pe = {0};
    uint8_t type;
    uint32_t len;
    hreceived rx = {{0}, 0, 0};
    /* 0: the plugin closed the stream (done); -1: it broke. */
    if (read_full(in_fd, hdr, sizeof(hdr), &rx) != 1) {
      hreceived_close(&rx);
      break;
    }
    wp_error_clear(&pe);
    if (wpr_frame_parse_header(hdr, WPR_OPEN_MAX, &type, &len, &pe) != 0 ||
        !expected(cfg, type)) {
      /* Out of sync: say so once and stop. */
      herr e;
      herr_set(&e, WPR_ERR_REQUEST, "%s",
               pe.message[0] ? pe.message : "unexpected message");
      helper_send_error(out_fd, &e);
      hreceived_close(&rx);
      break;
    }
    if (len && read_full(in_fd, payload, len, &rx) != 1) {
      hreceived_close(&rx);
      break;
    }
    helper_test_hook_poll();
    int rc;
    if (table != NULL)
      rc = helper_sessions_answer(table, out_fd, type, payload, len, &rx);
    else
      rc = answer(out_fd, c, cfg, type, payload, len);
    hreceived_close(&rx); /* what OPEN did not keep */
    if (rc != 0)
      break;
  }
}

void helper_refuse(int in_fd, int out_fd, const herr *e) {
  uint8_t hdr[WPR_FRAME_HDR], payload[WPR_OPEN_MAX];
  hreceived rx = {{0}, 0, 0};
  uint8_t type;
  uint32_t len;
  wp_error pe = {0};
  /* The first request (whatever it is) gets the error, then the end. */
  if (read_full(in_fd, hdr, sizeof(hdr), &rx) == 1 &&
      wpr_frame_parse_header(hdr, WPR_OPEN_MAX, &type, &len, &pe) == 0 &&
      (len == 0 || read_full(in_fd, payload, len, &rx) == 1))
    (void)helper_send_error(out_fd, e);
  hreceived_close(&rx);
}
