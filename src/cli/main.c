/* collectd-winperf: the winperf command-line tool's entry point.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * `winperf COMMAND [OPTIONS] ARGS...`: --help and --version here, every
 * command through the table in commands.c.
 */
#include "config.h"

#include "cli.h"
#include "commands.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc < 2)
    return cli_error("no command given (try 'winperf --help')");
  const char *name = argv[1];
  if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 ||
      strcmp(name, "help") == 0) {
    cli_print_help(stdout);
    return CLI_EXIT_OK;
  }
  if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
    printf("winperf (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
    return CLI_EXIT_OK;
  }
  return cli_run(argc - 1, argv + 1);
}
