/* collectd-winperf: helpers shared by the winperf subcommands.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int cli_error(const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fflush(stdout);
  fputs("winperf: ", stderr);
  cli_put_text(stderr, msg);
  fputc('\n', stderr);
  return CLI_EXIT_ERROR;
}

int cli_error_at(const char *file, const pd_error *err) {
  /* The library's messages start with "offset 0x...: " (perfdata.h); add
   * the offset ourselves if a message does not. */
  const char *msg =
      err->message[0] ? err->message : pd_status_name(err->status);
  if (strncmp(msg, "offset ", 7) == 0)
    return cli_error("%s: %s", file, msg);
  return cli_error("%s: offset 0x%zx: %s", file, err->offset, msg);
}

bool cli_read_file(const char *path, uint8_t **data, size_t *len) {
  *data = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    cli_error("%s: cannot open: %s", path, strerror(errno));
    return false;
  }
  /* Read in growing chunks rather than trusting a seek/tell size, so pipes
   * and special files work too; stop at the bound. */
  size_t cap = 0, n = 0;
  uint8_t *buf = NULL;
  for (;;) {
    if (n == cap) {
      if (cap >= CLI_MAX_FILE_SIZE + 1) {
        free(buf);
        fclose(f);
        cli_error("%s: larger than the %zu MiB limit", path,
                  CLI_MAX_FILE_SIZE >> 20);
        return false;
      }
      size_t ncap = cap ? cap * 2 : 65536;
      if (ncap > CLI_MAX_FILE_SIZE + 1)
        ncap = CLI_MAX_FILE_SIZE + 1;
      uint8_t *nbuf = realloc(buf, ncap);
      if (nbuf == NULL) {
        free(buf);
        fclose(f);
        cli_error("%s: out of memory reading the file", path);
        return false;
      }
      buf = nbuf;
      cap = ncap;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) {
      if (ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        cli_error("%s: read error at offset 0x%zx: %s", path, n,
                  e ? strerror(e) : "I/O error");
        return false;
      }
      break;
    }
  }
  fclose(f);
  if (n > CLI_MAX_FILE_SIZE) {
    free(buf);
    cli_error("%s: larger than the %zu MiB limit", path,
              CLI_MAX_FILE_SIZE >> 20);
    return false;
  }
  *data = buf;
  *len = n;
  return true;
}

bool cli_load_names(const char *path, pd_names **names) {
  uint8_t *data;
  size_t len;
  *names = NULL;
  if (!cli_read_file(path, &data, &len))
    return false;
  pd_error err = {0};
  pd_status st = pd_names_parse(data, len, names, &err);
  free(data);
  if (st != PD_OK) {
    cli_error_at(path, &err);
    return false;
  }
  return true;
}

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

int cli_common_option(int c, cli_common *opt, const char *command,
                      char **argv) {
  const char *arg = optind > 0 ? argv[optind - 1] : "";
  switch (c) {
  case 'j':
    opt->json = true;
    return CLI_CONTINUE;
  case 'n':
    opt->names_file = optarg;
    return CLI_CONTINUE;
  case CLI_OPT_MULTI_TIMER:
    if (strcmp(optarg, "reskit") == 0)
      opt->calc.multi_timer = PD_MULTI_TIMER_RESKIT;
    else if (strcmp(optarg, "msdn") == 0)
      opt->calc.multi_timer = PD_MULTI_TIMER_MSDN_SAMPLE;
    else
      return cli_error("%s: --multi-timer: '%s' is not 'reskit' or 'msdn'",
                       command, optarg);
    return CLI_CONTINUE;
  case CLI_OPT_CAP100:
    opt->calc.cap100 = true;
    return CLI_CONTINUE;
  case 'h':
    cli_command_usage(stdout, command);
    return CLI_EXIT_OK;
  case ':':
    return cli_error("%s: option '%s' needs an argument", command, arg);
  default:
    if (optopt != 0 && strncmp(arg, "--", 2) != 0)
      return cli_error("%s: unknown option '-%c'", command, optopt);
    return cli_error("%s: unknown option '%s'", command, arg);
  }
}

int cli_path_error(const char *path, const pd_error *err) {
  /* The library's path messages start with "column N: " (0-based, as
   * err->offset); add it if one does not. */
  if (strncmp(err->message, "column ", 7) == 0)
    return cli_error("%s: %s", path, err->message);
  return cli_error("%s: column %zu: %s", path, err->offset, err->message);
}

bool cli_blob_load(cli_blob *b) {
  if (!cli_read_file(b->file, &b->data, &b->len))
    return false;
  b->snap = pd_snapshot_new();
  if (b->snap == NULL) {
    cli_error("%s: out of memory", b->file);
    return false;
  }
  pd_error err = {0};
  if (pd_decode(b->snap, b->data, b->len, NULL, &err) != PD_OK) {
    cli_error_at(b->file, &err);
    return false;
  }
  return true;
}

void cli_blob_clear(cli_blob *b) {
  if (b->snap != NULL)
    pd_snapshot_free(b->snap);
  free(b->data);
  b->snap = NULL;
  b->data = NULL;
  b->len = 0;
}
