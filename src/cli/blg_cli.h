/* collectd-winperf: `winperf blg`, its run over a log's samples and its
 * outputs (blg.c, blg_out.c, blg_send.c).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef WINPERF_BLG_CLI_H
#define WINPERF_BLG_CLI_H

#include "blg.h"
#include "cli.h"
#include "wp_grow.h"

typedef enum blg_mode {
  BLG_MODE_LIST = 0,
  BLG_MODE_CSV,
  BLG_MODE_JSON,
  BLG_MODE_GRAPHITE,
  BLG_MODE_INFLUX,
} blg_mode;

/* One machine's selection and its two latest samples. */
typedef struct blg_machine_state {
  pd_selection *sel;
  size_t paths;
  pd_snapshot *snap[2];
  uint8_t *buf[2];
  size_t cap[2], len[2];
  int cur;
  bool have_older;
} blg_machine_state;

typedef struct blg_run {
  cli_common opt;
  blg_mode mode;
  const char *file;
  const char *target;  /* HOST:PORT of --graphite / --influx-udp */
  const char *tz_name; /* --tz-name */
  const char **counters;
  size_t counter_count, counter_cap;
  bool have_begin, have_end;
  int64_t begin, end; /* local time, as the log's */
  uint8_t *data;
  size_t len;
  blg_log *log;
  blg_machine_state *ms;
  size_t warned;   /* the log's warnings printed so far */
  pd_result *kept; /* the results of a sample the log has cells for */
  size_t kept_cap;
} blg_run;

/* Called once per sample in range and machine with that sample's results
 * (only the cells the log holds); returns 0 to go on. */
typedef int (*blg_visit)(void *ctx, blg_run *r, size_t sample, size_t machine,
                         const pd_result *res, size_t n);

/* Every sample in [begin, end] of every machine through fn; a sample that
 * cannot be read or decoded is reported on stderr and skipped. 0, or what
 * fn returned, or CLI_EXIT_ERROR. */
int blg_run_samples(blg_run *r, blg_visit fn, void *ctx);

/* blg_out.c */
int blg_write_csv(blg_run *r, FILE *out);
int blg_write_json(blg_run *r, FILE *out);
/* blg_send.c: every value to a Graphite plaintext or InfluxDB UDP line
 * protocol listener, stamped with its sample's time. */
int blg_send(blg_run *r);

/* Graphite's and InfluxDB's names of a result, as the plugin dispatches it
 * through write_graphite and the network plugin (collectd-winperf(5)):
 * plugin_instance and type_instance. */
void blg_result_names(const blg_run *r, const pd_result *res, char *pi,
                      size_t pi_size, char *ti, size_t ti_size);

#endif
