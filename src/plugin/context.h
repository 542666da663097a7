/* collectd-winperf: one configured block and everything it needs to run.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A context is one <Plugin winperf> block (the local registry or a replay)
 * or one <Host> block (a Windows host read over MS-RRP): its settings, its
 * counter list, its source, selection, two buffers and two snapshots.
 * collectd hands it back as the read callback's user_data and frees it at
 * shutdown through free_func (wp_ctx_free); contexts share nothing.
 *
 * Files with collectd headers never include our own config.h: collectd's
 * headers bring theirs.
 */
#ifndef WP_PLUGIN_CONTEXT_H
#define WP_PLUGIN_CONTEXT_H

#include "collectd/core/daemon/collectd.h"
#include "collectd/core/daemon/plugin.h"

#include "aggregate.h"
#include "backoff.h"
#include "cardinality.h"
#include "connects.h"
#include "counters_yaml.h"
#include "file_id.h"
#include "name_cache.h"
#include "naming.h"
#include "open.h"
#include "perfdata.h"
#include "source.h"

#define PLUGIN "winperf"

/* FILETIME epoch (1601) to Unix epoch (1970) in 100 ns units. */
#define WP_EPOCH_DIFF_100NS 116444736000000000LL

/* Timestamp: the source kind's default, collectd's clock, the blob's. */
enum { WP_TS_DEFAULT = 0, WP_TS_NOW, WP_TS_SAMPLE };

/* The options a <Host> block takes over from its <Plugin winperf> block. */
typedef struct wp_options {
  bool raw_mode; /* ValueMode "raw" */
  int timestamp; /* WP_TS_* */
  pd_calc_options calc;
  pd_pair_by pair_by;               /* PairBy "id" (default) | "name" */
  wp_instance_names instance_names; /* InstanceNames "pdh" (default) | "pid" */
  wp_metric_names metric_names;     /* MetricNames "pdh" (default) | "clean" */
  bool self_metrics; /* SelfMetrics (default true): self_metrics.h */
} wp_options;

/* Per counter-file entry, beside wp_counter_entry. */
typedef struct wp_entry_rt {
  const data_set_t *ds; /* the override type's data set, or NULL */
  bool warned_no_match;
  bool fresh; /* added by a reload, no sample taken with it yet: no value */
  /* alternatives and cardinality (counters.c, cardinality.h) */
  size_t first_path; /* its first path id; alternatives follow */
  int active;        /* the alternative in use, -1: none yet */
  wp_card *card;     /* include/exclude/total decisions; NULL: none */
  bool capped;       /* max_instances bit in the last interval */
} wp_entry_rt;

/* A selection path id's entry and alternative (0: the entry's path). */
typedef struct wp_path_ref {
  struct wp_ctx *c;
  size_t entry;
  size_t alt;
  bool instance_has_wildcard; /* the alternative's, for the naming rule */
  bool counter_has_wildcard;
  char *object; /* an alternative's object (name or index), to find it */
  bool object_is_index;
} wp_path_ref;

/* What a context measured about itself (self_metrics.h): this interval's
 * readings, reset at its start, and the errors since the start. */
typedef struct wp_self {
  bool collected, evaluated; /* a blob arrived; it decoded and evaluated */
  cdtime_t query, decode;    /* how long each took */
  size_t blob_bytes;
  uint32_t objects;
  uint64_t instances;
  size_t values; /* dispatched */
  uint64_t errors;
} wp_self;

typedef struct wp_ctx {
  /* configuration */
  wp_source_kind kind;
  char *counters_file;
  char *replay_dir; /* a capture directory or a .blg */
  bool replay_loop;
  bool replay_loop_set; /* ReplayLoop given (a .blg does not loop unless) */
  int replay_speed;     /* ReplaySpeed: samples per read (default 1) */
  char *host;           /* NULL: hostname_g; a <Host> block: its name */
  wp_options opt;
  /* a <Host> block: the remote source's settings (src/source/remote.h) */
  char *address, *user, *domain, *password_file, *helper;
  unsigned port;
  unsigned connect_timeout_ms, query_timeout_ms; /* 0: the source's */
  bool encrypt;
  /* how it logs on (src/remote/auth.h: "ntlm", "kerberos", "negotiate")
   * and Kerberos' credential source (NULL: not given) */
  char *auth, *principal, *keytab, *ccache, *krb5_config;
  /* <Plugin winperf>'s HostsPerHelper (1: a helper per host); a <Host>'s
   * helper when it shares one (a reference; NULL: its own) */
  unsigned hosts_per_helper;
  wp_remote_helper *shared;
  cdtime_t interval; /* 0: collectd's */
  wp_counter_list counters;
  /* runtime */
  char read_name[DATA_MAX_NAME_LEN];
  /* dispatch.c: every value's value_list_t starts as this copy (host and
   * plugin set once an interval by wp_counters_dispatch), and its names
   * come from the cache; results and result_count are the interval's, whose
   * positions are the cache's hints. */
  value_list_t vl_template;
  wp_name_cache name_cache;
  const pd_result *results;
  size_t result_count;
  wp_entry_rt *rt;    /* one per counters entry */
  wp_path_ref *paths; /* one per selection path id (counters.c) */
  size_t path_count;
  const pd_names *alt_names; /* the names the alternatives were chosen by */
  size_t unmatched;          /* entries that matched nothing last interval */
  wp_agg agg;                /* grouping storage for aggregate/max_instances */
  wp_source *src;
  pd_selection *sel;
  pd_names *names;
  wp_buffer names_buf;
  wp_buffer buf[2];
  pd_snapshot *snap[2];
  int cur; /* buf/snap index the next sample goes into */
  bool have_older;
  bool sample_time; /* stamp values with the blob's time */
  bool ended;
  bool failing;     /* the last interval failed: log the recovery */
  bool names_tried; /* a names load was attempted at names_at */
  cdtime_t names_at;
  bool warned_nothing_resolves;
  /* wp_clashes_check: the names table last looked at, the pairs logged */
  const pd_names *clash_names;
  uint64_t *clash_logged;
  size_t clash_logged_count, clash_logged_cap;
  wp_backoff backoff; /* a <Host> block's failures */
  struct wp_ctx *next_pending;
  /* live reload of the CountersFile (reload.h) */
  wp_file_id counters_id; /* of the file the list in use came from, or of
                           * the last change that did not load */
  bool counters_id_known;
  bool counters_stat_warned;
  bool fresh_pending; /* some rt[i].fresh */
  int fresh_cur;      /* cur when they were added */
  wp_self self;
  bool warned_source_cause; /* wp_counters_source_failed said why */
  /* a remote host of a fleet (fleet.h): the fleet (a reference), its
   * shared helper group (-1: none), its credential (credentials.h) */
  struct wp_fleet *fleet;
  int group;
  struct wp_cred *cred;
  uint64_t auth_retry;               /* AuthRetryInterval (cdtime_t) */
  wp_connects *connects;             /* MaxConcurrentConnects: the fleet's */
  void (*on_free)(struct wp_ctx *c); /* the fleet's: the host leaves */
  bool cred_held;                    /* wp_cred_enter let this interval go */
  bool connect_held; /* a MaxConcurrentConnects place is taken */
  int iv_fault;      /* this interval's first source failure, or -1 */
  cdtime_t iv_start; /* when this interval's attempt began (its backoff
                        counts from there, not from the failure) */
  bool iv_ok;        /* a request succeeded this interval */
  bool auth_paused;  /* self-metric: its credential is paused */
  char *auth_error;  /* the refusal's message, for the one log line */
  /* MaxClockSkew (seconds; 0: none, a local or replay block) and the last
   * sample's offset from collectd's clock */
  double max_clock_skew;
  bool has_skew, skewed;
  double clock_skew;
} wp_ctx;

/* A list's selection and per-entry state, built beside the one in use (a
 * reload, counters.h) and installed when good. */
typedef struct wp_counter_state {
  pd_selection *sel;
  wp_entry_rt *rt;    /* one per entry */
  wp_path_ref *paths; /* one per path id */
  size_t path_count;
} wp_counter_state;

/* Free a state of a list of `entries` entries. */
void wp_counter_state_free(wp_counter_state *st, size_t entries);

/* A new context of that kind with the defaults; NULL without memory. */
wp_ctx *wp_ctx_new(wp_source_kind kind);
/* Free a context and all it owns (collectd's free_func: takes void *). */
void wp_ctx_free(void *ctx);

/* Where the last bytes came from, for log lines: the host, the replayed
 * file or the source's kind. */
const char *wp_ctx_where(const wp_ctx *c);

#endif
