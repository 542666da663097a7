/* collectd-winperf: names remembered by what they were made from.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A snapshot rebuilds an object's instance names when anything about them
 * changed; with processes coming and going that is most decodes, while
 * nearly every name is one built before. A memo keeps each name by its
 * inputs (an own name by its raw bytes, a "parent/name" by the two names
 * it joins, a "base#n" by its base and n) from one build to the next, so a
 * rebuild looks names up instead of converting and joining them again,
 * whether or not the instances moved. Case-insensitively equal texts share
 * a group (PDH numbers duplicates per group, format.md 1.4).
 *
 * Entries and their text live until the memo is cleared: when it holds
 * twice as many entries as the last build looked up (plus a margin), the
 * next build starts from an empty one, so memory stays a small multiple
 * of the live names. A warm memo allocates nothing.
 */
#ifndef PD_NAME_MEMO_H
#define PD_NAME_MEMO_H

#include "text_arena.h"
#include "wp_table.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One remembered name: its key, its text and what builds read of it. */
typedef struct pd_memo_entry {
  uint64_t key[3];
  const uint8_t *raw; /* the key's bytes, compared (NULL: none) */
  const char *text;   /* UTF-8, NUL-terminated */
  uint32_t len;       /* strlen(text) */
  uint32_t fold_hash; /* pd_hash_folded(text) */
  uint32_t group;     /* case-insensitive group (pd_memo_group) */
  uint32_t raw_len;
  uint32_t pos, pos_build; /* its first instance in build pos_build */
  bool has_hash;           /* text has a '#' */
} pd_memo_entry;

/* A case-insensitive group: a representative text and per build a count
 * of its members. */
typedef struct pd_memo_grp {
  const char *text;
  uint32_t hash;  /* pd_hash_folded(text) */
  uint32_t stamp; /* the build `count` counts for */
  uint32_t count;
} pd_memo_grp;

typedef struct pd_name_memo {
  pd_memo_entry *entries;
  size_t count, cap;
  wp_table by_key;    /* entry index + 1, by the hash of key */
  pd_text_arena text; /* entry texts and raw keys */
  uint32_t build;     /* the current build's stamp, never 0 */
  uint32_t live;      /* lookups of the last build (pd_memo_end) */
  uint32_t epoch;     /* changes when cleared (0: never filled) */
  pd_memo_grp *group;
  size_t groups, group_cap;
  wp_table group_by_text; /* group index + 1, by pd_hash_folded */
} pd_name_memo;

void pd_memo_free(pd_name_memo *m);
/* Forget every entry; *epochs hands out the new epoch (snapshot-unique). */
void pd_memo_clear(pd_name_memo *m, uint32_t *epochs);
/* Start a build: cleared first when bloated (see above). */
void pd_memo_begin(pd_name_memo *m, uint32_t *epochs);
/* End a build that looked up `lookups` names (one per instance). */
static inline void pd_memo_end(pd_name_memo *m, uint32_t lookups) {
  m->live = lookups;
}

/* The entry of key (and raw bytes, when raw_len > 0); NULL when there is
 * none. */
pd_memo_entry *pd_memo_find(pd_name_memo *m, const uint64_t key[3],
                            const uint8_t *raw, uint32_t raw_len);
/* A new entry for key (not there yet), its raw bytes copied; the caller
 * fills text, len, fold_hash, has_hash and group. NULL when out of
 * memory. The pointer is valid until the next pd_memo_add. */
pd_memo_entry *pd_memo_add(pd_name_memo *m, const uint64_t key[3],
                           const uint8_t *raw, uint32_t raw_len);
/* The group of text (fold_hash its pd_hash_folded): an existing one whose
 * text is case-insensitively equal, else a new one. UINT32_MAX when out of
 * memory. */
uint32_t pd_memo_group(pd_name_memo *m, const char *text, uint32_t fold_hash);
/* The number of earlier members of group g in this build (0 for the
 * first: it keeps the plain name), counting this one. */
static inline uint32_t pd_memo_group_next(pd_name_memo *m, uint32_t g) {
  pd_memo_grp *gr = &m->group[g];
  if (gr->stamp != m->build) {
    gr->stamp = m->build;
    gr->count = 0;
    return 0;
  }
  return ++gr->count;
}

#endif
