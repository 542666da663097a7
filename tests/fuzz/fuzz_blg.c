/* collectd-winperf: libFuzzer target over the .blg reader (src/blg).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Input: a whole .blg file. It is opened; every sample (up to 64) is built
 * as each machine's V1 blob, decoded and evaluated against the previous
 * sample with paths made from the catalog's objects, as `winperf blg` does
 * (the first of them twice, in two deduplication groups);
 * every result's cell is looked up. Checks: a blob built only from raw
 * counter records (no object record) always decodes, and every kept
 * warning's message is a terminated string.
 */
#include "blg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void add_paths(pd_selection *sel, const blg_log *log) {
  size_t n = blg_counter_count(log), added = 0;
  for (size_t i = 0; i < n && added < 8; i++) {
    const blg_counter *c = blg_counter_at(log, i);
    char path[512];
    size_t id;
    pd_error err;
    snprintf(path, sizeof path, c->instance ? "\\%s(*)\\%s" : "\\%s\\%s",
             c->object, c->kind == BLG_ENTRY_OBJECT ? "*" : c->counter);
    if (pd_selection_add(sel, path, &id, &err) != PD_OK)
      continue;
    /* The first path again in a group of its own: its values reported
     * twice, once per group (the dedup check of debug builds). */
    if (added++ == 0 && pd_selection_add(sel, path, &id, &err) == PD_OK)
      pd_selection_set_path_group(sel, id, 1);
  }
}

static bool only_raw(const blg_log *log, size_t machine) {
  for (size_t i = 0; i < blg_counter_count(log); i++) {
    const blg_counter *c = blg_counter_at(log, i);
    if (c->machine_id == machine && c->kind == BLG_ENTRY_OBJECT)
      return false;
  }
  return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t *copy = malloc(size ? size : 1); /* exact size: ASan sees overruns */
  if (copy == NULL)
    return 0;
  memcpy(copy, data, size);
  wp_error err;
  blg_log *log = blg_open(copy, size, &err);
  if (log == NULL) {
    free(copy);
    return 0;
  }
  for (size_t i = 0; i < blg_warnings_kept(log); i++)
    if (memchr(blg_warning_at(log, i)->message, '\0', 200) == NULL)
      abort();
  pd_selection *sel = pd_selection_new();
  pd_snapshot *snap[2] = {pd_snapshot_new(), pd_snapshot_new()};
  uint8_t *buf[2] = {NULL, NULL};
  size_t cap[2] = {0, 0}, len[2] = {0, 0};
  if (sel && snap[0] && snap[1]) {
    add_paths(sel, log);
    pd_selection_set_names(sel, blg_names(log));
    for (size_t m = 0; m < blg_machine_count(log) && m < 2; m++) {
      int cur = 0;
      bool have = false;
      for (size_t s = 0; s < blg_sample_count(log) && s < 64; s++) {
        if (blg_sample_blob(log, s, m, &buf[cur], &cap[cur], &len[cur], &err) !=
            1)
          continue;
        pd_error perr;
        if (pd_decode(snap[cur], buf[cur], len[cur], NULL, &perr) != PD_OK) {
          if (only_raw(log, m))
            abort(); /* a blob this reader wrote itself must decode */
          have = false;
          continue;
        }
        const pd_result *res;
        size_t count;
        if (pd_selection_evaluate(sel, have ? snap[cur ^ 1] : NULL, snap[cur],
                                  &res, &count, &perr) == PD_OK)
          for (size_t k = 0; k < count; k++)
            (void)blg_cell_logged(log, res[k].object_index,
                                  res[k].counter_index, res[k].instance);
        have = true;
        cur ^= 1;
      }
    }
  }
  free(buf[0]);
  free(buf[1]);
  pd_snapshot_free(snap[0]);
  pd_snapshot_free(snap[1]);
  pd_selection_free(sel);
  blg_close(log);
  free(copy);
  return 0;
}
