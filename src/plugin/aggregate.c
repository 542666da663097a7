/* collectd-winperf: grouping and capping one entry's results (aggregate.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "aggregate.h"
#include "counters_yaml.h"
#include "wp_grow.h"

#include <stdlib.h>
#include <string.h>

/* Most results one entry may group in an interval. */
#define WP_AGG_MAX_ITEMS 100000000u

void wp_agg_begin(wp_agg *a, int mode, unsigned long max) {
  a->count = 0;
  a->mode = mode;
  a->max = max;
  a->names = 0;
  a->dropped = 0;
}

int wp_agg_add(wp_agg *a, const pd_result *r, const char *name,
               const char *base, bool total) {
  if (WP_GROW(&a->items, &a->cap, a->count + 1, WP_AGG_MAX_ITEMS) != WP_GROW_OK)
    return -1;
  wp_agg_item *it = &a->items[a->count++];
  bool folds = a->mode != WP_AGG_NONE && !total;
  it->r = r;
  it->name = folds ? base : name;
  it->total = total;
  it->n = folds && r->status == PD_VALUE_OK ? 1 : 0;
  it->value = it->n ? r->value : 0;
  return 0;
}

/* Byte order of the name, then the counter, then the results' order. */
static int cmp(const wp_agg_item *x, const wp_agg_item *y) {
  int c = strcmp(x->name, y->name);
  if (c != 0)
    return c;
  if (x->r->counter_index != y->r->counter_index)
    return x->r->counter_index < y->r->counter_index ? -1 : 1;
  return x->r < y->r ? -1 : x->r > y->r;
}

static void sift(wp_agg_item *v, size_t root, size_t n) {
  for (;;) {
    size_t child = 2 * root + 1;
    if (child >= n)
      return;
    if (child + 1 < n && cmp(&v[child], &v[child + 1]) < 0)
      child++;
    if (cmp(&v[root], &v[child]) >= 0)
      return;
    wp_agg_item t = v[root];
    v[root] = v[child];
    v[child] = t;
    root = child;
  }
}

/* Heapsort: in place, no allocation (qsort may allocate). */
static void sort_items(wp_agg_item *v, size_t n) {
  for (size_t i = n / 2; i-- > 0;)
    sift(v, i, n);
  for (size_t end = n; end-- > 1;) {
    wp_agg_item t = v[0];
    v[0] = v[end];
    v[end] = t;
    sift(v, 0, end);
  }
}

static void fold(int mode, wp_agg_item *into, const wp_agg_item *it) {
  if (it->n == 0)
    return;
  double x = it->value;
  if (into->n == 0)
    into->value = x;
  else if (mode == WP_AGG_MIN)
    into->value = x < into->value ? x : into->value;
  else if (mode == WP_AGG_MAX)
    into->value = x > into->value ? x : into->value;
  else
    into->value += x;
  into->n++;
}

static bool same_group(const wp_agg_item *x, const wp_agg_item *y) {
  return !x->total && !y->total && strcmp(x->name, y->name) == 0 &&
         x->r->counter_index == y->r->counter_index;
}

void wp_agg_finish(wp_agg *a) {
  sort_items(a->items, a->count);
  size_t w = 0;
  for (size_t i = 0; i < a->count; i++) {
    if (a->mode != WP_AGG_NONE && w > 0 &&
        same_group(&a->items[w - 1], &a->items[i]))
      fold(a->mode, &a->items[w - 1], &a->items[i]);
    else
      a->items[w++] = a->items[i];
  }
  if (a->mode == WP_AGG_AVG)
    for (size_t i = 0; i < w; i++)
      if (!a->items[i].total && a->items[i].n > 0)
        a->items[i].value /= (double)a->items[i].n;
  /* The cap: the first `max` distinct names, totals not counted. */
  size_t kept = 0;
  const char *last = NULL;
  a->names = 0;
  a->dropped = 0;
  for (size_t i = 0; i < w; i++) {
    wp_agg_item *it = &a->items[i];
    if (!it->total && (last == NULL || strcmp(last, it->name) != 0)) {
      last = it->name;
      a->names++;
      if (a->max > 0 && a->names > a->max)
        a->dropped++;
    }
    if (it->total || a->max == 0 || a->names <= a->max)
      a->items[kept++] = *it;
  }
  a->count = kept;
}

void wp_agg_free(wp_agg *a) {
  free(a->items);
  a->items = NULL;
  a->count = a->cap = 0;
}
