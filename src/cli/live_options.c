/* collectd-winperf: options of the winperf commands on the local registry.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "live_options.h"

#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool parse_size(const char *opt, const char *s, size_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *end || s[0] == '-' || v > UINT32_MAX) {
    cli_error("%s: '%s' is not a byte count (at most 4294967295)", opt, s);
    return false;
  }
  *out = (size_t)v;
  return true;
}

void live_opts_init(live_opts *o) {
  memset(o, 0, sizeof *o);
  o->count = 1;
  o->interval = 1.0;
  const char *env = getenv("WINPERF_INITIAL_BUFFER");
  if (env != NULL && *env)
    parse_size("WINPERF_INITIAL_BUFFER", env, &o->reg.initial_size);
}

int live_option(live_opts *o, int c) {
  char *end;
  switch (c) {
  case LIVE_OPT_INTERVAL:
    errno = 0;
    o->interval = strtod(optarg, &end);
    if (errno || end == optarg || *end || !(o->interval >= 0.0) ||
        o->interval > 86400.0) {
      cli_error("--interval: '%s' is not a number of seconds (0-86400)",
                optarg);
      return -1;
    }
    return 1;
  case LIVE_OPT_COUNT:
    errno = 0;
    o->count = strtoul(optarg, &end, 10);
    if (errno || end == optarg || *end || optarg[0] == '-' || o->count == 0) {
      cli_error("--count: '%s' is not a positive number", optarg);
      return -1;
    }
    return 1;
  case LIVE_OPT_BUFFER:
    return parse_size("--buffer-size", optarg, &o->reg.initial_size) ? 1 : -1;
  case LIVE_OPT_MAX_BUFFER:
    return parse_size("--max-buffer", optarg, &o->reg.max_size) ? 1 : -1;
  case LIVE_OPT_VERBOSE:
    o->verbose = true;
    return 1;
  default:
    return 0;
  }
}

void live_sleep_interval(const live_opts *o) {
  wp_registry_sleep_ms((unsigned long)(o->interval * 1000.0 + 0.5));
}

void live_report_stats(const live_opts *o, const wp_source *src) {
  if (!o->verbose)
    return;
  wp_registry_stats st;
  wp_registry_get_stats(src, &st);
  fflush(stdout);
  fprintf(stderr,
          "winperf: registry: %lu queries, %lu buffer grows, %lu busy "
          "retries, %lu reloads, high water %zu bytes\n",
          st.queries, st.grows, st.busy, st.reloads, st.high_water);
}
