/* collectd-winperf: unit tests of the DCE/RPC, MS-RRP NDR and framing code.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Canned PDUs written by hand from C706 chapter 12.6 and the MS-RRP IDL,
 * then truncated and made hostile: every parser must refuse without
 * reading out of bounds (run under ASan) or allocating from a bad length.
 */
#include "dcerpc.h"
#include "frame.h"
#include "frame_session.h"
#include "rrp.h"
#include "tap.h"

#include <stdlib.h>

static wp_error err;

/* Common header bytes: version 5.0, type, flags, little-endian drep,
 * frag_length, auth_length, call_id. */
static size_t hdr(uint8_t *p, uint8_t type, uint8_t flags, uint16_t flen,
                  uint16_t alen, uint32_t call_id) {
  p[0] = 5;
  p[1] = 0;
  p[2] = type;
  p[3] = flags;
  p[4] = 0x10;
  p[5] = p[6] = p[7] = 0;
  wire_put_le16(p + 8, flen);
  wire_put_le16(p + 10, alen);
  wire_put_le32(p + 12, call_id);
  return 16;
}

/* A response fragment with `n` stub bytes from `stub`. */
static size_t response(uint8_t *p, uint8_t flags, uint32_t call_id,
                       const uint8_t *stub, size_t n) {
  hdr(p, DCERPC_PT_RESPONSE, flags, (uint16_t)(24 + n), 0, call_id);
  wire_put_le32(p + 16, (uint32_t)n); /* alloc_hint */
  wire_put_le16(p + 20, 0);
  p[22] = p[23] = 0;
  memcpy(p + 24, stub, n);
  return 24 + n;
}

static void test_header(void) {
  uint8_t p[16];
  dcerpc_hdr h;
  hdr(p, DCERPC_PT_RESPONSE, 3, 40, 0, 7);
  IS_INT(dcerpc_parse_header(p, 16, &h, &err), DCERPC_OK, "header: valid");
  IS_INT(h.frag_length, 40, "header: frag_length");
  IS_INT(h.call_id, 7, "header: call_id");
  IS_INT(dcerpc_parse_header(p, 15, &h, &err), DCERPC_E_TRUNCATED,
         "header: 15 bytes is truncated");
  p[0] = 4;
  IS_INT(dcerpc_parse_header(p, 16, &h, &err), DCERPC_E_MALFORMED,
         "header: version 4 refused");
  p[0] = 5;
  p[4] = 0x00; /* big-endian integers */
  IS_INT(dcerpc_parse_header(p, 16, &h, &err), DCERPC_E_MALFORMED,
         "header: big-endian data representation refused");
  p[4] = 0x10;
  wire_put_le16(p + 8, 15);
  IS_INT(dcerpc_parse_header(p, 16, &h, &err), DCERPC_E_MALFORMED,
         "header: frag_length 15 < 16 refused");
  wire_put_le16(p + 8, 40);
  wire_put_le16(p + 10, 17); /* 16 + 8 + 17 > 40 */
  IS_INT(dcerpc_parse_header(p, 16, &h, &err), DCERPC_E_MALFORMED,
         "header: auth_length past the fragment refused");
  OK(strstr(err.message, "auth_length 17") != NULL,
     "header: message names the field");
}

static void test_bind(void) {
  /* C706 12.6.4.3, hand-assembled: winreg 1.0 over NDR 2.0. */
  static const uint8_t want[72] = {
      5,    0,    11,   3,    0x10, 0,    0,    0,    72,   0,    0,    0,
      1,    0,    0,    0,    0xb8, 0x10, 0xb8, 0x10, 0,    0,    0,    0,
      1,    0,    0,    0,    0,    0,    1,    0,    0x01, 0xd0, 0x8c, 0x33,
      0x44, 0x22, 0xf1, 0x31, 0xaa, 0xaa, 0x90, 0x00, 0x38, 0x00, 0x10, 0x03,
      1,    0,    0,    0,    0x04, 0x5d, 0x88, 0x8a, 0xeb, 0x1c, 0xc9, 0x11,
      0x9f, 0xe8, 0x08, 0x00, 0x2b, 0x10, 0x48, 0x60, 2,    0,    0,    0};
  uint8_t out[128];
  size_t n = dcerpc_build_bind(out, sizeof(out), 1, 4280, 4280,
                               &dcerpc_winreg_syntax, &dcerpc_ndr_syntax);
  IS_INT(n, 72, "bind: 72 bytes");
  OK(n == 72 && memcmp(out, want, 72) == 0, "bind: bytes match C706 layout");
  IS_INT(dcerpc_build_bind(out, 71, 1, 4280, 4280, &dcerpc_winreg_syntax,
                           &dcerpc_ndr_syntax),
         0, "bind: refuses a short buffer");
}

/* A bind_ack as Samba sends it: sec_addr "\PIPE\winreg" (13 bytes with the
 * NUL), padded to 4, one acceptance result with NDR. */
static size_t bind_ack(uint8_t *p, uint32_t call_id, uint16_t result) {
  size_t off = 16;
  wire_put_le16(p + off, 4280);
  wire_put_le16(p + off + 2, 4280);
  wire_put_le32(p + off + 4, 0x1234);
  wire_put_le16(p + off + 8, 13);
  memcpy(p + off + 10, "\\PIPE\\winreg", 13);
  off += 10 + 13; /* 39 */
  while (off % 4)
    p[off++] = 0;
  p[off] = 1; /* n_results */
  p[off + 1] = 0;
  wire_put_le16(p + off + 2, 0);
  off += 4;
  wire_put_le16(p + off, result);
  wire_put_le16(p + off + 2, 0);
  memcpy(p + off + 4, dcerpc_ndr_syntax.uuid, 16);
  wire_put_le32(p + off + 20, 2);
  off += 24;
  hdr(p, DCERPC_PT_BIND_ACK, 3, (uint16_t)off, 0, call_id);
  return off;
}

static void test_bind_ack(void) {
  uint8_t p[128];
  dcerpc_bind_result br;
  size_t n = bind_ack(p, 1, 0);
  IS_INT(n, 68, "bind_ack: canned PDU is 68 bytes");
  IS_INT(dcerpc_parse_bind_ack(p, n, 1, &br, &err), DCERPC_OK,
         "bind_ack: accepted");
  IS_INT(br.max_recv, 4280, "bind_ack: max_recv");
  IS_INT(br.assoc_group, 0x1234, "bind_ack: assoc_group");
  IS_INT(dcerpc_parse_bind_ack(p, n, 2, &br, &err), DCERPC_E_MALFORMED,
         "bind_ack: wrong call_id refused");
  int all = 1;
  for (size_t cut = 0; cut < n; cut++) {
    /* Cut both the bytes and frag_length: a PDU that claims less. */
    uint8_t q[128];
    memcpy(q, p, n);
    if (cut >= 16)
      wire_put_le16(q + 8, (uint16_t)cut);
    if (dcerpc_parse_bind_ack(q, cut, 1, &br, &err) == DCERPC_OK)
      all = 0;
  }
  OK(all, "bind_ack: every truncation refused");
  n = bind_ack(p, 1, 2);
  IS_INT(dcerpc_parse_bind_ack(p, n, 1, &br, &err), DCERPC_E_REJECTED,
         "bind_ack: provider rejection");
  n = bind_ack(p, 1, 0);
  wire_put_le16(p + 24, 0xffff); /* hostile sec_addr length */
  IS_INT(dcerpc_parse_bind_ack(p, n, 1, &br, &err), DCERPC_E_TRUNCATED,
         "bind_ack: sec_addr length 65535 refused");
  n = bind_ack(p, 1, 0);
  p[40] = 0; /* n_results 0 */
  IS_INT(dcerpc_parse_bind_ack(p, n, 1, &br, &err), DCERPC_E_REJECTED,
         "bind_ack: empty result list refused");
  n = bind_ack(p, 1, 0);
  p[52] ^= 0xff; /* transfer syntax UUID */
  IS_INT(dcerpc_parse_bind_ack(p, n, 1, &br, &err), DCERPC_E_REJECTED,
         "bind_ack: other transfer syntax refused");
  hdr(p, DCERPC_PT_BIND_NAK, 3, 18, 0, 1);
  wire_put_le16(p + 16, 4);
  IS_INT(dcerpc_parse_bind_ack(p, 18, 1, &br, &err), DCERPC_E_REJECTED,
         "bind_nak: rejected");
  OK(strstr(err.message, "reason 4") != NULL,
     "bind_nak: reason in the message");
}

static void test_request(void) {
  uint8_t stub[8], out[64];
  IS_INT(rrp_build_open_hkpd(stub, sizeof(stub), 0), 8, "OpenHKPD stub: 8");
  static const uint8_t want_stub[8] = {0};
  OK(memcmp(stub, want_stub, 8) == 0, "OpenHKPD stub: NULL server, sam 0");
  size_t n = dcerpc_build_request(out, sizeof(out), 9, 3, stub, 8);
  IS_INT(n, 32, "request: 24 + 8 bytes");
  static const uint8_t want[32] = {5, 0, 0, 3, 0x10, 0, 0, 0, 32, 0, 0,
                                   0, 9, 0, 0, 0,    8, 0, 0, 0,  0, 0,
                                   3, 0, 0, 0, 0,    0, 0, 0, 0,  0};
  OK(n == 32 && memcmp(out, want, 32) == 0,
     "request: bytes match C706 12.6.4.9");
  IS_INT(dcerpc_build_request(out, 31, 9, 3, stub, 8), 0,
         "request: refuses a short buffer");
}

static void test_reassembly(void) {
  uint8_t f1[64], f2[64], stub[40];
  for (int i = 0; i < 40; i++)
    stub[i] = (uint8_t)i;
  dcerpc_reasm r = {0};
  dcerpc_reasm_reset(&r, 5);
  size_t n1 = response(f1, DCERPC_PFC_FIRST_FRAG, 5, stub, 24);
  size_t n2 = response(f2, DCERPC_PFC_LAST_FRAG, 5, stub + 24, 16);
  IS_INT(dcerpc_reasm_add(&r, f1, n1, &err), DCERPC_OK,
         "reasm: first fragment");
  IS_INT(r.done, 0, "reasm: not done after the first");
  IS_INT(dcerpc_reasm_add(&r, f2, n2, &err), DCERPC_OK, "reasm: last fragment");
  IS_INT(r.done, 1, "reasm: done");
  OK(r.len == 40 && memcmp(r.data, stub, 40) == 0,
     "reasm: stub is the concatenation");
  IS_INT(dcerpc_reasm_add(&r, f2, n2, &err), DCERPC_E_MALFORMED,
         "reasm: fragment after the last refused");

  dcerpc_reasm_reset(&r, 5);
  IS_INT(dcerpc_reasm_add(&r, f2, n2, &err), DCERPC_E_MALFORMED,
         "reasm: a call must start with PFC_FIRST_FRAG");
  dcerpc_reasm_reset(&r, 6);
  IS_INT(dcerpc_reasm_add(&r, f1, n1, &err), DCERPC_E_MALFORMED,
         "reasm: other call_id refused");
  dcerpc_reasm_reset(&r, 5);
  IS_INT(dcerpc_reasm_add(&r, f1, n1 - 1, &err), DCERPC_E_TRUNCATED,
         "reasm: fewer bytes than frag_length refused");
  dcerpc_reasm_reset(&r, 5);
  dcerpc_reasm_add(&r, f1, n1, &err);
  IS_INT(dcerpc_reasm_add(&r, f1, n1, &err), DCERPC_E_MALFORMED,
         "reasm: second PFC_FIRST_FRAG refused");

  /* The limit: a server that keeps sending. */
  dcerpc_reasm_reset(&r, 5);
  r.limit = 30;
  IS_INT(dcerpc_reasm_add(&r, f1, n1, &err), DCERPC_OK,
         "reasm: 24 bytes under a 30-byte limit");
  IS_INT(dcerpc_reasm_add(&r, f2, n2, &err), DCERPC_E_LIMIT,
         "reasm: 40 bytes over a 30-byte limit refused");
  r.limit = 0;

  /* Auth trailer: 8-byte sec_trailer + auth_length bytes are not stub. */
  uint8_t fa[64];
  size_t na = response(fa, 3, 7, stub, 40);
  wire_put_le16(fa + 10, 8); /* last 16 bytes = trailer + verifier */
  dcerpc_reasm_reset(&r, 7);
  IS_INT(dcerpc_reasm_add(&r, fa, na, &err), DCERPC_OK,
         "reasm: fragment with an auth trailer");
  IS_INT(r.len, 24, "reasm: the auth trailer is stripped");
  wire_put_le16(fa + 10, 40); /* 64 - 8 - 40 leaves 16 < 24 header bytes */
  dcerpc_reasm_reset(&r, 7);
  IS_INT(dcerpc_reasm_add(&r, fa, na, &err), DCERPC_E_TRUNCATED,
         "reasm: auth trailer eating the header refused");

  /* Fault PDU (C706 12.6.4.7). */
  uint8_t ff[32];
  hdr(ff, DCERPC_PT_FAULT, 3, 32, 0, 8);
  memset(ff + 16, 0, 16);
  wire_put_le32(ff + 24, 0x1c010002);
  dcerpc_reasm_reset(&r, 8);
  IS_INT(dcerpc_reasm_add(&r, ff, 32, &err), DCERPC_E_FAULT, "fault: reported");
  IS_U64(r.fault, 0x1c010002, "fault: status");
  OK(strstr(err.message, "nca_s_op_rng_error") != NULL,
     "fault: named in the message");
  wire_put_le16(ff + 8, 27);
  dcerpc_reasm_reset(&r, 8);
  IS_INT(dcerpc_reasm_add(&r, ff, 27, &err), DCERPC_E_TRUNCATED,
         "fault: truncated status refused");
  dcerpc_reasm_free(&r);
}

static void test_open_close(void) {
  uint8_t stub[24];
  rrp_handle key;
  uint32_t werr = 99;
  for (int i = 0; i < 20; i++)
    stub[i] = (uint8_t)(0xa0 + i);
  wire_put_le32(stub + 20, 0);
  IS_INT(rrp_parse_open_hkpd(stub, 24, &key, &werr, &err), 0,
         "OpenHKPD response: parsed");
  OK(key.bytes[0] == 0xa0 && key.bytes[19] == 0xb3, "OpenHKPD: handle copied");
  IS_INT(werr, 0, "OpenHKPD: status 0");
  int all = 1;
  for (size_t cut = 0; cut < 24; cut++)
    if (rrp_parse_open_hkpd(stub, cut, &key, &werr, &err) == 0)
      all = 0;
  OK(all, "OpenHKPD: every truncation refused");
  uint8_t out[32];
  IS_INT(rrp_build_close_key(out, sizeof(out), &key), 20, "CloseKey: 20 bytes");
  OK(memcmp(out, key.bytes, 20) == 0, "CloseKey: the handle");
  IS_INT(rrp_parse_close_key(stub, 24, &werr, &err), 0,
         "CloseKey response: parsed");
  IS_INT(rrp_parse_close_key(stub, 23, &werr, &err), -1,
         "CloseKey response: truncated refused");
}

static void test_query_request(void) {
  rrp_handle key;
  for (int i = 0; i < 20; i++)
    key.bytes[i] = (uint8_t)i;
  uint8_t out[256];
  size_t n = rrp_build_query_value(out, sizeof(out), &key, "Global", 0x1000);
  /* handle 20, RRP_UNICODE_STRING 8 + conformant varying header 12 +
   * 7 UTF-16 units padded to 16, lpType 8, lpData 16, lpcbData 8,
   * lpcbLen 8 = 96. */
  IS_INT(n, 96, "QueryValue request: 96 bytes");
  static const uint8_t want[76] = {
      14, 0,    14, 0, 0,   0, 2,   0, 7,   0, 0,   0, 0,   0, 0,   0,
      7,  0,    0,  0, 'G', 0, 'l', 0, 'o', 0, 'b', 0, 'a', 0, 'l', 0,
      0,  0,    0,  0, 4,   0, 2,   0, 0,   0, 0,   0, 8,   0, 2,   0,
      0,  0x10, 0,  0, 0,   0, 0,   0, 0,   0, 0,   0, 12,  0, 2,   0,
      0,  0x10, 0,  0, 16,  0, 2,   0, 0,   0, 0,   0};
  OK(n == 96 && memcmp(out, key.bytes, 20) == 0 &&
         memcmp(out + 20, want, 76) == 0,
     "QueryValue request: bytes match the MS-RRP IDL in NDR");
  IS_INT(rrp_build_query_value(out, sizeof(out), &key, "G\x01", 16), 0,
         "QueryValue request: control character refused");
  IS_INT(
      rrp_build_query_value(out, sizeof(out), &key, "Global", RRP_MAX_DATA + 1),
      0, "QueryValue request: buffer above 64 MiB refused");
  IS_INT(rrp_build_query_value(out, 95, &key, "Global", 16), 0,
         "QueryValue request: short output refused");
}

/* Response stub: type REG_BINARY, data, cbData, cbLen, status. */
static size_t query_response(uint8_t *p, const uint8_t *data, uint32_t n,
                             uint32_t max, uint32_t werr) {
  size_t off = 0;
  wire_put_le32(p, 0x20000);
  wire_put_le32(p + 4, 3);
  wire_put_le32(p + 8, 0x20004);
  wire_put_le32(p + 12, max);
  wire_put_le32(p + 16, 0);
  wire_put_le32(p + 20, n);
  off = 24;
  memcpy(p + off, data, n);
  off += n;
  while (off % 4)
    p[off++] = 0;
  wire_put_le32(p + off, 0x20008);
  wire_put_le32(p + off + 4, n);
  wire_put_le32(p + off + 8, 0x2000c);
  wire_put_le32(p + off + 12, n);
  wire_put_le32(p + off + 16, werr);
  return off + 20;
}

static void test_query_response(void) {
  uint8_t p[128];
  const uint8_t data[5] = {'P', 0, 'E', 0, 'R'};
  rrp_query_result res;
  size_t n = query_response(p, data, 5, 64, 0);
  IS_INT(n, 52, "QueryValue response: canned stub is 52 bytes");
  IS_INT(rrp_parse_query_value(p, n, &res, &err), 0,
         "QueryValue response: parsed");
  IS_INT(res.type, 3, "QueryValue: type REG_BINARY");
  IS_INT(res.data_len, 5, "QueryValue: 5 data bytes");
  OK(res.has_data && memcmp(res.data, data, 5) == 0, "QueryValue: data");
  IS_INT(res.size, 5, "QueryValue: lpcbData");
  IS_INT(res.werror, 0, "QueryValue: status");
  int all = 1;
  for (size_t cut = 0; cut < n; cut++)
    if (rrp_parse_query_value(p, cut, &res, &err) == 0)
      all = 0;
  OK(all, "QueryValue: every truncation refused");

  n = query_response(p, data, 5, 64, 0);
  wire_put_le32(p + 20, 65); /* actual_count > max_count */
  IS_INT(rrp_parse_query_value(p, n, &res, &err), -1,
         "QueryValue: actual_count above max_count refused");
  wire_put_le32(p + 12, 0x4000001);
  IS_INT(rrp_parse_query_value(p, n, &res, &err), -1,
         "QueryValue: max_count above 64 MiB refused");
  n = query_response(p, data, 5, 0x4000000, 0);
  wire_put_le32(p + 20, 0x4000000); /* claims 64 MiB in a 52-byte stub */
  IS_INT(rrp_parse_query_value(p, n, &res, &err), -1,
         "QueryValue: data running past the stub refused");
  OK(strstr(err.message, "runs past") != NULL, "QueryValue: message says why");
  n = query_response(p, data, 5, 64, 0);
  wire_put_le32(p + 16, 1);
  IS_INT(rrp_parse_query_value(p, n, &res, &err), -1,
         "QueryValue: non-zero offset refused");
  n = query_response(p, data, 5, 64, 0);
  memset(p + n, 0, 16);
  IS_INT(rrp_parse_query_value(p, n + 16, &res, &err), -1,
         "QueryValue: 16 trailing bytes refused");

  /* ERROR_MORE_DATA with NULL data pointer, as Windows answers a probe. */
  uint8_t q[32];
  wire_put_le32(q, 0x20000);
  wire_put_le32(q + 4, 3);
  wire_put_le32(q + 8, 0); /* lpData NULL */
  wire_put_le32(q + 12, 0x20008);
  wire_put_le32(q + 16, 123456);
  wire_put_le32(q + 20, 0); /* lpcbLen NULL */
  wire_put_le32(q + 24, RRP_ERROR_MORE_DATA);
  IS_INT(rrp_parse_query_value(q, 28, &res, &err), 0,
         "QueryValue: MORE_DATA answer parsed");
  IS_INT(res.werror, RRP_ERROR_MORE_DATA, "QueryValue: MORE_DATA status");
  OK(!res.has_data && res.has_size && res.size == 123456 && !res.has_len,
     "QueryValue: needed size from lpcbData, NULL pointers honoured");
}

/* Perflib's Last Counter: OpenHKLM, BaseRegOpenKey, a REG_DWORD. */
static void test_last_counter(void) {
  uint8_t out[256];
  IS_INT(rrp_build_open_hklm(out, sizeof(out), RRP_KEY_QUERY_VALUE), 8,
         "OpenHKLM stub: 8 bytes");
  OK(wire_le32(out) == 0 && wire_le32(out + 4) == 1,
     "OpenHKLM stub: ServerName NULL, samDesired KEY_QUERY_VALUE");
  rrp_handle key;
  for (int i = 0; i < 20; i++)
    key.bytes[i] = (uint8_t)(0xa0 + i);
  /* handle 20, RRP_UNICODE_STRING 8 + 12 + 4 UTF-16 units ("a\b" and
   * the NUL: 8 bytes, padded 8), dwOptions 4, samDesired 4 = 56. */
  size_t n = rrp_build_open_key(out, sizeof(out), &key, "a\\b", 0x20019);
  IS_INT(n, 56, "BaseRegOpenKey request: 56 bytes");
  static const uint8_t want[36] = {8,   0, 8, 0, 0, 0, 2, 0, 4,    0, 0,    0,
                                   0,   0, 0, 0, 4, 0, 0, 0, 'a',  0, '\\', 0,
                                   'b', 0, 0, 0, 0, 0, 0, 0, 0x19, 0, 2,    0};
  OK(n == 56 && memcmp(out, key.bytes, 20) == 0 &&
         memcmp(out + 20, want, 36) == 0,
     "BaseRegOpenKey request: bytes match the MS-RRP IDL in NDR");
  n = rrp_build_open_key(out, sizeof(out), &key, RRP_PERFLIB_KEY,
                         RRP_KEY_QUERY_VALUE);
  /* 52 characters + NUL = 106 bytes, padded 108: 20 + 20 + 108 + 8. */
  IS_INT(n, 156, "BaseRegOpenKey request: Perflib's key, 156 bytes");
  IS_INT(rrp_build_open_key(out, 155, &key, RRP_PERFLIB_KEY, 1), 0,
         "BaseRegOpenKey request: short output refused");
  IS_INT(rrp_build_open_key(out, sizeof(out), &key, "a\tb", 1), 0,
         "BaseRegOpenKey request: control character refused");

  /* The REG_DWORD of a QueryValue answer, hostile shapes refused. */
  uint8_t p[128];
  const uint8_t le38[4] = {38, 0, 0, 0};
  rrp_query_result res;
  uint32_t v = 0;
  n = query_response(p, le38, 4, 64, 0);
  wire_put_le32(p + 4, RRP_REG_DWORD);
  OK(rrp_parse_query_value(p, n, &res, &err) == 0 &&
         rrp_query_dword(&res, &v, &err) == 0 && v == 38,
     "Last Counter: REG_DWORD 38 read");
  wire_put_le32(p + 4, 3);
  OK(rrp_parse_query_value(p, n, &res, &err) == 0 &&
         rrp_query_dword(&res, &v, &err) == -1 &&
         strstr(err.message, "not REG_DWORD") != NULL,
     "Last Counter: REG_BINARY refused, the message says why");
  n = query_response(p, le38, 2, 64, 0);
  wire_put_le32(p + 4, RRP_REG_DWORD);
  OK(rrp_parse_query_value(p, n, &res, &err) == 0 &&
         rrp_query_dword(&res, &v, &err) == -1 &&
         strstr(err.message, "2 bytes") != NULL,
     "Last Counter: a REG_DWORD of 2 bytes refused");
  memset(&res, 0, sizeof res);
  res.has_type = 1;
  res.type = RRP_REG_DWORD;
  IS_INT(rrp_query_dword(&res, &v, &err), -1,
         "Last Counter: a REG_DWORD without data refused");
}

static void test_frame(void) {
  uint8_t h[5];
  uint8_t type;
  uint32_t len;
  wpr_frame_header(h, WPR_MSG_DATA, 0x01020304);
  OK(h[0] == 4 && h[1] == 3 && h[2] == 2 && h[3] == 1 && h[4] == 'D',
     "frame: header little-endian length then type");
  IS_INT(wpr_frame_parse_header(h, WPR_FRAME_MAX, &type, &len, &err), 0,
         "frame: data header parsed");
  IS_U64(len, 0x01020304, "frame: length");
  wpr_frame_header(h, WPR_MSG_DATA, WPR_FRAME_MAX + 1);
  IS_INT(wpr_frame_parse_header(h, WPR_FRAME_MAX, &type, &len, &err), -1,
         "frame: data above the cap refused");
  wpr_frame_header(h, WPR_MSG_QUERY, WPR_REQUEST_MAX + 1);
  IS_INT(wpr_frame_parse_header(h, WPR_FRAME_MAX, &type, &len, &err), -1,
         "frame: oversized request refused");
  wpr_frame_header(h, 'Z', 1);
  IS_INT(wpr_frame_parse_header(h, WPR_FRAME_MAX, &type, &len, &err), -1,
         "frame: unknown type refused");
  wpr_frame_header(h, WPR_MSG_DATA, 3);
  IS_INT(wpr_frame_parse_header(h, WPR_FRAME_MAX, &type, &len, &err), -1,
         "frame: data without the type word refused");
  wpr_frame_header(h, WPR_MSG_REPORT, 0);
  OK(wpr_frame_parse_header(h, WPR_FRAME_MAX, &type, &len, &err) == 0 &&
         type == 'K' && len == 0,
     "frame: an empty REPORT request");
  wpr_frame_header(h, WPR_MSG_REPORT, 1);
  IS_INT(wpr_frame_parse_header(h, WPR_FRAME_MAX, &type, &len, &err), -1,
         "frame: a REPORT with a payload refused");
  char name[WPR_REQUEST_MAX + 1];
  IS_INT(wpr_parse_query((const uint8_t *)"238 2", 5, name, sizeof(name), &err),
         0, "query: index list accepted");
  IS_STR(name, "238 2", "query: copied");
  IS_INT(wpr_parse_query((const uint8_t *)"a\nb", 3, name, sizeof(name), &err),
         -1, "query: newline refused");
  IS_INT(wpr_parse_query((const uint8_t *)"", 0, name, sizeof(name), &err), -1,
         "query: empty refused");
  uint8_t payload[16];
  size_t n = wpr_build_error(payload, sizeof(payload), WPR_ERR_AUTH,
                             "bad\x1b[31m password and more");
  IS_INT(n, 16, "error: truncated to the buffer");
  wpr_error_kind kind;
  char msg[64];
  wpr_parse_error(payload, n, &kind, msg, sizeof(msg));
  IS_INT(kind, WPR_ERR_AUTH, "error: kind");
  IS_STR(msg, "bad?[31m passwo", "error: control characters neutralised");
  payload[0] = 200;
  wpr_parse_error(payload, n, &kind, msg, sizeof(msg));
  IS_INT(kind, WPR_ERR_OTHER, "error: unknown kind becomes other");
  payload[0] = 8;
  wpr_parse_error(payload, n, &kind, msg, sizeof(msg));
  IS_INT(kind, WPR_ERR_ACCESS,
         "error: kind 8 is access (denied after the logon)");
  payload[0] = 9;
  wpr_parse_error(payload, n, &kind, msg, sizeof(msg));
  IS_INT(kind, WPR_ERR_OTHER, "error: kind 9 (unknown) becomes other");
  IS_STR(wpr_error_kind_name(WPR_ERR_AUTH), "auth", "error: kind name");
  IS_STR(wpr_error_kind_name(WPR_ERR_ACCESS), "access", "error: kind 8's name");
}

/* OPEN with Kerberos: Auth in flag bits 1-2, its four strings after the
 * credentials file. */
static void test_open_kerberos(const wpr_open *base) {
  static wpr_open o, back;
  uint8_t p[WPR_OPEN_MAX + 8];
  o = *base;
  o.encrypt = 0;
  o.auth = 1; /* kerberos */
  o.user = o.credentials = NULL;
  o.principal = "svc@R.EX";
  o.keytab = "/k";
  o.krb5_config = "/c";
  static const uint8_t tail[] = {
      2, /* flags: Auth kerberos */
      '1', '0', '.', '0', '.', '0', '.',
      '7', 0,   0,   0,   0, /* user, domain, credentials */
      's', 'v', 'c', '@', 'R', '.', 'E',
      'X', 0,   '/', 'k', 0,   0, /* keytab; ccache: none */
      '/', 'c', 0};
  size_t n = wpr_build_open(p, sizeof(p), &o);
  OK(n == 16 + sizeof(tail) && memcmp(p + 16, tail, sizeof(tail)) == 0,
     "open: Kerberos flags and strings as laid out");
  IS_INT(wpr_parse_open(p, n, &back, &err), 0, "open: Kerberos parsed");
  OK(back.auth == 1 && back.encrypt == 0, "open: Auth kerberos back");
  IS_STR(back.principal, "svc@R.EX", "open: principal back");
  IS_STR(back.keytab, "/k", "open: keytab back");
  IS_STR(back.ccache, "", "open: no ccache back");
  IS_STR(back.krb5_config, "/c", "open: krb5.conf back");
  o.auth = 2;
  n = wpr_build_open(p, sizeof(p), &o);
  OK(n > 16 && p[16] == 4 && wpr_parse_open(p, n, &back, &err) == 0 &&
         back.auth == 2,
     "open: Auth negotiate is flag 4");
  o.auth = 3;
  IS_INT(wpr_build_open(p, sizeof(p), &o), 0, "open: no frame for Auth 3");
}

/* The session messages of a helper that serves several hosts
 * (frame_session.h), against bytes laid out by hand. */
static void test_session_frames(void) {
  static wpr_open o, back;
  o = (wpr_open){.port = 4455,
                 .connect_timeout_ms = 5000,
                 .query_timeout_ms = 1000,
                 .buffer_size = 0,
                 .encrypt = 1,
                 .host = "10.0.0.7",
                 .user = "CORP\\mon",
                 .domain = NULL,
                 .credentials = "/etc/c"};
  uint8_t p[WPR_OPEN_MAX + 8];
  static const uint8_t want[] = {
      0x67, 0x11, 0,    0, /* port 4455 */
      0x88, 0x13, 0,    0, /* connect 5000 ms */
      0xe8, 0x03, 0,    0, /* query 1000 ms */
      0,    0,    0,    0, /* buffer: the helper's */
      1,                   /* flags: encrypt */
      '1',  '0',  '.',  '0', '.', '0', '.', '7', 0, 'C', 'O',
      'R',  'P',  '\\', 'm', 'o', 'n', 0,   0,               /* domain: empty */
      '/',  'e',  't',  'c', '/', 'c', 0,   0,   0, 0,   0}; /* no Kerberos */
  size_t n = wpr_build_open(p, sizeof(p), &o);
  IS_INT(n, sizeof(want), "open: 17 fixed bytes and eight terminated strings");
  OK(n == sizeof(want) && memcmp(p, want, n) == 0, "open: bytes as laid out");
  IS_INT(wpr_parse_open(p, n, &back, &err), 0, "open: parsed");
  OK(back.port == 4455 && back.connect_timeout_ms == 5000 &&
         back.query_timeout_ms == 1000 && back.buffer_size == 0 &&
         back.encrypt == 1,
     "open: numbers and the flag back");
  IS_STR(back.host, "10.0.0.7", "open: host back");
  IS_STR(back.user, "CORP\\mon", "open: user back");
  IS_STR(back.domain, "", "open: an empty domain back");
  IS_STR(back.credentials, "/etc/c", "open: credentials file back");
  int refused = 0;
  for (size_t k = 0; k < n; k++)
    refused += wpr_parse_open(p, k, &back, &err) == -1;
  IS_INT(refused, (int)n, "open: every truncation refused");
  uint8_t q[sizeof(want) + 1];
  memcpy(q, want, sizeof(want));
  q[sizeof(want)] = 'x';
  IS_INT(wpr_parse_open(q, sizeof(q), &back, &err), -1,
         "open: a byte after the eighth string refused");
  memcpy(q, want, sizeof(want));
  q[16] = 0x80;
  IS_INT(wpr_parse_open(q, sizeof(want), &back, &err), -1,
         "open: an unknown flag (bit 7) refused");
  /* bits 3-6: the descriptors of the credentials file, keytab, ccache and
   * krb5.conf that come with the frame (SCM_RIGHTS) */
  q[16] = 1 | 8;
  OK(wpr_parse_open(q, sizeof(want), &back, &err) == 0 && back.fds == 1,
     "open: flag 8, the credentials file's descriptor comes with it");
  q[16] = 1 | 16;
  IS_INT(wpr_parse_open(q, sizeof(want), &back, &err), -1,
         "open: a descriptor for a keytab not named refused");
  o.fds = 1;
  n = wpr_build_open(p, sizeof(p), &o);
  OK(n == sizeof(want) && p[16] == (1 | 8), "open: fds bit 0 is flag 8");
  o.fds = 2;
  IS_INT(wpr_build_open(p, sizeof(p), &o), 0,
         "open: no frame with a descriptor for a keytab not named");
  o.fds = 0;
  q[16] = 1 | 6;
  IS_INT(wpr_parse_open(q, sizeof(want), &back, &err), -1,
         "open: Auth 3 (bits 1-2 both set) refused");
  memcpy(q, want, sizeof(want));
  q[4] = q[5] = 0;
  IS_INT(wpr_parse_open(q, sizeof(want), &back, &err), -1,
         "open: a connect timeout of 0 refused");
  memcpy(q, want, sizeof(want));
  q[19] = ' ';
  IS_INT(wpr_parse_open(q, sizeof(want), &back, &err), -1,
         "open: a host with a space refused");
  memcpy(q, want, sizeof(want));
  q[28] = '\n';
  IS_INT(wpr_parse_open(q, sizeof(want), &back, &err), -1,
         "open: a control character in the user refused");
  test_open_kerberos(&o);
  o.host = "a/b";
  IS_INT(wpr_build_open(p, sizeof(p), &o), 0, "open: no frame for host a/b");
  o.host = "h";
  o.query_timeout_ms = WPR_TIMEOUT_MAX_MS + 1;
  IS_INT(wpr_build_open(p, sizeof(p), &o), 0,
         "open: no frame for a timeout above an hour");
  o.query_timeout_ms = 1000;
  IS_INT(wpr_build_open(p, 20, &o), 0, "open: no frame past cap");

  uint8_t f[WPR_FRAME_HDR + WPR_SESSION_ID_LEN + WPR_REQUEST_MAX];
  n = wpr_build_session_frame(f, sizeof(f), WPR_MSG_SQUERY, 0x01020304,
                              "238 2");
  static const uint8_t wq[] = {9, 0, 0,   0,   'q', 4,   3,
                               2, 1, '2', '3', '8', ' ', '2'};
  OK(n == sizeof(wq) && memcmp(f, wq, n) == 0,
     "squery: length 9, 'q', the id little-endian, the name");
  uint8_t type;
  uint32_t len, id = 0;
  IS_INT(wpr_frame_parse_header(f, WPR_OPEN_MAX, &type, &len, &err), 0,
         "squery: header accepted");
  char name[WPR_REQUEST_MAX + 1];
  IS_INT(
      wpr_parse_session(f + WPR_FRAME_HDR, len, &id, name, sizeof(name), &err),
      0, "squery: parsed");
  OK(id == 0x01020304 && strcmp(name, "238 2") == 0, "squery: id and name");
  IS_INT(wpr_build_session_frame(f, sizeof(f), WPR_MSG_SQUERY, 1, NULL), 0,
         "squery: a name is required");
  n = wpr_build_session_frame(f, sizeof(f), WPR_MSG_SESSION, 7, NULL);
  static const uint8_t ws[] = {4, 0, 0, 0, 'S', 7, 0, 0, 0};
  OK(n == sizeof(ws) && memcmp(f, ws, n) == 0, "session: 4 bytes, the id");
  IS_INT(wpr_parse_session(f + WPR_FRAME_HDR, 4, &id, NULL, 0, &err), 0,
         "session: parsed");
  IS_INT(id, 7, "session: id 7");
  static const uint8_t zero[4] = {0};
  IS_INT(wpr_parse_session(zero, 4, &id, NULL, 0, &err), -1,
         "session: id 0 refused");
  wpr_frame_header(f, WPR_MSG_SNAMES, 5);
  IS_INT(wpr_frame_parse_header(f, WPR_OPEN_MAX, &type, &len, &err), -1,
         "snames: a payload other than the id refused on the header");
  wpr_frame_header(f, WPR_MSG_SQUERY, 4);
  IS_INT(wpr_frame_parse_header(f, WPR_OPEN_MAX, &type, &len, &err), -1,
         "squery: an id without a name refused on the header");
  wpr_frame_header(f, WPR_MSG_SQUERY, 4 + WPR_REQUEST_MAX + 1);
  IS_INT(wpr_frame_parse_header(f, WPR_OPEN_MAX, &type, &len, &err), -1,
         "squery: a name above 1024 bytes refused on the header");
  wpr_frame_header(f, WPR_MSG_OPEN, WPR_OPEN_MAX + 1);
  IS_INT(wpr_frame_parse_header(f, WPR_FRAME_MAX, &type, &len, &err), -1,
         "open: above 4096 bytes refused on the header");
  wpr_frame_header(f, WPR_MSG_QUERY, WPR_REQUEST_MAX + 1);
  IS_INT(wpr_frame_parse_header(f, WPR_OPEN_MAX, &type, &len, &err), -1,
         "query: still 1024 bytes at most under the OPEN cap");
  IS_INT(wpr_shared_watchdog_ms(1000), 2000,
         "shared watchdog: 1 s more for a short step");
  IS_INT(wpr_shared_watchdog_ms(30000), 45000,
         "shared watchdog: half more for a long one");
  IS_INT(wpr_shared_watchdog_ms(3600000), 3630000,
         "shared watchdog: at most 30 s more");
}

int main(void) {
  test_header();
  test_bind();
  test_bind_ack();
  test_request();
  test_reassembly();
  test_open_close();
  test_query_request();
  test_query_response();
  test_last_counter();
  test_frame();
  test_session_frames();
  return tap_done();
}
