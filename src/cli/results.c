/* collectd-winperf: the one printer of query results, text and JSON.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Used by every query: over blob files, --remote (which evaluates fetched
 * blobs) and the live query on Windows, so all print the same lines and the
 * same JSON keys (winperf(1) OUTPUT).
 */
#include "cli.h"
#include "json.h"

#include <string.h>

/* A result's names as printed: PDH's, or as --instance-names and
 * --metric-names ask (the path rebuilt from them). */
typedef struct shown {
  const char *path, *object, *instance, *counter;
  char by_id[1024], obj[1024], inst[1024], ctr[1024];
  char text[3 * 1024 + 8];
} shown;

static void show(shown *s, const cli_common *opt, const pd_result *r) {
  s->path = r->path;
  s->object = r->object;
  s->instance = r->instance;
  s->counter = r->counter;
  if (opt->instance_names == WP_INSTANCE_NAMES_PDH &&
      opt->metric_names == WP_METRIC_NAMES_PDH)
    return;
  wp_metric_names m = opt->metric_names;
  s->instance = wp_name_part(
      s->inst, sizeof s->inst,
      wp_name_instance(s->by_id, sizeof s->by_id, r, opt->instance_names), m);
  s->object = wp_name_part(s->obj, sizeof s->obj, r->object, m);
  s->counter = wp_name_part(s->ctr, sizeof s->ctr, r->counter, m);
  snprintf(s->text, sizeof s->text, "\\%s%s%s%s\\%s", s->object,
           s->instance ? "(" : "", s->instance ? s->instance : "",
           s->instance ? ")" : "", s->counter);
  s->path = s->text;
}

static void print_text(FILE *out, const cli_common *opt, const pd_result *res,
                       size_t n) {
  char buf[64];
  static shown s; /* large: not on the stack */
  for (size_t i = 0; i < n; i++) {
    show(&s, opt, &res[i]);
    cli_put_text(out, s.path);
    if (res[i].status == PD_VALUE_OK) {
      cli_format_value(res[i].value, buf, sizeof buf);
      fprintf(out, "\t%s\n", buf);
    } else {
      fprintf(out, "\t-\t%s\n", pd_value_status_name(res[i].status));
    }
  }
}

static void uint_or_null(json_writer *w, const char *key, bool has,
                         uint64_t v) {
  json_key(w, key);
  if (has)
    json_uint(w, v);
  else
    json_null(w);
}

void cli_print_result(json_writer *w, const cli_common *opt,
                      const pd_result *r) {
  char buf[64];
  static shown s; /* large: not on the stack */
  show(&s, opt, r);
  json_begin_object(w);
  json_member_string(w, "path", s.path);
  json_key(w, "value");
  if (r->status == PD_VALUE_OK)
    json_double(w, r->value); /* null if not finite */
  else
    json_null(w);
  json_member_string(w, "status", pd_value_status_name(r->status));
  json_member_string(w, "object", s.object);
  json_member_string(w, "instance", s.instance); /* null: single instance */
  json_member_string(w, "counter", s.counter);
  json_member_string(w, "type",
                     cli_type_name(r->counter_type, buf, sizeof buf));
  json_member_uint(w, "object_index", r->object_index);
  json_member_uint(w, "counter_index", r->counter_index);
  json_member_uint(w, "raw_value", r->raw_value);
  /* A base only where the type has one and it could be read. */
  uint_or_null(w, "raw_base",
               pd_type_needs_base(r->counter_type) &&
                   r->status != PD_VALUE_NO_BASE,
               r->raw_base);
  json_member_uint(w, "path_id", r->path_id);
  json_member_int(w, "time_100ns", r->time_100ns);
  uint_or_null(w, "pid", r->has_pid, r->pid);
  uint_or_null(w, "tid", r->has_tid, r->tid);
  json_end_object(w);
}

void cli_print_results(FILE *out, const cli_common *opt, const pd_result *res,
                       size_t n) {
  if (!opt->json) {
    print_text(out, opt, res, n);
    return;
  }
  json_writer w;
  json_init(&w, out);
  json_begin_array(&w);
  for (size_t i = 0; i < n; i++)
    cli_print_result(&w, opt, &res[i]);
  json_end_array(&w);
  json_finish(&w);
}
