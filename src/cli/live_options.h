/* collectd-winperf: options of the winperf commands on the local registry.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * capture, the live query and query-v2 (Windows only) all take
 * --interval S, --count N, --buffer-size N (the first buffer offered; also
 * the WINPERF_INITIAL_BUFFER environment variable), --max-buffer N and
 * --verbose (registry statistics on stderr at the end).
 */
#ifndef WINPERF_LIVE_OPTIONS_H
#define WINPERF_LIVE_OPTIONS_H

#include "registry.h"

#include <getopt.h>
#include <stdbool.h>

typedef struct live_opts {
  unsigned long count;
  double interval; /* seconds */
  wp_registry_options reg;
  bool verbose;
} live_opts;

/* getopt_long values of the shared options; a command's own start at
 * LIVE_OPT_END (the common ones of cli.h are below 300). */
enum {
  LIVE_OPT_INTERVAL = 300,
  LIVE_OPT_COUNT,
  LIVE_OPT_BUFFER,
  LIVE_OPT_MAX_BUFFER,
  LIVE_OPT_VERBOSE,
  LIVE_OPT_END,
};

#define LIVE_LONGOPTS                                                          \
  {"interval", required_argument, NULL, LIVE_OPT_INTERVAL},                    \
      {"count", required_argument, NULL, LIVE_OPT_COUNT},                      \
      {"buffer-size", required_argument, NULL, LIVE_OPT_BUFFER},               \
      {"max-buffer", required_argument, NULL, LIVE_OPT_MAX_BUFFER}, {          \
    "verbose", no_argument, NULL, LIVE_OPT_VERBOSE                             \
  }

/* Defaults: one sample or report, 1 s, WINPERF_INITIAL_BUFFER. */
void live_opts_init(live_opts *o);
/* Handle getopt_long's `c`: 1 handled, 0 not a shared option, -1 error
 * (reported). */
int live_option(live_opts *o, int c);
void live_sleep_interval(const live_opts *o);
/* With --verbose: the registry source's statistics on stderr. */
void live_report_stats(const live_opts *o, const wp_source *src);

/* A names-table reader of the registry source (English or localized). */
typedef wp_source_status (*live_names_fn)(wp_source *, wp_buffer *, wp_error *);

#endif
