/* collectd-winperf: the helper's answers (helper_answer.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "helper_answer.h"
#include "frame.h"

int helper_send_error(int out_fd, const herr *e) {
  uint8_t buf[WPR_FRAME_HDR + sizeof(e->msg) + 1];
  size_t n = wpr_build_error(buf + WPR_FRAME_HDR, sizeof(buf) - WPR_FRAME_HDR,
                             e->kind, e->msg);
  wpr_frame_header(buf, WPR_MSG_ERROR, (uint32_t)n);
  return wpr_write_all(out_fd, buf, WPR_FRAME_HDR + n);
}

int helper_send_data(int out_fd, uint32_t type, const uint8_t *data,
                     uint32_t len) {
  uint8_t hdr[WPR_DATA_HDR];
  wpr_data_header(hdr, len, type);
  if (wpr_write_all(out_fd, hdr, sizeof(hdr)) != 0)
    return -1;
  return len ? wpr_write_all(out_fd, data, len) : 0;
}

int helper_answer_query(int out_fd, conn *c, helper_cfg *cfg,
                        const char *name) {
  herr e = {WPR_ERR_OTHER, "", 0};
  uint32_t *hint = name == NULL ? &c->names_hint : &c->size_hint;
  if (name == NULL)
    name = "Counter 009";
  rrp_query_result res = {0};
  if (session_query(c, cfg, name, hint, &res, &e) != 0)
    return helper_send_error(out_fd, &e);
  return helper_send_data(out_fd, res.has_type ? res.type : 3, res.data,
                          res.data_len);
}

int helper_answer_last_counter(int out_fd, conn *c, helper_cfg *cfg) {
  herr e = {WPR_ERR_OTHER, "", 0};
  uint32_t value = 0;
  if (session_last_counter(c, cfg, &value, &e) != 0)
    return helper_send_error(out_fd, &e);
  uint8_t le[4] = {(uint8_t)value, (uint8_t)(value >> 8),
                   (uint8_t)(value >> 16), (uint8_t)(value >> 24)};
  return helper_send_data(out_fd, RRP_REG_DWORD, le, sizeof(le));
}
