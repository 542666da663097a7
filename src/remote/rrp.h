/* collectd-winperf: the MS-RRP (winreg) calls perfmon uses, in NDR.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Request stubs are built and response stubs parsed over byte buffers; the
 * stub is what travels inside DCE/RPC request/response PDUs (dcerpc.h).
 * NDR alignment is relative to the start of the stub (C706 14.2.2).
 */
#ifndef WP_RRP_H
#define WP_RRP_H

#include "wp_error.h"

#include <stddef.h>
#include <stdint.h>

/* MS-RRP 3.1.5 opnums. */
enum {
  RRP_OPNUM_OPEN_HKLM = 2,
  RRP_OPNUM_OPEN_HKPD = 3,
  RRP_OPNUM_CLOSE_KEY = 5,
  RRP_OPNUM_OPEN_KEY = 15,
  RRP_OPNUM_QUERY_VALUE = 17,
};

/* Registry value types (MS-RRP 2.2.6) the client checks. */
enum { RRP_REG_DWORD = 4 };

/* KEY_QUERY_VALUE (MS-RRP 2.2.3): all BaseRegOpenKey asks for. */
#define RRP_KEY_QUERY_VALUE 0x00000001u
/* Perflib's key under HKLM and its value naming the highest index in use
 * (doc/format.md 4.1). */
#define RRP_PERFLIB_KEY                                                        \
  "SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Perflib"
#define RRP_LAST_COUNTER "Last Counter"

/* Win32 error codes (MS-ERREF 2.2) the client acts on. */
enum {
  RRP_ERROR_SUCCESS = 0,
  RRP_ERROR_FILE_NOT_FOUND = 2,
  RRP_ERROR_ACCESS_DENIED = 5,
  RRP_ERROR_INVALID_PARAMETER = 87,
  RRP_ERROR_MORE_DATA = 234,
};

/* MS-RRP BaseRegQueryValue lpData is range(0, 0x4000000). */
#define RRP_MAX_DATA 0x4000000u
/* A context handle (MS-RPCE 2.2.4.1.1 / MS-DTYP): 20 bytes. */
#define RRP_HANDLE_LEN 20
/* Value names are short ASCII ("Global", "238 2 4", "Counter 009"). */
#define RRP_MAX_NAME 1024

typedef struct rrp_handle {
  uint8_t bytes[RRP_HANDLE_LEN];
} rrp_handle;

/* OpenHKPD (opnum 3) request: ServerName NULL, samDesired. Returns the stub
 * length or 0 if cap is too small. */
size_t rrp_build_open_hkpd(uint8_t *out, size_t cap, uint32_t sam_desired);
/* Response: the key handle and the Win32 status. 0 on a well-formed stub,
 * -1 (err, which may be NULL, says why) otherwise. */
int rrp_parse_open_hkpd(const uint8_t *stub, size_t len, rrp_handle *key,
                        uint32_t *werror, wp_error *err);

/* OpenHKLM (opnum 2): the same stub as OpenHKPD, in and out (MS-RRP
 * 3.1.5.3); its response is parsed by rrp_parse_open_hkpd. */
size_t rrp_build_open_hklm(uint8_t *out, size_t cap, uint32_t sam_desired);

/* BaseRegOpenKey (opnum 15) request: subkey `name` (printable ASCII, at
 * most RRP_MAX_NAME characters) under `key`, dwOptions 0, samDesired.
 * Returns the stub length, or 0 if the name is invalid or cap too small.
 * The response (the new handle, the WERROR) is parsed by
 * rrp_parse_open_hkpd. */
size_t rrp_build_open_key(uint8_t *out, size_t cap, const rrp_handle *key,
                          const char *name, uint32_t sam_desired);

/* BaseRegQueryValue (opnum 17) request for value `name` (printable ASCII,
 * at most RRP_MAX_NAME characters) with a data buffer of buf_size bytes.
 * Returns the stub length, or 0 if the name is invalid, buf_size is above
 * RRP_MAX_DATA or cap is too small. */
size_t rrp_build_query_value(uint8_t *out, size_t cap, const rrp_handle *key,
                             const char *name, uint32_t buf_size);

typedef struct rrp_query_result {
  uint32_t werror;
  int has_type;
  uint32_t type; /* REG_BINARY 3, REG_MULTI_SZ 7, ... */
  int has_data;
  const uint8_t *data; /* points into the stub */
  uint32_t data_len;   /* NDR actual_count */
  uint32_t data_max;   /* NDR max_count */
  int has_size;
  uint32_t size; /* *lpcbData: the size the server says it needs/used */
  int has_len;
  uint32_t len; /* *lpcbLen */
} rrp_query_result;

/* Parse the response stub. 0 on a well-formed stub (res->werror may still
 * be an error), -1 otherwise. res->data points into stub. */
int rrp_parse_query_value(const uint8_t *stub, size_t len,
                          rrp_query_result *res, wp_error *err);

/* The REG_DWORD a successful BaseRegQueryValue answer holds: 0 with *value
 * set, or -1 (err says why) when the type is not REG_DWORD or the data is
 * not 4 bytes. */
int rrp_query_dword(const rrp_query_result *res, uint32_t *value,
                    wp_error *err);

/* BaseRegCloseKey (opnum 5). */
size_t rrp_build_close_key(uint8_t *out, size_t cap, const rrp_handle *key);
int rrp_parse_close_key(const uint8_t *stub, size_t len, uint32_t *werror,
                        wp_error *err);

/* "access denied", "more data", ... or NULL. */
const char *rrp_werror_name(uint32_t werror);

#endif
