/* collectd-winperf: libFuzzer target over decode + selection + arithmetic.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Input: a 2-byte little-endian length L, then the older blob (L bytes),
 * then the newer blob (the rest). Shorter inputs: the whole input is the
 * newer blob and there is no older one. Both are decoded into snapshots
 * that live across inputs (so reuse is fuzzed too), every name and value
 * is read, and a selection built from the newer blob's objects runs over
 * the pair: per object every instance, the single instance and a pattern
 * in group 0, the pattern and every instance again in group 1 (so a value
 * is reported once per group: the debug builds' dedup check asserts it).
 */
#include "perfdata.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pd_snapshot *older_snap, *newer_snap;

static void walk(pd_snapshot *snap) {
  uint32_t n = pd_snapshot_object_count(snap);
  for (uint32_t k = 0; k < n; k++) {
    const pd_object *obj = pd_snapshot_object(snap, k);
    for (uint32_t i = 0; i < obj->instance_count; i++) {
      const char *full = pd_instance_full_name(snap, obj, i);
      if (full != NULL && pd_find_instance(snap, obj, full) < 0)
        abort(); /* every full name must find an instance */
      (void)pd_instance_name(snap, obj, i);
      for (uint32_t c = 0; c < obj->counter_count; c++) {
        pd_sample s;
        double v;
        pd_snapshot_sample(snap, obj, &obj->instances[i], c, &s);
        (void)pd_compute(obj->counters[c].type, NULL, &s, NULL, &v);
      }
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (older_snap == NULL) {
    older_snap = pd_snapshot_new();
    newer_snap = pd_snapshot_new();
  }
  const uint8_t *older = NULL, *newer = data;
  size_t older_len = 0, newer_len = size;
  if (size >= 2) {
    size_t split = (size_t)data[0] | (size_t)data[1] << 8;
    if (split <= size - 2) {
      older = data + 2;
      older_len = split;
      newer = data + 2 + split;
      newer_len = size - 2 - split;
    }
  }
  pd_decode_limits limits = {
      .max_objects = 256, .max_counters = 4096, .max_instances = 100000};
  pd_error err;
  bool have_older = older != NULL && pd_decode(older_snap, older, older_len,
                                               &limits, &err) == PD_OK;
  /* A failed decode still leaves the objects before the error usable. */
  (void)pd_decode(newer_snap, newer, newer_len, &limits, &err);
  walk(newer_snap);
  if (have_older)
    walk(older_snap);

  pd_selection *sel = pd_selection_new();
  uint32_t n = pd_snapshot_object_count(newer_snap);
  for (uint32_t k = 0; k < n && k < 8; k++) {
    /* the instance part of each path, the last two in group 1 */
    static const char *const forms[5] = {"(*)", "", "(*/*#1)", "(*/*#1)",
                                         "(*)"};
    uint32_t idx = pd_snapshot_object(newer_snap, k)->name_index;
    for (int f = 0; f < 5; f++) {
      char path[48];
      size_t id;
      snprintf(path, sizeof path, "\\%u%s\\*", idx, forms[f]);
      if (pd_selection_add(sel, path, &id, &err) == PD_OK)
        pd_selection_set_path_group(sel, id, f < 3 ? 0 : 1);
    }
  }
  size_t id;
  if (pd_selection_add(sel, "\\230(svchost)\\6", &id, &err) == PD_OK)
    pd_selection_set_path_group(sel, id, 1);
  const pd_result *results;
  size_t count;
  (void)pd_selection_query(sel, NULL);
  pd_selection_evaluate(sel, have_older ? older_snap : NULL, newer_snap,
                        &results, &count, &err);
  pd_selection_evaluate(sel, newer_snap, have_older ? older_snap : newer_snap,
                        &results, &count, &err);
  pd_selection_free(sel);
  return 0;
}
