/* collectd-winperf: `winperf query-v2`, the PerfLib V2 consumer path
 * (Windows).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   winperf query-v2 --set GUID [--counter ID] [--instance NAME|""]
 *       [--interval S] [--count N]
 *       "{GUID}(instance)\ID<TAB>value" per counter, one report per interval.
 */
#include "perflib_v2.h"
#include "cli.h"
#include "commands.h"
#include "live_options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct v2_args {
  live_opts o;
  pd_guid set;
  uint32_t counter;
  const char *instance; /* NULL: a single-instance set */
} v2_args;

/* CLI_CONTINUE when the query can run. */
static int parse_command_line(v2_args *a, int argc, char **argv) {
  enum { OPT_SET = LIVE_OPT_END, OPT_COUNTER, OPT_INSTANCE };
  static const struct option longopts[] = {
      LIVE_LONGOPTS,
      {"set", required_argument, NULL, OPT_SET},
      {"counter", required_argument, NULL, OPT_COUNTER},
      {"instance", required_argument, NULL, OPT_INSTANCE},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  const char *set_text = NULL;
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    int r = live_option(&a->o, c);
    if (r < 0)
      return CLI_EXIT_ERROR;
    if (r > 0)
      continue;
    char *end;
    if (c == OPT_SET) {
      set_text = optarg;
    } else if (c == OPT_INSTANCE) {
      a->instance = optarg[0] ? optarg : NULL; /* "" = single-instance set */
    } else if (c == OPT_COUNTER) {
      errno = 0;
      unsigned long v = strtoul(optarg, &end, 10);
      if (errno || end == optarg || *end || v > UINT32_MAX)
        return cli_error("--counter: '%s' is not a counter id", optarg);
      a->counter = (uint32_t)v;
    } else if (c == 'h') {
      return CLI_SHOW_HELP;
    } else {
      return cli_error("query-v2: bad option '%s'", argv[optind - 1]);
    }
  }
  pd_error err = {0};
  if (set_text == NULL)
    return cli_error("query-v2: --set GUID is required");
  if (pd_guid_parse(set_text, &a->set, &err) != PD_OK)
    return cli_error("--set: %s", err.message);
  return CLI_CONTINUE;
}

static void print_report(const pd_guid *set, const pd_v2_results *res) {
  char guid[39];
  pd_guid_format(set, guid);
  for (size_t k = 0; k < res->count; k++) {
    const pd_v2_result *r = &res->items[k];
    char val[64];
    printf("%s(", guid);
    cli_put_text(stdout, r->instance);
    printf(")\\%u", (unsigned)r->counter_id);
    if (r->status == PD_VALUE_OK) {
      cli_format_value(r->value, val, sizeof val);
      printf("\t%s\n", val);
    } else {
      printf("\t-\t%s\n", pd_value_status_name(r->status));
    }
  }
  fflush(stdout);
}

/* The query's state: PerfLib handles, buffers and decoded samples. */
typedef struct v2_query {
  wp_v2_query *q;
  wp_buffer buf[2], ids, reg;
  pd_v2_data *data[2];
  pd_v2_counterset *cs;
  pd_v2_identifier id;
  pd_v2_results res;
} v2_query;

/* Register the counters and read the set's layout and identifiers. */
static bool prepare(v2_query *v, const v2_args *a) {
  wp_error werr = {0};
  pd_error err = {0};
  if (wp_v2_add(v->q, &a->set, a->counter, a->instance, &werr) != 0 ||
      wp_v2_counterset_info(v->q, &a->set, &v->reg, &werr) != 0 ||
      wp_v2_identifiers(v->q, &v->ids, &werr) != 0)
    return cli_error("query-v2: %s", werr.message), false;
  if (pd_v2_counterset_parse(v->reg.data, v->reg.len, &v->cs, &err) != PD_OK ||
      pd_v2_identifier_decode(v->ids.data, v->ids.len, 0, &v->id, NULL, &err) !=
          PD_OK)
    return cli_error_at("PerfLib", &err), false;
  return true;
}

/* Sample 0, then one report per interval. */
static int report(v2_query *v, const v2_args *a) {
  wp_error werr = {0};
  pd_error err = {0};
  const pd_v2_counterset *sets[1] = {v->cs};
  int cur = 0;
  for (unsigned long i = 0; i <= a->o.count; i++) {
    if (i > 0)
      live_sleep_interval(&a->o);
    if (wp_v2_collect(v->q, &v->buf[cur], &werr) != 0)
      return cli_error("query-v2: %s", werr.message);
    if (pd_v2_data_decode(v->data[cur], v->buf[cur].data, v->buf[cur].len,
                          &v->id, 1, 0, &err) != PD_OK)
      return cli_error_at("PerfQueryCounterData", &err);
    if (i == 0)
      continue;
    if (pd_v2_evaluate(sets, 1, v->data[!cur], v->data[cur], NULL, &v->res,
                       &err) != PD_OK)
      return cli_error_at("PerfQueryCounterData", &err);
    if (i > 1)
      printf("\n");
    print_report(&a->set, &v->res);
    cur = !cur;
  }
  return CLI_EXIT_OK;
}

int cmd_query_v2(int argc, char **argv) {
  v2_args a = {.counter = PD_V2_WILDCARD_COUNTER, .instance = "*"};
  live_opts_init(&a.o);
  int rc = parse_command_line(&a, argc, argv);
  if (rc != CLI_CONTINUE)
    return rc;
  wp_error err = {0};
  v2_query v;
  memset(&v, 0, sizeof v);
  v.q = wp_v2_open(NULL, &err);
  if (v.q == NULL)
    return cli_error("query-v2: %s", err.message);
  v.data[0] = pd_v2_data_new();
  v.data[1] = pd_v2_data_new();
  rc = CLI_EXIT_ERROR;
  if (v.data[0] == NULL || v.data[1] == NULL)
    cli_error("out of memory");
  else if (prepare(&v, &a))
    rc = report(&v, &a);
  pd_v2_results_free(&v.res);
  pd_v2_counterset_free(v.cs);
  for (int k = 0; k < 2; k++) {
    pd_v2_data_free(v.data[k]);
    wp_buffer_free(&v.buf[k]);
  }
  wp_buffer_free(&v.ids);
  wp_buffer_free(&v.reg);
  wp_v2_close(v.q);
  return rc;
}
