/* collectd-winperf: the helper's start (helper_startup.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "helper_startup.h"
#include "helper_sandbox.h"

#include <stdio.h>
#include <unistd.h>

/* A sandbox step failed: the error says so, and how to go on without. */
static int refused(herr *e) {
  herr inner = *e;
  herr_set(e, WPR_ERR_CONFIG,
           "the helper cannot apply its sandbox (%s); it stops. "
           "HelperSandbox false (--no-sandbox) runs it without one",
           inner.msg);
  fprintf(stderr, "winperf-remote-helper: %s\n", e->msg);
  return -1;
}

int helper_startup(helper_cfg *cfg, hprivate *priv, herr *e) {
  /* What it reads, while it is still the user it was started as. */
  if (cfg->sessions == 0)
    helper_open_files(cfg);
  if (hprivate_open(priv, cfg->private_dir, e) != 0)
    return -1;
  cfg->krb5_dir = priv->path;
  if (cfg->no_sandbox) {
    fprintf(stderr,
            "winperf-remote-helper: warning: HelperSandbox false: running "
            "without the sandbox, as uid %u with every system call\n",
            (unsigned)geteuid());
  } else {
    hsandbox_user u;
    if (hsandbox_user_find(cfg->run_as, &u, e) != 0)
      return refused(e);
    if (u.change && hprivate_give(priv, u.uid, u.gid, e) != 0)
      return refused(e);
    if (hsandbox_enter(&u, e) != 0)
      return refused(e);
  }
  /* libsmbclient's own directories, as the user it now is. */
  if (hprivate_fill(priv, cfg->smb_conf, e) != 0)
    return -1;
  cfg->lib_smb_conf = priv->smb_conf;
  return 0;
}
