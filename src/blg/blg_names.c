/* collectd-winperf: the Counter name table of a .blg's blobs (doc/blg.md
 * 3.3, 4.1).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Whole-object blocks carry the logging machine's name indices; the log's
 * name table (when it has one) names them. Raw counter entries carry names
 * only: each object and counter name gets the index the table gives it, or
 * a new even index above the table's highest, appended as a pair.
 */
#include "blg_internal.h"

#include <stdio.h>

/* A name's index: the table's (its first) or a new one appended. 0 with
 * nothing appended when out of memory. */
static uint32_t index_of(blg_log *log, const char *name, bool *changed) {
  const uint32_t *idx;
  if (log->names != NULL && pd_names_lookup(log->names, name, &idx) > 0)
    return idx[0];
  /* a name given an index earlier in this pass (not parsed yet) */
  for (size_t i = 0; i < log->counter_count; i++) {
    const blg_counter *c = &log->counters[i];
    if (log->object_index[i] != 0 && pd_name_casecmp(c->object, name) == 0)
      return log->object_index[i];
    if (log->counter_index[i] != 0 && pd_name_casecmp(c->counter, name) == 0)
      return log->counter_index[i];
  }
  char num[16];
  uint32_t index = log->next_index;
  snprintf(num, sizeof num, "%u", index);
  /* drop the table's final empty string, add the pair, end it again */
  if (log->names_len >= 2)
    log->names_len -= 2;
  if (blg_put_utf16(&log->names_bytes, &log->names_len, &log->names_cap, num) !=
          0 ||
      blg_put_utf16(&log->names_bytes, &log->names_len, &log->names_cap,
                    name) != 0 ||
      blg_put_utf16(&log->names_bytes, &log->names_len, &log->names_cap, "") !=
          0)
    return 0;
  log->next_index += 2;
  *changed = true;
  return index;
}

/* The log's own table parsed; a malformed one is dropped with a warning. */
static int parse_table(blg_log *log, wp_error *err) {
  pd_error perr;
  pd_names_free(log->names);
  log->names = NULL;
  if (log->names_len == 0)
    return 0;
  pd_status st =
      pd_names_parse(log->names_bytes, log->names_len, &log->names, &perr);
  if (st == PD_E_NOMEM)
    return wp_error_nomem(err);
  if (st != PD_OK) {
    blg_warn(log, 0, "the log's name table is malformed (%s); not used",
             perr.message);
    log->names_len = 0;
  }
  return 0;
}

int blg_build_names(blg_log *log, wp_error *err) {
  /* end the log's table with its empty string */
  if (log->names_len > 0 && blg_put_utf16(&log->names_bytes, &log->names_len,
                                          &log->names_cap, "") != 0)
    return wp_error_nomem(err);
  if (parse_table(log, err) != 0)
    return -1;
  uint32_t highest = 0;
  for (size_t i = 0; log->names && i < pd_names_count(log->names); i++) {
    uint32_t index;
    pd_names_at(log->names, i, &index);
    if (index > highest)
      highest = index;
  }
  log->next_index = (highest + 2) & ~1u;
  if (log->next_index < 2)
    log->next_index = 2;
  size_t n = log->counter_count ? log->counter_count : 1;
  log->object_index = calloc(n, sizeof *log->object_index);
  log->counter_index = calloc(n, sizeof *log->counter_index);
  if (log->object_index == NULL || log->counter_index == NULL)
    return wp_error_nomem(err);
  if (log->names_len == 0 && blg_put_utf16(&log->names_bytes, &log->names_len,
                                           &log->names_cap, "") != 0)
    return wp_error_nomem(err);
  bool changed = false;
  for (size_t i = 0; i < log->counter_count; i++) {
    const blg_counter *c = &log->counters[i];
    if (c->kind == BLG_ENTRY_OBJECT)
      continue;
    log->object_index[i] = index_of(log, c->object, &changed);
    log->counter_index[i] = index_of(log, c->counter, &changed);
    if (log->object_index[i] == 0 || log->counter_index[i] == 0)
      return wp_error_nomem(err);
  }
  if (changed || log->names == NULL) {
    pd_error perr;
    pd_names_free(log->names);
    log->names = NULL;
    if (pd_names_parse(log->names_bytes, log->names_len, &log->names, &perr) !=
        PD_OK)
      return wp_error_from_pd(err, &perr);
  }
  return 0;
}
