/* collectd-winperf: `winperf query` over one or two blob files.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Paths (format.md 4.2) go into one pd_selection, evaluated over one or two
 * decoded blobs: with one blob only one-sample types have a value, the
 * others report "first-sample" (format.md 3.1). Results go to the one printer
 * (results.c).
 */
#include "cli.h"
#include "commands.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BLOBS 2

int cmd_query(int argc, char **argv) {
  static const struct option longopts[] = {
      CLI_COMMON_LONGOPTS,
      CLI_CALC_LONGOPTS,
      {NULL, 0, NULL, 0},
  };
  cli_common opt = {.calc = {.multi_timer = PD_MULTI_TIMER_RESKIT}};
  int rc = cli_parse_options(argc, argv, longopts, &opt, "query");
  if (rc != CLI_CONTINUE)
    return rc;

  /* Arguments starting with '\' are counter paths, the others blob files
   * (the first of two is the older sample). */
  cli_blob blobs[MAX_BLOBS] = {{0}};
  size_t nblobs = 0, npaths = 0;
  for (int i = optind; i < argc; i++) {
    if (argv[i][0] == '\\') {
      npaths++;
    } else {
      if (nblobs == MAX_BLOBS)
        return cli_error("query: more than two blob files ('%s')", argv[i]);
      blobs[nblobs++].file = argv[i];
    }
  }
  if (nblobs == 0)
    return cli_error("query: no blob file given (try 'winperf query --help')");
  if (npaths == 0)
    return cli_error("query: no counter path given (paths start with '\\')");

  rc = CLI_EXIT_ERROR;
  pd_names *names = NULL;
  pd_selection *sel = pd_selection_new();
  if (sel == NULL) {
    cli_error("out of memory");
    goto out;
  }
  for (int i = optind; i < argc; i++) {
    if (argv[i][0] != '\\')
      continue;
    pd_error err = {0};
    size_t id;
    if (pd_selection_add(sel, argv[i], &id, &err) != PD_OK) {
      cli_path_error(argv[i], &err);
      goto out;
    }
  }
  if (opt.names_file != NULL) {
    if (!cli_load_names(opt.names_file, &names))
      goto out;
    pd_selection_set_names(sel, names);
  }
  pd_selection_set_options(sel, &opt.calc);
  pd_selection_set_pairing(sel, opt.pair_by);
  pd_selection_set_id_base(sel, opt.instance_names == WP_INSTANCE_NAMES_PID);
  for (size_t i = 0; i < nblobs; i++)
    if (!cli_blob_load(&blobs[i]))
      goto out;

  pd_snapshot *older = nblobs == 2 ? blobs[0].snap : NULL;
  pd_snapshot *newer = blobs[nblobs - 1].snap;
  const pd_result *res = NULL;
  size_t nres = 0;
  pd_error err = {0};
  if (pd_selection_evaluate(sel, older, newer, &res, &nres, &err) != PD_OK) {
    cli_error_at(blobs[nblobs - 1].file, &err);
    goto out;
  }
  cli_print_results(stdout, &opt, res, nres);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    cli_error("error writing the output");
    goto out;
  }

  /* A path that matched nothing is not an error in the data, but the user
   * should know: exit 1 and say which (one line per path). */
  rc = CLI_EXIT_OK;
  size_t id = 0;
  for (int i = optind; i < argc; i++) {
    if (argv[i][0] != '\\')
      continue;
    if (pd_selection_matches(sel, id) == 0) {
      cli_error("%s: matched no counter", argv[i]);
      rc = CLI_EXIT_NO_MATCH;
    }
    id++;
  }
out:
  for (size_t i = 0; i < nblobs; i++)
    cli_blob_clear(&blobs[i]);
  if (sel != NULL)
    pd_selection_free(sel);
  if (names != NULL)
    pd_names_free(names);
  return rc;
}
