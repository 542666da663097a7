/* collectd-winperf: a context's counter list (counters.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "counters.h"

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

bool wp_counters_check_matches(wp_ctx *c) {
  bool missing = false;
  for (size_t i = 0; i < c->counters.count; i++) {
    wp_entry_rt *rt = &c->rt[i];
    if (pd_selection_matches(c->sel, i) > 0) {
      if (rt->warned_no_match)
        INFO(PLUGIN ": %s now matches", c->counters.entries[i].path);
      rt->warned_no_match = false;
      continue;
    }
    missing = true;
    if (!rt->warned_no_match) {
      const wp_counter_entry *e = &c->counters.entries[i];
      WARNING(PLUGIN ": %s:%u:%u: %s matches nothing in this sample (tried "
                     "again each interval)",
              c->counters_file, e->line, e->column, e->path);
      rt->warned_no_match = true;
    }
  }
  return missing;
}
