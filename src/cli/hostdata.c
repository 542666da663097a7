/* collectd-winperf: a live host for `winperf names` and `winperf doctor`.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Failures: the remote helper's kinds (src/remote/frame.h) auth ->
 * access-denied, connect with "no \pipe\winreg" -> remote-registry-off,
 * server (a Win32 error answering the query) -> provider-failed, the
 * others (unreachable host, timeout, helper) a failed connection. The
 * local registry's RegQueryValueExW error 5 (ERROR_ACCESS_DENIED) ->
 * access-denied, any other error -> provider-failed.
 */
#include "hostdata.h"

#include "cli.h"

#ifdef _WIN32
#include "../source/registry.h"
#endif

#include <string.h>

bool cli_host_open(cli_host *h, const cli_host_opts *o) {
  wp_error err = {0};
  memset(h, 0, sizeof *h);
#ifdef WINPERF_REMOTE
  h->src = wp_remote_source_new(&o->remote, &err);
  h->remote = true;
#elif defined(_WIN32)
  (void)o;
  h->src = wp_registry_open(NULL, &err);
#else
  (void)o;
  wp_error_set(&err, "no live source in this build");
#endif
  if (h->src == NULL) {
    snprintf(h->error, sizeof h->error, "%s", err.message);
    cli_error("%s", h->error);
  }
  return h->src != NULL;
}

void cli_host_close(cli_host *h) {
  if (h->src != NULL)
    h->src->destroy(h->src);
  h->src = NULL;
}

#ifdef WINPERF_REMOTE
static cli_fetch classify(cli_host *h, pd_source_state *state) {
  switch (wp_remote_last_error(h->src)) {
  case WP_REMOTE_ERR_AUTH:
    state->failure = PD_SOURCE_ACCESS_DENIED;
    break;
  case WP_REMOTE_ERR_CONNECT:
    if (strstr(h->error, "has no \\pipe\\winreg") == NULL)
      return CLI_FETCH_FATAL;
    state->failure = PD_SOURCE_REMOTE_REGISTRY_OFF;
    break;
  case WP_REMOTE_ERR_SERVER:
    state->failure = PD_SOURCE_PROVIDER_FAILED;
    break;
  default:
    return CLI_FETCH_FATAL;
  }
  return CLI_FETCH_VERDICT;
}
#else
static cli_fetch classify(cli_host *h, pd_source_state *state) {
  const char *e = strstr(h->error, "error 5");
  bool denied = e != NULL && (e[7] == '\0' || e[7] == ':');
  state->failure = denied ? PD_SOURCE_ACCESS_DENIED : PD_SOURCE_PROVIDER_FAILED;
  return CLI_FETCH_VERDICT;
}
#endif

cli_fetch cli_host_fetch(cli_host *h, const char *query, bool local_names,
                         wp_buffer *out, pd_source_state *state) {
  memset(state, 0, sizeof *state);
  state->remote = h->remote;
  wp_source_status st;
  wp_error err;
  wp_error_clear(&err);
  if (query != NULL)
    st = h->src->collect(h->src, query, out, &err);
#ifdef _WIN32
  else if (local_names)
    st = wp_registry_names_local(h->src, out, &err);
#endif
  else
    st = h->src->names(h->src, out, &err);
  (void)local_names;
  if (st == WP_SOURCE_OK)
    return CLI_FETCHED;
  snprintf(h->error, sizeof h->error, "%s", err.message);
  state->detail = h->error;
  cli_fetch f = classify(h, state);
  if (f == CLI_FETCH_FATAL)
    cli_error("%s", h->error);
  return f;
}
