/* Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 * collectd-winperf: Counter/Help name tables (format.md 4.1).
 *
 * A table is a REG_MULTI_SZ of UTF-16LE strings in pairs: decimal index, then
 * name. Indices reach 2^32, so nothing is sized by an index value: the pairs
 * are kept sorted by index (binary search for pd_names_get) and the distinct
 * case-folded names are groups in a hash table (wp_table.h) by
 * pd_hash_folded, each with the ascending run of indices it has
 * (pd_names_lookup).
 *
 * Tolerated (Samba serves the tables as REG_BINARY, format.md 6): an odd
 * trailing byte, a missing final empty string or NUL, and an index with no name
 * at the very end (ignored). When an index appears twice, pd_names_get returns
 * the later name, as PDH and .NET do (they fill an array/dictionary in order).
 */
#include "pd_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct names_entry {
  uint32_t index;
  uint32_t seq;    /* position in the table: ties keep table order */
  uint32_t group;  /* distinct folded name this entry belongs to */
  uint32_t hash;   /* pd_hash_folded of the name */
  size_t name_off; /* into text */
} names_entry;

typedef struct names_group {
  size_t name_off; /* a representative spelling */
  uint32_t hash;
  uint32_t start; /* into indices */
  uint32_t count;
} names_group;

struct pd_names {
  size_t count;
  char *text;
  names_entry *entries; /* sorted by (index, seq) */
  size_t group_count;
  names_group *groups;
  uint32_t *indices;       /* per group, ascending, unique */
  wp_table groups_by_name; /* group number + 1, by pd_hash_folded */
};

/* Length in units of the string at unit `u` of a table of `units` units (no
 * NUL needed at the very end). */
static size_t str_units(const uint8_t *p, size_t u, size_t units) {
  size_t n = 0;
  while (u + n < units && (p[2 * (u + n)] | p[2 * (u + n) + 1]) != 0)
    n++;
  return n;
}

/* The index string at unit u: 1 with *out set when it is a decimal uint32,
 * 0 when it is empty (the table's end), -1 when it is not a number. *n gets
 * its length in units either way. */
static int scan_index(const uint8_t *p, size_t units, size_t u, uint32_t *out,
                      size_t *n) {
  uint64_t v = 0;
  size_t k = u;
  for (; k < units; k++) {
    unsigned lo = p[2 * k], hi = p[2 * k + 1], d = lo - '0';
    if ((lo | hi) == 0)
      break;
    v = v * 10 + d;
    if (hi != 0 || d > 9 || v > UINT32_MAX) {
      *n = str_units(p, u, units);
      return -1;
    }
  }
  *n = k - u;
  *out = (uint32_t)v;
  return *n > 0;
}

/* Whether UTF-8 text of n bytes is a decimal number (the "1" pair's value). */
static bool text_is_decimal(const char *s, size_t n) {
  if (n == 0)
    return false;
  for (size_t i = 0; i < n; i++)
    if ((unsigned)(unsigned char)s[i] - '0' > 9)
      return false;
  return true;
}

static int entry_cmp(const void *a, const void *b) {
  const names_entry *x = a, *y = b;
  if (x->index != y->index)
    return x->index < y->index ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void pd_names_free(pd_names *names) {
  if (names == NULL)
    return;
  free(names->text);
  free(names->entries);
  free(names->groups);
  free(names->indices);
  wp_table_free(&names->groups_by_name);
  free(names);
}

/* A group's name against the one looked up (case-insensitive). */
typedef struct group_key {
  const pd_names *nm;
  const char *name;
} group_key;

static bool same_group(const void *ctx, uint32_t value) {
  const group_key *k = ctx;
  const names_group *g = &k->nm->groups[value - 1];
  return pd_name_casecmp(k->nm->text + g->name_off, k->name) == 0;
}

/* Group the entries by folded name and lay out each group's indices. */
static pd_status build_lookup(pd_names *nm, pd_error *err) {
  nm->groups = malloc((nm->count ? nm->count : 1) * sizeof *nm->groups);
  nm->indices = malloc((nm->count ? nm->count : 1) * sizeof *nm->indices);
  if (!nm->groups || !nm->indices ||
      wp_table_reserve(&nm->groups_by_name, nm->count) != WP_GROW_OK)
    return pd_error_set(err, PD_E_NOMEM, 0, "name table: out of memory");

  /* Pass 1: assign groups, count members. */
  for (size_t i = 0; i < nm->count; i++) {
    names_entry *e = &nm->entries[i];
    group_key key = {nm, nm->text + e->name_off};
    uint32_t g =
        wp_table_find_or_put(&nm->groups_by_name, e->hash,
                             (uint32_t)nm->group_count + 1, same_group, &key);
    if (g == 0) { /* a new group: the one just put */
      names_group *ng = &nm->groups[nm->group_count];
      ng->name_off = e->name_off;
      ng->hash = e->hash;
      ng->start = 0;
      ng->count = 0;
      g = (uint32_t)++nm->group_count;
    }
    e->group = g - 1;
    nm->groups[e->group].count++;
  }
  /* Prefix sums, then pass 2 in index order: runs come out ascending. */
  uint32_t start = 0;
  for (size_t g = 0; g < nm->group_count; g++) {
    nm->groups[g].start = start;
    start += nm->groups[g].count;
    nm->groups[g].count = 0;
  }
  for (size_t i = 0; i < nm->count; i++) {
    const names_entry *e = &nm->entries[i];
    names_group *g = &nm->groups[e->group];
    uint32_t *run = nm->indices + g->start;
    if (g->count > 0 && run[g->count - 1] == e->index)
      continue; /* the same (name, index) pair twice */
    run[g->count++] = e->index;
  }
  return PD_OK;
}

pd_status pd_names_parse(const uint8_t *multisz, size_t len, pd_names **out,
                         pd_error *err) {
  if (out == NULL || (multisz == NULL && len > 0))
    return pd_error_set(err, PD_E_ARGUMENT, 0, "name table: NULL argument");
  *out = NULL;
  size_t units = len / 2; /* an odd trailing byte is ignored */
  /* Every pair takes at least 4 units ("1\0x\0"), every unit at most 3 UTF-8
   * bytes: bounds from the data size, never from an index value. */
  if (units / 4 >= UINT32_MAX ||
      units > (SIZE_MAX - 16) / 3 / sizeof(names_entry))
    return pd_error_set(err, PD_E_LIMIT, 0, "name table: %zu bytes is too big",
                        len);
  pd_names *nm = calloc(1, sizeof *nm);
  if (nm == NULL)
    return pd_error_set(err, PD_E_NOMEM, 0, "name table: out of memory");
  size_t max_pairs = units / 4 + 1;
  nm->entries = malloc(max_pairs * sizeof *nm->entries);
  nm->text = malloc(units * 3 + 1);
  if (!nm->entries || !nm->text) {
    pd_names_free(nm);
    return pd_error_set(err, PD_E_NOMEM, 0, "name table: out of memory");
  }

  size_t text_len = 0, u = 0;
  bool first = true, sorted = true;
  while (u < units) {
    size_t idx_at = u, idx_units;
    uint32_t index;
    int got = scan_index(multisz, units, u, &index, &idx_units);
    if (got == 0)
      break; /* the empty string that ends the table */
    if (got < 0) {
      char shown[48];
      pd_utf16_to_utf8(multisz + 2 * idx_at, idx_units, false, shown,
                       sizeof shown);
      pd_status st = pd_error_set(
          err, PD_E_NAMES_TABLE, 2 * idx_at,
          "offset 0x%zx: name table index \"%s\" is not a decimal number "
          "from 0 to 4294967295",
          2 * idx_at, shown);
      pd_names_free(nm);
      return st;
    }

    /* The name, copied directly while it is ASCII. Room: each pair takes
     * >= 2 units besides its name, so the text stays below 3 * units
     * bytes. */
    size_t name_at = idx_at + idx_units + 1, k = name_at, n = 0;
    char *dst = nm->text + text_len;
    while (k < units) {
      unsigned lo = multisz[2 * k], hi = multisz[2 * k + 1];
      if (hi != 0 || lo - 1u >= 0x7Fu)
        break;
      dst[n++] = (char)lo;
      k++;
    }
    size_t name_units = k - name_at;
    if (k < units && (multisz[2 * k] | multisz[2 * k + 1]) != 0) {
      name_units = str_units(multisz, name_at, units);
      n = pd_utf16_to_utf8(multisz + 2 * name_at, name_units, false, dst,
                           name_units * 3 + 1);
    } else {
      dst[n] = '\0';
    }
    uint32_t hash = pd_hash_folded(dst);
    if (name_units == 0)
      break; /* an index with no name at the end: ignored */
    u = name_at + name_units + 1;

    /* format.md 4.1: the Counter table's first pair is "1", "<number>", a
     * historical constant (1847 on real hosts), not a name and not the
     * highest index in use (that is Perflib's Last Counter): skipped. */
    if (first && index == 1 && text_is_decimal(dst, n)) {
      first = false;
      continue;
    }
    first = false;

    names_entry *e = &nm->entries[nm->count];
    e->index = index;
    e->seq = (uint32_t)nm->count;
    e->hash = hash;
    e->name_off = text_len;
    text_len += n + 1; /* keep the NUL */
    if (nm->count > 0 && nm->entries[nm->count - 1].index > index)
      sorted = false;
    nm->count++;
  }
  if (!sorted)
    qsort(nm->entries, nm->count, sizeof *nm->entries, entry_cmp);

  pd_status st = build_lookup(nm, err);
  if (st != PD_OK) {
    pd_names_free(nm);
    return st;
  }
  *out = nm;
  return PD_OK;
}

const char *pd_names_get(const pd_names *names, uint32_t index) {
  if (names == NULL)
    return NULL;
  /* The last entry with this index (upper bound - 1): later names win. */
  size_t lo = 0, hi = names->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (names->entries[mid].index <= index)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0 || names->entries[lo - 1].index != index)
    return NULL;
  return names->text + names->entries[lo - 1].name_off;
}

size_t pd_names_lookup(const pd_names *names, const char *name,
                       const uint32_t **indices) {
  if (indices)
    *indices = NULL;
  if (names == NULL || name == NULL)
    return 0;
  group_key key = {names, name};
  uint32_t v = wp_table_find(&names->groups_by_name, pd_hash_folded(name),
                             same_group, &key);
  if (v == 0)
    return 0;
  const names_group *g = &names->groups[v - 1];
  if (indices)
    *indices = names->indices + g->start;
  return g->count;
}

size_t pd_names_count(const pd_names *names) {
  return names ? names->count : 0;
}

const char *pd_names_at(const pd_names *names, size_t i, uint32_t *index) {
  if (names == NULL || i >= names->count)
    return NULL;
  if (index != NULL)
    *index = names->entries[i].index;
  return names->text + names->entries[i].name_off;
}
