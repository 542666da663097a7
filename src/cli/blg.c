/* collectd-winperf: `winperf blg`: a Perfmon binary log listed, converted
 * (relog's CSV, the project's JSON) or sent (Graphite, InfluxDB).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The log is read whole (src/blg); each sample becomes one V1 blob per
 * logged machine, decoded and evaluated against that machine's previous
 * sample with the paths asked for (--counter, else every catalog entry's
 * path), so values are computed exactly as `winperf query` computes them
 * from two blobs. Instances pair by name by default, as PDH pairs a log's.
 */
#include "config.h"

#include "blg_cli.h"
#include "blg_file.h"
#include "commands.h"

#include <stdlib.h>
#include <string.h>

enum {
  OPT_LIST = 300,
  OPT_CSV,
  OPT_COUNTER,
  OPT_BEGIN,
  OPT_END,
  OPT_GRAPHITE,
  OPT_INFLUX,
  OPT_TZ_NAME,
};

/* ------------------------------------------------------------ paths */

/* The path of a catalog entry, without its machine. */
static void entry_path(const blg_counter *c, char *out, size_t size) {
  const char *ctr = c->kind == BLG_ENTRY_OBJECT ? "*" : c->counter;
  if (c->instance == NULL && c->kind != BLG_ENTRY_OBJECT) {
    snprintf(out, size, "\\%s\\%s", c->object, ctr);
    return;
  }
  char inst[512];
  if (c->instance == NULL || c->kind != BLG_ENTRY_SINGLE)
    snprintf(inst, sizeof inst, "*");
  else if (c->instance_index > 0)
    snprintf(inst, sizeof inst, "%s%s%s#%u", c->parent ? c->parent : "",
             c->parent ? "/" : "", c->instance, c->instance_index);
  else
    snprintf(inst, sizeof inst, "%s%s%s", c->parent ? c->parent : "",
             c->parent ? "/" : "", c->instance);
  /* a whole object without instances: \Object\* (no parentheses) */
  if (c->kind == BLG_ENTRY_OBJECT && c->instance == NULL)
    snprintf(out, size, "\\%s\\*", c->object);
  else
    snprintf(out, size, "\\%s(%s)\\%s", c->object, inst, ctr);
}

/* Add `path` to machine m's selection when its \\MACHINE (if any) is m. */
static int add_path(blg_run *r, size_t m, const char *path) {
  if (path[0] == '\\' && path[1] == '\\') {
    const char *name = path + 2, *end = strchr(name, '\\');
    const char *mach = blg_machine_at(r->log, m);
    if (end == NULL || strlen(mach) != (size_t)(end - name) ||
        pd_name_casecmp(mach, "") == 0)
      return 0;
    char want[256];
    snprintf(want, sizeof want, "%.*s", (int)(end - name), name);
    if (pd_name_casecmp(want, mach) != 0)
      return 0;
  }
  size_t id;
  pd_error err;
  if (pd_selection_add(r->ms[m].sel, path, &id, &err) != PD_OK)
    return cli_path_error(path, &err);
  r->ms[m].paths++;
  return 0;
}

static int build_selections(blg_run *r) {
  size_t nm = blg_machine_count(r->log);
  r->ms = calloc(nm, sizeof *r->ms);
  if (r->ms == NULL)
    return cli_error("out of memory");
  for (size_t m = 0; m < nm; m++) {
    blg_machine_state *s = &r->ms[m];
    s->sel = pd_selection_new();
    s->snap[0] = pd_snapshot_new();
    s->snap[1] = pd_snapshot_new();
    if (s->sel == NULL || s->snap[0] == NULL || s->snap[1] == NULL)
      return cli_error("out of memory");
    pd_selection_set_names(s->sel, blg_names(r->log));
    pd_selection_set_options(s->sel, &r->opt.calc);
    pd_selection_set_pairing(s->sel, r->opt.pair_by);
    pd_selection_set_id_base(s->sel,
                             r->opt.instance_names == WP_INSTANCE_NAMES_PID);
    for (size_t i = 0; i < r->counter_count; i++)
      if (add_path(r, m, r->counters[i]) != 0)
        return CLI_EXIT_ERROR;
    for (size_t i = 0; r->counter_count == 0 && i < blg_counter_count(r->log);
         i++) {
      const blg_counter *c = blg_counter_at(r->log, i);
      char path[1024];
      if (c->machine_id != m)
        continue;
      entry_path(c, path, sizeof path);
      if (add_path(r, m, path) != 0)
        return CLI_EXIT_ERROR;
    }
  }
  return 0;
}

/* ------------------------------------------------------------ --list */

static void print_list(blg_run *r, FILE *out) {
  const blg_info *in = blg_log_info(r->log);
  size_t n = blg_sample_count(r->log);
  char t0[40] = "-", t1[40] = "-";
  if (n > 0) {
    blg_format_time(blg_sample_local(r->log, 0), t0, sizeof t0);
    blg_format_time(blg_sample_local(r->log, n - 1), t1, sizeof t1);
  }
  fprintf(out, "file\t%s\nlogged by\tWindows %u.%u build %u, %u-bit\n", r->file,
          in->os_major, in->os_minor, in->os_build, in->pointer_size * 8);
  fprintf(out, "time zone\t%s / %s, bias %d min\n", in->tz_standard_name,
          in->tz_daylight_name, in->tz_bias);
  fprintf(out, "samples\t%zu\nfirst\t%s\nlast\t%s\n", n, t0, t1);
  for (size_t m = 0; m < blg_machine_count(r->log); m++)
    fprintf(out, "machine\t%s\n", blg_machine_at(r->log, m));
  for (size_t i = 0; i < blg_counter_count(r->log); i++) {
    const blg_counter *c = blg_counter_at(r->log, i);
    char path[1024], type[32];
    entry_path(c, path, sizeof path);
    fprintf(out, "counter\t\\\\%s%s\t%s\n", c->machine, path,
            c->kind == BLG_ENTRY_OBJECT
                ? "whole object"
                : cli_type_name(c->type, type, sizeof type));
  }
}

static void print_warnings(blg_run *r) {
  for (size_t i = r->warned; i < blg_warnings_kept(r->log); i++) {
    const blg_warning *w = blg_warning_at(r->log, i);
    fprintf(stderr, "winperf: %s: warning: offset 0x%zx: %s\n", r->file,
            w->offset, w->message);
  }
  if (blg_warning_count(r->log) > blg_warnings_kept(r->log) &&
      r->warned < blg_warning_count(r->log))
    fprintf(stderr, "winperf: %s: warning: %zu more warnings\n", r->file,
            blg_warning_count(r->log) - blg_warnings_kept(r->log));
  r->warned = blg_warning_count(r->log);
}

/* ------------------------------------------------------------ options */

static int parse(blg_run *r, int argc, char **argv) {
  static const struct option longopts[] = {
      CLI_COMMON_LONGOPTS,
      CLI_CALC_LONGOPTS,
      {"list", no_argument, NULL, OPT_LIST},
      {"csv", no_argument, NULL, OPT_CSV},
      {"counter", required_argument, NULL, OPT_COUNTER},
      {"begin", required_argument, NULL, OPT_BEGIN},
      {"end", required_argument, NULL, OPT_END},
      {"graphite", required_argument, NULL, OPT_GRAPHITE},
      {"influx-udp", required_argument, NULL, OPT_INFLUX},
      {"tz-name", required_argument, NULL, OPT_TZ_NAME},
      {NULL, 0, NULL, 0},
  };
  int c, modes = 0;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS, longopts, NULL)) !=
         -1) {
    switch (c) {
    case OPT_LIST:
      r->mode = BLG_MODE_LIST, modes++;
      break;
    case OPT_CSV:
      r->mode = BLG_MODE_CSV, modes++;
      break;
    case OPT_GRAPHITE:
    case OPT_INFLUX:
      r->mode = c == OPT_GRAPHITE ? BLG_MODE_GRAPHITE : BLG_MODE_INFLUX;
      r->target = optarg, modes++;
      break;
    case OPT_COUNTER: {
      if (WP_GROW(&r->counters, &r->counter_cap, r->counter_count + 1,
                  WP_GROW_NO_CAP) != WP_GROW_OK)
        return cli_error("out of memory");
      r->counters[r->counter_count++] = optarg;
      break;
    }
    case OPT_BEGIN:
    case OPT_END: {
      int64_t *t = c == OPT_BEGIN ? &r->begin : &r->end;
      if (!blg_parse_time(optarg, t))
        return cli_error("blg: --%s: '%s' is not a time (YYYY-MM-DD "
                         "HH:MM[:SS[.fff]] or MM/DD/YYYY HH:MM[:SS[.fff]])",
                         c == OPT_BEGIN ? "begin" : "end", optarg);
      *(c == OPT_BEGIN ? &r->have_begin : &r->have_end) = true;
      break;
    }
    case OPT_TZ_NAME:
      r->tz_name = optarg;
      break;
    case 'j':
      r->mode = BLG_MODE_JSON, modes++;
      break;
    default: {
      int rc = cli_common_option(c, &r->opt, "blg", argv);
      if (rc != CLI_CONTINUE)
        return rc;
    }
    }
  }
  if (modes > 1)
    return cli_error("blg: one of --list, --csv, --json, --graphite, "
                     "--influx-udp at a time");
  if (optind != argc - 1)
    return cli_error("blg: one FILE.blg expected (try 'winperf blg --help')");
  r->file = argv[optind];
  return CLI_CONTINUE;
}

static int run(blg_run *r) {
  wp_error err;
  wp_error_clear(&err);
  if (blg_read_file(r->file, &r->data, &r->len, &err) != 0)
    return cli_error("%s", err.message);
  r->log = blg_open(r->data, r->len, &err);
  if (r->log == NULL)
    return cli_error("%s: %s", r->file, err.message);
  print_warnings(r);
  if (r->mode == BLG_MODE_LIST) {
    print_list(r, stdout);
    return CLI_EXIT_OK;
  }
  int rc = build_selections(r);
  if (rc != 0)
    return rc;
  switch (r->mode) {
  case BLG_MODE_CSV:
    rc = blg_write_csv(r, stdout);
    break;
  case BLG_MODE_JSON:
    rc = blg_write_json(r, stdout);
    break;
  default:
    rc = blg_send(r);
  }
  /* warnings found while building the samples */
  if (rc == 0)
    print_warnings(r);
  return rc;
}

static void run_free(blg_run *r) {
  for (size_t m = 0; r->ms && m < blg_machine_count(r->log); m++) {
    pd_selection_free(r->ms[m].sel);
    pd_snapshot_free(r->ms[m].snap[0]);
    pd_snapshot_free(r->ms[m].snap[1]);
    free(r->ms[m].buf[0]);
    free(r->ms[m].buf[1]);
  }
  free(r->ms);
  free(r->kept);
  blg_close(r->log);
  free(r->data);
  free(r->counters);
}

int cmd_blg(int argc, char **argv) {
  blg_run r = {0};
  r.opt.pair_by = PD_PAIR_BY_FULL_NAME; /* as PDH pairs a log's instances */
  int rc = parse(&r, argc, argv);
  if (rc == CLI_CONTINUE)
    rc = run(&r);
  run_free(&r);
  return rc;
}
