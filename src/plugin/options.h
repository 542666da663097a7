/* collectd-winperf: the <Plugin winperf> block and its <Host> blocks, parsed
 * into contexts (context.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The options of the <Plugin winperf> block make one context (the local
 * registry, or a replay) unless the block holds only <Host> blocks; each
 * <Host "name"> block makes a context of its own, taking the enclosing
 * block's options (wp_options, CountersFile, RemoteHelper) as defaults.
 * HostsPerHelper N (> 1) lets the block's <Host> contexts share helper
 * processes N at a time (src/source/remote_shared.h).
 */
#ifndef WP_PLUGIN_OPTIONS_H
#define WP_PLUGIN_OPTIONS_H

#include "context.h"

#define WP_HOSTS_PER_HELPER_MAX 1024

/* Parse one <Plugin winperf> block and append its contexts to *pending, in
 * configuration order (which the read callbacks' names follow). 0, or -1
 * with the reason logged: collectd then refuses to start. */
int wp_options_parse(oconfig_item_t *ci, wp_ctx **pending);

#endif
