/* collectd-winperf: per-entry instance filters (cardinality.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "cardinality.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct wp_card {
  regex_t include, exclude;
  bool has_include, has_exclude;
  int total;            /* WP_TOTAL_* */
  wp_card_inst **slots; /* open addressing, linear probing; NULL: empty */
  size_t cap, count;    /* cap: a power of two, count <= cap / 2 */
  uint64_t gen;         /* the current interval */
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
  for (size_t i = 0; i < card->cap; i++)
    free(card->slots[i]);
  free(card->slots);
  free(card);
}

void wp_card_begin(wp_card *card) {
  card->gen++;
}

size_t wp_card_size(const wp_card *card) {
  return card->count;
}

static size_t hash(const char *s) {
  uint64_t h = 1469598103934665603ULL; /* FNV-1a */
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return (size_t)h;
}

/* The slot holding full, or the empty slot where it would go. */
static size_t find(const wp_card *card, const char *full) {
  size_t mask = card->cap - 1;
  size_t i = hash(full) & mask;
  while (card->slots[i] != NULL && strcmp(card->slots[i]->full, full) != 0)
    i = (i + 1) & mask;
  return i;
}

const wp_card_inst *wp_card_lookup(const wp_card *card, const char *full) {
  if (card->cap == 0)
    return NULL;
  const wp_card_inst *in = card->slots[find(card, full)];
  return in != NULL && in->seen == card->gen ? in : NULL;
}

/* Room for one more name: a new table holding the names asked about in
 * this or the last interval (the others are dropped), at most half full. */
static bool rebuild(wp_card *card) {
  size_t live = 0;
  for (size_t i = 0; i < card->cap; i++)
    if (card->slots[i] != NULL && card->slots[i]->seen + 1 >= card->gen)
      live++;
  size_t cap = 16;
  while (cap < 2 * (live + 1))
    cap *= 2;
  wp_card_inst **slots = calloc(cap, sizeof(*slots));
  if (slots == NULL)
    return false;
  wp_card_inst **old = card->slots;
  size_t old_cap = card->cap;
  card->slots = slots;
  card->cap = cap;
  card->count = 0;
  for (size_t i = 0; i < old_cap; i++) {
    wp_card_inst *in = old[i];
    if (in == NULL)
      continue;
    if (in->seen + 1 < card->gen) {
      free(in);
      continue;
    }
    card->slots[find(card, in->full)] = in;
    card->count++;
  }
  free(old);
  return true;
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
  if (card->cap > 0) {
    wp_card_inst *in = card->slots[find(card, full)];
    if (in != NULL) {
      in->seen = card->gen;
      return in->keep;
    }
  }
  if ((card->count + 1) * 2 > card->cap && !rebuild(card))
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
  card->slots[find(card, full)] = in;
  card->count++;
  return in->keep;
}
