/* collectd-winperf: one (path, object) pass of an evaluation, shared by
 * evaluate.c (plan, matching, the pass's setup) and emit.c (the results).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef PD_PASS_H
#define PD_PASS_H

#include "selection.h"

/* What one (path, object) pair reads per instance, looked up once. */
typedef struct object_pass {
  pd_selection *sel;
  path_object *po;
  uint64_t done_epoch; /* po's, before this evaluation cleared it */
  compiled_path *cp;
  pd_snapshot *older, *newer;
  const pd_object *obj, *old;
  const pd_instance_names *inst_names; /* NULL: a single-instance object */
  matched_counter *mc;
  pd_pair_query query; /* how obj pairs with old */
  int32_t *pair;       /* the object's pairing, NULL until first needed */
  int32_t id_pos[PD_ID_KINDS];
  const pd_counter_def *pid_def, *tid_def; /* ID Process, ID Thread, or NULL */
  bool every;     /* every instance and no filter: nothing to match */
  bool want_base; /* id_base looked up per instance */
  const char *object_name;
  size_t object_len;
  int64_t t100;
  pd_sample now, before;
} object_pass;

/* What the results of one instance share. */
typedef struct instance_view {
  uint32_t i;
  const pd_instance *in, *old; /* old: its older sample, NULL: none */
  const char *full, *id_base;
  uint64_t pid, tid;
} instance_view;

/* Room for n more results; false when out of memory. */
bool pd_reserve_results(pd_selection *sel, size_t n);

/* Every counter of the pass for v's instance from *out on (room made):
 * one result each, but a shared counter only when no earlier path
 * reported it. *out ends past the last. */
pd_status pd_emit(object_pass *op, const instance_view *v, pd_result **out,
                  pd_error *err);

/* Every instance in [first, end) of a pass over all instances without a
 * filter (op->every), appended to the results and counted as matched. */
pd_status pd_every_instance(object_pass *op, uint32_t first, uint32_t end,
                            pd_error *err);

#endif
