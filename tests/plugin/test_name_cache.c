/* collectd-winperf tests: the names kept from one interval to the next
 * (src/plugin/name_cache.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Keys are found again with the names they were put with; keys that differ
 * in one byte or in length are others; the table grows past its first 64
 * slots with every key still found; a key unused for WP_NAME_CACHE_KEEP
 * intervals is dropped at the next sweep while keys in use stay; clear
 * empties it.
 */
#include "name_cache.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>

static const wp_name_slot *find(wp_name_cache *nc, const char *key) {
  size_t n = strlen(key);
  return wp_name_cache_find(nc, key, n, wp_name_cache_hash(key, n));
}

static const wp_name_slot *put(wp_name_cache *nc, const char *key,
                               const char *pi, const char *ti) {
  size_t n = strlen(key);
  return wp_name_cache_put(nc, key, n, wp_name_cache_hash(key, n), pi, ti,
                           "gauge");
}

static void test_find_put(void) {
  wp_name_cache nc = {0};
  OK(find(&nc, "Process\001w3wp") == NULL, "an empty cache finds nothing");
  OK(put(&nc, "Process\001w3wp", "Process-w3wp", "% Processor Time") != NULL,
     "put");
  const wp_name_slot *s = find(&nc, "Process\001w3wp");
  OK(s != NULL, "found again");
  IS_STR(s ? wp_name_slot_plugin_instance(s) : "", "Process-w3wp",
         "its plugin_instance");
  IS_STR(s ? wp_name_slot_type_instance(s) : "", "% Processor Time",
         "its type_instance");
  IS_STR(s ? s->type : "", "gauge", "its type");
  OK(find(&nc, "Process\001w3wq") == NULL, "a key one byte off is another");
  OK(find(&nc, "Process\001w3w") == NULL, "a shorter key is another");
  OK(find(&nc, "Process\001w3wp#1") == NULL, "a longer key is another");
  OK(wp_name_cache_hash("", 0) != 0 && wp_name_cache_hash("a", 1) != 0,
     "hashes are never 0 (the empty slot's mark)");
  OK(wp_name_cache_hash("abcdefgh1", 9) != wp_name_cache_hash("abcdefgh2", 9),
     "the tail after the last 8 bytes counts");
  wp_name_cache_free(&nc);
}

static void test_growth(void) {
  wp_name_cache nc = {0};
  char key[32], pi[32];
  for (int i = 0; i < 5000; i++) {
    snprintf(key, sizeof key, "Thread\001explorer/%d", i);
    snprintf(pi, sizeof pi, "Thread-explorer/%d", i);
    put(&nc, key, pi, "Thread State");
  }
  IS_INT(nc.count, 5000, "5000 keys kept");
  OK(nc.cap >= 10000, "the table grew to twice the keys or more (%zu)", nc.cap);
  int found = 0;
  for (int i = 0; i < 5000; i++) {
    snprintf(key, sizeof key, "Thread\001explorer/%d", i);
    snprintf(pi, sizeof pi, "Thread-explorer/%d", i);
    const wp_name_slot *s = find(&nc, key);
    found += s != NULL && strcmp(wp_name_slot_plugin_instance(s), pi) == 0;
  }
  IS_INT(found, 5000, "every key found with its own names after the growth");
  wp_name_cache_clear(&nc);
  IS_INT(nc.count, 0, "clear: nothing kept");
  OK(find(&nc, "Thread\001explorer/7") == NULL, "clear: nothing found");
  wp_name_cache_free(&nc);
}

static void test_sweep(void) {
  wp_name_cache nc = {0};
  put(&nc, "kept", "k", "k");
  put(&nc, "gone", "g", "g");
  int kept_all = 1;
  for (int i = 0; i < 2 * WP_NAME_CACHE_KEEP; i++) {
    wp_name_cache_tick(&nc);
    kept_all &= find(&nc, "kept") != NULL;
  }
  OK(kept_all, "a key used every interval stays through the sweeps");
  OK(find(&nc, "gone") == NULL,
     "a key unused for %d intervals is dropped at the sweep",
     WP_NAME_CACHE_KEEP);
  IS_INT(nc.count, 1, "one key left");
  put(&nc, "gone", "g2", "g2");
  const wp_name_slot *s = find(&nc, "gone");
  IS_STR(s ? wp_name_slot_plugin_instance(s) : "", "g2",
         "a dropped key put again has its new names");
  wp_name_cache_free(&nc);
}

static void test_positions(void) {
  wp_name_cache nc = {0};
  OK(wp_name_cache_positions(&nc, 4), "room for 4 positions");
  OK(wp_name_cache_at(&nc, 2, "a", 1) == NULL, "no hint yet: nothing");
  wp_name_cache_remember(&nc, 2, put(&nc, "a", "pa", "ta"));
  const wp_name_slot *s = wp_name_cache_at(&nc, 2, "a", 1);
  IS_STR(s ? wp_name_slot_plugin_instance(s) : "", "pa",
         "position 2 finds its key without a hash");
  OK(wp_name_cache_at(&nc, 2, "b", 1) == NULL,
     "position 2 with another key: nothing (the key decides)");
  OK(wp_name_cache_at(&nc, 9, "a", 1) == NULL,
     "a position beyond the room: nothing");
  /* Growth moves every slot: a hint then finds its key or nothing. */
  char key[16];
  for (int i = 0; i < 300; i++) {
    snprintf(key, sizeof key, "k%d", i);
    put(&nc, key, key, key);
  }
  s = wp_name_cache_at(&nc, 2, "a", 1);
  OK(s == NULL || strcmp(wp_name_slot_plugin_instance(s), "pa") == 0,
     "after the table grew, the old hint finds the key's own names or "
     "nothing");
  OK(find(&nc, "a") != NULL, "and the key is still found by hash");
  OK(wp_name_cache_positions(&nc, 1000), "room for 1000 positions");
  OK(wp_name_cache_at(&nc, 999, "a", 1) == NULL, "a new position: no hint");
  wp_name_cache_free(&nc);
}

int main(void) {
  test_positions();
  test_find_put();
  test_growth();
  test_sweep();
  return tap_done();
}
