/* collectd-winperf: the host inventory and the host settings' precedence
 * (src/config/inventory.h, host_settings.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Each bad file is rejected whole with the FILE:LINE:COLUMN of what is
 * wrong (counted by hand from the text below); a good one gives every
 * host its own settings, the defaults filling the rest, then the plugin
 * block's options, then the built-in defaults.
 */
#include "inventory.h"
#include "tap.h"

#include <stdlib.h>
#include <unistd.h>

static char dir[] = "/tmp/winperf-inv.XXXXXX";

static const char *write_file(const char *name, const char *text) {
  static char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
  return path;
}

/* The file `text` is refused with `want` after "PATH:". */
static void refused(const char *text, const char *want, const char *what) {
  wp_inventory inv;
  wp_error err = {0};
  const char *path = write_file("bad.yaml", text);
  int st = wp_inventory_load(path, &inv, &err);
  char expect[600];
  snprintf(expect, sizeof expect, "%s:%s", path, want);
  int ok = st != 0 && strncmp(err.message, expect, strlen(expect)) == 0 &&
           inv.count == 0;
  tap_ok(ok, "refused: %s", what);
  if (!ok)
    tap_diag("got \"%s\", want \"%s...\"", err.message, expect);
}

static void bad_files(void) {
  refused("hosts:\n  - name: a\n    prot: 4455\n",
          "3:5: unknown key \"prot\" (expected name, address, port",
          "an unknown key, at its line and column");
  refused("hosts:\n  - a\n  - name: B\n  - c\n  - name: A\n",
          "5:11: host \"A\" is listed twice (first at line 2, column 5)",
          "a duplicate name (case-insensitive)");
  refused("hosts:\n  - name: a\n    port: 70000\n",
          "3:11: port 70000: expected a port from 1 to 65535",
          "a port out of range");
  refused("hosts:\n  - name: a\n    timeout: fast\n",
          "3:14: timeout: expected a number", "a timeout that is no number");
  refused("hosts:\n  - name: a\n    encrypt: maybe\n",
          "3:14: encrypt: expected true or false", "a boolean that is none");
  refused("hosts:\n  - name: a\n    enabled: 'false'\n",
          "3:14: enabled: expected true or false",
          "a quoted 'false' is a string, not a boolean");
  refused("defaults:\n  name: x\nhosts: []\n",
          "2:3: defaults: \"name\" belongs to a host entry",
          "name in defaults");
  refused("hosts:\n  - port: 445\n", "2:5: a host entry needs \"name\"",
          "an entry without a name");
  refused("hosts:\n  - name: 'a b'\n",
          "2:11: host name \"a b\": a host name has no space",
          "a name with a space");
  refused("hosts:\n  - name: a\n    auth: kerberbos\n",
          "3:11: auth kerberbos: expected \"ntlm\", \"kerberos\" or "
          "\"negotiate\"",
          "auth: a method that is none");
  refused("hosts:\n  - name: a\n    keytab: ''\n",
          "3:13: keytab: expected a non-empty string", "an empty keytab");
  refused("hosts:\n  - name: a\n    user: [x]\n",
          "3:11: user: expected a single value, not a list", "a list value");
  refused("host:\n  - a\n",
          "1:1: unknown key \"host\" (expected hosts or "
          "defaults)",
          "a misspelt top-level key");
  refused("hosts:\n\t- a\n",
          "2:1: YAML syntax error: found character "
          "that cannot start any token",
          "a YAML syntax error");
  refused("defaults:\n  timeout: 5\n", "1:1: no \"hosts:\" list",
          "no hosts list");
}

static void good_file(void) {
  const char *path = write_file(
      "good.yaml", "defaults:\n"
                   "  user: 'CORP\\svc-perf'\n"
                   "  password_file: /etc/collectd/winperf.cred\n"
                   "  timeout: 5\n"
                   "hosts:\n"
                   "  - web01.corp.example      # a string: name = address\n"
                   "  - name: sql01\n"
                   "    address: 10.0.0.12\n"
                   "    port: 4455\n"
                   "    connect_timeout: 2\n"
                   "    auth: ntlm\n"
                   "    counters_file: /etc/collectd/sql.yaml\n"
                   "  - name: old01\n"
                   "    enabled: false\n");
  wp_inventory inv;
  wp_error err = {0};
  int st = wp_inventory_load(path, &inv, &err);
  tap_ok(st == 0 && inv.count == 3, "the issue's example loads: 3 hosts (%s)",
         err.message);
  if (st != 0)
    return;
  /* the plugin block's options: Port 4000, Domain CORP, Timeout 9,
   * CountersFile, Interval 30 */
  wp_host_settings plugin = {0};
  char why[200];
  wp_cfg_value v = {.kind = WP_CFG_NUMBER, .number = 4000};
  wp_hs_set(&plugin, wp_hs_find_option("Port"), &v, why, sizeof why);
  v.number = 9;
  wp_hs_set(&plugin, wp_hs_find_option("timeout"), &v, why, sizeof why);
  v.number = 30;
  wp_hs_set(&plugin, wp_hs_find_option("INTERVAL"), &v, why, sizeof why);
  v = (wp_cfg_value){.kind = WP_CFG_TEXT, .text = "CORP"};
  wp_hs_set(&plugin, wp_hs_find_option("Domain"), &v, why, sizeof why);
  wp_host_settings h[3];
  for (int i = 0; i < 3; i++) {
    wp_hs_copy(&h[i], &inv.hosts[i].s);
    wp_hs_inherit(&h[i], &inv.defaults);
    wp_hs_inherit(&h[i], &plugin);
  }
  tap_ok(strcmp(inv.hosts[0].name, "web01.corp.example") == 0 &&
             h[0].address == NULL && inv.hosts[0].line == 6 &&
             inv.hosts[0].column == 5,
         "a string entry: name, no address (the name is the address), 6:5");
  tap_ok(strcmp(h[0].user, "CORP\\svc-perf") == 0 &&
             strcmp(h[0].password_file, "/etc/collectd/winperf.cred") == 0,
         "defaults: user and password_file");
  tap_ok(wp_hs_port(&h[0]) == 4000 && wp_hs_port(&h[1]) == 4455,
         "port: the host's 4455 over the plugin's 4000");
  tap_ok(wp_hs_connect_ms(&h[0]) == 5000 && wp_hs_query_ms(&h[0]) == 5000,
         "timeout: the defaults' 5 s over the plugin's 9 s");
  tap_ok(wp_hs_connect_ms(&h[1]) == 2000 && wp_hs_query_ms(&h[1]) == 5000,
         "sql01: its connect_timeout 2 s, the defaults' 5 s query timeout");
  tap_ok(strcmp(h[1].domain, "CORP") == 0 && h[1].interval == 30,
         "domain and interval from the plugin block");
  tap_ok(strcmp(h[1].address, "10.0.0.12") == 0 &&
             strcmp(h[1].counters_file, "/etc/collectd/sql.yaml") == 0,
         "sql01: address and counters_file");
  tap_ok((h[2].set & WP_HS_BIT(WP_HS_ENABLED)) && !h[2].enabled &&
             !(h[0].set & WP_HS_BIT(WP_HS_ENABLED)),
         "old01: enabled false; the others not set (enabled)");
  wp_host_settings none = {0};
  tap_ok(wp_hs_port(&none) == 445 && wp_hs_connect_ms(&none) == 10000 &&
             wp_hs_query_ms(&none) == 30000,
         "built-in: port 445, 10 s and 30 s");
  tap_ok(!wp_hs_equal(&h[0], &h[1]) && wp_hs_equal(&h[0], &h[0]),
         "wp_hs_equal");
  for (int i = 0; i < 3; i++)
    wp_hs_free(&h[i]);
  wp_hs_free(&plugin);
  wp_inventory_free(&inv);
}

/* The Kerberos keys are read, and inherited like the others. */
static void kerberos_keys(void) {
  const char *path =
      write_file("krb.yaml", "defaults:\n"
                             "  auth: kerberos\n"
                             "  krb5_config: /etc/winperf-krb5.conf\n"
                             "hosts:\n"
                             "  - name: web01.corp.example\n"
                             "    principal: svc-perf@CORP.EXAMPLE\n"
                             "    keytab: /etc/collectd/svc-perf.keytab\n"
                             "  - name: web02.corp.example\n"
                             "    auth: negotiate\n"
                             "    ccache: FILE:/run/collectd/krb5cc\n");
  wp_inventory inv;
  wp_error err = {0};
  int st = wp_inventory_load(path, &inv, &err);
  tap_ok(st == 0 && inv.count == 2, "Kerberos keys load (%s)", err.message);
  if (st != 0)
    return;
  wp_host_settings h[2];
  for (int i = 0; i < 2; i++) {
    wp_hs_copy(&h[i], &inv.hosts[i].s);
    wp_hs_inherit(&h[i], &inv.defaults);
  }
  char buf[64];
  tap_ok(h[0].auth == WP_AUTH_KERBEROS &&
             strcmp(h[0].principal, "svc-perf@CORP.EXAMPLE") == 0 &&
             strcmp(h[0].keytab, "/etc/collectd/svc-perf.keytab") == 0 &&
             strcmp(h[0].krb5_config, "/etc/winperf-krb5.conf") == 0,
         "web01: auth and krb5_config from the defaults, its principal and "
         "keytab");
  tap_ok(h[1].auth == WP_AUTH_NEGOTIATE &&
             strcmp(h[1].ccache, "FILE:/run/collectd/krb5cc") == 0 &&
             strcmp(wp_hs_value_text(&h[1], WP_HS_AUTH, buf, sizeof buf),
                    "negotiate") == 0,
         "web02: its own auth over the defaults', its ccache");
  tap_ok(!wp_hs_equal(&h[0], &h[1]), "the Kerberos keys count in "
                                     "wp_hs_equal");
  for (int i = 0; i < 2; i++)
    wp_hs_free(&h[i]);
  wp_inventory_free(&inv);
}

static void unique(void) {
  wp_host_origin o[] = {
      {"b", "x.yaml:2:5"}, {"A", "y.yaml:3:5"}, {"a", "<Host \"a\"> block"}};
  wp_error err = {0};
  tap_ok(wp_hosts_unique(o, 3, &err) != 0 &&
             strstr(err.message, "is given twice") != NULL,
         "the same name in an inventory and a <Host> block: %s", err.message);
  wp_host_origin p[] = {{"b", "1"}, {"c", "2"}};
  tap_ok(wp_hosts_unique(p, 2, &err) == 0, "different names pass");
}

int main(void) {
  if (mkdtemp(dir) == NULL)
    return 1;
  bad_files();
  good_file();
  kerberos_keys();
  unique();
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0)
    tap_diag("could not remove %s", dir);
  return tap_done();
}
