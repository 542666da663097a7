/* collectd-winperf: the winperf command-line tool (subcommand dispatch).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * `winperf SUBCOMMAND [OPTIONS] ARGS...`. Each subcommand lives in its own
 * file (dump.c, query.c, ...) and is listed once in `commands` below; a new
 * one (e.g. capture on Windows) adds a file, a declaration in cli.h and a
 * row here.
 */
#include "config.h"

#include "cli.h"
#ifdef _WIN32
#include "live.h"
#else
#include "remote.h"
#endif

#include <stdio.h>
#include <string.h>

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *synopsis; /* after "winperf NAME " */
  const char *summary;
} command;

static const command commands[] = {
    {"dump", cmd_dump, "[--json] [--names FILE] BLOB",
     "decode a blob: header, objects, counters, instances, raw values"},
    {"query", cmd_query,
     "[--json] [--names FILE] [--multi-timer=reskit|msdn] [--cap100] "
     "[OLDER] NEWER PATH...",
     "the formatted value of every counter the paths match"},
#ifdef _WIN32
    {"capture", cmd_capture,
     "--dir DIR [--count N] [--interval S] [--objects \"238 2\"]",
     "write live samples as a replay directory (blobs + name tables)"},
    {"query-v2", cmd_query_v2,
     "--set GUID [--counter ID] [--instance NAME] [--interval S] [--count N]",
     "live values of a counter set through the PerfLib V2 consumer API"},
#endif
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out) {
  fprintf(out, "Usage: winperf COMMAND [OPTIONS] ARGS...\n"
               "       winperf --help | --version\n\nCommands:\n");
  for (size_t i = 0; i < N_COMMANDS; i++)
    fprintf(out, "  %-7s %s\n", commands[i].name, commands[i].summary);
  fprintf(out, "\n");
  for (size_t i = 0; i < N_COMMANDS; i++)
    fprintf(out, "winperf %s %s\n", commands[i].name, commands[i].synopsis);
  fprintf(out, "\nArguments starting with '\\' are counter paths "
               "(\\Object(instance)\\Counter,\n"
               "or by index: \\238(_Total)\\6); the others are blob files.\n"
               "Exit status: 0 ok, 1 a query path matched nothing, 2 error.\n"
               "See winperf(1).\n");
}

int main(int argc, char **argv) {
  if (argc < 2)
    return cli_error("no command given (try 'winperf --help')");
  const char *name = argv[1];
  if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 ||
      strcmp(name, "help") == 0) {
    usage(stdout);
    return CLI_EXIT_OK;
  }
  if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
    printf("winperf (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
    return CLI_EXIT_OK;
  }
#ifndef _WIN32
  /* --remote HOST: a Windows host over MS-RRP (remote.c) */
  if ((strcmp(name, "query") == 0 || strcmp(name, "capture") == 0) &&
      cli_remote_wanted(argc - 1, argv + 1))
    return cmd_remote(argc - 1, argv + 1);
#endif
#ifdef _WIN32
  /* no blob file: live values from the local registry (live.c) */
  if (strcmp(name, "query") == 0 && cli_live_query_wanted(argc - 1, argv + 1))
    return cmd_live_query(argc - 1, argv + 1);
#endif
  for (size_t i = 0; i < N_COMMANDS; i++)
    if (strcmp(name, commands[i].name) == 0)
      return commands[i].run(argc - 1, argv + 1);
  return cli_error("unknown command '%s' (try 'winperf --help')", name);
}

void cli_command_usage(FILE *out, const char *name) {
  for (size_t i = 0; i < N_COMMANDS; i++)
    if (strcmp(name, commands[i].name) == 0)
      fprintf(out, "Usage: winperf %s %s\n%s.\n", commands[i].name,
              commands[i].synopsis, commands[i].summary);
}
