/* collectd-winperf: the remote hosts of one <Plugin winperf> block
 * (fleet.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "fleet.h"
#include "wp_grow.h"
#include "fleet_hosts.h"
#include "host.h"
#include "open_source.h"
#include "shard.h"

#include "collectd/core/utils/common/common.h"

#include <pthread.h>
#include <sys/stat.h>

wp_fleet *wp_fleet_new(const wp_ctx *top) {
  wp_fleet *f = calloc(1, sizeof(*f));
  if (f == NULL)
    return NULL;
  pthread_mutex_init(&f->lock, NULL);
  f->refs = 1;
  f->top_opt = top->opt;
  f->hosts_per_helper = 1;
  f->shard_k = f->shard_n = 1;
  f->max_clock_skew = WP_MAX_CLOCK_SKEW_DEFAULT;
  f->auth_retry = WP_CRED_RETRY_DEFAULT;
  wp_connects_init(&f->connects, WP_MAX_CONNECTS_DEFAULT);
  f->host_gone = wp_fleet_host_gone;
  return f;
}

wp_host_settings *wp_fleet_defaults(wp_fleet *f) {
  return &f->defaults;
}

int wp_fleet_set_shard(wp_fleet *f, const char *text) {
  if (wp_shard_parse(text, &f->shard_k, &f->shard_n) != 0) {
    ERROR(PLUGIN ": Shard \"%s\": expected \"K/N\" with 1 <= K <= N <= %u",
          text, WP_SHARD_MAX);
    return -1;
  }
  return 0;
}

void wp_fleet_tune(wp_fleet *f, double max_clock_skew, double auth_retry_s,
                   unsigned max_connects) {
  if (max_clock_skew >= 0)
    f->max_clock_skew = max_clock_skew;
  if (auth_retry_s >= 0)
    f->auth_retry = DOUBLE_TO_CDTIME_T(auth_retry_s);
  if (max_connects > 0)
    f->connects.max = max_connects; /* at configuration, no host runs yet */
}

void wp_fleet_top(wp_fleet *f, const wp_ctx *top) {
  f->top_opt = top->opt;
  f->hosts_per_helper = top->hosts_per_helper;
}

int wp_fleet_add_host(wp_fleet *f, const char *name, wp_host_settings *s) {
  if (WP_GROW(&f->statics, &f->statics_cap, f->n_statics + 1, WP_GROW_NO_CAP) !=
      WP_GROW_OK)
    return -1;
  wp_fleet_spec *sp = &f->statics[f->n_statics];
  memset(sp, 0, sizeof(*sp));
  sp->name = strdup(name);
  char where[DATA_MAX_NAME_LEN + 32];
  snprintf(where, sizeof(where), "<Host \"%s\"> block", name);
  sp->where = strdup(where);
  sp->s = *s;
  memset(s, 0, sizeof(*s));
  f->n_statics++;
  return sp->name && sp->where ? 0 : -1;
}

int wp_fleet_add_inventory(wp_fleet *f, const char *path) {
  size_t cap = f->inventories_cap;
  if (WP_GROW(&f->inventories, &cap, f->n_inventories + 1, WP_GROW_NO_CAP) !=
          WP_GROW_OK ||
      WP_RESIZE(&f->inventory_ids, cap) != WP_GROW_OK)
    return -1;
  f->inventories_cap = cap;
  memset(&f->inventory_ids[f->n_inventories], 0, sizeof(*f->inventory_ids));
  if ((f->inventories[f->n_inventories] = strdup(path)) == NULL)
    return -1;
  f->n_inventories++;
  return 0;
}

bool wp_fleet_empty(const wp_fleet *f) {
  return f->n_statics == 0 && f->n_inventories == 0;
}

void wp_fleet_append(wp_fleet **list, wp_fleet *f) {
  while (*list != NULL)
    list = &(*list)->next;
  *list = f;
}

wp_fleet *wp_fleet_next(const wp_fleet *f) {
  return f->next;
}

void wp_fleet_unlink(wp_fleet **list, wp_fleet *f) {
  for (; *list != NULL; list = &(*list)->next)
    if (*list == f) {
      *list = f->next;
      f->next = NULL;
      return;
    }
}

int wp_fleet_configure(wp_fleet *f, wp_fleet *others) {
  wp_fleet_set set = {0};
  wp_error err = {0};
  wp_fleet_reload_mark(f); /* a change from now on is a reload */
  if (wp_fleet_load(f, others, &set, &err) != 0) {
    ERROR(PLUGIN ": %s", err.message);
    return -1;
  }
  if (wp_fleet_make_contexts(f, &set, NULL) != 0) {
    wp_fleet_set_free(&set);
    return -1;
  }
  f->hosts = set;
  if (f->shard_n > 1)
    INFO(PLUGIN ": Shard %u/%u: %zu of the block's %zu enabled hosts are "
                "this poller's",
         f->shard_k, f->shard_n, set.count, set.considered);
  return 0;
}

static void fleet_free(wp_fleet *f) {
  wp_fleet_set_free(&f->hosts);
  for (size_t i = 0; i < f->n_statics; i++) {
    free(f->statics[i].name);
    free(f->statics[i].where);
    wp_hs_free(&f->statics[i].s);
  }
  free(f->statics);
  for (size_t i = 0; i < f->n_inventories; i++)
    free(f->inventories[i]);
  free(f->inventories);
  free(f->inventory_ids);
  for (size_t i = 0; i < f->n_groups; i++) {
    wp_source_shared_helper_release(f->groups[i].h);
    free(f->groups[i].program);
  }
  free(f->groups);
  wp_hs_free(&f->defaults);
  wp_connects_destroy(&f->connects);
  pthread_mutex_destroy(&f->lock);
  free(f);
}

void wp_fleet_unref(void *fleet) {
  wp_fleet *f = fleet;
  if (f == NULL)
    return;
  pthread_mutex_lock(&f->lock);
  unsigned left = --f->refs;
  pthread_mutex_unlock(&f->lock);
  if (left == 0)
    fleet_free(f);
}

void wp_fleet_host_gone(wp_ctx *c) {
  wp_fleet *f = c->fleet;
  wp_host_release(c); /* a credential's turn, a connect place */
  wp_cred_put(c->cred);
  c->cred = NULL;
  if (f == NULL)
    return;
  pthread_mutex_lock(&f->lock);
  if (c->group >= 0 && (size_t)c->group < f->n_groups &&
      f->groups[c->group].used > 0)
    f->groups[c->group].used--;
  pthread_mutex_unlock(&f->lock);
  c->fleet = NULL;
  wp_fleet_unref(f);
}

/* The host's first registration: its name's share of its interval after
 * the fleet's start (wp_first_read_offset, shard.h). */
static cdtime_t due(const wp_fleet *f, const wp_fleet_host *h, cdtime_t at) {
  cdtime_t iv = h->ctx->interval ? h->ctx->interval : f->interval;
  return at + wp_first_read_offset(h->name, iv);
}

/* Start and register host h's context; collectd owns it from then on. */
static void register_host(wp_fleet *f, wp_fleet_host *h) {
  wp_ctx *c = h->ctx;
  h->ctx = NULL;
  h->registered = true;
  if (wp_ctx_start(c) != 0) {
    wp_ctx_free(c);
    return;
  }
  snprintf(c->read_name, sizeof(c->read_name), PLUGIN "-host-%s", c->host);
  user_data_t ud = {.data = c, .free_func = wp_ctx_free};
  if (plugin_register_complex_read(NULL, c->read_name, f->read,
                                   c->interval ? c->interval : f->interval,
                                   &ud) != 0)
    ERROR(PLUGIN ": cannot register the read callback %s", c->read_name);
}

static bool pending(const wp_fleet_host *h, cdtime_t now) {
  return !h->registered && h->ctx != NULL && h->due <= now;
}

static int by_due(const void *a, const void *b) {
  const wp_fleet_host *x = *(wp_fleet_host *const *)a;
  const wp_fleet_host *y = *(wp_fleet_host *const *)b;
  if (x->due != y->due)
    return x->due < y->due ? -1 : 1;
  return strcasecmp(x->name, y->name);
}

/* Register the hosts whose turn came, the earliest first: the hosts of one
 * tick (or of a tick that came late) start in their offsets' order, as
 * they would with a tick each (collectd reads a callback first when it is
 * registered). */
static void register_due(wp_fleet *f, cdtime_t now) {
  size_t n = 0;
  for (size_t i = 0; i < f->hosts.count; i++)
    n += pending(&f->hosts.hosts[i], now);
  wp_fleet_host **turn = n > 1 ? malloc(n * sizeof(*turn)) : NULL;
  if (turn == NULL) { /* one host, or no memory: the set's order */
    for (size_t i = 0; i < f->hosts.count; i++)
      if (pending(&f->hosts.hosts[i], now))
        register_host(f, &f->hosts.hosts[i]);
    return;
  }
  size_t k = 0;
  for (size_t i = 0; i < f->hosts.count && k < n; i++)
    if (pending(&f->hosts.hosts[i], now))
      turn[k++] = &f->hosts.hosts[i];
  qsort(turn, k, sizeof(*turn), by_due);
  for (size_t i = 0; i < k; i++)
    register_host(f, turn[i]);
  free(turn);
}

static int fleet_read(user_data_t *ud) {
  wp_fleet *f = ud->data;
  cdtime_t now = cdtime();
  if (!f->started) {
    f->started = true;
    for (size_t i = 0; i < f->hosts.count; i++)
      if (f->hosts.hosts[i].ctx != NULL)
        f->hosts.hosts[i].due = due(f, &f->hosts.hosts[i], now);
  }
  wp_fleet_reload_check(f);
  register_due(f, now);
  return 0;
}

int wp_fleet_start(wp_fleet *f, int index, plugin_read_cb read) {
  f->read = read;
  f->interval = plugin_get_interval();
  if (index == 0)
    sstrncpy(f->read_name, PLUGIN "-fleet", sizeof(f->read_name));
  else
    snprintf(f->read_name, sizeof(f->read_name), PLUGIN "-fleet-%d", index + 1);
  cdtime_t tick = TIME_T_TO_CDTIME_T(1);
  if (f->interval != 0 && f->interval < tick)
    tick = f->interval;
  user_data_t ud = {.data = f, .free_func = wp_fleet_unref};
  if (plugin_register_complex_read(NULL, f->read_name, fleet_read, tick, &ud) !=
      0) {
    ERROR(PLUGIN ": cannot register the read callback %s", f->read_name);
    return -1; /* collectd freed it through free_func */
  }
  return 0;
}
