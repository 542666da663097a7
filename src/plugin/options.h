/* collectd-winperf: the <Plugin winperf> block and its <Host> blocks, parsed
 * into contexts (context.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The options of the <Plugin winperf> block make one context (the local
 * registry, or a replay) unless all the block's hosts are remote (<Host>
 * blocks, HostsFile inventories); each remote host gets a context of its
 * own (fleet.h), its settings resolved host > inventory defaults > the
 * block's options > built-in (src/config/host_settings.h). The block's
 * Port, User, Domain, PasswordFile, Timeout... and Interval are defaults
 * for its hosts only, never for its own local or replay source.
 * HostsPerHelper N (> 1) lets the hosts share helper processes N at a time
 * (src/source/remote_shared.h).
 */
#ifndef WP_PLUGIN_OPTIONS_H
#define WP_PLUGIN_OPTIONS_H

#include "context.h"
#include "fleet.h"

#define WP_HOSTS_PER_HELPER_MAX 1024

/* Parse one <Plugin winperf> block: its own context (local or replay) goes
 * to *pending, its remote hosts (<Host> blocks, HostsFile) into a fleet
 * appended to *fleets (fleet.h), in configuration order (which the read
 * callbacks' names follow). 0, or -1 with the reason logged: collectd
 * then refuses to start. */
int wp_options_parse(oconfig_item_t *ci, wp_ctx **pending, wp_fleet **fleets);

#endif
