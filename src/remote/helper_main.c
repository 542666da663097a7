/* collectd-winperf: winperf-remote-helper, the process that speaks SMB.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Reads HKEY_PERFORMANCE_DATA of one Windows host over MS-RRP on the
 * \pipe\winreg named pipe (helper_session.c), or of up to N hosts with
 * --sessions N, each in a session opened by the plugin (helper_sessions.c). It
 * runs as a separate process so libsmbclient (GPLv3+, ~110 libraries) never
 * loads into collectd and a hostile or hung server cannot take the plugin down.
 * It talks to the plugin with the framed protocol of frame.h on stdin/stdout
 * (helper_requests.c); diagnostics go to stderr and never contain
 * credentials. Arguments and credentials: helper_config.h; its start and
 * its sandbox: helper_startup.h, helper_sandbox.h; doc/remote-protocol.md 5.
 */
#include "helper_config.h"
#include "helper_requests.h"
#include "helper_sandbox.h"
#include "helper_session.h"
#include "helper_sessions.h"
#include "helper_startup.h"
#include "helper_test_hook.h"
#include "helper_watchdog.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* Serve the requests, with the sessions of several hosts or the one host
 * of the command line; 0. */
static int serve(helper_cfg *cfg, int out_fd) {
  static conn c;
  if (cfg->sessions > 0) {
    /* Several hosts: the credentials come with each OPEN (a file) or from
     * the environment as it is now. */
    static hsessions table;
    helper_capture_environment(cfg);
    if (helper_sessions_init(&table, cfg) != 0)
      return 2;
    helper_serve_requests(STDIN_FILENO, out_fd, NULL, cfg, &table);
    helper_sessions_close(&table);
    return 0;
  }
  /* One host: the environment as it is now (its password then leaves the
   * environment); the credentials themselves are read at each logon. */
  static helper_cfg env;
  helper_capture_environment(&env);
  cfg->env = &env;
  helper_serve_requests(STDIN_FILENO, out_fd, &c, cfg, NULL);
  session_close(&c, cfg);
  explicit_bzero(env.password, sizeof(env.password));
  return 0;
}

int main(int argc, char **argv) {
  static helper_cfg cfg;
  /* Nothing collectd had open stays open here (helper_sandbox.h, 1). */
  hsandbox_close_inherited();
  switch (helper_parse_args(&cfg, argc, argv)) {
  case 0:
    break;
  case 1:
    return 0; /* --help */
  default:
    return 2;
  }

  /* The protocol owns stdout: move it to a private descriptor and point
   * fd 1 at stderr, so nothing a library prints can corrupt the stream. */
  int out_fd = dup(STDOUT_FILENO);
  if (out_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
    return 2;
  (void)fcntl(out_fd, F_SETFD, FD_CLOEXEC);
  signal(SIGPIPE, SIG_IGN);
  watchdog_init(out_fd);
  helper_test_hook_arm();

  static hprivate priv;
  herr e = {WPR_ERR_OTHER, "", 0};
  int rc;
  if (helper_startup(&cfg, &priv, &e) != 0) {
    helper_refuse(STDIN_FILENO, out_fd, &e);
    rc = 4;
  } else {
    rc = serve(&cfg, out_fd);
  }
  helper_close_files(&cfg);
  hprivate_close(&priv);
  explicit_bzero(cfg.password, sizeof(cfg.password));
  return rc;
}
