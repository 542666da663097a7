/* collectd-winperf: a chunked string arena whose strings never move.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Strings handed out stay valid until pd_text_reset; chunks are kept and
 * reused, so a warm arena allocates nothing.
 */
#ifndef PD_TEXT_ARENA_H
#define PD_TEXT_ARENA_H

#include <stddef.h>

typedef struct pd_text_chunk {
  struct pd_text_chunk *next;
  size_t cap, used;
  char data[];
} pd_text_chunk;

typedef struct pd_text_arena {
  pd_text_chunk *head;  /* chunk being filled */
  pd_text_chunk *spare; /* emptied chunks ready for reuse */
} pd_text_arena;

/* Room for n bytes in a new chunk (a spare one that fits, else
 * allocated); NULL on allocation failure. */
char *pd_text_alloc_chunk(pd_text_arena *arena, size_t n);
/* Room for n bytes; NULL on allocation failure. Inline: names are
 * allocated one by one. */
static inline char *pd_text_alloc(pd_text_arena *arena, size_t n) {
  pd_text_chunk *c = arena->head;
  if (c != NULL && c->cap - c->used >= n) {
    char *p = c->data + c->used;
    c->used += n;
    return p;
  }
  return pd_text_alloc_chunk(arena, n);
}
/* Copy of s (len bytes) plus a NUL. */
char *pd_text_dup(pd_text_arena *arena, const char *s, size_t len);
/* Give back the unused tail of the most recent allocation p (allocated with
 * room for more than the `used` bytes it now holds). */
void pd_text_trim(pd_text_arena *arena, const char *p, size_t used);
void pd_text_reset(pd_text_arena *arena);

/* A string of known length (not necessarily NUL-terminated before len). */
typedef struct sized {
  const char *s;
  size_t len;
} sized;

/* Canonical "\Object(instance)\Counter" in the arena (no "(...)" when
 * instance.s is NULL; counter.s NUL-terminated); NULL without memory. */
const char *pd_text_path(pd_text_arena *arena, sized object, sized instance,
                         sized counter);
void pd_text_free(pd_text_arena *arena);

#endif
