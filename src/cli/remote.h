/* collectd-winperf: winperf subcommands on a remote Windows host (MS-RRP).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   winperf query --remote HOST [REMOTE OPTIONS] [--interval S] [query
 *       options] PATH...
 *       two samples S seconds apart (default 1) through winperf-remote-helper,
 *       then exactly what `winperf query OLDER NEWER PATH...` prints.
 *   winperf capture --remote HOST [REMOTE OPTIONS] --dir DIR [--count N]
 *       [--interval S] [--objects "238 2"]
 *       the replay format: 000001.blob, ... and names.multisz.
 * REMOTE OPTIONS: --port N, --user [DOMAIN\]NAME, --credentials FILE
 * (smbclient -A format; else WINPERF_REMOTE_USER/_PASSWORD/_DOMAIN),
 * --timeout S (connect and query), --buffer-size BYTES, --helper PATH.
 * See doc/winperf-remote.md.
 */
#ifndef WINPERF_CLI_REMOTE_H
#define WINPERF_CLI_REMOTE_H

#include <stdbool.h>

/* True when the command line has --remote (or --remote=HOST). */
bool cli_remote_wanted(int argc, char **argv);
/* argv[0] is "query" or "capture". */
int cmd_remote(int argc, char **argv);

#endif
