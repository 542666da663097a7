/* collectd-winperf: helpers shared by the winperf subcommands.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The commands themselves and their table are in commands.h. Errors are
 * reported with cli_error(): exactly one line on stderr, "winperf: WHAT:
 * REASON"; functions that fail report and return false or CLI_EXIT_ERROR.
 */
#ifndef WINPERF_CLI_H
#define WINPERF_CLI_H

#include "naming.h" /* src/plugin: MetricNames, InstanceNames */
#include "perfdata.h"

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit statuses (documented in doc/winperf.1). */
enum {
  CLI_EXIT_OK = 0,
  CLI_EXIT_NO_MATCH = 1, /* query: a path matched no counter */
  CLI_EXIT_ERROR = 2,    /* usage, unreadable file, malformed input */
};

/* Not an exit status: a command returns it for --help, and the dispatcher
 * (commands.c) prints the command's help and exits 0. */
#define CLI_SHOW_HELP (-2)

/* Files larger than this are refused before reading (a real blob is a few
 * MB; a name table well under 1 MB). */
#define CLI_MAX_FILE_SIZE ((size_t)256 << 20)

/* Print "winperf: " + the message + newline on stderr, as one line (control
 * characters in the message are replaced). Returns CLI_EXIT_ERROR. */
int cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* One-line error for a pd_error from `file`'s bytes: "FILE: offset 0x1a8:
 * reason". Returns CLI_EXIT_ERROR. */
int cli_error_at(const char *file, const pd_error *err);

/* Read a whole file (at most CLI_MAX_FILE_SIZE bytes) into a malloc'ed
 * buffer. On failure reports the error with cli_error and returns false. */
bool cli_read_file(const char *path, uint8_t **data, size_t *len);

/* Read and parse a names table (--names FILE); reports errors. */
bool cli_load_names(const char *path, pd_names **names);

/* Write len bytes to a new file at path; reports errors. */
bool cli_write_file(const char *path, const uint8_t *data, size_t len);

/* Create the directory dir (an existing one is fine); reports errors. */
bool cli_make_dir(const char *dir);

/* Write s to out with control characters (and DEL) replaced by '?', so a
 * text line stays one line and tab-separated columns stay columns. */
void cli_put_text(FILE *out, const char *s);

/* Text rendering of a computed value: fixed notation with at most 6
 * decimals, trailing zeros and a trailing '.' removed ("75", "0.003",
 * "12.5"). buf must hold 64 bytes; non-finite values give "nan"/"inf". */
void cli_format_value(double v, char *buf, size_t cap);

/* "2024-01-01T00:00:00.0000000Z" from a FILETIME-like count of 100 ns since
 * 1601-01-01 UTC (PerfTime100nSec); false for negative counts. */
bool cli_format_filetime(int64_t ticks, char *buf, size_t cap);

/* "2024-01-01T00:00:00.000Z" from a SYSTEMTIME (fields as on the wire,
 * printed without validation). */
void cli_format_systemtime(const uint16_t st[8], char *buf, size_t cap);

/* CounterType as its format.md 2.2 name, or "0x%08x" when unnamed. */
const char *cli_type_name(uint32_t type, char *buf, size_t cap);

/* Options shared by the subcommands: put CLI_COMMON_LONGOPTS in the
 * getopt_long table, start the short options with CLI_COMMON_SHORTOPTS and
 * pass every option the subcommand does not handle itself to
 * cli_common_option. */
typedef struct cli_common {
  bool json;
  const char *names_file;
  pd_calc_options calc; /* with CLI_CALC_LONGOPTS; zero = the defaults */
  pd_pair_by pair_by;   /* --pair-by id|name; zero = by id */
  wp_instance_names instance_names; /* --instance-names pdh|pid */
  wp_metric_names metric_names;     /* --metric-names pdh|clean */
} cli_common;

#define CLI_COMMON_SHORTOPTS ":jn:h"
#define CLI_COMMON_LONGOPTS                                                    \
  {"json", no_argument, NULL, 'j'}, {"names", required_argument, NULL, 'n'}, { \
    "help", no_argument, NULL, 'h'                                             \
  }
#define CLI_CONTINUE (-1)
/* --multi-timer=reskit|msdn, --cap100 (pd_calc_options), --pair-by
 * id|name (pd_selection_set_pairing), --instance-names pdh|pid and
 * --metric-names pdh|clean (the names printed), for the subcommands that
 * compute values; also handled by cli_common_option. */
enum {
  CLI_OPT_MULTI_TIMER = 256,
  CLI_OPT_CAP100,
  CLI_OPT_PAIR_BY,
  CLI_OPT_INSTANCE_NAMES,
  CLI_OPT_METRIC_NAMES
};
#define CLI_CALC_LONGOPTS                                                      \
  {"multi-timer", required_argument, NULL, CLI_OPT_MULTI_TIMER},               \
      {"cap100", no_argument, NULL, CLI_OPT_CAP100},                           \
      {"pair-by", required_argument, NULL, CLI_OPT_PAIR_BY},                   \
      {"instance-names", required_argument, NULL, CLI_OPT_INSTANCE_NAMES}, {   \
    "metric-names", required_argument, NULL, CLI_OPT_METRIC_NAMES              \
  }

/* Handle getopt_long's `c` for `command`: --json, --names, --multi-timer
 * and --cap100 give CLI_CONTINUE; --help gives CLI_SHOW_HELP; anything
 * else is reported and gives CLI_EXIT_ERROR. */
int cli_common_option(int c, cli_common *opt, const char *command, char **argv);

/* getopt_long over argv with longopts and CLI_COMMON_SHORTOPTS, every
 * option handled by cli_common_option: CLI_CONTINUE with optind at the
 * first operand, or what cli_common_option gave. */
int cli_parse_options(int argc, char **argv, const struct option *longopts,
                      cli_common *opt, const char *command);

/* For hand-written option loops: when argv[*i] (== arg) is option `name`,
 * as "--name VALUE" or "--name=VALUE", its value (advancing *i past a
 * separate value); "" (reported) when the value is missing; NULL when arg
 * is another option. */
const char *cli_opt_value(const char *arg, const char *name, int argc,
                          char **argv, int *i);

/* The one result printer of every query (results.c): text lines
 * "path<TAB>value" / "path<TAB>-<TAB>status", or one JSON array of objects
 * with exactly the keys of winperf(1) OUTPUT (null where a key does not
 * apply); --json, and the names as --instance-names and --metric-names
 * ask, from opt. */
void cli_print_results(FILE *out, const cli_common *opt, const pd_result *res,
                       size_t n);

/* One result as cli_print_results' JSON object (the keys of winperf(1)
 * OUTPUT), written into w: for commands that nest results in their own
 * JSON (winperf blg --json). */
struct json_writer;
void cli_print_result(struct json_writer *w, const cli_common *opt,
                      const pd_result *r);

/* One-line error for a counter path pd_selection_add rejected: "PATH:
 * column N: reason". Returns CLI_EXIT_ERROR. */
int cli_path_error(const char *path, const pd_error *err);

/* A blob file read into memory and decoded (the snapshot points into
 * data: free both together with cli_blob_clear). */
typedef struct cli_blob {
  const char *file;
  uint8_t *data;
  size_t len;
  pd_snapshot *snap;
} cli_blob;

/* Read and decode b->file; reports errors. */
bool cli_blob_load(cli_blob *b);
void cli_blob_clear(cli_blob *b);

#endif
