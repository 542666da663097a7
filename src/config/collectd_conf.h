/* collectd-winperf: collectd's configuration syntax, read without collectd
 * (for `winperf hosts --check FILE --config collectd.conf`).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The syntax of collectd.conf(5) as liboconfig reads it: "Key value..."
 * lines, <Key value...> ... </Key> blocks, "#" comments, "\" at the end of
 * a line continuing it, values that are quoted strings (with \" and \\),
 * numbers, true/false (also yes/no, on/off) or unquoted words. Include
 * "PATH" (a file, a directory's files in name order, or a glob pattern) is
 * expanded where it stands, as collectd does outside blocks. Enough to
 * find the <Plugin winperf> blocks; collectd itself remains the judge of
 * everything else (`collectd -T`).
 */
#ifndef WP_CONFIG_COLLECTD_CONF_H
#define WP_CONFIG_COLLECTD_CONF_H

#include "host_settings.h"
#include "wp_error.h"

typedef struct wp_conf_item {
  char *key;
  wp_cfg_value *values; /* text values point into strings owned here */
  char **strings;
  int values_num;
  size_t values_cap; /* of values and of strings */
  struct wp_conf_item *children;
  int children_num;
  size_t children_cap;
  char *file; /* where it was read, for messages */
  unsigned line;
} wp_conf_item;

/* Read `path` (and what it includes) into root's children. 0, or -1 with
 * "FILE:LINE: reason" in err. */
int wp_conf_read(const char *path, wp_conf_item *root, wp_error *err);

void wp_conf_free(wp_conf_item *item);

#endif
