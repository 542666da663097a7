/* collectd-winperf: `winperf blg --csv` (what `relog -f csv` writes) and
 * `--json` (the query results per sample).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * relog's CSV (doc/blg.md 7): a header row "(PDH-CSV 4.0) (ZONE)(BIAS)"
 * then "\\MACHINE\Object(instance)\Counter" per column; one row per sample,
 * "MM/DD/YYYY HH:MM:SS.mmm" in the log's local time, every field quoted,
 * values as "%.17g" (PDH's double in full), " " where PDH has no value
 * (a rate's first sample, an instance absent, a machine without the
 * sample). Lines end in CRLF as on Windows. The columns are every counter
 * that has a result in some sample in range, in the order first met.
 */
#include "blg_cli.h"
#include "json.h"
#include "wp_grow.h"
#include "wp_hash.h"
#include "wp_table.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- columns */

typedef struct columns {
  char **paths; /* "\\MACHINE\Object(instance)\Counter" */
  size_t count, cap;
  wp_table index; /* name + 1, by wp_hash_bytes of the name */
} columns;

typedef struct column_key {
  const columns *c;
  const char *name;
} column_key;

static bool same_column(const void *ctx, uint32_t value) {
  const column_key *k = ctx;
  return strcmp(k->c->paths[value - 1], k->name) == 0;
}

/* The column of `name`; -1 when absent (and not added) or out of memory. */
static int64_t column(columns *c, const char *name, bool add) {
  uint32_t h = wp_hash32(wp_hash_bytes(name, strlen(name)));
  column_key k = {c, name};
  uint32_t v = wp_table_find(&c->index, h, same_column, &k);
  if (v != 0)
    return (int64_t)v - 1;
  if (!add ||
      WP_GROW(&c->paths, &c->cap, c->count + 1, WP_TABLE_MAX) != WP_GROW_OK ||
      wp_table_reserve(&c->index, c->count + 1) != WP_GROW_OK)
    return -1;
  char *copy = strdup(name);
  if (copy == NULL)
    return -1;
  c->paths[c->count] = copy;
  wp_table_put(&c->index, h, (uint32_t)++c->count);
  return (int64_t)(c->count - 1);
}

static void columns_free(columns *c) {
  for (size_t i = 0; i < c->count; i++)
    free(c->paths[i]);
  free(c->paths);
  wp_table_free(&c->index);
}

static void column_name(const blg_run *r, size_t m, const pd_result *res,
                        char *out, size_t size) {
  char path[1024];
  snprintf(out, size, "\\\\%s%s", blg_machine_at(r->log, m),
           res->path ? res->path : pd_result_path(res, path, sizeof path));
}

/* ---------------------------------------------------------- CSV */

typedef struct csv_state {
  columns cols;
  bool collecting;
  FILE *out;
  double *values;
  bool *has;
  int64_t row; /* the sample whose row is being filled, -1 none */
  int64_t row_time;
  bool failed;
} csv_state;

static int collect(void *ctx, blg_run *r, size_t s, size_t m,
                   const pd_result *res, size_t n) {
  csv_state *st = ctx;
  (void)s;
  for (size_t i = 0; i < n; i++) {
    char name[1400];
    if (res[i].status != PD_VALUE_OK &&
        res[i].status != PD_VALUE_FIRST_SAMPLE &&
        res[i].status != PD_VALUE_NEGATIVE &&
        res[i].status != PD_VALUE_NO_TIME_DELTA)
      continue; /* not a number PDH would show: no column */
    column_name(r, m, &res[i], name, sizeof name);
    if (column(&st->cols, name, true) < 0) {
      st->failed = true;
      return cli_error("out of memory");
    }
  }
  return 0;
}

static void csv_time(FILE *out, int64_t t) {
  char iso[40];
  blg_format_time(t, iso, sizeof iso); /* YYYY-MM-DD HH:MM:SS.mmm */
  fprintf(out, "\"%.2s/%.2s/%.4s %s\"", iso + 5, iso + 8, iso, iso + 11);
}

static void flush_row(csv_state *st) {
  if (st->row < 0)
    return;
  csv_time(st->out, st->row_time);
  for (size_t c = 0; c < st->cols.count; c++) {
    if (st->has[c]) {
      char v[40];
      snprintf(v, sizeof v, "%.17g", st->values[c]);
      fprintf(st->out, ",\"%s\"", v);
    } else {
      fputs(",\" \"", st->out);
    }
  }
  fputs("\r\n", st->out);
  memset(st->has, 0, st->cols.count * sizeof *st->has);
  st->row = -1;
}

static int fill(void *ctx, blg_run *r, size_t s, size_t m, const pd_result *res,
                size_t n) {
  csv_state *st = ctx;
  if (st->row != (int64_t)s) {
    flush_row(st);
    st->row = (int64_t)s;
    st->row_time = blg_sample_local(r->log, s);
  }
  for (size_t i = 0; i < n; i++) {
    char name[1400];
    if (res[i].status != PD_VALUE_OK)
      continue;
    column_name(r, m, &res[i], name, sizeof name);
    int64_t c = column(&st->cols, name, false);
    if (c >= 0) {
      st->values[c] = res[i].value;
      st->has[c] = true;
    }
  }
  return 0;
}

/* The header's zone: the logged zone's name (standard or daylight, as the
 * first sample falls) and its bias then, or --tz-name. */
static void csv_header(const blg_run *r, FILE *out) {
  const blg_info *in = blg_log_info(r->log);
  int64_t bias = (int64_t)in->tz_bias + in->tz_standard_bias;
  if (blg_sample_count(r->log) > 0)
    bias = (blg_sample_utc(r->log, 0) - blg_sample_local(r->log, 0)) /
           INT64_C(600000000);
  const char *name = bias == (int64_t)in->tz_bias + in->tz_standard_bias
                         ? in->tz_standard_name
                         : in->tz_daylight_name;
  fprintf(out, "\"(PDH-CSV 4.0) (%s)(%lld)\"", r->tz_name ? r->tz_name : name,
          (long long)bias);
}

int blg_write_csv(blg_run *r, FILE *out) {
  csv_state st = {.out = out, .row = -1};
  int rc = blg_run_samples(r, collect, &st);
  if (rc == 0 && !st.failed) {
    size_t n = st.cols.count ? st.cols.count : 1;
    st.values = calloc(n, sizeof *st.values);
    st.has = calloc(n, sizeof *st.has);
    if (st.values == NULL || st.has == NULL)
      rc = cli_error("out of memory");
  }
  if (rc == 0 && !st.failed) {
    csv_header(r, out);
    for (size_t c = 0; c < st.cols.count; c++) {
      fputs(",\"", out);
      fputs(st.cols.paths[c], out);
      fputc('"', out);
    }
    fputs("\r\n", out);
    rc = blg_run_samples(r, fill, &st);
    flush_row(&st);
  }
  free(st.values);
  free(st.has);
  columns_free(&st.cols);
  if (fflush(out) != 0)
    return cli_error("writing the CSV failed");
  return st.failed ? CLI_EXIT_ERROR : rc;
}

/* ---------------------------------------------------------- JSON */

typedef struct json_state {
  json_writer w;
} json_state;

static int one_json(void *ctx, blg_run *r, size_t s, size_t m,
                    const pd_result *res, size_t n) {
  json_state *st = ctx;
  char t[40], utc[48];
  blg_format_time(blg_sample_local(r->log, s), t, sizeof t);
  cli_format_filetime(blg_sample_utc(r->log, s), utc, sizeof utc);
  json_begin_object(&st->w);
  json_member_uint(&st->w, "sample", s);
  json_member_string(&st->w, "time", t);
  json_member_string(&st->w, "time_utc", utc);
  json_member_string(&st->w, "machine", blg_machine_at(r->log, m));
  json_key(&st->w, "results");
  json_begin_array(&st->w);
  for (size_t i = 0; i < n; i++)
    cli_print_result(&st->w, &r->opt, &res[i]);
  json_end_array(&st->w);
  json_end_object(&st->w);
  return 0;
}

int blg_write_json(blg_run *r, FILE *out) {
  json_state st;
  json_init(&st.w, out);
  json_begin_array(&st.w);
  int rc = blg_run_samples(r, one_json, &st);
  json_end_array(&st.w);
  json_finish(&st.w);
  if (fflush(out) != 0)
    return cli_error("writing the JSON failed");
  return rc;
}
