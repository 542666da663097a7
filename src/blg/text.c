/* collectd-winperf: UTF-16 strings and times of a .blg (doc/blg.md 5).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "blg_internal.h"

#include <stdio.h>

/* One code point as UTF-8 into out (4 bytes at most); returns the bytes. */
static size_t utf8_put(uint32_t cp, char *out) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xc0 | cp >> 6);
    out[1] = (char)(0x80 | (cp & 0x3f));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xe0 | cp >> 12);
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[2] = (char)(0x80 | (cp & 0x3f));
    return 3;
  }
  out[0] = (char)(0xf0 | cp >> 18);
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
  out[3] = (char)(0x80 | (cp & 0x3f));
  return 4;
}

char *blg_utf16_string(const uint8_t *data, size_t off, size_t end,
                       size_t *next, bool *nomem) {
  size_t n = off;
  while (n + 2 <= end && (data[n] | data[n + 1]) != 0)
    n += 2;
  if (n + 2 > end)
    return NULL; /* no NUL before the end */
  /* each code unit is at most 3 UTF-8 bytes (a pair: 4 for 2 units) */
  char *s = malloc((n - off) / 2 * 3 + 1), *w = s;
  if (s == NULL) {
    *nomem = true;
    return NULL;
  }
  for (size_t i = off; i < n; i += 2) {
    uint32_t u = wire_le16(data + i);
    if (u >= 0xd800 && u < 0xdc00 && i + 4 <= n) {
      uint32_t lo = wire_le16(data + i + 2);
      if (lo >= 0xdc00 && lo < 0xe000) {
        w += utf8_put(0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00), w);
        i += 2;
        continue;
      }
    }
    if (u >= 0xd800 && u < 0xe000)
      u = 0xfffd; /* a lone surrogate */
    w += utf8_put(u, w);
  }
  *w = '\0';
  *next = n + 2;
  return s;
}

int blg_put_utf16(uint8_t **buf, size_t *len, size_t *cap, const char *s) {
  size_t n = strlen(s);
  /* at most one UTF-16 code unit per UTF-8 byte, plus the NUL */
  if (wp_grow_bytes(buf, cap, *len + 2 * n + 2, (size_t)1 << 30) != WP_GROW_OK)
    return -1;
  uint8_t *w = *buf + *len;
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    uint32_t cp = *p++;
    int more = cp >= 0xf0 ? 3 : cp >= 0xe0 ? 2 : cp >= 0xc0 ? 1 : 0;
    cp &= more == 3 ? 0x07 : more == 2 ? 0x0f : more == 1 ? 0x1f : 0x7f;
    for (; more > 0 && (*p & 0xc0) == 0x80; more--)
      cp = cp << 6 | (*p++ & 0x3f);
    if (cp >= 0x10000) { /* needs a pair: 4 bytes for 4 UTF-8 bytes */
      cp -= 0x10000;
      wire_put_le16(w, (uint16_t)(0xd800 + (cp >> 10)));
      wire_put_le16(w + 2, (uint16_t)(0xdc00 + (cp & 0x3ff)));
      w += 4;
    } else {
      wire_put_le16(w, (uint16_t)cp);
      w += 2;
    }
  }
  wire_put_le16(w, 0);
  *len = (size_t)(w + 2 - *buf);
  return 0;
}

/* ----------------------------------------------------------------- time */

#define TICKS_PER_DAY (INT64_C(864000000000))
#define TICKS_PER_MINUTE (INT64_C(600000000))

/* Days since 1601-01-01 of a civil date (proleptic Gregorian). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  unsigned yoe = (unsigned)(y - era * 400);
  unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (int64_t)doe - 584694; /* 1601-01-01 is day 0 */
}

static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d) {
  z += 584694;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  unsigned doe = (unsigned)(z - era * 146097);
  unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

/* The transition of a TIME_ZONE_INFORMATION rule (SYSTEMTIME with wDay =
 * week 1..5 of wMonth, 5 = last, on wDayOfWeek at wHour:wMinute) in year
 * y, as local ticks. */
static int64_t rule_time(const uint16_t st[8], int64_t y) {
  unsigned month = st[1], dow = st[2], week = st[3];
  int64_t first = days_from_civil(y, month, 1);
  unsigned first_dow = (unsigned)((first + 1) % 7); /* 1601-01-01: Monday */
  int64_t day = first + (dow + 7 - first_dow) % 7 + 7 * (int64_t)(week - 1);
  int64_t next_month = month == 12 ? days_from_civil(y + 1, 1, 1)
                                   : days_from_civil(y, month + 1, 1);
  while (day >= next_month)
    day -= 7;
  return day * TICKS_PER_DAY + ((int64_t)st[4] * 60 + st[5]) * TICKS_PER_MINUTE;
}

/* Biases beyond two days are not a zone's: a hostile field, ignored. */
#define MAX_BIAS_MINUTES (2 * 24 * 60)

int64_t blg_local_to_utc(const blg_info *in, int64_t local) {
  int64_t bias = (int64_t)in->tz_bias + in->tz_standard_bias;
  /* far from the int64 ends, so no sum below can overflow */
  if (local < 0 || local > INT64_MAX / 2)
    return local;
  const uint16_t *dst = in->tz_daylight_date, *std = in->tz_standard_date;
  /* wYear 0 and valid months: a yearly rule (absolute dates: not seen) */
  if (dst[0] == 0 && std[0] == 0 && dst[1] >= 1 && dst[1] <= 12 &&
      std[1] >= 1 && std[1] <= 12 && dst[3] >= 1 && dst[3] <= 5 &&
      std[3] >= 1 && std[3] <= 5 && dst[2] <= 6 && std[2] <= 6) {
    int64_t y;
    unsigned m, d;
    civil_from_days(local / TICKS_PER_DAY, &y, &m, &d);
    int64_t start = rule_time(dst, y), end = rule_time(std, y);
    bool in_dst = start < end ? (local >= start && local < end)
                              : (local >= start || local < end);
    if (in_dst)
      bias = (int64_t)in->tz_bias + in->tz_daylight_bias;
  }
  if (bias < -MAX_BIAS_MINUTES || bias > MAX_BIAS_MINUTES)
    bias = 0;
  return local + bias * TICKS_PER_MINUTE;
}

void blg_format_time(int64_t t, char *buf, size_t cap) {
  if (t < 0)
    t = 0;
  int64_t y;
  unsigned m, d;
  civil_from_days(t / TICKS_PER_DAY, &y, &m, &d);
  int64_t rest = t % TICKS_PER_DAY;
  snprintf(buf, cap, "%04lld-%02u-%02u %02u:%02u:%02u.%03u", (long long)y, m, d,
           (unsigned)(rest / (TICKS_PER_MINUTE * 60)),
           (unsigned)(rest / TICKS_PER_MINUTE % 60),
           (unsigned)(rest / 10000000 % 60), (unsigned)(rest / 10000 % 1000));
}

bool blg_parse_time(const char *s, int64_t *out) {
  unsigned y, mo, d, h, mi, sec = 0, ms = 0;
  int n = 0;
  char sep;
  if (sscanf(s, "%4u-%2u-%2u%c%2u:%2u%n", &y, &mo, &d, &sep, &h, &mi, &n) ==
          6 &&
      (sep == ' ' || sep == 'T')) {
  } else if (sscanf(s, "%2u/%2u/%4u %2u:%2u%n", &mo, &d, &y, &h, &mi, &n) ==
             5) {
  } else {
    return false;
  }
  s += n;
  if (*s == ':') {
    int k = 0;
    if (sscanf(s, ":%2u%n", &sec, &k) != 1)
      return false;
    s += k;
    if (*s == '.') {
      unsigned scale = 100;
      for (s++; *s >= '0' && *s <= '9'; s++, scale /= 10)
        ms += (unsigned)(*s - '0') * scale;
    }
  }
  if (*s != '\0' || y < 1601 || mo < 1 || mo > 12 || d < 1 || d > 31 ||
      h > 23 || mi > 59 || sec > 60)
    return false;
  *out = days_from_civil(y, mo, d) * TICKS_PER_DAY +
         ((int64_t)h * 60 + mi) * TICKS_PER_MINUTE + (int64_t)sec * 10000000 +
         (int64_t)ms * 10000;
  return true;
}
