/* collectd-winperf: libFuzzer target for the server-facing parsers.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A remote server is untrusted input: everything the helper reads from it
 * goes through dcerpc_parse_bind_ack, dcerpc_reasm_add and the rrp_parse_*
 * functions (and rrp_query_dword on a QueryValue answer: Perflib's Last
 * Counter). The first input byte picks the parser; for reassembly the rest
 * is cut into fragments by their own frag_length, as the helper does.
 * Build: ./configure CC=clang (HAVE_FUZZER), then
 *   tests/fuzz/fuzz_rpc -max_total_time=60 (or make fuzz-long)
 */
#include "dcerpc.h"
#include "frame.h"
#include "rrp.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wp_error err;
  if (size < 1)
    return 0;
  uint8_t sel = data[0] % 6;
  data++;
  size--;
  /* Copy into an exact-size heap buffer so ASan sees any overread. */
  uint8_t *p = malloc(size ? size : 1);
  if (p == NULL)
    return 0;
  memcpy(p, data, size);
  switch (sel) {
  case 0: {
    dcerpc_bind_result br;
    (void)dcerpc_parse_bind_ack(p, size, 1, &br, &err);
    break;
  }
  case 1: {
    dcerpc_reasm r = {0};
    dcerpc_reasm_reset(&r, 1);
    r.limit = 1 << 20;
    size_t off = 0;
    while (off + DCERPC_HDR_LEN <= size && !r.done) {
      dcerpc_hdr h;
      if (dcerpc_parse_header(p + off, size - off, &h, &err) != DCERPC_OK ||
          h.frag_length > size - off)
        break;
      if (dcerpc_reasm_add(&r, p + off, h.frag_length, &err) != DCERPC_OK)
        break;
      off += h.frag_length;
    }
    if (r.done) {
      rrp_query_result res;
      if (rrp_parse_query_value(r.data, r.len, &res, &err) == 0 &&
          res.has_data && res.data_len) {
        /* The data must lie inside the stub. */
        volatile uint8_t x = res.data[0] ^ res.data[res.data_len - 1];
        (void)x;
      }
    }
    dcerpc_reasm_free(&r);
    break;
  }
  case 2: {
    rrp_query_result res;
    if (rrp_parse_query_value(p, size, &res, &err) == 0 && res.has_data &&
        res.data_len) {
      volatile uint8_t x = res.data[res.data_len - 1];
      (void)x;
    }
    /* Perflib's Last Counter: the REG_DWORD check on the same answer. */
    uint32_t last;
    if (rrp_parse_query_value(p, size, &res, &err) == 0)
      (void)rrp_query_dword(&res, &last, &err);
    break;
  }
  case 3: {
    rrp_handle key;
    uint32_t werr;
    (void)rrp_parse_open_hkpd(p, size, &key, &werr, &err);
    (void)rrp_parse_close_key(p, size, &werr, &err);
    break;
  }
  case 4: {
    /* The plugin side parses what the helper relays. */
    uint8_t type;
    uint32_t len;
    if (size >= WPR_FRAME_HDR)
      (void)wpr_frame_parse_header(p, WPR_FRAME_MAX, &type, &len, &err);
    wpr_error_kind kind;
    char msg[128];
    wpr_parse_error(p, size, &kind, msg, sizeof(msg));
    char name[WPR_REQUEST_MAX + 1];
    (void)wpr_parse_query(p, size, name, sizeof(name), &err);
    break;
  }
  default: {
    dcerpc_hdr h;
    (void)dcerpc_parse_header(p, size, &h, &err);
    break;
  }
  }
  free(p);
  return 0;
}
