/* collectd-winperf tests: which CountersFile entries share a value (their
 * deduplication group), which an earlier entry shadows and which would
 * send two values for one series with one (src/config/dedup_groups.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Every expected group is worked out by hand from the settings that make
 * two entries' outputs differ, as dedup_groups.h lists them; groups are
 * numbered by first appearance.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dedup_groups.h"
#include "naming.h"
#include "tap.h"

static bool parse(const char *text, wp_counter_list *list) {
  wp_error e;
  wp_error_clear(&e);
  if (wp_counters_parse("t.yaml", text, strlen(text), list, &e) == 0)
    return true;
  tap_diag("parse: %s", e.message);
  return false;
}

/* The groups of text's paths under d, as "g g g ...". */
static void groups_text(const char *text, const wp_output_defaults *d,
                        char *out, size_t cap) {
  wp_counter_list list = {0};
  out[0] = '\0';
  if (!parse(text, &list))
    return;
  size_t n = wp_dedup_path_count(&list), w = 0;
  uint32_t *g = calloc(n ? n : 1, sizeof *g);
  if (g != NULL && wp_dedup_groups(&list, d, g) == 0)
    for (size_t i = 0; i < n && w < cap; i++)
      w += (size_t)snprintf(out + w, cap - w, "%s%u", i ? " " : "", g[i]);
  free(g);
  wp_counters_free(&list);
}

static const wp_output_defaults formatted = {false, 0, WP_METRIC_NAMES_PDH,
                                             WP_INSTANCE_NAMES_PDH};

static const char settings[] =
    "- '\\Memory\\Pages/sec'\n"                      /* 0: g0 */
    "- path: '\\Memory\\Pages/sec'\n  raw: true\n"   /* 1: g1 */
    "- path: '\\Memory\\Pages/sec'\n  type: gauge\n" /* 2: formatted */
    "- path: '\\Memory\\Pages/sec'\n  raw: true\n  type: derive\n"      /* 3 */
    "- path: '\\Memory\\Pages/sec'\n  scale: 2\n"                       /* 4 */
    "- path: '\\Memory\\Pages/sec'\n  plugin_instance: mem\n"           /* 5 */
    "- path: '\\Memory\\Pages/sec'\n  type_instance: pages\n"           /* 6 */
    "- path: '\\Memory\\Pages/sec'\n  metric_names: clean\n"            /* 7 */
    "- path: '\\Memory\\Pages/sec'\n  metric_names: pdh\n"              /* 8 */
    "- path: '\\Memory\\Pages/sec'\n  pair_by: name\n"                  /* 9 */
    "- path: '\\Memory\\Pages/sec'\n  raw: true\n  pair_by: name\n"     /* 10 */
    "- path: '\\Memory\\Pages/sec'\n  instance_names: pid\n"            /* 11 */
    "- path: '\\Memory\\Pages/sec'\n  include: '.'\n  total: exclude\n" /* 12 */
    "- path: ['\\Memory\\Pages/sec', '\\4\\40']\n"; /* 13, 14 */

static void test_settings(void) {
  char got[512];
  groups_text(settings, &formatted, got, sizeof got);
  /* 0 the default; 1 raw; 2 type gauge: a formatted value's default type;
   * 3 raw derive: not the raw default (gauge for a non-monotonic
   * counter); 4 scale; 5, 6 the overrides; 7 clean names; 8 pdh names as
   * the block's; 9 another pairing of a formatted value; 10 raw: the
   * pairing does not change the raw reading, as 1; 11 instance names
   * pid; 12 filters are no output setting; 13, 14 alternatives of one
   * entry, as the default. */
  IS_STR(got, "0 1 0 2 3 4 5 6 0 7 1 8 0 0 0",
         "each output setting apart, the rest with the default's group");

  /* ValueMode "raw": the default and raw: true alike, raw: false apart,
   * and a raw value's pairing matters only for pid names. */
  const wp_output_defaults raw = {true, 0, WP_METRIC_NAMES_PDH,
                                  WP_INSTANCE_NAMES_PDH};
  groups_text("- '\\Memory\\Pages/sec'\n"
              "- path: '\\Memory\\Pages/sec'\n  raw: true\n"
              "- path: '\\Memory\\Pages/sec'\n  raw: false\n"
              "- path: '\\Memory\\Pages/sec'\n  pair_by: name\n"
              "- path: '\\Memory\\Pages/sec'\n  instance_names: pid\n"
              "- path: '\\Memory\\Pages/sec'\n  instance_names: pid\n"
              "  pair_by: name\n",
              &raw, got, sizeof got);
  IS_STR(got, "0 0 1 0 2 3",
         "ValueMode raw: raw: true alike, raw: false apart; pairing only "
         "with pid names");
}

static void test_overrides(void) {
  char got[512];
  /* Both overrides without wildcards: no name of the counter in the
   * identifier, so metric_names and instance_names change nothing. With
   * a wildcard the matched name is appended: the override alone differs
   * by whether the path has one. */
  groups_text("- path: '\\Process(a)\\X'\n  plugin_instance: p\n"
              "  type_instance: t\n"
              "- path: '\\Process(a)\\X'\n  plugin_instance: p\n"
              "  type_instance: t\n  metric_names: clean\n"
              "  instance_names: pid\n"
              "- path: '\\Process(*)\\X'\n  plugin_instance: p\n"
              "  type_instance: t\n"
              "- path: '\\Process(a)\\*'\n  plugin_instance: p\n"
              "  type_instance: t\n"
              "- path: '\\Process(*)\\X'\n  plugin_instance: p\n"
              "  type_instance: t\n  metric_names: clean\n",
              &formatted, got, sizeof got);
  IS_STR(got, "0 0 1 2 3",
         "overrides without wildcards: names' settings no matter; a "
         "wildcard appends a name");
}

static void test_alone(void) {
  char got[512];
  /* aggregate and max_instances fold or cap an entry's own values: each
   * such entry is a group of its own, even when alike. */
  groups_text("- '\\Process(*)\\X'\n"
              "- path: '\\Process(*)\\X'\n  aggregate: sum\n"
              "- path: '\\Process(*)\\X'\n  aggregate: sum\n"
              "- path: '\\Process(*)\\X'\n  max_instances: 3\n"
              "- '\\Process(*)\\Y'\n",
              &formatted, got, sizeof got);
  IS_STR(got, "0 1 2 3 0", "aggregate and max_instances: a group each");
}

/* The shadowed entries of text as "entry<by entry ..." (0-based). */
static void shadowed_text(const char *text, char *out, size_t cap) {
  wp_counter_list list = {0};
  out[0] = '\0';
  if (!parse(text, &list))
    return;
  size_t n = wp_dedup_path_count(&list), w = 0, count = 0;
  uint32_t *g = calloc(n ? n : 1, sizeof *g);
  wp_shadowed *sh = NULL;
  if (g != NULL && wp_dedup_groups(&list, &formatted, g) == 0 &&
      wp_dedup_shadowed(&list, g, &sh, &count) == 0)
    for (size_t i = 0; i < count && w < cap; i++)
      w += (size_t)snprintf(out + w, cap - w, "%s%zu<%zu", i ? " " : "",
                            sh[i].entry, sh[i].by);
  free(sh);
  free(g);
  wp_counters_free(&list);
}

static const char shadows[] =
    "- '\\Memory\\Pages/sec'\n"                                 /* 0 */
    "- '\\memory\\PAGES/SEC'\n"                                 /* 1 < 0 */
    "- path: '\\Memory\\Pages/sec'\n  raw: true\n"              /* 2 */
    "- '\\Process(*)\\% Processor Time'\n"                      /* 3 */
    "- '\\Process(svchost#1)\\% Processor Time'\n"              /* 4 < 3 */
    "- '\\Process(svc*)\\% Processor Time'\n"                   /* 5 < 3 */
    "- path: '\\Processor(*)\\% Idle Time'\n  include: '^0$'\n" /* 6 */
    "- '\\Processor(0)\\% Idle Time'\n"                         /* 7 */
    "- '\\Processor(_Total)\\*'\n"                              /* 8 */
    "- '\\Processor(_Total)\\Interrupts/sec'\n"                 /* 9 < 8 */
    "- '\\Thread(svc*/*)\\Context Switches/sec'\n"              /* 10 */
    "- '\\Thread(SVCHOST/0#2)\\Context Switches/sec'\n"         /* 11 < 10 */
    "- '\\Thread(*/0)\\Context Switches/sec'\n"                 /* 12 */
    "- path: ['\\Prozess(*)\\Arbeitsseite', '\\Process(*)\\Working Set']\n"
    "- '\\Process(*)\\Working Set'\n" /* 14 */
    "- path: ['\\Process(w3wp)\\Working Set', "
    "'\\Process(*)\\% Processor Time']\n" /* 15 < 14 */
    "- '\\230(*)\\6'\n"                   /* 16 */
    "- '\\0230(*)\\6'\n"                  /* 17 < 16 */
    "- path: '\\LogicalDisk(*)\\% Free Space'\n  max_instances: 2\n"
    "- path: '\\LogicalDisk(*)\\% Free Space'\n  max_instances: 2\n"
    "- '\\System\\Processes'\n"                   /* 20 */
    "- '\\System(*)\\Processes'\n"                /* 21 */
    "- '\\System(*)\\Threads'\n"                  /* 22 */
    "- '\\System\\Threads'\n"                     /* 23 < 22 */
    "- '\\Thread(svc*/0)\\Priority Base'\n"       /* 24 */
    "- '\\Thread(svchost/0#1)\\Priority Base'\n"; /* 25 < 24 */

static void test_shadowed(void) {
  char got[512];
  shadowed_text(shadows, got, sizeof got);
  /* 1: the same path but for case. 2: raw, another group. 4, 5: "(*)"
   * takes an exact name and a pattern. 7: 6 has a filter. 9: "\*" takes
   * every counter. 11: the pattern matches the name (case folded). 12:
   * another pattern. 14: 13 has alternatives (a filter). 15: both of its
   * paths taken (by 14 and 3): named by its first's. 16 by index, 3 by
   * name: not compared; 17: the same index. 18, 19: max_instances, a
   * group each. 21: "(*)" is more than no instance; 23: but covers it.
   * 25: its name without #1, svchost/0, matches the pattern of 24. */
  IS_STR(got, "1<0 4<3 5<3 9<8 11<10 15<14 17<16 23<22 25<24",
         "exactly the entries that can never dispatch anything");
  shadowed_text("- '\\Memory\\Pages/sec'\n", got, sizeof got);
  IS_STR(got, "", "a single entry: none");
}

/* The clashes of text as "entry<by:setting ..." (0-based). */
static void clashes_text(const char *text, char *out, size_t cap) {
  wp_counter_list list = {0};
  out[0] = '\0';
  if (!parse(text, &list))
    return;
  size_t n = wp_dedup_path_count(&list), w = 0, count = 0;
  uint32_t *g = calloc(n ? n : 1, sizeof *g);
  wp_clash *cl = NULL;
  if (g != NULL && wp_dedup_groups(&list, &formatted, g) == 0 &&
      wp_dedup_clashes(&list, &formatted, g, &cl, &count) == 0)
    for (size_t i = 0; i < count && w < cap; i++)
      w += (size_t)snprintf(out + w, cap - w, "%s%zu<%zu:%s", i ? " " : "",
                            cl[i].entry, cl[i].by, cl[i].setting);
  free(cl);
  free(g);
  wp_counters_free(&list);
}

static const char clashes[] =
    "- '\\Memory\\Pages/sec'\n"                                   /* 0 */
    "- path: '\\Memory\\Pages/sec'\n  scale: 1000\n"              /* 1 < 0 */
    "- path: '\\Memory\\Pages/sec'\n  raw: true\n"                /* 2 */
    "- path: '\\Memory\\Pages/sec'\n  raw: true\n  type: gauge\n" /* 3 < 0 */
    "- path: '\\Memory\\Pages/sec'\n  pair_by: name\n"            /* 4 < 0 */
    "- path: '\\Memory\\Pages/sec'\n  scale: 1000\n"
    "  type_instance: pages_k\n"             /* 5 */
    "- '\\Processor(*)\\% Processor Time'\n" /* 6 */
    "- path: '\\Processor(_Total)\\% Processor Time'\n"
    "  scale: 0.01\n"                                     /* 7 < 6 */
    "- path: '\\Processor(0)\\% Idle Time'\n  scale: 2\n" /* 8 */
    "- '\\Processor(*)\\% Idle Time'\n"                   /* 9 */
    "- '\\memory\\pages/sec'\n"                           /* 10 */
    "- path: '\\Processor(*)\\Interrupts/sec'\n  include: '^0$'\n"
    "- path: '\\Processor(0)\\Interrupts/sec'\n  scale: 2\n"; /* 12 */

static void test_clashes(void) {
  char got[512];
  clashes_text(clashes, got, sizeof got);
  /* 1 scale, 3 raw (both typed gauge), 4 the pairing of a formatted
   * value: each under 0's names with another value. 2 raw without a
   * type, 5 its own type_instance: other names. 7 under 6's names for
   * _Total. 9 covers 8 but comes later: told at dispatch only. 10 alike
   * 0: shadowed, no clash. 12: 11 has a filter. */
  IS_STR(got, "1<0:scale 3<0:raw 4<0:pair_by 7<6:scale",
         "exactly the entries that would send two values for one series");
  clashes_text("- '\\Memory\\Pages/sec'\n"
               "- path: '\\Memory\\Pages/sec'\n  raw: true\n",
               got, sizeof got);
  IS_STR(got, "", "formatted and raw of one counter: no clash");
}

int main(void) {
  test_settings();
  test_overrides();
  test_alone();
  test_shadowed();
  test_clashes();
  return tap_done();
}
