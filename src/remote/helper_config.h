/* collectd-winperf: the helper's settings: command line and credentials.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Credentials: the file (smbclient's "-A" format: username = / password = /
 * domain = lines; must not be world-readable), else the environment
 * (WINPERF_REMOTE_USER, WINPERF_REMOTE_PASSWORD, WINPERF_REMOTE_DOMAIN).
 * Never argv (visible in ps) for the password. No anonymous fallback.
 */
#ifndef WP_REMOTE_HELPER_CONFIG_H
#define WP_REMOTE_HELPER_CONFIG_H

#include "helper_error.h"
#include "helper_files.h"

/* The SMB port unless --port or OPEN says otherwise. */
#define HELPER_DEFAULT_PORT 445u

/* The most hosts one helper serves (--sessions). */
#define HELPER_SESSIONS_MAX 1024u

typedef struct helper_cfg {
  const char *host;
  unsigned port;
  char user[256];
  char domain[256];
  char password[512];
  const char *credentials;
  const char *smb_conf;
  unsigned connect_timeout_ms;
  unsigned query_timeout_ms;
  unsigned buffer_size; /* first BaseRegQueryValue buffer */
  int encrypt;
  int user_from_argv, domain_from_argv;
  /* --sessions N: serve up to N hosts, each opened by an OPEN message
   * (helper_sessions.h); 0: the one HOST of the command line. */
  unsigned sessions;
  /* How to log on (auth.h: ntlm, kerberos, negotiate) and Kerberos'
   * credential source (helper_krb5.h); NULL: not given. */
  int auth;
  const char *principal, *keytab, *ccache, *krb5_config;
  /* --private-dir (or --krb5-dir): the private directory the plugin made
   * (helper_private.h); NULL: the helper makes its own. krb5_dir is how
   * the libraries name it once open (Kerberos caches, smb.conf), and
   * lib_smb_conf libsmbclient's configuration there. */
  const char *private_dir;
  const char *krb5_dir;
  const char *lib_smb_conf;
  /* The sandbox (helper_sandbox.h): --run-as USER (HelperUser), and
   * --no-sandbox (HelperSandbox false). */
  const char *run_as;
  int no_sandbox;
  /* The credentials file, keytab, cache and krb5.conf, held open
   * (helper_files.h): opened at the start, or received with OPEN. */
  hfile cred_file, keytab_file, ccache_file, krb5_file;
  /* While libsmbclient logs on with Kerberos: the tickets it uses (the
   * auth callback then gives their principal and no password). */
  const struct hkrb5_conn *krb_logon;
  /* A session's settings: the environment's credentials as the helper
   * found them at its start (the password is unset from the environment
   * then), in place of getenv; NULL: getenv. */
  const struct helper_cfg *env;
} helper_cfg;

/* Fill cfg from argv (defaults for what is not given). 0 to run, 1 after
 * --help (usage printed), 2 on bad arguments (usage printed). */
int helper_parse_args(helper_cfg *cfg, int argc, char **argv);

/* Keep the environment's user, domain and password in env (and unset the
 * password from the environment), for the sessions of a helper that serves
 * several hosts. */
void helper_capture_environment(helper_cfg *env);

/* Open the credentials file, keytab, cache and krb5.conf the command line
 * names, before the sandbox (helper_files.h); close them at the end. */
void helper_open_files(helper_cfg *cfg);
void helper_close_files(helper_cfg *cfg);

/* User, domain and password from the credentials file or the environment;
 * "DOMAIN\user" is split. 0, or -1 with a WPR_ERR_CONFIG error. */
int helper_load_credentials(helper_cfg *cfg, herr *e);

#endif
