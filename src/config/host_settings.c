/* collectd-winperf: one remote host's settings, one table for the collectd
 * options and the inventory keys (host_settings.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "host_settings.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef enum kind {
  K_STRING,
  K_PORT,
  K_SECONDS, /* interval: (0, 86400] */
  K_TIMEOUT, /* 0.001 .. 3600 s into ms */
  K_BOOL,
  K_ENUM, /* names[0..1] */
  K_AUTH, /* "ntlm", "kerberos", "negotiate" */
} kind;

typedef struct row {
  const char *key;    /* inventory */
  const char *option; /* collectd; NULL: inventory only */
  wp_hs_field field;
  kind kind;
  bool both_timeouts; /* Timeout: connect and query */
  const char *names[2];
} row;

static const row rows[] = {
    {"address", "Address", WP_HS_ADDRESS, K_STRING, false, {0}},
    {"port", "Port", WP_HS_PORT, K_PORT, false, {0}},
    {"user", "User", WP_HS_USER, K_STRING, false, {0}},
    {"domain", "Domain", WP_HS_DOMAIN, K_STRING, false, {0}},
    {"password_file",
     "PasswordFile",
     WP_HS_PASSWORD_FILE,
     K_STRING,
     false,
     {0}},
    {"credentials_file",
     "CredentialsFile",
     WP_HS_PASSWORD_FILE,
     K_STRING,
     false,
     {0}},
    {"counters_file",
     "CountersFile",
     WP_HS_COUNTERS_FILE,
     K_STRING,
     false,
     {0}},
    {"interval", "Interval", WP_HS_INTERVAL, K_SECONDS, false, {0}},
    {"timeout", "Timeout", WP_HS_CONNECT_TIMEOUT, K_TIMEOUT, true, {0}},
    {"connect_timeout",
     "ConnectTimeout",
     WP_HS_CONNECT_TIMEOUT,
     K_TIMEOUT,
     false,
     {0}},
    {"query_timeout",
     "QueryTimeout",
     WP_HS_QUERY_TIMEOUT,
     K_TIMEOUT,
     false,
     {0}},
    {"encrypt", "Encrypt", WP_HS_ENCRYPT, K_BOOL, false, {0}},
    {"timestamp",
     "Timestamp",
     WP_HS_TIMESTAMP,
     K_ENUM,
     false,
     {"now", "sample"}},
    {"pair_by", "PairBy", WP_HS_PAIR_BY, K_ENUM, false, {"id", "name"}},
    {"instance_names",
     "InstanceNames",
     WP_HS_INSTANCE_NAMES,
     K_ENUM,
     false,
     {"pdh", "pid"}},
    {"metric_names",
     "MetricNames",
     WP_HS_METRIC_NAMES,
     K_ENUM,
     false,
     {"pdh", "clean"}},
    {"self_metrics", "SelfMetrics", WP_HS_SELF_METRICS, K_BOOL, false, {0}},
    {"remote_helper",
     "RemoteHelper",
     WP_HS_REMOTE_HELPER,
     K_STRING,
     false,
     {0}},
    {"enabled", NULL, WP_HS_ENABLED, K_BOOL, false, {0}},
    {"auth", "Auth", WP_HS_AUTH, K_AUTH, false, {0}},
    {"principal", "Principal", WP_HS_PRINCIPAL, K_STRING, false, {0}},
    {"keytab", "Keytab", WP_HS_KEYTAB, K_STRING, false, {0}},
    {"ccache", "CCache", WP_HS_CCACHE, K_STRING, false, {0}},
    {"krb5_config", "Krb5Config", WP_HS_KRB5_CONFIG, K_STRING, false, {0}},
};
#define ROWS (sizeof(rows) / sizeof(rows[0]))

int wp_hs_find_option(const char *option) {
  for (size_t i = 0; i < ROWS; i++)
    if (rows[i].option != NULL && strcasecmp(rows[i].option, option) == 0)
      return (int)i;
  return -1;
}

int wp_hs_find_key(const char *key) {
  for (size_t i = 0; i < ROWS; i++)
    if (strcmp(rows[i].key, key) == 0)
      return (int)i;
  return -1;
}

const char *wp_hs_option_name(int r) {
  return rows[r].option ? rows[r].option : rows[r].key;
}

const char *wp_hs_key_name(int r) {
  return rows[r].key;
}

int wp_hs_row_count(void) {
  return (int)ROWS;
}

const char *wp_hs_keys_expected(void) {
  return "name, address, port, user, domain, password_file (or "
         "credentials_file), counters_file, interval, timeout, "
         "connect_timeout, query_timeout, encrypt, timestamp, pair_by, "
         "instance_names, metric_names, self_metrics, remote_helper, "
         "enabled, auth, principal, keytab, ccache or krb5_config";
}

const char *wp_hs_field_key(wp_hs_field f) {
  for (size_t i = 0; i < ROWS; i++)
    if (rows[i].field == f && !rows[i].both_timeouts)
      return rows[i].key;
  return "?";
}

static int why_set(char *why, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int why_set(char *why, size_t len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, len, fmt, ap);
  va_end(ap);
  return -1;
}

/* A number from a number, or from unquoted text that is one whole. */
static bool number_of(const wp_cfg_value *v, double *out) {
  if (v->kind == WP_CFG_NUMBER) {
    *out = v->number;
    return true;
  }
  if (v->kind != WP_CFG_TEXT || v->text == NULL || v->text[0] == '\0')
    return false;
  char *end;
  errno = 0;
  double d = strtod(v->text, &end);
  if (errno != 0 || *end != '\0' || !isfinite(d))
    return false;
  *out = d;
  return true;
}

static bool bool_of(const wp_cfg_value *v, bool *out) {
  static const char *const yes[] = {"true", "yes", "on"};
  static const char *const no[] = {"false", "no", "off"};
  if (v->kind == WP_CFG_BOOL) {
    *out = v->boolean;
    return true;
  }
  if (v->kind != WP_CFG_TEXT || v->quoted || v->text == NULL)
    return false;
  for (int i = 0; i < 3; i++) {
    if (strcasecmp(v->text, yes[i]) == 0 || strcasecmp(v->text, no[i]) == 0) {
      *out = strcasecmp(v->text, yes[i]) == 0;
      return true;
    }
  }
  return false;
}

static char **string_slot(wp_host_settings *s, wp_hs_field f) {
  switch (f) {
  case WP_HS_ADDRESS:
    return &s->address;
  case WP_HS_USER:
    return &s->user;
  case WP_HS_DOMAIN:
    return &s->domain;
  case WP_HS_PASSWORD_FILE:
    return &s->password_file;
  case WP_HS_COUNTERS_FILE:
    return &s->counters_file;
  case WP_HS_REMOTE_HELPER:
    return &s->remote_helper;
  case WP_HS_PRINCIPAL:
    return &s->principal;
  case WP_HS_KEYTAB:
    return &s->keytab;
  case WP_HS_CCACHE:
    return &s->ccache;
  case WP_HS_KRB5_CONFIG:
    return &s->krb5_config;
  default:
    return NULL;
  }
}

static int set_string(wp_host_settings *s, const row *r, const char *n,
                      const wp_cfg_value *v, char *why, size_t len) {
  if (v->kind != WP_CFG_TEXT || v->text == NULL || v->text[0] == '\0')
    return why_set(why, len, "%s: expected a non-empty string", n);
  char *d = strdup(v->text);
  if (d == NULL)
    return why_set(why, len, "out of memory");
  char **slot = string_slot(s, r->field);
  free(*slot);
  *slot = d;
  return 0;
}

static int set_number(wp_host_settings *s, const row *r, const char *n,
                      const wp_cfg_value *v, char *why, size_t len) {
  double d = 0;
  if (!number_of(v, &d))
    return why_set(why, len, "%s: expected a number", n);
  switch (r->kind) {
  case K_PORT:
    if (!(d >= 1 && d <= 65535) || d != floor(d))
      return why_set(why, len, "%s %g: expected a port from 1 to 65535", n, d);
    s->port = (unsigned)d;
    return 0;
  case K_SECONDS:
    if (!(d > 0 && d <= 86400))
      return why_set(why, len, "%s %g: expected seconds above 0, at most 86400",
                     n, d);
    s->interval = d;
    return 0;
  default: /* K_TIMEOUT */
    if (!(d >= 0.001 && d <= 3600))
      return why_set(why, len, "%s %g: expected seconds between 0.001 and 3600",
                     n, d);
    unsigned ms = (unsigned)(d * 1000 + 0.5);
    if (r->both_timeouts || r->field == WP_HS_CONNECT_TIMEOUT)
      s->connect_timeout_ms = ms;
    if (r->both_timeouts || r->field == WP_HS_QUERY_TIMEOUT)
      s->query_timeout_ms = ms;
    if (r->both_timeouts)
      s->set |= WP_HS_BIT(WP_HS_QUERY_TIMEOUT);
    return 0;
  }
}

static int set_choice(wp_host_settings *s, const row *r, const char *n,
                      const wp_cfg_value *v, char *why, size_t len) {
  const char *t = v->kind == WP_CFG_TEXT ? v->text : NULL;
  if (r->kind == K_AUTH) {
    static const char *const auths[] = {"ntlm", "kerberos", "negotiate"};
    for (int i = 0; t != NULL && i < 3; i++) {
      if (strcasecmp(t, auths[i]) == 0) {
        s->auth = i; /* WP_AUTH_* */
        return 0;
      }
    }
    return why_set(why, len,
                   "%s%s%s: expected \"ntlm\", \"kerberos\" or "
                   "\"negotiate\"",
                   n, t ? " " : "", t ? t : "");
  }
  for (int i = 0; t != NULL && i < 2; i++) {
    if (strcasecmp(t, r->names[i]) == 0) {
      int *slot = r->field == WP_HS_TIMESTAMP        ? &s->timestamp
                  : r->field == WP_HS_PAIR_BY        ? &s->pair_by
                  : r->field == WP_HS_INSTANCE_NAMES ? &s->instance_names
                                                     : &s->metric_names;
      /* Timestamp: 1 now, 2 sample (0 is "not given") */
      *slot = r->field == WP_HS_TIMESTAMP ? i + 1 : i;
      return 0;
    }
  }
  return why_set(why, len, "%s%s%s%s: expected \"%s\" or \"%s\"", n,
                 t ? " \"" : "", t ? t : "", t ? "\"" : "", r->names[0],
                 r->names[1]);
}

int wp_hs_set(wp_host_settings *s, int ri, const wp_cfg_value *v, char *why,
              size_t len) {
  return wp_hs_set_named(s, ri, NULL, v, why, len);
}

int wp_hs_set_named(wp_host_settings *s, int ri, const char *name,
                    const wp_cfg_value *v, char *why, size_t len) {
  if (ri < 0 || (size_t)ri >= ROWS)
    return why_set(why, len, "unknown setting");
  const row *r = &rows[ri];
  const char *n = name ? name : r->key;
  int status = 0;
  bool b = false;
  switch (r->kind) {
  case K_STRING:
    status = set_string(s, r, n, v, why, len);
    break;
  case K_PORT:
  case K_SECONDS:
  case K_TIMEOUT:
    status = set_number(s, r, n, v, why, len);
    break;
  case K_BOOL:
    if (!bool_of(v, &b))
      return why_set(why, len, "%s: expected true or false", n);
    if (r->field == WP_HS_ENCRYPT)
      s->encrypt = b;
    else if (r->field == WP_HS_SELF_METRICS)
      s->self_metrics = b;
    else
      s->enabled = b;
    break;
  case K_ENUM:
  case K_AUTH:
    status = set_choice(s, r, n, v, why, len);
    break;
  }
  if (status == 0)
    s->set |= WP_HS_BIT(r->field);
  return status;
}

static int copy_field(wp_host_settings *dst, const wp_host_settings *src,
                      wp_hs_field f) {
  char **ds = string_slot(dst, f);
  if (ds != NULL) {
    char *const *ss = string_slot((wp_host_settings *)src, f);
    free(*ds);
    *ds = *ss ? strdup(*ss) : NULL;
    if (*ss != NULL && *ds == NULL)
      return -1;
  }
  switch (f) {
  case WP_HS_PORT:
    dst->port = src->port;
    break;
  case WP_HS_INTERVAL:
    dst->interval = src->interval;
    break;
  case WP_HS_CONNECT_TIMEOUT:
    dst->connect_timeout_ms = src->connect_timeout_ms;
    break;
  case WP_HS_QUERY_TIMEOUT:
    dst->query_timeout_ms = src->query_timeout_ms;
    break;
  case WP_HS_ENCRYPT:
    dst->encrypt = src->encrypt;
    break;
  case WP_HS_SELF_METRICS:
    dst->self_metrics = src->self_metrics;
    break;
  case WP_HS_ENABLED:
    dst->enabled = src->enabled;
    break;
  case WP_HS_TIMESTAMP:
    dst->timestamp = src->timestamp;
    break;
  case WP_HS_PAIR_BY:
    dst->pair_by = src->pair_by;
    break;
  case WP_HS_INSTANCE_NAMES:
    dst->instance_names = src->instance_names;
    break;
  case WP_HS_METRIC_NAMES:
    dst->metric_names = src->metric_names;
    break;
  case WP_HS_AUTH:
    dst->auth = src->auth;
    break;
  default:
    break;
  }
  dst->set |= WP_HS_BIT(f);
  return 0;
}

int wp_hs_inherit(wp_host_settings *s, const wp_host_settings *defaults) {
  for (int f = 0; f < WP_HS_FIELDS; f++)
    if ((defaults->set & WP_HS_BIT(f)) && !(s->set & WP_HS_BIT(f)) &&
        copy_field(s, defaults, (wp_hs_field)f) != 0)
      return -1;
  return 0;
}

int wp_hs_copy(wp_host_settings *dst, const wp_host_settings *src) {
  memset(dst, 0, sizeof(*dst));
  if (wp_hs_inherit(dst, src) != 0) {
    wp_hs_free(dst);
    return -1;
  }
  return 0;
}

static bool same_text(const char *a, const char *b) {
  return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

bool wp_hs_equal(const wp_host_settings *a, const wp_host_settings *b) {
  return a->set == b->set && same_text(a->address, b->address) &&
         same_text(a->user, b->user) && same_text(a->domain, b->domain) &&
         same_text(a->password_file, b->password_file) &&
         same_text(a->counters_file, b->counters_file) &&
         same_text(a->remote_helper, b->remote_helper) && a->port == b->port &&
         a->interval == b->interval &&
         a->connect_timeout_ms == b->connect_timeout_ms &&
         a->query_timeout_ms == b->query_timeout_ms &&
         a->encrypt == b->encrypt && a->self_metrics == b->self_metrics &&
         a->enabled == b->enabled && a->timestamp == b->timestamp &&
         a->pair_by == b->pair_by && a->instance_names == b->instance_names &&
         a->metric_names == b->metric_names && a->auth == b->auth &&
         same_text(a->principal, b->principal) &&
         same_text(a->keytab, b->keytab) && same_text(a->ccache, b->ccache) &&
         same_text(a->krb5_config, b->krb5_config);
}

void wp_hs_free(wp_host_settings *s) {
  free(s->address);
  free(s->user);
  free(s->domain);
  free(s->password_file);
  free(s->counters_file);
  free(s->remote_helper);
  free(s->principal);
  free(s->keytab);
  free(s->ccache);
  free(s->krb5_config);
  memset(s, 0, sizeof(*s));
}

unsigned wp_hs_port(const wp_host_settings *s) {
  return (s->set & WP_HS_BIT(WP_HS_PORT)) ? s->port : WP_HS_DEFAULT_PORT;
}

unsigned wp_hs_connect_ms(const wp_host_settings *s) {
  return (s->set & WP_HS_BIT(WP_HS_CONNECT_TIMEOUT)) ? s->connect_timeout_ms
                                                     : WP_HS_DEFAULT_CONNECT_MS;
}

unsigned wp_hs_query_ms(const wp_host_settings *s) {
  return (s->set & WP_HS_BIT(WP_HS_QUERY_TIMEOUT)) ? s->query_timeout_ms
                                                   : WP_HS_DEFAULT_QUERY_MS;
}

const char *wp_hs_value_text(const wp_host_settings *s, wp_hs_field f,
                             char *buf, size_t len) {
  buf[0] = '\0';
  if (!(s->set & WP_HS_BIT(f)))
    return buf;
  char **str = string_slot((wp_host_settings *)s, f);
  static const char *const names[][2] = {
      {"id", "name"}, {"pdh", "pid"}, {"pdh", "clean"}};
  if (str != NULL)
    snprintf(buf, len, "%s", *str);
  else if (f == WP_HS_PORT)
    snprintf(buf, len, "%u", s->port);
  else if (f == WP_HS_INTERVAL)
    snprintf(buf, len, "%g", s->interval);
  else if (f == WP_HS_CONNECT_TIMEOUT || f == WP_HS_QUERY_TIMEOUT)
    snprintf(buf, len, "%g",
             (f == WP_HS_CONNECT_TIMEOUT ? s->connect_timeout_ms
                                         : s->query_timeout_ms) /
                 1000.0);
  else if (f == WP_HS_ENCRYPT || f == WP_HS_SELF_METRICS || f == WP_HS_ENABLED)
    snprintf(buf, len, "%s",
             (f == WP_HS_ENCRYPT        ? s->encrypt
              : f == WP_HS_SELF_METRICS ? s->self_metrics
                                        : s->enabled)
                 ? "true"
                 : "false");
  else if (f == WP_HS_TIMESTAMP)
    snprintf(buf, len, "%s", s->timestamp == 1 ? "now" : "sample");
  else if (f == WP_HS_PAIR_BY)
    snprintf(buf, len, "%s", names[0][s->pair_by != 0]);
  else if (f == WP_HS_INSTANCE_NAMES)
    snprintf(buf, len, "%s", names[1][s->instance_names != 0]);
  else if (f == WP_HS_METRIC_NAMES)
    snprintf(buf, len, "%s", names[2][s->metric_names != 0]);
  else if (f == WP_HS_AUTH)
    snprintf(buf, len, "%s",
             s->auth == WP_AUTH_KERBEROS    ? "kerberos"
             : s->auth == WP_AUTH_NEGOTIATE ? "negotiate"
                                            : "ntlm");
  return buf;
}

wpr_auth_settings wp_hs_auth(const wp_host_settings *s) {
  const char *pw = getenv("WINPERF_REMOTE_PASSWORD");
  wpr_auth_settings a = {
      (s->set & WP_HS_BIT(WP_HS_AUTH)) ? (wpr_auth)s->auth : WPR_AUTH_DEFAULT,
      s->principal,
      s->keytab,
      s->ccache,
      s->krb5_config,
      s->password_file != NULL || (pw != NULL && pw[0] != '\0')};
  return a;
}
