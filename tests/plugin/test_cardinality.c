/* collectd-winperf tests: the CountersFile's instance filters
 * (cardinality.c) and the grouping for aggregate and max_instances
 * (aggregate.c), without collectd.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "cardinality.h"
#include "tap.h"

/* A filter from keys written as the loader would set them. */
static wp_card *card_of(const char *include, const char *exclude, int total) {
  wp_card_config cfg = {0};
  char why[256];
  if (include != NULL &&
      wp_card_set_key(&cfg, WP_CARD_KEY_INCLUDE, include, strlen(include), true,
                      why, sizeof why) != 0)
    tap_diag("include: %s", why);
  if (exclude != NULL &&
      wp_card_set_key(&cfg, WP_CARD_KEY_EXCLUDE, exclude, strlen(exclude), true,
                      why, sizeof why) != 0)
    tap_diag("exclude: %s", why);
  cfg.total = total;
  wp_card *card = wp_card_new(&cfg);
  wp_card_config_clear(&cfg);
  return card;
}

/* "name=decision" for each name, space-separated. */
static void decide(wp_card *card, const char *const *names, char *out,
                   size_t cap) {
  out[0] = '\0';
  for (size_t i = 0; names[i] != NULL; i++) {
    size_t at = strlen(out);
    snprintf(out + at, cap - at, "%s%s=%d", at ? " " : "", names[i],
             wp_card_keep(card, names[i], names[i]));
  }
}

static void test_filters(void) {
  static const char *const names[] = {
      "svchost",  "SVCHOST#1",     "w3wp",  "svchost#12", "_Total", "_total",
      "_Global_", "chrome/_Total", "Ärger", "ärger",      "",       NULL};
  char got[512];
  wp_card *c = card_of("^svc|ä", "#[0-9]{2}$", WP_TOTAL_INCLUDE);
  decide(c, names, got, sizeof got);
  /* ^svc folds ASCII case; 'ä' matches only its own bytes (no folding
   * outside ASCII); #12 excluded; totals by `total` alone; "" (a single
   * instance) always kept. */
  IS_STR(got,
         "svchost=1 SVCHOST#1=1 w3wp=0 svchost#12=0 _Total=1 _total=1 "
         "_Global_=1 chrome/_Total=1 Ärger=0 ärger=1 =1",
         "include ^svc|ä, exclude #[0-9]{2}$, total include");
  IS_INT(wp_card_size(c), 10, "one decision kept per name (\"\" not kept)");
  const wp_card_inst *in = wp_card_lookup(c, "SVCHOST#1");
  OK(in && in->keep && !in->total, "lookup: SVCHOST#1 kept, not a total");
  OK(wp_card_lookup(c, "nobody") == NULL, "lookup: an unknown name");
  wp_card_free(c);

  c = card_of(NULL, NULL, WP_TOTAL_ONLY);
  decide(c, names, got, sizeof got);
  IS_STR(got,
         "svchost=0 SVCHOST#1=0 w3wp=0 svchost#12=0 _Total=1 _total=1 "
         "_Global_=1 chrome/_Total=1 Ärger=0 ärger=0 =1",
         "total only");
  wp_card_free(c);
  c = card_of("^x", NULL, WP_TOTAL_EXCLUDE);
  decide(c, names, got, sizeof got);
  IS_STR(got,
         "svchost=0 SVCHOST#1=0 w3wp=0 svchost#12=0 _Total=0 _total=0 "
         "_Global_=0 chrome/_Total=0 Ärger=0 ärger=0 =1",
         "total exclude");
  wp_card_free(c);
}

/* Names come and go: the table keeps what was asked in this or the last
 * interval and drops the rest when it needs room. */
static void test_churn(void) {
  wp_card *c = card_of(NULL, "^x", WP_TOTAL_INCLUDE);
  size_t most = 0;
  for (int round = 0; round < 200; round++) {
    wp_card_begin(c);
    for (int i = 0; i < 5; i++) {
      char name[32];
      snprintf(name, sizeof name, "job-%d", round * 5 + i);
      wp_card_keep(c, name, name);
    }
    wp_card_keep(c, "steady", "steady");
    if (wp_card_size(c) > most)
      most = wp_card_size(c);
  }
  OK(most <= 32, "1000 names over 200 intervals: at most %zu kept", most);
  const wp_card_inst *in = wp_card_lookup(c, "steady");
  OK(in != NULL && in->keep, "a name asked every interval stays");
  IS_STR(in ? in->base : "", "steady", "its base name is kept");
  wp_card_free(c);
}

static pd_result res(const char *instance, uint32_t counter, double value,
                     bool ok) {
  pd_result r;
  memset(&r, 0, sizeof r);
  r.instance = instance;
  r.counter_index = counter;
  r.value = value;
  r.status = ok ? PD_VALUE_OK : PD_VALUE_FIRST_SAMPLE;
  return r;
}

/* "name:counter=value/n" per item. */
static void items_text(const wp_agg *a, char *out, size_t cap) {
  out[0] = '\0';
  for (size_t i = 0; i < a->count; i++) {
    size_t at = strlen(out);
    snprintf(out + at, cap - at, "%s%s:%u=%g/%zu", at ? " " : "",
             a->items[i].name, a->items[i].r->counter_index, a->items[i].value,
             a->items[i].n);
  }
}

static void test_aggregate(void) {
  /* Full name, base name, total, value (w3wp's first sample has none). */
  pd_result r[] = {
      res("svchost", 6, 10, true),  res("svchost#1", 6, 20, true),
      res("w3wp", 6, 0, false),     res("svchost#2", 6, 60, true),
      res("_Total", 6, 200, true),  res("svchost", 7, 1, true),
      res("svchost#1", 7, 2, true),
  };
  static const char *const base[] = {"svchost", "svchost", "w3wp",   "svchost",
                                     "_Total",  "svchost", "svchost"};
  static const struct {
    int mode;
    const char *want;
  } cases[] = {
      {WP_AGG_SUM, "_Total:6=0/0 svchost:6=90/3 svchost:7=3/2 w3wp:6=0/0"},
      {WP_AGG_AVG, "_Total:6=0/0 svchost:6=30/3 svchost:7=1.5/2 w3wp:6=0/0"},
      {WP_AGG_MIN, "_Total:6=0/0 svchost:6=10/3 svchost:7=1/2 w3wp:6=0/0"},
      {WP_AGG_MAX, "_Total:6=0/0 svchost:6=60/3 svchost:7=2/2 w3wp:6=0/0"},
  };
  wp_agg a = {0};
  char got[512];
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    wp_agg_begin(&a, cases[k].mode, 0);
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
      wp_agg_add(&a, &r[i], r[i].instance, base[i], i == 4);
    wp_agg_finish(&a);
    items_text(&a, got, sizeof got);
    /* _Total is its own item (n 0, value unused: its own result is
     * dispatched); w3wp has no
     * value: n 0, nothing dispatched. */
    IS_STR(got, cases[k].want, "aggregate mode %d, by base name and counter",
           cases[k].mode);
  }
  /* max_instances 1 after aggregation: svchost only; _Total uncounted. */
  wp_agg_begin(&a, WP_AGG_SUM, 1);
  for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
    wp_agg_add(&a, &r[i], r[i].instance, base[i], i == 4);
  wp_agg_finish(&a);
  items_text(&a, got, sizeof got);
  IS_STR(got, "_Total:6=0/0 svchost:6=90/3 svchost:7=3/2",
         "sum, max_instances 1: the first aggregated name and _Total");
  OK(a.names == 2 && a.dropped == 1, "2 names, 1 left out (%zu, %zu)", a.names,
     a.dropped);
  /* No aggregate, max_instances 2: svchost, svchost#1 (byte order). */
  wp_agg_begin(&a, WP_AGG_NONE, 2);
  for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
    wp_agg_add(&a, &r[i], r[i].instance, base[i], i == 4);
  wp_agg_finish(&a);
  items_text(&a, got, sizeof got);
  IS_STR(got,
         "_Total:6=0/0 svchost:6=0/0 svchost:7=0/0 svchost#1:6=0/0 "
         "svchost#1:7=0/0",
         "max_instances 2 alone: full names in byte order");
  OK(a.names == 4 && a.dropped == 2, "4 names, 2 left out (%zu, %zu)", a.names,
     a.dropped);
  wp_agg_free(&a);
}

int main(void) {
  test_filters();
  test_churn();
  test_aggregate();
  return tap_done();
}
