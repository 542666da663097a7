/* collectd-winperf: DCE/RPC connection-oriented PDUs over byte buffers.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "dcerpc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const dcerpc_syntax dcerpc_winreg_syntax = {{0x01, 0xd0, 0x8c, 0x33, 0x44, 0x22,
                                             0xf1, 0x31, 0xaa, 0xaa, 0x90, 0x00,
                                             0x38, 0x00, 0x10, 0x03},
                                            1,
                                            0};
const dcerpc_syntax dcerpc_ndr_syntax = {{0x04, 0x5d, 0x88, 0x8a, 0xeb, 0x1c,
                                          0xc9, 0x11, 0x9f, 0xe8, 0x08, 0x00,
                                          0x2b, 0x10, 0x48, 0x60},
                                         2,
                                         0};

__attribute__((format(printf, 4, 5))) static dcerpc_status
fail(dcerpc_status st, char *err, size_t errlen, const char *fmt, ...) {
  if (err != NULL && errlen > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return st;
}

static void put_hdr(uint8_t *p, uint8_t ptype, uint8_t flags, uint16_t len,
                    uint32_t call_id) {
  p[0] = 5; /* rpc_vers */
  p[1] = 0; /* rpc_vers_minor */
  p[2] = ptype;
  p[3] = flags;
  /* packed_drep: little-endian integers, ASCII, IEEE floats (C706 14.1). */
  p[4] = 0x10;
  p[5] = p[6] = p[7] = 0;
  dcerpc_put16(p + 8, len);
  dcerpc_put16(p + 10, 0); /* auth_length: SMB carries no RPC auth here */
  dcerpc_put32(p + 12, call_id);
}

dcerpc_status dcerpc_parse_header(const uint8_t *p, size_t len, dcerpc_hdr *h,
                                  char *err, size_t errlen) {
  if (len < DCERPC_HDR_LEN)
    return fail(DCERPC_E_TRUNCATED, err, errlen,
                "PDU header: %zu bytes, need 16", len);
  if (p[0] != 5 || p[1] > 1)
    return fail(DCERPC_E_MALFORMED, err, errlen,
                "PDU header: RPC version %u.%u, expected 5.0", p[0], p[1]);
  if ((p[4] & 0xf0) != 0x10)
    return fail(DCERPC_E_MALFORMED, err, errlen,
                "PDU header: data representation 0x%02x is not little-endian",
                p[4]);
  h->ptype = p[2];
  h->flags = p[3];
  h->frag_length = dcerpc_get16(p + 8);
  h->auth_length = dcerpc_get16(p + 10);
  h->call_id = dcerpc_get32(p + 12);
  if (h->frag_length < DCERPC_HDR_LEN)
    return fail(DCERPC_E_MALFORMED, err, errlen,
                "PDU header: frag_length %u is below the header size",
                h->frag_length);
  /* The auth verifier (8-byte sec_trailer + auth_length) sits at the end. */
  if (h->auth_length != 0 &&
      (size_t)h->auth_length + 8 + DCERPC_HDR_LEN > h->frag_length)
    return fail(DCERPC_E_MALFORMED, err, errlen,
                "PDU header: auth_length %u does not fit frag_length %u",
                h->auth_length, h->frag_length);
  return DCERPC_OK;
}

static void put_syntax(uint8_t *p, const dcerpc_syntax *s) {
  memcpy(p, s->uuid, 16);
  dcerpc_put16(p + 16, s->major);
  dcerpc_put16(p + 18, s->minor);
}

size_t dcerpc_build_bind(uint8_t *out, size_t cap, uint32_t call_id,
                         uint16_t max_xmit, uint16_t max_recv,
                         const dcerpc_syntax *abstract,
                         const dcerpc_syntax *transfer) {
  /* C706 12.6.4.3: header, max_xmit_frag, max_recv_frag, assoc_group_id,
   * p_context_elem (count, 3 reserved bytes), one p_cont_elem_t with one
   * transfer syntax. */
  const size_t len = DCERPC_HDR_LEN + 8 + 4 + 4 + 20 + 20;
  if (out == NULL || cap < len)
    return 0;
  put_hdr(out, DCERPC_PT_BIND, DCERPC_PFC_FIRST_FRAG | DCERPC_PFC_LAST_FRAG,
          (uint16_t)len, call_id);
  uint8_t *p = out + DCERPC_HDR_LEN;
  dcerpc_put16(p, max_xmit);
  dcerpc_put16(p + 2, max_recv);
  dcerpc_put32(p + 4, 0); /* new association group */
  p[8] = 1;               /* n_context_elem */
  p[9] = 0;
  dcerpc_put16(p + 10, 0);
  dcerpc_put16(p + 12, 0); /* p_cont_id */
  p[14] = 1;               /* n_transfer_syn */
  p[15] = 0;
  put_syntax(p + 16, abstract);
  put_syntax(p + 36, transfer);
  return len;
}

dcerpc_status dcerpc_parse_bind_ack(const uint8_t *pdu, size_t len,
                                    uint32_t call_id, dcerpc_bind_result *res,
                                    char *err, size_t errlen) {
  dcerpc_hdr h;
  dcerpc_status st = dcerpc_parse_header(pdu, len, &h, err, errlen);
  if (st != DCERPC_OK)
    return st;
  if (h.frag_length > len)
    return fail(DCERPC_E_TRUNCATED, err, errlen,
                "bind_ack: frag_length %u but only %zu bytes", h.frag_length,
                len);
  size_t end = h.frag_length;
  if (h.auth_length)
    end -= (size_t)h.auth_length + 8;
  if (h.call_id != call_id)
    return fail(DCERPC_E_MALFORMED, err, errlen,
                "bind_ack: call_id %u, expected %u", h.call_id, call_id);
  if (h.ptype == DCERPC_PT_BIND_NAK) {
    /* C706 12.6.4.4: provider_reject_reason follows the header. */
    unsigned reason = end >= 18 ? dcerpc_get16(pdu + 16) : 0xffff;
    return fail(DCERPC_E_REJECTED, err, errlen,
                "bind rejected (bind_nak, reason %u)", reason);
  }
  if (h.ptype != DCERPC_PT_BIND_ACK)
    return fail(DCERPC_E_MALFORMED, err, errlen,
                "bind: answer is PDU type %u, not bind_ack", h.ptype);
  /* C706 12.6.4.4: max_xmit, max_recv, assoc_group, sec_addr (u16 length +
   * bytes), pad to 4, p_result_list (n, reserved, reserved2, results). */
  size_t off = DCERPC_HDR_LEN;
  if (end < off + 10)
    return fail(DCERPC_E_TRUNCATED, err, errlen,
                "bind_ack: %zu bytes, fixed fields need %zu", end, off + 10);
  res->max_xmit = dcerpc_get16(pdu + off);
  res->max_recv = dcerpc_get16(pdu + off + 2);
  res->assoc_group = dcerpc_get32(pdu + off + 4);
  size_t sec_len = dcerpc_get16(pdu + off + 8);
  off += 10;
  if (sec_len > end - off)
    return fail(DCERPC_E_TRUNCATED, err, errlen,
                "bind_ack offset %zu: secondary address length %zu runs past "
                "the PDU (%zu bytes)",
                off - 2, sec_len, end);
  off += sec_len;
  off = (off + 3) & ~(size_t)3;
  if (off > end || end - off < 4)
    return fail(DCERPC_E_TRUNCATED, err, errlen,
                "bind_ack offset %zu: no result list", off);
  unsigned n = pdu[off];
  off += 4;
  if (n == 0)
    return fail(DCERPC_E_REJECTED, err, errlen,
                "bind_ack: empty presentation result list");
  if (end - off < 24)
    return fail(DCERPC_E_TRUNCATED, err, errlen,
                "bind_ack offset %zu: presentation result truncated", off);
  unsigned result = dcerpc_get16(pdu + off);
  unsigned reason = dcerpc_get16(pdu + off + 2);
  if (result != 0)
    return fail(DCERPC_E_REJECTED, err, errlen,
                "bind: the server refused the winreg interface (result %u, "
                "reason %u)",
                result, reason);
  if (memcmp(pdu + off + 4, dcerpc_ndr_syntax.uuid, 16) != 0)
    return fail(DCERPC_E_REJECTED, err, errlen,
                "bind: the server chose a transfer syntax other than NDR");
  if (res->max_xmit < DCERPC_REQ_HDR_LEN || res->max_recv < DCERPC_HDR_LEN)
    return fail(DCERPC_E_MALFORMED, err, errlen,
                "bind_ack: fragment sizes %u/%u are too small", res->max_xmit,
                res->max_recv);
  return DCERPC_OK;
}

size_t dcerpc_build_request(uint8_t *out, size_t cap, uint32_t call_id,
                            uint16_t opnum, const uint8_t *stub,
                            size_t stub_len) {
  if (out == NULL || stub_len > DCERPC_MAX_FRAG - DCERPC_REQ_HDR_LEN)
    return 0;
  size_t len = DCERPC_REQ_HDR_LEN + stub_len;
  if (cap < len)
    return 0;
  put_hdr(out, DCERPC_PT_REQUEST, DCERPC_PFC_FIRST_FRAG | DCERPC_PFC_LAST_FRAG,
          (uint16_t)len, call_id);
  /* C706 12.6.4.9: alloc_hint, p_cont_id, opnum. */
  dcerpc_put32(out + 16, (uint32_t)stub_len);
  dcerpc_put16(out + 20, 0);
  dcerpc_put16(out + 22, opnum);
  if (stub_len)
    memcpy(out + DCERPC_REQ_HDR_LEN, stub, stub_len);
  return len;
}

void dcerpc_reasm_reset(dcerpc_reasm *r, uint32_t call_id) {
  r->len = 0;
  r->call_id = call_id;
  r->started = 0;
  r->done = 0;
  r->fault = 0;
}

void dcerpc_reasm_free(dcerpc_reasm *r) {
  free(r->data);
  r->data = NULL;
  r->len = r->cap = 0;
}

static int reasm_grow(dcerpc_reasm *r, size_t need) {
  if (need <= r->cap)
    return 0;
  size_t cap = r->cap ? r->cap : 4096;
  while (cap < need)
    cap *= 2; /* need <= DCERPC_MAX_STUB, so no overflow */
  uint8_t *p = realloc(r->data, cap);
  if (p == NULL)
    return -1;
  r->data = p;
  r->cap = cap;
  return 0;
}

dcerpc_status dcerpc_reasm_add(dcerpc_reasm *r, const uint8_t *frag, size_t len,
                               char *err, size_t errlen) {
  dcerpc_hdr h;
  dcerpc_status st = dcerpc_parse_header(frag, len, &h, err, errlen);
  if (st != DCERPC_OK)
    return st;
  if (h.frag_length != len)
    return fail(DCERPC_E_TRUNCATED, err, errlen,
                "response: frag_length %u but %zu bytes", h.frag_length, len);
  if (r->done)
    return fail(DCERPC_E_MALFORMED, err, errlen,
                "response: fragment after the last one");
  if (h.call_id != r->call_id)
    return fail(DCERPC_E_MALFORMED, err, errlen,
                "response: call_id %u, expected %u", h.call_id, r->call_id);
  if (h.ptype == DCERPC_PT_FAULT) {
    /* C706 12.6.4.7: alloc_hint, p_cont_id, cancel_count, reserved, status */
    if (len < DCERPC_RESP_HDR_LEN + 4)
      return fail(DCERPC_E_TRUNCATED, err, errlen,
                  "fault PDU: %zu bytes, the status needs 28", len);
    r->fault = dcerpc_get32(frag + DCERPC_RESP_HDR_LEN);
    const char *name = dcerpc_fault_name(r->fault);
    return fail(DCERPC_E_FAULT, err, errlen, "RPC fault 0x%08x%s%s%s", r->fault,
                name ? " (" : "", name ? name : "", name ? ")" : "");
  }
  if (h.ptype != DCERPC_PT_RESPONSE)
    return fail(DCERPC_E_MALFORMED, err, errlen,
                "response: PDU type %u, expected response", h.ptype);
  size_t end = len;
  if (h.auth_length)
    end -= (size_t)h.auth_length + 8; /* checked by parse_header */
  if (end < DCERPC_RESP_HDR_LEN)
    return fail(DCERPC_E_TRUNCATED, err, errlen,
                "response: %zu bytes before the auth trailer, header needs 24",
                end);
  if (!r->started) {
    if (!(h.flags & DCERPC_PFC_FIRST_FRAG))
      return fail(DCERPC_E_MALFORMED, err, errlen,
                  "response: first fragment lacks PFC_FIRST_FRAG");
    r->started = 1;
  } else if (h.flags & DCERPC_PFC_FIRST_FRAG) {
    return fail(DCERPC_E_MALFORMED, err, errlen,
                "response: PFC_FIRST_FRAG in the middle of a call");
  }
  size_t stub = end - DCERPC_RESP_HDR_LEN;
  size_t limit = r->limit ? r->limit : DCERPC_MAX_STUB;
  if (limit > DCERPC_MAX_STUB)
    limit = DCERPC_MAX_STUB;
  if (stub > limit - r->len)
    return fail(DCERPC_E_LIMIT, err, errlen,
                "response: stub data exceeds %zu bytes", limit);
  /* alloc_hint is advisory and hostile: never sized from it. */
  if (reasm_grow(r, r->len + stub) != 0)
    return fail(DCERPC_E_NOMEM, err, errlen, "response: out of memory");
  if (stub)
    memcpy(r->data + r->len, frag + DCERPC_RESP_HDR_LEN, stub);
  r->len += stub;
  if (h.flags & DCERPC_PFC_LAST_FRAG)
    r->done = 1;
  return DCERPC_OK;
}

const char *dcerpc_fault_name(uint32_t status) {
  switch (status) {
  case 0x00000005:
    return "access denied";
  case 0x000006f7:
    return "bad stub data";
  case 0x1c010002:
    return "nca_s_op_rng_error: unknown operation";
  case 0x1c010003:
    return "nca_s_unk_if: unknown interface";
  case 0x1c01000b:
    return "nca_s_proto_error";
  case 0x1c00001a:
    return "nca_s_fault_context_mismatch";
  case 0x00000721:
    return "RPC_S_SEC_PKG_ERROR";
  default:
    return NULL;
  }
}
