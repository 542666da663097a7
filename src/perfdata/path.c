/* Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 * collectd-winperf: counter paths (spec 4.2), wildcard matching and
 * case-insensitive name comparison.
 *
 *   path     := [ "\\" machine ] "\" object [ "(" instance ")" ] "\" counter
 *   instance := [ parent "/" ] name [ "#" index ]
 *
 * Counter names may contain "/ # % ( )" and instance names parentheses, so
 * the split follows PDH: the counter is after the last '\', the object runs
 * to the first '(', the instance from there to the last ')', the parent
 * before the first '/', the index after the last '#' when all digits.
 * Errors are PD_E_PATH with offset = 0-based byte column.
 */
#include "pd_internal.h"

#include <stdlib.h>
#include <string.h>

int pd_name_casecmp(const char *a, const char *b) {
  if (a == NULL || b == NULL)
    return (a != NULL) - (b != NULL);
  for (;;) {
    /* ASCII fast path: same byte (NUL included) needs no folding. */
    while (*a == *b && (unsigned char)*a < 0x80) {
      if (*a == '\0')
        return 0;
      a++, b++;
    }
    uint32_t ca = pd_next_folded(&a);
    uint32_t cb = pd_next_folded(&b);
    if (ca != cb)
      return ca < cb ? -1 : 1;
    if (ca == 0)
      return 0;
  }
}

/* Greedy match with backtracking to the last '*' only: O(len(p) * len(t))
 * worst case, never exponential. Compares folded code points. */
bool pd_wildcard_match(const char *pattern, const char *text) {
  if (pattern == NULL || text == NULL)
    return false;
  const char *p = pattern, *t = text;
  const char *star_p = NULL, *star_t = NULL;
  for (;;) {
    const char *pn = p;
    uint32_t pc = pd_next_folded(&pn);
    if (pc == '*') {
      star_p = p = pn; /* '*' first matches nothing */
      star_t = t;
      continue;
    }
    const char *tn = t;
    uint32_t tc = pd_next_folded(&tn);
    if (tc == 0) {
      while (*p == '*')
        p++;
      return *p == '\0';
    }
    if (pc != 0 && pc == tc) {
      p = pn;
      t = tn;
      continue;
    }
    if (star_p == NULL)
      return false;
    /* Let the last '*' swallow one more character and retry. */
    pd_next_folded(&star_t);
    p = star_p;
    t = star_t;
  }
}

void pd_path_clear(pd_path *path) {
  if (path == NULL)
    return;
  free(path->machine);
  free(path->object);
  free(path->parent);
  free(path->instance);
  free(path->counter);
  memset(path, 0, sizeof *path);
}

static bool all_digits(const char *s, size_t n) {
  if (n == 0)
    return false;
  for (size_t i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9')
      return false;
  return true;
}

/* All digits and within uint32 (a name index, or a #n). */
static bool parse_u32(const char *s, size_t n, uint32_t *out) {
  uint64_t v = 0;
  if (!all_digits(s, n))
    return false;
  for (size_t i = 0; i < n; i++) {
    v = v * 10 + (uint64_t)(s[i] - '0');
    if (v > UINT32_MAX)
      return false;
  }
  *out = (uint32_t)v;
  return true;
}

static const char *find_char(const char *s, size_t n, char c) {
  return n ? memchr(s, c, n) : NULL;
}

static const char *find_last(const char *s, size_t n, char c) {
  for (size_t i = n; i > 0; i--)
    if (s[i - 1] == c)
      return s + i - 1;
  return NULL;
}

static bool dup_field(char **dst, const char *s, size_t n) {
  *dst = malloc(n + 1);
  if (*dst == NULL)
    return false;
  memcpy(*dst, s, n);
  (*dst)[n] = '\0';
  return true;
}

#define COL(p) ((size_t)((p)-text))

pd_status pd_path_parse(const char *text, pd_path *out, pd_error *err) {
  if (text == NULL || out == NULL)
    return pd_error_set(err, PD_E_ARGUMENT, 0, "counter path: NULL argument");
  memset(out, 0, sizeof *out);
  size_t len = strlen(text);
  if (text[0] != '\\')
    return pd_error_set(err, PD_E_PATH, 0,
                        "column 0: a counter path starts with '\\'");

  const char *rest = text; /* the '\' that starts the object */
  const char *machine = NULL;
  size_t machine_len = 0;
  if (text[1] == '\\') {
    machine = text + 2;
    const char *end = find_char(machine, len - 2, '\\');
    if (end == NULL)
      return pd_error_set(err, PD_E_PATH, len,
                          "column %zu: expected '\\' and an object name after "
                          "the machine name",
                          len);
    if (end == machine)
      return pd_error_set(err, PD_E_PATH, 2,
                          "column 2: empty machine name after '\\\\'");
    machine_len = (size_t)(end - machine);
    rest = end;
  }

  const char *end = text + len;
  const char *last = find_last(rest, (size_t)(end - rest), '\\');
  if (last == rest)
    return pd_error_set(err, PD_E_PATH, len,
                        "column %zu: expected '\\' and a counter name after "
                        "the object",
                        len);
  if (last + 1 == end)
    return pd_error_set(err, PD_E_PATH, len,
                        "column %zu: missing counter name after the last '\\'",
                        len);

  /* object [ "(" instance ")" ] between rest + 1 and last */
  const char *obj = rest + 1;
  size_t mid_len = (size_t)(last - obj);
  const char *open = find_char(obj, mid_len, '(');
  const char *close = find_last(obj, mid_len, ')');
  const char *obj_end = open ? open : last;
  if (obj_end == obj)
    return pd_error_set(err, PD_E_PATH, COL(obj),
                        "column %zu: empty object name", COL(obj));
  const char *star = find_char(obj, (size_t)(obj_end - obj), '*');
  if (star)
    return pd_error_set(err, PD_E_PATH, COL(star),
                        "column %zu: wildcards are not allowed in the object "
                        "name",
                        COL(star));
  if (open == NULL && close != NULL)
    return pd_error_set(err, PD_E_PATH, COL(close),
                        "column %zu: unbalanced parenthesis: ')' without '('",
                        COL(close));
  if (open != NULL && close == NULL)
    return pd_error_set(err, PD_E_PATH, COL(last),
                        "column %zu: unbalanced parenthesis: expected ')' "
                        "closing the '(' at column %zu",
                        COL(last), COL(open));
  if (open != NULL && close < open)
    return pd_error_set(err, PD_E_PATH, COL(close),
                        "column %zu: unbalanced parenthesis: ')' before the "
                        "first '('",
                        COL(close));
  if (close != NULL && close + 1 != last)
    return pd_error_set(err, PD_E_PATH, COL(close + 1),
                        "column %zu: expected '\\' after the instance's ')'",
                        COL(close + 1));

  /* instance := [ parent "/" ] name [ "#" index ] */
  const char *parent = NULL, *inst = NULL;
  size_t parent_len = 0, inst_len = 0;
  uint32_t dup_index = 0;
  if (open != NULL) {
    inst = open + 1;
    inst_len = (size_t)(close - inst);
    if (inst_len == 0)
      return pd_error_set(err, PD_E_PATH, COL(inst),
                          "column %zu: empty instance name", COL(inst));
    const char *slash = find_char(inst, inst_len, '/');
    if (slash != NULL) {
      parent = inst;
      parent_len = (size_t)(slash - inst);
      if (parent_len == 0)
        return pd_error_set(err, PD_E_PATH, COL(inst),
                            "column %zu: empty parent instance name before "
                            "'/'",
                            COL(inst));
      inst = slash + 1;
      inst_len = (size_t)(close - inst);
    }
    const char *hash = find_last(inst, inst_len, '#');
    if (hash != NULL && all_digits(hash + 1, (size_t)(close - hash - 1))) {
      if (!parse_u32(hash + 1, (size_t)(close - hash - 1), &dup_index))
        return pd_error_set(err, PD_E_PATH, COL(hash + 1),
                            "column %zu: instance index after '#' is above "
                            "4294967295",
                            COL(hash + 1));
      inst_len = (size_t)(hash - inst);
    }
    if (inst_len == 0)
      return pd_error_set(err, PD_E_PATH, COL(inst),
                          "column %zu: empty instance name", COL(inst));
  }

  const char *counter = last + 1;
  size_t counter_len = (size_t)(end - counter);
  size_t obj_len = (size_t)(obj_end - obj);
  uint32_t ignored;
  out->object_is_index = parse_u32(obj, obj_len, &ignored);
  out->counter_is_index = parse_u32(counter, counter_len, &ignored);
  out->instance_has_wildcard = (parent && memchr(parent, '*', parent_len)) ||
                               (inst && memchr(inst, '*', inst_len));
  out->counter_has_wildcard = memchr(counter, '*', counter_len) != NULL;
  out->dup_index = dup_index;
  if ((machine && !dup_field(&out->machine, machine, machine_len)) ||
      !dup_field(&out->object, obj, obj_len) ||
      (parent && !dup_field(&out->parent, parent, parent_len)) ||
      (inst && !dup_field(&out->instance, inst, inst_len)) ||
      !dup_field(&out->counter, counter, counter_len)) {
    pd_path_clear(out);
    return pd_error_set(err, PD_E_NOMEM, 0, "counter path: out of memory");
  }
  return PD_OK;
}
