/* collectd-winperf: the parser's caches checked the slow, obvious way
 * (cache_check.h; debug builds only).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "cache_check.h"

#ifndef NDEBUG

#include "selection.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- memory */

/* The checks' memory: malloc and free, unless a test that counts the
 * parser's allocations replaces the two (tests/alloc/failalloc.c), so the
 * checks neither count nor fail there. */
__attribute__((weak)) void *pd_check_malloc(size_t n) {
  return malloc(n);
}

__attribute__((weak)) void pd_check_free(void *p) {
  free(p);
}

static void *check_malloc(size_t n) {
  return pd_check_malloc(n ? n : 1);
}

static void check_free(void *p) {
  pd_check_free(p);
}

static void *check_calloc(size_t n, size_t size) {
  if (size != 0 && n > SIZE_MAX / size)
    return NULL;
  void *p = check_malloc(n * size);
  if (p != NULL)
    memset(p, 0, n * size);
  return p;
}

static char *check_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = check_malloc(n);
  if (d != NULL)
    memcpy(d, s, n);
  return d;
}

/* ------------------------------------------------------------ sorting */

typedef int (*index_cmp)(const void *ctx, uint32_t a, uint32_t b);

/* v[0, n) sorted by cmp, ties in their order (a merge sort: qsort has no
 * context argument everywhere the parser builds); false without memory. */
static bool sort_indices(uint32_t *v, uint32_t n, index_cmp cmp,
                         const void *ctx) {
  uint32_t *tmp = check_malloc((n ? n : 1) * sizeof *tmp);
  if (tmp == NULL)
    return false;
  for (uint32_t width = 1; width < n; width *= 2) {
    for (uint32_t lo = 0; lo < n; lo += 2 * width) {
      uint32_t mid = lo + width < n ? lo + width : n;
      uint32_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      uint32_t a = lo, b = mid, k = lo;
      while (a < mid && b < hi)
        tmp[k++] = cmp(ctx, v[b], v[a]) < 0 ? v[b++] : v[a++];
      while (a < mid)
        tmp[k++] = v[a++];
      while (b < hi)
        tmp[k++] = v[b++];
    }
    memcpy(v, tmp, n * sizeof *v);
  }
  check_free(tmp);
  return true;
}

/* 0, 1, ..., n - 1; NULL without memory. */
static uint32_t *identity_order(uint32_t n) {
  uint32_t *v = check_malloc((n ? n : 1) * sizeof *v);
  for (uint32_t i = 0; v != NULL && i < n; i++)
    v[i] = i;
  return v;
}

/* ------------------------------------------------ names from the blob */

/* Instance in's own name converted from its bytes (format.md 1.4):
 * check_malloc'ed, NULL without memory. */
static char *slow_own(const pd_snapshot *snap, const pd_object *obj,
                      const pd_instance *in) {
  if (in->name_bytes == 0) {
    char num[16] = "";
    if (in->unique_id != -1)
      snprintf(num, sizeof num, "%d", in->unique_id);
    return check_strdup(num);
  }
  size_t worst = (size_t)in->name_bytes * 3 + 1;
  char *out = check_malloc(worst);
  if (out == NULL)
    return NULL;
  const uint8_t *src = snap->bytes.data + in->name_offset;
  if (obj->code_page == 0)
    pd_utf16_to_utf8(src, in->name_bytes / 2, snap->bytes.big_endian, out,
                     worst);
  else
    pd_codepage_to_utf8(src, in->name_bytes, obj->code_page, out, worst);
  return out;
}

/* Every instance's own, base and full name and its "#n", from scratch. */
typedef struct slow_names {
  uint32_t count;
  char **own, **base, **full;
  uint32_t *dup;
} slow_names;

static void slow_free(slow_names *s) {
  for (uint32_t i = 0; i < s->count; i++) {
    if (s->own)
      check_free(s->own[i]);
    if (s->base)
      check_free(s->base[i]);
    if (s->full)
      check_free(s->full[i]);
  }
  check_free(s->own);
  check_free(s->base);
  check_free(s->full);
  check_free(s->dup);
  memset(s, 0, sizeof *s);
}

static int by_base(const void *ctx, uint32_t a, uint32_t b) {
  const slow_names *s = ctx;
  int c = pd_name_casecmp(s->base[a], s->base[b]);
  return c != 0 ? c : (a > b) - (a < b);
}

static int by_full(const void *ctx, uint32_t a, uint32_t b) {
  const slow_names *s = ctx;
  int c = pd_name_casecmp(s->full[a], s->full[b]);
  return c != 0 ? c : (a > b) - (a < b);
}

/* "a/b" or "a#n": check_malloc'ed. */
static char *joined(const char *a, char sep, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  char *s = check_malloc(la + lb + 2);
  if (s != NULL) {
    memcpy(s, a, la);
    s[la] = sep;
    memcpy(s + la + 1, b, lb + 1);
  }
  return s;
}

/* The base name of instance in: "parent/own" when its parent reference
 * finds an instance (format.md 1.4), else its own name. */
static char *slow_base(const pd_snapshot *snap, const pd_instance *in,
                       const char *own) {
  const pd_object *p = in->parent_object == 0
                           ? NULL
                           : pd_object_by_index(snap, in->parent_object);
  if (p == NULL || in->parent_instance >= p->instance_count)
    return check_strdup(own);
  char *parent = slow_own(snap, p, &p->instances[in->parent_instance]);
  char *s = parent ? joined(parent, '/', own) : NULL;
  check_free(parent);
  return s;
}

/* obj's names, PDH's way: the base names sorted, the k-th of each
 * case-insensitive group (in blob order) "#k". False without memory. */
static bool slow_build(const pd_snapshot *snap, const pd_object *obj,
                       slow_names *s) {
  uint32_t n = obj->instance_count;
  memset(s, 0, sizeof *s);
  s->count = n;
  s->own = check_calloc(n ? n : 1, sizeof *s->own);
  s->base = check_calloc(n ? n : 1, sizeof *s->base);
  s->full = check_calloc(n ? n : 1, sizeof *s->full);
  s->dup = check_calloc(n ? n : 1, sizeof *s->dup);
  uint32_t *order = identity_order(n);
  bool ok = s->own && s->base && s->full && s->dup && order;
  for (uint32_t i = 0; ok && i < n; i++) {
    const pd_instance *in = &obj->instances[i];
    ok = (s->own[i] = slow_own(snap, obj, in)) != NULL &&
         (s->base[i] = slow_base(snap, in, s->own[i])) != NULL;
  }
  ok = ok && sort_indices(order, n, by_base, s);
  for (uint32_t k = 0; ok && k < n; k++) {
    uint32_t i = order[k];
    if (k > 0 && pd_name_casecmp(s->base[order[k - 1]], s->base[i]) == 0)
      s->dup[i] = s->dup[order[k - 1]] + 1;
    char num[12];
    snprintf(num, sizeof num, "%u", s->dup[i]);
    s->full[i] =
        s->dup[i] ? joined(s->base[i], '#', num) : check_strdup(s->base[i]);
    ok = s->full[i] != NULL;
  }
  check_free(order);
  if (!ok)
    slow_free(s);
  return ok;
}

/* ----------------------------------------------------- one sample */

void pd_check_own_names(pd_snapshot *snap, const pd_object *obj,
                        const pd_instance_names *n) {
  for (uint32_t i = 0; i < obj->instance_count; i++) {
    char *own = slow_own(snap, obj, &obj->instances[i]);
    if (own == NULL)
      return;
    assert(strcmp(n->name[i], own) == 0);
    assert(n->own_len[i] == strlen(own));
    assert(n->own_hash[i] == pd_hash_folded(own));
    assert(n->own_has_hash[i] == (strchr(own, '#') != NULL));
    check_free(own);
  }
}

/* An instance of the index against the full name looked up. */
typedef struct index_key {
  const pd_instance_names *n;
  const char *full;
} index_key;

static bool indexed_as(const void *ctx, uint32_t value) {
  const index_key *k = ctx;
  return pd_name_casecmp(k->n->full[value - 1], k->full) == 0;
}

void pd_check_instance_names(pd_snapshot *snap, const pd_object *obj,
                             const pd_instance_names *n) {
  slow_names s;
  uint32_t count = obj->instance_count;
  if (!slow_build(snap, obj, &s))
    return;
  uint32_t *order = identity_order(count);
  if (order != NULL && sort_indices(order, count, by_full, &s)) {
    uint32_t first = 0; /* the first instance of the current full name */
    for (uint32_t k = 0; k < count; k++) {
      uint32_t i = order[k];
      bool same =
          k > 0 && pd_name_casecmp(s.full[order[k - 1]], s.full[i]) == 0;
      if (!same)
        first = i;
      /* Distinct: no two full names alike. */
      assert(!(same && n->distinct));
      assert(strcmp(n->name[i], s.own[i]) == 0);
      assert(strcmp(n->base[i], s.base[i]) == 0);
      assert(strcmp(n->full[i], s.full[i]) == 0);
      assert(n->dup_no[i] == s.dup[i]);
      assert(n->hash[i] == pd_hash_folded(s.full[i]));
      /* The index finds the first instance of that name. */
      index_key key = {n, s.full[i]};
      assert(wp_table_find(&n->index, n->hash[i], indexed_as, &key) ==
             first + 1);
    }
  }
  check_free(order);
  slow_free(&s);
}

/* ------------------------------------------------- two samples alike */

void pd_check_same_names(pd_snapshot *a, const pd_object *oa, pd_snapshot *b,
                         const pd_object *ob, bool parents_too) {
  slow_names sa, sb;
  assert(oa->instance_count == ob->instance_count);
  if (!slow_build(a, oa, &sa))
    return;
  if (!slow_build(b, ob, &sb)) {
    slow_free(&sa);
    return;
  }
  for (uint32_t i = 0; i < oa->instance_count; i++) {
    const pd_instance *x = &oa->instances[i], *y = &ob->instances[i];
    assert(strcmp(sa.own[i], sb.own[i]) == 0);
    assert(x->parent_object == y->parent_object &&
           x->parent_instance == y->parent_instance);
    assert(!parents_too || strcmp(sa.full[i], sb.full[i]) == 0);
  }
  slow_free(&sa);
  slow_free(&sb);
}

/* ---------------------------------------------------------- pairing */

/* An instance's ids, and whether it pairs by them. */
typedef struct slow_id {
  uint64_t pid, tid;
  bool usable;
  bool twice; /* another usable instance of its sample has its ids */
} slow_id;

static int by_ids(const void *ctx, uint32_t a, uint32_t b) {
  const slow_id *v = ctx;
  if (v[a].pid != v[b].pid)
    return v[a].pid < v[b].pid ? -1 : 1;
  if (v[a].tid != v[b].tid)
    return v[a].tid < v[b].tid ? -1 : 1;
  return (a > b) - (a < b);
}

/* Where obj's counter carrying id `kind` is (identity.c's rule: the first
 * 4- or 8-byte counter with one of its indices), -1 for none. */
static int32_t slow_id_counter(const pd_identity *id, const pd_object *obj,
                               int kind) {
  for (uint32_t c = 0; c < obj->counter_count && c <= INT32_MAX; c++) {
    const pd_counter_def *def = &obj->counters[c];
    for (size_t j = 0;
         j < id->ids[kind].count && (def->size == 4 || def->size == 8); j++)
      if (def->name_index == id->ids[kind].index[j])
        return (int32_t)c;
  }
  return -1;
}

/* Every instance's ids (own names: s), sorted into order, twins marked. */
static bool slow_ids(const pd_object *obj, const int32_t pos[2],
                     const slow_names *s, slow_id *v, uint32_t *order) {
  uint32_t n = obj->instance_count;
  for (uint32_t i = 0; i < n; i++) {
    const pd_instance *in = &obj->instances[i];
    v[i].pid = pd_counter_raw(NULL, in, &obj->counters[pos[0]]);
    v[i].tid =
        pos[1] >= 0 ? pd_counter_raw(NULL, in, &obj->counters[pos[1]]) : 0;
    v[i].usable = v[i].pid != 0 && (pos[1] < 0 || v[i].tid != 0) &&
                  pd_name_casecmp(s->own[i], "_Total") != 0;
    v[i].twice = false;
    order[i] = i;
  }
  if (!sort_indices(order, n, by_ids, v))
    return false;
  for (uint32_t k = 0, end; k < n; k = end) { /* each run of equal ids */
    uint32_t usable = 0;
    for (end = k; end < n && v[order[end]].pid == v[order[k]].pid &&
                  v[order[end]].tid == v[order[k]].tid;
         end++)
      usable += v[order[end]].usable;
    for (uint32_t j = k; usable > 1 && j < end; j++)
      v[order[j]].twice = v[order[j]].usable;
  }
  return true;
}

/* The first instance of the older sample (sorted by full name: order)
 * named as `full`, or PD_PAIR_NONE. */
static int32_t first_named(const slow_names *old, const uint32_t *order,
                           const char *full) {
  uint32_t lo = 0, hi = old->count;
  while (lo < hi) { /* the first whose name is not below full */
    uint32_t mid = lo + (hi - lo) / 2;
    if (pd_name_casecmp(old->full[order[mid]], full) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < old->count && pd_name_casecmp(old->full[order[lo]], full) == 0
             ? (int32_t)order[lo]
             : PD_PAIR_NONE;
}

/* The older instance with the ids of instance i (order: the older's
 * instances sorted by ids), or -1. */
static int64_t same_ids_at(const slow_id *old, const uint32_t *order,
                           uint32_t n, const slow_id *want) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    const slow_id *m = &old[order[mid]];
    if (m->pid < want->pid || (m->pid == want->pid && m->tid < want->tid))
      lo = mid + 1;
    else
      hi = mid;
  }
  for (; lo < n; lo++) { /* the usable one, if any */
    const slow_id *m = &old[order[lo]];
    if (m->pid != want->pid || m->tid != want->tid)
      break;
    if (m->usable)
      return order[lo];
  }
  return -1;
}

typedef struct slow_pairing {
  slow_names old, now;
  uint32_t *by_name; /* the older instances sorted by full name */
  slow_id *old_id, *now_id;
  uint32_t *id_order; /* the older instances sorted by ids */
} slow_pairing;

static void slow_pairing_free(slow_pairing *sp) {
  slow_free(&sp->old);
  slow_free(&sp->now);
  check_free(sp->by_name);
  check_free(sp->old_id);
  check_free(sp->now_id);
  check_free(sp->id_order);
}

/* What instance i of q's newer object pairs with, by q's rules. */
static int32_t slow_pair(const slow_pairing *sp, const pd_pair_query *q,
                         bool by_id, uint32_t i) {
  int32_t named = first_named(&sp->old, sp->by_name, sp->now.full[i]);
  if (!by_id || !sp->now_id[i].usable || sp->now_id[i].twice)
    return named;
  int64_t j = same_ids_at(sp->old_id, sp->id_order, q->old->instance_count,
                          &sp->now_id[i]);
  if (j < 0)
    return PD_PAIR_NONE; /* a new process */
  if (sp->old_id[j].twice)
    return named;
  /* A reused id under another base name is another process. */
  return pd_name_casecmp(sp->now.base[i], sp->old.base[j]) == 0 ? (int32_t)j
                                                                : PD_PAIR_NONE;
}

/* One object's pairing (pair, as the evaluation left it) against the
 * slow one. An entry still PD_PAIR_BY_NAME is what the lookup by name
 * would give. */
static void check_pairing(const pd_identity *id, const pd_pair_query *q,
                          const int32_t *pair) {
  slow_pairing sp;
  memset(&sp, 0, sizeof sp);
  uint32_t n_old = q->old->instance_count, n_now = q->obj->instance_count;
  if (!slow_build(q->older, q->old, &sp.old) ||
      !slow_build(q->newer, q->obj, &sp.now) ||
      (sp.by_name = identity_order(n_old)) == NULL ||
      !sort_indices(sp.by_name, n_old, by_full, &sp.old)) {
    slow_pairing_free(&sp);
    return;
  }
  int32_t pos_old[2] = {slow_id_counter(id, q->old, 0),
                        slow_id_counter(id, q->old, 1)};
  int32_t pos_now[2] = {slow_id_counter(id, q->obj, 0),
                        slow_id_counter(id, q->obj, 1)};
  bool by_id = q->pair_by == PD_PAIR_BY_ID && pos_old[0] >= 0 &&
               pos_now[0] >= 0 && (pos_old[1] >= 0) == (pos_now[1] >= 0);
  if (by_id) {
    uint32_t *now_order = identity_order(n_now);
    sp.old_id = check_malloc((n_old ? n_old : 1) * sizeof *sp.old_id);
    sp.now_id = check_malloc((n_now ? n_now : 1) * sizeof *sp.now_id);
    sp.id_order = identity_order(n_old);
    bool ok = now_order && sp.old_id && sp.now_id && sp.id_order &&
              slow_ids(q->old, pos_old, &sp.old, sp.old_id, sp.id_order) &&
              slow_ids(q->obj, pos_now, &sp.now, sp.now_id, now_order);
    check_free(now_order);
    if (!ok) {
      slow_pairing_free(&sp);
      return;
    }
  }
  for (uint32_t i = 0; i < n_now; i++) {
    int32_t fast = pair[i];
    if (fast == PD_PAIR_BY_NAME)
      fast = first_named(&sp.old, sp.by_name, sp.now.full[i]);
    assert(fast == slow_pair(&sp, q, by_id, i));
  }
  slow_pairing_free(&sp);
}

void pd_check_pairings(const pd_selection *sel, pd_snapshot *older,
                       pd_snapshot *newer) {
  const pd_identity *id = &sel->identity;
  if (older == NULL)
    return;
  for (int m = 0; m < 2; m++) {
    if (!id->pair_ready[m])
      continue;
    for (uint32_t k = 0; k < newer->object_count; k++) {
      const pd_object *obj = &newer->objects[k];
      if (obj->instance_count == 0 || obj->num_instances == -1)
        continue;
      const int32_t *p = &id->pair[m][obj->instances - newer->instances];
      const pd_object *old = pd_object_by_index(older, obj->name_index);
      if (p[0] == PD_PAIR_UNKNOWN || old == NULL)
        continue;
      pd_pair_query q = {older, old,
                         newer, obj,
                         k,     m == 0 ? PD_PAIR_BY_ID : PD_PAIR_BY_FULL_NAME};
      check_pairing(id, &q, p);
    }
  }
}

#endif
