/* collectd-winperf: the helper's command line and credentials
 * (helper_config.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "helper_config.h"
#include "auth.h"
#include "rrp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIRST_QUERY_SIZE (256u * 1024u)

static void copy_str(char *dst, size_t cap, const char *src) {
  snprintf(dst, cap, "%s", src ? src : "");
}

/* "DOMAIN\user" or "user@domain" -> user + domain (domain kept if set). */
static void split_user(helper_cfg *cfg) {
  char *bs = strchr(cfg->user, '\\');
  if (bs != NULL) {
    *bs = '\0';
    copy_str(cfg->domain, sizeof(cfg->domain), cfg->user);
    memmove(cfg->user, bs + 1, strlen(bs + 1) + 1);
    /* a given user keeps its domain at the next read */
    if (cfg->user_from_argv)
      cfg->domain_from_argv = 1;
  }
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' ||
                   s[n - 1] == '\n'))
    s[--n] = '\0';
  return s;
}

/* The "key = value" lines of an open credentials file. */
static int read_credentials(helper_cfg *cfg, FILE *f, herr *e) {
  char line[1024];
  unsigned lineno = 0;
  int rc = 0;
  while (rc == 0 && fgets(line, sizeof(line), f) != NULL) {
    lineno++;
    char *s = trim(line);
    if (*s == '\0' || *s == '#' || *s == ';')
      continue;
    char *eq = strchr(s, '=');
    if (eq == NULL) {
      rc = herr_set(e, WPR_ERR_CONFIG,
                    "credentials file %s line %u: expected key = value",
                    cfg->credentials, lineno);
      break;
    }
    *eq = '\0';
    char *key = trim(s), *val = trim(eq + 1);
    /* --user/--domain on the command line win over the file. */
    if (strcmp(key, "username") == 0 && !cfg->user_from_argv)
      copy_str(cfg->user, sizeof(cfg->user), val);
    else if (strcmp(key, "password") == 0)
      copy_str(cfg->password, sizeof(cfg->password), val);
    else if ((strcmp(key, "domain") == 0 || strcmp(key, "workgroup") == 0) &&
             !cfg->domain_from_argv)
      copy_str(cfg->domain, sizeof(cfg->domain), val);
    /* other keys are ignored, as smbclient does */
  }
  explicit_bzero(line, sizeof(line));
  return rc;
}

/* The credentials file as held (helper_files.h): read from its start at
 * every logon, so a password corrected in it is used at the next one. */
static int load_file(helper_cfg *cfg, herr *e) {
  struct stat st;
  if (hfile_stat(&cfg->cred_file, &st) != 0)
    return herr_set(e, WPR_ERR_CONFIG, "credentials file %s: %s",
                    cfg->credentials, strerror(errno));
  if (st.st_mode & S_IROTH)
    return herr_set(e, WPR_ERR_CONFIG,
                    "credentials file %s is readable by everyone: chmod o-r",
                    cfg->credentials);
  FILE *f = hfile_stream(&cfg->cred_file);
  if (f == NULL)
    return herr_set(e, WPR_ERR_CONFIG, "credentials file %s: %s",
                    cfg->credentials, strerror(errno));
  int rc = read_credentials(cfg, f, e);
  fclose(f);
  return rc;
}

void helper_open_files(helper_cfg *cfg) {
  hfile_open(&cfg->cred_file, cfg->credentials);
  hfile_open(&cfg->keytab_file, cfg->keytab);
  hfile_open(&cfg->ccache_file, cfg->ccache);
  hfile_open(&cfg->krb5_file, cfg->krb5_config);
}

void helper_close_files(helper_cfg *cfg) {
  hfile_close(&cfg->cred_file);
  hfile_close(&cfg->keytab_file);
  hfile_close(&cfg->ccache_file);
  hfile_close(&cfg->krb5_file);
}

static const char *kept(const char *s) {
  return s[0] ? s : NULL;
}

static void load_environment(helper_cfg *cfg) {
  const helper_cfg *env = cfg->env;
  const char *u = env ? kept(env->user) : getenv("WINPERF_REMOTE_USER");
  const char *p = env ? kept(env->password) : getenv("WINPERF_REMOTE_PASSWORD");
  const char *d = env ? kept(env->domain) : getenv("WINPERF_REMOTE_DOMAIN");
  if (u != NULL && cfg->user[0] == '\0')
    copy_str(cfg->user, sizeof(cfg->user), u);
  if (p != NULL)
    copy_str(cfg->password, sizeof(cfg->password), p);
  if (d != NULL && cfg->domain[0] == '\0')
    copy_str(cfg->domain, sizeof(cfg->domain), d);
  /* Keep the secret out of anything this process might start. */
  unsetenv("WINPERF_REMOTE_PASSWORD");
}

void helper_capture_environment(helper_cfg *env) {
  env->env = NULL;
  load_environment(env);
}

int helper_load_credentials(helper_cfg *cfg, herr *e) {
  /* Read anew (a file may have changed since the last logon): what the
   * command line or OPEN gave stays, the rest comes from the source. */
  explicit_bzero(cfg->password, sizeof(cfg->password));
  if (!cfg->user_from_argv)
    cfg->user[0] = '\0';
  if (!cfg->domain_from_argv)
    cfg->domain[0] = '\0';
  /* Kerberos with a keytab or a ticket cache: the key is there. */
  if (cfg->keytab != NULL || cfg->ccache != NULL)
    return 0;
  if (cfg->credentials != NULL) {
    if (load_file(cfg, e) != 0)
      return -1;
  } else {
    load_environment(cfg);
  }
  split_user(cfg);
  if (cfg->user[0] == '\0')
    return herr_set(e, WPR_ERR_CONFIG,
                    "no user name: give a credentials file or set "
                    "WINPERF_REMOTE_USER (anonymous sessions are never used)");
  return 0;
}

static unsigned parse_uint(const char *s, unsigned max, int *ok) {
  char *end;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  if (errno || end == s || *end != '\0' || v > max || s[0] == '-') {
    *ok = 0;
    return 0;
  }
  return (unsigned)v;
}

static void usage(void) {
  fprintf(stderr,
          "usage: winperf-remote-helper [--port N] [--user [DOMAIN\\]NAME] "
          "[--domain NAME]\n"
          "         [--credentials FILE] [--connect-timeout MS] "
          "[--query-timeout MS]\n"
          "         [--buffer-size BYTES] [--encrypt] [--smb-conf FILE]\n"
          "         [--auth ntlm|kerberos|negotiate] [--principal NAME]\n"
          "         [--keytab FILE | --ccache FILE:PATH] [--krb5-config FILE]\n"
          "         [--private-dir DIR] [--run-as USER] [--no-sandbox] HOST\n"
          "       winperf-remote-helper --sessions N [--smb-conf FILE] "
          "[--private-dir DIR]\n"
          "         [--run-as USER] [--no-sandbox]\n"
          "Speaks the winperf framed protocol on stdin/stdout; meant to be "
          "started by\nthe collectd-winperf plugin or the winperf tool.\n");
}

/* An option that takes a value v; 0 when a is not one of them. */
static int value_option(helper_cfg *cfg, const char *a, const char *v,
                        int *ok) {
  if (strcmp(a, "--port") == 0) {
    cfg->port = parse_uint(v, 65535, ok);
  } else if (strcmp(a, "--user") == 0) {
    copy_str(cfg->user, sizeof(cfg->user), v);
    cfg->user_from_argv = 1;
  } else if (strcmp(a, "--domain") == 0) {
    copy_str(cfg->domain, sizeof(cfg->domain), v);
    cfg->domain_from_argv = 1;
  } else if (strcmp(a, "--credentials") == 0) {
    cfg->credentials = v;
  } else if (strcmp(a, "--smb-conf") == 0) {
    cfg->smb_conf = v;
  } else if (strcmp(a, "--connect-timeout") == 0) {
    cfg->connect_timeout_ms = parse_uint(v, 3600000, ok);
  } else if (strcmp(a, "--buffer-size") == 0) {
    cfg->buffer_size = parse_uint(v, RRP_MAX_DATA, ok);
  } else if (strcmp(a, "--query-timeout") == 0) {
    cfg->query_timeout_ms = parse_uint(v, 3600000, ok);
  } else if (strcmp(a, "--auth") == 0) {
    cfg->auth = wpr_auth_parse(v);
    *ok = *ok && cfg->auth != WPR_AUTH_DEFAULT;
  } else if (strcmp(a, "--principal") == 0) {
    cfg->principal = v;
  } else if (strcmp(a, "--keytab") == 0) {
    cfg->keytab = v;
  } else if (strcmp(a, "--ccache") == 0) {
    cfg->ccache = v;
  } else if (strcmp(a, "--krb5-config") == 0) {
    cfg->krb5_config = v;
  } else if (strcmp(a, "--krb5-dir") == 0 || strcmp(a, "--private-dir") == 0) {
    cfg->private_dir = v;
  } else if (strcmp(a, "--run-as") == 0) {
    cfg->run_as = v;
  } else if (strcmp(a, "--sessions") == 0) {
    cfg->sessions = parse_uint(v, HELPER_SESSIONS_MAX, ok);
    *ok = *ok && cfg->sessions > 0;
  } else {
    return 0;
  }
  return 1;
}

int helper_parse_args(helper_cfg *cfg, int argc, char **argv) {
  int ok = 1;
  cfg->port = HELPER_DEFAULT_PORT;
  cfg->connect_timeout_ms = 10000;
  cfg->query_timeout_ms = 30000;
  cfg->buffer_size = FIRST_QUERY_SIZE;
  cfg->auth = WPR_AUTH_DEFAULT;
  cfg->cred_file = cfg->keytab_file = cfg->ccache_file = cfg->krb5_file =
      (hfile)HFILE_NONE;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--help") == 0) {
      usage();
      return 1;
    } else if (strcmp(a, "--encrypt") == 0) {
      cfg->encrypt = 1;
    } else if (strcmp(a, "--no-sandbox") == 0) {
      cfg->no_sandbox = 1;
    } else if (v == NULL && a[0] == '-') {
      ok = 0;
    } else if (value_option(cfg, a, v, &ok)) {
      i++;
    } else if (a[0] == '-' || cfg->host != NULL) {
      ok = 0;
    } else {
      cfg->host = a;
    }
  }
  wpr_auth_settings as = {(wpr_auth)cfg->auth, cfg->principal,   cfg->keytab,
                          cfg->ccache,         cfg->krb5_config, false};
  cfg->auth = wpr_auth_resolve(&as);
  /* Several hosts: each OPEN names its own, none on the command line. */
  if (cfg->sessions > 0 && ok && cfg->host == NULL)
    return 0;
  if (!ok || cfg->sessions > 0 || cfg->host == NULL || cfg->host[0] == '\0' ||
      strpbrk(cfg->host, "/\\@ ") != NULL || cfg->connect_timeout_ms == 0 ||
      cfg->query_timeout_ms == 0 || cfg->buffer_size == 0) {
    usage();
    return 2;
  }
  return 0;
}
