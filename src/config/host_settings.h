/* collectd-winperf: one remote host's settings, from wherever they come.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A remote host's settings can be given in four places; the first that
 * gives one wins (doc/collectd-winperf.5, HOST INVENTORY):
 *   1. the host itself (a <Host> block, or its entry in a HostsFile),
 *   2. the inventory's `defaults:` (inventory hosts only),
 *   3. the <Plugin winperf> block's options,
 *   4. the built-in default (applied by the user of the settings).
 * One table names each setting twice, as a collectd option ("Port") and as
 * an inventory key ("port"), and parses it once, so the plugin, the
 * inventory loader and `winperf hosts --check` accept the same values with
 * the same messages. No collectd and no libyaml header here.
 *
 * Authentication: Auth "ntlm", "kerberos" or "negotiate" with Principal,
 * Keytab, CCache and Krb5Config (src/remote/auth.h has the rules; a host's
 * resolved settings are checked against them by the plugin: a host by IP
 * address with Kerberos, or two credential sources, refuse the
 * configuration or the inventory).
 */
#ifndef WP_CONFIG_HOST_SETTINGS_H
#define WP_CONFIG_HOST_SETTINGS_H

#include "auth.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every setting a host can have; bit (1u << field) in wp_host_settings.set
 * says it was given. */
typedef enum wp_hs_field {
  WP_HS_ADDRESS,
  WP_HS_PORT,
  WP_HS_USER,
  WP_HS_DOMAIN,
  WP_HS_PASSWORD_FILE,
  WP_HS_COUNTERS_FILE,
  WP_HS_INTERVAL,
  WP_HS_CONNECT_TIMEOUT,
  WP_HS_QUERY_TIMEOUT,
  WP_HS_ENCRYPT,
  WP_HS_TIMESTAMP,
  WP_HS_PAIR_BY,
  WP_HS_INSTANCE_NAMES,
  WP_HS_METRIC_NAMES,
  WP_HS_SELF_METRICS,
  WP_HS_REMOTE_HELPER,
  WP_HS_ENABLED,
  WP_HS_AUTH,
  WP_HS_PRINCIPAL,
  WP_HS_KEYTAB,
  WP_HS_CCACHE,
  WP_HS_KRB5_CONFIG,
  WP_HS_FIELDS
} wp_hs_field;

#define WP_HS_BIT(f) (1u << (f))

/* The built-in defaults (4. above). */
#define WP_HS_DEFAULT_PORT 445u
#define WP_HS_DEFAULT_CONNECT_MS 10000u
#define WP_HS_DEFAULT_QUERY_MS 30000u

/* Auth: as src/remote/auth.h's wpr_auth; not given: ntlm, or kerberos
 * with a Keytab or CCache (wpr_auth_resolve). */
enum { WP_AUTH_NTLM = 0, WP_AUTH_KERBEROS = 1, WP_AUTH_NEGOTIATE = 2 };
/* Timestamp: 0 the source's default, 1 "now", 2 "sample" (context.h's
 * WP_TS_*); PairBy 0 "id", 1 "name"; InstanceNames 0 "pdh", 1 "pid";
 * MetricNames 0 "pdh", 1 "clean". */

typedef struct wp_host_settings {
  uint32_t set; /* WP_HS_BIT of each field given */
  char *address, *user, *domain, *password_file, *counters_file;
  char *remote_helper;
  char *principal, *keytab, *ccache, *krb5_config;
  unsigned port;
  double interval; /* seconds */
  unsigned connect_timeout_ms, query_timeout_ms;
  bool encrypt, self_metrics, enabled;
  int timestamp, pair_by, instance_names, metric_names, auth;
} wp_host_settings;

/* A value as the configuration gave it: collectd's typed values, or a YAML
 * scalar (text; `quoted` when it was quoted, so never a number or a
 * boolean). */
typedef enum wp_cfg_kind {
  WP_CFG_TEXT,
  WP_CFG_NUMBER,
  WP_CFG_BOOL
} wp_cfg_kind;
typedef struct wp_cfg_value {
  wp_cfg_kind kind;
  const char *text; /* WP_CFG_TEXT; also a YAML scalar's text */
  double number;    /* WP_CFG_NUMBER */
  bool boolean;     /* WP_CFG_BOOL */
  bool quoted;      /* a quoted YAML scalar */
} wp_cfg_value;

/* The table's row of a collectd option (case-insensitive) or an inventory
 * key (exact); -1 when there is none. "Timeout"/"timeout" sets both
 * timeouts; "CredentialsFile"/"credentials_file" is PasswordFile's alias;
 * "Address", "Enabled" and "Principal"... exist as both. */
int wp_hs_find_option(const char *option);
int wp_hs_find_key(const char *key);

/* The row's names, for messages and listings; rows 0 .. count - 1. */
const char *wp_hs_option_name(int row);
const char *wp_hs_key_name(int row);
int wp_hs_row_count(void);
/* Every inventory key, comma-separated ("name, address, port, ..."). */
const char *wp_hs_keys_expected(void);

/* Set row `row` from v. 0, or -1 with the reason in why (no location:
 * the caller adds "FILE:LINE:COL: " or the option's block), naming the
 * setting by its inventory key; _named by `name` (a collectd option as
 * the configuration spells it). */
int wp_hs_set(wp_host_settings *s, int row, const wp_cfg_value *v, char *why,
              size_t len);
int wp_hs_set_named(wp_host_settings *s, int row, const char *name,
                    const wp_cfg_value *v, char *why, size_t len);

/* Fill what s lacks from defaults (1. over 2. over 3.). -1 without
 * memory. */
int wp_hs_inherit(wp_host_settings *s, const wp_host_settings *defaults);

/* A deep copy; -1 without memory (dst then empty). */
int wp_hs_copy(wp_host_settings *dst, const wp_host_settings *src);

/* Whether two hosts' settings are the same (every field, given or not). */
bool wp_hs_equal(const wp_host_settings *a, const wp_host_settings *b);

void wp_hs_free(wp_host_settings *s);

/* The host's authentication settings for src/remote/auth.h's rules (its
 * strings point into s; `password`: a PasswordFile, or the environment's
 * WINPERF_REMOTE_PASSWORD). */
wpr_auth_settings wp_hs_auth(const wp_host_settings *s);

/* The port (445 unless given), the timeouts (10 s, 30 s unless given). */
unsigned wp_hs_port(const wp_host_settings *s);
unsigned wp_hs_connect_ms(const wp_host_settings *s);
unsigned wp_hs_query_ms(const wp_host_settings *s);

/* Text of a setting's value for a listing (`winperf hosts --check`):
 * "445", "10.0.0.12", "yes"... into buf; "" when not given. */
const char *wp_hs_value_text(const wp_host_settings *s, wp_hs_field f,
                             char *buf, size_t len);
/* The field's inventory key ("port"), for a listing. */
const char *wp_hs_field_key(wp_hs_field f);

#endif
