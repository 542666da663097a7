/* collectd-winperf: `winperf query`: formatted counter values.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Paths (spec 4.2) go into one pd_selection, evaluated over one or two
 * decoded blobs: with one blob only one-sample types have a value, the
 * others report "first-sample" (spec 3.1).
 */
#include "cli.h"
#include "json.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BLOBS 2

static void print_text(FILE *out, const pd_result *res, size_t n) {
  char buf[64];
  for (size_t i = 0; i < n; i++) {
    cli_put_text(out, res[i].path);
    if (res[i].status == PD_VALUE_OK) {
      cli_format_value(res[i].value, buf, sizeof buf);
      fprintf(out, "\t%s\n", buf);
    } else {
      fprintf(out, "\t-\t%s\n", pd_value_status_name(res[i].status));
    }
  }
}

static void print_json(FILE *out, const pd_result *res, size_t n) {
  char buf[64];
  json_writer w;
  json_init(&w, out);
  json_begin_array(&w);
  for (size_t i = 0; i < n; i++) {
    const pd_result *r = &res[i];
    json_begin_object(&w);
    json_key(&w, "path");
    json_string(&w, r->path);
    json_key(&w, "value");
    if (r->status == PD_VALUE_OK)
      json_double(&w, r->value); /* null if not finite */
    else
      json_null(&w);
    json_key(&w, "status");
    json_string(&w, pd_value_status_name(r->status));
    json_key(&w, "object");
    json_string(&w, r->object);
    json_key(&w, "instance");
    json_string(&w, r->instance);
    json_key(&w, "counter");
    json_string(&w, r->counter);
    json_key(&w, "type");
    json_string(&w, cli_type_name(r->counter_type, buf, sizeof buf));
    json_key(&w, "object_index");
    json_uint(&w, r->object_index);
    json_key(&w, "counter_index");
    json_uint(&w, r->counter_index);
    json_key(&w, "raw_value");
    json_uint(&w, r->raw_value);
    json_key(&w, "raw_base");
    json_uint(&w, r->raw_base);
    json_key(&w, "path_id");
    json_uint(&w, r->path_id);
    json_end_object(&w);
  }
  json_end_array(&w);
  json_finish(&w);
}

void cli_print_results(FILE *out, bool json, const pd_result *res, size_t n) {
  if (json)
    print_json(out, res, n);
  else
    print_text(out, res, n);
}

int cmd_query(int argc, char **argv) {
  static const struct option longopts[] = {
      CLI_COMMON_LONGOPTS,
      CLI_CALC_LONGOPTS,
      {NULL, 0, NULL, 0},
  };
  cli_common opt = {.calc = {.multi_timer = PD_MULTI_TIMER_RESKIT}};
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS, longopts, NULL)) !=
         -1) {
    int rc = cli_common_option(c, &opt, "query", argv);
    if (rc != CLI_CONTINUE)
      return rc;
  }

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

  int rc = CLI_EXIT_ERROR;
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
  cli_print_results(stdout, opt.json, res, nres);
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
