/* Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 * collectd-winperf: counter paths (format.md 4.2), wildcard matching and
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

/* A part of the path text, not NUL-terminated; s is NULL when the path
 * has no such part. */
typedef struct {
  const char *s;
  size_t n;
} span;

/* A path being parsed: every part is a span of the text, copied out only
 * once the whole path is valid. */
typedef struct {
  const char *text, *end; /* errors give columns from text; end is its NUL */
  pd_error *err;
  const char *last;         /* the '\' before the counter */
  const char *open, *close; /* the instance's '(' and last ')', or NULL */
  span machine, object, parent, instance, counter;
  uint32_t dup_index;
} path_scan;

#define COL(p) ((size_t)((p)-ps->text))

/* [ "\\" machine ]: *rest is the '\' that starts the object. */
static pd_status split_machine(path_scan *ps, const char **rest) {
  const char *text = ps->text;
  size_t len = (size_t)(ps->end - text);
  *rest = text;
  if (text[1] != '\\')
    return PD_OK;
  const char *machine = text + 2;
  const char *end = find_char(machine, len - 2, '\\');
  if (end == NULL)
    return pd_error_set(ps->err, PD_E_PATH, len,
                        "column %zu: expected '\\' and an object name after "
                        "the machine name",
                        len);
  if (end == machine)
    return pd_error_set(ps->err, PD_E_PATH, 2,
                        "column 2: empty machine name after '\\\\'");
  ps->machine = (span){machine, (size_t)(end - machine)};
  *rest = end;
  return PD_OK;
}

/* The counter is after the last '\' (format.md 4.2), which must not be the one
 * starting the object. */
static pd_status split_counter(path_scan *ps, const char *rest) {
  size_t len = (size_t)(ps->end - ps->text);
  const char *last = find_last(rest, (size_t)(ps->end - rest), '\\');
  if (last == rest)
    return pd_error_set(ps->err, PD_E_PATH, len,
                        "column %zu: expected '\\' and a counter name after "
                        "the object",
                        len);
  if (last + 1 == ps->end)
    return pd_error_set(ps->err, PD_E_PATH, len,
                        "column %zu: missing counter name after the last '\\'",
                        len);
  ps->last = last;
  ps->counter = (span){last + 1, (size_t)(ps->end - last - 1)};
  return PD_OK;
}

/* The instance's parentheses: from the first '(' to the last ')', which
 * must end right before the counter's '\'. */
static pd_status check_parentheses(const path_scan *ps) {
  const char *open = ps->open, *close = ps->close;
  if (open == NULL && close != NULL)
    return pd_error_set(ps->err, PD_E_PATH, COL(close),
                        "column %zu: unbalanced parenthesis: ')' without '('",
                        COL(close));
  if (open != NULL && close == NULL)
    return pd_error_set(ps->err, PD_E_PATH, COL(ps->last),
                        "column %zu: unbalanced parenthesis: expected ')' "
                        "closing the '(' at column %zu",
                        COL(ps->last), COL(open));
  if (open != NULL && close < open)
    return pd_error_set(ps->err, PD_E_PATH, COL(close),
                        "column %zu: unbalanced parenthesis: ')' before the "
                        "first '('",
                        COL(close));
  if (close != NULL && close + 1 != ps->last)
    return pd_error_set(ps->err, PD_E_PATH, COL(close + 1),
                        "column %zu: expected '\\' after the instance's ')'",
                        COL(close + 1));
  return PD_OK;
}

/* object [ "(" instance ")" ] between obj and the counter's '\': the object
 * runs to the first '(' (format.md 4.2) and takes no wildcard. */
static pd_status split_object(path_scan *ps, const char *obj) {
  size_t mid_len = (size_t)(ps->last - obj);
  ps->open = find_char(obj, mid_len, '(');
  ps->close = find_last(obj, mid_len, ')');
  const char *obj_end = ps->open ? ps->open : ps->last;
  if (obj_end == obj)
    return pd_error_set(ps->err, PD_E_PATH, COL(obj),
                        "column %zu: empty object name", COL(obj));
  const char *star = find_char(obj, (size_t)(obj_end - obj), '*');
  if (star)
    return pd_error_set(ps->err, PD_E_PATH, COL(star),
                        "column %zu: wildcards are not allowed in the object "
                        "name",
                        COL(star));
  ps->object = (span){obj, (size_t)(obj_end - obj)};
  return check_parentheses(ps);
}

/* [ "#" index ] ending the instance name at inst: taken only when all
 * digits (format.md 4.2), else '#' is part of the name; shortens *inst_len. */
static pd_status split_dup_index(path_scan *ps, const char *inst,
                                 size_t *inst_len) {
  const char *close = ps->close;
  const char *hash = find_last(inst, *inst_len, '#');
  if (hash == NULL || !all_digits(hash + 1, (size_t)(close - hash - 1)))
    return PD_OK;
  if (!parse_u32(hash + 1, (size_t)(close - hash - 1), &ps->dup_index))
    return pd_error_set(ps->err, PD_E_PATH, COL(hash + 1),
                        "column %zu: instance index after '#' is above "
                        "4294967295",
                        COL(hash + 1));
  *inst_len = (size_t)(hash - inst);
  return PD_OK;
}

/* instance := [ parent "/" ] name [ "#" index ], between the parentheses:
 * the parent is before the first '/' (format.md 4.2). */
static pd_status split_instance(path_scan *ps) {
  const char *inst = ps->open + 1;
  size_t inst_len = (size_t)(ps->close - inst);
  if (inst_len == 0)
    return pd_error_set(ps->err, PD_E_PATH, COL(inst),
                        "column %zu: empty instance name", COL(inst));
  const char *slash = find_char(inst, inst_len, '/');
  if (slash != NULL) {
    if (slash == inst)
      return pd_error_set(ps->err, PD_E_PATH, COL(inst),
                          "column %zu: empty parent instance name before "
                          "'/'",
                          COL(inst));
    ps->parent = (span){inst, (size_t)(slash - inst)};
    inst = slash + 1;
    inst_len = (size_t)(ps->close - inst);
  }
  pd_status st = split_dup_index(ps, inst, &inst_len);
  if (st != PD_OK)
    return st;
  if (inst_len == 0)
    return pd_error_set(ps->err, PD_E_PATH, COL(inst),
                        "column %zu: empty instance name", COL(inst));
  ps->instance = (span){inst, inst_len};
  return PD_OK;
}

static bool has_star(span sp) {
  return sp.s != NULL && memchr(sp.s, '*', sp.n) != NULL;
}

/* A NUL-terminated copy of the part; an absent part stays NULL. */
static bool dup_span(char **dst, span sp) {
  if (sp.s == NULL)
    return true;
  *dst = malloc(sp.n + 1);
  if (*dst == NULL)
    return false;
  memcpy(*dst, sp.s, sp.n);
  (*dst)[sp.n] = '\0';
  return true;
}

/* The parsed parts into out: the flags, then a copy of each part. */
static pd_status copy_parts(const path_scan *ps, pd_path *out) {
  uint32_t ignored;
  out->object_is_index = parse_u32(ps->object.s, ps->object.n, &ignored);
  out->counter_is_index = parse_u32(ps->counter.s, ps->counter.n, &ignored);
  out->instance_has_wildcard = has_star(ps->parent) || has_star(ps->instance);
  out->counter_has_wildcard = has_star(ps->counter);
  out->dup_index = ps->dup_index;
  if (!dup_span(&out->machine, ps->machine) ||
      !dup_span(&out->object, ps->object) ||
      !dup_span(&out->parent, ps->parent) ||
      !dup_span(&out->instance, ps->instance) ||
      !dup_span(&out->counter, ps->counter)) {
    pd_path_clear(out);
    return pd_error_set(ps->err, PD_E_NOMEM, 0, "counter path: out of memory");
  }
  return PD_OK;
}

pd_status pd_path_parse(const char *text, pd_path *out, pd_error *err) {
  if (text == NULL || out == NULL)
    return pd_error_set(err, PD_E_ARGUMENT, 0, "counter path: NULL argument");
  memset(out, 0, sizeof *out);
  if (text[0] != '\\')
    return pd_error_set(err, PD_E_PATH, 0,
                        "column 0: a counter path starts with '\\'");

  path_scan ps = {.text = text, .end = text + strlen(text), .err = err};
  const char *rest; /* the '\' that starts the object */
  pd_status st = split_machine(&ps, &rest);
  if (st == PD_OK)
    st = split_counter(&ps, rest);
  if (st == PD_OK)
    st = split_object(&ps, rest + 1);
  if (st == PD_OK && ps.open != NULL)
    st = split_instance(&ps);
  if (st != PD_OK)
    return st;
  return copy_parts(&ps, out);
}
