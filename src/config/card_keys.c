/* collectd-winperf: the cardinality keys of a counter list entry
 * (card_keys.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "card_keys.h"

#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Most instances max_instances may name (far above any real object). */
#define WP_CARD_MAX_CAP 1000000000UL
/* Longest regular expression (a bound on what regcomp builds). */
#define WP_CARD_MAX_RE 1000
/* Most nodes a regex may expand to. regcomp copies the operand of '+' and
 * of a bound {n,m} (glibc and gnulib alike), so stacked or nested
 * repetitions grow exponentially: "a++++...", 100 times, asked for
 * gigabytes (a fuzz finding). Its time grows faster than the nodes
 * (about their square): "Ce*" and 11 '+' (6143 nodes) took 31 s under
 * ASan (a second fuzz finding), 10 '+' (3071) 0.3 s unsanitized, 9 (1535)
 * 0.06 s. A 1000-byte pattern without repetitions stays under 1000 nodes
 * and compiles at once, so real instance filters are far below. */
#define WP_CARD_MAX_RE_NODES 2000

/* One of `names` (NULL-terminated) equal to text: its index, else -1. */
static int pick(const char *text, const char *const *names) {
  for (int i = 0; names[i] != NULL; i++)
    if (strcmp(text, names[i]) == 0)
      return i;
  return -1;
}

/* The size of the tree regcomp builds for an ERE, estimated from above
 * and saturated at WP_CARD_MAX_RE_NODES + 1; syntax errors are left to
 * regcomp (which reports them before it copies anything). */
typedef struct re_scan {
  const char *p, *end;
} re_scan;

static size_t re_sat(unsigned long long v) {
  return v > WP_CARD_MAX_RE_NODES ? WP_CARD_MAX_RE_NODES + 1 : (size_t)v;
}

static size_t re_alternation(re_scan *s, int depth);

static size_t re_atom(re_scan *s, int depth) {
  char c = *s->p++;
  if (c == '(') {
    /* 500 nested groups fit in 1000 bytes: depth bounds the recursion. */
    size_t inner =
        depth > 600 ? WP_CARD_MAX_RE_NODES + 1 : re_alternation(s, depth + 1);
    if (s->p < s->end && *s->p == ')')
      s->p++;
    return re_sat(inner + 1ULL);
  }
  if (c == '\\' && s->p < s->end)
    s->p++;
  if (c == '[') { /* a bracket expression is one node */
    if (s->p < s->end && *s->p == '^')
      s->p++;
    if (s->p < s->end && *s->p == ']')
      s->p++;
    while (s->p < s->end && *s->p != ']') {
      if (*s->p == '[' && s->end - s->p > 1 &&
          (s->p[1] == ':' || s->p[1] == '.' || s->p[1] == '=')) {
        char kind = s->p[1];
        s->p += 2;
        while (s->end - s->p > 1 && !(s->p[0] == kind && s->p[1] == ']'))
          s->p++;
        s->p += s->end - s->p > 1 ? 2 : s->end - s->p;
      } else {
        s->p++;
      }
    }
    if (s->p < s->end)
      s->p++;
  }
  return 1;
}

/* A bound {n}, {n,} or {n,m} at s->p: how many copies regcomp makes of
 * its operand (plus one for the open end), or 0 when it is no bound. */
static unsigned long long re_bound_copies(re_scan *s) {
  const char *q = s->p + 1;
  unsigned long long n = 0, m = 0;
  bool comma = false, digits = false;
  for (; q < s->end && *q >= '0' && *q <= '9'; q++, digits = true)
    n = n < 100000 ? n * 10 + (unsigned)(*q - '0') : n;
  if (q < s->end && *q == ',') {
    comma = true;
    for (q++; q < s->end && *q >= '0' && *q <= '9'; q++, digits = true)
      m = m < 100000 ? m * 10 + (unsigned)(*q - '0') : m;
  }
  if (!digits || q >= s->end || *q != '}')
    return 0;
  s->p = q + 1;
  return (comma && m > n ? m : n) + 1;
}

static size_t re_concatenation(re_scan *s, int depth) {
  unsigned long long total = 0;
  while (s->p < s->end && *s->p != '|' && *s->p != ')') {
    unsigned long long a = re_atom(s, depth);
    while (s->p < s->end) {
      char q = *s->p;
      if (q == '*' || q == '?') {
        s->p++;
        a = a + 1;
      } else if (q == '+') {
        s->p++;
        a = 2 * a + 1;
      } else if (q == '{') {
        unsigned long long copies = re_bound_copies(s);
        if (copies == 0)
          break;
        a = a * copies + 1;
      } else {
        break;
      }
      a = re_sat(a);
    }
    total = re_sat(total + a);
  }
  return (size_t)total;
}

static size_t re_alternation(re_scan *s, int depth) {
  unsigned long long total = re_concatenation(s, depth);
  while (s->p < s->end && *s->p == '|') {
    s->p++;
    total = re_sat(total + re_concatenation(s, depth) + 1);
  }
  return (size_t)total;
}

static size_t re_expanded_nodes(const char *text, size_t len) {
  re_scan s = {text, text + len};
  size_t total = 0;
  while (s.p < s.end) { /* a stray ')' ends an alternation: go on after it */
    total = re_sat(total + (unsigned long long)re_alternation(&s, 0));
    if (s.p < s.end)
      s.p++;
  }
  return total;
}

static int set_regex(char **dst, const char *key, const char *text, size_t len,
                     char *why, size_t whylen) {
  if (len == 0) {
    snprintf(why, whylen,
             "expected a regular expression for '%s', got an empty value", key);
    return -1;
  }
  if (len > WP_CARD_MAX_RE) {
    snprintf(why, whylen,
             "expected a regular expression of at most %d bytes for '%s', got "
             "%u bytes",
             WP_CARD_MAX_RE, key, (unsigned)len);
    return -1;
  }
  if (re_expanded_nodes(text, len) > WP_CARD_MAX_RE_NODES) {
    snprintf(why, whylen,
             "expected a regular expression whose repetitions expand to at "
             "most %d nodes for '%s', got '%.60s' (stacked or nested '+' or "
             "{n,m})",
             WP_CARD_MAX_RE_NODES, key, text);
    return -1;
  }
  regex_t re;
  int rc = regcomp(&re, text, WP_CARD_RE_FLAGS);
  if (rc != 0) {
    char reason[160];
    regerror(rc, &re, reason, sizeof(reason));
    snprintf(why, whylen,
             "expected a POSIX extended regular expression for '%s', got "
             "'%.60s' (%s)",
             key, text, reason);
    return rc == REG_ESPACE ? -2 : -1;
  }
  regfree(&re);
  *dst = strdup(text);
  return *dst == NULL ? -2 : 0;
}

/* A whole number 1 .. WP_CARD_MAX_CAP written plainly. */
static int set_max(wp_card_config *e, const char *text, bool plain, char *why,
                   size_t whylen) {
  uint64_t v = 0; /* 64 bits: unsigned long is 32 on Windows */
  bool ok = plain && *text != '\0';
  for (const char *p = text; ok && *p; p++) {
    ok = *p >= '0' && *p <= '9';
    v = v * 10 + (uint64_t)(*p - '0');
    ok = ok && v <= WP_CARD_MAX_CAP;
  }
  if (!ok || v == 0) {
    snprintf(why, whylen,
             "expected a whole number from 1 to %lu for 'max_instances', "
             "got '%.60s'",
             WP_CARD_MAX_CAP, text);
    return -1;
  }
  e->max_instances = (unsigned long)v;
  return 0;
}

int wp_card_set_key(wp_card_config *e, wp_card_key key, const char *text,
                    size_t len, bool plain, char *why, size_t whylen) {
  static const char *const totals[] = {"include", "exclude", "only", NULL};
  static const char *const aggs[] = {"none", "sum", "avg", "min", "max", NULL};
  if (strlen(text) != len) {
    snprintf(why, whylen, "expected a value without a NUL byte");
    return -1;
  }
  int i;
  switch (key) {
  case WP_CARD_KEY_INCLUDE:
    return set_regex(&e->include, "include", text, len, why, whylen);
  case WP_CARD_KEY_EXCLUDE:
    return set_regex(&e->exclude, "exclude", text, len, why, whylen);
  case WP_CARD_KEY_TOTAL:
    if ((i = pick(text, totals)) < 0)
      break;
    e->total = i; /* the order of WP_TOTAL_* */
    return 0;
  case WP_CARD_KEY_AGGREGATE:
    if ((i = pick(text, aggs)) <= 0) /* "none" is not a value to write */
      break;
    e->aggregate = i; /* the order of WP_AGG_* */
    return 0;
  default:
    return set_max(e, text, plain, why, whylen);
  }
  snprintf(why, whylen, "expected %s, got '%.60s'",
           key == WP_CARD_KEY_TOTAL ? "include, exclude or only for 'total'"
                                    : "sum, avg, min or max for 'aggregate'",
           text);
  return -1;
}

void wp_card_config_clear(wp_card_config *e) {
  free(e->include);
  free(e->exclude);
  e->include = e->exclude = NULL;
}

bool wp_card_wanted(const wp_card_config *e) {
  return e->include != NULL || e->exclude != NULL ||
         e->total != WP_TOTAL_INCLUDE || e->aggregate != WP_AGG_NONE ||
         e->max_instances > 0;
}
