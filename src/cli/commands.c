/* collectd-winperf: the winperf command table, its help and dispatch.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A new command adds a file with its cmd_ function, a declaration in
 * commands.h and a row here; `winperf --help` and `winperf NAME --help` list
 * it from that row.
 */
#include "config.h"

#include "cli.h"
#include "commands.h"

#include <string.h>

/* ------------------------------------------------------ option groups */

static const cli_option_doc common_opts[] = {
    {"--json", "print JSON instead of text"},
    {"-n, --names FILE", "the Counter name table (REG_MULTI_SZ, UTF-16LE) "
                         "for names in paths and output"},
    {"-h, --help", "show this help"},
    {NULL, NULL},
};

static const cli_option_doc calc_opts[] = {
    {"--multi-timer=reskit|msdn",
     "formula for PERF_COUNTER_MULTI_TIMER (default reskit)"},
    {"--cap100", "clamp percentages at 100, as PDH does"},
    {"--pair-by id|name",
     "pair instances of two samples by process id where the object has one "
     "(default), or by full name as PDH does"},
    {"--instance-names pdh|pid",
     "name an instance paired by process id BASENAME:PID (a thread "
     "BASENAME:PID:TID), or by its PDH name (default)"},
    {"--metric-names pdh|clean",
     "print object, instance and counter names as PDH has them (default) "
     "or in the clean form (lower case, [a-z0-9_])"},
    {NULL, NULL},
};

#if defined(_WIN32) || defined(WINPERF_REMOTE)
static const cli_option_doc help_opt[] = {
    {"-h, --help", "show this help"},
    {NULL, NULL},
};

static const cli_option_doc sample_opts[] = {
    {"--interval S", "seconds between samples (default 1)"},
    {"--count N", "how many samples (capture) or reports (default 1)"},
    {NULL, NULL},
};

static const cli_option_doc capture_opts[] = {
    {"--dir DIR", "the replay directory to write (created if missing)"},
    {"--objects LIST",
     "the registry query, e.g. \"238 2\" (default \"Global\")"},
    {NULL, NULL},
};
#endif

#ifdef WINPERF_REMOTE
static const cli_option_doc interval_opt[] = {
    {"--interval S", "seconds between samples (default 1)"},
    {NULL, NULL},
};

static const cli_option_doc remote_opts[] = {
    {"--remote HOST",
     "read the Windows host HOST over MS-RRP (winperf-remote-helper)"},
    {"--port N", "SMB port (default 445, always passed: never 139 first)"},
    {"--user [DOMAIN\\]NAME", "the account to log on as"},
    {"--domain NAME", "the account's domain (as the plugin's Domain)"},
    {"--encrypt", "require SMB3 encryption (as the plugin's Encrypt)"},
    {"--credentials FILE", "smbclient -A style credentials (else "
                           "WINPERF_REMOTE_USER, _PASSWORD, _DOMAIN)"},
    {"--auth ntlm|kerberos|negotiate",
     "how to log on (default ntlm, or kerberos with --keytab or --ccache)"},
    {"--principal NAME", "the Kerberos principal (svc-perf@CORP.EXAMPLE)"},
    {"--keytab FILE", "Kerberos: the principal's keytab (mode 0600)"},
    {"--ccache FILE:PATH", "Kerberos: a ticket cache of yours (never "
                           "written)"},
    {"--krb5-config FILE", "Kerberos: another krb5.conf than the system's"},
    {"--timeout S", "connect and query timeout in seconds"},
    {"--buffer-size BYTES", "the first query buffer (default 256 KiB)"},
    {"--helper PATH", "the helper program to run"},
    {"--helper-user NAME", "run as root: the user the helper becomes "
                           "(default winperf-helper, else nobody)"},
    {"--no-helper-sandbox", "run the helper without its sandbox (as the "
                            "plugin's HelperSandbox false)"},
    {NULL, NULL},
};
#endif

/* names and doctor read a remote host in builds with the helper. */
#ifdef WINPERF_REMOTE
#define LIVE_HOST_OPTS remote_opts
#else
#define LIVE_HOST_OPTS NULL
#endif

#ifdef _WIN32
static const cli_option_doc registry_opts[] = {
    {"--buffer-size N", "the first buffer offered to the registry (also "
                        "WINPERF_INITIAL_BUFFER)"},
    {"--max-buffer N", "the largest buffer offered"},
    {"--verbose", "registry statistics on stderr at the end"},
    {NULL, NULL},
};

static const cli_option_doc v2_opts[] = {
    {"--set GUID", "the counter set (required)"},
    {"--counter ID", "one counter of the set (default: all)"},
    {"--instance NAME", "instances to read (default *; \"\" for a "
                        "single-instance set)"},
    {NULL, NULL},
};
#endif

static const cli_option_doc names_opts[] = {
    {"--local-names FILE", "a localized Counter table with the same indices "
                           "(the third column)"},
    {"--grep TEXT", "only names containing TEXT (either name, any case; '*' "
                    "matches anything)"},
    {"--objects", "only the objects of the answer"},
    {"--counters OBJECT", "only the counters of OBJECT (name or index) in "
                          "the answer"},
    {"--blob FILE", "the answer for --objects and --counters"},
    {NULL, NULL},
};

static const cli_option_doc blg_opts[] = {
    {"--list", "the log's machines, counters, sample count and time range "
               "(the default)"},
    {"--csv", "what `relog FILE -f csv` writes: PDH-CSV, local times"},
    {"--json", "the query results of every sample, with its time"},
    {"--counter PATH", "only counters PATH matches (repeatable; wildcards)"},
    {"--begin TIME", "from this local time (YYYY-MM-DD HH:MM[:SS] or "
                     "MM/DD/YYYY HH:MM[:SS])"},
    {"--end TIME", "up to this local time"},
    {"--graphite HOST:PORT", "send every value to Graphite's plaintext port"},
    {"--influx-udp HOST:PORT", "send every value to InfluxDB's UDP input "
                               "(line protocol)"},
    {"--tz-name NAME", "the zone name of the CSV header (the log holds an "
                       "indirect one: @tzres.dll,-N)"},
    {NULL, NULL},
};

static const cli_option_doc doctor_opts[] = {
    {"--counters FILE", "the paths of the plugin's counters file (YAML, or "
                        "one path a line)"},
    {"--last-counter N", "Perflib's Last Counter of the host the BLOB comes "
                         "from (a live host's is read); checked only when "
                         "known"},
    {NULL, NULL},
};

#ifdef WINPERF_YAML
static const cli_option_doc shard_opts[] = {
    {"--hosts FILE", "the host inventory (a HostsFile)"},
    {"--of N", "the number of pollers (Shard \"K/N\")"},
    {NULL, NULL},
};

static const cli_option_doc hosts_opts[] = {
    {"--check FILE", "the host inventory (a HostsFile) to check"},
    {"--config FILE", "collectd.conf: its <Plugin winperf> block's defaults, "
                      "Shard, <Host> blocks and other HostsFile"},
    {NULL, NULL},
};
#endif

/* --------------------------------------------------------------- table */

static const cli_command commands[] = {
    {"dump",
     NULL,
     cmd_dump,
     "[--json] [--names FILE] BLOB",
     "decode a blob: header, objects, counters, instances, raw values",
     {common_opts}},
    {"query",
     NULL,
     cmd_query,
     "[--json] [--names FILE] [--multi-timer=reskit|msdn] [--cap100] "
     "[--pair-by id|name] [--instance-names pdh|pid] "
     "[--metric-names pdh|clean] [OLDER] NEWER PATH...",
     "the formatted value of every counter the paths match",
     {common_opts, calc_opts}},
    {"blg",
     NULL,
     cmd_blg,
     "[OPTIONS] FILE.blg",
     "a Perfmon binary log: list it, convert it (CSV as relog, JSON) or send "
     "it to Graphite or InfluxDB",
     {blg_opts, calc_opts, common_opts}},
    {"names",
     NULL,
     cmd_names,
     "[--json] [--names FILE] [--local-names FILE] [--grep TEXT] "
     "[--objects | --counters OBJECT] [--blob FILE]"
#ifdef WINPERF_REMOTE
     " [--remote HOST [REMOTE OPTIONS]]"
#endif
     ,
     "the Counter name table: index, English name, local name",
     {names_opts, common_opts, LIVE_HOST_OPTS}},
    {"doctor",
     NULL,
     cmd_doctor,
#ifdef WINPERF_REMOTE
     "[--json] (--names FILE BLOB | --remote HOST [REMOTE OPTIONS]) "
     "[--counters FILE] [PATH...]",
#elif defined(_WIN32)
     "[--json] [--names FILE BLOB] [--counters FILE] [PATH...]",
#else
     "[--json] --names FILE BLOB [--counters FILE] [PATH...]",
#endif
     "why each counter path matches or not: one verdict and its fix per path",
     {doctor_opts, common_opts, LIVE_HOST_OPTS}},
#ifdef WINPERF_YAML
    {"shard",
     NULL,
     cmd_shard,
     "--hosts FILE --of N",
     "which of N pollers polls each host of an inventory (HOST<TAB>K; "
     "rendezvous hashing, doc/sizing.md)",
     {shard_opts, help_opt}},
    {"hosts",
     NULL,
     cmd_hosts,
     "--check FILE [--config collectd.conf]",
     "every host's resolved settings, where each comes from, and its shard; "
     "exit 1 on any error (collectd -t does not check them)",
     {hosts_opts, help_opt}},
#endif
#ifdef WINPERF_REMOTE
    {"query",
     cli_remote_wanted,
     cmd_remote,
     "--remote HOST [REMOTE OPTIONS] [--interval S] [QUERY OPTIONS] PATH...",
     "two samples of a Windows host S seconds apart, shown as a query of "
     "two blob files",
     {remote_opts, interval_opt, common_opts, calc_opts}},
    {"capture",
     NULL,
     cmd_remote,
     "--remote HOST [REMOTE OPTIONS] --dir DIR [--count N] [--interval S] "
     "[--objects LIST]",
     "write samples of a Windows host as a replay directory (blobs + "
     "names.multisz)",
     {remote_opts, capture_opts, sample_opts, help_opt}},
#endif
#ifdef _WIN32
    {"query",
     cli_live_query_wanted,
     cmd_live_query,
     "[--interval S] [--count N] [REGISTRY OPTIONS] [QUERY OPTIONS] PATH...",
     "with no blob file: live values from the local registry, one report "
     "per interval",
     {sample_opts, registry_opts, common_opts, calc_opts}},
    {"capture",
     NULL,
     cmd_capture,
     "--dir DIR [--count N] [--interval S] [--objects LIST] [REGISTRY "
     "OPTIONS]",
     "write live samples as a replay directory (blobs + name tables)",
     {capture_opts, sample_opts, registry_opts, help_opt}},
    {"query-v2",
     NULL,
     cmd_query_v2,
     "--set GUID [--counter ID] [--instance NAME] [--interval S] [--count N]",
     "live values of a counter set through the PerfLib V2 consumer API",
     {v2_opts, sample_opts, registry_opts, help_opt}},
#endif
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])

/* ---------------------------------------------------------------- help */

/* True when an earlier row has the same command name. */
static bool listed_before(size_t i) {
  for (size_t k = 0; k < i; k++)
    if (strcmp(commands[k].name, commands[i].name) == 0)
      return true;
  return false;
}

void cli_print_help(FILE *out) {
  fprintf(out, "Usage: winperf COMMAND [OPTIONS] ARGS...\n"
               "       winperf COMMAND --help\n"
               "       winperf --help | --version\n\nCommands:\n");
  for (size_t i = 0; i < N_COMMANDS; i++)
    if (!listed_before(i))
      fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
  fprintf(out, "\n");
  for (size_t i = 0; i < N_COMMANDS; i++)
    fprintf(out, "winperf %s %s\n", commands[i].name, commands[i].synopsis);
  fprintf(out, "\nArguments starting with '\\' are counter paths "
               "(\\Object(instance)\\Counter,\n"
               "or by index: \\238(_Total)\\6); the others are blob files.\n"
               "Exit status: 0 ok, 1 a query path matched nothing, 2 error.\n"
               "See winperf(1).\n");
}

/* True when `option` was printed for an earlier group of the command. */
static bool option_printed(const char *name, size_t row, size_t group,
                           size_t item) {
  for (size_t i = 0; i <= row; i++) {
    if (strcmp(commands[i].name, name) != 0)
      continue;
    for (size_t g = 0; g < CLI_MAX_OPTION_GROUPS; g++) {
      const cli_option_doc *o = commands[i].options[g];
      for (size_t k = 0; o != NULL && o[k].option != NULL; k++) {
        if (i == row && g == group && k == item)
          return false;
        if (strcmp(o[k].option, commands[row].options[group][item].option) == 0)
          return true;
      }
    }
  }
  return false;
}

/* "  --option   help", the help wrapped at 79 columns under itself. */
static void print_option(FILE *out, const cli_option_doc *o) {
  enum { COLUMN = 29, WIDTH = 79 };
  int col = fprintf(out, "  %-26s ", o->option);
  const char *p = o->help;
  while (*p != '\0') {
    size_t word = strcspn(p, " ");
    if (col > COLUMN && col + 1 + (int)word > WIDTH)
      col = fprintf(out, "\n%*s", COLUMN, "") - 1;
    else if (col > COLUMN)
      col += fprintf(out, " ");
    col += fprintf(out, "%.*s", (int)word, p);
    p += word;
    p += strspn(p, " ");
  }
  fputc('\n', out);
}

/* `winperf NAME --help`: the command's synopses, summary and every option
 * of every form (each once). False when there is no such command. */
static bool cli_print_command_help(FILE *out, const char *name) {
  const char *lead = "Usage:";
  bool found = false;
  for (size_t i = 0; i < N_COMMANDS; i++)
    if (strcmp(commands[i].name, name) == 0) {
      fprintf(out, "%s winperf %s %s\n", lead, name, commands[i].synopsis);
      lead = "      ";
      found = true;
    }
  if (!found)
    return false;
  for (size_t i = 0; i < N_COMMANDS; i++)
    if (strcmp(commands[i].name, name) == 0)
      fprintf(out, "%s: %s.\n", name, commands[i].summary);
  fprintf(out, "\nOptions:\n");
  for (size_t i = 0; i < N_COMMANDS; i++) {
    if (strcmp(commands[i].name, name) != 0)
      continue;
    for (size_t g = 0; g < CLI_MAX_OPTION_GROUPS; g++) {
      const cli_option_doc *o = commands[i].options[g];
      for (size_t k = 0; o != NULL && o[k].option != NULL; k++)
        if (!option_printed(name, i, g, k))
          print_option(out, &o[k]);
    }
  }
  return true;
}

/* ------------------------------------------------------------ dispatch */

int cli_run(int argc, char **argv) {
  const cli_command *form = NULL;
  for (size_t i = 0; i < N_COMMANDS && form == NULL; i++)
    if (strcmp(argv[0], commands[i].name) == 0 && commands[i].wanted != NULL &&
        commands[i].wanted(argc, argv))
      form = &commands[i];
  for (size_t i = 0; i < N_COMMANDS && form == NULL; i++)
    if (strcmp(argv[0], commands[i].name) == 0 && commands[i].wanted == NULL)
      form = &commands[i];
  if (form == NULL)
    return cli_error("unknown command '%s' (try 'winperf --help')", argv[0]);
  int rc = form->run(argc, argv);
  if (rc == CLI_SHOW_HELP) {
    cli_print_command_help(stdout, form->name);
    rc = CLI_EXIT_OK;
  }
  return rc;
}
