/* collectd-winperf: instance identity and pairing by it (see identity.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "identity.h"

#include <stdlib.h>
#include <string.h>

enum { POS_UNKNOWN = -1, POS_NONE = -2 };
enum { SLOT_EMPTY = -1, SLOT_DUPLICATE = -2 };
enum { KEYED_UNKNOWN = -1, KEYED_NAME = 0, KEYED_ID = 1 };

static const char *const id_names[PD_ID_KINDS] = {"ID Process", "ID Thread"};
static const uint32_t id_standard[PD_ID_KINDS] = {PD_INDEX_ID_PROCESS,
                                                  PD_INDEX_ID_THREAD};

static void table_free(pd_id_table *t) {
  free(t->pid);
  free(t->tid);
  free(t->pos);
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
  if (need > id->pos_cap) {
    int32_t *p = realloc(id->pos, need * sizeof *p);
    if (p == NULL)
      return false;
    id->pos = p;
    id->pos_cap = need;
  }
  if (need > 0) /* every position POS_UNKNOWN (-1) */
    memset(id->pos, 0xFF, need * sizeof *id->pos);
  if (need > id->resolved_cap) {
    uint8_t *r = realloc(id->resolved, need);
    if (r == NULL)
      return false;
    id->resolved = r;
    id->resolved_cap = need;
  }
  if (need > 0)
    memset(id->resolved, 0, need);
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

void pd_identity_of(const int32_t pos[PD_ID_KINDS], const pd_snapshot *snap,
                    const pd_object *obj, const pd_instance *inst,
                    bool *has_pid, uint64_t *pid, bool *has_tid,
                    uint64_t *tid) {
  *has_pid = pos[PD_ID_PROCESS] >= 0;
  *pid = *has_pid
             ? pd_counter_raw(snap, inst, &obj->counters[pos[PD_ID_PROCESS]])
             : 0;
  *has_tid = pos[PD_ID_THREAD] >= 0;
  *tid = *has_tid
             ? pd_counter_raw(snap, inst, &obj->counters[pos[PD_ID_THREAD]])
             : 0;
}

static uint32_t key_hash(uint64_t pid, uint64_t tid) {
  uint64_t h = (pid * 0x9E3779B97F4A7C15u) ^ (tid + 0x632BE59BD9B4E019u);
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9u;
  return (uint32_t)(h ^ (h >> 32));
}

static bool table_reset(pd_id_table *t, uint32_t entries) {
  uint32_t want = 16;
  while (want < 2 * (uint64_t)entries && want < (1u << 30))
    want *= 2;
  if (want > t->cap) {
    uint64_t *a = realloc(t->pid, want * sizeof *a);
    if (a != NULL)
      t->pid = a;
    uint64_t *b = realloc(t->tid, want * sizeof *b);
    if (b != NULL)
      t->tid = b;
    int32_t *c = realloc(t->pos, want * sizeof *c);
    if (c != NULL)
      t->pos = c;
    if (a == NULL || b == NULL || c == NULL)
      return false;
    t->cap = want;
  }
  memset(t->pos, 0xFF, t->cap * sizeof *t->pos); /* SLOT_EMPTY */
  return true;
}

/* The slot holding (pid, tid), or the empty slot where it would go. */
static uint32_t table_slot(const pd_id_table *t, uint64_t pid, uint64_t tid) {
  uint32_t mask = t->cap - 1, s = key_hash(pid, tid) & mask;
  while (t->pos[s] != SLOT_EMPTY && (t->pid[s] != pid || t->tid[s] != tid))
    s = (s + 1) & mask;
  return s;
}

/* An instance that pairs by its id: not _Total, no zero id. */
static bool has_usable_id(pd_snapshot *snap, const pd_object *obj, uint32_t i,
                          uint64_t pid, bool has_tid, uint64_t tid) {
  if (pid == 0 || (has_tid && tid == 0))
    return false;
  const char *own = pd_instance_name(snap, obj, i);
  /* Nothing folds to '_': other first characters are not _Total. */
  return own != NULL && (own[0] != '_' || pd_name_casecmp(own, "_Total") != 0);
}

/* Every instance of obj with a usable id into t; an id seen twice is
 * marked SLOT_DUPLICATE. */
static bool fill_table(pd_id_table *t, pd_snapshot *snap, const pd_object *obj,
                       const int32_t pos[PD_ID_KINDS]) {
  if (!table_reset(t, obj->instance_count))
    return false;
  bool has_tid = pos[PD_ID_THREAD] >= 0;
  for (uint32_t i = 0; i < obj->instance_count && i <= INT32_MAX; i++) {
    const pd_instance *in = &obj->instances[i];
    uint64_t pid = pd_counter_raw(snap, in, &obj->counters[pos[PD_ID_PROCESS]]);
    uint64_t tid =
        has_tid ? pd_counter_raw(snap, in, &obj->counters[pos[PD_ID_THREAD]])
                : 0;
    if (!has_usable_id(snap, obj, i, pid, has_tid, tid))
      continue;
    uint32_t s = table_slot(t, pid, tid);
    if (t->pos[s] == SLOT_EMPTY) {
      t->pid[s] = pid;
      t->tid[s] = tid;
      t->pos[s] = (int32_t)i;
    } else
      t->pos[s] = SLOT_DUPLICATE;
  }
  return true;
}

/* Where instance i of newer's obj finds its older sample. */
static int32_t pair_one(pd_identity *id, pd_snapshot *older,
                        const pd_object *old, pd_snapshot *newer,
                        const pd_object *obj, uint32_t i,
                        const int32_t pos[PD_ID_KINDS], bool same_names) {
  const pd_instance *in = &obj->instances[i];
  bool has_tid = pos[PD_ID_THREAD] >= 0;
  uint64_t pid = pd_counter_raw(newer, in, &obj->counters[pos[PD_ID_PROCESS]]);
  uint64_t tid =
      has_tid ? pd_counter_raw(newer, in, &obj->counters[pos[PD_ID_THREAD]])
              : 0;
  if (!has_usable_id(newer, obj, i, pid, has_tid, tid) ||
      id->newer.pos[table_slot(&id->newer, pid, tid)] == SLOT_DUPLICATE)
    return PD_PAIR_BY_NAME;
  int32_t j = id->older.pos[table_slot(&id->older, pid, tid)];
  if (j == SLOT_DUPLICATE)
    return PD_PAIR_BY_NAME;
  if (j == SLOT_EMPTY)
    return PD_PAIR_NONE; /* a new process (or thread) */
  /* A reused id under another name is another process. */
  if (same_names && (uint32_t)j == i)
    return j; /* named as then, position by position */
  const char *now = pd_instance_base_name(newer, obj, i);
  const char *then = pd_instance_base_name(older, old, (uint32_t)j);
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

/* Keep obj's pairing (newer's) for the next evaluation; false when out of
 * memory. */
static bool memo_keep(pd_pair_memo *m, const pd_snapshot *newer,
                      const pd_object *obj, uint32_t obj_pos,
                      const int32_t *pair, bool stable) {
  m->decode_id = 0;
  if (obj->instance_count > m->cap) {
    int32_t *p = realloc(m->pair, (size_t)obj->instance_count * sizeof *p);
    if (p == NULL)
      return false;
    m->pair = p;
    m->cap = obj->instance_count;
  }
  if (obj->instance_count > 0)
    memcpy(m->pair, pair, (size_t)obj->instance_count * sizeof *pair);
  m->object_index = obj->name_index;
  m->count = obj->instance_count;
  m->obj_pos = obj_pos;
  m->stable = stable;
  m->decode_id = newer->decode_id;
  return true;
}

pd_status pd_identity_pair(pd_identity *id, pd_pair_by pair_by,
                           pd_snapshot *older, const pd_object *old,
                           pd_snapshot *newer, const pd_object *obj,
                           uint32_t obj_pos, int32_t *pair, bool *paired,
                           pd_error *err) {
  *paired = false;
  if (pair_by != PD_PAIR_BY_ID || obj->num_instances == -1)
    return PD_OK;
  int32_t pos_new[PD_ID_KINDS], pos_old[PD_ID_KINDS];
  id_positions(id, obj, obj_pos, pos_new);
  id_positions(id, old, UINT32_MAX, pos_old);
  /* Both samples need the same kind of key. */
  if (pos_new[PD_ID_PROCESS] < 0 || pos_old[PD_ID_PROCESS] < 0 ||
      (pos_new[PD_ID_THREAD] >= 0) != (pos_old[PD_ID_THREAD] >= 0))
    return PD_OK;
  /* Names (own and full) of both objects first: once built they cannot
   * fail below, so an allocation failure is an error, never a process
   * taken for a new one. */
  if ((old->instance_count > 0 &&
       pd_instance_base_name(older, old, 0) == NULL) ||
      (obj->instance_count > 0 && pd_instance_base_name(newer, obj, 0) == NULL))
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  bool same = pd_instances_same_names(older, old, newer, obj);
  bool stable = same && same_ids(old, pos_old, obj, pos_new);
  pd_pair_memo *m = memo_of(id, obj);
  *paired = true;
  /* Named and numbered as in the last evaluation, then as now: the same
   * pairing (pair_one reads nothing else). */
  if (stable && m->decode_id == older->decode_id && m->stable &&
      m->count == obj->instance_count &&
      pd_snapshot_object(older, m->obj_pos) == old) {
    if (obj->instance_count > 0)
      memcpy(pair, m->pair, (size_t)obj->instance_count * sizeof *pair);
    m->decode_id = newer->decode_id;
    return PD_OK;
  }
  if (!fill_table(&id->older, older, old, pos_old) ||
      !fill_table(&id->newer, newer, obj, pos_new))
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  for (uint32_t i = 0; i < obj->instance_count; i++)
    pair[i] = pair_one(id, older, old, newer, obj, i, pos_new, same);
  if (!memo_keep(m, newer, obj, obj_pos, pair, stable))
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

/* Pairing by full name (identity.h): when older names its
 * instances as newer does, position by position, and newer's full names
 * are distinct, instance i is older's i (no name built or looked up);
 * else each is looked up by name when first needed. */
pd_status pd_identity_pair_by_name(pd_snapshot *older, const pd_object *old,
                                   pd_snapshot *newer, const pd_object *obj,
                                   int32_t *pair, pd_error *err) {
  int distinct = 0;
  if (pd_instances_same_names(older, old, newer, obj) &&
      (distinct = pd_instance_names_distinct(newer, obj)) < 0)
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  uint32_t k = 0;
  if (distinct == 1) /* positions up to INT32_MAX pair with themselves */
    for (; k < obj->instance_count && k <= INT32_MAX; k++)
      pair[k] = (int32_t)k;
  else if (pd_pair_same_positions(older, old, newer, obj, pair,
                                  PD_PAIR_BY_NAME))
    return PD_OK; /* only the instances whose names changed by name */
  for (; k < obj->instance_count; k++)
    pair[k] = PD_PAIR_BY_NAME;
  return PD_OK;
}

/* A per-instance array of this evaluation, every byte set to 0xFF on its
 * first use (grown to the sample's instance count first). */
static void *per_instance(void **array, size_t *cap, bool *ready, size_t elem,
                          uint32_t instances) {
  if (!*ready) {
    if (instances > *cap) {
      void *p = realloc(*array, (size_t)instances * elem);
      if (p == NULL)
        return NULL;
      *array = p;
      *cap = instances;
    }
    if (instances > 0)
      memset(*array, 0xFF, (size_t)instances * elem);
    *ready = true;
  }
  return *array;
}

pd_status pd_identity_pairs(pd_identity *id, pd_pair_by pair_by,
                            pd_snapshot *older, const pd_object *old,
                            pd_snapshot *newer, const pd_object *obj,
                            uint32_t obj_pos, int32_t **pair, pd_error *err) {
  int m = pair_by == PD_PAIR_BY_ID ? 0 : 1;
  void *arr = id->pair[m];
  if (per_instance(&arr, &id->pair_cap[m], &id->pair_ready[m], sizeof(int32_t),
                   id->instances) == NULL)
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  id->pair[m] = arr;
  int32_t *p = &id->pair[m][obj->instances - newer->instances];
  *pair = p;
  if (obj->instance_count == 0 || p[0] != PD_PAIR_UNKNOWN)
    return PD_OK; /* paired earlier in this evaluation */
  bool by_id;
  pd_status s = pd_identity_pair(id, pair_by, older, old, newer, obj, obj_pos,
                                 p, &by_id, err);
  if (s == PD_OK && !by_id)
    s = pd_identity_pair_by_name(older, old, newer, obj, p, err);
  return s;
}

/* older's full names for pairing by name: NULL for an object without
 * instances; false when out of memory. */
static bool older_names(pd_snapshot *older, const pd_object *old,
                        const pd_object_names **on) {
  *on = old->instance_count > 0 ? pd_object_full_names(older, old) : NULL;
  return old->instance_count == 0 || *on != NULL;
}

/* pd_identity_by_name with older's names (on) looked up; *shift: where
 * the last instance looked up was found, relative to it (instances that
 * moved together are found there without a lookup). */
static inline __attribute__((always_inline)) void
by_name(pd_snapshot *older, const pd_object *old, const pd_object_names *on,
        const pd_object_names *names, uint32_t i, int64_t *shift,
        int32_t *pair) {
  const char *full = names->full[i];
  /* The same name at the same position (or shifted as the last), the
   * usual case: with older's full names distinct it is the only one of
   * that name. */
  int64_t j = (int64_t)i + *shift;
  if (on != NULL && on->distinct && j >= 0 && j < old->instance_count &&
      on->hash[j] == names->hash[i] &&
      (strcmp(on->full[j], full) == 0 ||
       pd_name_casecmp(on->full[j], full) == 0)) {
    *pair = (int32_t)j;
    return;
  }
  int64_t at = on == NULL
                   ? -1
                   : pd_find_instance_hashed(older, old, full, names->hash[i]);
  *pair = at >= 0 && at <= INT32_MAX ? (int32_t)at : PD_PAIR_NONE;
  if (*pair >= 0)
    *shift = at - (int64_t)i;
}

pd_status pd_identity_by_name(pd_snapshot *older, const pd_object *old,
                              const pd_object_names *names, uint32_t i,
                              int32_t *pair, pd_error *err) {
  const pd_object_names *on;
  if (!older_names(older, old, &on))
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  int64_t shift = 0;
  by_name(older, old, on, names, i, &shift, pair);
  return PD_OK;
}

pd_status pd_identity_pairs_resolved(pd_identity *id, pd_pair_by pair_by,
                                     pd_snapshot *older, const pd_object *old,
                                     pd_snapshot *newer, const pd_object *obj,
                                     uint32_t obj_pos,
                                     const pd_object_names *names,
                                     int32_t **pair, pd_error *err) {
  pd_status s = pd_identity_pairs(id, pair_by, older, old, newer, obj, obj_pos,
                                  pair, err);
  uint8_t *done =
      &id->resolved[(size_t)obj_pos * 2 + (pair_by == PD_PAIR_BY_ID ? 0 : 1)];
  if (s != PD_OK || *done)
    return s;
  const pd_object_names *on;
  if (!older_names(older, old, &on))
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  int32_t *p = *pair;
  int64_t shift = 0;
  for (uint32_t i = 0; i < obj->instance_count; i++)
    if (p[i] == PD_PAIR_BY_NAME)
      by_name(older, old, on, names, i, &shift, &p[i]);
  *done = 1;
  return PD_OK;
}

/* Which instances of obj are known by their id: usable and unique. */
static bool mark_keyed(pd_identity *id, pd_snapshot *snap, const pd_object *obj,
                       const int32_t pos[PD_ID_KINDS], int8_t *keyed) {
  if (pos[PD_ID_PROCESS] < 0) {
    memset(keyed, KEYED_NAME, obj->instance_count);
    return true;
  }
  if (!fill_table(&id->newer, snap, obj, pos))
    return false;
  for (uint32_t i = 0; i < obj->instance_count; i++) {
    bool has_pid, has_tid;
    uint64_t pid, tid;
    pd_identity_of(pos, snap, obj, &obj->instances[i], &has_pid, &pid, &has_tid,
                   &tid);
    keyed[i] = has_usable_id(snap, obj, i, pid, has_tid, tid) &&
                       id->newer.pos[table_slot(&id->newer, pid, tid)] >= 0
                   ? KEYED_ID
                   : KEYED_NAME;
  }
  return true;
}

pd_status pd_identity_base(pd_identity *id, pd_snapshot *newer,
                           const pd_object *obj, uint32_t obj_pos, uint32_t i,
                           const char **base, pd_error *err) {
  *base = NULL;
  if (obj->num_instances == -1 || i >= obj->instance_count)
    return PD_OK;
  void *arr = id->keyed;
  if (per_instance(&arr, &id->keyed_cap, &id->keyed_ready, sizeof(int8_t),
                   id->instances) == NULL)
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  id->keyed = arr;
  int8_t *keyed = &id->keyed[obj->instances - newer->instances];
  int32_t pos[PD_ID_KINDS];
  id_positions(id, obj, obj_pos, pos);
  if (keyed[i] == KEYED_UNKNOWN && !mark_keyed(id, newer, obj, pos, keyed))
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  if (keyed[i] != KEYED_ID)
    return PD_OK;
  const pd_instance *in = &obj->instances[i];
  const pd_object *parent =
      pos[PD_ID_THREAD] >= 0 && in->parent_object != 0
          ? pd_snapshot_find_object(newer, in->parent_object)
          : NULL;
  if (parent != NULL && in->parent_instance < parent->instance_count)
    *base = pd_instance_name(newer, parent, in->parent_instance);
  else
    *base = pd_instance_name(newer, obj, i);
  if (*base == NULL)
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  return PD_OK;
}
