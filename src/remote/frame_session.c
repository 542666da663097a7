/* collectd-winperf: the session messages of the frame protocol
 * (frame_session.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "frame_session.h"
#include "wire.h"

#include <string.h>

enum {
  OPEN_port = 0,
  OPEN_connect_ms = 4,
  OPEN_query_ms = 8,
  OPEN_buffer_size = 12,
  OPEN_flags = 16,
  OPEN_strings = WPR_OPEN_FIXED,
  SESSION_id = 0,
  SQUERY_name = WPR_SESSION_ID_LEN,
};

static size_t str_len(const char *s) {
  return s ? strlen(s) : 0;
}

/* A host name the helper can put in an smb:// URL (as its argv check). */
static int host_ok(const char *s, size_t n) {
  if (n == 0 || n > WPR_OPEN_HOST_MAX || s[0] == '-')
    return 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c <= 0x20 || c >= 0x7f || c == '/' || c == '\\' || c == '@')
      return 0;
  }
  return 1;
}

static int text_ok(const char *s, size_t n) {
  if (n > WPR_OPEN_STR_MAX)
    return 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c == 0x7f)
      return 0;
  }
  return 1;
}

static int numbers_ok(const wpr_open *o) {
  return o->port <= 65535 && o->connect_timeout_ms >= 1 &&
         o->connect_timeout_ms <= WPR_TIMEOUT_MAX_MS &&
         o->query_timeout_ms >= 1 &&
         o->query_timeout_ms <= WPR_TIMEOUT_MAX_MS &&
         o->buffer_size <= 0x4000000u;
}

static uint8_t open_flags(const wpr_open *o) {
  return (uint8_t)((o->encrypt ? WPR_OPEN_ENCRYPT : 0) |
                   ((unsigned)o->auth << WPR_OPEN_AUTH_SHIFT) |
                   (o->fds << WPR_OPEN_FD_SHIFT));
}

/* A descriptor only for a file that is named: credentials, keytab, ccache,
 * krb5.conf are strings 3, 5, 6, 7. */
static int fds_ok(unsigned fds, const char *const *s) {
  static const int file_string[WPR_OPEN_FDS] = {3, 5, 6, 7};
  if (fds >> WPR_OPEN_FDS)
    return 0;
  for (int i = 0; i < WPR_OPEN_FDS; i++)
    if ((fds & (1u << i)) && str_len(s[file_string[i]]) == 0)
      return 0;
  return 1;
}

size_t wpr_build_open(uint8_t *out, size_t cap, const wpr_open *o) {
  const char *s[WPR_OPEN_STRINGS] = {o->host,        o->user,       o->domain,
                                     o->credentials, o->principal,  o->keytab,
                                     o->ccache,      o->krb5_config};
  size_t n = OPEN_strings;
  if (o->auth < 0 || o->auth > 2)
    return 0;
  for (int i = 0; i < WPR_OPEN_STRINGS; i++) {
    size_t k = str_len(s[i]);
    if (i == 0 ? !host_ok(s[i] ? s[i] : "", k) : !text_ok(s[i], k))
      return 0;
    n += k + 1;
  }
  if (!numbers_ok(o) || !fds_ok(o->fds, s) || n > WPR_OPEN_MAX || n > cap)
    return 0;
  wire_out w = wire_out_le(out, cap);
  wire_st32(&w, OPEN_port, o->port);
  wire_st32(&w, OPEN_connect_ms, o->connect_timeout_ms);
  wire_st32(&w, OPEN_query_ms, o->query_timeout_ms);
  wire_st32(&w, OPEN_buffer_size, o->buffer_size);
  wire_st8(&w, OPEN_flags, open_flags(o));
  size_t off = OPEN_strings;
  for (int i = 0; i < WPR_OPEN_STRINGS; i++) {
    size_t k = str_len(s[i]);
    if (k)
      memcpy(out + off, s[i], k);
    out[off + k] = 0;
    off += k + 1;
  }
  return off;
}

int wpr_parse_open(const uint8_t *payload, size_t len, wpr_open *o,
                   wp_error *err) {
  static const char *const what[WPR_OPEN_STRINGS] = {
      "host",      "user",   "domain", "credentials file",
      "principal", "keytab", "ccache", "krb5.conf"};
  if (len < OPEN_strings + 1 + WPR_OPEN_STRINGS || len > WPR_OPEN_MAX)
    return wp_error_set(err, "open: payload of %zu bytes (%u..%u allowed)", len,
                        OPEN_strings + 1 + WPR_OPEN_STRINGS, WPR_OPEN_MAX);
  wire_bytes b = wire_le(payload, len);
  o->port = wire_ld32(&b, OPEN_port);
  o->connect_timeout_ms = wire_ld32(&b, OPEN_connect_ms);
  o->query_timeout_ms = wire_ld32(&b, OPEN_query_ms);
  o->buffer_size = wire_ld32(&b, OPEN_buffer_size);
  uint8_t flags = wire_ld8(&b, OPEN_flags);
  if (!numbers_ok(o) ||
      (flags & ~(WPR_OPEN_ENCRYPT | WPR_OPEN_AUTH_MASK | WPR_OPEN_FD_MASK)) !=
          0 ||
      (flags & WPR_OPEN_AUTH_MASK) == WPR_OPEN_AUTH_MASK)
    return wp_error_set(err, "open: port, timeout, buffer size or flags out "
                             "of range");
  o->encrypt = flags & WPR_OPEN_ENCRYPT;
  o->auth = (flags & WPR_OPEN_AUTH_MASK) >> WPR_OPEN_AUTH_SHIFT;
  o->fds = (flags & WPR_OPEN_FD_MASK) >> WPR_OPEN_FD_SHIFT;
  /* The strings, copied so each ends in the NUL the payload must carry. */
  size_t off = OPEN_strings;
  const char **dst[WPR_OPEN_STRINGS] = {
      &o->host,      &o->user,   &o->domain, &o->credentials,
      &o->principal, &o->keytab, &o->ccache, &o->krb5_config};
  for (int i = 0; i < WPR_OPEN_STRINGS; i++) {
    const uint8_t *nul = memchr(payload + off, 0, len - off);
    if (nul == NULL)
      return wp_error_set(err, "open: the %s is not terminated", what[i]);
    size_t k = (size_t)(nul - (payload + off));
    char *s = o->text + off;
    memcpy(s, payload + off, k + 1);
    if (i == 0 ? !host_ok(s, k) : !text_ok(s, k))
      return wp_error_set(err,
                          "open: the %s is empty, too long or has a "
                          "byte it may not have",
                          what[i]);
    *dst[i] = s;
    off += k + 1;
  }
  if (off != len)
    return wp_error_set(err, "open: %zu bytes after the strings", len - off);
  const char *const named[WPR_OPEN_STRINGS] = {
      o->host,      o->user,   o->domain, o->credentials,
      o->principal, o->keytab, o->ccache, o->krb5_config};
  if (!fds_ok(o->fds, named))
    return wp_error_set(err, "open: a descriptor for a file not named");
  return 0;
}

size_t wpr_build_session_frame(uint8_t *out, size_t cap, uint8_t type,
                               uint32_t id, const char *name) {
  size_t k = str_len(name);
  if ((type == WPR_MSG_SQUERY) != (k > 0) || k > WPR_REQUEST_MAX ||
      WPR_FRAME_HDR + WPR_SESSION_ID_LEN + k > cap)
    return 0;
  uint32_t len = (uint32_t)(WPR_SESSION_ID_LEN + k);
  wpr_frame_header(out, type, len);
  wire_out w = wire_out_le(out + WPR_FRAME_HDR, cap - WPR_FRAME_HDR);
  wire_st32(&w, SESSION_id, id);
  if (k)
    memcpy(out + WPR_FRAME_HDR + SQUERY_name, name, k);
  return WPR_FRAME_HDR + len;
}

int wpr_parse_session(const uint8_t *payload, size_t len, uint32_t *id,
                      char *name, size_t namesize, wp_error *err) {
  if (len < WPR_SESSION_ID_LEN || (name == NULL && len != WPR_SESSION_ID_LEN))
    return wp_error_set(err, "session: payload of %zu bytes", len);
  wire_bytes b = wire_le(payload, len);
  *id = wire_ld32(&b, SESSION_id);
  if (*id == 0)
    return wp_error_set(err, "session: id 0");
  if (name == NULL)
    return 0;
  return wpr_parse_query(payload + SQUERY_name, len - SQUERY_name, name,
                         namesize, err);
}

unsigned wpr_shared_watchdog_ms(unsigned ms) {
  unsigned more = ms / 2;
  if (more < 1000)
    more = 1000;
  if (more > 30000)
    more = 30000;
  return ms + more;
}
