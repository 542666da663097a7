/* collectd-winperf: which CountersFile entries share a value, which
 * entries an earlier one shadows, and which would clash with one.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A value (one counter of one instance) that paths of several entries
 * match is dispatched once when those entries would dispatch it alike,
 * under the first of them (collectd must not get it twice), and by each
 * entry otherwise. Two entries dispatch a value alike when their output
 * settings, as they take effect (src/plugin/dispatch.c, naming.h), are
 * equal:
 *
 *   raw               the entry's, else ValueMode
 *   type              the entry's, else the naming rule's: "gauge" for a
 *                     formatted value (so no type and "gauge" are alike);
 *                     for a raw value "derive" or "gauge" by counter type
 *                     (so no type is only like no type)
 *   scale             the same number
 *   plugin_instance   the same override or none; with one, whether the
 *                     path's instance has a wildcard (the name appended)
 *   type_instance     the same override or none; with one, whether the
 *                     path's counter has a wildcard
 *   metric_names      the entry's, else MetricNames, where the identifier
 *                     holds a name from the counter (not both overrides
 *                     without wildcards)
 *   instance_names    the entry's, else InstanceNames, where the
 *                     identifier holds the instance's name
 *   pair_by           the entry's, else PairBy, where it changes the value
 *                     (a formatted value is computed from the older sample
 *                     it pairs with) or the name (InstanceNames "pid": the
 *                     id is known by pairing); a raw value is the newer
 *                     reading whatever the pairing
 *   aggregate,        an entry with either folds or caps its own values as
 *   max_instances     a whole: it shares with no other entry
 *
 * include, exclude, total and the alternatives of `path` are no output
 * settings: they choose which values an entry matches, not what a value
 * becomes. The host, the plugin name and the timestamp are the block's,
 * alike for every entry.
 *
 * No collectd header here, so both are unit-tested on their own.
 */
#ifndef WP_CONFIG_DEDUP_GROUPS_H
#define WP_CONFIG_DEDUP_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counters_yaml.h"

/* The block's settings an entry's keys override. */
typedef struct wp_output_defaults {
  bool raw;           /* ValueMode "raw" */
  int pair_by;        /* pd_pair_by: PairBy */
  int metric_names;   /* wp_metric_names: MetricNames */
  int instance_names; /* wp_instance_names: InstanceNames */
} wp_output_defaults;

/* The paths of `list`, numbered as the plugin adds them to its selection:
 * entries in order, each entry's path then its alternatives. */
size_t wp_dedup_path_count(const wp_counter_list *list);

/* groups[path] for every path of `list` (wp_dedup_path_count of them):
 * equal for the paths of entries whose output settings are alike, so a
 * value two of them match is dispatched once (pd_selection_set_path_group).
 * Numbered by first appearance: the first path's group is 0. 0; -1 out of
 * memory. */
int wp_dedup_groups(const wp_counter_list *list, const wp_output_defaults *d,
                    uint32_t *groups);

/* An entry that can never dispatch anything: every value each of its paths
 * can match is matched by a path of an earlier entry of its group with no
 * filter (no alternatives, include, exclude or total) and so is dispatched
 * under that entry. */
typedef struct wp_shadowed {
  size_t entry; /* the shadowed entry */
  size_t by;    /* the earlier entry whose path takes its first path's values */
} wp_shadowed;

/* The shadowed entries of `list` with its paths' groups, in entry order,
 * into *out (malloc'ed, *count of them; NULL when none). Told from the
 * paths' text: an object or counter named by index in one path and by name
 * in the other is not compared, and an entry is compared with a bounded
 * number of earlier ones of the same object and counter, so a few
 * shadowed entries of a long list may go untold; never one that is not
 * shadowed. 0; -1 out of memory. */
int wp_dedup_shadowed(const wp_counter_list *list, const uint32_t *groups,
                      wp_shadowed **out, size_t *count);

/* Two entries that cannot both be honoured: `entry` would dispatch every
 * value it matches under the names `by` (an earlier entry without a filter
 * whose path covers each of entry's, as for wp_dedup_shadowed) dispatches
 * it under, but another value: they differ only in `setting` ("scale",
 * "raw" or "pair_by"), which changes the value and not its identifier.
 * collectd would get two values for one series each interval. */
typedef struct wp_clash {
  size_t entry, by;
  const char *setting;
} wp_clash;

/* The clashes of `list` with its paths' groups (wp_dedup_groups under d),
 * in entry order, into *out (malloc'ed, *count of them; NULL when none).
 * Told as wp_dedup_shadowed tells covering, so an overlap it cannot tell
 * from the paths' text (a later entry covering an earlier one, two
 * patterns that overlap, a raw and a formatted value that both take the
 * type "gauge") is found only at dispatch (src/plugin/dispatch.c
 * check_twice). 0; -1 out of memory. */
int wp_dedup_clashes(const wp_counter_list *list, const wp_output_defaults *d,
                     const uint32_t *groups, wp_clash **out, size_t *count);

#endif
