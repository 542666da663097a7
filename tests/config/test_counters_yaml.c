/* collectd-winperf tests: the plugin's YAML counter list loader.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Every line:column below was counted by hand from the YAML text (1-based,
 * in characters); a path error points at the offending character.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counters_yaml.h"
#include "tap.h"

static char err[1024];

static int parse(const char *text, wp_counter_list *list) {
  wp_error e;
  wp_error_clear(&e);
  int rc = wp_counters_parse("t.yaml", text, strlen(text), list, &e);
  snprintf(err, sizeof(err), "%s", e.message);
  return rc;
}

static int load(const char *path, wp_counter_list *list) {
  wp_error e;
  wp_error_clear(&e);
  int rc = wp_counters_load(path, list, &e);
  snprintf(err, sizeof(err), "%s", e.message);
  return rc;
}

/* The error starts with `where` ("t.yaml:L:C: ") and contains `what`. */
static void check_error(const char *text, const char *where, const char *what,
                        const char *name) {
  wp_counter_list list = {(wp_counter_entry *)1, 99};
  int rc = parse(text, &list);
  IS_INT(rc, -1, "%s: rejected", name);
  OK(list.entries == NULL && list.count == 0, "%s: list left empty", name);
  if (!OK(strncmp(err, where, strlen(where)) == 0, "%s: at %s", name, where))
    tap_diag("  error: %s", err);
  if (!OK(strstr(err, what) != NULL, "%s: says \"%s\"", name, what))
    tap_diag("  error: %s", err);
}

/* The whole error message is `want`. */
static void check_exact(const char *text, const char *want, const char *name) {
  wp_counter_list list = {(wp_counter_entry *)1, 99};
  int rc = parse(text, &list);
  IS_INT(rc, -1, "%s: rejected", name);
  OK(list.entries == NULL && list.count == 0, "%s: list left empty", name);
  IS_STR(err, want, "%s: the message", name);
}

/* text parses into `count` entries (else the list is freed). */
static bool parses(const char *text, wp_counter_list *list, size_t count,
                   const char *name) {
  int rc = parse(text, list);
  IS_INT(rc, 0, "%s parse", name);
  if (rc == 0 && list->count == count)
    return true;
  tap_diag("  error: %s (%zu entries)", err, list->count);
  wp_counters_free(list);
  return false;
}

/* Alternatives and cardinality keys (doc/collectd-winperf.5). */
static void test_cardinality(void) {
  const char *text =
      "- path: ['\\Prozess(*)\\Arbeitsseite', '\\Process(svc*)\\*',\n"
      "         '\\230(*)\\180']\n"
      "  include: ^(svchost|w3wp)\n"
      "  exclude: '#[0-9]+$'\n"
      "  total: only\n"
      "  aggregate: avg\n"
      "  max_instances: 20\n"
      "- path: [\\Memory\\Available Bytes]\n"
      "  total: exclude\n"
      "  aggregate: max\n"
      "- {path: \\A(*)\\B, aggregate: sum, total: include, raw: false}\n"
      "- {path: \\A(*)\\B, aggregate: min, max_instances: 1}\n";
  wp_counter_list list;
  if (!parses(text, &list, 4, "cardinality keys"))
    return;
  const wp_counter_entry *e = list.entries;
  IS_STR(e[0].path, "\\Prozess(*)\\Arbeitsseite", "path list: the first path");
  IS_INT(e[0].alt_count, 2, "path list: two alternatives");
  IS_STR(e[0].alts[0].path, "\\Process(svc*)\\*", "the second path");
  OK(e[0].alts[0].instance_has_wildcard && e[0].alts[0].counter_has_wildcard,
     "the second path's wildcards");
  IS_STR(e[0].alts[1].path, "\\230(*)\\180", "the third path");
  OK(e[0].alts[1].instance_has_wildcard && !e[0].alts[1].counter_has_wildcard,
     "the third path's wildcards");
  IS_STR(e[0].card.include, "^(svchost|w3wp)", "include");
  IS_STR(e[0].card.exclude, "#[0-9]+$", "exclude");
  IS_INT(e[0].card.total, WP_TOTAL_ONLY, "total: only");
  IS_INT(e[0].card.aggregate, WP_AGG_AVG, "aggregate: avg");
  IS_INT(e[0].card.max_instances, 20, "max_instances: 20");
  IS_INT(e[1].alt_count, 0, "a list of one path: no alternative");
  IS_STR(e[1].path, "\\Memory\\Available Bytes", "a list of one path");
  OK(e[1].card.include == NULL && e[1].card.exclude == NULL, "no regex: NULL");
  IS_INT(e[1].card.total, WP_TOTAL_EXCLUDE, "total: exclude");
  IS_INT(e[1].card.aggregate, WP_AGG_MAX, "aggregate: max");
  IS_INT(e[1].card.max_instances, 0, "max_instances absent: 0");
  IS_INT(e[2].card.total, WP_TOTAL_INCLUDE, "total: include");
  IS_INT(e[2].card.aggregate, WP_AGG_SUM, "aggregate: sum with raw: false");
  IS_INT(e[3].card.aggregate, WP_AGG_MIN, "aggregate: min");
  IS_INT(e[3].card.max_instances, 1, "max_instances: 1");
  wp_counters_free(&list);

  check_exact("- path: []\n",
              "t.yaml:1:9: expected at least one counter path in the 'path' "
              "list, got an empty list",
              "empty path list");
  check_exact("- path: [\\A\\B, [x]]\n",
              "t.yaml:1:16: expected a counter path in the 'path' list, got "
              "a list",
              "a list in the path list");
  check_exact("- path: [\\A\\B, \\C(\\D]\n",
              "t.yaml:1:19: bad counter path '\\C(\\D' (column 3: "
              "unbalanced parenthesis: expected ')' closing the '(' at column "
              "2)",
              "a bad second path");
  check_exact("- path: \\A(*)\\B\n  include: '('\n",
              "t.yaml:2:12: expected a POSIX extended regular expression for "
              "'include', got '(' (Unmatched ( or \\()",
              "invalid include regex");
  check_exact("- path: \\A(*)\\B\n  exclude: 'a{2,1}'\n",
              "t.yaml:2:12: expected a POSIX extended regular expression for "
              "'exclude', got 'a{2,1}' (Invalid content of \\{\\})",
              "invalid exclude regex");
  static char long_re[1100];
  memset(long_re, 'a', 1001);
  char long_yaml[1200];
  snprintf(long_yaml, sizeof long_yaml, "- path: \\A(*)\\B\n  include: %s\n",
           long_re);
  check_exact(long_yaml,
              "t.yaml:2:12: expected a regular expression of at most 1000 "
              "bytes for 'include', got 1001 bytes",
              "a regex too long");
  /* regcomp copies the operand of '+' and {n,m}: stacked repetitions
   * would ask for 2^100 nodes (a fuzz finding, tests/fuzz/regressions). */
  char plus_yaml[256];
  snprintf(plus_yaml, sizeof plus_yaml,
           "- path: \\A(*)\\B\n  include: 'a%.100s'\n",
           "++++++++++++++++++++++++++++++++++++++++++++++++++"
           "++++++++++++++++++++++++++++++++++++++++++++++++++");
  check_exact(plus_yaml,
              "t.yaml:2:12: expected a regular expression whose repetitions "
              "expand to at most 2000 nodes for 'include', got "
              "'a+++++++++++++++++++++++++++++++++++++++++++++++++++++++++++' "
              "(stacked or nested '+' or {n,m})",
              "stacked '+' refused before regcomp");
  check_exact("- path: \\A(*)\\B\n  exclude: '(ab{100}){101}'\n",
              "t.yaml:2:12: expected a regular expression whose repetitions "
              "expand to at most 2000 nodes for 'exclude', got "
              "'(ab{100}){101}' (stacked or nested '+' or {n,m})",
              "nested bounds: (1 + 101 x 1 + 1 + 1) x 102 > 2000 refused");
  /* The second fuzz finding: 6143 nodes, each '+' doubling them, and
   * regcomp's time about their square (31 s under ASan). */
  check_exact("- path: \\A(*)\\B\n  include: 'Ce*+++++++++++e'\n",
              "t.yaml:2:12: expected a regular expression whose repetitions "
              "expand to at most 2000 nodes for 'include', got "
              "'Ce*+++++++++++e' (stacked or nested '+' or {n,m})",
              "2 x (2 x ... (2 x 2 + 1) ...) + 1 = 6143 > 2000 refused");
  static const char *const fine_re[] = {"^(svchost|w3wp)(#[0-9]{1,3})?$",
                                        "(((a+)+)+)+", "[[:alpha:]]+[]x]{2,64}",
                                        "a{1000}", "^_total$|idle"};
  for (size_t i = 0; i < sizeof(fine_re) / sizeof(fine_re[0]); i++) {
    char yaml[256];
    snprintf(yaml, sizeof yaml, "- path: \\A(*)\\B\n  include: '%s'\n",
             fine_re[i]);
    wp_counter_list fine;
    if (parses(yaml, &fine, 1, fine_re[i]))
      wp_counters_free(&fine);
  }
  check_exact("- path: \\A(*)\\B\n  exclude: ''\n",
              "t.yaml:2:12: expected a regular expression for 'exclude', got "
              "an empty value",
              "empty exclude");
  static const char *const bad_max[] = {"-1",  "0",   "abc",
                                        "1.5", "'5'", "1000000001"};
  for (size_t i = 0; i < sizeof(bad_max) / sizeof(bad_max[0]); i++) {
    char yaml[128], want[256], name[64];
    snprintf(yaml, sizeof(yaml), "- path: \\A(*)\\B\n  max_instances: %s\n",
             bad_max[i]);
    snprintf(want, sizeof(want),
             "t.yaml:2:18: expected a whole number from 1 to 1000000000 for "
             "'max_instances', got '%.*s'",
             bad_max[i][0] == '\'' ? 1 : (int)strlen(bad_max[i]),
             bad_max[i][0] == '\'' ? bad_max[i] + 1 : bad_max[i]);
    snprintf(name, sizeof(name), "max_instances: %s", bad_max[i]);
    check_exact(yaml, want, name);
  }
  check_exact("- path: \\A(*)\\B\n  total: maybe\n",
              "t.yaml:2:10: expected include, exclude or only for 'total', "
              "got 'maybe'",
              "unknown total");
  check_exact("- path: \\A(*)\\B\n  aggregate: median\n",
              "t.yaml:2:14: expected sum, avg, min or max for 'aggregate', "
              "got 'median'",
              "unknown aggregate");
  check_exact("- path: \\A(*)\\B\n  raw: true\n  aggregate: sum\n",
              "t.yaml:3:14: expected either 'aggregate' or 'raw: true', got "
              "both (an aggregate combines computed values)",
              "aggregate with raw: true");
  check_exact("- {aggregate: max, raw: yes, path: \\A(*)\\B}\n",
              "t.yaml:1:15: expected either 'aggregate' or 'raw: true', got "
              "both (an aggregate combines computed values)",
              "aggregate with raw: yes, flow style");
  check_exact("- path: \\A(*)\\B\n  max_instances: [1]\n",
              "t.yaml:2:18: expected a single value for 'max_instances', got "
              "a list",
              "max_instances as a list");
}

static void test_valid(void) {
  const char *text = "# counters\n"
                     "- \\Processor(*)\\% Processor Time\n"
                     "- '\\Memory\\Available Bytes'\n"
                     "- path: \\System\\Processes\n"
                     "  type: gauge\n"
                     "  plugin_instance: sys\n"
                     "  type_instance: procs\n"
                     "  scale: 0.5\n"
                     "  raw: true\n"
                     "- {path: '\\Process(svchost#1)\\*', raw: off}\n"
                     "- path: \\LogicalDisk(C:)\\Free Megabytes\n"
                     "  plugin_instance: ''\n";
  wp_counter_list list;
  int rc = parse(text, &list);
  IS_INT(rc, 0, "valid file parses");
  if (rc != 0) {
    tap_diag("  error: %s", err);
    return;
  }
  IS_INT(list.count, 5, "five entries");
  if (list.count != 5)
    return;
  const wp_counter_entry *e = list.entries;
  IS_STR(e[0].path, "\\Processor(*)\\% Processor Time", "plain path");
  IS_INT(e[0].line, 2, "entry 0 line");
  IS_INT(e[0].column, 3, "entry 0 column");
  OK(e[0].instance_has_wildcard && !e[0].counter_has_wildcard,
     "entry 0: instance wildcard only");
  OK(e[0].type == NULL && e[0].plugin_instance == NULL &&
         e[0].type_instance == NULL,
     "entry 0: no overrides");
  IS_DOUBLE(e[0].scale, 1.0, "entry 0: scale defaults to 1");
  IS_INT(e[0].raw, -1, "entry 0: raw unset");
  IS_STR(e[1].path, "\\Memory\\Available Bytes", "quoted path");
  IS_INT(e[2].line, 4, "entry 2 line");
  IS_INT(e[2].column, 3, "entry 2 column");
  IS_STR(e[2].path, "\\System\\Processes", "mapping path");
  IS_STR(e[2].type, "gauge", "type");
  IS_INT(e[2].type_line, 5, "type line");
  IS_INT(e[2].type_column, 9, "type column");
  IS_STR(e[2].plugin_instance, "sys", "plugin_instance");
  IS_STR(e[2].type_instance, "procs", "type_instance");
  IS_DOUBLE(e[2].scale, 0.5, "scale");
  IS_INT(e[2].raw, 1, "raw true");
  IS_STR(e[3].path, "\\Process(svchost#1)\\*", "flow mapping path");
  OK(!e[3].instance_has_wildcard && e[3].counter_has_wildcard,
     "entry 3: counter wildcard only");
  IS_INT(e[3].raw, 0, "raw off");
  IS_INT(e[3].line, 10, "flow entry line");
  IS_INT(e[3].column, 3, "flow entry column");
  IS_STR(e[4].plugin_instance, "", "empty plugin_instance allowed");
  wp_counters_free(&list);
  OK(list.entries == NULL && list.count == 0, "free empties the list");
}

static void test_errors(void) {
  check_error("- path: \\A\\B\n  colour: red\n", "t.yaml:2:3: ",
              "unknown key 'colour' (expected path, type, plugin_instance, "
              "type_instance, scale, raw, include, exclude, total, aggregate, "
              "max_instances, pair_by, instance_names or metric_names)",
              "unknown key");
  check_error("- path: \\A\\B\n  type: gauge\n  type: derive\n",
              "t.yaml:3:3: ", "duplicate key 'type'", "duplicate key");
  check_error("path: \\A\\B\n",
              "t.yaml:1:1: ", "expected a list of counter paths",
              "top-level mapping");
  check_error("\\A\\B\n", "t.yaml:1:1: ", "expected a list of counter paths",
              "top-level scalar");
  check_error("", "t.yaml:1:1: ", "got an empty file", "empty file");
  check_error("# only a comment\n", "t.yaml:2:1: ", "got an empty file",
              "comment only");
  check_error("[]\n", "t.yaml:1:1: ", "got an empty list", "empty list");
  check_error("- \\A\\B\n- [a, b]\n", "t.yaml:2:3: ",
              "expected a counter path or a mapping with 'path' as a list "
              "entry, got a list",
              "nested list");
  check_error("- type: gauge\n", "t.yaml:1:3: ", "expected a 'path' key",
              "mapping without path");
  check_error("- path: \\A\\B\n  scale: lots\n", "t.yaml:2:10: ",
              "expected a finite number for 'scale' (e.g. 0.001), got 'lots'",
              "scale not a number");
  check_error("- path: \\A\\B\n  scale: '2'\n",
              "t.yaml:2:10: ", "expected a finite number for 'scale'",
              "quoted scale");
  check_error("- path: \\A\\B\n  scale: .inf\n",
              "t.yaml:2:10: ", "expected a finite number for 'scale'",
              "infinite scale");
  check_error("- path: \\A\\B\n  raw: maybe\n",
              "t.yaml:2:8: ", "expected true or false for 'raw', got 'maybe'",
              "raw not bool");
  check_error("- path: \\A\\B\n  type:\n",
              "t.yaml:2:8: ", "expected a value for 'type'", "empty type");
  check_error("- path: {a: b}\n", "t.yaml:1:9: ",
              "expected a single value for 'path', got a mapping",
              "path is a mapping");
  check_error("- \\A\\B\n---\n- \\C\\D\n",
              "t.yaml:2:1: ", "got a second document", "two documents");
  check_error("- &a \\A\\B\n- *a\n", "t.yaml:2:3: ", "got an alias (*a)",
              "alias");
  check_error("- 'unterminated\n", "t.yaml:", "YAML syntax error",
              "syntax error");
  check_error("- \\A\\B\n- ]\n", "t.yaml:2:3: ",
              "YAML syntax error: did not find expected node content",
              "stray ']'");
  check_error("- \\A\\B\n\t- \\C\\D\n",
              "t.yaml:2:1: ", "YAML syntax error: found a tab character",
              "tab indentation");
  /* Path syntax: the column is the offending character of the path. */
  check_error("- Processor\\X\n",
              "t.yaml:1:3: ", "bad counter path 'Processor\\X'",
              "path without leading \\");
  check_error("- \\A\\B\n- \\Processor()\\X\n",
              "t.yaml:2:14: ", "empty instance name",
              "empty instance: column of ')'");
  check_error("- path: '\\Proc*\\X'\n",
              "t.yaml:1:15: ", "wildcards are not allowed in the object name",
              "quoted: column of '*'");
  check_error("- \\\xc3\x96(a)x\\Y\n",
              "t.yaml:1:8: ", "after the instance's ')'",
              "UTF-8 counted as characters");
  check_error("- path: ''\n", "t.yaml:1:9: ", "got an empty value",
              "empty path");
}

static void test_file(void) {
  char dir[] = "/tmp/wp-yaml-XXXXXX";
  if (!OK(mkdtemp(dir) != NULL, "temp dir"))
    return;
  char path[256];
  snprintf(path, sizeof(path), "%s/counters.yaml", dir);
  FILE *f = fopen(path, "w");
  fputs("- \\System\\Processes\n- path: \\A\n", f);
  fclose(f);
  wp_counter_list list;
  int rc = load(path, &list);
  IS_INT(rc, -1, "file with a bad path rejected");
  char want[300];
  snprintf(want, sizeof(want), "%s:2:11: bad counter path", path);
  if (!OK(strncmp(err, want, strlen(want)) == 0, "error names the file"))
    tap_diag("  error: %s", err);

  f = fopen(path, "w");
  fputs("- \\System\\Processes\n", f);
  fclose(f);
  rc = load(path, &list);
  IS_INT(rc, 0, "good file loads");
  IS_INT(list.count, 1, "one entry");
  wp_counters_free(&list);
  unlink(path);

  rc = load(path, &list);
  IS_INT(rc, -1, "missing file rejected");
  snprintf(want, sizeof(want), "%s: cannot open: ", path);
  if (!OK(strncmp(err, want, strlen(want)) == 0, "missing file named"))
    tap_diag("  error: %s", err);
  rmdir(dir);
}

/* The shipped example must load. */
static void test_example(void) {
  const char *top = getenv("top_srcdir");
  if (!OK(top != NULL, "top_srcdir set (run by make check)"))
    return;
  char path[1024];
  snprintf(path, sizeof(path), "%s/conf/winperf.yaml", top);
  wp_counter_list list;
  int rc = load(path, &list);
  if (!OK(rc == 0, "conf/winperf.yaml loads"))
    tap_diag("  error: %s", err);
  IS_INT(list.count, 18, "conf/winperf.yaml: 18 entries");
  wp_counters_free(&list);
}

/* pair_by, instance_names, metric_names: absent -1, else the value;
 * anything else is an error at the value naming both choices. */
static void test_naming_keys(void) {
  wp_counter_list list;
  if (parse("- \\A\\B\n- path: \\Process(*)\\ID Process\n  pair_by: name\n"
            "  instance_names: pid\n  metric_names: clean\n- {path: \\C\\D, "
            "pair_by: ID, instance_names: 'PDH', metric_names: Pdh}\n",
            &list) != 0 ||
      !OK(list.count == 3, "naming keys: three entries parse")) {
    tap_diag("  error: %s", err);
    return;
  }
  const wp_counter_entry *e = list.entries;
  OK(e[0].pair_by == -1 && e[0].instance_names == -1 && e[0].metric_names == -1,
     "absent: -1 (the block's option)");
  IS_INT(e[1].pair_by, 1, "pair_by: name is 1 (PD_PAIR_BY_FULL_NAME)");
  IS_INT(e[1].instance_names, 1, "instance_names: pid is 1");
  IS_INT(e[1].metric_names, 1, "metric_names: clean is 1");
  IS_INT(e[2].pair_by, 0, "pair_by: ID (any case) is 0 (by id)");
  IS_INT(e[2].instance_names, 0, "instance_names: 'PDH' quoted is 0");
  IS_INT(e[2].metric_names, 0, "metric_names: Pdh is 0");
  wp_counters_free(&list);

  check_error("- path: \\A\\B\n  metric_names: foo\n", "t.yaml:2:17: ",
              "expected pdh or clean for 'metric_names', got 'foo'",
              "metric_names: foo");
  check_error("- path: \\A\\B\n  instance_names: clean\n", "t.yaml:2:19: ",
              "expected pdh or pid for 'instance_names', got 'clean'",
              "instance_names: clean");
  check_error("- path: \\A\\B\n  pair_by: pid\n",
              "t.yaml:2:12: ", "expected id or name for 'pair_by', got 'pid'",
              "pair_by: pid");
  check_error("- path: \\A\\B\n  pair_by: [id]\n", "t.yaml:2:12: ",
              "expected a single value for 'pair_by', got a list",
              "pair_by: a list");
  check_error("- path: \\A\\B\n  metric_names:\n", "t.yaml:2:16: ",
              "expected pdh or clean for 'metric_names', got ''",
              "metric_names: empty");
  check_error("- path: \\A\\B\n  metric_names: clean\n  metric_names: pdh\n",
              "t.yaml:3:3: ", "duplicate key 'metric_names'",
              "metric_names twice");
}

int main(void) {
  test_valid();
  test_errors();
  test_naming_keys();
  test_cardinality();
  test_file();
  test_example();
  return tap_done();
}
