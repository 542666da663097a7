/* Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 * collectd-winperf: text conversion (UTF-16, Windows code pages -> UTF-8) and
 * case folding for counter and instance names.
 *
 * All three functions are on the decoder's hot path (instance names, spec
 * 1.4): no allocation, ASCII fast paths.
 *
 * Output convention (both converters), like snprintf: bytes are written while
 * a whole UTF-8 sequence still fits before the terminating NUL; once one does
 * not fit nothing more is written (no split sequences), but the full length is
 * still counted and returned. The NUL is written whenever cap > 0.
 */
#include "pd_internal.h"

#define PD_REPLACEMENT 0xFFFDu

/* The writer shared by both converters. */
typedef struct utf8_out {
  char *out;
  size_t cap;     /* usable bytes: cap - 1 (room for the NUL) */
  size_t need;    /* bytes the full conversion needs */
  size_t written; /* bytes actually stored (== need until the first overflow) */
} utf8_out;

static inline void put_ascii(utf8_out *w, uint8_t c) {
  if (w->written == w->need && w->need + 1 < w->cap)
    w->out[w->written++] = (char)c;
  w->need++;
}

static void put_cp(utf8_out *w, uint32_t cp) {
  uint8_t buf[4];
  size_t n;
  if (cp < 0x80) {
    put_ascii(w, (uint8_t)cp);
    return;
  }
  if (cp < 0x800) {
    buf[0] = (uint8_t)(0xC0 | cp >> 6);
    buf[1] = (uint8_t)(0x80 | (cp & 0x3F));
    n = 2;
  } else if (cp < 0x10000) {
    buf[0] = (uint8_t)(0xE0 | cp >> 12);
    buf[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
    buf[2] = (uint8_t)(0x80 | (cp & 0x3F));
    n = 3;
  } else {
    buf[0] = (uint8_t)(0xF0 | cp >> 18);
    buf[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
    buf[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
    buf[3] = (uint8_t)(0x80 | (cp & 0x3F));
    n = 4;
  }
  /* need + n < cap, written without overflow: need < cap here. */
  if (w->written == w->need && w->cap > 0 && n < w->cap - w->need) {
    for (size_t i = 0; i < n; i++)
      w->out[w->written + i] = (char)buf[i];
    w->written += n;
  }
  w->need += n;
}

static inline size_t finish(utf8_out *w) {
  if (w->cap > 0)
    w->out[w->written] = '\0';
  return w->need;
}

size_t pd_utf16_to_utf8(const uint8_t *src, size_t units, bool big_endian,
                        char *out, size_t cap) {
  utf8_out w = {out, cap, 0, 0};
  /* hi/lo: byte positions of the high and low byte of a unit */
  const size_t hi = big_endian ? 0 : 1, lo = big_endian ? 1 : 0;
  size_t i = 0;
  while (i < units) {
    /* Fast path: a run of ASCII stored straight into out (locals, because
     * stores through char * would make the compiler reload w's fields). */
    if (w.written == w.need) {
      size_t k = w.written, room = cap > k ? cap - k - 1 : 0;
      size_t stop = units - i < room ? units - i : room;
      const uint8_t *p = src + 2 * i;
      size_t j = 0;
      while (j < stop && p[2 * j + hi] == 0 && p[2 * j + lo] - 1u < 0x7Fu) {
        out[k + j] = (char)p[2 * j + lo];
        j++;
      }
      i += j;
      w.written = w.need = k + j;
      if (i >= units)
        break;
    }
    const uint8_t *p = src + 2 * i;
    uint32_t u = big_endian ? wire_be16(p) : wire_le16(p);
    if (u < 0x80) {
      if (u == 0)
        break;
      put_ascii(&w, (uint8_t)u);
      i++;
      continue;
    }
    i++;
    if (u >= 0xD800 && u <= 0xDBFF) {
      /* A high surrogate needs a low one right after it. */
      if (i < units) {
        uint32_t u2 = big_endian ? wire_be16(p + 2) : wire_le16(p + 2);
        if (u2 >= 0xDC00 && u2 <= 0xDFFF) {
          put_cp(&w, 0x10000 + ((u - 0xD800) << 10) + (u2 - 0xDC00));
          i++;
          continue;
        }
      }
      u = PD_REPLACEMENT;
    } else if (u >= 0xDC00 && u <= 0xDFFF) {
      u = PD_REPLACEMENT; /* lone low surrogate */
    }
    put_cp(&w, u);
  }
  return finish(&w);
}

/* Windows-1252 0x80-0x9F (the rest is Latin-1). The five unassigned bytes
 * (0x81, 0x8D, 0x8F, 0x90, 0x9D) map to the C1 controls of the same value,
 * as MultiByteToWideChar does. */
static const uint16_t cp1252_80_9f[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

/* Length of the valid UTF-8 sequence at s[0..len) (s[0] >= 0x80), storing its
 * code point, or 0 when it is invalid (overlong, surrogate, > U+10FFFF,
 * truncated, stray continuation). */
static size_t utf8_decode(const uint8_t *s, size_t len, uint32_t *cp) {
  uint8_t c = s[0];
  size_t n;
  uint32_t v, min;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2, v = c & 0x1Fu, min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3, v = c & 0x0Fu, min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4, v = c & 0x07u, min = 0x10000;
  } else {
    return 0;
  }
  if (n > len)
    return 0;
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80)
      return 0;
    v = v << 6 | (s[i] & 0x3Fu);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
    return 0;
  *cp = v;
  return n;
}

size_t pd_codepage_to_utf8(const uint8_t *src, size_t len, uint32_t code_page,
                           char *out, size_t cap) {
  utf8_out w = {out, cap, 0, 0};
  size_t i = 0;
  while (i < len) {
    uint8_t c = src[i];
    if (c < 0x80) {
      if (c == 0)
        break;
      put_ascii(&w, c);
      i++;
      continue;
    }
    switch (code_page) {
    case 1252:
      put_cp(&w, c < 0xA0 ? cp1252_80_9f[c - 0x80] : c);
      i++;
      break;
    case 28591: /* ISO 8859-1: byte == code point */
      put_cp(&w, c);
      i++;
      break;
    case 65001: { /* UTF-8: validate; each invalid byte becomes U+FFFD */
      uint32_t cp;
      size_t n = utf8_decode(src + i, len - i, &cp);
      if (n == 0) {
        put_cp(&w, PD_REPLACEMENT);
        i++;
      } else {
        put_cp(&w, cp);
        i += n;
      }
      break;
    }
    default:
      /* 20127 (US-ASCII) and every code page without a table here: ASCII
       * passes through, bytes >= 0x80 become U+FFFD (documented limit). */
      put_cp(&w, PD_REPLACEMENT);
      i++;
      break;
    }
  }
  return finish(&w);
}

/* Simple lower-case folding of the ranges counter and instance names use:
 * ASCII, Latin-1 Supplement, Latin Extended-A, Greek and Cyrillic. */
static uint32_t fold_cp(uint32_t c) {
  if (c < 0x100) {
    if ((c >= 0xC0 && c <= 0xDE && c != 0xD7))
      return c + 0x20;
    if (c == 0xB5) /* micro sign -> Greek mu */
      return 0x3BC;
    return c;
  }
  if (c < 0x180) { /* Latin Extended-A: mostly upper/lower pairs */
    if (c == 0x130)
      return 'i'; /* I with dot above */
    if (c == 0x178)
      return 0xFF; /* Y diaeresis */
    if (c == 0x17F)
      return 's'; /* long s */
    if ((c >= 0x100 && c <= 0x12F) || (c >= 0x132 && c <= 0x137) ||
        (c >= 0x14A && c <= 0x177))
      return c | 1;
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E))
      return (c & 1) ? c + 1 : c;
    return c;
  }
  if (c >= 0x370 && c < 0x400) { /* Greek */
    if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2)
      return c + 0x20;
    if (c == 0x386)
      return 0x3AC;
    if (c >= 0x388 && c <= 0x38A)
      return c + 0x25;
    if (c == 0x38C)
      return 0x3CC;
    if (c == 0x38E || c == 0x38F)
      return c + 0x3F;
    if (c == 0x3C2) /* final sigma */
      return 0x3C3;
    return c;
  }
  if (c >= 0x400 && c < 0x530) { /* Cyrillic and its supplement */
    if (c <= 0x40F)
      return c + 0x50;
    if (c <= 0x42F)
      return c + 0x20;
    if (c < 0x460)
      return c;
    if (c <= 0x481 || (c >= 0x48A && c <= 0x4BF) || c >= 0x4D0)
      return c | 1;
    if (c == 0x4C0)
      return 0x4CF;
    if (c >= 0x4C1 && c <= 0x4CE)
      return (c & 1) ? c + 1 : c;
    return c;
  }
  return c;
}

uint32_t pd_utf8_next_folded(const char **s) {
  const uint8_t *p = (const uint8_t *)*s;
  uint8_t c = p[0];
  if (c < 0x80) {
    if (c == 0)
      return 0; /* at the terminator: do not advance */
    *s += 1;
    return (c >= 'A' && c <= 'Z') ? c + 0x20u : c;
  }
  /* The string is NUL-terminated: utf8_decode stops at the first byte that
   * is not a continuation (the NUL included), so 4 is a safe bound. */
  size_t avail = 1;
  while (avail < 4 && (p[avail] & 0xC0) == 0x80)
    avail++;
  uint32_t cp;
  size_t n = utf8_decode(p, avail, &cp);
  if (n == 0) {
    *s += 1;
    return c; /* invalid byte: folds to itself */
  }
  *s += n;
  return fold_cp(cp);
}

uint32_t pd_hash_folded(const char *s) {
  /* The folded form in chunks: a code point below 0x80 as its byte, any
   * other as 0xFF and its three bytes, so texts pd_name_casecmp calls equal
   * give the same bytes, cut into the same chunks. */
  unsigned char buf[128];
  size_t n = 0;
  uint64_t h = WP_HASH_SEED;
  for (;;) {
    unsigned char c = (unsigned char)*s;
    if (c == 0)
      break;
    if (n > sizeof buf - 4) {
      h = wp_hash_bytes_from(h, buf, n);
      n = 0;
    }
    if (c < 0x80) {
      buf[n++] = (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
      s++;
      continue;
    }
    uint32_t cp = pd_utf8_next_folded(&s);
    buf[n++] = 0xFF;
    buf[n++] = (unsigned char)(cp >> 16);
    buf[n++] = (unsigned char)(cp >> 8);
    buf[n++] = (unsigned char)cp;
  }
  return wp_hash32(wp_hash_bytes_from(h, buf, n));
}
