/* collectd-winperf: the winperf commands and their table.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Every command is a function `int cmd_NAME(int argc, char **argv)` (argv[0]
 * is the command's name) returning an exit status, declared here and listed
 * once in commands.c's table with its synopsis, summary and options; main.c
 * dispatches through cli_run. `winperf --help` and `winperf COMMAND --help`
 * are printed from the table, so a new command or option appears in them by
 * being added there. A command asked for --help returns CLI_SHOW_HELP and
 * the dispatcher prints the help: commands never call back into the table.
 *
 * One command name may have several forms (query over blob files, query
 * --remote on Linux, the live query on Windows): the first form whose
 * `wanted` accepts the command line runs.
 */
#ifndef WINPERF_COMMANDS_H
#define WINPERF_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

/* ------------------------------------------------------------ commands */

/* dump.c: everything a blob holds. */
int cmd_dump(int argc, char **argv);
/* query_files.c: counter values from one or two blob files. */
int cmd_query(int argc, char **argv);

#ifdef _WIN32
/* capture.c: live samples of the local registry as a replay directory. */
int cmd_capture(int argc, char **argv);
/* live_query.c: `query` with no blob file, values from the local registry. */
int cmd_live_query(int argc, char **argv);
/* True when a `query` command line names no blob file (so it is live). */
bool cli_live_query_wanted(int argc, char **argv);
/* query_v2.c: a counter set through the PerfLib V2 consumer API. */
int cmd_query_v2(int argc, char **argv);
#endif

#ifdef WINPERF_REMOTE
/* remote_commands.c: `query --remote HOST` and `capture --remote HOST`
 * through winperf-remote-helper (argv[0] says which). */
int cmd_remote(int argc, char **argv);
/* True when the command line has --remote (or --remote=HOST). */
bool cli_remote_wanted(int argc, char **argv);
struct wp_remote_options;
/* A REMOTE OPTION at argv[*i] (--remote, --port, --user, --domain,
 * --encrypt, --credentials, --helper, --timeout, --buffer-size) into *o: 1
 * handled (*i past its value), 0 not one, -1 a bad value (reported). */
int cli_remote_option(int argc, char **argv, int *i,
                      struct wp_remote_options *o);
#endif

#ifdef WINPERF_YAML
/* fleet_commands.c: a fleet's inventory, offline: `shard --hosts FILE --of
 * N` and `hosts --check FILE [--config collectd.conf]`. */
int cmd_shard(int argc, char **argv);
int cmd_hosts(int argc, char **argv);
#endif

/* blg.c: a Perfmon binary log listed, converted or sent. */
int cmd_blg(int argc, char **argv);

/* names_command.c: the Counter name table: index, English and local name. */
int cmd_names(int argc, char **argv);
/* doctor.c: why each counter path matches or does not. */
int cmd_doctor(int argc, char **argv);

/* --------------------------------------------------------------- table */

/* One option as the help shows it: "--names FILE" and what it does. */
typedef struct cli_option_doc {
  const char *option;
  const char *help;
} cli_option_doc;

/* The most option groups one form lists (each ends with {NULL, NULL}). */
#define CLI_MAX_OPTION_GROUPS 4

typedef struct cli_command {
  const char *name;
  /* NULL: this form always applies; else it runs when this says so. */
  bool (*wanted)(int argc, char **argv);
  int (*run)(int argc, char **argv);
  const char *synopsis; /* after "winperf NAME " */
  const char *summary;  /* one line, no final period */
  const cli_option_doc *options[CLI_MAX_OPTION_GROUPS];
} cli_command;

/* `winperf --help`: every command with its summary and synopses. */
void cli_print_help(FILE *out);
/* Run the command argv[0] (the form that wants the command line); an
 * unknown name is reported and gives CLI_EXIT_ERROR. */
int cli_run(int argc, char **argv);

#endif
