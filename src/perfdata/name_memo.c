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
  wp_table_free(&m->by_key);
  free(m->group);
  wp_table_free(&m->group_by_text);
  pd_text_free(&m->text);
  memset(m, 0, sizeof *m);
}

void pd_memo_clear(pd_name_memo *m, uint32_t *epochs) {
  m->count = 0;
  m->groups = 0;
  wp_table_clear(&m->by_key);
  wp_table_clear(&m->group_by_text);
  pd_text_reset(&m->text);
  m->live = 0;
  m->epoch = ++*epochs;
}

void pd_memo_begin(pd_name_memo *m, uint32_t *epochs) {
  if (m->epoch == 0 || m->count > 2 * (size_t)m->live + MEMO_MARGIN)
    pd_memo_clear(m, epochs);
  if (++m->build == 0) { /* wrapped: no group may look counted by build 1 */
    for (size_t g = 0; g < m->groups; g++)
      m->group[g].stamp = 0;
    m->build = 1;
  }
}

static inline __attribute__((always_inline)) uint32_t
key_hash(const uint64_t key[3]) {
  return wp_hash32(wp_hash_bytes(key, 3 * sizeof *key));
}

/* The key an entry is looked up by. */
typedef struct memo_key {
  const pd_name_memo *m;
  const uint64_t *key;
  const uint8_t *raw;
  uint32_t raw_len;
} memo_key;

static bool same_key(const void *ctx, uint32_t value) {
  const memo_key *k = ctx;
  const pd_memo_entry *e = &k->m->entries[value - 1];
  return e->key[0] == k->key[0] && e->key[1] == k->key[1] &&
         e->key[2] == k->key[2] && e->raw_len == k->raw_len &&
         (k->raw_len == 0 || memcmp(e->raw, k->raw, k->raw_len) == 0);
}

pd_memo_entry *pd_memo_find(pd_name_memo *m, const uint64_t key[3],
                            const uint8_t *raw, uint32_t raw_len) {
  memo_key k = {m, key, raw, raw_len};
  uint32_t v = wp_table_find(&m->by_key, key_hash(key), same_key, &k);
  return v == 0 ? NULL : &m->entries[v - 1];
}

pd_memo_entry *pd_memo_add(pd_name_memo *m, const uint64_t key[3],
                           const uint8_t *raw, uint32_t raw_len) {
  if (m->count >= UINT32_MAX - 1 ||
      WP_GROW(&m->entries, &m->cap, m->count + 1, WP_TABLE_MAX) != WP_GROW_OK ||
      wp_table_reserve(&m->by_key, m->count + 1) != WP_GROW_OK)
    return NULL;
  const uint8_t *copy = NULL;
  if (raw_len > 0) {
    char *p = pd_text_alloc(&m->text, raw_len);
    if (p == NULL)
      return NULL;
    memcpy(p, raw, raw_len);
    copy = (const uint8_t *)p;
  }
  wp_table_put(&m->by_key, key_hash(key), (uint32_t)m->count + 1);
  pd_memo_entry *e = &m->entries[m->count++];
  memset(e, 0, sizeof *e);
  memcpy(e->key, key, sizeof e->key);
  e->raw = copy;
  e->raw_len = raw_len;
  return e;
}

/* A group's text against the text looked up (case-insensitive). */
typedef struct group_key {
  const pd_name_memo *m;
  const char *text;
} group_key;

static bool same_group(const void *ctx, uint32_t value) {
  const group_key *k = ctx;
  const char *t = k->m->group[value - 1].text;
  return strcmp(t, k->text) == 0 || pd_name_casecmp(t, k->text) == 0;
}

uint32_t pd_memo_group(pd_name_memo *m, const char *text, uint32_t fold_hash) {
  group_key k = {m, text};
  uint32_t g = wp_table_find(&m->group_by_text, fold_hash, same_group, &k);
  if (g != 0)
    return g - 1;
  /* bit 31 of a group is the caller's */
  if (m->groups >= INT32_MAX ||
      WP_GROW(&m->group, &m->group_cap, m->groups + 1, INT32_MAX) !=
          WP_GROW_OK ||
      wp_table_reserve(&m->group_by_text, m->groups + 1) != WP_GROW_OK)
    return UINT32_MAX;
  uint32_t n = (uint32_t)m->groups++;
  wp_table_put(&m->group_by_text, fold_hash, n + 1);
  m->group[n] = (pd_memo_grp){text, fold_hash, 0, 0};
  return n;
}
