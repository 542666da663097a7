/* collectd-winperf: one computed counter value to collectd, and the names
 * values go under (dispatch.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "dispatch.h"
#include "wp_grow.h"
#include "wp_hash.h"
#include "naming.h"

#include "collectd/core/utils/common/common.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* The value in the data source's type; false when it cannot carry it. */
static bool to_value(const pd_result *r, bool raw, double scale, int ds_type,
                     value_t *v) {
  if (ds_type == DS_TYPE_GAUGE) {
    v->gauge = (raw ? (double)r->raw_value : r->value) * scale;
    return true;
  }
  if (raw && scale == 1.0) {
    /* exact: no trip through double */
    if (ds_type == DS_TYPE_DERIVE)
      v->derive = (derive_t)r->raw_value;
    else if (ds_type == DS_TYPE_COUNTER)
      v->counter = (counter_t)r->raw_value;
    else
      v->absolute = (absolute_t)r->raw_value;
    return true;
  }
  double x = (raw ? (double)r->raw_value : r->value) * scale;
  if (!isfinite(x))
    return false;
  if (ds_type == DS_TYPE_DERIVE)
    v->derive = (derive_t)llround(x);
  else if (x < 0)
    return false; /* counter/absolute cannot carry it */
  else if (ds_type == DS_TYPE_COUNTER)
    v->counter = (counter_t)llround(x);
  else
    v->absolute = (absolute_t)llround(x);
  return true;
}

/* Whether the entry dispatches raw values (ValueMode, or its raw key). */
static bool entry_raw(const wp_ctx *c, const wp_counter_entry *e) {
  return e->raw >= 0 ? e->raw == 1 : c->opt.raw_mode;
}

/* r's plugin_instance and type_instance (naming.h, with the entry's or the
 * block's MetricNames and InstanceNames, the entry's overrides and its
 * alternative's wildcards); returns its types.db type for `raw`. */
static const char *names_of(const wp_ctx *c, const pd_result *r, bool raw,
                            char plugin_instance[DATA_MAX_NAME_LEN],
                            char type_instance[DATA_MAX_NAME_LEN]) {
  const wp_path_ref *ref = &c->paths[r->path_id];
  const wp_counter_entry *e = &c->counters.entries[ref->entry];
  wp_metric_names m = e->metric_names >= 0 ? (wp_metric_names)e->metric_names
                                           : c->opt.metric_names;
  wp_instance_names in = e->instance_names >= 0
                             ? (wp_instance_names)e->instance_names
                             : c->opt.instance_names;
  char by_id[DATA_MAX_NAME_LEN], object[DATA_MAX_NAME_LEN],
      instance[DATA_MAX_NAME_LEN], counter[DATA_MAX_NAME_LEN];
  wp_name_plugin_instance(
      plugin_instance, DATA_MAX_NAME_LEN,
      wp_name_part(object, sizeof object, r->object, m),
      wp_name_part(instance, sizeof instance,
                   wp_name_instance(by_id, sizeof by_id, r, in), m),
      e->plugin_instance, ref->instance_has_wildcard);
  wp_name_type_instance(type_instance, DATA_MAX_NAME_LEN,
                        wp_name_part(counter, sizeof counter, r->counter, m),
                        e->type_instance, ref->counter_has_wildcard);
  return e->type ? e->type : wp_name_default_type(raw, r->counter_type);
}

const char *wp_result_names(const wp_ctx *c, const pd_result *r,
                            char plugin_instance[DATA_MAX_NAME_LEN],
                            char type_instance[DATA_MAX_NAME_LEN]) {
  const wp_counter_entry *e = &c->counters.entries[c->paths[r->path_id].entry];
  return names_of(c, r, entry_raw(c, e), plugin_instance, type_instance);
}

/* Copy a name into one of value_list_t's fields (size bytes, NUL ended):
 * sstrncpy would pad every field with zeros, 128 bytes each, every value. */
static void copy_name(char *dst, const char *src, size_t size) {
  size_t n = strnlen(src, size - 1);
  memcpy(dst, src, n);
  dst[n] = '\0';
}

/* Append a string and its NUL (a lone 0x01 byte for NULL, which no name
 * holds) to key; false when it does not fit. */
static bool key_text(char *key, size_t cap, size_t *len, const char *s) {
  if (s == NULL)
    s = "\x01";
  size_t n = strlen(s) + 1;
  if (n > cap - *len)
    return false;
  memcpy(key + *len, s, n);
  *len += n;
  return true;
}

/* Everything r's names depend on (names_of), as bytes: its path (the entry
 * and its settings), counter, raw or not, ids, and the names' text. 0 when
 * it does not fit (the names are then built every time). */
static size_t result_key(char *key, size_t cap, const pd_result *r, bool raw) {
  struct {
    uint64_t path_id, pid, tid;
    uint32_t counter_index, counter_type;
    uint8_t flags;
  } head;
  memset(&head, 0, sizeof head); /* padding bytes too: they are hashed */
  head.path_id = r->path_id;
  head.pid = r->pid;
  head.tid = r->tid;
  head.counter_index = r->counter_index;
  head.counter_type = r->counter_type;
  head.flags = (uint8_t)(raw | r->has_pid << 1 | r->has_tid << 2);
  size_t len = sizeof head;
  memcpy(key, &head, len);
  if (!key_text(key, cap, &len, r->object) ||
      !key_text(key, cap, &len, r->instance) ||
      !key_text(key, cap, &len, r->counter) ||
      !key_text(key, cap, &len, r->id_base))
    return 0;
  return len;
}

/* r's names (names_of) into vl, from the cache when r's key is known: at
 * r's position in the interval's results when the instance set did not
 * change, else by hash. */
static const char *cached_names(wp_ctx *c, const pd_result *r, bool raw,
                                value_list_t *vl) {
  char key[4 * DATA_MAX_NAME_LEN];
  size_t len = result_key(key, sizeof key, r, raw);
  if (len == 0)
    return names_of(c, r, raw, vl->plugin_instance, vl->type_instance);
  wp_name_cache *nc = &c->name_cache;
  size_t pos =
      c->results != NULL && r >= c->results && r < c->results + c->result_count
          ? (size_t)(r - c->results)
          : SIZE_MAX; /* an aggregate's own result */
  const wp_name_slot *s = wp_name_cache_at(nc, pos, key, len);
  if (s == NULL) {
    uint64_t hash = wp_name_cache_hash(key, len);
    s = wp_name_cache_find(nc, key, len, hash);
    if (s == NULL) {
      const char *type =
          names_of(c, r, raw, vl->plugin_instance, vl->type_instance);
      s = wp_name_cache_put(nc, key, len, hash, vl->plugin_instance,
                            vl->type_instance, type);
      wp_name_cache_remember(nc, pos, s);
      return type;
    }
    wp_name_cache_remember(nc, pos, s);
  }
  copy_name(vl->plugin_instance, wp_name_slot_plugin_instance(s),
            sizeof vl->plugin_instance);
  copy_name(vl->type_instance, wp_name_slot_type_instance(s),
            sizeof vl->type_instance);
#ifndef NDEBUG
  /* Debug builds: the cached names are those built anew. */
  char pi[DATA_MAX_NAME_LEN], ti[DATA_MAX_NAME_LEN];
  const char *type = names_of(c, r, raw, pi, ti);
  assert(strcmp(pi, vl->plugin_instance) == 0 &&
         strcmp(ti, vl->type_instance) == 0 && strcmp(type, s->type) == 0);
#endif
  return s->type;
}

/* r (its value already in the mode `raw` says) to collectd's writers. */
static bool dispatch(wp_ctx *c, const pd_result *r, bool raw) {
  const wp_path_ref *ref = &c->paths[r->path_id];
  const wp_counter_entry *e = &c->counters.entries[ref->entry];
  const wp_entry_rt *rt = &c->rt[ref->entry];
  if (rt->fresh) /* added by a reload: its first sample (reload.h) */
    return false;
  /* Formatted: only a computed value. Raw: the raw reading exists whatever
   * the pair's status, except for text and unknown types. */
  bool usable = raw ? r->status != PD_VALUE_NOT_NUMERIC &&
                          r->status != PD_VALUE_UNKNOWN_TYPE
                    : r->status == PD_VALUE_OK;
  if (!usable) {
    char path[1024];
    plugin_log(LOG_DEBUG, PLUGIN ": %s: no value (%s)",
               pd_result_path(r, path, sizeof path),
               pd_value_status_name(r->status));
    return false;
  }
  value_list_t vl;
  memcpy(&vl, &c->vl_template, sizeof vl); /* host and plugin set */
  const char *type = cached_names(c, r, raw, &vl);
  int ds_type = rt->ds                        ? rt->ds->ds[0].type
                : strcmp(type, "derive") == 0 ? DS_TYPE_DERIVE
                                              : DS_TYPE_GAUGE;
  value_t v;
  if (!to_value(r, raw, e->scale, ds_type, &v))
    return false;
  vl.values = &v;
  vl.values_len = 1;
  if (c->sample_time && !c->skewed && r->time_100ns > WP_EPOCH_DIFF_100NS) {
    uint64_t ns = (uint64_t)(r->time_100ns - WP_EPOCH_DIFF_100NS) * 100u;
    vl.time = NS_TO_CDTIME_T(ns);
  } /* else 0: collectd stamps it now */
  copy_name(vl.type, type, sizeof(vl.type));
  return plugin_dispatch_values(&vl) == 0;
}

bool wp_dispatch_result(wp_ctx *c, const pd_result *r) {
  if (r->path_id >= c->path_count)
    return false;
  const wp_counter_entry *e = &c->counters.entries[c->paths[r->path_id].entry];
  return dispatch(c, r, entry_raw(c, e));
}

bool wp_dispatch_aggregate(wp_ctx *c, const pd_result *r, const char *instance,
                           double value) {
  if (r->path_id >= c->path_count)
    return false;
  pd_result agg = *r;
  agg.instance = instance;
  agg.id_base = NULL; /* one value of many processes: no pid in its name */
  agg.value = value;
  agg.status = PD_VALUE_OK;
  return dispatch(c, &agg, false);
}

/* ---------------------------------------- two counters under one name */

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

/* One counter (path) dispatched under one name by two entries, whose
 * output settings differ (else the selection reports it once: they are in
 * one deduplication group); logged once per pair of entries. Entries that
 * aggregate dispatch other names than their results': not looked at. */
static void check_twice(wp_ctx *c, const pd_result *ra, const pd_result *rb,
                        const char *path, const ident *id, unsigned *lines) {
  const wp_counter_entry *ea =
      &c->counters.entries[c->paths[ra->path_id].entry];
  const wp_counter_entry *eb =
      &c->counters.entries[c->paths[rb->path_id].entry];
  if (ea == eb || ea->card.aggregate != WP_AGG_NONE ||
      eb->card.aggregate != WP_AGG_NONE)
    return;
  char pair[64];
  snprintf(pair, sizeof pair, "%u:%u %u:%u", ea->line, ea->column, eb->line,
           eb->column);
  if (!logged_before(c, "twice", pair) && (*lines)++ < WP_CLASHES_MAX_LINES)
    WARNING(PLUGIN ": %s: %s is dispatched twice as winperf-%s/%s-%s, by "
                   "%s:%u:%u and %s:%u:%u, whose output settings differ: "
                   "two values for one series (set plugin_instance or "
                   "type_instance for one of them)",
            wp_ctx_where(c), path, id->pi, id->type, id->ti, c->counters_file,
            ea->line, ea->column, c->counters_file, eb->line, eb->column);
}

/* Within a run of equal hashes in v[from, to): every result whose names
 * equal an earlier one's is a clash: another counter, or the same one of
 * another entry. */
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
      if (strcmp(pa, pb) == 0) {
        check_twice(c, &res[v[i].index], &res[v[j].index], pa, &a, lines);
        continue;
      }
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
