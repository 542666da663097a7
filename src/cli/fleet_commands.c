/* collectd-winperf: `winperf shard` and `winperf hosts --check`, the
 * offline look at a fleet's inventory (src/config).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   winperf shard --hosts FILE --of N
 *       "HOST<TAB>K" for every host of the inventory: the poller of N
 *       that polls it (Shard "K/N", src/config/shard.h).
 *   winperf hosts --check FILE [--config collectd.conf]
 *       every host's resolved settings (host > the inventory's defaults >
 *       the <Plugin winperf> block's options > built-in), where each
 *       comes from, and its shard; exit 1 on any error. With --config the
 *       block that names FILE in a HostsFile (else the first winperf
 *       block) gives the defaults, the Shard, its <Host> blocks and its
 *       other inventories, for the duplicate check. A password is never
 *       printed: only the file it is read from.
 */
#include "cli.h"
#include "wp_grow.h"
#include "collectd_conf.h"
#include "commands.h"
#include "hosts_auth.h"
#include "inventory.h"
#include "shard.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define EXIT_CHECK 1

static int usage(const char *what) {
  cli_error("%s", what);
  return CLI_EXIT_ERROR;
}

int cmd_shard(int argc, char **argv) {
  const char *file = NULL;
  double n = 0;
  for (int i = 1; i < argc; i++) {
    const char *v;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
      return CLI_SHOW_HELP;
    if ((v = cli_opt_value(argv[i], "--hosts", argc, argv, &i)) != NULL)
      file = v;
    else if ((v = cli_opt_value(argv[i], "--of", argc, argv, &i)) != NULL)
      n = atof(v);
    else
      return usage("shard: expected --hosts FILE --of N");
  }
  if (file == NULL || !(n >= 1 && n <= WP_SHARD_MAX) || n != (unsigned)n)
    return usage("shard: --hosts FILE and --of N (1 or more) are required");
  wp_inventory inv;
  wp_error err = {0};
  if (wp_inventory_load(file, &inv, &err) != 0)
    return cli_error("%s", err.message), EXIT_CHECK;
  for (size_t i = 0; i < inv.count; i++) {
    cli_put_text(stdout, inv.hosts[i].name);
    printf("\t%u\n", wp_shard_of(inv.hosts[i].name, (unsigned)n));
  }
  wp_inventory_free(&inv);
  return CLI_EXIT_OK;
}

/* Whether two paths name one file. */
static bool same_file(const char *a, const char *b) {
  struct stat sa, sb;
  if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
    return strcmp(a, b) == 0;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The <Plugin winperf> block of the configuration that names `file` in a
 * HostsFile, else the first one; NULL when there is none. */
static const wp_conf_item *plugin_block(const wp_conf_item *root,
                                        const char *file) {
  const wp_conf_item *first = NULL;
  for (int i = 0; i < root->children_num; i++) {
    const wp_conf_item *b = &root->children[i];
    if (strcasecmp(b->key, "Plugin") != 0 || b->values_num != 1 ||
        strcasecmp(b->values[0].text, "winperf") != 0)
      continue;
    if (first == NULL)
      first = b;
    for (int j = 0; j < b->children_num; j++)
      if (strcasecmp(b->children[j].key, "HostsFile") == 0 &&
          b->children[j].values_num == 1 &&
          same_file(b->children[j].values[0].text, file))
        return b;
  }
  return first;
}

typedef struct check {
  wp_host_settings plugin; /* the block's host defaults */
  unsigned k, n;           /* its Shard */
  wp_inventory *inv;       /* FILE, then the block's other inventories */
  size_t n_inv, inv_cap;
  wp_host_origin *names;
  char **wheres; /* in step with names */
  size_t n_names, names_cap;
  int errors;
} check;

__attribute__((format(printf, 2, 3))) static void
problem(check *c, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  cli_error("%s", msg);
  c->errors++;
}

static void add_name(check *c, const char *name, const char *where) {
  size_t cap = c->names_cap;
  if (WP_GROW(&c->names, &cap, c->n_names + 1, WP_GROW_NO_CAP) != WP_GROW_OK ||
      WP_RESIZE(&c->wheres, cap) != WP_GROW_OK)
    exit(CLI_EXIT_ERROR);
  c->names_cap = cap;
  c->wheres[c->n_names] = strdup(where);
  c->names[c->n_names].name = name;
  c->names[c->n_names].where = c->wheres[c->n_names];
  c->n_names++;
}

static void add_inventory(check *c, const char *path) {
  if (WP_GROW(&c->inv, &c->inv_cap, c->n_inv + 1, WP_GROW_NO_CAP) != WP_GROW_OK)
    exit(CLI_EXIT_ERROR);
  wp_error err = {0};
  if (wp_inventory_load(path, &c->inv[c->n_inv], &err) != 0) {
    problem(c, "%s", err.message);
    return;
  }
  wp_inventory *inv = &c->inv[c->n_inv++];
  for (size_t i = 0; i < inv->count; i++) {
    char where[600];
    snprintf(where, sizeof(where), "%s:%u:%u", path, inv->hosts[i].line,
             inv->hosts[i].column);
    add_name(c, inv->hosts[i].name, where);
  }
}

/* The block's options: host defaults, Shard, <Host> names, inventories. */
static void read_block(check *c, const wp_conf_item *b, const char *file) {
  char why[300];
  for (int i = 0; i < b->children_num; i++) {
    const wp_conf_item *o = &b->children[i];
    int row = wp_hs_find_option(o->key);
    if (strcasecmp(o->key, "Host") == 0 && o->children_num > 0 &&
        o->values_num == 1) {
      char where[300];
      snprintf(where, sizeof(where), "<Host \"%s\"> block (%s:%u)",
               o->values[0].text, o->file, o->line);
      add_name(c, o->values[0].text, where);
    } else if (strcasecmp(o->key, "Shard") == 0 && o->values_num == 1) {
      if (wp_shard_parse(o->values[0].text, &c->k, &c->n) != 0)
        problem(c, "%s:%u: Shard \"%s\": expected \"K/N\"", o->file, o->line,
                o->values[0].text);
    } else if (strcasecmp(o->key, "HostsFile") == 0 && o->values_num == 1) {
      if (!same_file(o->values[0].text, file))
        add_inventory(c, o->values[0].text);
    } else if (strcasecmp(o->key, "Include") == 0) {
      problem(c,
              "%s:%u: Include inside <Plugin winperf> is not expanded by "
              "collectd 5.12 (it refuses to start): use HostsFile",
              o->file, o->line);
    } else if (row >= 0 && strcasecmp(o->key, "Address") != 0) {
      if (o->values_num != 1 ||
          wp_hs_set_named(&c->plugin, row, o->key, &o->values[0], why,
                          sizeof(why)) != 0)
        problem(c, "%s:%u: <Plugin winperf> %s: %s", o->file, o->line, o->key,
                o->values_num != 1 ? "expected one value" : why);
    }
  }
}

static const char *origin(const wp_host_settings *own,
                          const wp_host_settings *defaults,
                          const wp_host_settings *plugin, wp_hs_field f) {
  uint32_t bit = WP_HS_BIT(f);
  return (own->set & bit)        ? "host"
         : (defaults->set & bit) ? "defaults"
         : (plugin->set & bit)   ? "plugin"
                                 : "built-in";
}

/* The host's resolved settings; 1 when the plugin would refuse them. */
static int print_host(const check *c, const wp_inventory *inv,
                      const wp_inventory_host *h) {
  wp_host_settings s;
  if (wp_hs_copy(&s, &h->s) != 0 || wp_hs_inherit(&s, &inv->defaults) != 0 ||
      wp_hs_inherit(&s, &c->plugin) != 0)
    exit(CLI_EXIT_ERROR);
  unsigned shard = wp_shard_of(h->name, c->n);
  bool on = !(s.set & WP_HS_BIT(WP_HS_ENABLED)) || s.enabled;
  printf("host ");
  cli_put_text(stdout, h->name);
  printf(" (%s:%u:%u)\n  shard: %u/%u%s\n  enabled: %s\n", inv->path, h->line,
         h->column, shard, c->n,
         c->n > 1 && shard == c->k ? " (this poller)"
         : c->n > 1                ? " (another poller)"
                                   : "",
         on ? "yes" : "no (not polled)");
  char buf[600];
  printf("  address: %s (%s)\n", s.address ? s.address : h->name,
         s.address ? origin(&h->s, &inv->defaults, &c->plugin, WP_HS_ADDRESS)
                   : "the name");
  printf("  port: %u (%s)\n", wp_hs_port(&s),
         origin(&h->s, &inv->defaults, &c->plugin, WP_HS_PORT));
  printf("  connect_timeout: %g (%s)\n  query_timeout: %g (%s)\n",
         wp_hs_connect_ms(&s) / 1000.0,
         origin(&h->s, &inv->defaults, &c->plugin, WP_HS_CONNECT_TIMEOUT),
         wp_hs_query_ms(&s) / 1000.0,
         origin(&h->s, &inv->defaults, &c->plugin, WP_HS_QUERY_TIMEOUT));
  static const wp_hs_field rest[] = {
      WP_HS_USER,           WP_HS_DOMAIN,        WP_HS_PASSWORD_FILE,
      WP_HS_AUTH,           WP_HS_COUNTERS_FILE, WP_HS_INTERVAL,
      WP_HS_ENCRYPT,        WP_HS_TIMESTAMP,     WP_HS_PAIR_BY,
      WP_HS_INSTANCE_NAMES, WP_HS_METRIC_NAMES,  WP_HS_SELF_METRICS,
      WP_HS_REMOTE_HELPER,  WP_HS_PRINCIPAL,     WP_HS_KEYTAB,
      WP_HS_CCACHE,         WP_HS_KRB5_CONFIG};
  for (size_t i = 0; i < sizeof(rest) / sizeof(rest[0]); i++) {
    if (!(s.set & WP_HS_BIT(rest[i])))
      continue;
    printf("  %s: ", wp_hs_field_key(rest[i]));
    cli_put_text(stdout, wp_hs_value_text(&s, rest[i], buf, sizeof(buf)));
    printf(" (%s)\n", origin(&h->s, &inv->defaults, &c->plugin, rest[i]));
  }
  if (s.password_file != NULL) {
    struct stat st;
    if (stat(s.password_file, &st) != 0)
      printf("  warning: password_file %s cannot be read\n", s.password_file);
    else if (st.st_mode & S_IROTH)
      printf("  warning: password_file %s is readable by everyone: the "
             "helper refuses it\n",
             s.password_file);
  }
  if (s.counters_file == NULL)
    printf("  warning: no counters_file (nor CountersFile in <Plugin "
           "winperf>)\n");
  char where[600];
  snprintf(where, sizeof(where), "%s:%u:%u", inv->path, h->line, h->column);
  int bad = on ? cli_hosts_check_auth(h->name, where, &s) : 0;
  wp_hs_free(&s);
  return bad;
}

int cmd_hosts(int argc, char **argv) {
  const char *file = NULL, *conf = NULL;
  for (int i = 1; i < argc; i++) {
    const char *v;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
      return CLI_SHOW_HELP;
    if ((v = cli_opt_value(argv[i], "--check", argc, argv, &i)) != NULL)
      file = v;
    else if ((v = cli_opt_value(argv[i], "--config", argc, argv, &i)) != NULL)
      conf = v;
    else
      return usage("hosts: expected --check FILE [--config collectd.conf]");
  }
  if (file == NULL)
    return usage("hosts: --check FILE is required");
  check c = {.k = 1, .n = 1};
  wp_conf_item root = {0};
  wp_error err = {0};
  add_inventory(&c, file); /* first: the one printed */
  if (conf != NULL) {
    if (wp_conf_read(conf, &root, &err) != 0) {
      problem(&c, "%s", err.message);
    } else {
      const wp_conf_item *b = plugin_block(&root, file);
      if (b == NULL)
        problem(&c, "%s: no <Plugin winperf> block", conf);
      else
        read_block(&c, b, file);
    }
  }
  if (c.n_names > 1 && wp_hosts_unique(c.names, c.n_names, &err) != 0)
    problem(&c, "%s", err.message);
  if (c.errors == 0 && c.n_inv > 0)
    for (size_t i = 0; i < c.inv[0].count; i++)
      c.errors += print_host(&c, &c.inv[0], &c.inv[0].hosts[i]);
  for (size_t i = 0; i < c.n_inv; i++)
    wp_inventory_free(&c.inv[i]);
  for (size_t i = 0; i < c.n_names; i++)
    free(c.wheres[i]);
  free(c.wheres);
  free(c.names);
  free(c.inv);
  wp_hs_free(&c.plugin);
  wp_conf_free(&root);
  return c.errors ? EXIT_CHECK : CLI_EXIT_OK;
}
