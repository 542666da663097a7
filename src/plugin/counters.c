/* collectd-winperf: a context's counter list (counters.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "counters.h"
#include "dispatch.h"

#include "dedup_groups.h"
#include "diagnose.h"

#include <string.h>

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

/* The filter of every path of an entry with alternatives or cardinality
 * keys: only the alternative in use, then include/exclude/total. */
static int path_filter(void *ctx, size_t path_id, const char *full,
                       const char *base) {
  (void)path_id;
  const wp_path_ref *ref = ctx;
  wp_entry_rt *rt = &ref->c->rt[ref->entry];
  if (rt->active < 0 || (size_t)rt->active != ref->alt)
    return 0;
  return rt->card ? wp_card_keep(rt->card, full, base) : 1;
}

/* Path text and wildcard flags of alternative a of e (0: e's path). */
static const char *alt_path(const wp_counter_entry *e, size_t a,
                            wp_path_ref *ref) {
  const wp_path_alt *alt = a > 0 ? &e->alts[a - 1] : NULL;
  ref->instance_has_wildcard =
      alt ? alt->instance_has_wildcard : e->instance_has_wildcard;
  ref->counter_has_wildcard =
      alt ? alt->counter_has_wildcard : e->counter_has_wildcard;
  return alt ? alt->path : e->path;
}

/* An alternative's object, kept to find it in an answer. */
static int keep_object(wp_path_ref *ref, const char *text) {
  pd_path p;
  pd_error perr = {0};
  if (pd_path_parse(text, &p, &perr) != PD_OK)
    return -1;
  ref->object = strdup(p.object);
  ref->object_is_index = p.object_is_index;
  pd_path_clear(&p);
  return ref->object ? 0 : -1;
}

/* Every path of every entry into the selection, in entry order (an entry's
 * alternatives get consecutive ids); paths[id] says whose it is. */
static int add_paths(wp_ctx *c, const wp_counter_list *list, const char *file,
                     pd_selection *sel, wp_entry_rt *rt, wp_path_ref *paths) {
  size_t n = 0;
  for (size_t i = 0; i < list->count; i++) {
    const wp_counter_entry *e = &list->entries[i];
    bool filtered = e->alt_count > 0 || wp_card_wanted(&e->card);
    rt[i].first_path = n;
    rt[i].active = e->alt_count > 0 ? -1 : 0;
    if (wp_card_wanted(&e->card) &&
        (rt[i].card = wp_card_new(&e->card)) == NULL) {
      ERROR(PLUGIN ": out of memory");
      return -1;
    }
    for (size_t a = 0; a <= e->alt_count; a++, n++) {
      wp_path_ref *ref = &paths[n];
      *ref = (wp_path_ref){.c = c, .entry = i, .alt = a};
      const char *text = alt_path(e, a, ref);
      size_t id = 0;
      pd_error perr = {0};
      if (pd_selection_add(sel, text, &id, &perr) != PD_OK || id != n ||
          (e->alt_count > 0 && keep_object(ref, text) != 0)) {
        ERROR(PLUGIN ": %s:%u:%u: counter path \"%s\": %s", file, e->line,
              e->column, text,
              perr.message[0] ? perr.message : "out of memory");
        return -1;
      }
      if (filtered)
        pd_selection_set_instance_filter(sel, id, path_filter, ref);
    }
  }
  return 0;
}

/* Pairing: the block's, and an entry's own pair_by on all its paths. */
static void set_pairing(const wp_ctx *c, const wp_counter_list *list,
                        wp_counter_state *st) {
  pd_selection_set_pairing(st->sel, c->opt.pair_by);
  /* id_base only where a name needs it (InstanceNames "pid") */
  bool want = c->opt.instance_names == WP_INSTANCE_NAMES_PID;
  for (size_t i = 0; i < list->count; i++)
    want |= list->entries[i].instance_names == WP_INSTANCE_NAMES_PID;
  pd_selection_set_id_base(st->sel, want);
  for (size_t i = 0; i < list->count; i++) {
    const wp_counter_entry *e = &list->entries[i];
    for (size_t a = 0; e->pair_by >= 0 && a <= e->alt_count; a++)
      pd_selection_set_path_pairing(st->sel, st->rt[i].first_path + a,
                                    (pd_pair_by)e->pair_by);
  }
}

/* "<Host "name">: " for a <Host>'s lines, "" otherwise. */
static void host_prefix(const wp_ctx *c, char *out, size_t len) {
  if (c->kind == WP_SOURCE_REMOTE)
    snprintf(out, len, "<Host \"%s\">: ", c->host);
  else
    out[0] = '\0';
}

/* The entries that can never dispatch anything (an earlier entry of their
 * group takes every value they match), logged once per load. */
static void log_shadowed(const wp_ctx *c, const wp_counter_list *list,
                         const uint32_t *groups) {
  wp_shadowed *sh;
  size_t n;
  if (wp_dedup_shadowed(list, groups, &sh, &n) != 0) {
    ERROR(PLUGIN ": %s: out of memory looking for entries that dispatch "
                 "nothing (the counters are read all the same)",
          c->counters_file);
    return;
  }
  char host[DATA_MAX_NAME_LEN + 12];
  host_prefix(c, host, sizeof host);
  for (size_t i = 0; i < n; i++) {
    const wp_counter_entry *e = &list->entries[sh[i].entry];
    const wp_counter_entry *by = &list->entries[sh[i].by];
    INFO(PLUGIN ": %s%s:%u:%u: %s dispatches nothing: %s:%u:%u (%s) "
                "dispatches every value it matches, with the same output "
                "settings (see \"Duplicates\" in collectd-winperf(5))",
         host, c->counters_file, e->line, e->column, e->path, c->counters_file,
         by->line, by->column, by->path);
  }
  free(sh);
}

/* Entries that would send collectd two values for one series (one
 * covers the other, same names, another scale, value mode or pairing):
 * each logged; -1 when there is one (the CountersFile does not load). */
static int refuse_clashes(const wp_ctx *c, const wp_counter_list *list,
                          const wp_output_defaults *d, const uint32_t *groups) {
  wp_clash *cl;
  size_t n;
  if (wp_dedup_clashes(list, d, groups, &cl, &n) != 0) {
    ERROR(PLUGIN ": out of memory");
    return -1;
  }
  char host[DATA_MAX_NAME_LEN + 12];
  host_prefix(c, host, sizeof host);
  for (size_t i = 0; i < n; i++) {
    const wp_counter_entry *e = &list->entries[cl[i].entry];
    const wp_counter_entry *by = &list->entries[cl[i].by];
    ERROR(PLUGIN ": %s%s:%u:%u: %s would dispatch the values of %s:%u:%u "
                 "(%s) again under the same names with another %s: two "
                 "values for one series (set plugin_instance or "
                 "type_instance for one of them; see \"Duplicates\" in "
                 "collectd-winperf(5))",
          host, c->counters_file, e->line, e->column, e->path, c->counters_file,
          by->line, by->column, by->path, cl[i].setting);
  }
  free(cl);
  return n > 0 ? -1 : 0;
}

/* Each path's deduplication group: entries whose output settings are
 * alike share the values their paths match (each dispatched once), the
 * others do not (dedup_groups.h); entries that cannot both be honoured
 * refused. */
static int set_groups(const wp_ctx *c, const wp_counter_list *list,
                      wp_counter_state *st) {
  wp_output_defaults d = {c->opt.raw_mode, (int)c->opt.pair_by,
                          (int)c->opt.metric_names, (int)c->opt.instance_names};
  uint32_t *groups =
      calloc(st->path_count ? st->path_count : 1, sizeof *groups);
  if (groups == NULL || wp_dedup_groups(list, &d, groups) != 0) {
    free(groups);
    ERROR(PLUGIN ": out of memory");
    return -1;
  }
  for (size_t p = 0; p < st->path_count; p++)
    pd_selection_set_path_group(st->sel, p, groups[p]);
  int status = refuse_clashes(c, list, &d, groups);
  if (status == 0)
    log_shadowed(c, list, groups);
  free(groups);
  return status;
}

int wp_counters_build(wp_ctx *c, const wp_counter_list *list,
                      wp_counter_state *st) {
  memset(st, 0, sizeof *st);
  st->path_count = wp_dedup_path_count(list); /* add_paths' order */
  st->rt = calloc(list->count ? list->count : 1, sizeof(*st->rt));
  st->paths = calloc(st->path_count ? st->path_count : 1, sizeof(*st->paths));
  st->sel = pd_selection_new();
  int status = 0;
  if (st->rt == NULL || st->paths == NULL || st->sel == NULL) {
    ERROR(PLUGIN ": out of memory");
    status = -1;
  }
  if (status == 0)
    status = check_types(list, c->counters_file, st->rt);
  if (status == 0)
    status = add_paths(c, list, c->counters_file, st->sel, st->rt, st->paths);
  if (status == 0)
    status = set_groups(c, list, st);
  if (status != 0) {
    wp_counter_state_free(st, list->count);
    return -1;
  }
  pd_selection_set_options(st->sel, &c->opt.calc);
  /* Paths only for the odd log line (pd_result_path), not every value. */
  pd_selection_set_paths(st->sel, false);
  set_pairing(c, list, st);
  pd_selection_set_names(st->sel, c->names);
  return 0;
}

void wp_counters_install(wp_ctx *c, wp_counter_state *st) {
  wp_counter_state old = {c->sel, c->rt, c->paths, c->path_count};
  wp_counter_state_free(&old, c->counters.count);
  c->sel = st->sel;
  c->rt = st->rt;
  c->paths = st->paths;
  c->path_count = st->path_count;
  memset(st, 0, sizeof *st);
  wp_name_cache_clear(&c->name_cache); /* path ids and types changed */
}

int wp_counters_select(wp_ctx *c) {
  wp_counter_state st;
  if (wp_counters_build(c, &c->counters, &st) != 0)
    return -1;
  wp_counters_install(c, &st);
  return 0;
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
  pd_source_state answered = {.failure = PD_SOURCE_ANSWERED,
                              .last_counter = wp_source_last_counter(c->src)};
  if (pd_diagnose(e->path, c->names, answer, &answered, &d, &perr) != PD_OK) {
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

/* Whether the object of path ref is in the answer. */
static bool object_present(const wp_ctx *c, const pd_snapshot *snap,
                           const wp_path_ref *ref) {
  if (ref->object_is_index)
    return pd_snapshot_find_object(
               snap, (uint32_t)strtoul(ref->object, NULL, 10)) != NULL;
  const uint32_t *idx = NULL;
  size_t n = c->names ? pd_names_lookup(c->names, ref->object, &idx) : 0;
  for (size_t i = 0; i < n; i++)
    if (pd_snapshot_find_object(snap, idx[i]) != NULL)
      return true;
  return false;
}

void wp_counters_begin(wp_ctx *c, const pd_snapshot *snap) {
  bool renamed = c->names != c->alt_names;
  c->alt_names = c->names;
  for (size_t i = 0; i < c->counters.count; i++) {
    const wp_counter_entry *e = &c->counters.entries[i];
    wp_entry_rt *rt = &c->rt[i];
    if (rt->card != NULL)
      wp_card_begin(rt->card);
    if (e->alt_count == 0 || (rt->active >= 0 && !renamed))
      continue;
    int chosen = -1;
    for (size_t a = 0; a <= e->alt_count && chosen < 0; a++)
      if (object_present(c, snap, &c->paths[rt->first_path + a]))
        chosen = (int)a;
    if (chosen >= 0 && chosen != rt->active)
      INFO(PLUGIN ": %s:%u:%u: using path %d of %u, %s", c->counters_file,
           e->line, e->column, chosen + 1, (unsigned)(e->alt_count + 1),
           chosen ? e->alts[chosen - 1].path : e->path);
    rt->active = chosen;
  }
}

/* How many counters entry i's path in use matched in the last evaluation. */
static size_t entry_matches(const wp_ctx *c, size_t i) {
  const wp_entry_rt *rt = &c->rt[i];
  return rt->active < 0 ? 0
                        : pd_selection_matches(c->sel, rt->first_path +
                                                           (size_t)rt->active);
}

bool wp_counters_check_matches(wp_ctx *c) {
  c->unmatched = 0;
  c->warned_source_cause = false; /* the source answered */
  for (size_t i = 0; i < c->counters.count; i++) {
    wp_entry_rt *rt = &c->rt[i];
    const wp_counter_entry *e = &c->counters.entries[i];
    if (entry_matches(c, i) > 0) {
      if (rt->warned_no_match)
        INFO(PLUGIN ": %s now matches", e->path);
      rt->warned_no_match = false;
      continue;
    }
    c->unmatched++;
    if (!rt->warned_no_match && e->alt_count > 0)
      WARNING(PLUGIN ": %s:%u:%u: none of the %u paths (the first: %s) "
                     "matches anything in this sample (tried again each "
                     "interval)",
              c->counters_file, e->line, e->column,
              (unsigned)(e->alt_count + 1), e->path);
    else if (!rt->warned_no_match)
      report_no_match(c, e, c->snap[c->cur]);
    rt->warned_no_match = true;
  }
  return c->unmatched > 0;
}

size_t wp_counters_unmatched(const wp_ctx *c) {
  return c->unmatched;
}

/* The max_instances log lines: when the cap starts and stops biting. */
static void log_cap(const wp_ctx *c, const wp_counter_entry *e, wp_entry_rt *rt,
                    const wp_agg *a) {
  if (a->dropped > 0 && !rt->capped)
    INFO(PLUGIN ": %s:%u:%u: max_instances %lu: %u instances, the last %u "
                "in byte order not dispatched (until they are %lu or fewer)",
         c->counters_file, e->line, e->column, e->card.max_instances,
         (unsigned)a->names, (unsigned)a->dropped, e->card.max_instances);
  else if (a->dropped == 0 && rt->capped)
    INFO(PLUGIN ": %s:%u:%u: max_instances %lu: %u instances, all "
                "dispatched again",
         c->counters_file, e->line, e->column, e->card.max_instances,
         (unsigned)a->names);
  rt->capped = a->dropped > 0;
}

/* One entry's results with aggregate or max_instances. */
static size_t dispatch_grouped(wp_ctx *c, size_t entry, const pd_result *res,
                               size_t n) {
  const wp_counter_entry *e = &c->counters.entries[entry];
  wp_entry_rt *rt = &c->rt[entry];
  wp_agg *a = &c->agg;
  size_t sent = 0;
  wp_agg_begin(a, e->card.aggregate, e->card.max_instances);
  for (size_t i = 0; i < n; i++) {
    const pd_result *r = &res[i];
    if (r->instance == NULL) { /* a single instance: nothing to group */
      sent += wp_dispatch_result(c, r);
      continue;
    }
    const wp_card_inst *in =
        rt->card ? wp_card_lookup(rt->card, r->instance) : NULL;
    bool total = in ? in->total : wp_card_is_total(r->instance);
    if (wp_agg_add(a, r, r->instance, in ? in->base : r->instance, total) !=
        0) {
      ERROR(PLUGIN ": %s:%u:%u: out of memory grouping %s; its values are "
                   "skipped this interval",
            c->counters_file, e->line, e->column, e->path);
      return sent;
    }
  }
  wp_agg_finish(a);
  log_cap(c, e, rt, a);
  for (size_t i = 0; i < a->count; i++) {
    const wp_agg_item *it = &a->items[i];
    if (e->card.aggregate == WP_AGG_NONE || it->total)
      sent += wp_dispatch_result(c, it->r);
    else if (it->n > 0)
      sent += wp_dispatch_aggregate(c, it->r, it->name, it->value);
  }
  return sent;
}

size_t wp_counters_dispatch(wp_ctx *c, const pd_result *res, size_t count) {
  size_t sent = 0;
  /* Once an interval, not once a value: hostname_g may change on reload. */
  c->vl_template = (value_list_t)VALUE_LIST_INIT;
  wp_name_sanitize(c->vl_template.host, sizeof c->vl_template.host,
                   c->host ? c->host : hostname_g);
  snprintf(c->vl_template.plugin, sizeof c->vl_template.plugin, "%s", PLUGIN);
  wp_name_cache_tick(&c->name_cache);
  /* Without room for hints the names are found by hash (and it is logged
   * below as out of memory). */
  if (!wp_name_cache_positions(&c->name_cache, count))
    c->name_cache.failed++;
  c->results = res;
  c->result_count = count;
  for (size_t i = 0; i < count;) {
    if (res[i].path_id >= c->path_count) {
      i++;
      continue;
    }
    size_t entry = c->paths[res[i].path_id].entry;
    size_t j = i + 1;
    while (j < count && res[j].path_id < c->path_count &&
           c->paths[res[j].path_id].entry == entry)
      j++;
    const wp_counter_entry *e = &c->counters.entries[entry];
    if (e->card.aggregate != WP_AGG_NONE || e->card.max_instances > 0)
      sent += dispatch_grouped(c, entry, res + i, j - i);
    else
      for (size_t k = i; k < j; k++)
        sent += wp_dispatch_result(c, &res[k]);
    i = j;
  }
  if (c->name_cache.failed > 0) {
    ERROR(PLUGIN ": %s: out of memory keeping values' names for the next "
                 "intervals (%zu times; the values were dispatched, their "
                 "names are built again)",
          wp_ctx_where(c), c->name_cache.failed);
    c->name_cache.failed = 0;
  }
  c->results = NULL;
  c->result_count = 0;
  return sent;
}

/* What the source's failure says about every path: access denied or no
 * RemoteRegistry, where the source can tell (as `winperf doctor`, see
 * src/cli/hostdata.c); PD_SOURCE_ANSWERED when it cannot. */
static pd_source_failure failure_cause(const wp_ctx *c, const char *err) {
  if (c->kind == WP_SOURCE_REMOTE) {
    wp_source_fault fault = wp_source_last_fault(c->src);
    if (fault == WP_SOURCE_FAULT_AUTH || fault == WP_SOURCE_FAULT_ACCESS)
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
                         .detail = NULL,
                         .last_counter = wp_source_last_counter(c->src)};
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
