/* collectd-winperf: per-entry instance filters (cardinality.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "cardinality.h"
#include "wp_grow.h"
#include "wp_hash.h"
#include "wp_table.h"

#include <assert.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct wp_card {
  regex_t include, exclude;
  bool has_include, has_exclude;
  int total;           /* WP_TOTAL_* */
  wp_card_inst **inst; /* the names decided, in the order asked */
  size_t count, cap;
  wp_table index; /* inst + 1, by the full name's hash */
  uint64_t gen;   /* the current interval */
};

bool wp_card_is_total(const char *full_name) {
  const char *slash = strrchr(full_name, '/');
  const char *name = slash ? slash + 1 : full_name;
  return strcasecmp(name, "_Total") == 0 || strcasecmp(name, "_Global_") == 0;
}

wp_card *wp_card_new(const wp_card_config *e) {
  wp_card *card = calloc(1, sizeof(*card));
  if (card == NULL)
    return NULL;
  card->total = e->total;
  card->gen = 1;
  if (e->include != NULL) {
    if (regcomp(&card->include, e->include, WP_CARD_RE_FLAGS) != 0) {
      free(card);
      return NULL;
    }
    card->has_include = true;
  }
  if (e->exclude != NULL) {
    if (regcomp(&card->exclude, e->exclude, WP_CARD_RE_FLAGS) != 0) {
      wp_card_free(card);
      return NULL;
    }
    card->has_exclude = true;
  }
  return card;
}

void wp_card_free(wp_card *card) {
  if (card == NULL)
    return;
  if (card->has_include)
    regfree(&card->include);
  if (card->has_exclude)
    regfree(&card->exclude);
  for (size_t i = 0; i < card->count; i++)
    free(card->inst[i]);
  free(card->inst);
  wp_table_free(&card->index);
  free(card);
}

void wp_card_begin(wp_card *card) {
  card->gen++;
}

size_t wp_card_size(const wp_card *card) {
  return card->count;
}

static uint32_t name_hash(const char *full) {
  return wp_hash32(wp_hash_bytes(full, strlen(full)));
}

typedef struct card_key {
  const wp_card *card;
  const char *full;
} card_key;

static bool same_name(const void *ctx, uint32_t value) {
  const card_key *k = ctx;
  return strcmp(k->card->inst[value - 1]->full, k->full) == 0;
}

static wp_card_inst *find(const wp_card *card, const char *full) {
  card_key k = {card, full};
  uint32_t v = wp_table_find(&card->index, name_hash(full), same_name, &k);
  return v == 0 ? NULL : card->inst[v - 1];
}

const wp_card_inst *wp_card_lookup(const wp_card *card, const char *full) {
  const wp_card_inst *in = find(card, full);
  return in != NULL && in->seen == card->gen ? in : NULL;
}

/* Room for one more name. When the index is full, the names not asked
 * about in this or the last interval go first (then the index grows only
 * when the live names need it). */
static bool room_for_one(wp_card *card) {
  if (2 * ((uint64_t)card->count + 1) > card->index.cap) {
    size_t kept = 0;
    for (size_t i = 0; i < card->count; i++) {
      if (card->inst[i]->seen + 1 < card->gen)
        free(card->inst[i]);
      else
        card->inst[kept++] = card->inst[i];
    }
    card->count = kept;
    if (wp_table_reserve(&card->index, kept + 1) != WP_GROW_OK)
      return false;
    wp_table_clear(&card->index);
    for (size_t i = 0; i < kept; i++)
      wp_table_put(&card->index, name_hash(card->inst[i]->full),
                   (uint32_t)i + 1);
  }
  return WP_GROW(&card->inst, &card->cap, card->count + 1, WP_TABLE_MAX) ==
         WP_GROW_OK;
}

static bool decide(const wp_card *card, const char *full, bool total) {
  if (total)
    return card->total != WP_TOTAL_EXCLUDE;
  if (card->total == WP_TOTAL_ONLY)
    return false;
  if (card->has_include && regexec(&card->include, full, 0, NULL, 0) != 0)
    return false;
  return !card->has_exclude || regexec(&card->exclude, full, 0, NULL, 0) != 0;
}

int wp_card_keep(wp_card *card, const char *full, const char *base) {
  if (*full == '\0')
    return 1;
  wp_card_inst *found = find(card, full);
  if (found != NULL) {
    found->seen = card->gen;
    /* Debug builds: the kept decision is the one made anew. */
    assert(found->total == wp_card_is_total(full) &&
           found->keep == decide(card, full, found->total));
    return found->keep;
  }
  if (!room_for_one(card))
    return -1;
  size_t flen = strlen(full), blen = strlen(base);
  wp_card_inst *in = malloc(sizeof(*in) + flen + blen + 2);
  if (in == NULL)
    return -1;
  in->full = (char *)(in + 1);
  memcpy(in->full, full, flen + 1);
  memcpy(in->full + flen + 1, base, blen + 1);
  in->base = in->full + flen + 1;
  in->seen = card->gen;
  in->total = wp_card_is_total(full);
  in->keep = decide(card, full, in->total);
  wp_table_put(&card->index, name_hash(full), (uint32_t)card->count + 1);
  card->inst[card->count++] = in;
  return in->keep;
}
