/* collectd-winperf: entries an earlier entry of their deduplication group
 * shadows whole (dedup_groups.h: wp_dedup_shadowed).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Entry B is shadowed when each of its paths is covered by a path of an
 * earlier entry A of the same group that has no filter: every value B's
 * path can match in any sample, A's path matches too, and the selection
 * reports it under A (src/perfdata/select.c: the first path of a group).
 * Covering is decided as the selection matches (select.c counter_matches,
 * evaluate.c instance_matches), case-insensitively:
 *
 *   object    the same name, or the same index
 *   counter   the same name or index; or A's is "*"; or A's wildcard
 *             matches B's name
 *   instance  none in B: none in A, or "(*)" (which takes a
 *             single-instance object too); "(*)" in B: "(*)" in A;
 *             a pattern in B: "(*)" or the same pattern in A; an exact
 *             name in B: "(*)", the same name, or a pattern in A that
 *             matches it (or its name without "#n")
 *
 * The earlier paths without a filter are indexed by (group, object,
 * counter, instance kind), so each path of B looks at three short lists.
 */
#include "dedup_groups.h"
#include "perfdata.h"
#include "wp_grow.h"
#include "wp_hash.h"
#include "wp_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most candidates looked at per list: bounds the work for a long list of
 * entries of one object and counter (a missed shadow only misses a log
 * line). */
enum { CANDIDATES_MAX = 64 };

/* How a path names instances: what its index lists are keyed by. */
typedef enum inst_kind {
  INST_NONE = 0, /* no "(...)": single-instance objects */
  INST_EXACT,    /* a name without wildcard */
  INST_WILD,     /* "(*)" or a pattern */
  COUNTER_WILD,  /* (index only) a wildcard counter, any instance */
} inst_kind;

typedef struct parsed_path {
  pd_path p;
  char *full; /* "parent/name#n" as the selection matches; NULL: none */
  char *base; /* the same without "#n" */
  inst_kind kind;
  bool all; /* "(*)" */
} parsed_path;

/* An earlier path without a filter, in the index. */
typedef struct coverer {
  parsed_path path;
  size_t entry;
  uint32_t group;
  inst_kind list; /* the list it is in (COUNTER_WILD for a wildcard
                   * counter, else its instance kind) */
  uint32_t next;  /* the next in its list, + 1; 0: the last */
  uint32_t last;  /* for a list's first: its last, + 1 */
} coverer;

typedef struct shadow_index {
  coverer *c;
  size_t count, cap;
  wp_table lists; /* each list's first coverer + 1 */
} shadow_index;

static void parsed_clear(parsed_path *pp) {
  pd_path_clear(&pp->p);
  free(pp->full);
  free(pp->base);
}

/* text parsed as the selection parses it (select.c pd_selection_add); -1
 * out of memory, 1 not a path (the loader checked it: never). */
static int parse(const char *text, parsed_path *pp) {
  memset(pp, 0, sizeof *pp);
  pd_error err;
  pd_status s = pd_path_parse(text, &pp->p, &err);
  if (s != PD_OK)
    return s == PD_E_NOMEM ? -1 : 1;
  if (pp->p.instance == NULL)
    return 0;
  const char *parent = pp->p.parent;
  size_t len = strlen(pp->p.instance) + 16 + (parent ? strlen(parent) + 1 : 0);
  pp->full = malloc(len);
  pp->base = malloc(len);
  if (pp->full == NULL || pp->base == NULL) {
    parsed_clear(pp);
    return -1;
  }
  snprintf(pp->base, len, "%s%s%s", parent ? parent : "", parent ? "/" : "",
           pp->p.instance);
  if (pp->p.dup_index > 0)
    snprintf(pp->full, len, "%s#%u", pp->base, pp->p.dup_index);
  else
    snprintf(pp->full, len, "%s", pp->base);
  pp->all = strcmp(pp->full, "*") == 0;
  pp->kind = pp->p.instance_has_wildcard ? INST_WILD : INST_EXACT;
  return 0;
}

/* Two object or counter names of paths: both numbers and equal, or both
 * names and equal but for case. */
static bool same_name(const char *a, bool a_index, const char *b,
                      bool b_index) {
  if (a_index != b_index)
    return false;
  return a_index ? strtoul(a, NULL, 10) == strtoul(b, NULL, 10)
                 : pd_name_casecmp(a, b) == 0;
}

static bool covers_counter(const pd_path *a, const pd_path *b) {
  if (strcmp(a->counter, "*") == 0)
    return true;
  if (b->counter_has_wildcard)
    return false;
  if (a->counter_has_wildcard)
    return !b->counter_is_index && pd_wildcard_match(a->counter, b->counter);
  return same_name(a->counter, a->counter_is_index, b->counter,
                   b->counter_is_index);
}

static bool covers_instance(const parsed_path *a, const parsed_path *b) {
  if (a->all)
    return true;
  if (b->kind == INST_NONE || a->kind == INST_NONE)
    return a->kind == b->kind;
  if (b->kind == INST_WILD || a->kind == INST_EXACT)
    return pd_name_casecmp(a->full, b->full) == 0;
  return pd_wildcard_match(a->full, b->full) ||
         pd_wildcard_match(a->full, b->base);
}

static bool covers(const parsed_path *a, const parsed_path *b) {
  return same_name(a->p.object, a->p.object_is_index, b->p.object,
                   b->p.object_is_index) &&
         covers_counter(&a->p, &b->p) && covers_instance(a, b);
}

/* ------------------------------------------------------------ the index */

/* The key of a list: group, list kind, object, and but for COUNTER_WILD
 * the counter, and for INST_EXACT the instance. */
typedef struct list_key {
  uint32_t group;
  inst_kind list;
  const parsed_path *path;
} list_key;

static uint64_t hash_name(uint64_t h, const char *s, bool index) {
  uint32_t v = index ? (uint32_t)strtoul(s, NULL, 10) : pd_hash_folded(s);
  uint8_t tag = index;
  h = wp_hash_bytes_from(h, &tag, 1);
  return wp_hash_bytes_from(h, &v, sizeof v);
}

static uint32_t hash_list(const list_key *k) {
  uint32_t head[2] = {k->group, (uint32_t)k->list};
  const pd_path *p = &k->path->p;
  uint64_t h = wp_hash_bytes(head, sizeof head);
  h = hash_name(h, p->object, p->object_is_index);
  if (k->list != COUNTER_WILD)
    h = hash_name(h, p->counter, p->counter_is_index);
  if (k->list == INST_EXACT)
    h = wp_hash_bytes_from(h, &(uint32_t){pd_hash_folded(k->path->full)}, 4);
  return wp_hash32(h);
}

typedef struct list_lookup {
  const shadow_index *ix;
  const list_key *key;
} list_lookup;

static bool is_list(const void *ctx, uint32_t value) {
  const list_lookup *l = ctx;
  const coverer *c = &l->ix->c[value - 1];
  const parsed_path *a = &c->path, *b = l->key->path;
  return c->group == l->key->group && c->list == l->key->list &&
         same_name(a->p.object, a->p.object_is_index, b->p.object,
                   b->p.object_is_index) &&
         (c->list == COUNTER_WILD ||
          same_name(a->p.counter, a->p.counter_is_index, b->p.counter,
                    b->p.counter_is_index)) &&
         (c->list != INST_EXACT || pd_name_casecmp(a->full, b->full) == 0);
}

/* Add coverer c (parsed into ix->c[ix->count]) at the end of its list. */
static int index_add(shadow_index *ix) {
  coverer *c = &ix->c[ix->count];
  c->list = c->path.p.counter_has_wildcard ? COUNTER_WILD : c->path.kind;
  c->next = c->last = 0;
  list_key k = {c->group, c->list, &c->path};
  if (ix->count >= UINT32_MAX - 1 ||
      wp_table_reserve(&ix->lists, ix->count + 1) != WP_GROW_OK)
    return -1;
  uint32_t self = (uint32_t)ix->count + 1;
  uint32_t first = wp_table_find_or_put(&ix->lists, hash_list(&k), self,
                                        is_list, &(list_lookup){ix, &k});
  if (first != 0) {
    coverer *head = &ix->c[first - 1];
    ix->c[(head->last ? head->last : first) - 1].next = self;
    head->last = self;
  }
  ix->count++;
  return 0;
}

/* An earlier coverer of b in the list (group, kind) b's path keys, or
 * SIZE_MAX. */
static size_t find_in(const shadow_index *ix, uint32_t group, inst_kind list,
                      const parsed_path *b) {
  list_key k = {group, list, b};
  uint32_t v =
      wp_table_find(&ix->lists, hash_list(&k), is_list, &(list_lookup){ix, &k});
  for (int seen = 0; v != 0 && seen < CANDIDATES_MAX; seen++) {
    const coverer *c = &ix->c[v - 1];
    if (covers(&c->path, b))
      return c->entry;
    v = c->next;
  }
  return SIZE_MAX;
}

/* The earlier entry covering b (group `group`), or SIZE_MAX. */
static size_t covering(const shadow_index *ix, uint32_t group,
                       const parsed_path *b) {
  size_t by = SIZE_MAX;
  if (!b->p.counter_has_wildcard) {
    if (b->kind != INST_WILD)
      by = find_in(ix, group, b->kind, b);
    if (by == SIZE_MAX)
      by = find_in(ix, group, INST_WILD, b);
  }
  return by != SIZE_MAX ? by : find_in(ix, group, COUNTER_WILD, b);
}

/* ------------------------------------------------------------ the list */

/* Entry i's path a (0: its path) parsed into pp. */
static int parse_entry_path(const wp_counter_entry *e, size_t a,
                            parsed_path *pp) {
  return parse(a > 0 ? e->alts[a - 1].path : e->path, pp);
}

/* Whether entry e (its first path `first`) is shadowed: *by the entry
 * covering its first path. -1 out of memory. */
static int shadowed(const shadow_index *ix, const wp_counter_entry *e,
                    const uint32_t *groups, size_t first, size_t *by) {
  *by = SIZE_MAX;
  for (size_t a = 0; a <= e->alt_count; a++) {
    parsed_path pp;
    int rc = parse_entry_path(e, a, &pp);
    if (rc != 0)
      return rc < 0 ? -1 : 0;
    size_t b = covering(ix, groups[first + a], &pp);
    parsed_clear(&pp);
    if (b == SIZE_MAX)
      return 0;
    if (a == 0)
      *by = b;
  }
  return 1;
}

/* Entry i (no filter: one path, first) into the index. */
static int add_coverer(shadow_index *ix, const wp_counter_entry *e, size_t i,
                       uint32_t group) {
  if (WP_GROW(&ix->c, &ix->cap, ix->count + 1, WP_GROW_NO_CAP) != WP_GROW_OK)
    return -1;
  coverer *c = &ix->c[ix->count];
  int rc = parse_entry_path(e, 0, &c->path);
  if (rc != 0)
    return rc < 0 ? -1 : 0;
  c->entry = i;
  c->group = group;
  if (index_add(ix) != 0) {
    parsed_clear(&c->path);
    return -1;
  }
  return 0;
}

static int note(wp_shadowed **out, size_t *count, size_t *cap, size_t entry,
                size_t by) {
  if (WP_GROW(out, cap, *count + 1, WP_GROW_NO_CAP) != WP_GROW_OK)
    return -1;
  (*out)[(*count)++] = (wp_shadowed){entry, by};
  return 0;
}

int wp_dedup_shadowed(const wp_counter_list *list, const uint32_t *groups,
                      wp_shadowed **out, size_t *count) {
  shadow_index ix = {0};
  size_t cap = 0, first = 0;
  int rc = 0;
  *out = NULL;
  *count = 0;
  for (size_t i = 0; rc == 0 && i < list->count;
       first += 1 + list->entries[i++].alt_count) {
    const wp_counter_entry *e = &list->entries[i];
    size_t by;
    rc = shadowed(&ix, e, groups, first, &by);
    if (rc > 0)
      rc = note(out, count, &cap, i, by);
    if (rc == 0 && e->alt_count == 0 && !wp_card_wanted(&e->card))
      rc = add_coverer(&ix, e, i, groups[first]);
  }
  for (size_t k = 0; k < ix.count; k++)
    parsed_clear(&ix.c[k].path);
  free(ix.c);
  wp_table_free(&ix.lists);
  if (rc != 0) {
    free(*out);
    *out = NULL;
    *count = 0;
    return -1;
  }
  return 0;
}
