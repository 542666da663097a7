/* collectd-winperf: the remote hosts of one <Plugin winperf> block: its
 * <Host> blocks and HostsFile inventories, their shard, a start that does
 * not stampede, and the inventories' live reload.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The configuration (options.c) gives a fleet the block's host defaults
 * (src/config/host_settings.h), its <Host> blocks and HostsFile paths;
 * wp_fleet_configure loads the inventories, refuses a host name given
 * twice, keeps the enabled hosts of this poller's shard and makes each a
 * context (its CountersFile read): any error refuses the configuration.
 *
 * At init the fleet registers one read callback of its own
 * ("winperf-fleet", "winperf-fleet-2", ...) that runs every second (or
 * every interval, when shorter). It registers each host's read callback
 * ("winperf-host-NAME") when the host's turn comes: a host's first read
 * is spread over its first interval by a hash of its name
 * (wp_first_read_offset, shard.h), so a fleet's helpers and logons do not
 * all start in one second; the hosts due at one tick are registered in
 * their offsets' order. It also looks at the inventories (one stat each)
 * and, when one changed, loads them all; if they load, hosts added are
 * registered at once, hosts removed are unregistered (collectd frees a
 * context at its next due time: its helper stops or its shared session
 * closes), a host whose settings changed gets a new context, and unchanged
 * hosts keep theirs; if not, the hosts in use stay. With HostsPerHelper
 * > 1 a new host joins a shared helper of its RemoteHelper with a free
 * session, else a new one.
 *
 * MaxConcurrentConnects caps the requests in flight that start a helper
 * or log on (connects.h): a host over the cap skips its interval.
 */
#ifndef WP_PLUGIN_FLEET_H
#define WP_PLUGIN_FLEET_H

#include "context.h"
#include "host_settings.h"

typedef struct wp_fleet wp_fleet;

#define WP_MAX_CONNECTS_DEFAULT 32u
#define WP_MAX_CLOCK_SKEW_DEFAULT 60.0

/* A fleet of a block whose own options are in top (wp_options, the
 * CountersFile, RemoteHelper and HostsPerHelper); NULL without memory. */
wp_fleet *wp_fleet_new(const wp_ctx *top);

/* The block's host defaults (<Plugin winperf> options), filled by the
 * configuration. */
wp_host_settings *wp_fleet_defaults(wp_fleet *f);

/* Fleet-wide options (0 or -1 with the reason logged). */
int wp_fleet_set_shard(wp_fleet *f, const char *text);
/* MaxClockSkew, AuthRetryInterval (seconds; negative: unchanged) and
 * MaxConcurrentConnects (0: unchanged). */
void wp_fleet_tune(wp_fleet *f, double max_clock_skew, double auth_retry_s,
                   unsigned max_connects);
/* The block's own options, once all are read: the hosts' wp_options and
 * HostsPerHelper. */
void wp_fleet_top(wp_fleet *f, const wp_ctx *top);

/* A <Host "name"> block's settings (taken over; name copied); a
 * HostsFile path. 0, or -1 (logged). */
int wp_fleet_add_host(wp_fleet *f, const char *name, wp_host_settings *s);
int wp_fleet_add_inventory(wp_fleet *f, const char *path);

/* Whether the fleet has hosts or inventories at all. */
bool wp_fleet_empty(const wp_fleet *f);

/* Host names of the fleets before this one in `others` (NULL-terminated
 * list through wp_fleet_next) are not given twice either. Load, check and
 * make the contexts. 0, or -1 with the reason logged. */
int wp_fleet_configure(wp_fleet *f, wp_fleet *others);

/* A list of fleets (configuration order). */
void wp_fleet_append(wp_fleet **list, wp_fleet *f);
wp_fleet *wp_fleet_next(const wp_fleet *f);
void wp_fleet_unlink(wp_fleet **list, wp_fleet *f);

/* Register the fleet's read callback (name `index`: 0 -> "winperf-fleet"),
 * hosts read through `read`. 0, or -1 (logged; the fleet is then freed). */
int wp_fleet_start(wp_fleet *f, int index, plugin_read_cb read);

/* One reference less (also collectd's free_func of the fleet callback). */
void wp_fleet_unref(void *fleet);

/* A host context leaves (its on_free, from wp_ctx_free): its credential's
 * turn and its MaxConcurrentConnects place end (host.h), its shared helper
 * session is free again, and its reference on the fleet goes. */
void wp_fleet_host_gone(wp_ctx *c);

#endif
