/* collectd-winperf: a fleet's hosts: the set this poller polls, their
 * contexts and the inventories' reload (fleet_hosts.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "fleet_hosts.h"
#include "wp_grow.h"
#include "fleet_auth.h"
#include "reload.h"
#include "shard.h"

#include "collectd/core/utils/common/common.h"

#include <errno.h>
#include <sys/stat.h>

void wp_fleet_set_free(wp_fleet_set *set) {
  for (size_t i = 0; i < set->count; i++) {
    free(set->hosts[i].name);
    wp_hs_free(&set->hosts[i].s);
    if (set->hosts[i].ctx != NULL)
      wp_ctx_free(set->hosts[i].ctx);
  }
  free(set->hosts);
  memset(set, 0, sizeof(*set));
}

/* Every name given to this fleet and the fleets before it, for the
 * duplicate check; `where` strings in `store`. */
typedef struct names {
  wp_host_origin *o;
  char **store;
  size_t n, cap;
} names;

static int add_name(names *nm, const char *name, const char *where) {
  if (nm->n == nm->cap) {
    size_t cap = nm->cap;
    if (WP_GROW(&nm->o, &cap, nm->n + 1, WP_GROW_NO_CAP) != WP_GROW_OK ||
        WP_RESIZE(&nm->store, cap) != WP_GROW_OK)
      return -1;
    nm->cap = cap;
  }
  nm->store[nm->n] = strdup(where);
  nm->o[nm->n].name = name;
  nm->o[nm->n].where = nm->store[nm->n];
  return nm->store[nm->n++] ? 0 : -1;
}

static void names_free(names *nm) {
  for (size_t i = 0; i < nm->n; i++)
    free(nm->store[i]);
  free(nm->store);
  free(nm->o);
}

/* One host into the set: resolved, if enabled and this shard's; its
 * authentication checked (every poller of the shards alike). */
static int resolve(wp_fleet *f, wp_fleet_set *set, const char *name,
                   const char *where, const wp_host_settings *own,
                   const wp_host_settings *inventory_defaults, wp_error *err) {
  wp_host_settings s;
  if (wp_hs_copy(&s, own) != 0 ||
      (inventory_defaults && wp_hs_inherit(&s, inventory_defaults) != 0) ||
      wp_hs_inherit(&s, &f->defaults) != 0) {
    wp_hs_free(&s);
    return -1;
  }
  if ((s.set & WP_HS_BIT(WP_HS_ENABLED)) && !s.enabled) {
    wp_hs_free(&s);
    return 0;
  }
  if (wp_fleet_check_auth(name, where, &s, err) != 0) {
    wp_hs_free(&s);
    return -1;
  }
  set->considered++;
  if (f->shard_n > 1 && wp_shard_of(name, f->shard_n) != f->shard_k) {
    wp_hs_free(&s);
    return 0;
  }
  if (WP_GROW(&set->hosts, &set->cap, set->count + 1, WP_GROW_NO_CAP) !=
      WP_GROW_OK) {
    wp_hs_free(&s);
    return -1;
  }
  wp_fleet_host *h = &set->hosts[set->count++];
  memset(h, 0, sizeof(*h));
  h->s = s;
  return (h->name = strdup(name)) ? 0 : -1;
}

static int other_names(names *nm, wp_fleet *others, const wp_fleet *f) {
  for (wp_fleet *o = others; o != NULL && o != f; o = o->next)
    for (size_t i = 0; i < o->hosts.count; i++)
      if (add_name(nm, o->hosts.hosts[i].name, "another <Plugin winperf>") != 0)
        return -1;
  return 0;
}

int wp_fleet_load(wp_fleet *f, wp_fleet *others, wp_fleet_set *set,
                  wp_error *err) {
  memset(set, 0, sizeof(*set));
  wp_inventory *inv = calloc(f->n_inventories + 1, sizeof(*inv));
  names nm = {0};
  int status = inv == NULL ? wp_error_nomem(err) : 0;
  for (size_t i = 0; i < f->n_inventories && status == 0; i++)
    status = wp_inventory_load(f->inventories[i], &inv[i], err);
  for (size_t i = 0; i < f->n_statics && status == 0; i++)
    status = add_name(&nm, f->statics[i].name, f->statics[i].where);
  for (size_t i = 0; i < f->n_inventories && status == 0; i++) {
    for (size_t j = 0; j < inv[i].count && status == 0; j++) {
      char where[600];
      snprintf(where, sizeof(where), "%s:%u:%u", inv[i].path,
               inv[i].hosts[j].line, inv[i].hosts[j].column);
      status = add_name(&nm, inv[i].hosts[j].name, where);
    }
  }
  if (status == 0)
    status = other_names(&nm, others, f);
  if (status == 0)
    status = wp_hosts_unique(nm.o, nm.n, err);
  for (size_t i = 0; i < f->n_statics && status == 0; i++)
    status = resolve(f, set, f->statics[i].name, f->statics[i].where,
                     &f->statics[i].s, NULL, err);
  for (size_t i = 0; i < f->n_inventories && status == 0; i++) {
    for (size_t j = 0; j < inv[i].count && status == 0; j++) {
      char where[600];
      snprintf(where, sizeof(where), "%s:%u:%u", inv[i].path,
               inv[i].hosts[j].line, inv[i].hosts[j].column);
      status = resolve(f, set, inv[i].hosts[j].name, where, &inv[i].hosts[j].s,
                       &inv[i].defaults, err);
    }
  }
  if (status != 0 && err->message[0] == '\0')
    wp_error_nomem(err);
  for (size_t i = 0; inv != NULL && i < f->n_inventories; i++)
    wp_inventory_free(&inv[i]);
  free(inv);
  names_free(&nm);
  if (status != 0)
    wp_fleet_set_free(set);
  return status;
}

/* HostsPerHelper: a shared helper of the host's RemoteHelper with a free
 * session, else a new one. 0, or -1 (logged). */
static int join_helper(wp_fleet *f, wp_ctx *c) {
  unsigned per = f->hosts_per_helper;
  pthread_mutex_lock(&f->lock);
  size_t k = 0;
  while (k < f->n_groups &&
         (f->groups[k].used >= per ||
          (f->groups[k].program == NULL) != (c->helper == NULL) ||
          (c->helper != NULL && strcmp(f->groups[k].program, c->helper) != 0)))
    k++;
  int status = 0;
  if (k == f->n_groups) {
    wp_fleet_group *g = NULL;
    wp_error err = {0};
    if (WP_GROW(&f->groups, &f->groups_cap, k + 1, WP_GROW_NO_CAP) ==
        WP_GROW_OK) {
      g = f->groups;
      memset(&g[k], 0, sizeof(*g));
      g[k].program = c->helper ? strdup(c->helper) : NULL;
      g[k].h = wp_source_shared_helper(c->helper, per, &err);
    }
    if (g == NULL || g[k].h == NULL) {
      ERROR(PLUGIN ": HostsPerHelper: %s",
            err.message[0] ? err.message : "out of memory");
      if (g != NULL)
        free(g[k].program);
      status = -1;
    } else {
      f->n_groups++;
    }
  }
  if (status == 0) {
    f->groups[k].used++;
    c->group = (int)k;
    c->shared = f->groups[k].h;
    wp_source_shared_helper_ref(c->shared);
  }
  pthread_mutex_unlock(&f->lock);
  return status;
}

/* The wp_options a host's settings change. */
static void host_options(wp_options *o, const wp_host_settings *s) {
  if (s->set & WP_HS_BIT(WP_HS_TIMESTAMP))
    o->timestamp = s->timestamp == 1 ? WP_TS_NOW : WP_TS_SAMPLE;
  if (s->set & WP_HS_BIT(WP_HS_PAIR_BY))
    o->pair_by = s->pair_by ? PD_PAIR_BY_FULL_NAME : PD_PAIR_BY_ID;
  if (s->set & WP_HS_BIT(WP_HS_INSTANCE_NAMES))
    o->instance_names = (wp_instance_names)s->instance_names;
  if (s->set & WP_HS_BIT(WP_HS_METRIC_NAMES))
    o->metric_names = (wp_metric_names)s->metric_names;
  if (s->set & WP_HS_BIT(WP_HS_SELF_METRICS))
    o->self_metrics = s->self_metrics;
}

static char *dup_or_null(const char *s, bool *ok) {
  char *d = s ? strdup(s) : NULL;
  if (s != NULL && d == NULL)
    *ok = false;
  return d;
}

/* A host's context; NULL with the reason logged. */
static wp_ctx *host_ctx(wp_fleet *f, const wp_fleet_host *h) {
  const wp_host_settings *s = &h->s;
  if (s->counters_file == NULL) {
    ERROR(PLUGIN ": host \"%s\": no CountersFile (give counters_file, or "
                 "CountersFile in <Plugin winperf>)",
          h->name);
    return NULL;
  }
  wp_ctx *c = wp_ctx_new(WP_SOURCE_REMOTE);
  if (c == NULL)
    return NULL;
  bool ok = true;
  c->opt = f->top_opt;
  host_options(&c->opt, s);
  c->host = dup_or_null(h->name, &ok);
  c->address = dup_or_null(s->address ? s->address : h->name, &ok);
  c->user = dup_or_null(s->user, &ok);
  c->domain = dup_or_null(s->domain, &ok);
  c->password_file = dup_or_null(s->password_file, &ok);
  c->counters_file = dup_or_null(s->counters_file, &ok);
  c->helper = dup_or_null(s->remote_helper, &ok);
  c->helper_user = dup_or_null(f->helper_user, &ok);
  c->no_sandbox = f->no_sandbox;
  c->port = wp_hs_port(s);
  c->connect_timeout_ms = wp_hs_connect_ms(s);
  c->query_timeout_ms = wp_hs_query_ms(s);
  c->encrypt = s->encrypt;
  c->auth = dup_or_null(wp_fleet_auth_name(s), &ok);
  c->principal = dup_or_null(s->principal, &ok);
  c->keytab = dup_or_null(s->keytab, &ok);
  c->ccache = dup_or_null(s->ccache, &ok);
  c->krb5_config = dup_or_null(s->krb5_config, &ok);
  if (s->set & WP_HS_BIT(WP_HS_INTERVAL))
    c->interval = DOUBLE_TO_CDTIME_T(s->interval);
  c->max_clock_skew = f->max_clock_skew;
  c->auth_retry = f->auth_retry;
  c->connects = &f->connects;
  c->on_free = f->host_gone;
  c->group = -1;
  pthread_mutex_lock(&f->lock);
  f->refs++;
  pthread_mutex_unlock(&f->lock);
  c->fleet = f;
  if (ok)
    c->cred = wp_fleet_cred(s);
  if (!ok || c->cred == NULL ||
      (f->hosts_per_helper > 1 && join_helper(f, c) != 0) ||
      wp_reload_read_first(c) != 0) {
    if (!ok || c->cred == NULL)
      ERROR(PLUGIN ": host \"%s\": out of memory", h->name);
    wp_ctx_free(c);
    return NULL;
  }
  return c;
}

static const wp_fleet_host *find(const wp_fleet_set *set, const char *name) {
  for (size_t i = 0; set != NULL && i < set->count; i++)
    if (strcasecmp(set->hosts[i].name, name) == 0)
      return &set->hosts[i];
  return NULL;
}

/* Whether h of the new set keeps the host of the set in use. */
static bool kept(const wp_fleet_host *h, const wp_fleet_set *keep) {
  const wp_fleet_host *o = find(keep, h->name);
  return o != NULL && strcmp(o->name, h->name) == 0 &&
         wp_hs_equal(&o->s, &h->s);
}

int wp_fleet_make_contexts(wp_fleet *f, wp_fleet_set *set,
                           const wp_fleet_set *keep) {
  for (size_t i = 0; i < set->count; i++) {
    wp_fleet_host *h = &set->hosts[i];
    if (h->ctx != NULL || (keep != NULL && kept(h, keep)))
      continue;
    if ((h->ctx = host_ctx(f, h)) == NULL)
      return -1;
  }
  return 0;
}
