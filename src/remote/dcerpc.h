/* collectd-winperf: DCE/RPC connection-oriented PDUs over byte buffers.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Pure functions, no I/O: the helper moves the bytes, these build and check
 * them. Layouts: DCE 1.1 RPC (Open Group C706) chapter 12.6, as used by
 * MS-RPCE over the \pipe\winreg named pipe. Every length read from a server
 * is hostile: each parser checks it against the bytes actually present.
 * Only little-endian NDR data representation is spoken.
 *
 * Every parser returns a dcerpc_status and, on failure, fills `err` (may be
 * NULL) with the message: code WP_E_NOMEM for DCERPC_E_NOMEM, WP_E_LIMIT for
 * DCERPC_E_LIMIT, WP_E_FAILED otherwise.
 */
#ifndef WP_DCERPC_H
#define WP_DCERPC_H

#include "wp_error.h"
#include "wire.h"

#include <stddef.h>
#include <stdint.h>

/* C706 12.6.3.1: the common header of every connection-oriented PDU. */
#define DCERPC_HDR_LEN 16
/* Request and response/fault headers: common header + 8 bytes. */
#define DCERPC_REQ_HDR_LEN 24
#define DCERPC_RESP_HDR_LEN 24
#define DCERPC_FAULT_LEN 32
/* frag_length is 16 bits, so no fragment is larger than this. */
#define DCERPC_MAX_FRAG 65535u
/* What we offer in bind: the Windows default fragment size. */
#define DCERPC_DEFAULT_FRAG 4280u
/* Cap on a reassembled response stub: MS-RRP BaseRegQueryValue's lpData is
 * range(0, 0x4000000), plus room for the NDR around it. */
#define DCERPC_MAX_STUB (0x4000000u + 4096u)

/* C706 12.6.3.1: the common header's fields. */
enum {
  DCERPC_HDR_rpc_vers = 0,
  DCERPC_HDR_rpc_vers_minor = 1,
  DCERPC_HDR_PTYPE = 2,
  DCERPC_HDR_pfc_flags = 3,
  DCERPC_HDR_packed_drep = 4, /* 4 bytes */
  DCERPC_HDR_frag_length = 8,
  DCERPC_HDR_auth_length = 10,
  DCERPC_HDR_call_id = 12,
};

/* C706 12.6.4: PDU types used here. */
enum {
  DCERPC_PT_REQUEST = 0,
  DCERPC_PT_RESPONSE = 2,
  DCERPC_PT_FAULT = 3,
  DCERPC_PT_BIND = 11,
  DCERPC_PT_BIND_ACK = 12,
  DCERPC_PT_BIND_NAK = 13,
};

/* C706 12.6.3.1 pfc_flags. */
enum {
  DCERPC_PFC_FIRST_FRAG = 0x01,
  DCERPC_PFC_LAST_FRAG = 0x02,
  DCERPC_PFC_OBJECT_UUID = 0x80,
};

typedef enum dcerpc_status {
  DCERPC_OK = 0,
  DCERPC_E_TRUNCATED, /* fewer bytes than a field or length needs */
  DCERPC_E_MALFORMED, /* a field holds a value the spec does not allow */
  DCERPC_E_FAULT,     /* the server answered with a fault PDU */
  DCERPC_E_REJECTED,  /* bind_nak, or the presentation context refused */
  DCERPC_E_LIMIT,     /* larger than DCERPC_MAX_STUB or the caller's buffer */
  DCERPC_E_NOMEM,
} dcerpc_status;

/* An interface or transfer syntax: UUID (string form) + version. */
typedef struct dcerpc_syntax {
  uint8_t uuid[16]; /* NDR (little-endian) wire order */
  uint16_t major, minor;
} dcerpc_syntax;

/* MS-RRP winreg 338cd001-2244-31f1-aaaa-900038001003 v1.0 and the NDR
 * transfer syntax 8a885d04-1ceb-11c9-9fe8-08002b104860 v2.0. */
extern const dcerpc_syntax dcerpc_winreg_syntax;
extern const dcerpc_syntax dcerpc_ndr_syntax;

typedef struct dcerpc_hdr {
  uint8_t ptype;
  uint8_t flags;
  uint16_t frag_length;
  uint16_t auth_length;
  uint32_t call_id;
} dcerpc_hdr;

/* Check the 16-byte common header at p (len >= 16 needed): version 5.0 (or
 * 5.1), little-endian integers, frag_length >= 16 and large enough for the
 * auth trailer. */
dcerpc_status dcerpc_parse_header(const uint8_t *p, size_t len, dcerpc_hdr *h,
                                  wp_error *err);

/* Bind PDU with one presentation context (id 0). Returns the PDU length, or
 * 0 if cap is too small. */
size_t dcerpc_build_bind(uint8_t *out, size_t cap, uint32_t call_id,
                         uint16_t max_xmit, uint16_t max_recv,
                         const dcerpc_syntax *abstract,
                         const dcerpc_syntax *transfer);

typedef struct dcerpc_bind_result {
  uint16_t max_xmit, max_recv; /* what the server will send/accept */
  uint32_t assoc_group;
} dcerpc_bind_result;

/* Parse one complete bind_ack/bind_nak fragment (len = the bytes read).
 * DCERPC_OK only when the first presentation result is "acceptance" with
 * the NDR transfer syntax; bind_nak and rejections give DCERPC_E_REJECTED. */
dcerpc_status dcerpc_parse_bind_ack(const uint8_t *pdu, size_t len,
                                    uint32_t call_id, dcerpc_bind_result *res,
                                    wp_error *err);

/* Request PDU, one fragment (first|last), context 0. Returns the PDU
 * length, or 0 if it does not fit cap or a 16-bit frag_length. */
size_t dcerpc_build_request(uint8_t *out, size_t cap, uint32_t call_id,
                            uint16_t opnum, const uint8_t *stub,
                            size_t stub_len);

/* Reassembles the stub data of a response that arrives in fragments
 * (C706 12.6.2: the first has PFC_FIRST_FRAG, the last PFC_LAST_FRAG). */
typedef struct dcerpc_reasm {
  uint8_t *data; /* stub bytes so far (owned) */
  size_t len, cap;
  size_t limit;     /* max stub bytes (0 = DCERPC_MAX_STUB) */
  uint32_t call_id; /* the call we expect */
  int started;      /* a first fragment was seen */
  int done;         /* the last fragment was seen */
  uint32_t fault;   /* fault status when dcerpc_reasm_add returned FAULT */
} dcerpc_reasm;

/* Start a new call (keeps the buffer for reuse). */
void dcerpc_reasm_reset(dcerpc_reasm *r, uint32_t call_id);
void dcerpc_reasm_free(dcerpc_reasm *r);
/* Add one complete fragment (exactly frag_length bytes). Sets r->done on
 * the last fragment. A fault PDU returns DCERPC_E_FAULT with r->fault. */
dcerpc_status dcerpc_reasm_add(dcerpc_reasm *r, const uint8_t *frag, size_t len,
                               wp_error *err);

#endif
