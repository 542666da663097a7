/* collectd-winperf: a fleet's hosts, for fleet.c and fleet_hosts.c only:
 * the set of hosts this poller polls, built from the <Host> blocks and the
 * inventories, and the contexts made for them.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef WP_PLUGIN_FLEET_HOSTS_H
#define WP_PLUGIN_FLEET_HOSTS_H

#include "connects.h"
#include "context.h"
#include "credentials.h"
#include "inventory.h"

#include <pthread.h>

typedef struct wp_fleet wp_fleet; /* fleet.h */

/* A host as configured: its name, its own settings, where it is given. */
typedef struct wp_fleet_spec {
  char *name, *where;
  wp_host_settings s;
} wp_fleet_spec;

/* A host of the set: its resolved settings (defaults filled in) and, until
 * its read callback is registered, its context. */
typedef struct wp_fleet_host {
  char *name;
  wp_host_settings s;
  bool registered; /* collectd owns its context */
  cdtime_t due;    /* the first registration */
  wp_ctx *ctx;
} wp_fleet_host;

typedef struct wp_fleet_set {
  wp_fleet_host *hosts;
  size_t count, cap;
  size_t considered; /* enabled hosts before the shard's choice */
} wp_fleet_set;

/* A shared helper (HostsPerHelper > 1) and its sessions in use. */
typedef struct wp_fleet_group {
  char *program; /* NULL: the installed helper */
  wp_remote_helper *h;
  unsigned used;
} wp_fleet_group;

struct wp_fleet {
  pthread_mutex_t lock; /* refs, groups' use */
  unsigned refs;
  wp_fleet *next; /* the configuration's list */
  /* the block's configuration */
  wp_options top_opt;
  wp_host_settings defaults;
  unsigned hosts_per_helper;
  char *helper_user; /* HelperUser; NULL: the helper's default */
  bool no_sandbox;   /* HelperSandbox false */
  unsigned shard_k, shard_n;
  double max_clock_skew;
  uint64_t auth_retry;
  wp_connects connects;         /* MaxConcurrentConnects */
  void (*host_gone)(wp_ctx *c); /* each host's on_free (fleet.c) */
  wp_fleet_spec *statics;       /* the <Host> blocks */
  size_t n_statics, statics_cap;
  char **inventories;
  wp_file_id *inventory_ids; /* of the files the set in use came from */
  size_t n_inventories, inventories_cap;
  /* runtime */
  wp_fleet_set hosts;
  wp_fleet_group *groups;
  size_t n_groups, groups_cap;
  plugin_read_cb read;
  cdtime_t interval; /* the block's, at init */
  bool started;
  char read_name[DATA_MAX_NAME_LEN];
  bool reload_warned; /* a stat failure was logged */
};

/* Load the inventories, check every name, resolve each enabled host of
 * this shard into set. 0, or -1 with err. */
int wp_fleet_load(wp_fleet *f, wp_fleet *others, wp_fleet_set *set,
                  wp_error *err);

/* A context for each host of set that has none (keep: the set in use, whose
 * unchanged hosts need none). 0, or -1 with the reason logged. */
int wp_fleet_make_contexts(wp_fleet *f, wp_fleet_set *set,
                           const wp_fleet_set *keep);

void wp_fleet_set_free(wp_fleet_set *set);

/* The inventories' identity now (before the configuration's load). */
void wp_fleet_reload_mark(wp_fleet *f);

/* At each fleet tick: an inventory changed? Reload and apply. */
void wp_fleet_reload_check(wp_fleet *f);

#endif
