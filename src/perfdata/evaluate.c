/* collectd-winperf: one evaluation of a selection over two samples.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The plan (select.c) lists every (path, object) pair and the counters
 * each matches. Each pair is one pass here: its instances (all, the ones a
 * pattern matches, or the one an exact name finds, filtered by the path's
 * filter), per instance its full name, pairing and ids from per-object
 * arrays built once per evaluation (shared by every path), and per value
 * the raw readings, the formula (pd_rate_value, type_props.h) and the
 * result. Each result starts as its counter's template (filled once per
 * pass: path, names, indices, type, time). A counter two paths of one
 * group match is reported once (pd_reported). A "(*)" pass without a
 * filter reads the object's pairing directly and, when every counter is a
 * plain value, runs a loop made for it: each reading one 8-byte load and a
 * mask where the blob allows, and for one counter the formula's kind fixed
 * for the whole loop.
 */
#include "cache_check.h"
#include "selection.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one (path, object) pair reads per instance, looked up once. */
typedef struct object_pass {
  pd_selection *sel;
  path_object *po;
  uint64_t done_epoch; /* po's, before this evaluation cleared it */
  compiled_path *cp;
  pd_snapshot *older, *newer;
  const pd_object *obj, *old;
  const pd_instance_names *inst_names; /* NULL: a single-instance object */
  matched_counter *mc;
  pd_pair_query query; /* how obj pairs with old */
  int32_t *pair;       /* the object's pairing, NULL until first needed */
  int32_t id_pos[PD_ID_KINDS];
  const pd_counter_def *pid_def, *tid_def; /* ID Process, ID Thread, or NULL */
  bool every;     /* every instance and no filter: nothing to match */
  bool want_base; /* id_base looked up per instance */
  const char *object_name;
  size_t object_len;
  int64_t t100;
  pd_sample now, before;
} object_pass;

/* What the results of one instance share. */
typedef struct instance_view {
  uint32_t i;
  const pd_instance *in, *old; /* old: its older sample, NULL: none */
  const char *full, *id_base;
  uint64_t pid, tid;
} instance_view;

static pd_status no_memory(pd_error *err) {
  return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
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
  op->old = older ? pd_object_by_index(older, op->obj->name_index) : NULL;
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
  if ((op->object_name = pd_display_name(sel, op->obj->name_index)) == NULL)
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

/* ------------------------------------------------------- results */

/* The canonical path of a result (pd_selection_set_paths). */
static const char *result_path(object_pass *op, const matched_counter *m,
                               const char *full) {
  return pd_text_path(&op->sel->text, (sized){op->object_name, op->object_len},
                      (sized){full, full ? strlen(full) : 0},
                      (sized){m->name, m->name_len});
}

static bool reserve_results(pd_selection *sel, size_t n) {
  return n <= SIZE_MAX - sel->result_count &&
         WP_GROW(&sel->results, &sel->result_cap, sel->result_count + n,
                 WP_GROW_NO_CAP) == WP_GROW_OK;
}

/* ---------------------------------------------- values two paths share */

typedef struct reported_key {
  const pd_reported *r;
  pd_value_key key;
} reported_key;

static bool same_value(const void *ctx, uint32_t value) {
  const reported_key *k = ctx;
  const pd_value_key *a = &k->r->key[value - 1], *b = &k->key;
  return a->group == b->group && a->obj_pos == b->obj_pos &&
         a->instance == b->instance && a->counter == b->counter;
}

/* 1 when key is reported first now (remembered), 0 when an earlier path
 * reported it, -1 out of memory (never "reported": that would lose it). */
static int report_first(pd_reported *r, pd_value_key key) {
  if (WP_GROW(&r->key, &r->cap, r->count + 1, WP_TABLE_MAX) != WP_GROW_OK ||
      wp_table_reserve(&r->index, r->count + 1) != WP_GROW_OK)
    return -1;
  reported_key k = {r, key};
  uint32_t h = wp_hash32(wp_hash_bytes(&key, sizeof key));
  if (wp_table_find_or_put(&r->index, h, (uint32_t)r->count + 1, same_value,
                           &k) != 0)
    return 0;
  r->key[r->count++] = key;
  return 1;
}

/* The general formula of one value (pd_compute_props), for the types
 * without a prepared plan. */
static void compute_one(object_pass *op, const matched_counter *m,
                        const instance_view *v, pd_result *r) {
  pd_sample_read(op->newer, op->obj, v->in, m->pos, m->props.needs_base,
                 &op->now);
  const pd_sample *prev = NULL;
  if (v->old != NULL && m->old_def != NULL) {
    pd_sample_read(op->older, op->old, v->old, m->old_pos, m->props.needs_base,
                   &op->before);
    prev = &op->before;
  }
  r->status = pd_compute_props(m->def->type, m->props, prev, &op->now,
                               &op->sel->options, &r->value);
  r->raw_value = op->now.value;
  r->raw_base = op->now.base;
}

/* Counter m of v's instance into r: the counter's template, then what
 * differs per value. */
static inline void put_value(object_pass *op, const matched_counter *m,
                             const instance_view *v, pd_result *r) {
  *r = m->tmpl;
  r->instance = v->full;
  r->pid = v->pid;
  r->tid = v->tid;
  r->id_base = v->id_base;
  if (m->rate.kind == PD_FAST_NONE) {
    compute_one(op, m, v, r);
    return;
  }
  uint64_t n1 = pd_counter_raw(op->newer, v->in, m->def), n0 = 0;
  bool paired = v->old != NULL && m->old_def != NULL;
  if (paired)
    n0 = pd_counter_raw(op->older, v->old, m->old_def);
  r->status = pd_rate_compute(&m->rate, paired ? &n0 : NULL, n1, &r->value);
  r->raw_value = n1;
}

/* Counter m of instance i as the pass's group reports it. */
static inline pd_value_key value_key(const object_pass *op, uint32_t i,
                                     const matched_counter *m) {
  return (pd_value_key){op->cp->group, op->po->obj_pos, i, m->pos};
}

#ifndef NDEBUG
/* Debug builds: counter m of instance i matched, reported here or not
 * (the dedup check, cache_check.h). */
static void log_matched(const object_pass *op, uint32_t i,
                        const matched_counter *m, bool reported) {
  pd_value_key key = value_key(op, i, m);
  pd_check_matched(op->sel, &key, op->po->path_id, reported);
}
#endif

/* Every counter of the pass for v's instance from *out on (room made):
 * one result each, but a shared counter only when no earlier path of the
 * group reported it. *out ends past the last. */
static pd_status emit(object_pass *op, const instance_view *v, pd_result **out,
                      pd_error *err) {
  const matched_counter *mc = op->mc;
  const uint32_t n = op->po->n;
  pd_result *r = *out;
  for (uint32_t k = 0; k < n; k++) {
    const matched_counter *m = &mc[k];
    if (m->skip) {
      PD_CHECK(log_matched(op, v->i, m, false));
      continue;
    }
    if (m->shared) {
      int fresh = report_first(&op->sel->reported, value_key(op, v->i, m));
      if (fresh < 0)
        return no_memory(err);
      if (fresh == 0) {
        PD_CHECK(log_matched(op, v->i, m, false));
        continue;
      }
    }
    PD_CHECK(log_matched(op, v->i, m, true));
    put_value(op, m, v, r);
    if (op->sel->want_paths && (r->path = result_path(op, m, v->full)) == NULL)
      return no_memory(err);
    *out = ++r;
  }
  return PD_OK;
}

/* ------------------------------------------- every instance, plainly */

/* A counter read in every instance of an object as one little-endian
 * 8-byte load at `offset` of the counter block, masked to its size: for a
 * 4-byte counter, 4 bytes past its own (quick_read asserts they are in the
 * blob). */
typedef struct quick_load {
  uint32_t offset;
  uint64_t mask;
  const uint8_t *end; /* the blob's end: every load stays before it */
} quick_load;

/* def's quick load in obj of snap, false when it has none: big-endian or
 * another size, or 8 bytes at its offset would run past the blob in the
 * last instance's block (the blocks follow each other: it is the last in
 * the blob). No def: a load masked to 0, the id an object lacks. */
static bool quick_load_of(const pd_snapshot *snap, const pd_object *obj,
                          const pd_counter_def *def, quick_load *q) {
  if (obj->instance_count == 0)
    return false;
  const pd_instance *last = &obj->instances[obj->instance_count - 1];
  size_t room = (size_t)(snap->bytes.data + snap->bytes.len - last->block);
  q->end = snap->bytes.data + snap->bytes.len;
  q->offset = def ? def->offset : 0;
  q->mask = def == NULL                 ? 0
            : def->load == PD_LOAD_LE32 ? UINT32_MAX
                                        : UINT64_MAX;
  return (def == NULL || def->load == PD_LOAD_LE32 ||
          def->load == PD_LOAD_LE64) &&
         room >= 8 && q->offset <= room - 8;
}

/* The one read past a counter's own bytes: 8 at its offset, masked to
 * its size. quick_load_of checked that the last instance's load ends
 * before the blob does (the blocks follow each other); asserted here. */
static inline uint64_t quick_read(const pd_instance *in, quick_load q) {
  assert(in->block + q.offset + 8 <= q.end);
  return wire_le64(in->block + q.offset) & q.mask;
}

/* The loads of a plain pass: per counter its newer and older readings. */
typedef struct quick_pass {
  quick_load pid, tid;
  quick_load now[4], then[4];
} quick_pass;

enum { QUICK_MAX = 4 }; /* counters of a pass the quick loop takes */

/* Whether the pass's every reading has a quick load (both samples). */
static bool quick_loads(const object_pass *op, quick_pass *qp) {
  if (op->po->n > QUICK_MAX || op->old == NULL ||
      !quick_load_of(op->newer, op->obj, op->pid_def, &qp->pid) ||
      !quick_load_of(op->newer, op->obj, op->tid_def, &qp->tid))
    return false;
  for (uint32_t k = 0; k < op->po->n; k++) {
    const matched_counter *m = &op->mc[k];
    if (m->old_def == NULL ||
        !quick_load_of(op->newer, op->obj, m->def, &qp->now[k]) ||
        !quick_load_of(op->older, op->old, m->old_def, &qp->then[k]))
      return false;
  }
  return true;
}

/* What a plain value writes over its counter's template. */
typedef struct plain_value {
  const char *instance;
  uint64_t pid, tid, raw;
  double value;
  pd_value_status status;
} plain_value;

/* fixed: r holds the template already (but for its time). */
static inline __attribute__((always_inline)) void
put_plain(pd_result *r, const pd_result *tmpl, const plain_value *v,
          bool fixed) {
  if (fixed)
    r->time_100ns = tmpl->time_100ns;
  else
    *r = *tmpl;
  r->instance = v->instance;
  r->pid = v->pid;
  r->tid = v->tid;
  r->raw_value = v->raw;
  r->value = v->value;
  r->status = v->status;
}

/* Instances [first, end) of a plain pass whose readings all have quick
 * loads, from r on; kind: every counter's, or PD_FAST_NONE for mixed.
 * Inlined per kind, so the formula's branches go. */
static inline __attribute__((always_inline)) void
quick_instances(const object_pass *op, const quick_pass *qp,
                const int32_t *pair, uint32_t first, uint32_t end, pd_result *r,
                bool fixed, uint8_t kind) {
  const pd_instance *const ins = op->obj->instances;
  const pd_instance *const olds = op->old->instances;
  const uint32_t old_count = op->old->instance_count, n = op->po->n;
  const char *const *const full = op->inst_names->full;
  const matched_counter *const mc = op->mc;
  for (uint32_t i = first; i < end; i++) {
    const pd_instance *in = &ins[i];
    int32_t j = pair[i];
    const pd_instance *old =
        j >= 0 && (uint32_t)j < old_count ? &olds[j] : NULL;
    const char *name = full[i];
    uint64_t pid = quick_read(in, qp->pid), tid = quick_read(in, qp->tid);
    for (uint32_t k = 0; k < n; k++, r++) {
      const matched_counter *m = &mc[k];
      uint64_t n1 = quick_read(in, qp->now[k]);
      uint64_t n0 = old ? quick_read(old, qp->then[k]) : 0;
      double value;
      pd_value_status st =
          pd_rate_value(&m->rate, kind == PD_FAST_NONE ? m->rate.kind : kind,
                        old != NULL, n0, n1, &value);
      put_plain(r, &m->tmpl, &(plain_value){name, pid, tid, n1, value, st},
                fixed);
    }
  }
}

/* The same with pd_counter_raw's loads, for readings without quick ones. */
static void plain_instances(const object_pass *op, const int32_t *pair,
                            uint32_t first, uint32_t end, pd_result *r,
                            bool fixed) {
  const pd_instance *const ins = op->obj->instances;
  const pd_instance *const olds = op->old ? op->old->instances : NULL;
  const uint32_t old_count = op->old ? op->old->instance_count : 0;
  const uint32_t n = op->po->n;
  const pd_counter_def *const pid_def = op->pid_def, *const tid_def =
                                                         op->tid_def;
  const char *const *const full = op->inst_names->full;
  const matched_counter *const mc = op->mc;
  for (uint32_t i = first; i < end; i++) {
    const pd_instance *in = &ins[i], *old = NULL;
    if (pair != NULL && pair[i] >= 0 && (uint32_t)pair[i] < old_count)
      old = &olds[pair[i]];
    const char *name = full[i];
    uint64_t pid = pid_def ? pd_counter_raw(NULL, in, pid_def) : 0;
    uint64_t tid = tid_def ? pd_counter_raw(NULL, in, tid_def) : 0;
    for (uint32_t k = 0; k < n; k++, r++) {
      const matched_counter *m = &mc[k];
      uint64_t n1 = pd_counter_raw(NULL, in, m->def), n0 = 0;
      bool paired = old != NULL && m->old_def != NULL;
      if (paired)
        n0 = pd_counter_raw(NULL, old, m->old_def);
      double value;
      pd_value_status st =
          pd_rate_compute(&m->rate, paired ? &n0 : NULL, n1, &value);
      put_plain(r, &m->tmpl, &(plain_value){name, pid, tid, n1, value, st},
                fixed);
    }
  }
}

/* Whether every counter of the pass is a plain value: a prepared formula,
 * reported by this path alone, without a path or id_base to add. */
static bool plain_counters(const object_pass *op) {
  if (op->sel->want_paths || op->want_base)
    return false;
  for (uint32_t k = 0; k < op->po->n; k++)
    if (op->mc[k].shared || op->mc[k].skip ||
        op->mc[k].rate.kind == PD_FAST_NONE)
      return false;
  return true;
}

/* Whether the results from `at` on hold the pass's templates already:
 * the last evaluation's results there (left as they were: the caller
 * only reads them) came from this plan entry, as many of them, written
 * plainly from the same templates but for the time. */
static bool in_place(const object_pass *op, size_t at, size_t values) {
  const path_object *po = op->po;
  if (op->done_epoch == 0 || op->done_epoch + 1 != op->sel->epoch ||
      po->done_at != at || po->done_values != values ||
      po->done_first != po->first)
    return false;
  for (uint32_t k = 0; k < po->n; k++)
    if (!op->mc[k].same_tmpl)
      return false;
  return true;
}

#ifndef NDEBUG
/* Debug builds: the results of a plain pass (values of them, n counters
 * an instance from r on) carry their counters' templates, whether written
 * whole or left in place (in_place) and given only what varies. */
static void check_templates(const object_pass *op, const pd_result *r,
                            size_t values) {
  const uint32_t n = op->po->n;
  for (size_t v = 0; v < values; v++) {
    const pd_result *x = &r[v], *t = &op->mc[v % n].tmpl;
    assert(x->path_id == t->path_id && x->path == t->path &&
           x->object == t->object && x->counter == t->counter &&
           x->object_index == t->object_index &&
           x->counter_index == t->counter_index &&
           x->counter_type == t->counter_type &&
           x->time_100ns == t->time_100ns && x->has_pid == t->has_pid &&
           x->has_tid == t->has_tid && x->id_base == t->id_base &&
           x->raw_base == t->raw_base);
  }
}

/* Debug builds: every value of instances [first, end) of a plain pass as
 * matched and reported (the dedup check, cache_check.h). */
static void matched_all(const object_pass *op, uint32_t first, uint32_t end) {
  for (uint32_t i = first; i < end; i++)
    for (uint32_t k = 0; k < op->po->n; k++)
      log_matched(op, i, &op->mc[k], true);
}
#endif

/* Instances [first, end) of a plain pass, pairs resolved, room made. */
static void plain_pass(const object_pass *op, const int32_t *pair,
                       uint32_t first, uint32_t end, pd_result *r, bool fixed) {
  quick_pass qp;
  if (pair == NULL || !quick_loads(op, &qp)) {
    plain_instances(op, pair, first, end, r, fixed);
    return;
  }
  switch (op->po->n == 1 ? op->mc[0].rate.kind : PD_FAST_NONE) {
  case PD_FAST_RAW:
    quick_instances(op, &qp, pair, first, end, r, fixed, PD_FAST_RAW);
    break;
  case PD_FAST_PER_SECOND:
    quick_instances(op, &qp, pair, first, end, r, fixed, PD_FAST_PER_SECOND);
    break;
  case PD_FAST_TIMER:
    quick_instances(op, &qp, pair, first, end, r, fixed, PD_FAST_TIMER);
    break;
  case PD_FAST_TIMER_INV:
    quick_instances(op, &qp, pair, first, end, r, fixed, PD_FAST_TIMER_INV);
    break;
  default:
    quick_instances(op, &qp, pair, first, end, r, fixed, PD_FAST_NONE);
    break;
  }
}

/* Every instance in [first, end) of a pass over all instances without a
 * filter (op->every), appended to the results and counted as matched.
 * noinline: inlined into evaluate_object (its one caller), its loops run
 * short of registers, about 5 instructions a value more (callgrind). */
static __attribute__((noinline)) pd_status
every_instance(object_pass *op, uint32_t first, uint32_t end, pd_error *err) {
  pd_selection *sel = op->sel;
  const uint32_t n = op->po->n;
  if (!reserve_results(sel, (size_t)(end - first) * n))
    return no_memory(err);
  if (first == end)
    return PD_OK;
  pd_status s = PD_OK;
  int32_t *pair = NULL;
  if (op->old != NULL &&
      (s = pd_pairing_resolved(&sel->identity, &op->query, op->inst_names,
                               &pair, err)) != PD_OK)
    return s;
  op->cp->matches += (size_t)(end - first) * n; /* reported or not */
  pd_result *r = sel->results + sel->result_count;
  if (plain_counters(op)) {
    path_object *po = op->po;
    size_t at = sel->result_count, values = (size_t)(end - first) * n;
    plain_pass(op, pair, first, end, r, in_place(op, at, values));
    PD_CHECK(check_templates(op, r, values));
    PD_CHECK(matched_all(op, first, end));
    sel->result_count += values;
    po->done_epoch = sel->epoch;
    po->done_at = at;
    po->done_values = values;
    po->done_first = po->first;
    return PD_OK;
  }
  const pd_instance *const olds = op->old ? op->old->instances : NULL;
  const uint32_t old_count = op->old ? op->old->instance_count : 0;
  for (uint32_t i = first; s == PD_OK && i < end; i++) {
    const pd_instance *in = &op->obj->instances[i];
    instance_view v = {.i = i, .in = in, .full = op->inst_names->full[i]};
    if (pair != NULL && pair[i] >= 0 && (uint32_t)pair[i] < old_count)
      v.old = &olds[pair[i]];
    v.pid = op->pid_def ? pd_counter_raw(NULL, in, op->pid_def) : 0;
    v.tid = op->tid_def ? pd_counter_raw(NULL, in, op->tid_def) : 0;
    if (op->want_base)
      s = pd_identity_base(&sel->identity, op->newer, op->obj, op->po->obj_pos,
                           i, &v.id_base, err);
    if (s == PD_OK)
      s = emit(op, &v, &r, err);
  }
  sel->result_count = (size_t)(r - sel->results);
  return s;
}

/* ------------------------------------------------------ the passes */

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
    return every_instance(&op, first, end, err);
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
    if (!reserve_results(sel, po->n))
      return no_memory(err);
    op.cp->matches += po->n; /* whether reported here or earlier */
    pd_result *r = sel->results + sel->result_count;
    s = emit(&op, &v, &r, err);
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
  PD_CHECK(pd_check_matched_begin(sel));
  if (!pd_selection_resolve(sel))
    return no_memory(err);
  if (newer->instance_count > UINT32_MAX ||
      !pd_identity_begin(&sel->identity, pd_snapshot_object_count(newer),
                         (uint32_t)newer->instance_count))
    return no_memory(err);
  pd_status s = pd_selection_plan(sel, older, newer, err);
  for (size_t q = 0; s == PD_OK && q < sel->plan_count; q++)
    s = evaluate_object(sel, &sel->plan[q], older, newer, err);
  if (s != PD_OK)
    return s;
  PD_CHECK(pd_check_pairings(sel, older, newer));
  PD_CHECK(pd_check_dedup(sel));
  *results = sel->results;
  *count = sel->result_count;
  return PD_OK;
}
