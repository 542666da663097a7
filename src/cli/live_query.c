/* collectd-winperf: live `winperf query` on the local registry (Windows).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   winperf query [--interval S] [--count N] [--json] [--names FILE] PATH...
 *       with no blob file: live values, typeperf-like, one report per
 *       interval (reports separated by an empty line in text mode), printed
 *       by the one result printer (results.c) as a query of blob files is.
 */
#include "cli.h"
#include "commands.h"
#include "live_options.h"

#include <stdlib.h>
#include <string.h>

bool cli_live_query_wanted(int argc, char **argv) {
  /* options whose value is the next argument */
  static const char *const with_value[] = {"--names",
                                           "-n",
                                           "--interval",
                                           "--count",
                                           "--buffer-size",
                                           "--max-buffer",
                                           "--multi-timer",
                                           "--pair-by",
                                           "--instance-names",
                                           "--metric-names",
                                           NULL};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      for (i++; i < argc; i++)
        if (argv[i][0] != '\\')
          return false;
      return true;
    }
    if (a[0] == '\\')
      continue;
    if (a[0] != '-' || a[1] == '\0')
      return false; /* a blob file */
    for (const char *const *w = with_value; *w; w++)
      if (strcmp(a, *w) == 0) {
        i++;
        break;
      }
  }
  return true;
}

/* One live query: its options, paths, source and the two samples. */
typedef struct live_query {
  live_opts o;
  cli_common opt;
  pd_selection *sel;
  wp_source *src;
  pd_names *names;
  wp_buffer buf[2];
  pd_snapshot *snap[2];
} live_query;

/* Names for the paths: --names FILE, else the English table, else (when it
 * leaves paths unresolved) the localized one if it resolves more. */
static bool choose_names(live_query *q, const char *names_file) {
  if (names_file != NULL) {
    if (!cli_load_names(names_file, &q->names))
      return false;
    pd_selection_set_names(q->sel, q->names);
    return true;
  }
  live_names_fn fns[2] = {q->src->names, wp_registry_names_local};
  size_t best = SIZE_MAX;
  wp_buffer buf = {0};
  for (int k = 0; k < 2 && best != 0; k++) {
    wp_error werr;
    wp_error_clear(&werr);
    pd_names *t = NULL;
    pd_error err = {0};
    if (fns[k](q->src, &buf, &werr) != WP_SOURCE_OK) {
      if (k == 0)
        fprintf(stderr, "winperf: warning: %s\n", werr.message);
      continue;
    }
    if (pd_names_parse(buf.data, buf.len, &t, &err) != PD_OK)
      continue; /* numeric paths still work */
    size_t unresolved = 0;
    pd_selection_set_names(q->sel, t);
    pd_selection_query(q->sel, &unresolved);
    if (unresolved < best) {
      best = unresolved;
      if (q->names)
        pd_names_free(q->names);
      q->names = t;
    } else {
      pd_names_free(t);
    }
  }
  wp_buffer_free(&buf);
  pd_selection_set_names(q->sel, q->names);
  return true;
}

/* Options and paths into q; CLI_CONTINUE when the query can run. */
static int parse_command_line(live_query *q, int argc, char **argv) {
  static const struct option longopts[] = {
      CLI_COMMON_LONGOPTS,
      LIVE_LONGOPTS,
      CLI_CALC_LONGOPTS,
      {NULL, 0, NULL, 0},
  };
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS, longopts, NULL)) !=
         -1) {
    int r = live_option(&q->o, c);
    if (r < 0)
      return CLI_EXIT_ERROR;
    if (r > 0)
      continue;
    int rc = cli_common_option(c, &q->opt, "query", argv);
    if (rc != CLI_CONTINUE)
      return rc;
  }
  for (int i = optind; i < argc; i++) {
    pd_error err = {0};
    size_t id;
    if (pd_selection_add(q->sel, argv[i], &id, &err) != PD_OK)
      return cli_error("%s: %s", argv[i], err.message);
  }
  if (pd_selection_path_count(q->sel) == 0)
    return cli_error("query: no counter path given (paths start with '\\')");
  pd_selection_set_options(q->sel, &q->opt.calc);
  pd_selection_set_pairing(q->sel, q->opt.pair_by);
  pd_selection_set_id_base(q->sel,
                           q->opt.instance_names == WP_INSTANCE_NAMES_PID);
  return CLI_CONTINUE;
}

/* The object list the paths need, after loading the names (reload: again,
 * after the registry's counters changed). */
static const char *objects_to_query(live_query *q, bool reload) {
  size_t unresolved = 0;
  if (!choose_names(q, reload ? NULL : q->opt.names_file))
    return NULL;
  const char *objects = pd_selection_query(q->sel, &unresolved);
  if (objects != NULL && objects[0] != '\0')
    return objects;
  if (reload)
    cli_error("query: after a counter reload no path names a known object");
  else
    cli_error("query: no path names a known object (%zu unresolved)",
              unresolved);
  return NULL;
}

/* Sample 0, then one report per interval: `count` reports. Snapshots point
 * into their buffers, so the two alternate. */
static int report(live_query *q) {
  wp_error werr;
  wp_error_clear(&werr);
  const char *objects = objects_to_query(q, false);
  if (objects == NULL)
    return CLI_EXIT_ERROR;
  int cur = 0;
  size_t matched = 0;
  for (unsigned long i = 0; i <= q->o.count; i++) {
    if (i > 0)
      live_sleep_interval(&q->o);
    /* Counters were (un)installed: the source reloaded the key; the names
     * and so the object list may have changed. */
    if (i > 0 && q->opt.names_file == NULL &&
        wp_registry_counters_changed(q->src) &&
        (objects = objects_to_query(q, true)) == NULL)
      return CLI_EXIT_ERROR;
    if (q->src->collect(q->src, objects, &q->buf[cur], &werr) != WP_SOURCE_OK)
      return cli_error("registry: query \"%s\": %s", objects, werr.message);
    pd_error err = {0};
    if (pd_decode(q->snap[cur], q->buf[cur].data, q->buf[cur].len, NULL,
                  &err) != PD_OK)
      return cli_error_at("HKEY_PERFORMANCE_DATA", &err);
    if (i > 0) {
      const pd_result *res;
      if (pd_selection_evaluate(q->sel, q->snap[!cur], q->snap[cur], &res,
                                &matched, &err) != PD_OK)
        return cli_error_at("HKEY_PERFORMANCE_DATA", &err);
      if (i > 1 && !q->opt.json)
        printf("\n");
      cli_print_results(stdout, &q->opt, res, matched);
      fflush(stdout);
    }
    cur = !cur;
  }
  if (matched == 0) {
    cli_error("query: the paths matched no counter");
    return CLI_EXIT_NO_MATCH;
  }
  return CLI_EXIT_OK;
}

int cmd_live_query(int argc, char **argv) {
  live_query q;
  memset(&q, 0, sizeof q);
  live_opts_init(&q.o);
  q.opt.calc.multi_timer = PD_MULTI_TIMER_RESKIT;
  q.sel = pd_selection_new();
  if (q.sel == NULL)
    return cli_error("out of memory");
  int rc = parse_command_line(&q, argc, argv);
  if (rc != CLI_CONTINUE)
    goto out;
  wp_error err = {0};
  rc = CLI_EXIT_ERROR;
  q.src = wp_registry_open(&q.o.reg, &err);
  if (q.src == NULL) {
    cli_error("registry: %s", err.message);
    goto out;
  }
  q.snap[0] = pd_snapshot_new();
  q.snap[1] = pd_snapshot_new();
  if (q.snap[0] == NULL || q.snap[1] == NULL)
    cli_error("out of memory");
  else
    rc = report(&q);
  live_report_stats(&q.o, q.src);
  q.src->destroy(q.src);
out:
  for (int k = 0; k < 2; k++) {
    if (q.snap[k])
      pd_snapshot_free(q.snap[k]);
    wp_buffer_free(&q.buf[k]);
  }
  if (q.names)
    pd_names_free(q.names);
  pd_selection_free(q.sel);
  return rc;
}
