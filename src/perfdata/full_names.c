/* collectd-winperf: full instance names as PDH shows them (format.md 1.4).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * "parent/name#n", built from the own names (instance_names.c) on first
 * use after a decode, with a case-insensitive index (wp_table.h) so
 * instances pair across samples in O(1). A rebuild keeps, position by position,
 * what an instance had when its own and parent names are the same as last time,
 * looks the others' up in the memos (name_memo.h) and puts only them back
 * into the index.
 */
#include "cache_check.h"
#include "snapshot.h"

#include <stdlib.h>
#include <string.h>

/* Case-insensitively equal; the same bytes, the usual case, first. */
static inline bool same_name(const char *a, const char *b) {
  return strcmp(a, b) == 0 || pd_name_casecmp(a, b) == 0;
}

/* parent "/" name: the parent is instance ParentObjectInstance of the
 * object whose index is ParentObjectTitleIndex (format.md 1.4). A reference to
 * a missing parent leaves the plain name. */
typedef struct parent_cache {
  uint32_t index; /* ParentObjectTitleIndex looked up last */
  const pd_object *object;
  pd_instance_names *names;
} parent_cache;

/* Note parent object `index` (its names' epoch, 0 when absent) as one
 * the full names of n depend on. */
static void note_parent(pd_instance_names *n, uint32_t index, uint32_t epoch) {
  for (int i = 0; i < n->parents; i++)
    if (n->parent_index[i] == index)
      return;
  if (n->parents < 0 || n->parents == PD_NAME_PARENTS_MAX) {
    n->parents = -1;
    return;
  }
  n->parent_index[n->parents] = index;
  n->parent_epoch[n->parents++] = epoch;
}

/* The base name of instance i ("parent/name", or its own name without a
 * parent: pn NULL) from the memo, joined and added when new. */
static const pd_memo_entry *base_entry(pd_instance_names *n, uint32_t i,
                                       const pd_instance_names *pn,
                                       uint32_t pi) {
  uint64_t key[3] = {pn ? (uint64_t)(uintptr_t)pn->name[pi] : 0,
                     (uint64_t)(uintptr_t)n->name[i],
                     pn ? pn->own_memo.epoch : 0};
  pd_memo_entry *e = pd_memo_find(&n->base_memo, key, NULL, 0);
  if (e != NULL)
    return e;
  const char *text = n->name[i];
  size_t len = n->own_len[i];
  uint32_t h = n->own_hash[i];
  bool has_hash = n->own_has_hash[i];
  if (pn != NULL) {
    size_t a = pn->own_len[pi];
    char *s = pd_text_alloc(&n->base_memo.text, a + 1 + len + 1);
    if (s == NULL)
      return NULL;
    memcpy(s, pn->name[pi], a);
    s[a] = '/';
    memcpy(s + a + 1, text, len + 1);
    has_hash |= pn->own_has_hash[pi];
    h = pd_hash_folded(s);
    text = s;
    len += a + 1;
  }
  uint32_t g = pd_memo_group(&n->base_memo, text, h);
  if (g == UINT32_MAX || (e = pd_memo_add(&n->base_memo, key, NULL, 0)) == NULL)
    return NULL;
  e->text = text;
  e->len = (uint32_t)len;
  e->fold_hash = h;
  e->has_hash = has_hash;
  e->group = g;
  return e;
}

/* "base#dup" (PDH's name for the dup-th duplicate, format.md 1.4) from the
 * memo, made and added when new; b is base's entry. */
static const pd_memo_entry *dup_entry(pd_instance_names *n, uint32_t b,
                                      uint32_t dup) {
  uint64_t key[3] = {b, dup, 0};
  pd_memo_entry *e = pd_memo_find(&n->dup_memo, key, NULL, 0);
  if (e != NULL)
    return e;
  const pd_memo_entry *base = &n->base_memo.entries[b];
  char digits[10];
  size_t nd = 0, len = base->len;
  do
    digits[nd++] = (char)('0' + dup % 10);
  while ((dup /= 10) > 0);
  char *s = pd_text_alloc(&n->dup_memo.text, len + 1 + nd + 1);
  if (s == NULL)
    return NULL;
  memcpy(s, base->text, len);
  s[len] = '#';
  for (size_t d = 0; d < nd; d++)
    s[len + 1 + d] = digits[nd - 1 - d];
  s[len + 1 + nd] = '\0';
  if ((e = pd_memo_add(&n->dup_memo, key, NULL, 0)) == NULL)
    return NULL;
  e->text = s;
  e->len = (uint32_t)(len + 1 + nd);
  e->fold_hash = pd_hash_folded(s);
  e->has_hash = true;
  return e;
}

/* The parent's own names for instance in (*pn NULL: no parent, or a
 * reference to a missing one, which leaves the plain name); false when
 * out of memory. */
static bool parent_of(pd_snapshot *snap, pd_instance_names *n,
                      const pd_instance *in, parent_cache *pc,
                      const pd_instance_names **pn) {
  *pn = NULL;
  if (in->parent_object == 0)
    return true;
  if (in->parent_object != pc->index) { /* usually one parent object */
    pc->index = in->parent_object;
    pc->object = pd_object_by_index(snap, in->parent_object);
    pc->names = pc->object ? pd_own_names(snap, pc->object) : NULL;
    if (pc->object != NULL && pc->names == NULL)
      return false;
    note_parent(n, pc->index, pc->names ? pc->names->epoch : 0);
  }
  if (pc->object != NULL && in->parent_instance < pc->object->instance_count)
    *pn = pc->names;
  return true;
}

/* Whether full[] and the index were built from the same own names and
 * parents' names as this decode has: they are still right then. */
static bool full_still_right(pd_snapshot *snap, pd_instance_names *n) {
  if (!n->full_built || n->full_epoch != n->epoch || n->parents < 0)
    return false;
  for (int i = 0; i < n->parents; i++) {
    const pd_object *p = pd_object_by_index(snap, n->parent_index[i]);
    pd_instance_names *pn = p ? pd_own_names(snap, p) : NULL;
    if ((p != NULL && pn == NULL) || (pn ? pn->epoch : 0) != n->parent_epoch[i])
      return false;
  }
  return true;
}

/* Pass 2: the index of the full names for pd_find_instance, every
 * instance put in blob order (so the first of equal names is found
 * first). Incrementally: the instances pass 1 changed come out under
 * their old name and go back in under the new one; that keeps the order
 * only because the names are distinct then (the caller's condition).
 * False when out of memory. */
static bool index_full_names(pd_instance_names *n, uint32_t count,
                             bool incremental) {
  if (incremental) {
    for (uint32_t k = 0; k < n->changed_count; k++) {
      uint32_t i = (uint32_t)n->changed[k];
      wp_table_remove(&n->index, (uint32_t)(n->changed[k] >> 32), i + 1);
    }
    for (uint32_t k = 0; k < n->changed_count; k++) {
      uint32_t i = (uint32_t)n->changed[k];
      wp_table_put(&n->index, n->hash[i], i + 1);
    }
  } else {
    wp_table_clear(&n->index);
    if (wp_table_reserve(&n->index, count) != WP_GROW_OK)
      return false;
    for (uint32_t i = 0; i < count; i++)
      wp_table_put(&n->index, n->hash[i], i + 1);
  }
  n->index_count = count;
  return true;
}

/* Row j as a build reads it: from the instance it builds on, the last
 * build's still; before it, this build's, which is as right a one to take
 * a base from (same own and parent pointers: same base; with the same n
 * too: same full name), only not the one it is looking for. (A ring of
 * the last build's overwritten rows gained nothing on any bench case and
 * was removed.) */
static inline pd_name_row row_at(const pd_instance_names *n, uint32_t j) {
  return (pd_name_row){
      j,          n->base_entry[j], n->group_of[j],    n->dup_no[j],
      n->hash[j], n->prev_own[j],   n->prev_parent[j], n->base[j],
      n->full[j]};
}

/* What pass 1 knows of the last build. */
typedef struct last_build {
  uint32_t count; /* its rows (0: none usable) */
  int64_t shift;  /* instance i was at i + shift */
} last_build;

/* Whether row j (of the last build, or before i this one's) has own and
 * parent. */
static inline bool row_named(const pd_instance_names *n, const last_build *lb,
                             int64_t j, const char *own, const char *parent) {
  if (j < 0 || j >= lb->count)
    return false;
  pd_name_row r = row_at(n, (uint32_t)j);
  return r.own == own && r.parent == parent;
}

/* The row of the last build named as instance i (own and parent names):
 * the one at i + shift, else where its base entry e was first (shift
 * follows it). -1 when none. */
static int64_t row_of(const pd_instance_names *n, last_build *lb, uint32_t i,
                      const char *own, const char *parent,
                      const pd_memo_entry *e) {
  int64_t j = (int64_t)i + lb->shift;
  if (row_named(n, lb, j, own, parent))
    return j;
  if (e == NULL || e->pos_build + 1 != n->base_memo.build ||
      !row_named(n, lb, e->pos, own, parent))
    return -1;
  lb->shift = (int64_t)e->pos - i;
  return e->pos;
}

/* Pass 1 of a full-names build: base names, and PDH's "#n" for
 * case-insensitive duplicates in blob order (the first keeps the plain
 * name), counted per group. An instance whose own and parent names are
 * the pointers of an instance of the last build (at its position, or as
 * far from it as the instance before it was) keeps that one's base entry,
 * and its full name when its n is the same too; the others look theirs
 * up. *has_hash: some base name has a '#'. False when out of memory. */
static bool base_and_full(pd_snapshot *snap, pd_instance_names *n,
                          const pd_object *obj, bool indexed, bool *has_hash) {
  const uint32_t count = obj->instance_count, epochs = snap->memo_epochs;
  last_build lb = {n->reuse_epochs == epochs ? n->prev_count : 0, 0};
  n->prev_count = 0;
  const pd_instance *const ins = obj->instances;
  pd_name_memo *const memo = &n->base_memo;
  parent_cache pc = {0, NULL, NULL};
  uint32_t hashes = 0;
  n->changed_count = 0;
  for (uint32_t i = 0; i < count; i++) {
    const pd_instance *in = &ins[i];
    const pd_instance_names *pn = NULL;
    if (in->parent_object != 0) {
      if (!parent_of(snap, n, in, &pc, &pn))
        return false;
      if (snap->memo_epochs != epochs) { /* a parent's memo started afresh */
        lb.count = 0;
        indexed = false;
        n->changed_count = UINT32_MAX;
      }
    }
    const char *own = n->name[i],
               *parent = pn ? pn->name[in->parent_instance] : NULL;
    uint32_t dup;
    pd_name_row r;
    if (lb.shift == 0 && i < lb.count && n->prev_own[i] == own &&
        n->prev_parent[i] == parent) { /* named as at the last build */
      uint32_t g = n->group_of[i];
      hashes |= g;
      dup = pd_memo_group_next(memo, g & INT32_MAX);
      if (dup == n->dup_no[i])
        continue; /* row i as the last build made it */
      r = row_at(n, i);
    } else {
      const pd_memo_entry *e = NULL;
      int64_t j = row_of(n, &lb, i, own, parent, NULL);
      if (j < 0) {
        if ((e = base_entry(n, i, pn, pn ? in->parent_instance : 0)) == NULL)
          return false;
        j = row_of(n, &lb, i, own, parent, e);
      }
      if (j >= 0)
        r = row_at(n, (uint32_t)j);
      else
        r = (pd_name_row){.base_entry = (uint32_t)(e - memo->entries),
                          .group = e->group | (uint32_t)e->has_hash << 31,
                          .dup = UINT32_MAX};
      pd_memo_entry *be = &memo->entries[r.base_entry];
      if (be->pos_build != memo->build) { /* where the next build looks */
        be->pos_build = memo->build;
        be->pos = i;
      }
      hashes |= r.group;
      dup = pd_memo_group_next(memo, r.group & INT32_MAX);
      if (j == i && dup == r.dup)
        continue;
    }
    const pd_memo_entry *be = &memo->entries[r.base_entry];
    uint32_t old_hash = n->hash[i]; /* where the index has it */
    if (dup != r.dup) {             /* the full name of base entry and n */
      const pd_memo_entry *f = be;
      if (dup > 0 && (f = dup_entry(n, r.base_entry, dup)) == NULL)
        return false;
      r.full = f->text;
      r.hash = f->fold_hash;
      r.dup = dup;
    }
    n->prev_own[i] = own;
    n->prev_parent[i] = parent;
    n->base_entry[i] = r.base_entry;
    n->group_of[i] = r.group;
    n->dup_no[i] = dup;
    n->base[i] = be->text;
    n->full[i] = r.full;
    n->hash[i] = r.hash;
    if (indexed) { /* for pass 2: out of the index and in again */
      if (n->changed_count >= count / 8) {
        indexed = false; /* too many: pass 2 builds the index afresh */
        n->changed_count = UINT32_MAX;
      } else {
        n->changed[n->changed_count++] = (uint64_t)old_hash << 32 | i;
      }
    }
  }
  *has_hash = hashes >> 31;
  n->prev_count = count;
  return true;
}

/* Start a full-names build: a memo whose keys point into a memo that
 * was cleared since is cleared too. */
static void begin_memos(pd_snapshot *snap, pd_instance_names *n) {
  if (n->base_own_epoch != n->own_memo.epoch)
    pd_memo_clear(&n->base_memo, &snap->memo_epochs);
  pd_memo_begin(&n->base_memo, &snap->memo_epochs);
  n->base_own_epoch = n->own_memo.epoch;
  if (n->dup_base_epoch != n->base_memo.epoch)
    pd_memo_clear(&n->dup_memo, &snap->memo_epochs);
  pd_memo_begin(&n->dup_memo, &snap->memo_epochs);
  n->dup_base_epoch = n->base_memo.epoch;
}

static pd_instance_names *full_names(pd_snapshot *snap, const pd_object *obj) {
  pd_instance_names *n = pd_instance_names_cached(snap, obj, true);
  if (n != NULL)
    return n;
  if ((n = pd_own_names(snap, obj)) == NULL)
    return NULL;
  if (full_still_right(snap, n)) {
    n->full_generation = snap->generation;
    PD_CHECK(pd_check_instance_names(snap, obj, n));
    return n;
  }
  n->full_built = false;
  n->parents = 0;
  begin_memos(snap, n);
  uint32_t count = obj->instance_count;
  /* The index of the last build, kept when pass 1 changes few names and
   * they are all distinct (then the order of equal names cannot matter). */
  bool keep_index = n->index_count == count && n->distinct;
  n->index_count = 0;
  bool has_hash;
  if (!base_and_full(snap, n, obj, keep_index, &has_hash) ||
      !index_full_names(
          n, count, keep_index && !has_hash && n->changed_count <= count / 8))
    return NULL;
  /* Without a '#' in any base name, "base#n" splits one way only, and the
   * numbering makes every (base, n) unique. */
  n->distinct = !has_hash;
  n->reuse_epochs = snap->memo_epochs;
  pd_memo_end(&n->base_memo, count);
  pd_memo_end(&n->dup_memo, count);
  n->full_epoch = n->epoch;
  n->full_built = true;
  n->full_generation = snap->generation;
  PD_CHECK(pd_check_instance_names(snap, obj, n));
  return n;
}

const pd_instance_names *pd_full_names(pd_snapshot *snap,
                                       const pd_object *obj) {
  return full_names(snap, obj);
}

int pd_instance_names_distinct(pd_snapshot *snap, const pd_object *obj) {
  if (obj->instance_count == 0)
    return 1;
  pd_instance_names *n = full_names(snap, obj);
  return n == NULL ? -1 : n->distinct;
}

const char *pd_instance_full_name(pd_snapshot *snap, const pd_object *obj,
                                  uint32_t inst) {
  if (inst >= obj->instance_count)
    return NULL;
  pd_instance_names *n = full_names(snap, obj);
  return n ? n->full[inst] : NULL;
}

const char *pd_instance_base_name(pd_snapshot *snap, const pd_object *obj,
                                  uint32_t inst) {
  if (inst >= obj->instance_count)
    return NULL;
  pd_instance_names *n = full_names(snap, obj);
  return n ? n->base[inst] : NULL;
}

int64_t pd_find_instance(pd_snapshot *snap, const pd_object *obj,
                         const char *full_name) {
  return pd_find_instance_hashed(snap, obj, full_name,
                                 pd_hash_folded(full_name));
}

/* A full name against the one looked up (case-insensitive). */
typedef struct full_key {
  const pd_instance_names *n;
  const char *name;
} full_key;

static bool same_full_name(const void *ctx, uint32_t value) {
  const full_key *k = ctx;
  return same_name(k->n->full[value - 1], k->name);
}

int64_t pd_find_instance_hashed(pd_snapshot *snap, const pd_object *obj,
                                const char *full_name, uint32_t h) {
  pd_instance_names *n = full_names(snap, obj);
  if (n == NULL || obj->instance_count == 0)
    return -1;
  /* Put in blob order: the first match in blob order comes first. */
  full_key k = {n, full_name};
  uint32_t v = wp_table_find(&n->index, h, same_full_name, &k);
  return v == 0 ? -1 : (int64_t)v - 1;
}
