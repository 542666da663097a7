/* collectd-winperf: one evaluation of a selection over two samples.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * First a plan: every (path, object) pair and the counters each matches,
 * resolved once (names, older positions, type properties), and per
 * counter definition how many paths match it. A definition only one path
 * matches cannot be reported twice, so only the others go through the
 * seen set. Then per instance its full name, pairing and ids come from
 * per-object arrays built once per evaluation (shared by every path), and
 * per value there remain the raw readings, the formula and the result
 * (emit.c; a "(*)" path without a filter has a loop of its own there).
 */
#include "cache_check.h"
#include "pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pd_status no_memory(pd_error *err) {
  return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
}

static const char *index_text(pd_selection *sel, uint32_t index) {
  char num[12];
  int len = snprintf(num, sizeof num, "%u", index);
  return pd_text_dup(&sel->text, num, (size_t)len);
}

/* Name of an object or counter index: the table's, else the number. */
static const char *display_name(pd_selection *sel, uint32_t index) {
  const char *name = sel->names ? pd_names_get(sel->names, index) : NULL;
  return name ? name : index_text(sel, index);
}

static bool counter_matches(const pd_selection *sel, const compiled_path *cp,
                            const pd_counter_def *def) {
  if (cp->path.counter_is_index)
    return def->name_index == cp->numeric_counter;
  const char *name =
      sel->names ? pd_names_get(sel->names, def->name_index) : NULL;
  if (cp->path.counter_has_wildcard) {
    char num[12];
    if (name == NULL) {
      snprintf(num, sizeof num, "%u", def->name_index);
      name = num;
    }
    return pd_wildcard_match(cp->path.counter, name);
  }
  return name != NULL && pd_name_casecmp(cp->path.counter, name) == 0;
}

/* ---------------------------------------------------------------- plan */

/* The counters path_id names in newer's object obj_pos, appended to the
 * plan and claimed. Base and non-numeric counters are never shown alone. */
static pd_status plan_object(pd_selection *sel, size_t path_id,
                             pd_snapshot *older, pd_snapshot *newer,
                             uint32_t obj_pos, pd_error *err) {
  const compiled_path *cp = &sel->paths[path_id];
  const pd_object *obj = pd_snapshot_object(newer, obj_pos);
  const pd_object *old =
      older ? pd_snapshot_find_object(older, obj->name_index) : NULL;
  if (WP_GROW(&sel->plan, &sel->plan_cap, sel->plan_count + 1,
              WP_GROW_NO_CAP) != WP_GROW_OK ||
      WP_GROW(&sel->counters, &sel->counters_cap,
              sel->counter_count + obj->counter_count,
              WP_GROW_NO_CAP) != WP_GROW_OK)
    return no_memory(err);
  path_object *po = &sel->plan[sel->plan_count++];
  if (sel->plan_count > sel->plan_init) { /* never used: nothing known */
    po->done_epoch = 0;
    sel->plan_init = sel->plan_count;
  }
  po->path_id = path_id;
  po->obj_pos = obj_pos;
  po->first = sel->counter_count;
  po->n = 0;
  uint8_t *claims = sel->claims + newer->object_first_counter[obj_pos];
  for (uint32_t c = 0; c < obj->counter_count; c++) {
    const pd_counter_def *def = &obj->counters[c];
    if (!pd_type_is_displayable(def->type) || !counter_matches(sel, cp, def))
      continue;
    matched_counter *m = &sel->counters[sel->counter_count++];
    if (sel->counter_count > sel->counters_init) { /* no template yet */
      memset(&m->tmpl, 0, sizeof m->tmpl);
      sel->counters_init = sel->counter_count;
    }
    po->n++;
    m->pos = c;
    m->props = pd_type_props_of(def->type);
    if (old == NULL || pd_older_counter(old, def, c, &m->old_pos) == NULL)
      m->old_pos = UINT32_MAX;
    if ((m->name = display_name(sel, def->name_index)) == NULL)
      return no_memory(err);
    m->name_len = strlen(m->name);
    claims[c] += claims[c] < 2;
  }
  return PD_OK;
}

/* claims[] beyond the count of paths (0, 1, 2: two or more). */
enum { CLAIM_COUNT = 3, CLAIM_SEEN = 4, CLAIM_COVERED = 8 };

/* Which counters of the plan need deduplicating, in plan order: a counter
 * two paths match goes through the seen set, except that a pass over
 * every instance (a "(*)" path without a filter) reports all of them, so
 * after one nothing is left to report, and before one, when it is the
 * first to match, nothing to look up. */
static void share(pd_selection *sel, const pd_snapshot *newer) {
  for (size_t q = 0; q < sel->plan_count; q++) {
    const path_object *po = &sel->plan[q];
    const compiled_path *cp = &sel->paths[po->path_id];
    bool every = cp->all_instances && cp->filter == NULL &&
                 pd_snapshot_object(newer, po->obj_pos)->num_instances != -1;
    uint8_t *claims = sel->claims + newer->object_first_counter[po->obj_pos];
    for (uint32_t k = 0; k < po->n; k++) {
      matched_counter *m = &sel->counters[po->first + k];
      uint8_t *c = &claims[m->pos];
      m->skip = (*c & CLAIM_COVERED) != 0;
      m->shared =
          (*c & CLAIM_COUNT) > 1 && !m->skip && !(every && !(*c & CLAIM_SEEN));
      *c |= CLAIM_SEEN | (every ? CLAIM_COVERED : 0);
    }
  }
}

/* Every path's (path, object) pairs in path order, then which counters
 * two paths share. */
static pd_status plan(pd_selection *sel, pd_snapshot *older, pd_snapshot *newer,
                      pd_error *err) {
  sel->plan_count = sel->counter_count = 0;
  size_t defs = newer->counter_count;
  if (WP_GROW(&sel->claims, &sel->claims_cap, defs ? defs : 1,
              WP_GROW_NO_CAP) != WP_GROW_OK)
    return no_memory(err);
  memset(sel->claims, 0, defs);
  uint32_t n_objects = pd_snapshot_object_count(newer);
  for (size_t p = 0; p < sel->path_count; p++) {
    compiled_path *cp = &sel->paths[p];
    cp->matches = 0;
    for (size_t j = 0; j < cp->object_count; j++)
      for (uint32_t k = 0; k < n_objects; k++) {
        if (pd_snapshot_object(newer, k)->name_index != cp->objects[j])
          continue;
        pd_status s = plan_object(sel, p, older, newer, k, err);
        if (s != PD_OK)
          return s;
        break; /* the first object with that index, as find_object does */
      }
  }
  share(sel, newer);
  return PD_OK;
}

/* ------------------------------------------------------ one object */

/* A wildcard matches every duplicate of the names it matches: the pattern
 * "svc*" followed by "/0" takes "svchost/0", "SVCHOST/0#1" and
 * "svchost/0#2" (format.md 4.2). Without a wildcard the full name must match,
 * so a name without "#n" means #0. */
static bool instance_matches(const object_pass *op, uint32_t i) {
  const compiled_path *cp = op->cp;
  if (op->inst_names == NULL) /* single instance: no "(...)" or "(*)" */
    return cp->instance_pattern == NULL || cp->all_instances;
  if (cp->instance_pattern == NULL)
    return false;
  if (cp->all_instances)
    return true;
  const char *full = op->inst_names->full[i];
  if (cp->path.instance_has_wildcard) {
    if (pd_wildcard_match(cp->instance_pattern, full))
      return true;
    const char *base = op->inst_names->base[i];
    return base != full && pd_wildcard_match(cp->instance_pattern, base);
  }
  return pd_name_casecmp(cp->instance_pattern, full) == 0;
}

/* The path's filter on instance i: 1 keep, 0 leave out, -1 out of
 * memory. */
static int filter_keeps(const object_pass *op, uint32_t i) {
  const compiled_path *cp = op->cp;
  if (cp->filter == NULL)
    return 1;
  const char *full = op->inst_names ? op->inst_names->full[i] : "";
  const char *base = op->inst_names ? op->inst_names->base[i] : "";
  return cp->filter(cp->filter_ctx, op->po->path_id, full, base);
}

/* The older sample of instance i, NULL for a first sample. */
static pd_status older_instance(object_pass *op, uint32_t i,
                                const pd_instance **old_inst, pd_error *err) {
  const pd_object *old = op->old;
  *old_inst = NULL;
  if (old == NULL)
    return PD_OK;
  if (op->inst_names == NULL) {
    if (old->num_instances == -1 && old->instance_count == 1)
      *old_inst = &old->instances[0];
    return PD_OK;
  }
  pd_status s = PD_OK;
  if (op->pair == NULL &&
      (s = pd_pairing(&op->sel->identity, &op->query, &op->pair, err)) != PD_OK)
    return s;
  if (op->pair[i] == PD_PAIR_BY_NAME &&
      (s = pd_pair_by_full_name(&op->query, op->inst_names, i, &op->pair[i],
                                err)) != PD_OK)
    return s;
  if (op->pair[i] >= 0 && (uint32_t)op->pair[i] < old->instance_count)
    *old_inst = &old->instances[op->pair[i]];
  return PD_OK;
}

/* What instance i's results share: its older sample, names and ids. */
static pd_status view_of(object_pass *op, uint32_t i, instance_view *v,
                         pd_error *err) {
  const pd_instance *in = &op->obj->instances[i];
  v->i = i;
  v->in = in;
  v->full = op->inst_names ? op->inst_names->full[i] : NULL;
  v->pid = op->pid_def ? pd_counter_raw(op->newer, in, op->pid_def) : 0;
  v->tid = op->tid_def ? pd_counter_raw(op->newer, in, op->tid_def) : 0;
  v->id_base = NULL;
  pd_status s = older_instance(op, i, &v->old, err);
  if (s == PD_OK && op->want_base)
    s = pd_identity_base(&op->sel->identity, op->newer, op->obj,
                         op->po->obj_pos, i, &v->id_base, err);
  return s;
}

/* The instances to look at: all, or for an exact name the one it names
 * (hash lookup, not a scan); *first == *end when none. */
static pd_status instance_range(object_pass *op, bool exact, uint32_t *first,
                                uint32_t *end, pd_error *err) {
  const pd_object *obj = op->obj;
  *first = 0;
  *end = obj->instance_count;
  if (obj->num_instances != -1 &&
      (op->inst_names = pd_full_names(op->newer, obj)) == NULL)
    return no_memory(err);
  if (exact) {
    int64_t at = pd_find_instance(op->newer, obj, op->cp->instance_pattern);
    *first = at < 0 ? 0 : (uint32_t)at;
    *end = at < 0 ? 0 : *first + 1;
  }
  return PD_OK;
}

/* Each counter's definitions and template, its formula prepared. */
static void prepare_counters(object_pass *op) {
  const pd_object *obj = op->obj;
  for (uint32_t k = 0; k < op->po->n; k++) {
    matched_counter *m = &op->mc[k];
    m->def = &obj->counters[m->pos];
    m->old_def = op->old != NULL && m->old_pos != UINT32_MAX
                     ? &op->old->counters[m->old_pos]
                     : NULL;
    pd_rate_prepare(m->def->type, op->old ? &op->before : NULL, &op->now,
                    &op->sel->options, &m->rate);
    pd_result tmpl, *t = &tmpl;
    memset(t, 0, sizeof *t);
    t->path_id = op->po->path_id;
    t->object = op->object_name;
    t->counter = m->name;
    t->object_index = obj->name_index;
    t->counter_index = m->def->name_index;
    t->counter_type = m->def->type;
    t->time_100ns = op->t100;
    t->has_pid = op->pid_def != NULL;
    t->has_tid = op->tid_def != NULL;
    /* The slot's last template, its time set to this one's. */
    pd_result was;
    memcpy(&was, &m->tmpl, sizeof was);
    was.time_100ns = t->time_100ns;
    m->same_tmpl = memcmp(&was, t, sizeof was) == 0;
    memcpy(&m->tmpl, t, sizeof *t);
  }
}

/* What op reads for every instance, looked up once. */
static pd_status start_pass(object_pass *op, pd_selection *sel, path_object *po,
                            pd_snapshot *older, pd_snapshot *newer,
                            pd_error *err) {
  memset(op, 0, sizeof *op);
  op->sel = sel;
  op->po = po;
  op->done_epoch = po->done_epoch;
  po->done_epoch = 0; /* until the pass has written its results */
  op->cp = &sel->paths[po->path_id];
  op->older = older;
  op->newer = newer;
  op->obj = pd_snapshot_object(newer, po->obj_pos);
  op->old = older ? pd_snapshot_find_object(older, op->obj->name_index) : NULL;
  op->mc = &sel->counters[po->first];
  op->query = (pd_pair_query){older,
                              op->old,
                              newer,
                              op->obj,
                              po->obj_pos,
                              op->cp->pair_by >= 0 ? (pd_pair_by)op->cp->pair_by
                                                   : sel->identity.pair_by};
  op->want_base = op->query.pair_by == PD_PAIR_BY_ID && sel->want_id_base;
  op->every = op->cp->all_instances && op->cp->filter == NULL &&
              op->obj->num_instances != -1;
  if ((op->object_name = display_name(sel, op->obj->name_index)) == NULL)
    return no_memory(err);
  op->object_len = strlen(op->object_name);
  op->t100 = pd_snapshot_header(newer)->perf_time_100ns;
  pd_identity_positions(&sel->identity, op->obj, po->obj_pos, op->id_pos);
  if (op->id_pos[PD_ID_PROCESS] >= 0)
    op->pid_def = &op->obj->counters[op->id_pos[PD_ID_PROCESS]];
  if (op->id_pos[PD_ID_THREAD] >= 0)
    op->tid_def = &op->obj->counters[op->id_pos[PD_ID_THREAD]];
  pd_sample_clocks(newer, op->obj, &op->now);
  if (op->old != NULL)
    pd_sample_clocks(older, op->old, &op->before);
  prepare_counters(op);
  return PD_OK;
}

/* Whether instance i is one the pass reports: 1 yes, 0 no, -1 out of
 * memory. */
static int wanted(const object_pass *op, bool exact, uint32_t i) {
  if (!exact && !instance_matches(op, i))
    return 0;
  return filter_keeps(op, i);
}

static pd_status evaluate_object(pd_selection *sel, path_object *po,
                                 pd_snapshot *older, pd_snapshot *newer,
                                 pd_error *err) {
  if (po->n == 0) {
    po->done_epoch = 0;
    return PD_OK;
  }
  object_pass op;
  pd_status s = start_pass(&op, sel, po, older, newer, err);
  bool exact = op.cp->instance_pattern != NULL &&
               !op.cp->path.instance_has_wildcard &&
               op.obj->num_instances != -1;
  uint32_t first = 0, end = 0;
  if (s == PD_OK)
    s = instance_range(&op, exact, &first, &end, err);
  if (s == PD_OK && op.every)
    return pd_every_instance(&op, first, end, err);
  for (uint32_t i = first; s == PD_OK && i < end; i++) {
    int keep = wanted(&op, exact, i);
    if (keep <= 0) {
      if (keep < 0)
        return no_memory(err);
      continue;
    }
    instance_view v;
    if ((s = view_of(&op, i, &v, err)) != PD_OK)
      break;
    if (!pd_reserve_results(sel, po->n))
      return no_memory(err);
    op.cp->matches += po->n; /* whether reported here or earlier */
    pd_result *r = sel->results + sel->result_count;
    s = pd_emit(&op, &v, &r, err);
    sel->result_count = (size_t)(r - sel->results);
  }
  return s;
}

pd_status pd_selection_evaluate(pd_selection *sel, pd_snapshot *older,
                                pd_snapshot *newer, const pd_result **results,
                                size_t *count, pd_error *err) {
  if (sel == NULL || newer == NULL)
    return pd_error_set(err, PD_E_ARGUMENT, 0, "no selection or sample");
  sel->epoch++;
  sel->result_count = 0;
  pd_text_reset(&sel->text);
  sel->reported.count = 0;
  wp_table_clear(&sel->reported.index);
  if (!pd_selection_resolve(sel))
    return no_memory(err);
  if (newer->instance_count > UINT32_MAX ||
      !pd_identity_begin(&sel->identity, pd_snapshot_object_count(newer),
                         (uint32_t)newer->instance_count))
    return no_memory(err);
  pd_status s = plan(sel, older, newer, err);
  for (size_t q = 0; s == PD_OK && q < sel->plan_count; q++)
    s = evaluate_object(sel, &sel->plan[q], older, newer, err);
  if (s != PD_OK)
    return s;
  PD_CHECK(pd_check_pairings(sel, older, newer));
  *results = sel->results;
  *count = sel->result_count;
  return PD_OK;
}

char *pd_result_path(const pd_result *r, char *out, size_t len) {
  if (out == NULL || len == 0)
    return out;
  const char *inst = r->instance;
  snprintf(out, len, "\\%s%s%s%s\\%s", r->object ? r->object : "",
           inst ? "(" : "", inst ? inst : "", inst ? ")" : "",
           r->counter ? r->counter : "");
  return out;
}
