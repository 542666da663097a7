/* collectd-winperf: two counters dispatched under one name (clashes.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "clashes.h"
#include "dispatch.h"

#include "wp_grow.h"
#include "wp_hash.h"

/* Most clashes remembered as logged, and logged per check. */
#define WP_CLASHES_MAX_LOGGED 4096
#define WP_CLASHES_MAX_LINES 20
/* A result's path as logged: three names of at most a few hundred bytes. */
#define WP_RESULT_PATH_MAX 1024

typedef struct clash_key {
  uint64_t hash; /* of the dispatched names */
  size_t index;  /* into the results */
} clash_key;

typedef struct ident {
  char pi[DATA_MAX_NAME_LEN], ti[DATA_MAX_NAME_LEN];
  const char *type;
} ident;

/* The hash of s and its NUL, continuing h: the NUL ends each field. */
static uint64_t hash_field(uint64_t h, const char *s) {
  return wp_hash_bytes_from(h, s, strlen(s) + 1);
}

static void ident_of(const wp_ctx *c, const pd_result *r, ident *id) {
  id->type = wp_result_names(c, r, id->pi, id->ti);
}

static bool ident_eq(const ident *a, const ident *b) {
  return strcmp(a->pi, b->pi) == 0 && strcmp(a->ti, b->ti) == 0 &&
         strcmp(a->type, b->type) == 0;
}

static int by_hash(const void *pa, const void *pb) {
  const clash_key *a = pa, *b = pb;
  if (a->hash != b->hash)
    return a->hash < b->hash ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

/* Whether the pair (a, b) was logged before; remembers it. */
static bool logged_before(wp_ctx *c, const char *a, const char *b) {
  uint64_t h = hash_field(hash_field(WP_HASH_SEED, a), b);
  for (size_t i = 0; i < c->clash_logged_count; i++)
    if (c->clash_logged[i] == h)
      return true;
  int rc = WP_GROW(&c->clash_logged, &c->clash_logged_cap,
                   c->clash_logged_count + 1, WP_CLASHES_MAX_LOGGED);
  if (rc == WP_GROW_OK)
    c->clash_logged[c->clash_logged_count++] = h;
  else if (rc == WP_GROW_NOMEM) /* logged again with the next table */
    ERROR(PLUGIN ": %s: out of memory remembering a name clash",
          wp_ctx_where(c));
  return false;
}

/* Within a run of equal hashes in v[from, to): every result whose names
 * equal an earlier one's (another counter) is a clash. */
static void check_run(wp_ctx *c, const pd_result *res, const clash_key *v,
                      size_t from, size_t to, unsigned *lines) {
  for (size_t j = from + 1; j < to; j++) {
    ident b;
    ident_of(c, &res[v[j].index], &b);
    for (size_t i = from; i < j; i++) {
      ident a;
      ident_of(c, &res[v[i].index], &a);
      if (!ident_eq(&a, &b))
        continue;
      char pa[WP_RESULT_PATH_MAX], pb[WP_RESULT_PATH_MAX];
      pd_result_path(&res[v[i].index], pa, sizeof pa);
      pd_result_path(&res[v[j].index], pb, sizeof pb);
      if (strcmp(pa, pb) == 0)
        continue;
      if (!logged_before(c, pa, pb) && (*lines)++ < WP_CLASHES_MAX_LINES)
        WARNING(PLUGIN ": %s: %s and %s are both dispatched as "
                       "winperf-%s/%s-%s: one series for two counters (set "
                       "plugin_instance/type_instance, or another "
                       "metric_names, for one of them)",
                wp_ctx_where(c), pa, pb, a.pi, a.type, a.ti);
      break;
    }
  }
}

void wp_clashes_check(wp_ctx *c, const pd_result *res, size_t n) {
  if (c->names == c->clash_names)
    return;
  c->clash_names = c->names;
  if (n < 2)
    return;
  clash_key *v = NULL;
  size_t cap = 0;
  if (WP_GROW(&v, &cap, n, WP_GROW_NO_CAP) != WP_GROW_OK) {
    ERROR(PLUGIN ": %s: cannot look for counters dispatched under one "
                 "name: out of memory",
          wp_ctx_where(c));
    return;
  }
  for (size_t i = 0; i < n; i++) {
    ident id;
    ident_of(c, &res[i], &id);
    v[i].hash =
        hash_field(hash_field(hash_field(WP_HASH_SEED, id.pi), id.ti), id.type);
    v[i].index = i;
  }
  qsort(v, n, sizeof *v, by_hash);
  unsigned lines = 0;
  for (size_t from = 0, to; from < n; from = to) {
    for (to = from + 1; to < n && v[to].hash == v[from].hash; to++)
      ;
    if (to - from > 1)
      check_run(c, res, v, from, to, &lines);
  }
  free(v);
  if (lines > WP_CLASHES_MAX_LINES)
    WARNING(PLUGIN ": %s: %u more counters share a name with another",
            wp_ctx_where(c), lines - WP_CLASHES_MAX_LINES);
}
