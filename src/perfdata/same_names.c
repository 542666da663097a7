/* collectd-winperf: whether two samples name their instances alike.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * For pairing (identity.c): from the raw names an object's own names were
 * built from, without comparing the names themselves where that tells.
 */
#include "snapshot.h"

#include <string.h>

/* Own names alike: raw bytes, ids, parent references and the way they are
 * decoded. Each snapshot's signature already holds what its own names were
 * checked against in this decode, so one comparison of the two does it. */
static bool same_own(pd_snapshot *a, const pd_object *oa, pd_snapshot *b,
                     const pd_object *ob) {
  if (oa->instance_count != ob->instance_count ||
      oa->num_instances != ob->num_instances ||
      oa->code_page != ob->code_page ||
      a->bytes.big_endian != b->bytes.big_endian)
    return false;
  const pd_object_names *na = pd_own_names(a, oa), *nb = pd_own_names(b, ob);
  return na != NULL && nb != NULL && na->sig_len == nb->sig_len &&
         (na->sig_len == 0 || memcmp(na->sig, nb->sig, na->sig_len) == 0);
}

bool pd_instances_same_names(pd_snapshot *a, const pd_object *oa,
                             pd_snapshot *b, const pd_object *ob) {
  if (!same_own(a, oa, b, ob)) /* parent references too */
    return false;
  uint32_t checked = 0; /* the parent object compared last */
  int switches = 0;     /* bounded: a blob alternating parents is unsure */
  for (uint32_t i = 0; i < oa->instance_count; i++) {
    uint32_t parent = oa->instances[i].parent_object;
    if (parent == 0 || parent == checked)
      continue;
    if (++switches > 4)
      return false;
    const pd_object *pa = pd_snapshot_find_object(a, parent),
                    *pb = pd_snapshot_find_object(b, parent);
    if ((pa == NULL) != (pb == NULL) || (pa != NULL && !same_own(a, pa, b, pb)))
      return false;
    checked = parent;
  }
  return true;
}

/* Whether parent instance p (of pa in a, pb in b; NULL when missing)
 * gives the same base name in both: both missing or out of range (the
 * plain own name), or both there with the same own name. */
static bool same_parent_name(const pd_object *pa, const pd_object_names *na,
                             const pd_object *pb, const pd_object_names *nb,
                             uint32_t p) {
  bool in_a = pa != NULL && p < pa->instance_count,
       in_b = pb != NULL && p < pb->instance_count;
  if (!in_a || !in_b)
    return in_a == in_b;
  return na->own_len[p] == nb->own_len[p] &&
         memcmp(na->name[p], nb->name[p], na->own_len[p]) == 0;
}

bool pd_pair_same_positions(pd_snapshot *a, const pd_object *oa, pd_snapshot *b,
                            const pd_object *ob, int32_t *pair,
                            int32_t unsure) {
  if (ob->instance_count > INT32_MAX || !same_own(a, oa, b, ob))
    return false; /* same parent references too */
  const pd_object_names *fa = pd_object_full_names(a, oa),
                        *fb = pd_object_full_names(b, ob);
  if (fa == NULL || fb == NULL || !fa->distinct)
    return false;
  uint32_t parent = 0, last = UINT32_MAX; /* compared last */
  const pd_object *pa = NULL, *pb = NULL;
  const pd_object_names *na = NULL, *nb = NULL;
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
        pa = pd_snapshot_find_object(a, parent);
        pb = pd_snapshot_find_object(b, parent);
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
    pair[i] = same && dup_a[i] == dup_b[i] ? (int32_t)i : unsure;
  }
  return true;
}
