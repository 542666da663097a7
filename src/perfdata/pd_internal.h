/* collectd-winperf: internals shared by the parser's files (not installed).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef PD_INTERNAL_H
#define PD_INTERNAL_H

#include "perfdata.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the wire: every integer read goes through src/wire/wire.h, at the
 * field offsets layout.h names ---- */
#include "wire.h"
#include "layout.h"

/* The error of a structure whose own length wire_sized_at() found out of
 * range (WIRE_RANGE): "offset 0x..: <field> N outside [min, max]", at the
 * length field. */
pd_status pd_error_range(pd_error *err, pd_status status, const wire_sized *s,
                         const char *field);

/* ---- the helpers below the parser (src/common) ---- */

/* Arrays grow through wp_grow (callers bound `need` first: by counts
 * checked against the input's size, or by readings actually found in it);
 * every hash table is a wp_table keyed by wp_hash_bytes or pd_hash_folded. */
#include "wp_grow.h"
#include "wp_hash.h"
#include "wp_table.h"

/* ---- text conversion (utf.c) ---- */

/* Append the UTF-8 form of `units` UTF-16 code units at src (byte order as
 * given) to out[0..cap). Unpaired surrogates become U+FFFD; conversion stops
 * at the first NUL unit. Returns the number of bytes the full conversion
 * needs (excluding the terminating NUL, which is written when it fits), like
 * snprintf. Worst case 3 bytes per unit. */
size_t pd_utf16_to_utf8(const uint8_t *src, size_t units, bool big_endian,
                        char *out, size_t cap);

/* The same for `len` bytes in Windows code page `code_page` (1252, 28591,
 * 20127, 65001 and anything ASCII-compatible; bytes >= 0x80 in an unknown
 * code page become U+FFFD). Stops at the first NUL byte. Worst case 3 bytes
 * per input byte. */
size_t pd_codepage_to_utf8(const uint8_t *src, size_t len, uint32_t code_page,
                           char *out, size_t cap);

/* Fold one UTF-8 sequence for case-insensitive comparison: returns the code
 * point of the lower-case form and advances *s. Invalid bytes fold to
 * themselves (one byte each). */
uint32_t pd_utf8_next_folded(const char **s);

/* The same with ASCII handled inline: instance and counter names are
 * nearly always ASCII, and matching runs per instance per interval. Like
 * pd_utf8_next_folded, it returns 0 at the NUL without moving past it. */
static inline uint32_t pd_next_folded(const char **s) {
  unsigned char c = (unsigned char)**s;
  if (c < 0x80) {
    if (c != 0)
      (*s)++;
    return (c >= 'A' && c <= 'Z') ? (uint32_t)c + 32 : c;
  }
  return pd_utf8_next_folded(s);
}

#endif
