/* collectd-winperf: instance identity and pairing by it (see identity.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Pairing one object, in the order pd_pairing tries:
 *   by id        (pair_by_id): both samples' instances into a table by
 *                (ID Process, ID Thread), each newer one looked up in the
 *                older's; kept for the next evaluation (pd_pair_memo) when
 *                nothing about the names and ids changed;
 *   by position  (pair_same_positions): the two samples name their
 *                instances alike, so an instance whose parent's name and
 *                "#n" are the same is the one at its own position;
 *   by full name (pair_one_by_name): the older object's instance index
 *                (full_names.c), looked at where the last one was found
 *                relative to its position first.
 */
#include "identity.h"

#include <stdlib.h>
#include <string.h>

enum { POS_UNKNOWN = -1, POS_NONE = -2 };
enum { KEYED_UNKNOWN = -1, KEYED_NAME = 0, KEYED_ID = 1 };

static const char *const id_names[PD_ID_KINDS] = {"ID Process", "ID Thread"};
static const uint32_t id_standard[PD_ID_KINDS] = {PD_INDEX_ID_PROCESS,
                                                  PD_INDEX_ID_THREAD};

static void table_free(pd_id_table *t) {
  free(t->entry);
  wp_table_free(&t->index);
}

void pd_identity_free(pd_identity *id) {
  free(id->resolved);
  for (int k = 0; k < PD_PAIR_MEMOS; k++)
    free(id->memo[k].pair);
  free(id->pos);
  free(id->pair[0]);
  free(id->pair[1]);
  free(id->keyed);
  table_free(&id->older);
  table_free(&id->newer);
}

void pd_identity_resolve(pd_identity *id, const pd_names *names) {
  for (int k = 0; k < PD_ID_KINDS; k++) {
    pd_id_indices *ids = &id->ids[k];
    ids->count = names ? pd_names_lookup(names, id_names[k], &ids->index) : 0;
    if (ids->count == 0) {
      ids->index = &id_standard[k];
      ids->count = 1;
    }
  }
}

bool pd_identity_begin(pd_identity *id, uint32_t objects, uint32_t instances) {
  id->instances = instances;
  id->pair_ready[0] = id->pair_ready[1] = id->keyed_ready = false;
  size_t need = (size_t)objects * PD_ID_KINDS;
  if (WP_GROW(&id->pos, &id->pos_cap, need, WP_GROW_NO_CAP) != WP_GROW_OK ||
      WP_GROW(&id->resolved, &id->resolved_cap, need, WP_GROW_NO_CAP) !=
          WP_GROW_OK)
    return false;
  if (need > 0) { /* every position POS_UNKNOWN (-1), nothing resolved */
    memset(id->pos, 0xFF, need * sizeof *id->pos);
    memset(id->resolved, 0, need);
  }
  return true;
}

/* Position of obj's first readable counter carrying identity `kind`. */
static int32_t id_counter(const pd_identity *id, const pd_object *obj,
                          int kind) {
  const pd_id_indices *ids = &id->ids[kind];
  for (uint32_t c = 0; c < obj->counter_count && c <= INT32_MAX; c++) {
    const pd_counter_def *def = &obj->counters[c];
    if (def->size != 4 && def->size != 8)
      continue;
    for (size_t j = 0; j < ids->count; j++)
      if (def->name_index == ids->index[j])
        return (int32_t)c;
  }
  return POS_NONE;
}

/* The id counters' positions for newer's object obj_pos (cached), or for
 * any object when obj_pos is UINT32_MAX. */
static void id_positions(pd_identity *id, const pd_object *obj,
                         uint32_t obj_pos, int32_t out[PD_ID_KINDS]) {
  int32_t *pos =
      obj_pos == UINT32_MAX ? NULL : &id->pos[(size_t)obj_pos * PD_ID_KINDS];
  if (pos != NULL && pos[PD_ID_PROCESS] != POS_UNKNOWN) {
    memcpy(out, pos, PD_ID_KINDS * sizeof *out);
    return;
  }
  for (int k = 0; k < PD_ID_KINDS; k++)
    out[k] = id_counter(id, obj, k);
  if (pos != NULL)
    memcpy(pos, out, PD_ID_KINDS * sizeof *out);
}

void pd_identity_positions(pd_identity *id, const pd_object *obj,
                           uint32_t obj_pos, int32_t pos[PD_ID_KINDS]) {
  id_positions(id, obj, obj_pos, pos);
}

/* Instance inst's ids (pos from id_positions). */
static pd_ids ids_of(const int32_t pos[PD_ID_KINDS], const pd_object *obj,
                     const pd_instance *inst) {
  pd_ids r = {pos[PD_ID_PROCESS] >= 0, pos[PD_ID_THREAD] >= 0, 0, 0};
  if (r.has_pid)
    r.pid = pd_counter_raw(NULL, inst, &obj->counters[pos[PD_ID_PROCESS]]);
  if (r.has_tid)
    r.tid = pd_counter_raw(NULL, inst, &obj->counters[pos[PD_ID_THREAD]]);
  return r;
}

/* ------------------------------------------------ the tables by id */

typedef struct id_key {
  const pd_id_table *t;
  uint64_t pid, tid;
} id_key;

static uint32_t id_hash(uint64_t pid, uint64_t tid) {
  uint64_t key[2] = {pid, tid};
  return wp_hash32(wp_hash_bytes(key, sizeof key));
}

static bool same_id(const void *ctx, uint32_t value) {
  const id_key *k = ctx;
  const pd_id_entry *e = &k->t->entry[value - 1];
  return e->pid == k->pid && e->tid == k->tid;
}

/* The entry of the instance of t with e's ids, or NULL. */
static const pd_id_entry *id_lookup(const pd_id_table *t,
                                    const pd_id_entry *e) {
  id_key k = {t, e->pid, e->tid};
  uint32_t v = wp_table_find(&t->index, e->hash, same_id, &k);
  return v == 0 ? NULL : &t->entry[v - 1];
}

/* An instance that pairs by its id: not _Total, no zero id. */
static bool has_usable_id(pd_snapshot *snap, const pd_object *obj, uint32_t i,
                          pd_ids ids) {
  if (ids.pid == 0 || (ids.has_tid && ids.tid == 0))
    return false;
  const char *own = pd_instance_name(snap, obj, i);
  /* Nothing folds to '_': other first characters are not _Total. */
  return own != NULL && (own[0] != '_' || pd_name_casecmp(own, "_Total") != 0);
}

/* Every instance of obj into t, those with a usable id indexed; an id
 * seen twice makes every instance with it PD_ID_DUPLICATE. False when
 * out of memory. */
static bool fill_table(pd_id_table *t, pd_snapshot *snap, const pd_object *obj,
                       const int32_t pos[PD_ID_KINDS]) {
  wp_table_clear(&t->index);
  if (WP_GROW(&t->entry, &t->cap, obj->instance_count, WP_TABLE_MAX) !=
          WP_GROW_OK ||
      wp_table_reserve(&t->index, obj->instance_count) != WP_GROW_OK)
    return false;
  for (uint32_t i = 0; i < obj->instance_count; i++) {
    pd_ids ids = ids_of(pos, obj, &obj->instances[i]);
    pd_id_entry *e = &t->entry[i];
    *e = (pd_id_entry){ids.pid, ids.tid, 0, PD_ID_UNUSABLE};
    if (!has_usable_id(snap, obj, i, ids))
      continue;
    e->hash = id_hash(ids.pid, ids.tid);
    e->state = PD_ID_UNIQUE;
    id_key k = {t, ids.pid, ids.tid};
    uint32_t v = wp_table_find_or_put(&t->index, e->hash, i + 1, same_id, &k);
    if (v != 0)
      e->state = t->entry[v - 1].state = PD_ID_DUPLICATE;
  }
  return true;
}

/* ------------------------------------------------------ pairing by id */

/* Where instance i of q's newer object finds its older sample (both
 * tables filled). */
static int32_t pair_one_by_id(pd_identity *id, const pd_pair_query *q,
                              uint32_t i, bool same_names) {
  const pd_object *obj = q->obj;
  const pd_id_entry *e = &id->newer.entry[i];
  if (e->state != PD_ID_UNIQUE)
    return PD_PAIR_BY_NAME;
  const pd_id_entry *was = id_lookup(&id->older, e);
  if (was == NULL)
    return PD_PAIR_NONE; /* a new process (or thread) */
  if (was->state == PD_ID_DUPLICATE)
    return PD_PAIR_BY_NAME;
  int32_t j = (int32_t)(was - id->older.entry);
  /* A reused id under another name is another process. */
  if (same_names && (uint32_t)j == i)
    return j; /* named as then, position by position */
  const char *now = pd_instance_base_name(q->newer, obj, i);
  const char *then = pd_instance_base_name(q->older, q->old, (uint32_t)j);
  if (now == NULL || then == NULL)
    return PD_PAIR_BY_NAME;
  return pd_name_casecmp(now, then) == 0 ? j : PD_PAIR_NONE;
}

/* Whether the instances of old and obj, position by position, carry the
 * same ids (pos_old, pos_new: where). */
static bool same_ids(const pd_object *old, const int32_t pos_old[PD_ID_KINDS],
                     const pd_object *obj, const int32_t pos_new[PD_ID_KINDS]) {
  if (old->instance_count != obj->instance_count)
    return false;
  const pd_counter_def *po = &old->counters[pos_old[PD_ID_PROCESS]],
                       *pn = &obj->counters[pos_new[PD_ID_PROCESS]];
  const pd_counter_def *to = pos_old[PD_ID_THREAD] >= 0
                                 ? &old->counters[pos_old[PD_ID_THREAD]]
                                 : NULL,
                       *tn = pos_new[PD_ID_THREAD] >= 0
                                 ? &obj->counters[pos_new[PD_ID_THREAD]]
                                 : NULL;
  for (uint32_t i = 0; i < obj->instance_count; i++) {
    const pd_instance *a = &old->instances[i], *b = &obj->instances[i];
    if (pd_counter_raw(NULL, a, po) != pd_counter_raw(NULL, b, pn) ||
        (to != NULL &&
         pd_counter_raw(NULL, a, to) != pd_counter_raw(NULL, b, tn)))
      return false;
  }
  return true;
}

/* The memo of objects with obj's index (the last one kept, or the one to
 * replace). */
static pd_pair_memo *memo_of(pd_identity *id, const pd_object *obj) {
  for (int k = 0; k < PD_PAIR_MEMOS; k++)
    if (id->memo[k].decode_id != 0 &&
        id->memo[k].object_index == obj->name_index)
      return &id->memo[k];
  pd_pair_memo *m = &id->memo[id->memo_next++ % PD_PAIR_MEMOS];
  m->decode_id = 0;
  return m;
}

/* Keep q's pairing (newer's) for the next evaluation; false when out of
 * memory. */
static bool memo_keep(pd_pair_memo *m, const pd_pair_query *q,
                      const int32_t *pair, bool stable) {
  const pd_object *obj = q->obj;
  m->decode_id = 0;
  if (WP_GROW(&m->pair, &m->cap, obj->instance_count, WP_GROW_NO_CAP) !=
      WP_GROW_OK)
    return false;
  if (obj->instance_count > 0)
    memcpy(m->pair, pair, (size_t)obj->instance_count * sizeof *pair);
  m->object_index = obj->name_index;
  m->count = obj->instance_count;
  m->obj_pos = q->obj_pos;
  m->stable = stable;
  m->decode_id = q->newer->decode_id;
  return true;
}

/* Pair every instance of q's object by id into pair[] (*paired true);
 * PD_OK without touching pair (*paired false) when the object has no ID
 * Process counter in both samples or q pairs by name. */
static pd_status pair_by_id(pd_identity *id, const pd_pair_query *q,
                            int32_t *pair, bool *paired, pd_error *err) {
  const pd_object *obj = q->obj, *old = q->old;
  *paired = false;
  if (q->pair_by != PD_PAIR_BY_ID || obj->num_instances == -1)
    return PD_OK;
  int32_t pos_new[PD_ID_KINDS], pos_old[PD_ID_KINDS];
  id_positions(id, obj, q->obj_pos, pos_new);
  id_positions(id, old, UINT32_MAX, pos_old);
  /* Both samples need the same kind of key. */
  if (pos_new[PD_ID_PROCESS] < 0 || pos_old[PD_ID_PROCESS] < 0 ||
      (pos_new[PD_ID_THREAD] >= 0) != (pos_old[PD_ID_THREAD] >= 0))
    return PD_OK;
  /* Names (own and full) of both objects first: once built they cannot
   * fail below, so an allocation failure is an error, never a process
   * taken for a new one. */
  if ((old->instance_count > 0 &&
       pd_instance_base_name(q->older, old, 0) == NULL) ||
      (obj->instance_count > 0 &&
       pd_instance_base_name(q->newer, obj, 0) == NULL))
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  bool same = pd_instances_same_names(q->older, old, q->newer, obj);
  bool stable = same && same_ids(old, pos_old, obj, pos_new);
  pd_pair_memo *m = memo_of(id, obj);
  *paired = true;
  /* Named and numbered as in the last evaluation, then as now: the same
   * pairing (pair_one_by_id reads nothing else). */
  if (stable && m->decode_id == q->older->decode_id && m->stable &&
      m->count == obj->instance_count &&
      pd_snapshot_object(q->older, m->obj_pos) == old) {
    if (obj->instance_count > 0)
      memcpy(pair, m->pair, (size_t)obj->instance_count * sizeof *pair);
    m->decode_id = q->newer->decode_id;
    return PD_OK;
  }
  if (!fill_table(&id->older, q->older, old, pos_old) ||
      !fill_table(&id->newer, q->newer, obj, pos_new))
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  for (uint32_t i = 0; i < obj->instance_count; i++)
    pair[i] = pair_one_by_id(id, q, i, same);
  if (!memo_keep(m, q, pair, stable))
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  return PD_OK;
}

/* ------------------------------------------------ pairing by position */

/* Whether parent instance p (of pa in a, pb in b; NULL when missing)
 * gives the same base name in both: both missing or out of range (the
 * plain own name), or both there with the same own name. */
static bool same_parent_name(const pd_object *pa, const pd_instance_names *na,
                             const pd_object *pb, const pd_instance_names *nb,
                             uint32_t p) {
  bool in_a = pa != NULL && p < pa->instance_count,
       in_b = pb != NULL && p < pb->instance_count;
  if (!in_a || !in_b)
    return in_a == in_b;
  return na->own_len[p] == nb->own_len[p] &&
         memcmp(na->name[p], nb->name[p], na->own_len[p]) == 0;
}

/* Pairs instance i of q's newer object with i of the older where its full
 * name is provably the same without comparing names: the two name their
 * own instances alike position by position, the older's full names are
 * distinct, and the parent's name and the "#n" at i are the same. Every
 * other pair[i] is PD_PAIR_BY_NAME. False (pair untouched) when the own
 * names differ or out of memory: the caller pairs by name. */
static bool pair_same_positions(const pd_pair_query *q, int32_t *pair) {
  pd_snapshot *a = q->older, *b = q->newer;
  const pd_object *oa = q->old, *ob = q->obj;
  if (ob->instance_count > INT32_MAX || !pd_same_own_names(a, oa, b, ob))
    return false; /* same parent references too */
  const pd_instance_names *fa = pd_full_names(a, oa),
                          *fb = pd_full_names(b, ob);
  if (fa == NULL || fb == NULL || !fa->distinct)
    return false;
  uint32_t parent = 0, last = UINT32_MAX; /* compared last */
  const pd_object *pa = NULL, *pb = NULL;
  const pd_instance_names *na = NULL, *nb = NULL;
  bool same = true;
  /* Locals: the stores to pair[] could alias the arrays for the compiler. */
  const uint32_t count = ob->instance_count;
  const pd_instance *const ins = ob->instances;
  const uint32_t *const dup_a = fa->dup_no, *const dup_b = fb->dup_no;
  for (uint32_t i = 0; i < count; i++) {
    const pd_instance *in = &ins[i];
    if (in->parent_object == 0) {
      same = true;
    } else {
      if (in->parent_object != parent) { /* usually one parent object */
        parent = in->parent_object;
        last = UINT32_MAX;
        pa = pd_object_by_index(a, parent);
        pb = pd_object_by_index(b, parent);
        na = pa ? pd_own_names(a, pa) : NULL;
        nb = pb ? pd_own_names(b, pb) : NULL;
        if ((pa != NULL && na == NULL) || (pb != NULL && nb == NULL))
          return false;
      }
      if (in->parent_instance != last) { /* a parent's instances follow it */
        last = in->parent_instance;
        same = same_parent_name(pa, na, pb, nb, last);
      }
    }
    pair[i] = same && dup_a[i] == dup_b[i] ? (int32_t)i : PD_PAIR_BY_NAME;
  }
  return true;
}

/* ------------------------------------------------ pairing by full name */

/* Every instance of q's object by full name: pair[i] = i when the older
 * sample names its instances as the newer does, position by position, and
 * the newer's full names are distinct (nothing built or looked up); else
 * by position where that is sure (pair_same_positions), PD_PAIR_BY_NAME
 * for the rest, to look up when needed. */
static pd_status pair_by_name(const pd_pair_query *q, int32_t *pair,
                              pd_error *err) {
  const pd_object *obj = q->obj;
  int distinct = 0;
  if (pd_instances_same_names(q->older, q->old, q->newer, obj) &&
      (distinct = pd_instance_names_distinct(q->newer, obj)) < 0)
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  uint32_t k = 0;
  if (distinct == 1) /* positions up to INT32_MAX pair with themselves */
    for (; k < obj->instance_count && k <= INT32_MAX; k++)
      pair[k] = (int32_t)k;
  else if (pair_same_positions(q, pair))
    return PD_OK; /* only the instances whose names changed by name */
  for (; k < obj->instance_count; k++)
    pair[k] = PD_PAIR_BY_NAME;
  return PD_OK;
}

/* A per-instance array of this evaluation, every byte set to 0xFF on its
 * first use (grown to the sample's instance count first). */
static void *per_instance(void *arrayp, size_t *cap, bool *ready, size_t elem,
                          uint32_t instances) {
  void *array;
  if (!*ready) {
    if (wp_grow(arrayp, cap, instances, elem, WP_GROW_NO_CAP) != WP_GROW_OK)
      return NULL;
    memcpy(&array, arrayp, sizeof array);
    if (instances > 0)
      memset(array, 0xFF, (size_t)instances * elem);
    *ready = true;
  }
  memcpy(&array, arrayp, sizeof array);
  return array;
}

pd_status pd_pairing(pd_identity *id, const pd_pair_query *q, int32_t **pair,
                     pd_error *err) {
  int m = q->pair_by == PD_PAIR_BY_ID ? 0 : 1;
  if (per_instance(&id->pair[m], &id->pair_cap[m], &id->pair_ready[m],
                   sizeof(int32_t), id->instances) == NULL)
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  int32_t *p = &id->pair[m][q->obj->instances - q->newer->instances];
  *pair = p;
  if (q->obj->instance_count == 0 || p[0] != PD_PAIR_UNKNOWN)
    return PD_OK; /* paired earlier in this evaluation */
  bool by_id;
  pd_status s = pair_by_id(id, q, p, &by_id, err);
  if (s == PD_OK && !by_id)
    s = pair_by_name(q, p, err);
  return s;
}

/* The older object's full names for pairing by name: NULL for an object
 * without instances; false when out of memory. */
static bool older_names(const pd_pair_query *q, const pd_instance_names **on) {
  *on = q->old->instance_count > 0 ? pd_full_names(q->older, q->old) : NULL;
  return q->old->instance_count == 0 || *on != NULL;
}

/* pd_pair_by_full_name with the older names (on) looked up; *shift: where
 * the last instance looked up was found, relative to it (instances that
 * moved together are found there without a lookup). */
static inline __attribute__((always_inline)) void
pair_one_by_name(const pd_pair_query *q, const pd_instance_names *on,
                 const pd_instance_names *names, uint32_t i, int64_t *shift,
                 int32_t *pair) {
  const char *full = names->full[i];
  /* The same name at the same position (or shifted as the last), the
   * usual case: with the older full names distinct it is the only one of
   * that name. */
  int64_t j = (int64_t)i + *shift;
  if (on != NULL && on->distinct && j >= 0 && j < q->old->instance_count &&
      on->hash[j] == names->hash[i] &&
      (strcmp(on->full[j], full) == 0 ||
       pd_name_casecmp(on->full[j], full) == 0)) {
    *pair = (int32_t)j;
    return;
  }
  int64_t at = on == NULL ? -1
                          : pd_find_instance_hashed(q->older, q->old, full,
                                                    names->hash[i]);
  *pair = at >= 0 && at <= INT32_MAX ? (int32_t)at : PD_PAIR_NONE;
  if (*pair >= 0)
    *shift = at - (int64_t)i;
}

pd_status pd_pair_by_full_name(const pd_pair_query *q,
                               const pd_instance_names *names, uint32_t i,
                               int32_t *pair, pd_error *err) {
  const pd_instance_names *on;
  if (!older_names(q, &on))
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  int64_t shift = 0;
  pair_one_by_name(q, on, names, i, &shift, pair);
  return PD_OK;
}

pd_status pd_pairing_resolved(pd_identity *id, const pd_pair_query *q,
                              const pd_instance_names *names, int32_t **pair,
                              pd_error *err) {
  pd_status s = pd_pairing(id, q, pair, err);
  uint8_t *done = &id->resolved[(size_t)q->obj_pos * 2 +
                                (q->pair_by == PD_PAIR_BY_ID ? 0 : 1)];
  if (s != PD_OK || *done)
    return s;
  const pd_instance_names *on;
  if (!older_names(q, &on))
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  int32_t *p = *pair;
  int64_t shift = 0;
  for (uint32_t i = 0; i < q->obj->instance_count; i++)
    if (p[i] == PD_PAIR_BY_NAME)
      pair_one_by_name(q, on, names, i, &shift, &p[i]);
  *done = 1;
  return PD_OK;
}

/* ------------------------------------------------------ ids as names */

/* Which instances of obj are known by their id: usable and unique. */
static bool mark_keyed(pd_identity *id, pd_snapshot *snap, const pd_object *obj,
                       const int32_t pos[PD_ID_KINDS], int8_t *keyed) {
  if (pos[PD_ID_PROCESS] < 0) {
    memset(keyed, KEYED_NAME, obj->instance_count);
    return true;
  }
  if (!fill_table(&id->newer, snap, obj, pos))
    return false;
  for (uint32_t i = 0; i < obj->instance_count; i++)
    keyed[i] = id->newer.entry[i].state == PD_ID_UNIQUE ? KEYED_ID : KEYED_NAME;
  return true;
}

pd_status pd_identity_base(pd_identity *id, pd_snapshot *newer,
                           const pd_object *obj, uint32_t obj_pos, uint32_t i,
                           const char **base, pd_error *err) {
  *base = NULL;
  if (obj->num_instances == -1 || i >= obj->instance_count)
    return PD_OK;
  if (per_instance(&id->keyed, &id->keyed_cap, &id->keyed_ready, sizeof(int8_t),
                   id->instances) == NULL)
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  int8_t *keyed = &id->keyed[obj->instances - newer->instances];
  int32_t pos[PD_ID_KINDS];
  id_positions(id, obj, obj_pos, pos);
  if (keyed[i] == KEYED_UNKNOWN && !mark_keyed(id, newer, obj, pos, keyed))
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  if (keyed[i] != KEYED_ID)
    return PD_OK;
  const pd_instance *in = &obj->instances[i];
  const pd_object *parent = pos[PD_ID_THREAD] >= 0 && in->parent_object != 0
                                ? pd_object_by_index(newer, in->parent_object)
                                : NULL;
  if (parent != NULL && in->parent_instance < parent->instance_count)
    *base = pd_instance_name(newer, parent, in->parent_instance);
  else
    *base = pd_instance_name(newer, obj, i);
  if (*base == NULL)
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  return PD_OK;
}

/* The older sample's definition of the same counter: same position when
 * the layout is unchanged, else the first with the same index and type. */
const pd_counter_def *pd_older_counter(const pd_object *old,
                                       const pd_counter_def *def, uint32_t pos,
                                       uint32_t *old_pos) {
  if (pos < old->counter_count &&
      old->counters[pos].name_index == def->name_index &&
      old->counters[pos].type == def->type) {
    *old_pos = pos;
    return &old->counters[pos];
  }
  for (uint32_t c = 0; c < old->counter_count; c++)
    if (old->counters[c].name_index == def->name_index &&
        old->counters[c].type == def->type) {
      *old_pos = c;
      return &old->counters[c];
    }
  return NULL;
}
