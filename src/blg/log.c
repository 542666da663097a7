/* collectd-winperf: opening a .blg and what it tells (blg.h, doc/blg.md).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "blg_internal.h"

#include <stdio.h>

blg_log *blg_open(const uint8_t *data, size_t len, wp_error *err) {
  blg_log *log = calloc(1, sizeof *log);
  if (log == NULL) {
    wp_error_nomem(err);
    return NULL;
  }
  log->data = data;
  log->len = len;
  if (blg_read_container(log, err) != 0 || blg_read_catalog(log, err) != 0 ||
      blg_build_names(log, err) != 0) {
    blg_close(log);
    return NULL;
  }
  if (log->counter_count == 0) {
    wp_error_set(err, "offset 0x%zx: the counter catalog lists no counter",
                 log->event_count ? log->events[0].offset : (size_t)0);
    blg_close(log);
    return NULL;
  }
  return log;
}

void blg_close(blg_log *log) {
  if (log == NULL)
    return;
  free(log->tz_std);
  free(log->tz_dst);
  free(log->log_name);
  free(log->events);
  for (size_t i = 0; i < log->counter_count; i++) {
    blg_counter *c = &log->counters[i];
    free((char *)c->machine);
    free((char *)c->object);
    free((char *)c->instance);
    free((char *)c->parent);
    free((char *)c->counter);
  }
  free(log->counters);
  for (size_t i = 0; i < log->machine_count; i++)
    free(log->machines[i]);
  free(log->machines);
  free(log->samples);
  free(log->names_bytes);
  pd_names_free(log->names);
  free(log->object_index);
  free(log->counter_index);
  free(log->record);
  for (size_t i = 0; i < log->cell_count; i++)
    free(log->cells[i].instance);
  free(log->cells);
  wp_table_free(&log->cell_index);
  free(log);
}

const blg_info *blg_log_info(const blg_log *log) {
  return &log->info;
}
size_t blg_counter_count(const blg_log *log) {
  return log->counter_count;
}
const blg_counter *blg_counter_at(const blg_log *log, size_t i) {
  return i < log->counter_count ? &log->counters[i] : NULL;
}
size_t blg_machine_count(const blg_log *log) {
  return log->machine_count;
}
const char *blg_machine_at(const blg_log *log, size_t i) {
  return i < log->machine_count ? log->machines[i] : NULL;
}
size_t blg_sample_count(const blg_log *log) {
  return log->sample_count;
}
int64_t blg_sample_local(const blg_log *log, size_t i) {
  return i < log->sample_count ? log->samples[i].local : 0;
}
int64_t blg_sample_utc(const blg_log *log, size_t i) {
  return i < log->sample_count ? log->samples[i].utc : 0;
}
size_t blg_sample_offset(const blg_log *log, size_t i) {
  return i < log->sample_count ? log->events[log->samples[i].first_event].offset
                               : 0;
}
size_t blg_warning_count(const blg_log *log) {
  return log->warning_count;
}
size_t blg_warnings_kept(const blg_log *log) {
  return log->warning_count < BLG_MAX_WARNINGS ? log->warning_count
                                               : BLG_MAX_WARNINGS;
}
const blg_warning *blg_warning_at(const blg_log *log, size_t i) {
  return i < blg_warnings_kept(log) ? &log->warnings[i] : NULL;
}
const pd_names *blg_names(const blg_log *log) {
  return log->names;
}
const uint8_t *blg_names_multisz(const blg_log *log, size_t *len) {
  *len = log->names_len;
  return log->names_bytes;
}
