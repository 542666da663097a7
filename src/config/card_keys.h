/* collectd-winperf: the cardinality keys of a counter list entry
 * (include, exclude, total, aggregate, max_instances).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * What the YAML loader (counters_yaml.h) reads and checks; the plugin's
 * filters that apply them each interval are src/plugin/cardinality.h.
 * The regular expressions are POSIX extended with REG_ICASE (ASCII case
 * folding), unanchored as `grep -Ei`, matched against the full instance
 * name in UTF-8.
 */
#ifndef WP_CONFIG_CARD_KEYS_H
#define WP_CONFIG_CARD_KEYS_H

#include <stdbool.h>
#include <stddef.h>

/* How every include/exclude regex is compiled (loader and filters; each
 * includes <regex.h> itself, so that this header needs none: the winperf
 * tool includes it, and on Windows only gnulib has <regex.h>). */
#define WP_CARD_RE_FLAGS (REG_EXTENDED | REG_ICASE | REG_NOSUB)

/* total: what happens to the _Total and _Global_ instances. */
enum { WP_TOTAL_INCLUDE = 0, WP_TOTAL_EXCLUDE, WP_TOTAL_ONLY };
/* aggregate: how same-named instances are folded into one value. */
enum { WP_AGG_NONE = 0, WP_AGG_SUM, WP_AGG_AVG, WP_AGG_MIN, WP_AGG_MAX };

/* One CountersFile entry's cardinality keys. */
typedef struct wp_card_config {
  char *include; /* POSIX extended regexes (REG_ICASE); NULL: absent */
  char *exclude;
  int total;                   /* WP_TOTAL_* */
  int aggregate;               /* WP_AGG_* */
  unsigned long max_instances; /* 0: no cap */
} wp_card_config;

/* The YAML keys, in the order of the loader's key table. */
typedef enum wp_card_key {
  WP_CARD_KEY_INCLUDE = 0,
  WP_CARD_KEY_EXCLUDE,
  WP_CARD_KEY_TOTAL,
  WP_CARD_KEY_AGGREGATE,
  WP_CARD_KEY_MAX_INSTANCES,
} wp_card_key;

/* Set one key of e from its YAML scalar (text of len bytes; plain: written
 * without quotes). 0; -1 with "expected ..., got ..." in why; -2 out of
 * memory. A regular expression is compiled once here to check it. */
int wp_card_set_key(wp_card_config *e, wp_card_key key, const char *text,
                    size_t len, bool plain, char *why, size_t whylen);

/* Whether e uses any cardinality key (then it needs a wp_card). */
bool wp_card_wanted(const wp_card_config *e);
/* Free what the keys hold (the regexes' text). */
void wp_card_config_clear(wp_card_config *e);

#endif
