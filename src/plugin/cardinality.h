/* collectd-winperf: per-entry instance filters of the CountersFile
 * (include, exclude, total) and the keys of the cardinality block.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * No collectd header here (the YAML loader and the unit tests use it). The
 * selection calls the filter once per instance and interval
 * (pd_selection_set_instance_filter); the decision is computed once per
 * full instance name and kept in a table that only allocates when a name
 * appears, so a steady interval allocates nothing. The regular expressions
 * are POSIX extended with REG_ICASE (ASCII case folding), unanchored as
 * `grep -Ei`, matched against the full instance name in UTF-8. `_Total`
 * and `_Global_` (also as the last "/" part, e.g. Thread's "_Total/_Total")
 * are decided by `total` alone; include and exclude decide the others.
 */
#ifndef WP_PLUGIN_CARDINALITY_H
#define WP_PLUGIN_CARDINALITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* "_Total" or "_Global_", also as the part after the last '/'. */
bool wp_card_is_total(const char *full_name);

/* What the table keeps for one full instance name. */
typedef struct wp_card_inst {
  char *full; /* the key; the base name follows its NUL */
  const char *base;
  uint64_t seen; /* the interval it was last asked about */
  bool keep;
  bool total;
} wp_card_inst;

typedef struct wp_card wp_card;

/* The filters of e; NULL without memory (e's expressions were checked by
 * the loader, so nothing else fails). */
wp_card *wp_card_new(const wp_card_config *e);
void wp_card_free(wp_card *card);
/* A new interval begins (names not asked about for a while may go). */
void wp_card_begin(wp_card *card);
/* The decision for an instance: 1 keep, 0 leave out, -1 out of memory.
 * full "" (a single-instance object) is always kept. */
int wp_card_keep(wp_card *card, const char *full, const char *base);
/* What was decided for full (asked this interval), or NULL. */
const wp_card_inst *wp_card_lookup(const wp_card *card, const char *full);
/* Names kept in the table (for tests). */
size_t wp_card_size(const wp_card *card);

#endif
