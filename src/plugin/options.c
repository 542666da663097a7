/* collectd-winperf: <Plugin winperf> and <Host> blocks into contexts
 * (options.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "options.h"
#include "counters.h"
#include "inventory.h"
#include "option_table.h"
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

/* An option of the host settings' table (src/config/host_settings.h) into
 * s. 0, -1 (logged), or 1 when the option is not in the table. */
static int table_option(oconfig_item_t *child, wp_host_settings *s,
                        const char *block) {
  int row = wp_hs_find_option(child->key);
  if (row < 0)
    return 1;
  if (child->values_num != 1) {
    ERROR(PLUGIN ": %s%s: expected one value", block, child->key);
    return -1;
  }
  const oconfig_value_t *ov = &child->values[0];
  char num[64];
  wp_cfg_value v = {.kind = WP_CFG_TEXT};
  if (ov->type == OCONFIG_TYPE_STRING) {
    v.text = ov->value.string;
  } else if (ov->type == OCONFIG_TYPE_NUMBER) {
    v.kind = WP_CFG_NUMBER;
    v.number = ov->value.number;
    snprintf(num, sizeof(num), "%.17g", ov->value.number);
    v.text = num;
  } else {
    v.kind = WP_CFG_BOOL;
    v.boolean = ov->value.boolean != 0;
  }
  char why[300];
  if (wp_hs_set_named(s, row, child->key, &v, why, sizeof(why)) != 0) {
    ERROR(PLUGIN ": %s%s", block, why);
    return -1;
  }
  return 0;
}

/* Whether the options' table allows option `name` at `where`. */
static bool allowed(const char *name, unsigned where) {
  const wp_option *o = wp_option_find(name);
  return o != NULL && (o->where & where) != 0;
}

/* One <Host "name"> block: its settings go to the fleet (fleet.h), which
 * makes its context once the whole block is read. */
static int config_host(oconfig_item_t *ci, wp_fleet *fleet) {
  if (ci->values_num != 1 || ci->values[0].type != OCONFIG_TYPE_STRING ||
      ci->values[0].value.string[0] == '\0') {
    ERROR(PLUGIN ": <Host> needs one name: <Host \"name\">");
    return -1;
  }
  const char *name = ci->values[0].value.string;
  const char *why = NULL;
  if (!wp_host_name_ok(name, &why)) {
    ERROR(PLUGIN ": <Host \"%s\">: %s", name, why);
    return -1;
  }
  char block[DATA_MAX_NAME_LEN + 16];
  snprintf(block, sizeof(block), "<Host \"%s\">: ", name);
  wp_host_settings s = {0};
  int status = 0;
  for (int i = 0; i < ci->children_num && status == 0; i++) {
    oconfig_item_t *child = ci->children + i;
    if (strcasecmp(child->key, "Password") == 0) {
      /* Never in the config (world-readable, copied around): refuse. */
      ERROR(PLUGIN ": <Host \"%s\">: a password never goes in collectd's "
                   "configuration; put it in a file readable only by "
                   "collectd and name it with PasswordFile",
            name);
      status = -1;
    } else if (!allowed(child->key, WP_OPT_HOST)) {
      char names[1024];
      ERROR(PLUGIN ": <Host \"%s\">: unknown option \"%s\" (expected %s)", name,
            child->key, wp_option_names(WP_OPT_HOST, names, sizeof(names)));
      status = -1;
    } else if ((status = table_option(child, &s, block)) > 0) {
      ERROR(PLUGIN ": <Host \"%s\">: option \"%s\" has no parser", name,
            child->key);
      status = -1;
    }
  }
  if (status == 0 && wp_fleet_add_host(fleet, name, &s) != 0) {
    ERROR(PLUGIN ": <Host \"%s\">: out of memory", name);
    status = -1;
  }
  wp_hs_free(&s);
  return status;
}

/* The block's options that only a fleet has. 0, -1 (logged), or 1 when
 * the option is none of them. */
static int fleet_option(oconfig_item_t *child, wp_fleet *fleet) {
  const char *k = child->key;
  char *text = NULL;
  double d = 0;
  int v = 0;
  if (strcasecmp(k, "HostsFile") == 0) {
    if (cf_util_get_string(child, &text) != 0)
      return -1;
    int status = wp_fleet_add_inventory(fleet, text);
    free(text);
    return status;
  }
  if (strcasecmp(k, "Shard") == 0) {
    if (cf_util_get_string(child, &text) != 0)
      return -1;
    int status = wp_fleet_set_shard(fleet, text);
    free(text);
    return status;
  }
  if (strcasecmp(k, "MaxClockSkew") == 0 ||
      strcasecmp(k, "AuthRetryInterval") == 0) {
    if (cf_util_get_double(child, &d) != 0)
      return -1;
    if (!(d >= 1 && d <= 31536000)) {
      ERROR(PLUGIN ": %s %g: expected seconds from 1 to 31536000", k, d);
      return -1;
    }
    wp_fleet_tune(fleet, strcasecmp(k, "MaxClockSkew") == 0 ? d : -1,
                  strcasecmp(k, "MaxClockSkew") == 0 ? -1 : d, 0);
    return 0;
  }
  if (strcasecmp(k, "MaxConcurrentConnects") == 0) {
    if (cf_util_get_int(child, &v) != 0)
      return -1;
    if (v < 1 || v > 100000) {
      ERROR(PLUGIN ": MaxConcurrentConnects %d: expected 1 to 100000", v);
      return -1;
    }
    wp_fleet_tune(fleet, -1, -1, (unsigned)v);
    return 0;
  }
  return 1;
}

/* One option of the <Plugin winperf> block itself. */
static int plugin_option(wp_ctx *c, oconfig_item_t *child, wp_fleet *fleet) {
  const char *k = child->key;
  int v = 0;
  const wp_option *o = wp_option_find(k);
  if (o == NULL) {
    char names[1024];
    ERROR(PLUGIN ": unknown option \"%s\" (expected %s, or a <Host> block)", k,
          wp_option_names(WP_OPT_PLUGIN, names, sizeof(names)));
    return -1;
  }
  if ((o->where & WP_OPT_PLUGIN) == 0) {
    ERROR(PLUGIN ": %s belongs in a <Host> block or an inventory", o->name);
    return -1;
  }
  /* The host settings' options are defaults for this block's hosts. */
  int status = table_option(child, wp_fleet_defaults(fleet), "");
  if (status < 0)
    return -1;
  bool host_default = status == 0;
  if ((status = fleet_option(child, fleet)) <= 0)
    return status;
  status = shared_option(child, &c->opt);
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
  if (host_default) /* Port, User, Timeout...: for the hosts only */
    return 0;
  ERROR(PLUGIN ": option \"%s\" is in the options' table but has no parser", k);
  return -1;
}

/* The <Plugin winperf> block's own context, once its options are read:
 * whether there is one (only <Host> blocks: none), and whether it is
 * complete. */
static int check_top(wp_ctx *c, bool remote, bool *local) {
  *local = c->replay_dir != NULL || !remote;
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

int wp_options_parse(oconfig_item_t *ci, wp_ctx **pending, wp_fleet **fleets) {
  wp_ctx *c = wp_ctx_new(WP_SOURCE_LOCAL);
  wp_fleet *fleet = c ? wp_fleet_new(c) : NULL;
  if (fleet == NULL) {
    ERROR(PLUGIN ": out of memory");
    wp_ctx_free(c);
    return -1;
  }
  int status = 0;
  int hosts = 0;
  for (int i = 0; i < ci->children_num && status == 0; i++) {
    if (is_host_block(ci->children + i))
      hosts++; /* after the other options: they are its defaults */
    else
      status = plugin_option(c, ci->children + i, fleet);
  }
  for (int i = 0; i < ci->children_num && status == 0; i++)
    if (is_host_block(ci->children + i))
      status = config_host(ci->children + i, fleet);
  bool remote = !wp_fleet_empty(fleet);
  if (status == 0 && remote && !wp_source_available(WP_SOURCE_REMOTE)) {
    ERROR(PLUGIN ": <Host> blocks and HostsFile (remote collection) need "
                 "the remote helper, which is not built on Windows");
    status = -1;
  }
  if (status == 0 && remote) {
    wp_fleet_top(fleet, c);
    status = wp_fleet_configure(fleet, *fleets);
  }
  bool local = false;
  if (status == 0)
    status = check_top(c, remote, &local);
  if (status == 0 && remote)
    wp_fleet_append(fleets, fleet);
  else
    wp_fleet_unref(fleet);
  if (status != 0 || !local) {
    wp_ctx_free(c);
    return status == 0 ? 0 : -1; /* -1: collectd refuses to start */
  }
  ctx_queue(pending, c);
  return 0;
}
