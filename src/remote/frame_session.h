/* collectd-winperf: the session messages of the frame protocol, for a
 * helper that serves several hosts (doc/remote-protocol.md 5.4).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * OPEN payload (plugin -> helper), at most WPR_OPEN_MAX bytes:
 *   u32 LE port (0: 445), u32 LE connect timeout ms (1..3600000),
 *   u32 LE query timeout ms (1..3600000), u32 LE first buffer size
 *   (0: the helper's default; at most 64 MiB), u8 flags (bit 0: require
 *   encryption; bits 1-2: Auth, 0 ntlm, 1 kerberos, 2 negotiate; bits 3-6:
 *   an open descriptor of the credentials file, keytab, ccache, krb5.conf
 *   comes with the frame (SCM_RIGHTS, in that order), bit 7 0), then eight
 *   NUL-terminated strings: host (1..255 bytes, printable
 *   ASCII without / \ @ or space), user, domain, credentials file,
 *   principal, keytab, ccache, krb5.conf (0..WPR_OPEN_STR_MAX bytes each,
 *   no control character; empty: not given). Nothing follows the eighth
 *   NUL. No password: the helper reads it from the credentials file or its
 *   own environment; no key either: the keytab or cache is a file, which
 *   the plugin opens and passes (the helper, sandboxed, may not open it).
 * SESSION, SNAMES, CLOSE: a u32 LE session id (never 0). SQUERY: the id,
 * then 1..WPR_REQUEST_MAX printable ASCII bytes (a value name).
 */
#ifndef WP_REMOTE_FRAME_SESSION_H
#define WP_REMOTE_FRAME_SESSION_H

#include "frame.h"

#define WPR_OPEN_FIXED 17u
#define WPR_OPEN_HOST_MAX 255u
#define WPR_OPEN_STR_MAX 1024u
#define WPR_TIMEOUT_MAX_MS 3600000u
#define WPR_OPEN_ENCRYPT 1u
#define WPR_OPEN_AUTH_SHIFT 1u
#define WPR_OPEN_AUTH_MASK 6u
#define WPR_OPEN_STRINGS 8
/* The descriptors that may come with OPEN: bit (WPR_OPEN_FD_SHIFT + i)
 * for file i of credentials, keytab, ccache, krb5.conf. */
#define WPR_OPEN_FD_SHIFT 3u
#define WPR_OPEN_FDS 4
#define WPR_OPEN_FD_MASK (((1u << WPR_OPEN_FDS) - 1u) << WPR_OPEN_FD_SHIFT)

/* A host's settings, as OPEN carries them. The strings point into `text`
 * after wpr_parse_open; a builder's may point anywhere (NULL: empty). */
typedef struct wpr_open {
  uint32_t port, connect_timeout_ms, query_timeout_ms, buffer_size;
  int encrypt;
  int auth; /* auth.h: WPR_AUTH_NTLM, _KERBEROS or _NEGOTIATE */
  /* bit i: a descriptor of file i (credentials, keytab, ccache,
   * krb5.conf) comes with the frame; only for a file that is named */
  unsigned fds;
  const char *host, *user, *domain, *credentials;
  const char *principal, *keytab, *ccache, *krb5_config;
  char text[WPR_OPEN_MAX];
} wpr_open;

/* OPEN's payload into out; its length, or 0 when the settings are out of
 * bounds or do not fit cap. */
size_t wpr_build_open(uint8_t *out, size_t cap, const wpr_open *o);

/* Check and decode an OPEN payload into o. 0, or -1 with err. */
int wpr_parse_open(const uint8_t *payload, size_t len, wpr_open *o,
                   wp_error *err);

/* A whole frame of type SESSION, SNAMES, CLOSE (name NULL) or SQUERY (name
 * of 1..WPR_REQUEST_MAX bytes) into out; the frame's length, or 0 when it
 * does not fit cap or the name is out of bounds. */
size_t wpr_build_session_frame(uint8_t *out, size_t cap, uint8_t type,
                               uint32_t id, const char *name);

/* The session id a SESSION, SNAMES, CLOSE or SQUERY payload starts with;
 * for SQUERY (name not NULL) also its value name, checked as
 * wpr_parse_query does. 0, or -1 with err (an id of 0 is refused). */
int wpr_parse_session(const uint8_t *payload, size_t len, uint32_t *id,
                      char *name, size_t namesize, wp_error *err);

/* The helper's watchdog for a step bounded by ms when it serves several
 * hosts: libsmbclient's own timeout answers first, for that host alone
 * (ms plus half of it, at least 1 s more, at most 30 s more). */
unsigned wpr_shared_watchdog_ms(unsigned ms);

#endif
