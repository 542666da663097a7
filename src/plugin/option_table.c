/* collectd-winperf: the options' table (option_table.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "option_table.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define P WP_OPT_PLUGIN
#define H WP_OPT_HOST

/* clang-format off */
const wp_option wp_option_table[] = {
  /* name, where, inventory key, alias of, value, default, doc */
  {"CountersFile", P | H, "counters_file", NULL, "file", "required", "the YAML list of counters"},
  {"Replay", P, NULL, NULL, "directory|file.blg", NULL, "a capture directory or a Perfmon log instead of the local registry"},
  {"ReplayLoop", P, NULL, NULL, "true|false", "true", "start the replay again at its end"},
  {"ReplaySpeed", P, NULL, NULL, "N", "1", "samples replayed a read"},
  {"ValueMode", P, NULL, NULL, "\"formatted\"|\"raw\"", "formatted", "the value PDH displays, or the raw reading"},
  {"Timestamp", P | H, "timestamp", NULL, "\"now\"|\"sample\"", "now", "the time of dispatch or the sample's own clock"},
  {"Host", P, NULL, NULL, "name", "collectd's Hostname", "the host name of the dispatched values"},
  {"MultiTimerFormula", P, NULL, NULL, "\"reskit\"|\"msdn\"", "reskit", "the formula of PERF_COUNTER_MULTI_TIMER"},
  {"Cap100", P, NULL, NULL, "true|false", "false", "clamp percentages at 100"},
  {"PairBy", P | H, "pair_by", NULL, "\"id\"|\"name\"", "id", "how an instance finds its previous sample"},
  {"InstanceNames", P | H, "instance_names", NULL, "\"pdh\"|\"pid\"", "pdh", "PDH's instance names or BASENAME:PID"},
  {"MetricNames", P | H, "metric_names", NULL, "\"pdh\"|\"clean\"", "pdh", "the names as PDH writes them, or cleaned"},
  {"SelfMetrics", P | H, "self_metrics", NULL, "true|false", "true", "dispatch the plugin's own measurements"},
  {"RemoteHelper", P | H, "remote_helper", NULL, "path", "winperf-remote-helper", "the helper program of the remote hosts"},
  {"HostsPerHelper", P, NULL, NULL, "N", "1", "how many remote hosts share a helper process"},
  {"HostsFile", P, NULL, NULL, "file", NULL, "a host inventory (YAML)"},
  {"Shard", P, NULL, NULL, "\"K/N\"", "every host", "poll only the hosts of shard K of N"},
  {"MaxConcurrentConnects", P, NULL, NULL, "N", "32", "requests in flight that start a helper or log on"},
  {"AuthRetryInterval", P, NULL, NULL, "seconds", "3600", "how long a paused credential waits"},
  {"MaxClockSkew", P, NULL, NULL, "seconds", "60", "a remote host's clock skew beyond which collectd's time is used"},
  {"Address", H, "address", NULL, "address", "the block's name", "the host name or IP address to connect to"},
  {"Port", P | H, "port", NULL, "port", "445", "the SMB port"},
  {"User", P | H, "user", NULL, "[DOMAIN\\]name", "the username line of the password file", "the account"},
  {"Domain", P | H, "domain", NULL, "domain", "from User or the password file", "the account's domain or workgroup"},
  {"PasswordFile", P | H, "password_file", NULL, "file", NULL, "the credentials, in smbclient's -A format"},
  {"CredentialsFile", P | H, "credentials_file", "PasswordFile", "file", NULL, "PasswordFile's other name"},
  {"Interval", P | H, "interval", NULL, "seconds", "collectd's Interval", "the host's read interval"},
  {"Timeout", P | H, "timeout", NULL, "seconds", "10 and 30 seconds", "both the connect and the query timeout"},
  {"ConnectTimeout", P | H, "connect_timeout", NULL, "seconds", "10", "the connect timeout (session set-up)"},
  {"QueryTimeout", P | H, "query_timeout", NULL, "seconds", "30", "the query timeout"},
  {"Encrypt", P | H, "encrypt", NULL, "true|false", "false", "require SMB3 encryption"},
  {"Auth", P | H, "auth", NULL, "\"ntlm\"|\"kerberos\"|\"negotiate\"", "ntlm", "how the helper logs on"},
  {"Principal", P | H, "principal", NULL, "name@REALM", NULL, "the Kerberos principal"},
  {"Keytab", P | H, "keytab", NULL, "file", NULL, "the principal's keytab"},
  {"CCache", P | H, "ccache", NULL, "FILE:/path", NULL, "a ticket cache kept fresh by the operator"},
  {"Krb5Config", P | H, "krb5_config", NULL, "file", NULL, "another krb5.conf than the system's"},
  {NULL, 0, "name", NULL, "name", NULL, "the host's name (the dispatched host)"},
  {NULL, 0, "enabled", NULL, "true|false", "true", "false: kept in the file, not polled"},
};
/* clang-format on */
const size_t wp_option_table_count =
    sizeof(wp_option_table) / sizeof(wp_option_table[0]);

const wp_option *wp_option_find(const char *name) {
  for (size_t i = 0; i < wp_option_table_count; i++)
    if (wp_option_table[i].name != NULL &&
        strcasecmp(wp_option_table[i].name, name) == 0)
      return &wp_option_table[i];
  return NULL;
}

const char *wp_option_names(unsigned where, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < wp_option_table_count; i++) {
    const wp_option *o = &wp_option_table[i];
    if (o->name == NULL || o->alias_of != NULL || (o->where & where) == 0)
      continue;
    int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", o->name);
    if (n < 0 || (size_t)n >= len - used)
      break; /* cut: the list is for a message */
    used += (size_t)n;
  }
  return buf;
}
