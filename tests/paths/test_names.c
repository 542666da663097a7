/* Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 * collectd-winperf: tests for Counter/Help name tables (names.c,
 * format.md 4.1).
 *
 * The tables are REG_MULTI_SZ UTF-16LE bytes assembled here by hand; the
 * expected offsets are counted by hand (2 bytes per unit).
 */
#include "perfdata.h"
#include "tap.h"

#include <stdlib.h>

typedef struct table {
  uint8_t *b;
  size_t n, cap;
} table;

static void put_bytes(table *t, const uint8_t *p, size_t n) {
  if (t->n + n > t->cap) {
    t->cap = (t->n + n) * 2;
    t->b = realloc(t->b, t->cap);
    if (t->b == NULL)
      abort();
  }
  memcpy(t->b + t->n, p, n);
  t->n += n;
}

/* An ASCII string as UTF-16LE units (c, 0), without its NUL. */
static void put_text(table *t, const char *s) {
  for (; *s; s++)
    put_bytes(t, (const uint8_t[]){(uint8_t)*s, 0}, 2);
}

static void put_nul(table *t) {
  put_bytes(t, (const uint8_t[]){0, 0}, 2);
}

/* One REG_MULTI_SZ string: text + NUL unit. */
static void put_sz(table *t, const char *s) {
  put_text(t, s);
  put_nul(t);
}

static void put_pair(table *t, const char *index, const char *name) {
  put_sz(t, index);
  put_sz(t, name);
}

static pd_names *parse(const table *t, const char *what) {
  pd_names *nm = NULL;
  pd_error err = {0};
  pd_status st = pd_names_parse(t->b, t->n, &nm, &err);
  if (!OK(st == PD_OK && nm != NULL, "%s: parses", what))
    tap_diag("  %s: %s", pd_status_name(st), err.message);
  return nm;
}

static void is_indices(const pd_names *nm, const char *name,
                       const uint32_t *want, size_t want_n) {
  const uint32_t *got = NULL;
  size_t n = pd_names_lookup(nm, name, &got);
  int same = n == want_n &&
             (n == 0 || (got && memcmp(got, want, n * sizeof *got) == 0));
  if (!OK(same, "lookup \"%s\" -> %zu indices", name, want_n)) {
    tap_diag("  got %zu:", n);
    for (size_t i = 0; i < n && got; i++)
      tap_diag("    %u", got[i]);
  }
}

static void test_counter_table(void) {
  table t = {0};
  put_pair(&t, "1", "1847"); /* format.md 4.1: highest index, not a name */
  put_pair(&t, "2", "System");
  put_pair(&t, "4", "Memory");
  put_pair(&t, "6", "% Processor Time");
  put_pair(&t, "10", "File Read Operations/sec");
  put_pair(&t, "238", "Processor");
  put_pair(&t, "230", "Process");        /* out of order */
  put_pair(&t, "6", "% Processor Time"); /* same pair again */
  put_pair(&t, "1500", "Processor");     /* a second index for a name */
  put_pair(&t, "3000", "PROCESSOR");     /* and a third, other case */
  put_pair(&t, "4000", "Old name");
  put_pair(&t, "4000", "New name"); /* same index twice: the later wins */
  put_pair(&t, "4294967295", "Max");
  put_pair(&t, "0", "Zero");
  put_sz(&t, "1846");
  put_bytes(&t, (const uint8_t[]){0xC4, 0, 'p', 0, 'f', 0, 'e', 0, 'l', 0},
            10); /* U+00C4 "pfel" */
  put_nul(&t);
  put_sz(&t, "1844");
  put_bytes(&t, (const uint8_t[]){'x', 0, 0x3D, 0xD8, 0x00, 0xDE}, 6);
  put_nul(&t); /* "x" U+1F600 */
  put_nul(&t); /* the empty string that ends the table */

  pd_names *nm = parse(&t, "counter table");
  if (nm == NULL)
    return;
  IS_INT(pd_names_count(nm), 15, "15 pairs (the \"1\" pair is not a name)");
  IS_STR(pd_names_get(nm, 1), NULL, "index 1 has no name");
  IS_STR(pd_names_get(nm, 2), "System", "get 2");
  IS_STR(pd_names_get(nm, 4), "Memory", "get 4");
  IS_STR(pd_names_get(nm, 6), "% Processor Time", "get 6");
  IS_STR(pd_names_get(nm, 10), "File Read Operations/sec", "get 10");
  IS_STR(pd_names_get(nm, 230), "Process", "get 230 (entered out of order)");
  IS_STR(pd_names_get(nm, 238), "Processor", "get 238");
  IS_STR(pd_names_get(nm, 3000), "PROCESSOR", "get 3000");
  IS_STR(pd_names_get(nm, 4000), "New name", "duplicate index: later wins");
  IS_STR(pd_names_get(nm, 4294967295u), "Max", "get 4294967295");
  IS_STR(pd_names_get(nm, 0), "Zero", "get 0");
  IS_STR(pd_names_get(nm, 1846), "\xC3\x84pfel", "UTF-16 U+00C4 -> UTF-8");
  IS_STR(pd_names_get(nm, 1844), "x\xF0\x9F\x98\x80", "surrogate pair");
  IS_STR(pd_names_get(nm, 5), NULL, "get 5: none");
  IS_STR(pd_names_get(nm, 4294967294u), NULL, "get 4294967294: none");

  is_indices(nm, "Processor", (const uint32_t[]){238, 1500, 3000}, 3);
  is_indices(nm, "processor", (const uint32_t[]){238, 1500, 3000}, 3);
  is_indices(nm, "% PROCESSOR TIME", (const uint32_t[]){6}, 1);
  is_indices(nm, "Process", (const uint32_t[]){230}, 1);
  is_indices(nm, "Old name", (const uint32_t[]){4000}, 1);
  is_indices(nm, "new NAME", (const uint32_t[]){4000}, 1);
  is_indices(nm, "\xC3\xA4PFEL", (const uint32_t[]){1846}, 1);
  is_indices(nm, "max", (const uint32_t[]){4294967295u}, 1);
  is_indices(nm, "Processo", NULL, 0);
  is_indices(nm, "", NULL, 0);
  is_indices(nm, "1847", NULL, 0);
  const uint32_t *p = (const uint32_t *)&t;
  OK(pd_names_lookup(nm, "nope", &p) == 0 && p == NULL,
     "a miss sets *indices to NULL");
  OK(pd_names_lookup(nm, NULL, NULL) == 0, "lookup NULL name");
  pd_names_free(nm);
  free(t.b);
}

static void test_help_table(void) {
  table t = {0};
  put_pair(&t, "3", "The System performance object consists of counters.");
  put_pair(&t, "5", "The Memory performance object ...");
  put_nul(&t);
  pd_names *nm = parse(&t, "help table (no \"1\" pair)");
  if (nm == NULL)
    return;
  IS_STR(pd_names_get(nm, 3),
         "The System performance object consists of "
         "counters.",
         "help 3: the first pair is a name");
  IS_INT(pd_names_count(nm), 2, "help: 2 pairs");
  IS_STR(pd_names_get(nm, 5), "The Memory performance object ...", "help 5");
  pd_names_free(nm);
  free(t.b);

  /* A first pair "1" whose name is not a number is a name. */
  t = (table){0};
  put_pair(&t, "1", "One");
  put_pair(&t, "3", "Three");
  put_nul(&t);
  nm = parse(&t, "first pair \"1\", \"One\"");
  if (nm) {
    IS_STR(pd_names_get(nm, 1), "One", "  \"One\" is a name");
    IS_INT(pd_names_count(nm), 2, "  2 pairs");
  }
  pd_names_free(nm);
  free(t.b);

  /* Only the first pair is the header: a later "1" is a plain name. */
  t = (table){0};
  put_pair(&t, "2", "A");
  put_pair(&t, "1", "99");
  put_nul(&t);
  nm = parse(&t, "a later \"1\" pair");
  if (nm) {
    IS_INT(pd_names_count(nm), 2, "  2 pairs");
    IS_STR(pd_names_get(nm, 1), "99", "  \"99\" is a name there");
  }
  pd_names_free(nm);
  free(t.b);
}

static void test_tolerated(void) {
  /* No final empty string and no NUL after the last name. */
  table t = {0};
  put_pair(&t, "1", "4");
  put_pair(&t, "2", "System");
  put_sz(&t, "4");
  put_text(&t, "Mem");
  pd_names *nm = parse(&t, "no terminator, last name without NUL");
  if (nm) {
    IS_INT(pd_names_count(nm), 2, "  2 pairs");
    IS_STR(pd_names_get(nm, 4), "Mem", "  last name complete");
    IS_STR(pd_names_get(nm, 1), NULL, "  the leading \"1\" pair skipped");
  }
  pd_names_free(nm);

  /* The same plus an odd trailing byte (REG_BINARY from Samba). */
  put_bytes(&t, (const uint8_t[]){0x00}, 1);
  nm = parse(&t, "odd trailing byte");
  if (nm) {
    IS_INT(pd_names_count(nm), 2, "  2 pairs");
    IS_STR(pd_names_get(nm, 4), "Mem", "  last name intact");
  }
  pd_names_free(nm);
  free(t.b);

  /* Stops at the first empty string. */
  t = (table){0};
  put_pair(&t, "2", "A");
  put_nul(&t);
  put_pair(&t, "4", "B");
  put_nul(&t);
  nm = parse(&t, "data after the terminator");
  if (nm) {
    IS_INT(pd_names_count(nm), 1, "  ignored");
    IS_STR(pd_names_get(nm, 4), NULL, "  4 not read");
  }
  pd_names_free(nm);
  free(t.b);

  /* An index with no name at the very end. */
  t = (table){0};
  put_pair(&t, "2", "A");
  put_sz(&t, "4");
  nm = parse(&t, "dangling index at the end");
  if (nm)
    IS_INT(pd_names_count(nm), 1, "  ignored");
  pd_names_free(nm);
  free(t.b);

  /* Empty tables. */
  t = (table){0};
  put_nul(&t);
  nm = parse(&t, "only the terminator");
  if (nm) {
    IS_INT(pd_names_count(nm), 0, "  0 pairs");
    IS_STR(pd_names_get(nm, 2), NULL, "  get on empty");
    is_indices(nm, "System", NULL, 0);
  }
  pd_names_free(nm);
  nm = NULL;
  IS_INT(pd_names_parse(t.b, 0, &nm, NULL), PD_OK, "zero bytes parse");
  IS_INT(pd_names_count(nm), 0, "  0 pairs");
  pd_names_free(nm);
  nm = NULL;
  IS_INT(pd_names_parse(NULL, 0, &nm, NULL), PD_OK, "NULL, 0 parses");
  pd_names_free(nm);
  free(t.b);
  IS_STR(pd_names_get(NULL, 2), NULL, "get on NULL table");
  IS_INT(pd_names_count(NULL), 0, "count on NULL table");
  pd_names_free(NULL);
}

static void check_bad(const table *t, size_t offset, const char *shown,
                      const char *what) {
  pd_names *nm = (pd_names *)&nm;
  pd_error err = {0};
  pd_status st = pd_names_parse(t->b, t->n, &nm, &err);
  IS_INT(st, PD_E_NAMES_TABLE, "%s: PD_E_NAMES_TABLE", what);
  IS_INT(err.offset, offset, "  %s: byte offset", what);
  char hex[32];
  snprintf(hex, sizeof hex, "0x%zx", offset);
  if (!OK(strstr(err.message, hex) && strstr(err.message, shown),
          "  %s: message names %s and \"%s\"", what, hex, shown))
    tap_diag("  message: %s", err.message);
  OK(nm == NULL, "  %s: *out is NULL", what);
}

static void test_malformed(void) {
  table t = {0};
  put_pair(&t, "1", "10");
  put_pair(&t, "2", "System");
  put_pair(&t, "4x", "Memory");
  put_nul(&t);
  /* "1\0" 4 + "10\0" 6 + "2\0" 4 + "System\0" 14 = 28 */
  check_bad(&t, 28, "4x", "non-numeric index");
  free(t.b);

  t = (table){0};
  put_pair(&t, "4294967296", "X");
  put_nul(&t);
  check_bad(&t, 0, "4294967296", "index above 2^32-1");
  free(t.b);

  t = (table){0};
  put_pair(&t, "2", "A");
  put_pair(&t, "-4", "B");
  put_nul(&t);
  check_bad(&t, 8, "-4", "negative index");
  free(t.b);

  t = (table){0};
  put_pair(&t, "2", "A");
  put_pair(&t, " 4", "B");
  put_nul(&t);
  check_bad(&t, 8, " 4", "index with a space");
  free(t.b);

  /* U+0664 (Arabic-Indic four) is not an ASCII digit. */
  t = (table){0};
  put_pair(&t, "2", "A");
  put_bytes(&t, (const uint8_t[]){0x64, 0x06, 0, 0}, 4);
  put_sz(&t, "B");
  put_nul(&t);
  check_bad(&t, 8, "\xD9\xA4", "non-ASCII digit");
  free(t.b);

  pd_error err;
  IS_INT(pd_names_parse(NULL, 4, NULL, &err), PD_E_ARGUMENT, "NULL arguments");
}

static void test_big(void) {
  /* A real-sized table: 10,000 pairs, even indices, every name twice under
   * two indices (like "% Processor Time"). */
  table t = {0};
  char idx[16], name[32];
  put_pair(&t, "1", "40000");
  for (unsigned i = 0; i < 10000; i++) {
    snprintf(idx, sizeof idx, "%u", 2 + 2 * i);
    snprintf(name, sizeof name, "Counter %u", i % 5000);
    put_pair(&t, idx, name);
  }
  put_nul(&t);
  pd_names *nm = parse(&t, "10,000 pairs");
  if (nm) {
    IS_INT(pd_names_count(nm), 10000, "  count");
    IS_STR(pd_names_get(nm, 2), "Counter 0", "  first");
    IS_STR(pd_names_get(nm, 20000), "Counter 4999", "  last");
    IS_STR(pd_names_get(nm, 10002), "Counter 0", "  second copy");
    IS_STR(pd_names_get(nm, 10001), NULL, "  odd index: none");
    is_indices(nm, "counter 1234", (const uint32_t[]){2470, 12470}, 2);
    size_t all = 0;
    for (unsigned i = 0; i < 5000; i++) {
      const uint32_t *ix;
      snprintf(name, sizeof name, "COUNTER %u", i);
      if (pd_names_lookup(nm, name, &ix) == 2 && ix[0] == 2 + 2 * i &&
          ix[1] == 10002 + 2 * i)
        all++;
    }
    IS_INT(all, 5000, "  every name maps to its two indices");
  }
  pd_names_free(nm);
  free(t.b);
}

int main(void) {
  test_counter_table();
  test_help_table();
  test_tolerated();
  test_malformed();
  test_big();
  return tap_done();
}
