/* collectd-winperf: the "clean" metric-name profile (see clean_name.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "clean_name.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Lower-case ASCII for U+00C0..U+017F; "" removes (x, ÷ and the like). */
static const char *const latin1_supplement[64] = {
    /* C0 */ "a", "a", "a", "a", "a", "a", "ae", "c",
    /* C8 */ "e", "e", "e", "e", "i", "i", "i",  "i",
    /* D0 */ "d", "n", "o", "o", "o", "o", "o",  "",
    /* D8 */ "o", "u", "u", "u", "u", "y", "th", "ss",
    /* E0 */ "a", "a", "a", "a", "a", "a", "ae", "c",
    /* E8 */ "e", "e", "e", "e", "i", "i", "i",  "i",
    /* F0 */ "d", "n", "o", "o", "o", "o", "o",  "",
    /* F8 */ "o", "u", "u", "u", "u", "y", "th", "y",
};

/* Latin Extended-A, U+0100..U+017F, as runs of one base letter. */
static const struct {
  uint16_t last; /* the run is [previous last + 1, last] */
  const char *ascii;
} latin_extended_a[] = {
    {0x105, "a"}, {0x10D, "c"}, {0x111, "d"},  {0x11B, "e"},  {0x123, "g"},
    {0x127, "h"}, {0x131, "i"}, {0x133, "ij"}, {0x135, "j"},  {0x138, "k"},
    {0x142, "l"}, {0x14B, "n"}, {0x151, "o"},  {0x153, "oe"}, {0x159, "r"},
    {0x161, "s"}, {0x167, "t"}, {0x173, "u"},  {0x175, "w"},  {0x178, "y"},
    {0x17E, "z"}, {0x17F, "s"},
};

static const char *transliterate(uint32_t cp) {
  /* The block's three letters before U+00C0: ª, µ (micro), º. */
  if (cp == 0xAA || cp == 0xBA)
    return cp == 0xAA ? "a" : "o";
  if (cp == 0xB5)
    return "u";
  if (cp >= 0xC0 && cp <= 0xFF)
    return latin1_supplement[cp - 0xC0];
  if (cp >= 0x100 && cp <= 0x17F)
    for (size_t i = 0;; i++)
      if (cp <= latin_extended_a[i].last)
        return latin_extended_a[i].ascii;
  return "";
}

/* One code point from UTF-8; an invalid byte is returned as U+FFFD and
 * skipped alone. */
static uint32_t next_cp(const unsigned char **s) {
  const unsigned char *p = *s;
  uint32_t c = p[0];
  int n = c < 0x80             ? 0
          : (c & 0xE0) == 0xC0 ? 1
          : (c & 0xF0) == 0xE0 ? 2
          : (c & 0xF8) == 0xF0 ? 3
                               : -1;
  if (n < 0) {
    *s = p + 1;
    return 0xFFFD;
  }
  uint32_t cp = n == 0 ? c : c & (0x3Fu >> n);
  for (int i = 1; i <= n; i++) {
    if ((p[i] & 0xC0) != 0x80) {
      *s = p + 1;
      return 0xFFFD;
    }
    cp = cp << 6 | (p[i] & 0x3Fu);
  }
  *s = p + n + 1;
  return cp;
}

typedef struct writer {
  char *p;
  size_t used, cap; /* cap excludes the NUL */
} writer;

static void put(writer *w, const char *s) {
  for (; *s != '\0' && w->used < w->cap; s++)
    w->p[w->used++] = *s;
}

void wp_name_clean(char *dst, size_t size, const char *src) {
  if (size == 0)
    return;
  /* Steps 1-3 into an ASCII buffer: every input byte yields at most 4. */
  char ascii[1024];
  writer w = {ascii, 0, sizeof ascii - 1};
  const unsigned char *s = (const unsigned char *)src;
  while (*s != '\0' && w.used < w.cap) {
    uint32_t cp = next_cp(&s);
    if (cp == '%')
      put(&w, "pct_");
    else if (cp < 0x80) {
      char c[2] = {(char)(cp >= 'A' && cp <= 'Z' ? cp + 32 : cp), '\0'};
      put(&w, c);
    } else
      put(&w, transliterate(cp));
  }
  ascii[w.used] = '\0';
  if (w.used >= 4 && strcmp(ascii + w.used - 4, "/sec") == 0) {
    w.used -= 4;
    put(&w, "_per_sec");
    ascii[w.used] = '\0';
  }
  /* Steps 4-5 into dst. */
  size_t n = 0;
  bool pending = src[0] == '_'; /* one "_" owed before the next character */
  for (const char *a = ascii; *a != '\0' && n + 1 < size; a++) {
    char c = *a;
    bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!keep) {
      pending = pending || n > 0;
      continue;
    }
    if (n + (pending ? 2 : 1) >= size)
      break; /* cut: never a separator without what follows it */
    if (pending)
      dst[n++] = '_';
    pending = false;
    dst[n++] = c;
  }
  if (n == 0 && size > 1)
    dst[n++] = '_';
  dst[n] = '\0';
}
