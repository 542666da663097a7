/* collectd-winperf: a host inventory (HostsFile), YAML into host settings.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   defaults:                     # optional: every host's, unless it says
 *     user: 'CORP\svc-perf'
 *     password_file: /etc/collectd/winperf.cred
 *   hosts:
 *     - web01.corp.example        # a string: name = address
 *     - name: sql01               # a mapping: name and settings
 *       address: 10.0.0.12
 *       port: 4455
 *     - name: old01
 *       enabled: false            # kept, not polled
 *
 * The keys are exactly those of host_settings.h's table plus `name` (which
 * `defaults:` may not have); anything else, a wrong value, a host listed
 * twice or a name that cannot be a host name rejects the whole file with
 * "FILE:LINE:COLUMN: reason". Host names compare case-insensitively.
 */
#ifndef WP_CONFIG_INVENTORY_H
#define WP_CONFIG_INVENTORY_H

#include "host_settings.h"
#include "wp_error.h"

/* The longest host name: it goes into the read callback's name
 * ("winperf-host-NAME") and collectd's 128-byte host field. */
#define WP_HOST_NAME_MAX 100

typedef struct wp_inventory_host {
  char *name;
  wp_host_settings s; /* the entry's own settings (no defaults yet) */
  unsigned line, column;
} wp_inventory_host;

typedef struct wp_inventory {
  char *path;
  wp_host_settings defaults;
  wp_inventory_host *hosts;
  size_t count, cap;
} wp_inventory;

/* Load `path` into inv (emptied first). 0, or -1 with
 * "PATH:LINE:COLUMN: reason" (or "PATH: reason") in err and inv empty. */
int wp_inventory_load(const char *path, wp_inventory *inv, wp_error *err);

void wp_inventory_free(wp_inventory *inv);

/* Whether name is a usable host name (1..WP_HOST_NAME_MAX printable
 * characters, none of space, /, \ or @); why says what is wrong. */
bool wp_host_name_ok(const char *name, const char **why);

/* Host names from several places, for the duplicate check across
 * inventories and <Host> blocks: each with where it was given
 * ("FILE:LINE:COL" or "<Host> block"). */
typedef struct wp_host_origin {
  const char *name;
  const char *where;
} wp_host_origin;

/* The first name given twice (case-insensitive): -1 and "host "NAME" is
 * given twice: WHERE2 and WHERE1" in err; 0 when all differ. The array is
 * sorted in place. */
int wp_hosts_unique(wp_host_origin *hosts, size_t n, wp_error *err);

#endif
