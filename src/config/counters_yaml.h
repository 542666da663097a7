/* collectd-winperf: the plugin's YAML counter list (CountersFile).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * No collectd header here, so the loader is unit-tested on its own. The file
 * is a YAML list; each entry is a counter path (format.md 4.2) or a mapping:
 *
 *   - \Processor(*)\% Processor Time
 *   - path: \Memory\Available Bytes
 *     type: bytes              # types.db type with one data source
 *     plugin_instance: mem     # naming overrides (doc/collectd-winperf.5)
 *     type_instance: available
 *     scale: 1                 # multiplies the value
 *     raw: false               # dispatch the raw counter instead
 *     pair_by: id              # id | name (PairBy for this entry)
 *     instance_names: pid      # pdh | pid (InstanceNames for this entry)
 *     metric_names: clean      # pdh | clean (MetricNames for this entry)
 *   - path: [\Prozess(*)\Arbeitsseite, \Process(*)\Working Set, \230(*)\180]
 *     include: ^(svchost|w3wp) # POSIX extended regex on the instance name
 *     exclude: '#[0-9]+$'
 *     total: exclude           # _Total/_Global_: include|exclude|only
 *     aggregate: sum           # one value per base name: sum|avg|min|max
 *     max_instances: 20        # the first 20 names in byte order
 *
 * Every error reads "FILE:LINE:COLUMN: what was expected" (1-based).
 */
#ifndef WP_COUNTERS_YAML_H
#define WP_COUNTERS_YAML_H

#include <stdbool.h>
#include <stddef.h>

#include "card_keys.h"
#include "wp_error.h"

/* Most entries a counter list may have (far more than any real list: every
 * entry is a selection path evaluated each interval). */
#define WP_COUNTERS_MAX_ENTRIES 100000

/* A further path of a `path:` list (the first one is the entry's path). */
typedef struct wp_path_alt {
  char *path;
  bool instance_has_wildcard;
  bool counter_has_wildcard;
} wp_path_alt;

typedef struct wp_counter_entry {
  char *path;
  char *type;            /* NULL: the naming rule's default */
  char *plugin_instance; /* NULL: default */
  char *type_instance;   /* NULL: default */
  double scale;          /* 1.0 when absent */
  int raw;               /* -1 absent, 0 false, 1 true */
  /* -1 absent (the block's option), else the value: */
  int pair_by;                /* pd_pair_by: 0 id, 1 name */
  int instance_names;         /* wp_instance_names: 0 pdh, 1 pid */
  int metric_names;           /* wp_metric_names: 0 pdh, 1 clean */
  bool instance_has_wildcard; /* from the parsed path */
  bool counter_has_wildcard;
  unsigned line, column;           /* 1-based: where the entry starts */
  unsigned type_line, type_column; /* where the type's value is; 0 if none */
  /* Alternatives and cardinality (doc/collectd-winperf.5, "Alternatives and
   * cardinality"): */
  wp_path_alt *alts;   /* path: as a list: its 2nd, 3rd, ... paths */
  size_t alt_count;    /* 0: one path */
  wp_card_config card; /* include, exclude, total, aggregate, max_instances */
} wp_counter_entry;

typedef struct wp_counter_list {
  wp_counter_entry *entries;
  size_t count;
} wp_counter_list;

/* Parse `len` bytes of YAML; `filename` only names the input in messages.
 * 0 on success; -1 with "FILE:LINE:COL: ..." in err (and *out empty):
 * code WP_E_NOMEM for "out of memory", WP_E_LIMIT for more than
 * WP_COUNTERS_MAX_ENTRIES entries. */
int wp_counters_parse(const char *filename, const char *text, size_t len,
                      wp_counter_list *out, wp_error *err);
/* Read and parse the file ("FILE: cannot open: <reason>", WP_E_IO). */
int wp_counters_load(const char *filename, wp_counter_list *out, wp_error *err);
void wp_counters_free(wp_counter_list *list);

#endif
