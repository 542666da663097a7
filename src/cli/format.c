/* collectd-winperf: text renderings of values, times, types and names.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "cli.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void cli_put_text(FILE *out, const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    fputc(*p < 0x20 || *p == 0x7F ? '?' : *p, out);
}

void cli_format_value(double v, char *buf, size_t cap) {
  if (!isfinite(v)) {
    snprintf(buf, cap, "%s", isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
    return;
  }
  snprintf(buf, cap, "%.6f", v);
  char *dot = strchr(buf, '.');
  if (dot != NULL) {
    char *end = buf + strlen(buf);
    while (end > dot + 1 && end[-1] == '0')
      *--end = '\0';
    if (end == dot + 1)
      *dot = '\0';
  }
  if (strcmp(buf, "-0") == 0)
    snprintf(buf, cap, "0");
}

/* Days since 1601-01-01 -> civil date (proleptic Gregorian; H. Hinnant's
 * algorithm shifted to 1601, itself a 400-year cycle start). */
static void civil_from_days(int64_t days, int64_t *y, unsigned *m,
                            unsigned *d) {
  /* 1601-01-01 is day 0; shift to an era starting 0000-03-01. */
  int64_t z = days + 584694; /* days from 0000-03-01 to 1601-01-01 */
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  unsigned doe = (unsigned)(z - era * 146097);
  unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t year = (int64_t)yoe + era * 400;
  unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = year + (*m <= 2);
}

bool cli_format_filetime(int64_t ticks, char *buf, size_t cap) {
  if (ticks < 0) {
    snprintf(buf, cap, "invalid");
    return false;
  }
  const int64_t per_day = INT64_C(864000000000);
  int64_t days = ticks / per_day;
  int64_t rest = ticks % per_day;
  int64_t y;
  unsigned m, d;
  civil_from_days(days, &y, &m, &d);
  int64_t secs = rest / 10000000, frac = rest % 10000000;
  snprintf(buf, cap, "%04" PRId64 "-%02u-%02uT%02u:%02u:%02u.%07uZ", y, m, d,
           (unsigned)(secs / 3600), (unsigned)(secs / 60 % 60),
           (unsigned)(secs % 60), (unsigned)frac);
  return true;
}

void cli_format_systemtime(const uint16_t st[8], char *buf, size_t cap) {
  snprintf(buf, cap, "%04u-%02u-%02uT%02u:%02u:%02u.%03uZ", st[0], st[1], st[3],
           st[4], st[5], st[6], st[7]);
}

const char *cli_type_name(uint32_t type, char *buf, size_t cap) {
  const char *name = pd_type_name(type);
  if (name != NULL)
    return name;
  snprintf(buf, cap, "0x%08" PRIx32, type);
  return buf;
}
