/* collectd-winperf: names remembered by what they were made from (see
 * name_memo.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "name_memo.h"

#include "pd_internal.h"

#include <stdlib.h>
#include <string.h>

/* Entries beyond twice the last build's before a build starts afresh. */
enum { MEMO_MARGIN = 1024 };

void pd_memo_free(pd_name_memo *m) {
  free(m->entries);
  free(m->slots);
  free(m->group_text);
  free(m->group_hash);
  free(m->group_stamp);
  free(m->group_count);
  free(m->group_slots);
  pd_text_free(&m->text);
  memset(m, 0, sizeof *m);
}

void pd_memo_clear(pd_name_memo *m, uint32_t *epochs) {
  m->count = 0;
  m->groups = 0;
  if (m->slot_cap > 0)
    memset(m->slots, 0, m->slot_cap * sizeof *m->slots);
  if (m->group_slot_cap > 0)
    memset(m->group_slots, 0, m->group_slot_cap * sizeof *m->group_slots);
  pd_text_reset(&m->text);
  m->live = 0;
  m->epoch = ++*epochs;
}

void pd_memo_begin(pd_name_memo *m, uint32_t *epochs) {
  if (m->epoch == 0 || m->count > 2 * (size_t)m->live + MEMO_MARGIN)
    pd_memo_clear(m, epochs);
  if (++m->build == 0) { /* wrapped: no group may look counted by build 1 */
    for (size_t g = 0; g < m->groups; g++)
      m->group_stamp[g] = 0;
    m->build = 1;
  }
}

static uint32_t key_hash(const uint64_t key[3]) {
  uint64_t h = key[0] * 0x9E3779B97F4A7C15u;
  h = (h ^ (h >> 31) ^ key[1]) * 0xBF58476D1CE4E5B9u;
  h = (h ^ (h >> 29) ^ key[2]) * 0x94D049BB133111EBu;
  return (uint32_t)(h ^ (h >> 32));
}

static bool same_key(const pd_memo_entry *e, const uint64_t key[3],
                     const uint8_t *raw, uint32_t raw_len) {
  return e->key[0] == key[0] && e->key[1] == key[1] && e->key[2] == key[2] &&
         e->raw_len == raw_len &&
         (raw_len == 0 || memcmp(e->raw, raw, raw_len) == 0);
}

pd_memo_entry *pd_memo_find(pd_name_memo *m, const uint64_t key[3],
                            const uint8_t *raw, uint32_t raw_len) {
  if (m->slot_cap == 0)
    return NULL;
  uint32_t mask = m->slot_cap - 1;
  for (uint32_t s = key_hash(key) & mask; m->slots[s] != 0;
       s = (s + 1) & mask) {
    pd_memo_entry *e = &m->entries[m->slots[s] - 1];
    if (same_key(e, key, raw, raw_len))
      return e;
  }
  return NULL;
}

/* Put value (an index + 1) in the first free slot from hash h on. */
static void place(uint32_t *slots, uint32_t cap, uint32_t h, uint32_t value) {
  uint32_t s = h & (cap - 1);
  while (slots[s] != 0)
    s = (s + 1) & (cap - 1);
  slots[s] = value;
}

/* Slots at most half full for `need` items: when not, twice as many,
 * refilled from the n items there are (item i's hash: the uint32_t at
 * hashes + i * stride bytes). False when out of memory. */
static bool slot_room(uint32_t **slots, uint32_t *cap, size_t need, size_t n,
                      const void *hashes, size_t stride) {
  if ((uint64_t)need * 2 <= *cap)
    return true;
  uint32_t c = *cap ? *cap * 2 : 64;
  if (c > (1u << 30))
    return false;
  uint32_t *s = calloc(c, sizeof *s);
  if (s == NULL)
    return false;
  for (size_t i = 0; i < n; i++) {
    uint32_t h;
    memcpy(&h, (const char *)hashes + i * stride, sizeof h);
    place(s, c, h, (uint32_t)i + 1);
  }
  free(*slots);
  *slots = s;
  *cap = c;
  return true;
}

pd_memo_entry *pd_memo_add(pd_name_memo *m, const uint64_t key[3],
                           const uint8_t *raw, uint32_t raw_len) {
  if (m->count >= UINT32_MAX - 1 ||
      !pd_grow((void **)&m->entries, &m->cap, m->count + 1,
               sizeof *m->entries) ||
      !slot_room(&m->slots, &m->slot_cap, m->count + 1, m->count,
                 m->count ? (const void *)&m->entries->slot_hash : NULL,
                 sizeof *m->entries))
    return NULL;
  const uint8_t *copy = NULL;
  if (raw_len > 0) {
    char *p = pd_text_alloc(&m->text, raw_len);
    if (p == NULL)
      return NULL;
    memcpy(p, raw, raw_len);
    copy = (const uint8_t *)p;
  }
  uint32_t h = key_hash(key);
  place(m->slots, m->slot_cap, h, (uint32_t)m->count + 1);
  pd_memo_entry *e = &m->entries[m->count++];
  memset(e, 0, sizeof *e);
  memcpy(e->key, key, sizeof e->key);
  e->slot_hash = h;
  e->raw = copy;
  e->raw_len = raw_len;
  return e;
}

/* Room for one more group: slots at most half full. */
static bool group_room(pd_name_memo *m) {
  size_t need = m->groups + 1, cap = m->group_cap;
  if (need > cap) {
    size_t c = cap;
    if (!pd_grow((void **)&m->group_text, &c, need, sizeof *m->group_text))
      return false;
    void *h = realloc(m->group_hash, c * sizeof *m->group_hash);
    if (h != NULL)
      m->group_hash = h;
    void *st = realloc(m->group_stamp, c * sizeof *m->group_stamp);
    if (st != NULL)
      m->group_stamp = st;
    void *n = realloc(m->group_count, c * sizeof *m->group_count);
    if (n != NULL)
      m->group_count = n;
    if (h == NULL || st == NULL || n == NULL)
      return false;
    m->group_cap = c;
  }
  return slot_room(&m->group_slots, &m->group_slot_cap, need, m->groups,
                   m->group_hash, sizeof *m->group_hash);
}

uint32_t pd_memo_group(pd_name_memo *m, const char *text, uint32_t fold_hash) {
  if (m->group_slot_cap > 0) {
    uint32_t mask = m->group_slot_cap - 1;
    for (uint32_t s = fold_hash & mask; m->group_slots[s] != 0;
         s = (s + 1) & mask) {
      uint32_t g = m->group_slots[s] - 1;
      if (m->group_hash[g] == fold_hash &&
          (strcmp(m->group_text[g], text) == 0 ||
           pd_name_casecmp(m->group_text[g], text) == 0))
        return g;
    }
  }
  if (m->groups >= INT32_MAX || !group_room(m)) /* bit 31 is the caller's */
    return UINT32_MAX;
  uint32_t g = (uint32_t)m->groups++;
  place(m->group_slots, m->group_slot_cap, fold_hash, g + 1);
  m->group_text[g] = text;
  m->group_hash[g] = fold_hash;
  m->group_stamp[g] = 0;
  m->group_count[g] = 0;
  return g;
}
