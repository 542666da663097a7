/* collectd-winperf: winperf subcommands on the local registry (Windows).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   winperf capture --dir DIR [--count N] [--interval S] [--objects "238 2"]
 *       writes 000001.blob, 000002.blob, ... plus names.multisz (English,
 *       HKEY_PERFORMANCE_TEXT) and names-local.multisz (HKEY_PERFORMANCE_
 *       NLSTEXT): the replay format, for replaying on Linux.
 *   winperf query [--interval S] [--count N] [--json] [--names FILE] PATH...
 *       with no blob file: live values, typeperf-like, one report per
 *       interval (reports separated by an empty line in text mode).
 * Both take --buffer-size N (the first buffer offered; also the
 * WINPERF_INITIAL_BUFFER environment variable), --max-buffer N and
 * --verbose (registry statistics on stderr at the end).
 */
#ifndef WINPERF_LIVE_H
#define WINPERF_LIVE_H

#include <stdbool.h>

int cmd_capture(int argc, char **argv);
int cmd_live_query(int argc, char **argv);
/* winperf query-v2 --set GUID [--counter ID] [--instance NAME|""]
 *     [--interval S] [--count N]: the PerfLib V2 consumer path. */
int cmd_query_v2(int argc, char **argv);
/* True when a `query` command line names no blob file (so it is live). */
bool cli_live_query_wanted(int argc, char **argv);

#endif
