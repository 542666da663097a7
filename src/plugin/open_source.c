/* collectd-winperf: starting a context: its selection and the source it
 * reads from (open_source.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "open_source.h"
#include "counters.h"
#include "replay_blg.h"

#include <string.h>

#include "collectd/core/daemon/configfile.h"

/* A Replay of a .blg (src/source/replay_blg.h): its values at their own
 * times and, without a Host option, under the logged machine's name;
 * the log's warnings logged. 0, or -1 without memory. */
static int wp_ctx_open_blg(wp_ctx *c);

/* Open the context's source (the local registry, its replay directory or
 * its remote host: src/source/open.h decides what the platform has) and
 * settle which timestamp its values carry. 0, or -1 with the reason
 * logged. */
static int wp_ctx_open_source(wp_ctx *c) {
  /* A log is history: replayed once, unless ReplayLoop says otherwise
   * (collectd drops a value older than the last one of its series). */
  if (c->replay_dir != NULL && wp_replay_is_blg(c->replay_dir) &&
      !c->replay_loop_set)
    c->replay_loop = false;
  wp_source_spec spec = {
      .kind = c->kind,
      .replay_dir = c->replay_dir,
      .replay_loop = c->replay_loop,
      .remote =
          {
              .host = c->address,
              .port = c->port,
              .user = c->user,
              .domain = c->domain,
              .credentials_file = c->password_file,
              .helper = c->helper,
              .connect_timeout_ms = c->connect_timeout_ms,
              .query_timeout_ms = c->query_timeout_ms,
              .encrypt = c->encrypt,
              .auth = c->auth,
              .principal = c->principal,
              .keytab = c->keytab,
              .ccache = c->ccache,
              .krb5_config = c->krb5_config,
              /* Kerberos caches: a private directory under BaseDir */
              .krb5_parent = global_option_get("BaseDir"),
              .helper_user = c->helper_user,
              .no_sandbox = c->no_sandbox,
              .shared = c->shared,
          },
  };
  wp_error err = {0};
  c->src = wp_source_open(&spec, &err);
  if (c->src == NULL) {
    if (c->kind == WP_SOURCE_REMOTE)
      ERROR(PLUGIN ": <Host \"%s\">: %s", c->host, err.message);
    else
      ERROR(PLUGIN ": %s", err.message);
    return -1;
  }
  /* A live source's blob carries the time it was taken; a replay's is the
   * capture's, so replayed values are stamped now unless asked. */
  if (c->kind == WP_SOURCE_REPLAY)
    c->sample_time = c->opt.timestamp == WP_TS_SAMPLE;
  else
    c->sample_time = c->opt.timestamp != WP_TS_NOW;
  if (wp_replay_blg_machine(c->src) != NULL)
    return wp_ctx_open_blg(c);
  return 0;
}

int wp_ctx_start(wp_ctx *c) {
  c->snap[0] = pd_snapshot_new();
  c->snap[1] = pd_snapshot_new();
  if (c->snap[0] == NULL || c->snap[1] == NULL) {
    ERROR(PLUGIN ": out of memory");
    return -1;
  }
  if (wp_counters_select(c) != 0) /* pairing, an entry's pair_by too */
    return -1;
  return wp_ctx_open_source(c);
}

static int wp_ctx_open_blg(wp_ctx *c) {
  /* A Perfmon log is history: its values keep their own times unless
   * Timestamp "now" says otherwise, under the logged machine's name unless
   * Host gives one. */
  c->sample_time = c->opt.timestamp != WP_TS_NOW;
  const char *machine = wp_replay_blg_machine(c->src);
  if (c->host == NULL && (c->host = strdup(machine)) == NULL) {
    ERROR(PLUGIN ": out of memory");
    return -1;
  }
  char first[300] = "";
  size_t warnings = wp_replay_blg_warnings(c->src, first, sizeof first);
  if (warnings > 0)
    WARNING(PLUGIN ": %s: %zu warnings reading the log, the first: %s",
            c->replay_dir, warnings, first);
  size_t machines = wp_replay_blg_machines(c->src);
  INFO(PLUGIN ": %s: replaying machine %s as host \"%s\"%s, %d sample(s) a "
              "read",
       c->replay_dir, machine, c->host,
       machines > 1 ? " (the log has other machines: not replayed)" : "",
       c->replay_speed > 1 ? c->replay_speed : 1);
  return 0;
}
