/* collectd-winperf: the options every winperf command shares.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "cli.h"

#include <getopt.h>
#include <string.h>

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
  case CLI_OPT_PAIR_BY:
    if (strcmp(optarg, "id") == 0)
      opt->pair_by = PD_PAIR_BY_ID;
    else if (strcmp(optarg, "name") == 0)
      opt->pair_by = PD_PAIR_BY_FULL_NAME;
    else
      return cli_error("%s: --pair-by: '%s' is not 'id' or 'name'", command,
                       optarg);
    return CLI_CONTINUE;
  case CLI_OPT_INSTANCE_NAMES:
  case CLI_OPT_METRIC_NAMES: {
    bool inst = c == CLI_OPT_INSTANCE_NAMES;
    const char *const *text =
        inst ? wp_instance_names_text : wp_metric_names_text;
    int v = wp_name_choice(text, optarg);
    if (v < 0)
      return cli_error("%s: --%s: '%s' is not '%s' or '%s'", command,
                       inst ? "instance-names" : "metric-names", optarg,
                       text[0], text[1]);
    if (inst)
      opt->instance_names = (wp_instance_names)v;
    else
      opt->metric_names = (wp_metric_names)v;
    return CLI_CONTINUE;
  }
  case 'h':
    return CLI_SHOW_HELP;
  case ':':
    return cli_error("%s: option '%s' needs an argument", command, arg);
  default:
    if (optopt != 0 && strncmp(arg, "--", 2) != 0)
      return cli_error("%s: unknown option '-%c'", command, optopt);
    return cli_error("%s: unknown option '%s'", command, arg);
  }
}

int cli_parse_options(int argc, char **argv, const struct option *longopts,
                      cli_common *opt, const char *command) {
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS, longopts, NULL)) !=
         -1) {
    int rc = cli_common_option(c, opt, command, argv);
    if (rc != CLI_CONTINUE)
      return rc;
  }
  return CLI_CONTINUE;
}

const char *cli_opt_value(const char *arg, const char *name, int argc,
                          char **argv, int *i) {
  size_t n = strlen(name);
  if (strncmp(arg, name, n) != 0)
    return NULL;
  if (arg[n] == '=')
    return arg + n + 1;
  if (arg[n] != '\0')
    return NULL;
  if (*i + 1 >= argc) {
    cli_error("%s needs a value", name);
    return "";
  }
  return argv[++*i];
}
