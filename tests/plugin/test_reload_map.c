/* collectd-winperf tests: old and new counter list entries paired on a
 * reload (src/plugin/reload_map.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The lists come from the real YAML loader. The expected maps are written
 * by hand: an entry is kept when the old list has one with the same path
 * and the same keys, wherever it stood; every old entry is used once.
 */
#include "reload_map.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE WP_RELOAD_NONE

static wp_counter_list parse(const char *yaml) {
  wp_counter_list l = {0};
  wp_error err;
  if (wp_counters_parse("t.yaml", yaml, strlen(yaml), &l, &err) != 0) {
    printf("Bail out! %s\n", err.message);
    exit(1);
  }
  return l;
}

/* map `now` against `old`; compare with want[] and the kept count. */
static void check(const char *what, const char *old_yaml, const char *now_yaml,
                  const size_t *want, size_t n, size_t want_kept) {
  wp_counter_list old = parse(old_yaml), now = parse(now_yaml);
  size_t map[16];
  size_t kept = 99;
  IS_INT(now.count, n, "%s: %zu new entries", what, n);
  IS_INT(wp_reload_map(&old, &now, map, &kept), 0, "%s: mapped", what);
  bool same = now.count == n;
  for (size_t i = 0; same && i < n; i++)
    if (map[i] != want[i]) {
      tap_diag("  entry %zu: got %zd, want %zd", i, (ssize_t)map[i],
               (ssize_t)want[i]);
      same = false;
    }
  OK(same, "%s: the map", what);
  IS_INT(kept, want_kept, "%s: %zu kept", what, want_kept);
  wp_counters_free(&old);
  wp_counters_free(&now);
}

static void test_lists(void) {
  static const size_t m1[] = {2, NONE, 0};
  check("one added, one removed, two moved",
        "- '\\A\\x'\n- '\\B\\x'\n"
        "- '\\C\\x'\n",
        "- '\\C\\x'\n- '\\D\\x'\n- '\\A\\x'\n", m1, 3, 2);
  static const size_t m2[] = {NONE, NONE, NONE, 3, NONE};
  check("a changed key is a new entry",
        "- path: '\\A\\x'\n  type_instance: one\n"
        "- path: '\\B\\x'\n  type: bytes\n"
        "- path: '\\C\\x'\n  scale: 2\n"
        "- path: '\\D\\x'\n  scale: 1\n"
        "- path: '\\E\\x'\n  raw: true\n",
        "- path: '\\A\\x'\n  type_instance: two\n"
        "- path: '\\B\\x'\n  type: gauge\n"
        "- path: '\\C\\x'\n  scale: 3\n"
        "- '\\D\\x'\n" /* scale 1 written or not: the same */
        "- path: '\\E\\x'\n  raw: false\n",
        m2, 5, 1);
  static const size_t m3[] = {0, 1, 2, 3};
  check("the same keys in another order and spelling",
        "- path: '\\A\\x'\n  type: bytes\n  plugin_instance: p\n"
        "- path: '\\B\\x'\n  plugin_instance: q\n"
        "- path: '\\C(*)\\x'\n  raw: true\n"
        "- '\\D\\x'\n",
        "- {type: bytes, plugin_instance: p, path: '\\A\\x'}\n"
        "- plugin_instance: q\n  path: '\\B\\x'\n"
        "- {path: '\\C(*)\\x', raw: true}\n"
        "- path: '\\D\\x'\n",
        m3, 4, 4);
  static const size_t m4[] = {0, 2, NONE, 1};
  check("a duplicate maps to the old list's copies in order, once each",
        "- '\\A\\x'\n- '\\B\\x'\n- '\\A\\x'\n",
        "- '\\A\\x'\n- '\\A\\x'\n- '\\A\\x'\n- '\\B\\x'\n", m4, 4, 3);
  static const size_t m6[] = {NONE, NONE, NONE, 3};
  check("each naming key changed is another entry",
        "- path: '\\A\\x'\n  pair_by: id\n"
        "- path: '\\B\\x'\n  instance_names: pdh\n"
        "- path: '\\C\\x'\n  metric_names: pdh\n"
        "- path: '\\D\\x'\n  metric_names: clean\n",
        "- path: '\\A\\x'\n  pair_by: name\n"
        "- path: '\\B\\x'\n  instance_names: pid\n"
        "- '\\C\\x'\n" /* absent: the block's, not pdh */
        "- path: '\\D\\x'\n  metric_names: clean\n",
        m6, 4, 1);
  static const size_t m5[] = {NONE};
  check("a path differing in case only is another entry", "- '\\A\\x'\n",
        "- '\\a\\x'\n", m5, 1, 0);
}

/* 3000 entries reversed, half of them with a changed key: the table's
 * probing (every path hashes somewhere in a table of 8192 slots). */
static void test_large(void) {
  enum { N = 3000 };
  char *a = malloc(N * 48), *b = malloc(N * 64);
  size_t *map = malloc(N * sizeof(*map));
  if (a == NULL || b == NULL || map == NULL) {
    printf("Bail out! out of memory\n");
    exit(1);
  }
  size_t la = 0, lb = 0;
  for (int i = 0; i < N; i++)
    la += (size_t)sprintf(a + la, "- '\\O%d\\c'\n", i);
  for (int i = N - 1; i >= 0; i--)
    lb += (size_t)(i % 2 ? sprintf(b + lb, "- '\\O%d\\c'\n", i)
                         : sprintf(b + lb, "- {path: '\\O%d\\c', scale: 2}\n",
                                   i));
  wp_counter_list old = parse(a), now = parse(b);
  size_t kept = 0;
  IS_INT(wp_reload_map(&old, &now, map, &kept), 0, "3000 entries: mapped");
  bool ok = now.count == N;
  for (size_t k = 0; ok && k < N; k++) {
    size_t i = N - 1 - k; /* new entry k is old entry i */
    if (map[k] != (i % 2 ? i : NONE))
      ok = false;
  }
  OK(ok, "3000 entries reversed: the odd ones kept at their old index, the "
         "even ones (scale changed) new");
  IS_INT(kept, N / 2, "3000 entries: 1500 kept");
  wp_counters_free(&old);
  wp_counters_free(&now);
  free(a);
  free(b);
  free(map);
}

int main(void) {
  test_lists();
  test_large();
  return tap_done();
}
