/* Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 * collectd-winperf: tests for text conversion and case folding (utf.c).
 *
 * Expected bytes are hand-encoded from the Unicode and Windows-1252 tables.
 */
#include "pd_internal.h"
#include "tap.h"

static int bytes_eq(const char *got, const char *want, size_t n) {
  return memcmp(got, want, n) == 0;
}

#define U16(...) ((const uint8_t[]){__VA_ARGS__})

static void test_utf16(void) {
  char out[64];
  size_t n;

  n = pd_utf16_to_utf8(
      U16('_', 0, 'T', 0, 'o', 0, 't', 0, 'a', 0, 'l', 0, 0, 0), 7, false, out,
      sizeof out);
  IS_INT(n, 6, "utf16le _Total: length");
  IS_STR(out, "_Total", "utf16le _Total: text");

  n = pd_utf16_to_utf8(U16(0xC4, 0x00), 1, false, out, sizeof out);
  IS_INT(n, 2, "utf16le U+00C4: 2 bytes");
  IS_STR(out, "\xC3\x84", "utf16le U+00C4 -> C3 84");

  n = pd_utf16_to_utf8(U16(0xAC, 0x20), 1, false, out, sizeof out);
  IS_INT(n, 3, "utf16le U+20AC: 3 bytes");
  IS_STR(out, "\xE2\x82\xAC", "utf16le U+20AC -> E2 82 AC");

  /* U+1F600 = D83D DE00 */
  n = pd_utf16_to_utf8(U16(0x3D, 0xD8, 0x00, 0xDE, 'x', 0), 3, false, out,
                       sizeof out);
  IS_INT(n, 5, "surrogate pair: 4 bytes + x");
  IS_STR(out, "\xF0\x9F\x98\x80x", "surrogate pair -> F0 9F 98 80");

  n = pd_utf16_to_utf8(U16(0, '_', 0, 'T', 0xD8, 0x3D, 0xDE, 0x00, 0, 0xC4), 5,
                       true, out, sizeof out);
  IS_STR(out, "_T\xF0\x9F\x98\x80\xC3\x84", "utf16be with pair and U+00C4");
  IS_INT(n, 8, "utf16be length");

  n = pd_utf16_to_utf8(U16(0x3D, 0xD8, 'A', 0), 2, false, out, sizeof out);
  IS_STR(out,
         "\xEF\xBF\xBD"
         "A",
         "unpaired high surrogate then A -> FFFD A");
  IS_INT(n, 4, "unpaired high: length");
  n = pd_utf16_to_utf8(U16(0x00, 0xDC, 'A', 0), 2, false, out, sizeof out);
  IS_STR(out,
         "\xEF\xBF\xBD"
         "A",
         "lone low surrogate -> FFFD");
  n = pd_utf16_to_utf8(U16('A', 0, 0x3D, 0xD8), 2, false, out, sizeof out);
  IS_STR(out, "A\xEF\xBF\xBD", "high surrogate at the end -> FFFD");
  n = pd_utf16_to_utf8(U16(0x3D, 0xD8, 0x3D, 0xD8, 0x00, 0xDE), 3, false, out,
                       sizeof out);
  IS_STR(out, "\xEF\xBF\xBD\xF0\x9F\x98\x80", "high high low -> FFFD pair");

  n = pd_utf16_to_utf8(U16('a', 0, 'b', 0, 0, 0, 'c', 0), 4, false, out,
                       sizeof out);
  IS_INT(n, 2, "stops at the first NUL unit");
  IS_STR(out, "ab", "text before the NUL");

  n = pd_utf16_to_utf8(U16(0), 0, false, out, sizeof out);
  IS_INT(n, 0, "zero units");
  IS_STR(out, "", "zero units: empty string");

  /* snprintf-like truncation */
  memset(out, 'Z', sizeof out);
  n = pd_utf16_to_utf8(U16('_', 0, 'T', 0, 'o', 0, 't', 0, 'a', 0, 'l', 0), 6,
                       false, out, 4);
  IS_INT(n, 6, "truncated: full length returned");
  IS_STR(out, "_To", "truncated: cap-1 bytes and NUL");
  memset(out, 'Z', sizeof out);
  n = pd_utf16_to_utf8(U16('a', 0, 0xC4, 0), 2, false, out, 3);
  IS_INT(n, 3, "no room for the 2-byte char: length 3");
  IS_STR(out, "a", "a sequence is never split");
  n = pd_utf16_to_utf8(U16('a', 0, 0xC4, 0), 2, false, out, 4);
  IS_STR(out, "a\xC3\x84", "exact fit");
  n = pd_utf16_to_utf8(U16('a', 0), 1, false, NULL, 0);
  IS_INT(n, 1, "cap 0, out NULL: only measures");
  memset(out, 'Z', sizeof out);
  n = pd_utf16_to_utf8(U16(0xC4, 0, 'b', 0), 2, false, out, 2);
  IS_STR(out, "", "nothing after a char that did not fit");
  IS_INT(n, 3, "still counted");
}

static void test_codepages(void) {
  char out[64];
  size_t n;
  n = pd_codepage_to_utf8(U16(0x80), 1, 1252, out, sizeof out);
  IS_INT(n, 3, "cp1252 0x80: 3 bytes");
  OK(bytes_eq(out, "\xE2\x82\xAC", 4), "cp1252 0x80 -> euro E2 82 AC");
  n = pd_codepage_to_utf8(U16(0x9F, 0x8C, 0x99, 0x85), 4, 1252, out,
                          sizeof out);
  IS_STR(out, "\xC5\xB8\xC5\x92\xE2\x84\xA2\xE2\x80\xA6",
         "cp1252 9F 8C 99 85 -> U+0178 U+0152 U+2122 U+2026");
  n = pd_codepage_to_utf8(U16(0x81, 0x9D), 2, 1252, out, sizeof out);
  IS_STR(out, "\xC2\x81\xC2\x9D", "cp1252 unassigned 81 9D -> C1 controls");
  n = pd_codepage_to_utf8(U16('C', 'a', 'f', 0xE9), 4, 1252, out, sizeof out);
  IS_STR(out, "Caf\xC3\xA9", "cp1252 Caf\\xE9 -> Café");
  n = pd_codepage_to_utf8(U16(0x80, 0xFF), 2, 28591, out, sizeof out);
  IS_STR(out, "\xC2\x80\xC3\xBF", "28591 is Latin-1");
  n = pd_codepage_to_utf8(U16('a', 0x80), 2, 20127, out, sizeof out);
  IS_STR(out, "a\xEF\xBF\xBD", "20127 byte >= 0x80 -> FFFD");
  n = pd_codepage_to_utf8(U16('x', 0xC3, 0x84, 0xF0, 0x9F, 0x98, 0x80), 7,
                          65001, out, sizeof out);
  IS_STR(out, "x\xC3\x84\xF0\x9F\x98\x80", "65001 valid passes");
  IS_INT(n, 7, "65001 valid length");
  n = pd_codepage_to_utf8(U16(0xC3, 'A'), 2, 65001, out, sizeof out);
  IS_STR(out,
         "\xEF\xBF\xBD"
         "A",
         "65001 truncated sequence -> FFFD");
  n = pd_codepage_to_utf8(U16(0xC0, 0x80), 2, 65001, out, sizeof out);
  IS_STR(out, "\xEF\xBF\xBD\xEF\xBF\xBD", "65001 overlong C0 80 -> 2x FFFD");
  n = pd_codepage_to_utf8(U16(0xED, 0xA0, 0x80), 3, 65001, out, sizeof out);
  IS_STR(out, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD",
         "65001 encoded surrogate -> 3x FFFD");
  n = pd_codepage_to_utf8(U16(0xF4, 0x90, 0x80, 0x80), 4, 65001, out,
                          sizeof out);
  IS_INT(n, 12, "65001 above U+10FFFF -> 4x FFFD");
  n = pd_codepage_to_utf8(U16(0xE2, 0x82), 2, 65001, out, sizeof out);
  IS_STR(out, "\xEF\xBF\xBD\xEF\xBF\xBD", "65001 sequence cut by the end");
  n = pd_codepage_to_utf8(U16('O', 'K', 0x82, 0xA0), 4, 932, out, sizeof out);
  IS_STR(out, "OK\xEF\xBF\xBD\xEF\xBF\xBD",
         "unknown code page 932: ASCII passes, high bytes -> FFFD");
  n = pd_codepage_to_utf8(U16('a', 0, 'b'), 3, 1252, out, sizeof out);
  IS_INT(n, 1, "code page: stops at NUL");
  n = pd_codepage_to_utf8(U16('a', 'b', 'c', 0x80), 4, 1252, out, 5);
  IS_STR(out, "abc", "code page truncation does not split the euro");
  IS_INT(n, 6, "code page truncation: full length");
}

static uint32_t fold1(const char *s, size_t *adv) {
  const char *p = s;
  uint32_t c = pd_utf8_next_folded(&p);
  *adv = (size_t)(p - s);
  return c;
}

static void test_fold(void) {
  size_t adv;
  IS_INT(fold1("A", &adv), 'a', "fold A -> a");
  IS_INT(adv, 1, "ASCII advances 1");
  IS_INT(fold1("z", &adv), 'z', "fold z -> z");
  IS_INT(fold1("%", &adv), '%', "fold %% -> %%");
  IS_INT(fold1("\xC3\x84", &adv), 0xE4, "fold U+00C4 -> U+00E4");
  IS_INT(adv, 2, "2-byte sequence advances 2");
  IS_INT(fold1("\xC3\x97", &adv), 0xD7, "multiplication sign unchanged");
  IS_INT(fold1("\xC3\x9F", &adv), 0xDF, "sharp s unchanged");
  IS_INT(fold1("\xC3\x9E", &adv), 0xFE, "Thorn -> thorn");
  IS_INT(fold1("\xC5\xB8", &adv), 0xFF, "U+0178 -> U+00FF");
  IS_INT(fold1("\xC4\x80", &adv), 0x101, "U+0100 -> U+0101");
  IS_INT(fold1("\xC4\x81", &adv), 0x101, "U+0101 unchanged");
  IS_INT(fold1("\xC5\x81", &adv), 0x142, "L stroke U+0141 -> U+0142");
  IS_INT(fold1("\xC5\xBD", &adv), 0x17E, "Z caron U+017D -> U+017E");
  IS_INT(fold1("\xC5\x8A", &adv), 0x14B, "Eng U+014A -> U+014B");
  IS_INT(fold1("\xCE\xA3", &adv), 0x3C3, "Greek Sigma -> sigma");
  IS_INT(fold1("\xCF\x82", &adv), 0x3C3, "final sigma -> sigma");
  IS_INT(fold1("\xCE\x86", &adv), 0x3AC, "Greek Alpha tonos");
  IS_INT(fold1("\xCE\x8F", &adv), 0x3CE, "Greek Omega tonos");
  IS_INT(fold1("\xD0\x94", &adv), 0x434, "Cyrillic De -> de");
  IS_INT(fold1("\xD0\x81", &adv), 0x451, "Cyrillic Io -> io");
  IS_INT(fold1("\xD1\x8F", &adv), 0x44F, "Cyrillic ya unchanged");
  IS_INT(fold1("\xE2\x82\xAC", &adv), 0x20AC, "euro unchanged");
  IS_INT(adv, 3, "3-byte sequence advances 3");
  IS_INT(fold1("\xF0\x9F\x98\x80", &adv), 0x1F600, "4-byte sequence");
  IS_INT(adv, 4, "4-byte sequence advances 4");
  IS_INT(fold1("\xFF"
               "A",
               &adv),
         0xFF, "invalid byte folds to itself");
  IS_INT(adv, 1, "invalid byte advances 1");
  IS_INT(fold1("\xC3", &adv), 0xC3, "lead byte before NUL: itself");
  IS_INT(adv, 1, "lead byte before NUL advances 1 (not past the NUL)");
  IS_INT(fold1("", &adv), 0, "NUL -> 0");
  IS_INT(adv, 0, "NUL does not advance");
}

int main(void) {
  test_utf16();
  test_codepages();
  test_fold();
  return tap_done();
}
