/* collectd-winperf: DCE/RPC connection-oriented PDUs over byte buffers.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "dcerpc.h"
#include "wp_grow.h"

#include <assert.h>
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

/* C706 12.6.4.3 (bind), 12.6.4.4 (bind_ack), 12.6.4.9 (request),
 * 12.6.4.10 (response) and 12.6.4.7 (fault): fields after the common
 * header, from the start of the PDU. */
enum {
  BIND_max_xmit_frag = 16,
  BIND_max_recv_frag = 18,
  BIND_assoc_group_id = 20,
  BIND_n_context_elem = 24, /* u8, then 3 reserved bytes */
  BIND_p_cont_id = 28,      /* the first p_cont_elem_t */
  BIND_n_transfer_syn = 30, /* u8, then 1 reserved byte */
  BIND_abstract_syntax = 32,
  BIND_transfer_syntax = 52,
  BIND_SIZE = 72,
  BIND_ACK_max_xmit_frag = 16,
  BIND_ACK_max_recv_frag = 18,
  BIND_ACK_assoc_group_id = 20,
  BIND_ACK_sec_addr_length = 24, /* u16, then the address */
  BIND_ACK_sec_addr = 26,
  RESULT_LIST_n_results = 0, /* u8, then 3 reserved bytes */
  RESULT_LIST_results = 4,
  RESULT_result = 0,
  RESULT_reason = 2,
  RESULT_transfer_syntax = 4,
  RESULT_SIZE = 24,
  BIND_NAK_provider_reject_reason = 16,
  REQUEST_alloc_hint = 16,
  REQUEST_p_cont_id = 20,
  REQUEST_opnum = 22,
  FAULT_status = 24,
  /* p_syntax_id_t: if_uuid, then if_version as major and minor u16 */
  SYNTAX_if_uuid = 0,
  SYNTAX_if_version_major = 16,
  SYNTAX_if_version_minor = 18,
  SYNTAX_SIZE = 20,
};

__attribute__((format(printf, 3, 4))) static dcerpc_status
fail(dcerpc_status st, wp_error *err, const char *fmt, ...) {
  if (err != NULL) {
    wp_error_code code = st == DCERPC_E_NOMEM   ? WP_E_NOMEM
                         : st == DCERPC_E_LIMIT ? WP_E_LIMIT
                                                : WP_E_FAILED;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    err->code = code;
  }
  return st;
}

static void put_hdr(wire_out *w, uint8_t ptype, uint8_t flags, uint16_t len,
                    uint32_t call_id) {
  wire_st8(w, DCERPC_HDR_rpc_vers, 5);
  wire_st8(w, DCERPC_HDR_rpc_vers_minor, 0);
  wire_st8(w, DCERPC_HDR_PTYPE, ptype);
  wire_st8(w, DCERPC_HDR_pfc_flags, flags);
  /* packed_drep: little-endian integers, ASCII, IEEE floats (C706 14.1). */
  wire_st32(w, DCERPC_HDR_packed_drep, 0x10);
  wire_st16(w, DCERPC_HDR_frag_length, len);
  /* auth_length: SMB carries no RPC auth here */
  wire_st16(w, DCERPC_HDR_auth_length, 0);
  wire_st32(w, DCERPC_HDR_call_id, call_id);
}

dcerpc_status dcerpc_parse_header(const uint8_t *p, size_t len, dcerpc_hdr *h,
                                  wp_error *err) {
  if (len < DCERPC_HDR_LEN)
    return fail(DCERPC_E_TRUNCATED, err, "PDU header: %zu bytes, need 16", len);
  wire_bytes b = wire_le(p, DCERPC_HDR_LEN);
  unsigned vers = wire_ld8(&b, DCERPC_HDR_rpc_vers),
           minor = wire_ld8(&b, DCERPC_HDR_rpc_vers_minor),
           drep = wire_ld8(&b, DCERPC_HDR_packed_drep);
  if (vers != 5 || minor > 1)
    return fail(DCERPC_E_MALFORMED, err,
                "PDU header: RPC version %u.%u, expected 5.0", vers, minor);
  if ((drep & 0xf0) != 0x10)
    return fail(DCERPC_E_MALFORMED, err,
                "PDU header: data representation 0x%02x is not little-endian",
                drep);
  h->ptype = wire_ld8(&b, DCERPC_HDR_PTYPE);
  h->flags = wire_ld8(&b, DCERPC_HDR_pfc_flags);
  h->frag_length = wire_ld16(&b, DCERPC_HDR_frag_length);
  h->auth_length = wire_ld16(&b, DCERPC_HDR_auth_length);
  h->call_id = wire_ld32(&b, DCERPC_HDR_call_id);
  if (h->frag_length < DCERPC_HDR_LEN)
    return fail(DCERPC_E_MALFORMED, err,
                "PDU header: frag_length %u is below the header size",
                h->frag_length);
  /* The auth verifier (8-byte sec_trailer + auth_length) sits at the end. */
  if (h->auth_length != 0 &&
      (size_t)h->auth_length + 8 + DCERPC_HDR_LEN > h->frag_length)
    return fail(DCERPC_E_MALFORMED, err,
                "PDU header: auth_length %u does not fit frag_length %u",
                h->auth_length, h->frag_length);
  return DCERPC_OK;
}

static void put_syntax(wire_out *w, size_t off, const dcerpc_syntax *s) {
  assert(wire_out_has(w, off, SYNTAX_SIZE));
  memcpy(w->data + off + SYNTAX_if_uuid, s->uuid, 16);
  wire_st16(w, off + SYNTAX_if_version_major, s->major);
  wire_st16(w, off + SYNTAX_if_version_minor, s->minor);
}

size_t dcerpc_build_bind(uint8_t *out, size_t cap, uint32_t call_id,
                         uint16_t max_xmit, uint16_t max_recv,
                         const dcerpc_syntax *abstract,
                         const dcerpc_syntax *transfer) {
  /* C706 12.6.4.3: header, max_xmit_frag, max_recv_frag, assoc_group_id,
   * p_context_elem (count, 3 reserved bytes), one p_cont_elem_t with one
   * transfer syntax. */
  const size_t len = BIND_SIZE;
  if (out == NULL || cap < len)
    return 0;
  wire_out w = wire_out_le(out, len);
  memset(out, 0, len); /* the reserved bytes */
  put_hdr(&w, DCERPC_PT_BIND, DCERPC_PFC_FIRST_FRAG | DCERPC_PFC_LAST_FRAG,
          (uint16_t)len, call_id);
  wire_st16(&w, BIND_max_xmit_frag, max_xmit);
  wire_st16(&w, BIND_max_recv_frag, max_recv);
  wire_st32(&w, BIND_assoc_group_id, 0); /* new association group */
  wire_st8(&w, BIND_n_context_elem, 1);
  wire_st16(&w, BIND_p_cont_id, 0);
  wire_st8(&w, BIND_n_transfer_syn, 1);
  put_syntax(&w, BIND_abstract_syntax, abstract);
  put_syntax(&w, BIND_transfer_syntax, transfer);
  return len;
}

dcerpc_status dcerpc_parse_bind_ack(const uint8_t *pdu, size_t len,
                                    uint32_t call_id, dcerpc_bind_result *res,
                                    wp_error *err) {
  dcerpc_hdr h;
  dcerpc_status st = dcerpc_parse_header(pdu, len, &h, err);
  if (st != DCERPC_OK)
    return st;
  if (h.frag_length > len)
    return fail(DCERPC_E_TRUNCATED, err,
                "bind_ack: frag_length %u but only %zu bytes", h.frag_length,
                len);
  size_t end = h.frag_length;
  if (h.auth_length)
    end -= (size_t)h.auth_length + 8;
  wire_bytes b = wire_le(pdu, end);
  if (h.call_id != call_id)
    return fail(DCERPC_E_MALFORMED, err, "bind_ack: call_id %u, expected %u",
                h.call_id, call_id);
  if (h.ptype == DCERPC_PT_BIND_NAK) {
    /* C706 12.6.4.4: provider_reject_reason follows the header. */
    uint16_t reason = 0xffff;
    wire_get16(&b, BIND_NAK_provider_reject_reason, &reason);
    return fail(DCERPC_E_REJECTED, err, "bind rejected (bind_nak, reason %u)",
                reason);
  }
  if (h.ptype != DCERPC_PT_BIND_ACK)
    return fail(DCERPC_E_MALFORMED, err,
                "bind: answer is PDU type %u, not bind_ack", h.ptype);
  /* C706 12.6.4.4: max_xmit, max_recv, assoc_group, sec_addr (u16 length +
   * bytes), pad to 4, p_result_list (n, reserved, reserved2, results). */
  size_t off = BIND_ACK_sec_addr;
  if (end < off)
    return fail(DCERPC_E_TRUNCATED, err,
                "bind_ack: %zu bytes, fixed fields need %zu", end, off);
  res->max_xmit = wire_ld16(&b, BIND_ACK_max_xmit_frag);
  res->max_recv = wire_ld16(&b, BIND_ACK_max_recv_frag);
  res->assoc_group = wire_ld32(&b, BIND_ACK_assoc_group_id);
  size_t sec_len = wire_ld16(&b, BIND_ACK_sec_addr_length);
  if (sec_len > end - off)
    return fail(DCERPC_E_TRUNCATED, err,
                "bind_ack offset %zu: secondary address length %zu runs past "
                "the PDU (%zu bytes)",
                off - 2, sec_len, end);
  off += sec_len;
  off = (off + 3) & ~(size_t)3;
  if (off > end || end - off < 4)
    return fail(DCERPC_E_TRUNCATED, err, "bind_ack offset %zu: no result list",
                off);
  unsigned n = wire_ld8(&b, off + RESULT_LIST_n_results);
  off += RESULT_LIST_results;
  if (n == 0)
    return fail(DCERPC_E_REJECTED, err,
                "bind_ack: empty presentation result list");
  if (end - off < RESULT_SIZE)
    return fail(DCERPC_E_TRUNCATED, err,
                "bind_ack offset %zu: presentation result truncated", off);
  unsigned result = wire_ld16(&b, off + RESULT_result);
  unsigned reason = wire_ld16(&b, off + RESULT_reason);
  if (result != 0)
    return fail(DCERPC_E_REJECTED, err,
                "bind: the server refused the winreg interface (result %u, "
                "reason %u)",
                result, reason);
  if (memcmp(pdu + off + RESULT_transfer_syntax + SYNTAX_if_uuid,
             dcerpc_ndr_syntax.uuid, 16) != 0)
    return fail(DCERPC_E_REJECTED, err,
                "bind: the server chose a transfer syntax other than NDR");
  if (res->max_xmit < DCERPC_REQ_HDR_LEN || res->max_recv < DCERPC_HDR_LEN)
    return fail(DCERPC_E_MALFORMED, err,
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
  wire_out w = wire_out_le(out, len);
  put_hdr(&w, DCERPC_PT_REQUEST, DCERPC_PFC_FIRST_FRAG | DCERPC_PFC_LAST_FRAG,
          (uint16_t)len, call_id);
  wire_st32(&w, REQUEST_alloc_hint, (uint32_t)stub_len);
  wire_st16(&w, REQUEST_p_cont_id, 0);
  wire_st16(&w, REQUEST_opnum, opnum);
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

/* "nca_s_op_rng_error", "access denied", ... or NULL. */
static const char *dcerpc_fault_name(uint32_t status) {
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

void dcerpc_reasm_free(dcerpc_reasm *r) {
  free(r->data);
  r->data = NULL;
  r->len = r->cap = 0;
}

dcerpc_status dcerpc_reasm_add(dcerpc_reasm *r, const uint8_t *frag, size_t len,
                               wp_error *err) {
  dcerpc_hdr h;
  dcerpc_status st = dcerpc_parse_header(frag, len, &h, err);
  if (st != DCERPC_OK)
    return st;
  if (h.frag_length != len)
    return fail(DCERPC_E_TRUNCATED, err,
                "response: frag_length %u but %zu bytes", h.frag_length, len);
  if (r->done)
    return fail(DCERPC_E_MALFORMED, err,
                "response: fragment after the last one");
  if (h.call_id != r->call_id)
    return fail(DCERPC_E_MALFORMED, err, "response: call_id %u, expected %u",
                h.call_id, r->call_id);
  if (h.ptype == DCERPC_PT_FAULT) {
    /* C706 12.6.4.7: alloc_hint, p_cont_id, cancel_count, reserved, status */
    wire_bytes b = wire_le(frag, len);
    if (!wire_get32(&b, FAULT_status, &r->fault))
      return fail(DCERPC_E_TRUNCATED, err,
                  "fault PDU: %zu bytes, the status needs 28", len);
    const char *name = dcerpc_fault_name(r->fault);
    return fail(DCERPC_E_FAULT, err, "RPC fault 0x%08x%s%s%s", r->fault,
                name ? " (" : "", name ? name : "", name ? ")" : "");
  }
  if (h.ptype != DCERPC_PT_RESPONSE)
    return fail(DCERPC_E_MALFORMED, err,
                "response: PDU type %u, expected response", h.ptype);
  size_t end = len;
  if (h.auth_length)
    end -= (size_t)h.auth_length + 8; /* checked by parse_header */
  if (end < DCERPC_RESP_HDR_LEN)
    return fail(DCERPC_E_TRUNCATED, err,
                "response: %zu bytes before the auth trailer, header needs 24",
                end);
  if (!r->started) {
    if (!(h.flags & DCERPC_PFC_FIRST_FRAG))
      return fail(DCERPC_E_MALFORMED, err,
                  "response: first fragment lacks PFC_FIRST_FRAG");
    r->started = 1;
  } else if (h.flags & DCERPC_PFC_FIRST_FRAG) {
    return fail(DCERPC_E_MALFORMED, err,
                "response: PFC_FIRST_FRAG in the middle of a call");
  }
  size_t stub = end - DCERPC_RESP_HDR_LEN;
  size_t limit = r->limit ? r->limit : DCERPC_MAX_STUB;
  if (limit > DCERPC_MAX_STUB)
    limit = DCERPC_MAX_STUB;
  if (stub > limit - r->len)
    return fail(DCERPC_E_LIMIT, err, "response: stub data exceeds %zu bytes",
                limit);
  /* alloc_hint is advisory and hostile: never sized from it. */
  int grown = wp_grow_bytes(&r->data, &r->cap, r->len + stub, limit);
  if (grown == WP_GROW_LIMIT)
    return fail(DCERPC_E_LIMIT, err, "response: stub data exceeds %zu bytes",
                limit);
  if (grown != WP_GROW_OK)
    return fail(DCERPC_E_NOMEM, err, "response: out of memory");
  if (stub)
    memcpy(r->data + r->len, frag + DCERPC_RESP_HDR_LEN, stub);
  r->len += stub;
  if (h.flags & DCERPC_PFC_LAST_FRAG)
    r->done = 1;
  return DCERPC_OK;
}
