/* collectd-winperf: a chunked string arena whose strings never move.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "text_arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { PD_TEXT_CHUNK = 64 * 1024 };

char *pd_text_alloc_chunk(pd_text_arena *arena, size_t n) {
  pd_text_chunk *c;
  /* Take a spare chunk that fits, else allocate one. */
  pd_text_chunk **link = &arena->spare;
  while (*link != NULL && (*link)->cap < n)
    link = &(*link)->next;
  if (*link != NULL) {
    c = *link;
    *link = c->next;
  } else {
    size_t cap = n > PD_TEXT_CHUNK ? n : PD_TEXT_CHUNK;
    if (cap > SIZE_MAX - sizeof *c)
      return NULL;
    c = malloc(sizeof *c + cap);
    if (c == NULL)
      return NULL;
    c->cap = cap;
  }
  c->used = n;
  c->next = arena->head;
  arena->head = c;
  return c->data;
}

char *pd_text_dup(pd_text_arena *arena, const char *s, size_t len) {
  if (len == SIZE_MAX)
    return NULL;
  char *p = pd_text_alloc(arena, len + 1);
  if (p == NULL)
    return NULL;
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

void pd_text_trim(pd_text_arena *arena, const char *p, size_t used) {
  pd_text_chunk *c = arena->head;
  if (c != NULL && p >= c->data && p <= c->data + c->used &&
      used <= (size_t)(c->data + c->used - p))
    c->used = (size_t)(p - c->data) + used;
}

void pd_text_reset(pd_text_arena *arena) {
  while (arena->head != NULL) {
    pd_text_chunk *c = arena->head;
    arena->head = c->next;
    c->used = 0;
    c->next = arena->spare;
    arena->spare = c;
  }
}

void pd_text_free(pd_text_arena *arena) {
  pd_text_reset(arena);
  while (arena->spare != NULL) {
    pd_text_chunk *c = arena->spare;
    arena->spare = c->next;
    free(c);
  }
}

const char *pd_text_path(pd_text_arena *arena, sized object, sized instance,
                         sized counter) {
  char *s = pd_text_alloc(arena, object.len + instance.len + counter.len + 6);
  if (s == NULL)
    return NULL;
  char *p = s;
  *p++ = '\\';
  memcpy(p, object.s, object.len);
  p += object.len;
  if (instance.s != NULL) {
    *p++ = '(';
    memcpy(p, instance.s, instance.len);
    p += instance.len;
    *p++ = ')';
  }
  *p++ = '\\';
  memcpy(p, counter.s, counter.len + 1);
  return s;
}
