/* collectd-winperf: the choice of a source (open.h). The only place outside
 * the sources themselves that knows which ones a platform has.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "open.h"
#include "replay.h"
#ifdef _WIN32
#include "registry.h"
#endif

bool wp_source_available(wp_source_kind kind) {
  switch (kind) {
  case WP_SOURCE_REPLAY:
    return true;
#ifdef _WIN32
  case WP_SOURCE_LOCAL:
    return true;
  case WP_SOURCE_REMOTE:
    return false;
#else
  case WP_SOURCE_LOCAL:
    return false;
  case WP_SOURCE_REMOTE:
    return true;
#endif
  }
  return false;
}

wp_source *wp_source_open(const wp_source_spec *spec, wp_error *err) {
  switch (spec->kind) {
  case WP_SOURCE_REPLAY:
    return wp_replay_open(spec->replay_dir, spec->replay_loop, err);
  case WP_SOURCE_LOCAL:
#ifdef _WIN32
    return wp_registry_open(NULL, err);
#else
    wp_error_set(err, "no source: the Replay option is required");
    return NULL;
#endif
  case WP_SOURCE_REMOTE:
#ifdef _WIN32
    wp_error_set(err, "no source: remote hosts need the remote "
                      "helper, which is not built on Windows");
    return NULL;
#else
    return wp_remote_source_new(&spec->remote, err);
#endif
  }
  wp_error_set(err, "no source: unknown kind %d", (int)spec->kind);
  return NULL;
}

wp_remote_helper *wp_source_shared_helper(const char *helper, unsigned hosts,
                                          wp_error *err) {
#ifdef _WIN32
  (void)helper;
  (void)hosts;
  wp_error_set(err, "no shared helper: remote hosts need the remote helper, "
                    "which is not built on Windows");
  return NULL;
#else
  return wp_remote_helper_new(helper, hosts, err);
#endif
}

void wp_source_shared_helper_ref(wp_remote_helper *h) {
#ifndef _WIN32
  wp_remote_helper_ref(h);
#else
  (void)h;
#endif
}

void wp_source_shared_helper_release(wp_remote_helper *h) {
#ifndef _WIN32
  wp_remote_helper_unref(h);
#else
  (void)h;
#endif
}
