/* collectd-winperf: <Plugin winperf> and <Host> blocks into contexts
 * (options.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "options.h"
#include "counters.h"
#include "reload.h"

#include "collectd/core/utils/common/common.h"

/* One of two names (case-insensitive) into its index. */
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

/* An option of wp_options that a <Host> block may set too. 0 or -1 when it
 * is one, 1 when it is not. */
static int shared_option(oconfig_item_t *child, wp_options *opt) {
  if (strcasecmp(child->key, "Timestamp") == 0) {
    static const char *const ts[] = {"now", "sample"};
    int v = 0;
    if (config_enum(child, ts, 2, &v) != 0)
      return -1;
    opt->timestamp = v == 0 ? WP_TS_NOW : WP_TS_SAMPLE;
    return 0;
  }
  if (strcasecmp(child->key, "PairBy") == 0) {
    /* format.md 1.4: by process id where the object has one, or as PDH */
    static const char *const by[] = {"id", "name"};
    int v = 0;
    if (config_enum(child, by, 2, &v) != 0)
      return -1;
    opt->pair_by = v == 0 ? PD_PAIR_BY_ID : PD_PAIR_BY_FULL_NAME;
    return 0;
  }
  if (strcasecmp(child->key, "SelfMetrics") == 0) /* self_metrics.h */
    return cf_util_get_boolean(child, &opt->self_metrics);
  int v = 0;
  if (strcasecmp(child->key, "InstanceNames") == 0) {
    if (config_enum(child, wp_instance_names_text, 2, &v) != 0)
      return -1;
    opt->instance_names = (wp_instance_names)v;
    return 0;
  }
  if (strcasecmp(child->key, "MetricNames") == 0) {
    if (config_enum(child, wp_metric_names_text, 2, &v) != 0)
      return -1;
    opt->metric_names = (wp_metric_names)v;
    return 0;
  }
  return 1;
}

static void ctx_queue(wp_ctx **pending, wp_ctx *c) {
  wp_ctx **tail = pending;
  while (*tail != NULL)
    tail = &(*tail)->next_pending;
  *tail = c;
}

static bool is_host_block(const oconfig_item_t *child) {
  /* "Host name" is the host name option; "<Host name> ... </Host>" a remote
   * host (an empty block cannot be told from the option). */
  return strcasecmp(child->key, "Host") == 0 && child->children_num > 0;
}

/* One option of a <Host "name"> block. */
static int host_option(wp_ctx *c, oconfig_item_t *child, const char *name) {
  const char *k = child->key;
  int status = shared_option(child, &c->opt);
  if (status <= 0)
    return status;
  if (strcasecmp(k, "Address") == 0)
    return cf_util_get_string(child, &c->address);
  if (strcasecmp(k, "Port") == 0) {
    int v = cf_util_get_port_number(child);
    c->port = (unsigned)v;
    return v > 0 ? 0 : -1;
  }
  if (strcasecmp(k, "User") == 0)
    return cf_util_get_string(child, &c->user);
  if (strcasecmp(k, "Domain") == 0)
    return cf_util_get_string(child, &c->domain);
  if (strcasecmp(k, "PasswordFile") == 0 ||
      strcasecmp(k, "CredentialsFile") == 0)
    return cf_util_get_string(child, &c->password_file);
  if (strcasecmp(k, "CountersFile") == 0)
    return cf_util_get_string(child, &c->counters_file);
  if (strcasecmp(k, "Interval") == 0)
    return cf_util_get_cdtime(child, &c->interval);
  if (strcasecmp(k, "Timeout") == 0) {
    status = config_ms(child, &c->connect_timeout_ms);
    c->query_timeout_ms = c->connect_timeout_ms;
    return status;
  }
  if (strcasecmp(k, "ConnectTimeout") == 0)
    return config_ms(child, &c->connect_timeout_ms);
  if (strcasecmp(k, "QueryTimeout") == 0)
    return config_ms(child, &c->query_timeout_ms);
  if (strcasecmp(k, "Encrypt") == 0)
    return cf_util_get_boolean(child, &c->encrypt);
  if (strcasecmp(k, "RemoteHelper") == 0) {
    free(c->helper);
    c->helper = NULL;
    return cf_util_get_string(child, &c->helper);
  }
  if (strcasecmp(k, "Password") == 0) {
    /* Never in the config (world-readable, copied around): refuse. */
    ERROR(PLUGIN ": <Host \"%s\">: a password never goes in collectd's "
                 "configuration; put it in a file readable only by "
                 "collectd and name it with PasswordFile",
          name);
    return -1;
  }
  ERROR(PLUGIN ": <Host \"%s\">: unknown option \"%s\" (expected "
               "Address, Port, User, Domain, PasswordFile, CountersFile, "
               "Interval, Timeout, ConnectTimeout, QueryTimeout, "
               "Encrypt, Timestamp, PairBy, InstanceNames, MetricNames, "
               "SelfMetrics or RemoteHelper)",
        name, k);
  return -1;
}

/* What a <Host> block takes from the enclosing block when it does not say. */
static int host_defaults(wp_ctx *c, const wp_ctx *top, const char *name) {
  if (c->counters_file == NULL) {
    if (top->counters_file == NULL) {
      ERROR(PLUGIN ": <Host \"%s\">: no CountersFile (give one in the block "
                   "or in <Plugin winperf>)",
            name);
      return -1;
    }
    if ((c->counters_file = strdup(top->counters_file)) == NULL)
      return -1;
  }
  if (c->address == NULL && (c->address = strdup(name)) == NULL)
    return -1;
  return 0;
}

/* One <Host "name"> block: a context of its own. top holds the options of
 * the enclosing <Plugin winperf> block (the defaults). */
static int config_host(oconfig_item_t *ci, const wp_ctx *top,
                       wp_ctx **pending) {
  if (ci->values_num != 1 || ci->values[0].type != OCONFIG_TYPE_STRING ||
      ci->values[0].value.string[0] == '\0') {
    ERROR(PLUGIN ": <Host> needs one name: <Host \"name\">");
    return -1;
  }
  const char *name = ci->values[0].value.string;
  for (const wp_ctx *o = *pending; o != NULL; o = o->next_pending) {
    if (o->kind == WP_SOURCE_REMOTE && strcasecmp(o->host, name) == 0) {
      ERROR(PLUGIN ": <Host \"%s\"> is configured twice", name);
      return -1;
    }
  }
  wp_ctx *c = wp_ctx_new(WP_SOURCE_REMOTE);
  if (c == NULL) {
    ERROR(PLUGIN ": <Host \"%s\">: out of memory", name);
    return -1;
  }
  c->opt = top->opt;
  c->host = strdup(name);
  int status = c->host == NULL ? -1 : 0;
  if (status == 0 && top->helper != NULL &&
      (c->helper = strdup(top->helper)) == NULL)
    status = -1;
  for (int i = 0; i < ci->children_num && status == 0; i++)
    status = host_option(c, ci->children + i, name);
  if (status == 0)
    status = host_defaults(c, top, name);
  if (status == 0)
    status = wp_reload_read_first(c);
  if (status != 0) {
    wp_ctx_free(c);
    return -1;
  }
  ctx_queue(pending, c);
  return 0;
}

/* One option of the <Plugin winperf> block itself. */
static int plugin_option(wp_ctx *c, oconfig_item_t *child) {
  const char *k = child->key;
  int v = 0;
  int status = shared_option(child, &c->opt);
  if (status <= 0)
    return status;
  if (strcasecmp(k, "CountersFile") == 0)
    return cf_util_get_string(child, &c->counters_file);
  if (strcasecmp(k, "Replay") == 0)
    return cf_util_get_string(child, &c->replay_dir);
  if (strcasecmp(k, "ReplayLoop") == 0) {
    c->replay_loop_set = true;
    return cf_util_get_boolean(child, &c->replay_loop);
  }
  if (strcasecmp(k, "ReplaySpeed") == 0) {
    if (cf_util_get_int(child, &v) != 0)
      return -1;
    if (v < 1 || v > 1000000) {
      ERROR(PLUGIN ": ReplaySpeed %d: expected 1 to 1000000 samples a read", v);
      return -1;
    }
    c->replay_speed = v;
    return 0;
  }
  if (strcasecmp(k, "ValueMode") == 0) {
    static const char *const modes[] = {"formatted", "raw"};
    status = config_enum(child, modes, 2, &v);
    c->opt.raw_mode = v == 1;
    return status;
  }
  if (strcasecmp(k, "Host") == 0)
    return cf_util_get_string(child, &c->host);
  if (strcasecmp(k, "MultiTimerFormula") == 0) {
    static const char *const f[] = {"reskit", "msdn"};
    status = config_enum(child, f, 2, &v);
    c->opt.calc.multi_timer =
        v == 0 ? PD_MULTI_TIMER_RESKIT : PD_MULTI_TIMER_MSDN_SAMPLE;
    return status;
  }
  if (strcasecmp(k, "Cap100") == 0)
    return cf_util_get_boolean(child, &c->opt.calc.cap100);
  if (strcasecmp(k, "RemoteHelper") == 0)
    return cf_util_get_string(child, &c->helper);
  if (strcasecmp(k, "HostsPerHelper") == 0) {
    if (cf_util_get_int(child, &v) != 0)
      return -1;
    if (v < 1 || v > WP_HOSTS_PER_HELPER_MAX) {
      ERROR(PLUGIN ": HostsPerHelper %d: expected 1 to %d", v,
            WP_HOSTS_PER_HELPER_MAX);
      return -1;
    }
    c->hosts_per_helper = (unsigned)v;
    return 0;
  }
  ERROR(PLUGIN
        ": unknown option \"%s\" (expected CountersFile, Replay, "
        "ReplayLoop, ReplaySpeed, ValueMode, Timestamp, PairBy, InstanceNames, "
        "MetricNames, SelfMetrics, Host, MultiTimerFormula, Cap100, "
        "RemoteHelper, HostsPerHelper or a <Host> block)",
        k);
  return -1;
}

/* HostsPerHelper: the <Host> contexts after the first `skip` of the list
 * (this block's), in configuration order, share helpers `per` at a time;
 * hosts with different RemoteHelper programs never share one. Each
 * context holds a reference to its helper. 0, or -1 with the reason
 * logged. */
static int share_helpers(wp_ctx *list, size_t skip, unsigned per) {
  typedef struct group {
    const char *program; /* NULL: the installed helper */
    wp_remote_helper *h;
    unsigned used;
  } group;
  size_t hosts = 0;
  for (wp_ctx *c = list; c != NULL; c = c->next_pending)
    hosts++;
  group *g = calloc(hosts ? hosts : 1, sizeof(*g));
  if (g == NULL) {
    ERROR(PLUGIN ": out of memory");
    return -1;
  }
  size_t groups = 0, i = 0;
  int status = 0;
  for (wp_ctx *c = list; c != NULL && status == 0; c = c->next_pending) {
    if (i++ < skip || c->kind != WP_SOURCE_REMOTE)
      continue;
    size_t k = 0;
    while (k < groups &&
           (g[k].used == per || (g[k].program == NULL) != (c->helper == NULL) ||
            (c->helper != NULL && strcmp(g[k].program, c->helper) != 0)))
      k++;
    if (k == groups) {
      wp_error err = {0};
      g[k].program = c->helper;
      g[k].h = wp_source_shared_helper(c->helper, per, &err);
      if (g[k].h == NULL) {
        ERROR(PLUGIN ": HostsPerHelper: %s", err.message);
        status = -1;
        break;
      }
      groups++;
    } else {
      wp_source_shared_helper_ref(g[k].h);
    }
    g[k].used++;
    c->shared = g[k].h; /* the creator's reference, or the one taken */
  }
  free(g);
  return status;
}

/* The <Plugin winperf> block's own context, once its options are read:
 * whether there is one (only <Host> blocks: none), and whether it is
 * complete. */
static int check_top(wp_ctx *c, int hosts, bool *local) {
  *local = c->replay_dir != NULL || hosts == 0;
  if (c->replay_dir != NULL)
    c->kind = WP_SOURCE_REPLAY;
  if (!*local)
    return 0;
  if (c->counters_file == NULL) {
    ERROR(PLUGIN ": the CountersFile option is required");
    return -1;
  }
  if (c->replay_dir == NULL && !wp_source_available(WP_SOURCE_LOCAL)) {
    ERROR(PLUGIN ": the Replay option (or a <Host> block) is required on "
                 "this platform (the local source needs Windows)");
    return -1;
  }
  return wp_reload_read_first(c);
}

int wp_options_parse(oconfig_item_t *ci, wp_ctx **pending) {
  wp_ctx *c = wp_ctx_new(WP_SOURCE_LOCAL);
  if (c == NULL) {
    ERROR(PLUGIN ": out of memory");
    return -1;
  }
  int status = 0;
  int hosts = 0;
  for (int i = 0; i < ci->children_num && status == 0; i++) {
    if (is_host_block(ci->children + i))
      hosts++; /* after the other options: they are its defaults */
    else
      status = plugin_option(c, ci->children + i);
  }
  if (status == 0 && hosts > 0 && !wp_source_available(WP_SOURCE_REMOTE)) {
    ERROR(PLUGIN ": <Host> blocks (remote collection) need the remote "
                 "helper, which is not built on Windows");
    status = -1;
  }
  size_t before = 0; /* contexts of earlier <Plugin winperf> blocks */
  for (const wp_ctx *o = *pending; o != NULL; o = o->next_pending)
    before++;
  for (int i = 0; i < ci->children_num && status == 0; i++)
    if (is_host_block(ci->children + i))
      status = config_host(ci->children + i, c, pending);
  if (status == 0 && hosts > 0 && c->hosts_per_helper > 1)
    status = share_helpers(*pending, before, c->hosts_per_helper);
  bool local = false;
  if (status == 0)
    status = check_top(c, hosts, &local);
  if (status != 0 || !local) {
    wp_ctx_free(c);
    return status == 0 ? 0 : -1; /* -1: collectd refuses to start */
  }
  ctx_queue(pending, c);
  return 0;
}
