/* collectd-winperf: the MS-RRP (winreg) calls perfmon uses, in NDR.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "rrp.h"
#include "dcerpc.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A bounds-checked reader over a response stub. */
typedef struct ndr_in {
  wire_bytes b;
  size_t off;
  wp_error *err;
  int failed;
} ndr_in;

__attribute__((format(printf, 2, 3))) static int
ndr_fail(ndr_in *in, const char *fmt, ...) {
  if (!in->failed && in->err != NULL) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->err->message, sizeof in->err->message, fmt, ap);
    va_end(ap);
    in->err->code = WP_E_FAILED;
  }
  in->failed = 1;
  return -1;
}

static int ndr_align4(ndr_in *in) {
  size_t a = (in->off + 3) & ~(size_t)3;
  if (a > in->b.len)
    return ndr_fail(in,
                    "stub offset %zu: alignment padding runs past the %zu "
                    "stub bytes",
                    in->off, in->b.len);
  in->off = a;
  return 0;
}

static int ndr_u32(ndr_in *in, uint32_t *v, const char *what) {
  if (in->failed || ndr_align4(in) != 0)
    return -1;
  if (!wire_get32(&in->b, in->off, v))
    return ndr_fail(in, "stub offset %zu: %s truncated (%zu bytes in stub)",
                    in->off, what, in->b.len);
  in->off += 4;
  return 0;
}

static int ndr_bytes(ndr_in *in, const uint8_t **p, size_t n,
                     const char *what) {
  if (in->failed)
    return -1;
  if (!wire_has(&in->b, in->off, n))
    return ndr_fail(in,
                    "stub offset %zu: %s of %zu bytes runs past the %zu "
                    "stub bytes",
                    in->off, what, n, in->b.len);
  *p = in->b.data + in->off;
  in->off += n;
  return 0;
}

/* The status is the last field; tolerate a few pad bytes after it (a stub
 * may be padded to 8 or 16 for a verifier) but nothing more. */
static int ndr_end(ndr_in *in) {
  if (in->failed)
    return -1;
  if (in->b.len - in->off >= 16)
    return ndr_fail(in, "stub offset %zu: %zu unexpected trailing bytes",
                    in->off, in->b.len - in->off);
  return 0;
}

size_t rrp_build_open_hkpd(uint8_t *out, size_t cap, uint32_t sam_desired) {
  if (out == NULL || cap < 8)
    return 0;
  wire_out w = wire_out_le(out, 8);
  wire_push32(&w, 0); /* [unique] ServerName: NULL (MS-RRP 3.1.5.4) */
  wire_push32(&w, sam_desired);
  return w.len;
}

int rrp_parse_open_hkpd(const uint8_t *stub, size_t len, rrp_handle *key,
                        uint32_t *werror, wp_error *err) {
  ndr_in in = {wire_le(stub, len), 0, err, 0};
  const uint8_t *h = NULL;
  if (ndr_bytes(&in, &h, RRP_HANDLE_LEN, "OpenHKPD key handle") != 0 ||
      ndr_u32(&in, werror, "OpenHKPD status") != 0 || ndr_end(&in) != 0)
    return -1;
  memcpy(key->bytes, h, RRP_HANDLE_LEN);
  return 0;
}

size_t rrp_build_open_hklm(uint8_t *out, size_t cap, uint32_t sam_desired) {
  return rrp_build_open_hkpd(out, cap, sam_desired);
}

/* The wire size of a name as an inline RRP_UNICODE_STRING, or 0 when the
 * name is not printable ASCII of at most RRP_MAX_NAME characters. */
static size_t unicode_string_size(const char *name) {
  size_t n = strlen(name);
  if (n > RRP_MAX_NAME)
    return 0;
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)name[i] < 0x20 || (unsigned char)name[i] > 0x7e)
      return 0;
  size_t bytes = (n + 1) * 2; /* MS-RRP 2.2.4 counts the terminating NUL */
  return 8 + 12 + ((bytes + 3) & ~(size_t)3);
}

/* The handle, then `name` as an [in] RRP_UNICODE_STRING: a top-level
 * reference pointer to the struct, so the struct is inline; its Buffer is
 * an embedded unique pointer whose conformant varying array follows the
 * struct (C706 14.3.12.3). The caller checked the room. */
static void push_handle_and_name(wire_out *w, uint8_t *out,
                                 const rrp_handle *key, const char *name) {
  size_t n = strlen(name);
  size_t chars = n + 1;
  size_t bytes = chars * 2;
  size_t padded = (bytes + 3) & ~(size_t)3;
  memcpy(out, key->bytes, RRP_HANDLE_LEN);
  w->len = RRP_HANDLE_LEN;
  wire_push16(w, (uint16_t)bytes);   /* Length */
  wire_push16(w, (uint16_t)bytes);   /* MaximumLength */
  wire_push32(w, 0x00020000);        /* referent id of Buffer */
  wire_push32(w, (uint32_t)chars);   /* max_count */
  wire_push32(w, 0);                 /* offset */
  wire_push32(w, (uint32_t)chars);   /* actual_count */
  for (size_t i = 0; i < chars; i++) /* the name, UTF-16LE (ASCII) */
    wire_push16(w, i < n ? (uint8_t)name[i] : 0);
  assert(wire_out_has(w, w->len, padded - bytes));
  memset(out + w->len, 0, padded - bytes);
  w->len += padded - bytes;
}

size_t rrp_build_open_key(uint8_t *out, size_t cap, const rrp_handle *key,
                          const char *name, uint32_t sam_desired) {
  if (out == NULL || key == NULL || name == NULL)
    return 0;
  size_t str = unicode_string_size(name);
  size_t need = RRP_HANDLE_LEN + str + 8;
  if (str == 0 || cap < need)
    return 0;
  wire_out w = wire_out_le(out, need);
  push_handle_and_name(&w, out, key, name);
  wire_push32(&w, 0); /* dwOptions: 0, no REG_OPTION_OPEN_LINK */
  wire_push32(&w, sam_desired);
  assert(w.len == need);
  return w.len;
}

int rrp_query_dword(const rrp_query_result *res, uint32_t *value,
                    wp_error *err) {
  if (!res->has_type || res->type != RRP_REG_DWORD)
    return wp_error_set(err, "a value of type %u, not REG_DWORD (4)",
                        res->has_type ? res->type : 0);
  if (!res->has_data || res->data_len != 4)
    return wp_error_set(err, "REG_DWORD data of %u bytes, not 4",
                        res->has_data ? res->data_len : 0);
  wire_bytes b = wire_le(res->data, 4);
  *value = wire_ld32(&b, 0);
  return 0;
}

size_t rrp_build_query_value(uint8_t *out, size_t cap, const rrp_handle *key,
                             const char *name, uint32_t buf_size) {
  if (out == NULL || key == NULL || name == NULL || buf_size > RRP_MAX_DATA)
    return 0;
  size_t str = unicode_string_size(name);
  size_t need = RRP_HANDLE_LEN + str + 8 + 16 + 8 + 8;
  if (str == 0 || cap < need)
    return 0;
  wire_out w = wire_out_le(out, need);
  push_handle_and_name(&w, out, key, name);
  /* lpType: [in,out,unique] DWORD*: referent, value. */
  wire_push32(&w, 0x00020004);
  wire_push32(&w, 0);
  /* lpData: [unique, size_is(*lpcbData), length_is(*lpcbLen)]: referent,
   * max_count = buffer size, offset 0, actual_count 0 (nothing sent). */
  wire_push32(&w, 0x00020008);
  wire_push32(&w, buf_size);
  wire_push32(&w, 0);
  wire_push32(&w, 0);
  /* lpcbData: the buffer size. */
  wire_push32(&w, 0x0002000c);
  wire_push32(&w, buf_size);
  /* lpcbLen: 0 bytes of input data. */
  wire_push32(&w, 0x00020010);
  wire_push32(&w, 0);
  assert(w.len == need);
  return w.len;
}

int rrp_parse_query_value(const uint8_t *stub, size_t len,
                          rrp_query_result *res, wp_error *err) {
  ndr_in in = {wire_le(stub, len), 0, err, 0};
  uint32_t ref;
  memset(res, 0, sizeof(*res));
  if (ndr_u32(&in, &ref, "lpType pointer") != 0)
    return -1;
  if (ref != 0) {
    if (ndr_u32(&in, &res->type, "lpType") != 0)
      return -1;
    res->has_type = 1;
  }
  if (ndr_u32(&in, &ref, "lpData pointer") != 0)
    return -1;
  if (ref != 0) {
    uint32_t max, offset, actual;
    if (ndr_u32(&in, &max, "lpData max_count") != 0 ||
        ndr_u32(&in, &offset, "lpData offset") != 0 ||
        ndr_u32(&in, &actual, "lpData actual_count") != 0)
      return -1;
    /* MS-RRP range(0, 0x4000000); C706 14.3.3.4: offset + actual <= max. */
    if (max > RRP_MAX_DATA)
      return ndr_fail(&in,
                      "stub offset %zu: lpData max_count %u exceeds "
                      "the MS-RRP limit 0x4000000",
                      in.off - 12, max);
    if (offset != 0)
      return ndr_fail(&in, "stub offset %zu: lpData offset %u is not 0",
                      in.off - 8, offset);
    if (actual > max)
      return ndr_fail(&in,
                      "stub offset %zu: lpData actual_count %u exceeds "
                      "max_count %u",
                      in.off - 4, actual, max);
    if (ndr_bytes(&in, &res->data, actual, "lpData") != 0)
      return -1;
    res->has_data = 1;
    res->data_len = actual;
    res->data_max = max;
  }
  if (ndr_u32(&in, &ref, "lpcbData pointer") != 0)
    return -1;
  if (ref != 0) {
    if (ndr_u32(&in, &res->size, "lpcbData") != 0)
      return -1;
    res->has_size = 1;
  }
  if (ndr_u32(&in, &ref, "lpcbLen pointer") != 0)
    return -1;
  if (ref != 0) {
    if (ndr_u32(&in, &res->len, "lpcbLen") != 0)
      return -1;
    res->has_len = 1;
  }
  if (ndr_u32(&in, &res->werror, "BaseRegQueryValue status") != 0 ||
      ndr_end(&in) != 0)
    return -1;
  return 0;
}

size_t rrp_build_close_key(uint8_t *out, size_t cap, const rrp_handle *key) {
  if (out == NULL || key == NULL || cap < RRP_HANDLE_LEN)
    return 0;
  memcpy(out, key->bytes, RRP_HANDLE_LEN);
  return RRP_HANDLE_LEN;
}

int rrp_parse_close_key(const uint8_t *stub, size_t len, uint32_t *werror,
                        wp_error *err) {
  ndr_in in = {wire_le(stub, len), 0, err, 0};
  const uint8_t *h = NULL;
  if (ndr_bytes(&in, &h, RRP_HANDLE_LEN, "BaseRegCloseKey handle") != 0 ||
      ndr_u32(&in, werror, "BaseRegCloseKey status") != 0 || ndr_end(&in) != 0)
    return -1;
  return 0;
}

const char *rrp_werror_name(uint32_t werror) {
  switch (werror) {
  case RRP_ERROR_SUCCESS:
    return "success";
  case RRP_ERROR_FILE_NOT_FOUND:
    return "file not found";
  case RRP_ERROR_ACCESS_DENIED:
    return "access denied";
  case 6:
    return "invalid handle";
  case 8:
    return "not enough memory";
  case RRP_ERROR_INVALID_PARAMETER:
    return "invalid parameter";
  case RRP_ERROR_MORE_DATA:
    return "more data";
  case 1115:
    return "shutdown in progress";
  default:
    return NULL;
  }
}
