/* collectd-winperf tests: the plugin's read path when allocations fail.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * One replay context built as the configuration and init build it (the
 * CountersFile read, wp_ctx_start), three intervals through
 * wp_read_interval, wp_ctx_free; allocation 1, 2, ... failed once and
 * persistently (failalloc.h). collectd itself is stubbed below: the stubs
 * record what was dispatched and logged. A failing run must end with the
 * start returning -1, or with every interval in which an allocation failed
 * logging "out of memory"; whatever it dispatched must be a value of the
 * run with no failure (or 85 %, the busy time of samples 1 and 3 when the
 * second is lost), and nothing may be left allocated.
 *
 * The capture (tests/encoder/sample_capture.h's samples, as
 * tests/plugin/mkcapture.c writes them, all well-formed):
 *   1.blob  \System\Processes 42, 100NSEC_TIMER 5e6, Queue(_Total) Items 7
 *   2.blob  + 1e7 (100 ns): timer 12.5e6 -> % Busy Time 100 * 7.5e6 / 1e7
 *           = 75
 *   3.blob  + 3e7: timer 30.5e6 -> 100 * 18e6 / 2e7 = 90; Processes 43;
 *           a new instance a/b with Items 3
 *
 * A second sweep reloads the CountersFile between intervals 1 and 2
 * (src/plugin/reload.h): a failing run must keep the list in use (its
 * values are then those of the first sweep's reference) or take the new
 * one, log "out of memory" in the interval, and leak nothing.
 * The counters file adds \Queue(*)\Itemz, a typo: its first warning is
 * diagnosed (pd_diagnose allocates) and every interval dispatches
 * winperf/self values (self_metrics.h), checked apart.
 */
#include "context.h"
#include "counters.h"
#include "name_table.h"
#include "open_source.h"
#include "read.h"
#include "reload.h"

#include "sample_capture.h"
#include "failalloc.h"
#include "tap.h"
#include "failalloc_tap.h"

#include "collectd/core/utils/common/common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINES 64

/* ---- collectd, stubbed ---- */

static char stub_host[] = "testhost";
char *hostname_g = stub_host;

static struct {
  int phase; /* 0: the start, 1..3: the intervals */
  cdtime_t now;
  char disp[MAX_LINES][1024];
  int disp_phase[MAX_LINES];
  int ndisp;
  bool oom[4]; /* an "out of memory" line was logged in that phase */
  /* winperf/self (self_metrics.h), kept apart: their durations vary */
  double self_values[4], self_errors[4], self_unmatched[4];
  int nself[4];
  char last_err[512];
  char last_using[512]; /* the last "using path" line */
} rec;

static data_source_t ds_gauge = {"value", DS_TYPE_GAUGE, 0, NAN};
static data_source_t ds_derive = {"value", DS_TYPE_DERIVE, 0, NAN};
static data_set_t set_gauge = {"gauge", 1, &ds_gauge};
static data_set_t set_derive = {"derive", 1, &ds_derive};

const data_set_t *plugin_get_ds(const char *name) {
  if (strcmp(name, "gauge") == 0)
    return &set_gauge;
  if (strcmp(name, "derive") == 0)
    return &set_derive;
  return NULL;
}

cdtime_t cdtime(void) {
  return rec.now;
}
cdtime_t plugin_get_interval(void) {
  return TIME_T_TO_CDTIME_T_STATIC(10);
}

char *sstrncpy(char *dest, const char *src, size_t n) {
  snprintf(dest, n, "%s", src);
  return dest;
}

void plugin_log(int level, const char *format, ...) {
  char line[512];
  va_list ap;
  va_start(ap, format);
  vsnprintf(line, sizeof line, format, ap);
  va_end(ap);
  if (strstr(line, "out of memory") != NULL)
    rec.oom[rec.phase] = true;
  if (level <= LOG_WARNING)
    snprintf(rec.last_err, sizeof rec.last_err, "%s", line);
  if (strstr(line, "using path") != NULL)
    snprintf(rec.last_using, sizeof rec.last_using, "%s", line);
}

/* collectd's BaseDir, where a Kerberos helper's private directory would
 * go (open_source.c); the contexts here are no remote hosts. */
const char *global_option_get(const char *option) {
  (void)option;
  return NULL;
}

/* The fleet's registrations (src/plugin/fleet.c), never reached here: the
 * contexts under test are local. */
int plugin_register_complex_read(const char *group, const char *name,
                                 plugin_read_cb callback, cdtime_t interval,
                                 user_data_t const *user_data) {
  (void)group, (void)name, (void)callback, (void)interval, (void)user_data;
  return -1;
}

int plugin_unregister_read(const char *name) {
  (void)name;
  return -1;
}

int plugin_dispatch_values(value_list_t const *vl) {
  if (rec.ndisp >= MAX_LINES)
    return -1;
  double v = vl->values[0].gauge;
  if (strcmp(vl->type, "derive") == 0)
    v = (double)vl->values[0].derive;
  if (strcmp(vl->plugin_instance, "self") == 0) {
    if (strcmp(vl->type_instance, "values") == 0)
      rec.self_values[rec.phase] = v;
    if (strcmp(vl->type_instance, "errors") == 0)
      rec.self_errors[rec.phase] = v;
    if (strcmp(vl->type_instance, "unmatched_paths") == 0)
      rec.self_unmatched[rec.phase] = v;
    rec.nself[rec.phase]++;
    return 0;
  }
  snprintf(rec.disp[rec.ndisp], sizeof rec.disp[0], "%s/%s/%s-%s/%s=%.6f",
           vl->host, vl->plugin, vl->plugin_instance, vl->type,
           vl->type_instance, v);
  rec.disp_phase[rec.ndisp++] = rec.phase;
  return 0;
}

/* ---- the fixture ---- */

typedef struct fixture {
  char dir[64];
  char counters[96];
  char want[MAX_LINES][1040]; /* the run with no failure, "PHASE LINE" */
  int nwant;
  char want_reload[MAX_LINES][1040]; /* the same with the reload */
  int nwant_reload;
} fixture;

/* What the run with no failure must dispatch, computed by hand. */
static const char *const EXPECTED[] = {
    "1 testhost/winperf/System-gauge/Processes=42.000000",
    "1 testhost/winperf/Queue-_Total-gauge/Items=7.000000",
    "2 testhost/winperf/System-gauge/Processes=42.000000",
    "2 testhost/winperf/System-gauge/% Busy Time=75.000000",
    "2 testhost/winperf/Queue-_Total-gauge/Items=7.000000",
    "3 testhost/winperf/System-gauge/Processes=43.000000",
    "3 testhost/winperf/System-gauge/% Busy Time=90.000000",
    "3 testhost/winperf/Queue-_Total-gauge/Items=7.000000",
    "3 testhost/winperf/Queue-a_b-gauge/Items=3.000000",
};
#define BUSY_1_3 "testhost/winperf/System-gauge/% Busy Time=85.000000"

/* The list the reload sweep puts in place after interval 1: Items and
 * Busy Time unchanged (moved), Processes with other keys (an added entry:
 * nothing in interval 2, its first sample), the old Processes removed. */
static const char YAML_A[] = "- \\System\\Processes\n"
                             "- \\System\\% Busy Time\n"
                             "- path: ['\\99(*)\\12', '\\Queue(*)\\Items']\n"
                             "  exclude: ^x$\n"
                             "  aggregate: sum\n"
                             "  max_instances: 5\n"
                             "- \\Queue(*)\\Itemz\n";
static const char YAML_B[] = "- path: ['\\99(*)\\12', '\\Queue(*)\\Items']\n"
                             "  exclude: ^x$\n"
                             "  aggregate: sum\n"
                             "  max_instances: 5\n"
                             "- \\System\\% Busy Time\n"
                             "- path: \\System\\Processes\n"
                             "  type_instance: procs\n";
/* A failure before interval 2's collect leaves blob 2 to interval 3, where
 * the added entry is no longer fresh: Processes of blob 2 under the new
 * keys. */
#define PROCS_42 "testhost/winperf/System-gauge/procs=42.000000"
static const char *const EXPECTED_RELOAD[] = {
    "1 testhost/winperf/System-gauge/Processes=42.000000",
    "1 testhost/winperf/Queue-_Total-gauge/Items=7.000000",
    "2 testhost/winperf/Queue-_Total-gauge/Items=7.000000",
    "2 testhost/winperf/System-gauge/% Busy Time=75.000000",
    "3 testhost/winperf/Queue-_Total-gauge/Items=7.000000",
    "3 testhost/winperf/Queue-a_b-gauge/Items=3.000000",
    "3 testhost/winperf/System-gauge/% Busy Time=90.000000",
    "3 testhost/winperf/System-gauge/procs=43.000000",
};

/* names.multisz: the Counter table, with or without "10 Queue". */
static void write_names(const char *dir, bool queue) {
  static const char *const names[] = {"1",  "12",        "2",  "System",
                                      "6",  "Processes", "8",  "% Busy Time",
                                      "10", "Queue",     "12", "Items"};
  uint8_t table[512];
  size_t n = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (!queue && (i == 8 || i == 9))
      continue;
    for (const char *p = names[i]; *p; p++) { /* ASCII -> UTF-16LE */
      table[n++] = (uint8_t)*p;
      table[n++] = 0;
    }
    table[n++] = 0;
    table[n++] = 0;
  }
  table[n++] = 0;
  table[n++] = 0;
  enc_write_file(dir, "names.multisz", table, n);
}

static void write_capture(fixture *f) {
  snprintf(f->dir, sizeof f->dir, "/tmp/test_alloc_plugin.%ld", (long)getpid());
  if (mkdir(f->dir, 0700) != 0) {
    printf("Bail out! cannot create %s\n", f->dir);
    exit(1);
  }
  enc_sample_write(f->dir, "1.blob", ENC_SAMPLE_T0, 5000000, 42, false);
  enc_sample_write(f->dir, "2.blob", ENC_SAMPLE_T0 + 10000000, 12500000, 42,
                   false);
  enc_sample_write(f->dir, "3.blob", ENC_SAMPLE_T0 + 30000000, 30500000, 43,
                   true);
  uint8_t table[ENC_SAMPLE_NAMES_MAX];
  enc_write_file(f->dir, "names.multisz", table, enc_sample_names(table));
  enc_write_file(f->dir, "counters.yaml", YAML_A, sizeof YAML_A - 1);
  snprintf(f->counters, sizeof f->counters, "%s/counters.yaml", f->dir);
}

/* ---- one run ---- */

/* The context as options.c (its CountersFile read through
 * wp_reload_read_first) and wp_init make it; NULL (its reason logged,
 * or wp_ctx_new's NULL, which wp_options_parse returns as -1) on failure. */
static wp_ctx *start_loop(const fixture *f, bool loop) {
  wp_ctx *c = wp_ctx_new(WP_SOURCE_REPLAY);
  if (c == NULL)
    return NULL;
  c->counters_file = strdup(f->counters);
  c->replay_dir = strdup(f->dir);
  c->replay_loop = loop;
  if (c->counters_file == NULL || c->replay_dir == NULL ||
      wp_reload_read_first(c) != 0 || wp_ctx_start(c) != 0) {
    wp_ctx_free(c);
    return NULL;
  }
  return c;
}

static wp_ctx *start(const fixture *f) {
  return start_loop(f, false);
}

/* A line of a reference run; with the reload, of either (a failed reload
 * keeps the list in use), or PROCS_42. */
static bool in_reference(const fixture *f, bool reload, const char *line) {
  if (strcmp(line, BUSY_1_3) == 0 || (reload && strcmp(line, PROCS_42) == 0))
    return true;
  for (int i = 0; i < f->nwant; i++)
    if (strcmp(f->want[i] + 2, line) == 0)
      return true;
  for (int i = 0; reload && i < f->nwant_reload; i++)
    if (strcmp(f->want_reload[i] + 2, line) == 0)
      return true;
  return false;
}

static failalloc_result check_values(const fixture *f, bool reload, char *why,
                                     size_t whylen) {
  bool failed = failalloc_failures() > 0;
  int nwant = reload ? f->nwant_reload : f->nwant;
  if (!failed && rec.ndisp != nwant) {
    snprintf(why, whylen, "no failure but %d values (want %d)", rec.ndisp,
             nwant);
    return FA_BROKEN;
  }
  for (int i = 0; i < rec.ndisp; i++) {
    char got[1040];
    snprintf(got, sizeof got, "%d %s", rec.disp_phase[i], rec.disp[i]);
    const char *want = reload ? f->want_reload[i] : f->want[i];
    if (failed ? !in_reference(f, reload, rec.disp[i])
               : strcmp(got, want) != 0) {
      snprintf(why, whylen, "dispatched %s", got);
      return FA_BROKEN;
    }
  }
  return failed ? FA_CLEAN_ERROR : FA_SUCCESS;
}

/* Interval i of a run; with the reload, YAML_B goes in place after 1. */
static void interval(const fixture *f, int i, bool reload) {
  if (reload && i == 2)
    enc_write_file(f->dir, "counters.yaml", YAML_B, sizeof YAML_B - 1);
  rec.phase = i;
  rec.now += TIME_T_TO_CDTIME_T_STATIC(10);
}

static failalloc_result op_run(fixture *f, bool reload, char *why,
                               size_t whylen) {
  memset(&rec, 0, sizeof rec);
  rec.now = TIME_T_TO_CDTIME_T_STATIC(1000);
  enc_write_file(f->dir, "counters.yaml", YAML_A, sizeof YAML_A - 1);
  wp_ctx *c = start(f);
  if (c == NULL) {
    if (failalloc_failures() > 0)
      return FA_CLEAN_ERROR; /* -1, as wp_init's */
    snprintf(why, whylen, "the start failed: %s", rec.last_err);
    return FA_BROKEN;
  }
  failalloc_result res = FA_SUCCESS;
  for (int i = 1; i <= 3; i++) {
    interval(f, i, reload);
    unsigned long before = failalloc_failures();
    if (wp_read_interval(c) != 0 && res == FA_SUCCESS) {
      snprintf(why, whylen, "interval %d returned non-zero", i);
      res = FA_BROKEN;
    }
    if (failalloc_failures() > before && !rec.oom[i] && res == FA_SUCCESS) {
      snprintf(why, whylen,
               "interval %d: an allocation failed, no \"out of memory\" "
               "logged (last: %s)",
               i, rec.last_err);
      res = FA_BROKEN;
    }
  }
  wp_ctx_free(c);
  return res == FA_SUCCESS ? check_values(f, reload, why, whylen) : res;
}

static failalloc_result op_read(void *ctx, char *why, size_t whylen) {
  return op_run(ctx, false, why, whylen);
}

static failalloc_result op_reload(void *ctx, char *why, size_t whylen) {
  return op_run(ctx, true, why, whylen);
}

/* The run with no failure: must dispatch `expected`; kept in want. */
static bool reference(fixture *f, bool reload, const char *const *expected,
                      size_t nexp, char (*want)[1040], int *nwant) {
  memset(&rec, 0, sizeof rec);
  rec.now = TIME_T_TO_CDTIME_T_STATIC(1000);
  enc_write_file(f->dir, "counters.yaml", YAML_A, sizeof YAML_A - 1);
  failalloc_arm(0, false); /* count, never fail */
  wp_ctx *c = start(f);
  unsigned long at_start = failalloc_calls();
  if (!OK(c != NULL, "the replay context starts"))
    tap_diag("  %s", rec.last_err);
  for (int i = 1; c != NULL && i <= 3; i++) {
    interval(f, i, reload);
    unsigned long before = failalloc_calls();
    wp_read_interval(c);
    tap_diag("allocations: %lu in interval %d", failalloc_calls() - before, i);
  }
  tap_diag("allocations: %lu to start, %lu in the 3 intervals", at_start,
           failalloc_calls() - at_start);
  wp_ctx_free(c);
  bool same = (size_t)rec.ndisp == nexp;
  for (int i = 0; i < rec.ndisp && i < MAX_LINES; i++) {
    snprintf(want[i], sizeof want[0], "%d %s", rec.disp_phase[i], rec.disp[i]);
    if ((size_t)i >= nexp || strcmp(want[i], expected[i]) != 0) {
      tap_diag("  got %s", want[i]);
      same = false;
    }
  }
  *nwant = rec.ndisp;
  return same;
}

/* Alternatives chosen again when the names table changes: without
 * "Queue" in the table the entry uses its second path (System
 * Processes, 42); after a reload with it, its first (Queue(_Total) Items,
 * 7), and that is logged. */
static void test_alternatives(fixture *f) {
  static const char yaml[] =
      "- path: ['\\Queue(*)\\Items', '\\System\\Processes']\n";
  enc_write_file(f->dir, "alt.yaml", yaml, sizeof yaml - 1);
  write_names(f->dir, false);
  memset(&rec, 0, sizeof rec);
  rec.now = TIME_T_TO_CDTIME_T_STATIC(1000);
  wp_ctx *c = wp_ctx_new(WP_SOURCE_REPLAY);
  char file[160];
  snprintf(file, sizeof file, "%s/alt.yaml", f->dir);
  c->counters_file = strdup(file);
  c->replay_dir = strdup(f->dir);
  c->replay_loop = false;
  bool started = wp_counters_read(c, &c->counters) == 0 && wp_ctx_start(c) == 0;
  OK(started, "alternatives: the context starts");
  rec.phase = 1;
  if (started)
    wp_read_interval(c);
  write_names(f->dir, true);
  rec.now += TIME_T_TO_CDTIME_T_STATIC(10);
  rec.phase = 2;
  if (started) {
    wp_names_load(c, true);
    wp_read_interval(c);
  }
  char got[512] = "";
  for (int i = 0; i < rec.ndisp; i++)
    snprintf(got + strlen(got), sizeof got - strlen(got), "%d %s\n",
             rec.disp_phase[i], rec.disp[i]);
  IS_STR(got,
         "1 testhost/winperf/System-gauge/Processes=42.000000\n"
         "2 testhost/winperf/Queue-_Total-gauge/Items=7.000000\n",
         "alternatives: the second path, then the first once the names "
         "table has its object");
  char want[256];
  snprintf(want, sizeof want,
           "winperf: %s/alt.yaml:1:3: using path 1 of 2, \\Queue(*)\\Items",
           f->dir);
  IS_STR(rec.last_using, want, "alternatives: the change is logged");
  wp_ctx_free(c);
}

int main(void) {
  static fixture f;
  write_capture(&f);
  OK(reference(&f, false, EXPECTED, sizeof EXPECTED / sizeof EXPECTED[0],
               f.want, &f.nwant),
     "3 intervals dispatch the hand-computed values (42 42 43, "
     "75 90 %%, Items 7 and 3)");
  /* Per interval: query, bytes, decode, objects, instances, values,
   * unmatched_paths, errors; values 2, 3, 4 as counted above; the typo
   * Itemz matches nothing. */
  OK(rec.nself[1] == 8 && rec.nself[2] == 8 && rec.nself[3] == 8 &&
         rec.self_values[1] == 2 && rec.self_values[2] == 3 &&
         rec.self_values[3] == 4 && rec.self_errors[3] == 0 &&
         rec.self_unmatched[1] == 1 && rec.self_unmatched[3] == 1,
     "each interval dispatches 8 self-metrics, count-values 2 3 4, "
     "unmatched_paths 1, errors 0");
  OK(strstr(rec.last_err, "Itemz matches nothing") != NULL &&
         strstr(rec.last_err, "unknown-name") != NULL &&
         strstr(rec.last_err, "did you mean: Items?") != NULL,
     "the typo's warning names the case and the closest name");
  tap_diag("  %s", rec.last_err);

  /* Steady state: the capture replayed in a loop; once every shape was
   * seen (intervals 1-6: two rounds), further rounds allocate nothing,
   * filter decisions and aggregate storage included. */
  memset(&rec, 0, sizeof rec);
  rec.now = TIME_T_TO_CDTIME_T_STATIC(1000);
  /* Without the typo: a path that matches nothing reloads the names table
   * (once a minute, allocating), which is not the steady state. */
  enc_write_file(f.dir, "counters.yaml", YAML_A,
                 strstr(YAML_A, "- \\Queue(*)\\Itemz") - YAML_A);
  wp_ctx *c = start_loop(&f, true);
  unsigned long warm = 0;
  int ended = 0;
  for (int i = 1; c != NULL && i <= 12; i++) {
    rec.phase = 0;
    rec.now += TIME_T_TO_CDTIME_T_STATIC(10);
    if (i == 7)
      warm = failalloc_calls();
    wp_read_interval(c);
    ended += c->ended;
  }
  OK(c != NULL && ended == 0 && rec.ndisp >= 12 * 2,
     "a looping replay runs 12 intervals (%d values)", rec.ndisp);
  unsigned long steady = failalloc_calls() - warm;
  wp_ctx_free(c);
  IS_INT(steady, 0, "intervals 7-12 of a looping replay allocate nothing");

  test_alternatives(&f);

  failalloc_tap_sweep("replay context, 3 intervals", op_read, &f,
                      "each fails the start or logs \"out of memory\" in "
                      "the interval, and dispatches only reference values",
                      NULL, NULL);

  OK(reference(&f, true, EXPECTED_RELOAD,
               sizeof EXPECTED_RELOAD / sizeof EXPECTED_RELOAD[0],
               f.want_reload, &f.nwant_reload),
     "reloaded before interval 2: Items and Busy Time go on (75 90 %%), "
     "Processes stops, procs has no value at 2 (its first sample), 43 "
     "at 3");
  failalloc_tap_sweep("replay context, reload before interval 2", op_reload, &f,
                      "each fails the start or logs \"out of memory\" in "
                      "the interval, and dispatches only values of the "
                      "old or the new list",
                      NULL, NULL);

  char path[160];
  static const char *const files[] = {"1.blob",        "2.blob",
                                      "3.blob",        "names.multisz",
                                      "counters.yaml", "alt.yaml"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", f.dir, files[i]);
    unlink(path);
  }
  rmdir(f.dir);
  return tap_done();
}
