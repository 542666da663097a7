/* collectd-winperf: the .blg reader against real Perfmon logs and the
 * hand-built fixture (tests/data/blg, PROVENANCE.md there).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Independent expectations:
 * - tx-BasicPerfCounters.blg (Windows 8, raw counter records): what
 *   Windows showed from this very file in microsoft/Tx's screenshots:
 *   LINQPad over PDH (Samples/LinqPad/Queries/Performance Counters/
 *   PerfCtr_1_RawData.JPG): the first four values of \Processor(_Total)\%
 *   Processor Time; its one-minute averages (PerfCtr_2_AverageAndDeviation_
 *   Output.JPG); Perfmon's Last/Average/Minimum/Maximum of that counter
 *   (PerfCtr_PerfMon.JPG); and Tx's own test (Test/Tx.Windows.Tests/
 *   PerfCounterTest.cs): 6000 values, 600 per counter, the first one
 *   PhysicalDisk(0 C:) Avg. Disk Bytes/Read.
 * - pal-SampleLog.blg (Vista, whole-object blocks): no Windows output was
 *   published with it; its values are checked against arithmetic done by
 *   hand on raw values read with `winperf dump` (format.md 3).
 * - fixture-both-kinds.blg: hand-built (tests/blg/make_fixture.py), every
 *   value known by construction.
 */
#include "blg.h"
#include "blg_file.h"
#include "tap.h"

#include <inttypes.h>
#include <stdlib.h>

static uint8_t *load(const char *name, size_t *len) {
  const char *top = getenv("top_srcdir");
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/data/blg/%s", top ? top : ".", name);
  uint8_t *data;
  wp_error err;
  if (blg_read_file(path, &data, len, &err) != 0) {
    tap_diag("%s", err.message);
    return NULL;
  }
  return data;
}

/* Every value of `path` over the log's samples (machine 0): values[s] and
 * ok[s]; returns how many samples decoded. */
static size_t series(blg_log *log, const char *path, double *values, bool *ok,
                     size_t max) {
  pd_selection *sel = pd_selection_new();
  pd_snapshot *snap[2] = {pd_snapshot_new(), pd_snapshot_new()};
  uint8_t *buf[2] = {NULL, NULL};
  size_t cap[2] = {0, 0}, len[2], id, decoded = 0;
  pd_error perr;
  wp_error err;
  pd_selection_add(sel, path, &id, &perr);
  pd_selection_set_names(sel, blg_names(log));
  pd_selection_set_pairing(sel, PD_PAIR_BY_FULL_NAME);
  int cur = 0;
  bool have = false;
  for (size_t s = 0; s < blg_sample_count(log) && s < max; s++) {
    ok[s] = false;
    if (blg_sample_blob(log, s, 0, &buf[cur], &cap[cur], &len[cur], &err) !=
            1 ||
        pd_decode(snap[cur], buf[cur], len[cur], NULL, &perr) != PD_OK)
      continue;
    const pd_result *res;
    size_t n;
    if (pd_selection_evaluate(sel, have ? snap[cur ^ 1] : NULL, snap[cur], &res,
                              &n, &perr) != PD_OK)
      continue;
    decoded++;
    for (size_t k = 0; k < n; k++)
      if (res[k].status == PD_VALUE_OK &&
          blg_cell_logged(log, res[k].object_index, res[k].counter_index,
                          res[k].instance)) {
        values[s] = res[k].value;
        ok[s] = true;
      }
    have = true;
    cur ^= 1;
  }
  free(buf[0]);
  free(buf[1]);
  pd_snapshot_free(snap[0]);
  pd_snapshot_free(snap[1]);
  pd_selection_free(sel);
  return decoded;
}

static void time_is(int64_t t, const char *want, const char *what) {
  char got[40];
  blg_format_time(t, got, sizeof got);
  IS_STR(got, want, "%s", what);
}

/* ------------------------------------------------------------ Windows 8 */

static void tx_values(blg_log *log) {
  enum { N = 601 };
  static double v[N];
  static bool ok[N];
  IS_INT(series(log, "\\Processor(_Total)\\% Processor Time", v, ok, N), N,
         "tx: every sample decodes and evaluates");
  OK(!ok[0], "tx: the rate's first sample has no value (relog's blank)");
  /* LINQPad over PDH, 15 significant digits shown */
  const double linqpad[4] = {9.37826238255423, 5.86541344045712,
                             8.20410303650782, 3.1283808195094};
  for (int i = 0; i < 4; i++)
    OK(ok[i + 1] && tap_near(v[i + 1], linqpad[i], 1e-9),
       "tx: _Total %% Processor Time sample %d = %.15g (LINQPad/PDH %.15g)",
       i + 1, v[i + 1], linqpad[i]);
  /* Perfmon's statistics of the log, 3 decimals shown */
  double sum = 0, lo = 1e300, hi = -1e300, last = 0;
  size_t n = 0;
  for (size_t s = 0; s < N; s++)
    if (ok[s]) {
      sum += v[s], n++, last = v[s];
      lo = v[s] < lo ? v[s] : lo;
      hi = v[s] > hi ? v[s] : hi;
    }
  IS_INT(n, 600, "tx: 600 values of _Total (Tx's test: 600 per counter)");
  OK(tap_near(last, 32.816, 0.0005) && tap_near(sum / n, 11.527, 0.0005) &&
         tap_near(lo, 1.569, 0.0005) && tap_near(hi, 53.908, 0.0005),
     "tx: Perfmon's Last 32.816, Average 11.527, Minimum 1.569, Maximum "
     "53.908 (got %.3f %.3f %.3f %.3f)",
     last, sum / n, lo, hi);
  /* LINQPad's one-minute averages (windows from the first value's time) */
  const double minute[10] = {
      12.0669069305063, 17.8947984261061, 9.96773471490628, 11.9817923615127,
      13.2387383951428, 6.04807815074217, 7.96550167738377, 10.0616480298706,
      7.71156996727614, 18.3763305167822};
  double wsum[10] = {0};
  size_t wn[10] = {0};
  int64_t t0 = -1;
  for (size_t s = 0; s < N; s++) {
    if (!ok[s])
      continue;
    int64_t t = blg_sample_local(log, s);
    if (t0 < 0)
      t0 = t;
    size_t w = (size_t)((t - t0) / 600000000);
    if (w < 10)
      wsum[w] += v[s], wn[w]++;
  }
  int match = 0;
  for (int w = 0; w < 10; w++)
    match += wn[w] > 0 && tap_near(wsum[w] / wn[w], minute[w], 1e-9);
  IS_INT(match, 10, "tx: the ten one-minute averages LINQPad showed");
}

static void tx_counts(blg_log *log) {
  /* Tx's test: 6000 values in all (10 counters x 600), first one
   * PhysicalDisk(0 C:) Avg. Disk Bytes/Read */
  const char *paths[2] = {"\\PhysicalDisk(*)\\*", "\\Processor(*)\\*"};
  size_t total = 0;
  for (int p = 0; p < 2; p++) {
    pd_selection *sel = pd_selection_new();
    pd_snapshot *snap[2] = {pd_snapshot_new(), pd_snapshot_new()};
    uint8_t *buf[2] = {NULL, NULL};
    size_t cap[2] = {0, 0}, len[2], id;
    pd_error perr;
    wp_error err;
    pd_selection_add(sel, paths[p], &id, &perr);
    pd_selection_set_names(sel, blg_names(log));
    for (size_t s = 0, cur = 0; s < blg_sample_count(log); s++, cur ^= 1) {
      const pd_result *res;
      size_t n;
      if (blg_sample_blob(log, s, 0, &buf[cur], &cap[cur], &len[cur], &err) !=
              1 ||
          pd_decode(snap[cur], buf[cur], len[cur], NULL, &perr) != PD_OK ||
          pd_selection_evaluate(sel, s ? snap[cur ^ 1] : NULL, snap[cur], &res,
                                &n, &perr) != PD_OK)
        break;
      if (s == 1 && p == 0)
        IS_STR(res[0].path, "\\PhysicalDisk(0 C:)\\Avg. Disk Bytes/Read",
               "tx: the first value is Tx's first");
      for (size_t k = 0; k < n; k++)
        total += res[k].status == PD_VALUE_OK;
    }
    free(buf[0]);
    free(buf[1]);
    pd_snapshot_free(snap[0]);
    pd_snapshot_free(snap[1]);
    pd_selection_free(sel);
  }
  IS_INT(total, 6000, "tx: 6000 values (Tx's BlgCount)");
}

static void tx(void) {
  size_t len;
  uint8_t *data = load("tx-BasicPerfCounters.blg", &len);
  wp_error err;
  blg_log *log = data ? blg_open(data, len, &err) : NULL;
  if (!OK(log != NULL, "tx: opens (%s)", log ? "ok" : err.message)) {
    free(data);
    return;
  }
  const blg_info *in = blg_log_info(log);
  OK(in->os_major == 6 && in->os_minor == 2 && in->os_build == 9200 &&
         in->pointer_size == 8,
     "tx: logged by Windows 6.2 build 9200 (Windows 8), 64-bit");
  IS_INT(blg_warning_count(log), 0, "tx: no warnings");
  IS_INT(blg_sample_count(log), 601, "tx: 601 samples");
  IS_STR(blg_machine_at(log, 0), "GEORGIS3", "tx: the logged machine");
  IS_INT(blg_counter_count(log), 6, "tx: 6 catalog entries");
  int singles = 0, multis = 0;
  for (size_t i = 0; i < blg_counter_count(log); i++)
    singles += blg_counter_at(log, i)->kind == BLG_ENTRY_SINGLE,
        multis += blg_counter_at(log, i)->kind == BLG_ENTRY_MULTI;
  OK(singles == 5 && multis == 1,
     "tx: raw counter records, 5 single and 1 of every instance");
  IS_U64(blg_counter_at(log, 5)->type, PD_100NSEC_TIMER_INV,
         "tx: %% Processor Time is PERF_100NSEC_TIMER_INV");
  time_is(blg_sample_local(log, 0), "2013-02-19 18:50:17.844",
          "tx: first sample at Perfmon's 6:50:17 PM, local");
  time_is(blg_sample_local(log, 600), "2013-02-19 19:00:17.840",
          "tx: last sample at Perfmon's 7:00:18 PM (duration 9:59)");
  time_is(blg_sample_utc(log, 0), "2013-02-20 02:50:17.844",
          "tx: UTC = local + 8 h (Pacific Standard Time, bias 480)");
  tx_values(log);
  tx_counts(log);
  blg_close(log);
  free(data);
}

/* ------------------------------------------------------------ Vista */

static void pal(void) {
  size_t len;
  uint8_t *data = load("pal-SampleLog.blg", &len);
  wp_error err;
  blg_log *log = data ? blg_open(data, len, &err) : NULL;
  if (!OK(log != NULL, "pal: opens (%s)", log ? "ok" : err.message)) {
    free(data);
    return;
  }
  const blg_info *in = blg_log_info(log);
  OK(in->os_major == 6 && in->os_minor == 0 && in->os_build == 6000 &&
         in->pointer_size == 4,
     "pal: logged by Windows 6.0 build 6000 (Vista), 32-bit");
  IS_INT(blg_sample_count(log), 11, "pal: 11 samples");
  IS_INT(blg_counter_count(log), 8, "pal: 8 whole objects in the catalog");
  OK(blg_counter_at(log, 5)->kind == BLG_ENTRY_OBJECT &&
         strcmp(blg_counter_at(log, 5)->object, "Process") == 0,
     "pal: entry 5 is \\Process(*)\\*, a whole object");
  IS_INT(blg_warning_count(log), 1, "pal: one warning");
  const blg_warning *w = blg_warning_at(log, 0);
  OK(w && w->offset == 0x6d518 && strstr(w->message, "0x23"),
     "pal: the unknown event kind 0x23 skipped, named at its offset 0x6d518");
  IS_STR(pd_names_get(blg_names(log), 238), "Processor",
         "pal: the log's name table: 238 = Processor");
  time_is(blg_sample_local(log, 0), "2007-08-14 15:40:38.659",
          "pal: first sample, local");
  time_is(blg_sample_utc(log, 0), "2007-08-14 19:40:38.659",
          "pal: UTC = local + 4 h (daylight time, bias 300 - 60)");
  /* the last sample's PERF_DATA_BLOCK SystemTime (local on this log):
   * 2007-08-14 15:50:38.599 */
  time_is(blg_sample_local(log, 10), "2007-08-14 15:50:38.599",
          "pal: last sample ten minutes later, as its blocks' SystemTime");
  static double v[11];
  static bool ok[11];
  IS_INT(series(log, "\\Processor(_Total)\\% Processor Time", v, ok, 11), 11,
         "pal: every sample's object blocks merge and decode");
  /* raw: idle 12558750000 -> 12665781250, PerfTime100nSec
   * 128315940386596596 -> 128315940986148066: 100 (1 - dN / dD) */
  double want = 100.0 * (1.0 - 107031250.0 / 599551470.0);
  OK(!ok[0] && ok[1] && tap_near(v[1], want, 1e-12),
     "pal: _Total %% Processor Time sample 1 = %.15g by hand (got %.15g)", want,
     v[1]);
  series(log, "\\Memory\\Available MBytes", v, ok, 11);
  OK(ok[0] && v[0] == 79 && ok[1] && v[1] == 107,
     "pal: Memory Available MBytes 79, then 107 (raw counts)");
  blg_close(log);
  free(data);
}

/* ------------------------------------------------------------ fixture */

static void fixture(void) {
  size_t len;
  uint8_t *data = load("fixture-both-kinds.blg", &len);
  wp_error err;
  blg_log *log = data ? blg_open(data, len, &err) : NULL;
  if (!OK(log != NULL, "fixture: opens (%s)", log ? "ok" : err.message)) {
    free(data);
    return;
  }
  IS_INT(blg_sample_count(log), 3, "fixture: 3 samples of 2 fragments each");
  IS_INT(blg_warning_count(log), 0, "fixture: no warnings");
  static double v[3];
  static bool ok[3];
  series(log, "\\Memory\\Pages/sec", v, ok, 3);
  OK(!ok[0] && ok[1] && v[1] == 25, "fixture: object block COUNTER 25/s");
  series(log, "\\LogicalDisk(C:)\\% Free Space", v, ok, 3);
  OK(ok[0] && v[0] == 40 && ok[2] && v[2] == 42,
     "fixture: single raw record RAW_FRACTION 40/100 -> 40 %%");
  series(log, "\\Processor(0)\\% Processor Time", v, ok, 3);
  OK(!ok[0] && ok[1] && tap_near(v[1], 30, 1e-12),
     "fixture: raw items 100NSEC_TIMER_INV 100 (1 - 7e6/1e7) = 30 %%");
  series(log, "\\Processor(_Total)\\% Processor Time", v, ok, 3);
  OK(ok[2] && tap_near(v[2], 20, 1e-12), "fixture: _Total 20 %%");
  time_is(blg_sample_utc(log, 0), "2024-06-29 04:00:00.000",
          "fixture: UTC = local + 4 h in June (daylight rule of the zone)");
  blg_close(log);
  free(data);
}

int main(void) {
  tx();
  pal();
  fixture();
  printf("1..%d\n", tap_count);
  return tap_failed ? 1 : 0;
}
