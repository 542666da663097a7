/* collectd-winperf: the selection's private layout, shared by select.c
 * (configuration, names, the plan) and evaluate.c (one pass over two
 * samples).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef PD_SELECTION_H
#define PD_SELECTION_H

#include "identity.h"
#include "snapshot.h"
#include "type_props.h"

/* A counter one path matches in one object, resolved once per evaluation
 * (name, older position, type properties), not per value. */
typedef struct matched_counter {
  uint32_t pos;     /* in the newer object */
  uint32_t old_pos; /* in the older object, UINT32_MAX: none */
  const char *name; /* display name */
  size_t name_len;
  pd_type_props props;
  bool shared;       /* another path of its group matches it in this object:
                      * deduplicate */
  bool skip;         /* an earlier path of its group reported it for every
                      * instance */
  pd_rate_plan rate; /* its formula for this pair of samples */
  /* Set per pass (evaluate.c): its definitions in both samples (old_def
   * NULL: none), and what every result of it repeats. */
  const pd_counter_def *def, *old_def;
  pd_result tmpl;
  bool same_tmpl; /* tmpl as in the last evaluation, but for its time */
} matched_counter;

/* One (path, object) pair of an evaluation: its counters are
 * counters[first, first + n). */
typedef struct path_object {
  size_t path_id;
  uint32_t obj_pos; /* in the newer sample */
  size_t first;
  uint32_t n;
  /* What this plan entry wrote in evaluation done_epoch (0: nothing
   * known), when every result of it was its counter's template and the
   * values (evaluate.c): done_values results from done_at, its counters then
   * counters[done_first, done_first + n). Kept across evaluations. */
  uint64_t done_epoch;
  size_t done_at, done_values, done_first;
} path_object;

typedef struct compiled_path {
  char *text;
  pd_path path;
  char *instance_pattern; /* "parent/name#n" as written, NULL without () */
  uint32_t *objects;      /* object indices the object name resolves to */
  size_t object_count;
  uint32_t numeric_object; /* when path.object_is_index */
  uint32_t numeric_counter;
  bool all_instances;        /* "(*)": every instance, no matching needed */
  int pair_by;               /* pd_pair_by, or -1: the selection's */
  uint32_t group;            /* deduplicates with its group's paths only */
  size_t matches;            /* counters matched in the last evaluation */
  pd_instance_filter filter; /* NULL: every matched instance */
  void *filter_ctx;
} compiled_path;

/* A counter of one instance of the newer sample, as one group of paths
 * reports it: what one result reports. Compared field by field, so no two
 * differ only where a packed key would have cut them (any count the
 * decode limits allow fits). */
typedef struct pd_value_key {
  uint32_t group;    /* of the paths that deduplicate it */
  uint32_t obj_pos;  /* the object's position in the newer sample */
  uint32_t instance; /* the instance's position in its object */
  uint32_t counter;  /* the counter's position in its object */
} pd_value_key;

/* The values of counters two paths of a group share that one evaluation
 * reported (the first path reports a value, a later one skips it). */
typedef struct pd_reported {
  pd_value_key *key;
  size_t count, cap;
  wp_table index; /* key + 1, by wp_hash_bytes of the key */
} pd_reported;

/* A plan entry and its path's group, to visit the plan group by group. */
typedef struct pd_plan_rank {
  uint32_t group;
  size_t entry; /* into the plan */
} pd_plan_rank;

/* Debug builds: a value one path matched in an evaluation and whether that
 * path reported it (dedup_check.c checks the set). */
typedef struct pd_matched_value {
  pd_value_key key;
  size_t path_id;
  bool reported;
} pd_matched_value;

typedef struct pd_matched_log {
  pd_matched_value *v;
  size_t count, cap;
  bool lost; /* out of memory this evaluation: nothing checked */
} pd_matched_log;

struct pd_selection {
  compiled_path *paths;
  size_t path_count, path_cap;
  const pd_names *names;
  bool resolved; /* paths' object lists match `names` */
  pd_calc_options options;
  bool want_id_base;    /* pd_selection_set_id_base */
  bool want_paths;      /* pd_selection_set_paths */
  size_t grouped_paths; /* paths whose group is not 0 */

  char *query;
  size_t query_cap;
  size_t unresolved;

  pd_result *results;
  size_t result_count, result_cap;
  pd_text_arena text; /* canonical paths and names, reset per evaluation */

  /* The evaluation's plan: every (path, object) and the counters each
   * matches, and per counter definition of the newer sample how many
   * paths of the group being shared match it (0, 1, 2 meaning two or
   * more); by_group: the plan's entries by group (when grouped). */
  path_object *plan;
  size_t plan_count, plan_cap, plan_init; /* plan_init: entries ever set */
  matched_counter *counters;
  size_t counter_count, counters_cap, counters_init;
  uint64_t epoch; /* evaluations begun */
  uint8_t *claims;
  size_t claims_cap;
  pd_plan_rank *by_group;
  size_t by_group_cap;

  pd_reported reported; /* values of shared counters reported so far */
  /* Debug builds: every value the evaluation matched (cache_check.h). */
  pd_matched_log matched;

  /* ID Process / ID Thread, and the pairing of the newer sample's
   * instances with the older's, looked up once per evaluation and mode
   * however many paths need it. */
  pd_identity identity;
};

/* Object names to indices (when paths or names changed); false when out of
 * memory. */
bool pd_selection_resolve(pd_selection *sel);

/* An evaluation's plan (select.c): every path's (path, object) pairs of
 * newer in path order and the counters each matches, then which counters
 * two paths of one group share (matched_counter.shared, .skip). */
pd_status pd_selection_plan(pd_selection *sel, pd_snapshot *older,
                            pd_snapshot *newer, pd_error *err);

/* The name of an object or counter index: the names table's, else the
 * number (in the selection's text, until the next evaluation); NULL
 * without memory. */
const char *pd_display_name(pd_selection *sel, uint32_t index);

#endif
