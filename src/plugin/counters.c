/* collectd-winperf: a context's counter list (counters.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "counters.h"

#include "diagnose.h"

int wp_counters_read(const wp_ctx *c, wp_counter_list *out) {
  wp_error err;
  if (wp_counters_load(c->counters_file, out, &err) != 0) {
    if (c->kind == WP_SOURCE_REMOTE)
      ERROR(PLUGIN ": <Host \"%s\">: CountersFile %s", c->host, err.message);
    else
      ERROR(PLUGIN ": CountersFile %s", err.message);
    return -1;
  }
  return 0;
}

/* The data set of every type override, into rt[i].ds. */
static int check_types(const wp_counter_list *list, const char *file,
                       wp_entry_rt *rt) {
  static const char *const defaults[] = {"gauge", "derive"};
  for (size_t i = 0; i < 2; i++) {
    if (plugin_get_ds(defaults[i]) == NULL) {
      ERROR(PLUGIN ": types.db has no \"%s\" type; the plugin needs it",
            defaults[i]);
      return -1;
    }
  }
  for (size_t i = 0; i < list->count; i++) {
    const wp_counter_entry *e = &list->entries[i];
    if (e->type == NULL)
      continue;
    const data_set_t *ds = plugin_get_ds(e->type);
    if (ds == NULL) {
      ERROR(PLUGIN ": %s:%u:%u: unknown type \"%s\" (expected a type from "
                   "types.db, e.g. gauge)",
            file, e->type_line, e->type_column, e->type);
      return -1;
    }
    if (ds->ds_num != 1) {
      /* %u: mingw's printf format checking knows no %zu */
      ERROR(PLUGIN ": %s:%u:%u: type \"%s\" has %u data sources (expected "
                   "a type with exactly one, e.g. gauge)",
            file, e->type_line, e->type_column, e->type, (unsigned)ds->ds_num);
      return -1;
    }
    rt[i].ds = ds;
  }
  return 0;
}

static int add_paths(const wp_counter_list *list, const char *file,
                     pd_selection *sel) {
  for (size_t i = 0; i < list->count; i++) {
    const wp_counter_entry *e = &list->entries[i];
    size_t id = 0;
    pd_error perr = {0};
    if (pd_selection_add(sel, e->path, &id, &perr) != PD_OK || id != i) {
      ERROR(PLUGIN ": %s:%u:%u: counter path \"%s\": %s", file, e->line,
            e->column, e->path, perr.message);
      return -1;
    }
  }
  return 0;
}

int wp_counters_select(const wp_counter_list *list, const char *file,
                       const pd_calc_options *calc, pd_selection **sel_out,
                       wp_entry_rt **rt_out) {
  wp_entry_rt *rt = calloc(list->count, sizeof(*rt));
  pd_selection *sel = pd_selection_new();
  int status = 0;
  if (rt == NULL || sel == NULL) {
    ERROR(PLUGIN ": out of memory");
    status = -1;
  }
  if (status == 0)
    status = check_types(list, file, rt);
  if (status == 0)
    status = add_paths(list, file, sel);
  if (status != 0) {
    free(rt);
    pd_selection_free(sel);
    return -1;
  }
  pd_selection_set_options(sel, calc);
  *sel_out = sel;
  *rt_out = rt;
  return 0;
}

/* Whether counter-file entry i matched something in the last evaluation:
 * the one place that says which selection paths an entry stands for. */
static bool entry_matched(const wp_ctx *c, size_t i) {
  return pd_selection_matches(c->sel, i) > 0;
}

size_t wp_counters_unmatched(const wp_ctx *c) {
  size_t n = 0;
  for (size_t i = 0; i < c->counters.count; i++)
    n += !entry_matched(c, i);
  return n;
}

/* "<Host "name">: " for a <Host>'s lines, "" otherwise. */
static void host_prefix(const wp_ctx *c, char *out, size_t len) {
  if (c->kind == WP_SOURCE_REMOTE)
    snprintf(out, len, "<Host \"%s\">: ", c->host);
  else
    out[0] = '\0';
}

/* The first line about entry e matching nothing in `answer`: which case it
 * is and the fix (pd_diagnose). A path whose object has no instance now is
 * no error: info. */
static void report_no_match(const wp_ctx *c, const wp_counter_entry *e,
                            pd_snapshot *answer) {
  char host[DATA_MAX_NAME_LEN + 12];
  host_prefix(c, host, sizeof(host));
  pd_diagnosis d;
  pd_error perr = {0};
  if (pd_diagnose(e->path, c->names, answer, NULL, &d, &perr) != PD_OK) {
    WARNING(PLUGIN ": %s%s:%u:%u: %s matches nothing in this sample (tried "
                   "again each interval; no diagnosis: %s)",
            host, c->counters_file, e->line, e->column, e->path, perr.message);
    return;
  }
  if (d.verdict == PD_VERDICT_NO_INSTANCES) {
    INFO(PLUGIN ": %s%s:%u:%u: %s matches nothing yet: %s: %s", host,
         c->counters_file, e->line, e->column, e->path,
         pd_verdict_name(d.verdict), d.fix);
    return;
  }
  if (d.verdict == PD_VERDICT_OK) /* not expected: the same selection */
    snprintf(d.fix, sizeof(d.fix),
             "no cause found (the path alone matches "
             "this answer)");
  WARNING(PLUGIN ": %s%s:%u:%u: %s matches nothing in this sample (tried "
                 "again each interval): %s: %s",
          host, c->counters_file, e->line, e->column, e->path,
          pd_verdict_name(d.verdict), d.fix);
}

bool wp_counters_check_matches(wp_ctx *c) {
  bool missing = false;
  c->warned_source_cause = false; /* the source answered */
  for (size_t i = 0; i < c->counters.count; i++) {
    wp_entry_rt *rt = &c->rt[i];
    if (entry_matched(c, i)) {
      if (rt->warned_no_match)
        INFO(PLUGIN ": %s now matches", c->counters.entries[i].path);
      rt->warned_no_match = false;
      continue;
    }
    missing = true;
    if (!rt->warned_no_match)
      report_no_match(c, &c->counters.entries[i], c->snap[c->cur]);
    rt->warned_no_match = true;
  }
  return missing;
}

/* What the source's failure says about every path: access denied or no
 * RemoteRegistry, where the source can tell (as `winperf doctor`, see
 * src/cli/hostdata.c); PD_SOURCE_ANSWERED when it cannot. */
static pd_source_failure failure_cause(const wp_ctx *c, const char *err) {
  if (c->kind == WP_SOURCE_REMOTE) {
    wp_source_fault fault = wp_source_last_fault(c->src);
    if (fault == WP_SOURCE_FAULT_AUTH)
      return PD_SOURCE_ACCESS_DENIED;
    if (fault == WP_SOURCE_FAULT_CONNECT &&
        strstr(err, "has no \\pipe\\winreg") != NULL)
      return PD_SOURCE_REMOTE_REGISTRY_OFF;
    return PD_SOURCE_ANSWERED;
  }
  const char *e = strstr(err, "error 5"); /* ERROR_ACCESS_DENIED */
  if (e != NULL && (e[7] == '\0' || e[7] == ':'))
    return PD_SOURCE_ACCESS_DENIED;
  return PD_SOURCE_ANSWERED;
}

void wp_counters_source_failed(wp_ctx *c, const char *err) {
  pd_source_state src = {.failure = failure_cause(c, err),
                         .remote = c->kind == WP_SOURCE_REMOTE,
                         .detail = NULL};
  if (src.failure == PD_SOURCE_ANSWERED || c->warned_source_cause ||
      c->counters.count == 0)
    return;
  c->warned_source_cause = true;
  char host[DATA_MAX_NAME_LEN + 12];
  host_prefix(c, host, sizeof(host));
  pd_diagnosis d;
  pd_error perr = {0};
  if (pd_diagnose(c->counters.entries[0].path, c->names, NULL, &src, &d,
                  &perr) != PD_OK) {
    WARNING(PLUGIN ": %s%s: no counter path matches while the source fails "
                   "(%s; no diagnosis: %s)",
            host, c->counters_file, err, perr.message);
    return;
  }
  WARNING(PLUGIN ": %s%s: no counter path matches while the source fails: "
                 "%s: %s",
          host, c->counters_file, pd_verdict_name(d.verdict), d.fix);
}
