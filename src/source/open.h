/* collectd-winperf: the choice of a source, in one place.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A caller says which kind of source it wants and with which settings;
 * which kinds this build has (the local registry on Windows, remote hosts
 * elsewhere: the helper needs fork and libsmbclient) is decided here, so
 * no caller needs a platform test.
 */
#ifndef WP_SOURCE_OPEN_H
#define WP_SOURCE_OPEN_H

#include <stdbool.h>
#include <stddef.h>

#include "remote.h"
#include "source.h"

typedef enum wp_source_kind {
  WP_SOURCE_LOCAL,  /* this machine's registry (registry.h) */
  WP_SOURCE_REPLAY, /* a capture directory (replay.h) */
  WP_SOURCE_REMOTE, /* a Windows host over MS-RRP (remote.h) */
} wp_source_kind;

typedef struct wp_source_spec {
  wp_source_kind kind;
  const char *replay_dir; /* WP_SOURCE_REPLAY */
  bool replay_loop;
  wp_remote_options remote; /* WP_SOURCE_REMOTE */
} wp_source_spec;

/* Whether this build can open sources of that kind. */
bool wp_source_available(wp_source_kind kind);

/* A helper process shared by up to `hosts` (2..1024) remote sources, each
 * given it in wp_remote_options.shared (remote_shared.h); helper NULL: the
 * installed one. NULL with err on a build without remote sources. The
 * caller holds one reference: _ref takes another, _release drops one. */
wp_remote_helper *wp_source_shared_helper(const char *helper, unsigned hosts,
                                          wp_error *err);
void wp_source_shared_helper_ref(wp_remote_helper *h);
void wp_source_shared_helper_release(wp_remote_helper *h);

/* Open the source the spec names. NULL with the reason in err, also for
 * a kind this build does not have. */
wp_source *wp_source_open(const wp_source_spec *spec, wp_error *err);

#endif
