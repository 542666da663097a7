/* collectd-winperf: an evaluation's deduplication checked the slow,
 * obvious way (cache_check.h; debug builds only).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * What share() (select.c) and the reported set (evaluate.c) decide per
 * counter and per value, with their claims, skips and hash lookups, is
 * checked here against the definition: the values every path matched
 * (after its instance pattern and filter), sorted by group and value,
 * must each be reported exactly once in their group, under the first path
 * that matched them, and the evaluation's results must be those and no
 * more.
 */
#include "cache_check.h"

#ifndef NDEBUG

#include "selection.h"

#include <stdlib.h>
#include <string.h>

void pd_check_matched_begin(pd_selection *sel) {
  sel->matched.count = 0;
  sel->matched.lost = false;
}

void pd_check_matched(pd_selection *sel, const pd_value_key *key,
                      size_t path_id, bool reported) {
  pd_matched_log *log = &sel->matched;
  if (log->lost)
    return;
  if (log->count == log->cap) {
    size_t cap = log->cap ? 2 * log->cap : 256;
    pd_matched_value *v =
        cap <= SIZE_MAX / sizeof *v ? pd_check_malloc(cap * sizeof *v) : NULL;
    if (v == NULL) { /* no memory: this evaluation goes unchecked */
      log->lost = true;
      return;
    }
    if (log->count > 0)
      memcpy(v, log->v, log->count * sizeof *v);
    pd_check_free(log->v);
    log->v = v;
    log->cap = cap;
  }
  log->v[log->count++] = (pd_matched_value){*key, path_id, reported};
}

static int cmp_u32(uint32_t a, uint32_t b) {
  return a < b ? -1 : a > b;
}

static int by_value(const void *pa, const void *pb) {
  const pd_matched_value *a = pa, *b = pb;
  int c = cmp_u32(a->key.group, b->key.group);
  if (c == 0)
    c = cmp_u32(a->key.obj_pos, b->key.obj_pos);
  if (c == 0)
    c = cmp_u32(a->key.instance, b->key.instance);
  if (c == 0)
    c = cmp_u32(a->key.counter, b->key.counter);
  if (c == 0)
    c = a->path_id < b->path_id ? -1 : a->path_id > b->path_id;
  return c;
}

static bool same_value(const pd_value_key *a, const pd_value_key *b) {
  return a->group == b->group && a->obj_pos == b->obj_pos &&
         a->instance == b->instance && a->counter == b->counter;
}

void pd_check_dedup(pd_selection *sel) {
  pd_matched_log *log = &sel->matched;
  if (log->lost)
    return;
  if (log->count > 1) /* qsort's array must not be NULL, even for 0 */
    qsort(log->v, log->count, sizeof *log->v, by_value);
  size_t reported = 0;
  for (size_t i = 0; i < log->count; i++) {
    const pd_matched_value *v = &log->v[i];
    bool first = i == 0 || !same_value(&log->v[i - 1].key, &v->key);
    /* a path matches a value once; the first path of the group that
     * matched it reports it, no other */
    assert(first || log->v[i - 1].path_id < v->path_id);
    assert(v->reported == first);
    reported += v->reported;
  }
  assert(reported == sel->result_count);
}

void pd_check_matched_free(pd_selection *sel) {
  pd_check_free(sel->matched.v);
  sel->matched.v = NULL;
  sel->matched.count = sel->matched.cap = 0;
}

#endif
