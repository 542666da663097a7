/* collectd-winperf: a host's authentication for `winperf hosts --check`
 * (hosts_auth.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "hosts_auth.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The helper refuses a keytab or cache its group or others can read. */
static void mode_warning(const char *what, const char *name) {
  const char *colon = strchr(name, ':');
  const char *path = colon != NULL && colon[1] == '/' ? colon + 1 : name;
  struct stat st;
  if (stat(path, &st) != 0)
    printf("  warning: %s %s cannot be read\n", what, path);
  else if (st.st_mode & (S_IRGRP | S_IROTH))
    printf("  warning: %s %s is readable by group or others: the helper "
           "refuses it\n",
           what, path);
}

int cli_hosts_check_auth(const char *name, const char *where,
                         const wp_host_settings *s) {
  wpr_auth_settings a = wp_hs_auth(s);
  char why[600];
  if (!wpr_auth_check(&a, s->address ? s->address : name, why, sizeof(why))) {
    cli_error("%s: host \"%s\": %s", where, name, why);
    return 1;
  }
  if (s->keytab != NULL)
    mode_warning("keytab", s->keytab);
  if (s->ccache != NULL)
    mode_warning("ccache", s->ccache);
  return 0;
}
