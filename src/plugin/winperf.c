/* collectd-winperf: the collectd glue (config, init, read, dispatch).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * One <Plugin winperf> block is one context: its source, counter list,
 * selection, two buffers and two snapshots. The context is the read
 * callback's user_data; collectd frees it at shutdown through free_func.
 * The only file-scope variable is the list of contexts configured but not yet
 * registered (collectd calls config before init, with no user pointer).
 *
 * Each <Host> block (a Windows host read over MS-RRP through the remote
 * source, src/source/remote.h) is a context of its own with its own read
 * callback and interval. A failing host backs off in its own context: the
 * callback returns 0 and skips intervals until its retry time, so collectd
 * never suspends it (collectd's own suspension is per read function too, but
 * starts at the interval, doubles up to MaxReadInterval for every failure
 * kind and logs nothing about why; the plugin's backoff is capped at 5
 * minutes, starts at a minute for a refused login so an account lockout
 * policy is not fed, and logs the host and the kind of failure).
 *
 * Our own config.h is never included here: collectd's headers bring theirs.
 */
#include "collectd/core/daemon/collectd.h"
#include "collectd/core/daemon/plugin.h"
#include "collectd/core/utils/common/common.h"

#include <math.h>

#include "counters_yaml.h"
#include "naming.h"
#include "perfdata.h"
#include "replay.h"
#include "source.h"
#ifdef _WIN32
#include "registry.h"
#else
#include "remote.h"
#endif

#define PLUGIN "winperf"
/* FILETIME epoch (1601) to Unix epoch (1970) in 100 ns units. */
#define WP_EPOCH_DIFF_100NS 116444736000000000LL
/* A names reload is an expensive query on a live host: at most this often. */
#define WP_NAMES_RELOAD_MIN TIME_T_TO_CDTIME_T_STATIC(60)
/* Remote host backoff: from one interval, doubling, up to this; a refused
 * login waits at least WP_BACKOFF_AUTH (Windows lockout policies count
 * failed logins). */
#define WP_BACKOFF_MAX TIME_T_TO_CDTIME_T_STATIC(300)
#define WP_BACKOFF_AUTH TIME_T_TO_CDTIME_T_STATIC(60)

enum { WP_TS_DEFAULT = 0, WP_TS_NOW, WP_TS_SAMPLE };

typedef struct wp_entry_rt {
  const data_set_t *ds; /* the override type's data set, or NULL */
  bool warned_no_match;
} wp_entry_rt;

typedef struct wp_ctx {
  /* configuration */
  char *counters_file;
  char *replay_dir;
  bool replay_loop;
  bool raw_mode;
  int timestamp;
  char *host; /* NULL: hostname_g; a <Host> block: its name */
  pd_calc_options calc;
  /* a <Host> block: the remote source (src/source/remote.h) */
  bool remote;
  char *address, *user, *domain, *password_file, *helper;
  unsigned port;
  unsigned connect_timeout_ms, query_timeout_ms; /* 0: the source's */
  bool encrypt;
  cdtime_t interval; /* 0: collectd's */
  wp_counter_list counters;
  /* runtime */
  char read_name[DATA_MAX_NAME_LEN];
  wp_entry_rt *rt;
  wp_source *src;
  pd_selection *sel;
  pd_names *names;
  wp_buffer names_buf;
  wp_buffer buf[2];
  pd_snapshot *snap[2];
  int cur; /* buf/snap index the next sample goes into */
  bool have_older;
  bool sample_time;
  bool ended;
  bool failing;     /* the last interval failed: log the recovery */
  bool names_tried; /* a names load was attempted at names_at */
  cdtime_t names_at;
  bool warned_nothing_resolves;
  unsigned failures; /* remote: consecutive failed attempts */
  cdtime_t backoff;  /* remote: the current wait after a failure */
  cdtime_t retry_at; /* remote: no attempt before this */
  struct wp_ctx *next_pending;
} wp_ctx;

static wp_ctx *pending; /* configured, not yet registered (init does) */
static int wp_read(user_data_t *ud);
static int registered; /* read callbacks registered, for unique names */

static void ctx_free(void *arg) {
  wp_ctx *c = arg;
  if (c == NULL)
    return;
  if (c->src != NULL)
    c->src->destroy(c->src);
  pd_selection_free(c->sel);
  pd_names_free(c->names);
  wp_buffer_free(&c->names_buf);
  for (int i = 0; i < 2; i++) {
    wp_buffer_free(&c->buf[i]);
    pd_snapshot_free(c->snap[i]);
  }
  wp_counters_free(&c->counters);
  free(c->rt);
  free(c->counters_file);
  free(c->replay_dir);
  free(c->host);
  free(c->address);
  free(c->user);
  free(c->domain);
  free(c->password_file);
  free(c->helper);
  free(c);
}

/* ------------------------------------------------------------------ config */

static int config_enum(oconfig_item_t *ci, const char *const *names, int n,
                       int *out) {
  char *s = NULL;
  if (cf_util_get_string(ci, &s) != 0)
    return -1;
  for (int i = 0; i < n; i++) {
    if (strcasecmp(s, names[i]) == 0) {
      *out = i;
      free(s);
      return 0;
    }
  }
  ERROR(PLUGIN ": %s \"%s\": expected \"%s\" or \"%s\"", ci->key, s, names[0],
        names[1]);
  free(s);
  return -1;
}

static int config_timestamp(oconfig_item_t *ci, int *out) {
  static const char *const ts[] = {"now", "sample"};
  int v = 0;
  if (config_enum(ci, ts, 2, &v) != 0)
    return -1;
  *out = v == 0 ? WP_TS_NOW : WP_TS_SAMPLE;
  return 0;
}

#ifndef _WIN32 /* <Host> blocks only */
/* Seconds (a number) into milliseconds, 1 ms .. 1 h. */
static int config_ms(oconfig_item_t *ci, unsigned *out) {
  double sec = 0;
  if (cf_util_get_double(ci, &sec) != 0)
    return -1;
  if (!(sec >= 0.001 && sec <= 3600)) {
    ERROR(PLUGIN ": %s %g: expected seconds between 0.001 and 3600", ci->key,
          sec);
    return -1;
  }
  *out = (unsigned)(sec * 1000 + 0.5);
  return 0;
}
#endif

/* Add a context to the pending list, in configuration order (the read
 * names follow it). */
static void ctx_queue(wp_ctx *c) {
  wp_ctx **tail = &pending;
  while (*tail != NULL)
    tail = &(*tail)->next_pending;
  *tail = c;
}

static int ctx_load_counters(wp_ctx *c) {
  char err[1024];
  if (wp_counters_load(c->counters_file, &c->counters, err, sizeof(err)) != 0) {
    if (c->remote)
      ERROR(PLUGIN ": <Host \"%s\">: CountersFile %s", c->host, err);
    else
      ERROR(PLUGIN ": CountersFile %s", err);
    return -1;
  }
  return 0;
}

static bool is_host_block(const oconfig_item_t *child) {
  /* "Host name" is the host name option; "<Host name> ... </Host>" a remote
   * host (an empty block cannot be told from the option). */
  return strcasecmp(child->key, "Host") == 0 && child->children_num > 0;
}

#ifndef _WIN32
/* One <Host "name"> block: a context of its own. top holds the options of
 * the enclosing <Plugin winperf> block (the defaults). */
static int config_host(oconfig_item_t *ci, const wp_ctx *top) {
  if (ci->values_num != 1 || ci->values[0].type != OCONFIG_TYPE_STRING ||
      ci->values[0].value.string[0] == '\0') {
    ERROR(PLUGIN ": <Host> needs one name: <Host \"name\">");
    return -1;
  }
  const char *name = ci->values[0].value.string;
  for (const wp_ctx *o = pending; o != NULL; o = o->next_pending) {
    if (o->remote && strcasecmp(o->host, name) == 0) {
      ERROR(PLUGIN ": <Host \"%s\"> is configured twice", name);
      return -1;
    }
  }
  wp_ctx *c = calloc(1, sizeof(*c));
  if (c == NULL)
    return -1;
  c->remote = true;
  c->raw_mode = top->raw_mode;
  c->calc = top->calc;
  c->timestamp = top->timestamp;
  c->host = strdup(name);
  int status = c->host == NULL ? -1 : 0;
  if (status == 0 && top->helper != NULL &&
      (c->helper = strdup(top->helper)) == NULL)
    status = -1;
  for (int i = 0; i < ci->children_num && status == 0; i++) {
    oconfig_item_t *child = ci->children + i;
    const char *k = child->key;
    int v = 0;
    if (strcasecmp(k, "Address") == 0) {
      status = cf_util_get_string(child, &c->address);
    } else if (strcasecmp(k, "Port") == 0) {
      v = cf_util_get_port_number(child);
      status = v > 0 ? 0 : -1;
      c->port = (unsigned)v;
    } else if (strcasecmp(k, "User") == 0) {
      status = cf_util_get_string(child, &c->user);
    } else if (strcasecmp(k, "Domain") == 0) {
      status = cf_util_get_string(child, &c->domain);
    } else if (strcasecmp(k, "PasswordFile") == 0 ||
               strcasecmp(k, "CredentialsFile") == 0) {
      status = cf_util_get_string(child, &c->password_file);
    } else if (strcasecmp(k, "CountersFile") == 0) {
      status = cf_util_get_string(child, &c->counters_file);
    } else if (strcasecmp(k, "Interval") == 0) {
      status = cf_util_get_cdtime(child, &c->interval);
    } else if (strcasecmp(k, "Timeout") == 0) {
      status = config_ms(child, &c->connect_timeout_ms);
      c->query_timeout_ms = c->connect_timeout_ms;
    } else if (strcasecmp(k, "ConnectTimeout") == 0) {
      status = config_ms(child, &c->connect_timeout_ms);
    } else if (strcasecmp(k, "QueryTimeout") == 0) {
      status = config_ms(child, &c->query_timeout_ms);
    } else if (strcasecmp(k, "Encrypt") == 0) {
      status = cf_util_get_boolean(child, &c->encrypt);
    } else if (strcasecmp(k, "Timestamp") == 0) {
      status = config_timestamp(child, &c->timestamp);
    } else if (strcasecmp(k, "RemoteHelper") == 0) {
      free(c->helper);
      c->helper = NULL;
      status = cf_util_get_string(child, &c->helper);
    } else if (strcasecmp(k, "Password") == 0) {
      /* Never in the config (world-readable, copied around): refuse. */
      ERROR(PLUGIN ": <Host \"%s\">: a password never goes in collectd's "
                   "configuration; put it in a file readable only by "
                   "collectd and name it with PasswordFile",
            name);
      status = -1;
    } else {
      ERROR(PLUGIN ": <Host \"%s\">: unknown option \"%s\" (expected "
                   "Address, Port, User, Domain, PasswordFile, CountersFile, "
                   "Interval, Timeout, ConnectTimeout, QueryTimeout, "
                   "Encrypt, Timestamp or RemoteHelper)",
            name, k);
      status = -1;
    }
  }
  if (status == 0 && c->counters_file == NULL) {
    if (top->counters_file == NULL) {
      ERROR(PLUGIN ": <Host \"%s\">: no CountersFile (give one in the block "
                   "or in <Plugin winperf>)",
            name);
      status = -1;
    } else if ((c->counters_file = strdup(top->counters_file)) == NULL) {
      status = -1;
    }
  }
  if (status == 0 && c->address == NULL && (c->address = strdup(name)) == NULL)
    status = -1;
  if (status == 0)
    status = ctx_load_counters(c);
  if (status != 0) {
    ctx_free(c);
    return -1;
  }
  ctx_queue(c);
  return 0;
}
#endif

static int wp_config(oconfig_item_t *ci) {
  wp_ctx *c = calloc(1, sizeof(*c));
  if (c == NULL)
    return -1;
  c->replay_loop = true;
  c->calc.multi_timer = PD_MULTI_TIMER_RESKIT;
  int status = 0;
  int hosts = 0;
  for (int i = 0; i < ci->children_num && status == 0; i++) {
    oconfig_item_t *child = ci->children + i;
    int v = 0;
    if (is_host_block(child)) {
      hosts++; /* after the other options: they are its defaults */
    } else if (strcasecmp(child->key, "CountersFile") == 0) {
      status = cf_util_get_string(child, &c->counters_file);
    } else if (strcasecmp(child->key, "Replay") == 0) {
      status = cf_util_get_string(child, &c->replay_dir);
    } else if (strcasecmp(child->key, "ReplayLoop") == 0) {
      status = cf_util_get_boolean(child, &c->replay_loop);
    } else if (strcasecmp(child->key, "ValueMode") == 0) {
      static const char *const modes[] = {"formatted", "raw"};
      status = config_enum(child, modes, 2, &v);
      c->raw_mode = v == 1;
    } else if (strcasecmp(child->key, "Timestamp") == 0) {
      status = config_timestamp(child, &c->timestamp);
    } else if (strcasecmp(child->key, "Host") == 0) {
      status = cf_util_get_string(child, &c->host);
    } else if (strcasecmp(child->key, "MultiTimerFormula") == 0) {
      static const char *const f[] = {"reskit", "msdn"};
      status = config_enum(child, f, 2, &v);
      c->calc.multi_timer =
          v == 0 ? PD_MULTI_TIMER_RESKIT : PD_MULTI_TIMER_MSDN_SAMPLE;
    } else if (strcasecmp(child->key, "Cap100") == 0) {
      status = cf_util_get_boolean(child, &c->calc.cap100);
    } else if (strcasecmp(child->key, "RemoteHelper") == 0) {
      status = cf_util_get_string(child, &c->helper);
    } else {
      ERROR(PLUGIN ": unknown option \"%s\" (expected CountersFile, Replay, "
                   "ReplayLoop, ValueMode, Timestamp, Host, "
                   "MultiTimerFormula, Cap100, RemoteHelper or a <Host> "
                   "block)",
            child->key);
      status = -1;
    }
  }
#ifdef _WIN32
  if (status == 0 && hosts > 0) {
    ERROR(PLUGIN ": <Host> blocks (remote collection) need the remote "
                 "helper, which is not built on Windows");
    status = -1;
  }
#else
  for (int i = 0; i < ci->children_num && status == 0; i++)
    if (is_host_block(ci->children + i))
      status = config_host(ci->children + i, c);
  /* Only <Host> blocks: no local or replay context. */
  bool local = c->replay_dir != NULL || hosts == 0;
#endif
#ifdef _WIN32
  bool local = true;
#endif
  if (status == 0 && local && c->counters_file == NULL) {
    ERROR(PLUGIN ": the CountersFile option is required");
    status = -1;
  }
#ifndef _WIN32
  if (status == 0 && local && c->replay_dir == NULL) {
    ERROR(PLUGIN ": the Replay option (or a <Host> block) is required on "
                 "this platform (the local source needs Windows)");
    status = -1;
  }
#endif
  if (status == 0 && local)
    status = ctx_load_counters(c);
  if (status != 0 || !local) {
    ctx_free(c);
    return status == 0 ? 0 : -1; /* -1: collectd refuses to start */
  }
  ctx_queue(c);
  return 0;
}

/* -------------------------------------------------------------------- init */

/* Check every type override against collectd's data sets (types.db is read
 * after the config blocks, so this is init's job). */
static int check_types(wp_ctx *c) {
  static const char *const defaults[] = {"gauge", "derive"};
  for (size_t i = 0; i < 2; i++) {
    if (plugin_get_ds(defaults[i]) == NULL) {
      ERROR(PLUGIN ": types.db has no \"%s\" type; the plugin needs it",
            defaults[i]);
      return -1;
    }
  }
  for (size_t i = 0; i < c->counters.count; i++) {
    const wp_counter_entry *e = &c->counters.entries[i];
    if (e->type == NULL)
      continue;
    const data_set_t *ds = plugin_get_ds(e->type);
    if (ds == NULL) {
      ERROR(PLUGIN ": %s:%u:%u: unknown type \"%s\" (expected a type from "
                   "types.db, e.g. gauge)",
            c->counters_file, e->type_line, e->type_column, e->type);
      return -1;
    }
    if (ds->ds_num != 1) {
      ERROR(PLUGIN ": %s:%u:%u: type \"%s\" has %zu data sources (expected "
                   "a type with exactly one, e.g. gauge)",
            c->counters_file, e->type_line, e->type_column, e->type,
            ds->ds_num);
      return -1;
    }
    c->rt[i].ds = ds;
  }
  return 0;
}

static int ctx_start(wp_ctx *c) {
  char err[1024];
  c->rt = calloc(c->counters.count, sizeof(*c->rt));
  c->sel = pd_selection_new();
  c->snap[0] = pd_snapshot_new();
  c->snap[1] = pd_snapshot_new();
  if (c->rt == NULL || c->sel == NULL || c->snap[0] == NULL ||
      c->snap[1] == NULL) {
    ERROR(PLUGIN ": out of memory");
    return -1;
  }
  if (check_types(c) != 0)
    return -1;
  for (size_t i = 0; i < c->counters.count; i++) {
    const wp_counter_entry *e = &c->counters.entries[i];
    size_t id = 0;
    pd_error perr = {0};
    if (pd_selection_add(c->sel, e->path, &id, &perr) != PD_OK || id != i) {
      ERROR(PLUGIN ": %s:%u:%u: counter path \"%s\": %s", c->counters_file,
            e->line, e->column, e->path, perr.message);
      return -1;
    }
  }
  pd_selection_set_options(c->sel, &c->calc);

  if (c->remote) {
#ifndef _WIN32
    wp_remote_options o = {
        .host = c->address,
        .port = c->port,
        .user = c->user,
        .domain = c->domain,
        .credentials_file = c->password_file,
        .helper = c->helper,
        .connect_timeout_ms = c->connect_timeout_ms,
        .query_timeout_ms = c->query_timeout_ms,
        .encrypt = c->encrypt,
    };
    c->src = wp_remote_source_new(&o, err, sizeof(err));
    c->sample_time = c->timestamp != WP_TS_NOW;
#endif
  } else if (c->replay_dir != NULL) {
    c->src = wp_replay_open(c->replay_dir, c->replay_loop, err, sizeof(err));
    c->sample_time = c->timestamp == WP_TS_SAMPLE;
  } else {
#ifdef _WIN32
    c->src = wp_registry_open(NULL, err, sizeof(err));
    c->sample_time = c->timestamp != WP_TS_NOW;
#else
    snprintf(err, sizeof(err), "no source: the Replay option is required");
#endif
  }
  if (c->src == NULL) {
    if (c->remote)
      ERROR(PLUGIN ": <Host \"%s\">: %s", c->host, err);
    else
      ERROR(PLUGIN ": %s", err);
    return -1;
  }
  return 0;
}

static int wp_init(void) {
  int status = 0;
  while (pending != NULL) {
    wp_ctx *c = pending;
    pending = c->next_pending;
    c->next_pending = NULL;
    if (ctx_start(c) != 0) {
      ctx_free(c);
      status = -1;
      continue;
    }
    if (c->remote)
      snprintf(c->read_name, sizeof(c->read_name), PLUGIN "-host-%s", c->host);
    else if (registered == 0)
      sstrncpy(c->read_name, PLUGIN, sizeof(c->read_name));
    else
      snprintf(c->read_name, sizeof(c->read_name), PLUGIN "-%d",
               registered + 1);
    user_data_t ud = {.data = c, .free_func = ctx_free};
    if (plugin_register_complex_read(NULL, c->read_name, wp_read, c->interval,
                                     &ud) != 0) {
      ERROR(PLUGIN ": cannot register the read callback %s", c->read_name);
      ctx_free(c);
      status = -1;
      continue;
    }
    if (!c->remote)
      registered++;
  }
  return status;
}

/* -------------------------------------------------------------------- read */

/* Where the last bytes came from, for log lines. */
static const char *where(const wp_ctx *c) {
  if (c->remote)
    return c->host;
  const char *f = wp_replay_last_file(c->src);
  return f ? f : c->src->kind;
}

/* Load (or reload) the names table, at most once per WP_NAMES_RELOAD_MIN.
 * Returns whether a new table is in use. A remote host's first load that
 * fails at the source is the caller's to report (*src_failed, err). */
static bool load_names_err(wp_ctx *c, bool force, bool *src_failed, char *err,
                           size_t errlen) {
  cdtime_t now = cdtime();
  if (c->names_tried && !force && now - c->names_at < WP_NAMES_RELOAD_MIN)
    return false;
  c->names_tried = true;
  c->names_at = now;
#ifdef _WIN32
  /* Counters installed or removed: the key is reopened (spec 1.6). */
  if (c->replay_dir == NULL)
    (void)wp_registry_counters_changed(c->src);
#endif
  err[0] = '\0';
  if (c->src->names(c->src, &c->names_buf, err, errlen) != WP_SOURCE_OK) {
    if (c->remote && c->names == NULL && src_failed != NULL) {
      *src_failed = true;
      return false;
    }
    WARNING(PLUGIN ": %s%s%snames table: %s (only numeric paths resolve)",
            c->remote ? "host \"" : "", c->remote ? c->host : "",
            c->remote ? "\": " : "", err[0] ? err : "unknown error");
    return false;
  }
  pd_names *n = NULL;
  pd_error perr = {0};
  if (pd_names_parse(c->names_buf.data, c->names_buf.len, &n, &perr) != PD_OK) {
    WARNING(PLUGIN ": %s: names table: %s (%s)", where(c), perr.message,
            pd_status_name(perr.status));
    pd_names_free(n);
    return false;
  }
  pd_selection_set_names(c->sel, n); /* before freeing the old one */
  pd_names_free(c->names);
  c->names = n;
  return true;
}

static bool load_names(wp_ctx *c, bool force) {
  char err[1024];
  return load_names_err(c, force, NULL, err, sizeof(err));
}

static void dispatch_result(wp_ctx *c, const pd_result *r) {
  if (r->path_id >= c->counters.count)
    return;
  const wp_counter_entry *e = &c->counters.entries[r->path_id];
  const wp_entry_rt *rt = &c->rt[r->path_id];
  bool raw = e->raw >= 0 ? e->raw == 1 : c->raw_mode;
  /* Formatted: only a computed value. Raw: the raw reading exists whatever
   * the pair's status, except for text and unknown types. */
  bool usable = raw ? r->status != PD_VALUE_NOT_NUMERIC &&
                          r->status != PD_VALUE_UNKNOWN_TYPE
                    : r->status == PD_VALUE_OK;
  if (!usable) {
    plugin_log(LOG_DEBUG, PLUGIN ": %s: no value (%s)", r->path,
               pd_value_status_name(r->status));
    return;
  }
  const char *type =
      e->type ? e->type : wp_name_default_type(raw, r->counter_type);
  int ds_type = rt->ds                        ? rt->ds->ds[0].type
                : strcmp(type, "derive") == 0 ? DS_TYPE_DERIVE
                                              : DS_TYPE_GAUGE;
  value_t v;
  if (ds_type == DS_TYPE_GAUGE) {
    v.gauge = (raw ? (double)r->raw_value : r->value) * e->scale;
  } else if (raw && e->scale == 1.0) {
    /* exact: no trip through double */
    if (ds_type == DS_TYPE_DERIVE)
      v.derive = (derive_t)r->raw_value;
    else if (ds_type == DS_TYPE_COUNTER)
      v.counter = (counter_t)r->raw_value;
    else
      v.absolute = (absolute_t)r->raw_value;
  } else {
    double x = (raw ? (double)r->raw_value : r->value) * e->scale;
    if (!isfinite(x))
      return;
    if (ds_type == DS_TYPE_DERIVE)
      v.derive = (derive_t)llround(x);
    else if (x < 0)
      return; /* counter/absolute cannot carry it */
    else if (ds_type == DS_TYPE_COUNTER)
      v.counter = (counter_t)llround(x);
    else
      v.absolute = (absolute_t)llround(x);
  }

  value_list_t vl = VALUE_LIST_INIT;
  vl.values = &v;
  vl.values_len = 1;
  if (c->sample_time && r->time_100ns > WP_EPOCH_DIFF_100NS) {
    uint64_t ns = (uint64_t)(r->time_100ns - WP_EPOCH_DIFF_100NS) * 100u;
    vl.time = NS_TO_CDTIME_T(ns);
  } /* else 0: collectd stamps it now */
  wp_name_sanitize(vl.host, sizeof(vl.host), c->host ? c->host : hostname_g);
  sstrncpy(vl.plugin, PLUGIN, sizeof(vl.plugin));
  wp_name_plugin_instance(vl.plugin_instance, sizeof(vl.plugin_instance),
                          r->object, r->instance, e->plugin_instance,
                          e->instance_has_wildcard);
  wp_name_type_instance(vl.type_instance, sizeof(vl.type_instance), r->counter,
                        e->type_instance, e->counter_has_wildcard);
  sstrncpy(vl.type, type, sizeof(vl.type));
  plugin_dispatch_values(&vl);
}

/* Warn once per path that matches nothing, until it matches again. Returns
 * whether any path matched nothing. */
static bool check_matches(wp_ctx *c) {
  bool missing = false;
  for (size_t i = 0; i < c->counters.count; i++) {
    wp_entry_rt *rt = &c->rt[i];
    if (pd_selection_matches(c->sel, i) > 0) {
      if (rt->warned_no_match)
        INFO(PLUGIN ": %s now matches", c->counters.entries[i].path);
      rt->warned_no_match = false;
      continue;
    }
    missing = true;
    if (!rt->warned_no_match) {
      const wp_counter_entry *e = &c->counters.entries[i];
      WARNING(PLUGIN ": %s:%u:%u: %s matches nothing in this sample (tried "
                     "again each interval)",
              c->counters_file, e->line, e->column, e->path);
      rt->warned_no_match = true;
    }
  }
  return missing;
}

static void note_failure(wp_ctx *c) {
  c->failing = true;
}

#ifndef _WIN32
static const char *remote_failure_kind(int kind) {
  switch (kind) {
  case WP_REMOTE_ERR_AUTH:
    return "authentication failure";
  case WP_REMOTE_ERR_CONNECT:
    return "connection failure";
  case WP_REMOTE_ERR_TIMEOUT:
    return "timeout";
  case WP_REMOTE_ERR_PROTOCOL:
    return "protocol error";
  case WP_REMOTE_ERR_SERVER:
    return "server error";
  case WP_REMOTE_ERR_CONFIG:
    return "configuration error";
  case WP_REMOTE_ERR_REQUEST:
    return "request error";
  case WP_REMOTE_ERR_HELPER:
    return "helper failure";
  default:
    return "failure";
  }
}

/* A remote host's attempt failed at the source: log it and back off. The
 * wait starts at one interval and doubles up to WP_BACKOFF_MAX (or the
 * interval, if longer); a refused login waits at least WP_BACKOFF_AUTH. */
static void remote_failed(wp_ctx *c, const char *err) {
  int kind = wp_remote_last_error(c->src);
  cdtime_t iv = plugin_get_interval();
  cdtime_t cap = iv > WP_BACKOFF_MAX ? iv : WP_BACKOFF_MAX;
  cdtime_t d = c->failures == 0 ? iv : 2 * c->backoff;
  if (kind == WP_REMOTE_ERR_AUTH && d < WP_BACKOFF_AUTH)
    d = WP_BACKOFF_AUTH;
  if (d > cap)
    d = cap;
  c->backoff = d;
  c->failures++;
  c->retry_at = cdtime() + d;
  ERROR(PLUGIN ": host \"%s\" (%s): %s: %s; attempt %u failed, next in "
               "%.0f s",
        c->host, c->address, remote_failure_kind(kind),
        err[0] ? err : "unknown error", c->failures, CDTIME_T_TO_DOUBLE(d));
}

static void remote_recovered(wp_ctx *c) {
  if (c->failures > 0)
    INFO(PLUGIN ": host \"%s\" (%s): collecting again after %u failed "
                "attempt%s",
         c->host, c->address, c->failures, c->failures == 1 ? "" : "s");
  c->failures = 0;
  c->backoff = 0;
}
#endif

static int wp_read(user_data_t *ud) {
  wp_ctx *c = ud->data;
  if (c == NULL || c->ended)
    return 0;
  if (c->remote) {
#ifndef _WIN32
    /* Backing off: skip this interval. Half an interval of slack so a
     * retry due "in one interval" is not pushed to the next one by the
     * scheduler's jitter. */
    if (c->failures > 0 && cdtime() + plugin_get_interval() / 2 < c->retry_at)
      return 0;
    if (c->names == NULL) {
      char err[1024];
      bool failed = false;
      load_names_err(c, true, &failed, err, sizeof(err));
      if (failed) {
        remote_failed(c, err);
        return 0;
      }
    }
#endif
  } else if (!c->names_tried) {
    load_names(c, true);
  }

  size_t unresolved = 0;
  const char *query = pd_selection_query(c->sel, &unresolved);
  if (unresolved > 0 && load_names(c, false)) /* rate-limited */
    query = pd_selection_query(c->sel, &unresolved);
  if (query == NULL || *query == '\0') {
    if (!c->warned_nothing_resolves)
      WARNING(PLUGIN ": no configured path resolves to an object in the "
                     "names table; retrying each interval");
    c->warned_nothing_resolves = true;
    return 0;
  }
  c->warned_nothing_resolves = false;

  /* Collect and decode into the newer slot; the older slot's snapshot
   * points into the older buffer and stays untouched until this succeeds. */
  int n = c->cur;
  char err[1024];
  err[0] = '\0';
  wp_source_status st =
      c->src->collect(c->src, query, &c->buf[n], err, sizeof(err));
  if (st == WP_SOURCE_END) {
    NOTICE(PLUGIN ": %s: replay reached the end of the capture; no more "
                  "values",
           c->replay_dir ? c->replay_dir : c->src->kind);
    c->ended = true;
    return 0;
  }
  if (st != WP_SOURCE_OK) {
#ifndef _WIN32
    if (c->remote) {
      remote_failed(c, err);
      return 0; /* our own backoff, not collectd's suspension */
    }
#endif
    ERROR(PLUGIN ": %s source: %s; interval skipped", c->src->kind,
          err[0] ? err : "unknown error");
    note_failure(c);
    return 0; /* never -1: collectd would suspend the plugin */
  }
#ifndef _WIN32
  if (c->remote)
    remote_recovered(c);
#endif
  pd_error perr = {0};
  if (pd_decode(c->snap[n], c->buf[n].data, c->buf[n].len, NULL, &perr) !=
      PD_OK) {
    ERROR(PLUGIN ": %s: %s (%s); interval skipped", where(c), perr.message,
          pd_status_name(perr.status));
    note_failure(c);
    return 0;
  }
  const pd_result *res = NULL;
  size_t count = 0;
  pd_snapshot *older = c->have_older ? c->snap[n ^ 1] : NULL;
  if (pd_selection_evaluate(c->sel, older, c->snap[n], &res, &count, &perr) !=
      PD_OK) {
    ERROR(PLUGIN ": %s: %s (%s); interval skipped", where(c), perr.message,
          pd_status_name(perr.status));
    note_failure(c);
    return 0;
  }
  if (c->failing) {
    INFO(PLUGIN ": %s: good sample again", where(c));
    c->failing = false;
  }
  for (size_t i = 0; i < count; i++)
    dispatch_result(c, &res[i]);
  if (check_matches(c))
    load_names(c, false); /* an unknown index may be new: rate-limited */
  c->have_older = true;
  c->cur = n ^ 1;
  return 0;
}

/* ---------------------------------------------------------------- register */

static int wp_shutdown(void) {
  /* Contexts that never reached init (collectd stopped early). Registered
   * ones are freed by collectd through free_func. */
  while (pending != NULL) {
    wp_ctx *c = pending;
    pending = c->next_pending;
    ctx_free(c);
  }
  return 0;
}

void module_register(void);
void module_register(void) {
  plugin_register_complex_config(PLUGIN, wp_config);
  plugin_register_init(PLUGIN, wp_init);
  plugin_register_shutdown(PLUGIN, wp_shutdown);
}
