/* Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 * collectd-winperf: why a counter path matches nothing (diagnose.h).
 *
 * Whether a path matches is decided by a one-path pd_selection over the
 * answer, so the diagnosis agrees with what the plugin and `winperf query`
 * collect; the rest only explains a path that matches nothing.
 */
#include "diagnose.h"
#include "pd_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pd_verdict_name(pd_verdict verdict) {
  switch (verdict) {
  case PD_VERDICT_OK:
    return "ok";
  case PD_VERDICT_NO_INSTANCES:
    return "no-instances";
  case PD_VERDICT_UNKNOWN_NAME:
    return "unknown-name";
  case PD_VERDICT_OBJECT_ABSENT:
    return "object-absent";
  case PD_VERDICT_PROVIDER_FAILED:
    return "provider-failed";
  case PD_VERDICT_ACCESS_DENIED:
    return "access-denied";
  case PD_VERDICT_REMOTE_REGISTRY_OFF:
    return "remote-registry-off";
  case PD_VERDICT_NAMES_TABLE_CORRUPT:
    return "names-table-corrupt";
  }
  return "unknown";
}

bool pd_verdict_resolves(pd_verdict verdict) {
  return verdict == PD_VERDICT_OK || verdict == PD_VERDICT_NO_INSTANCES;
}

/* ------------------------------------------------------ edit distance */

enum { MAX_POINTS = 128 };

static size_t folded_points(const char *s, uint32_t *out) {
  size_t n = 0;
  uint32_t c;
  while (n < MAX_POINTS && (c = pd_next_folded(&s)) != 0)
    out[n++] = c;
  return n;
}

size_t pd_name_distance(const char *a, const char *b) {
  uint32_t x[MAX_POINTS], y[MAX_POINTS];
  size_t row[MAX_POINTS + 1];
  size_t n = folded_points(a ? a : "", x), m = folded_points(b ? b : "", y);
  for (size_t j = 0; j <= m; j++)
    row[j] = j;
  for (size_t i = 1; i <= n; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= m; j++) {
      size_t up = row[j];
      size_t best = diag + (x[i - 1] != y[j - 1]);
      if (up + 1 < best)
        best = up + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[m];
}

/* The closest candidates so far, best first (ties: first offered). */
typedef struct closest {
  const char *typed;
  size_t limit; /* farther than this is no suggestion */
  size_t count;
  const char *name[PD_DIAG_MAX_SUGGESTIONS];
  size_t dist[PD_DIAG_MAX_SUGGESTIONS];
} closest;

static void closest_init(closest *c, const char *typed) {
  uint32_t points[MAX_POINTS];
  size_t n = folded_points(typed, points);
  memset(c, 0, sizeof *c);
  c->typed = typed;
  c->limit = n / 2 > 2 ? n / 2 : 2;
}

static void closest_offer(closest *c, const char *name) {
  if (name == NULL)
    return;
  for (size_t k = 0; k < c->count; k++)
    if (pd_name_casecmp(c->name[k], name) == 0)
      return;
  size_t d = pd_name_distance(c->typed, name);
  if (d > c->limit)
    return;
  size_t at = c->count;
  while (at > 0 && c->dist[at - 1] > d)
    at--;
  if (at >= PD_DIAG_MAX_SUGGESTIONS)
    return;
  size_t last = c->count < PD_DIAG_MAX_SUGGESTIONS
                    ? c->count
                    : PD_DIAG_MAX_SUGGESTIONS - 1;
  for (size_t k = last; k > at; k--) {
    c->name[k] = c->name[k - 1];
    c->dist[k] = c->dist[k - 1];
  }
  c->name[at] = name;
  c->dist[at] = d;
  if (c->count < PD_DIAG_MAX_SUGGESTIONS)
    c->count++;
}

/* ------------------------------------------------------ the names table */

static bool problem(pd_names_check *out, pd_names_problem p, uint32_t index,
                    const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static bool problem(pd_names_check *out, pd_names_problem p, uint32_t index,
                    const char *fmt, ...) {
  va_list ap;
  out->problem = p;
  out->index = index;
  va_start(ap, fmt);
  vsnprintf(out->message, sizeof out->message, fmt, ap);
  va_end(ap);
  return false;
}

/* An object of the answer the table does not name, or above Perflib's Last
 * Counter where it is known. Counters are not checked: real hosts have a
 * few unnamed ones (and index 0), which says nothing about the object's
 * name. */
static bool check_answer(const pd_names *names, const pd_snapshot *answer,
                         uint32_t last, pd_names_check *out) {
  uint32_t n = pd_snapshot_object_count(answer);
  for (uint32_t k = 0; k < n; k++) {
    uint32_t idx = pd_snapshot_object(answer, k)->name_index;
    if (last != 0 && idx > last)
      return problem(out, PD_NAMES_LAST_BELOW, idx,
                     "Perflib's Last Counter %u is below object index %u of "
                     "the answer",
                     last, idx);
    if (pd_names_get(names, idx) == NULL)
      return problem(out, PD_NAMES_MISSING_INDEX, idx,
                     "object index %u of the answer has no name in the table",
                     idx);
  }
  return true;
}

bool pd_names_check_table(const pd_names *names, uint32_t last_counter,
                          const pd_snapshot *answer, pd_names_check *out) {
  memset(out, 0, sizeof *out);
  size_t n = pd_names_count(names);
  if (n == 0)
    return problem(out, PD_NAMES_EMPTY, 0, "the table has no names");
  uint32_t prev_index = 0;
  const char *prev = NULL;
  for (size_t i = 0; i < n; i++) {
    uint32_t index;
    const char *name = pd_names_at(names, i, &index);
    if (index % 2 != 0 || index == 0)
      return problem(out, PD_NAMES_ODD_INDEX, index,
                     "index %u is %s (Counter indices are even, from 2)", index,
                     index ? "odd" : "0");
    if (prev != NULL && prev_index == index && pd_name_casecmp(prev, name) != 0)
      return problem(out, PD_NAMES_DUPLICATE, index,
                     "index %u is both \"%.60s\" and \"%.60s\"", index, prev,
                     name);
    prev = name;
    prev_index = index;
  }
  if (last_counter != 0 && prev_index > last_counter)
    return problem(out, PD_NAMES_LAST_BELOW, prev_index,
                   "Perflib's Last Counter %u is below index %u in use",
                   last_counter, prev_index);
  if (answer != NULL)
    return check_answer(names, answer, last_counter, out);
  return true;
}

/* ------------------------------------------------------- the diagnosis */

static void say(pd_diagnosis *out, pd_verdict verdict, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void say(pd_diagnosis *out, pd_verdict verdict, const char *fmt, ...) {
  va_list ap;
  out->verdict = verdict;
  va_start(ap, fmt);
  vsnprintf(out->fix, sizeof out->fix, fmt, ap);
  va_end(ap);
  for (char *p = out->fix; *p; p++) /* one line, no column separator */
    if ((unsigned char)*p < 0x20)
      *p = ' ';
}

/* Append "; did you mean: A, B, C?" and keep the names. */
static void suggest(pd_diagnosis *out, const closest *c) {
  size_t len = strlen(out->fix);
  for (size_t k = 0; k < c->count; k++) {
    out->suggestions[k] = c->name[k];
    len += (size_t)snprintf(out->fix + len,
                            len < sizeof out->fix ? sizeof out->fix - len : 0,
                            "%s%s", k ? ", " : "; did you mean: ", c->name[k]);
    if (len >= sizeof out->fix)
      len = sizeof out->fix - 1;
  }
  if (c->count > 0 && len + 1 < sizeof out->fix)
    strcat(out->fix, "?");
  out->suggestion_count = c->count;
}

static void failure_verdict(const pd_source_state *src, pd_diagnosis *out) {
  const char *d = src->detail ? src->detail : "",
             *sep = src->detail ? ": " : "";
  switch (src->failure) {
  case PD_SOURCE_ACCESS_DENIED:
    if (src->remote)
      say(out, PD_VERDICT_ACCESS_DENIED,
          "access denied%s%s; check the user and password, and that the "
          "account may read the registry remotely (Performance Monitor "
          "Users, the winreg pipe's ACL)",
          sep, d);
    else
      say(out, PD_VERDICT_ACCESS_DENIED,
          "access denied%s%s; add the account to Performance Monitor Users "
          "(or run as an administrator)",
          sep, d);
    return;
  case PD_SOURCE_REMOTE_REGISTRY_OFF:
    say(out, PD_VERDICT_REMOTE_REGISTRY_OFF,
        "the host has no \\pipe\\winreg%s%s; start the RemoteRegistry "
        "service and set it to start automatically",
        sep, d);
    return;
  default:
    say(out, PD_VERDICT_PROVIDER_FAILED,
        "the performance data query failed%s%s; a provider failed (see the "
        "Application event log, Perflib events), rebuild with lodctr /R",
        sep, d);
    return;
  }
}

static bool parse_u32(const char *s, uint32_t *out) {
  uint64_t v = 0;
  if (*s == '\0')
    return false;
  for (; *s; s++) {
    if (*s < '0' || *s > '9' ||
        (v = v * 10 + (uint64_t)(*s - '0')) > UINT32_MAX)
      return false;
  }
  *out = (uint32_t)v;
  return true;
}

/* The answer's object the path names; *known: the name (or index) is in
 * the table, *index: the first index it has. */
static const pd_object *find_object(const pd_path *p, const pd_names *names,
                                    const pd_snapshot *answer, bool *known,
                                    uint32_t *index) {
  const uint32_t *idx = index;
  size_t n = 0;
  *known = false;
  if (p->object_is_index) {
    if (!parse_u32(p->object, index))
      return NULL;
    n = 1;
    *known = pd_names_get(names, *index) != NULL;
  } else {
    n = pd_names_lookup(names, p->object, &idx);
    *known = n > 0;
    if (n > 0)
      *index = idx[0];
  }
  for (size_t k = 0; k < n; k++) {
    const pd_object *obj = pd_snapshot_find_object(answer, idx[k]);
    if (obj != NULL)
      return obj;
  }
  return NULL;
}

static void unknown_object(const pd_path *p, const pd_names *names,
                           const pd_snapshot *answer, pd_diagnosis *out) {
  if (p->object_is_index) {
    say(out, PD_VERDICT_UNKNOWN_NAME,
        "object index %s is neither in the name table nor in the answer: "
        "check the number, or register the provider (lodctr /Q lists them, "
        "lodctr /R rebuilds the table)",
        p->object);
    return;
  }
  if (names == NULL) {
    say(out, PD_VERDICT_UNKNOWN_NAME,
        "no name table to resolve object \"%s\": give one, or write the "
        "object's index",
        p->object);
    return;
  }
  closest c;
  closest_init(&c, p->object);
  uint32_t n = pd_snapshot_object_count(answer);
  for (uint32_t k = 0; k < n; k++)
    closest_offer(
        &c, pd_names_get(names, pd_snapshot_object(answer, k)->name_index));
  for (size_t i = 0; n == 0 && i < pd_names_count(names); i++)
    closest_offer(&c, pd_names_at(names, i, NULL));
  say(out, PD_VERDICT_UNKNOWN_NAME,
      "object \"%s\" is not in the name table: a typo, or its provider is "
      "not registered (lodctr /Q lists them, lodctr /R rebuilds the table)",
      p->object);
  suggest(out, &c);
}

/* 0: no counter of obj is the path's; 1: only a base or non-numeric one;
 * 2: a counter to show. */
static int find_counter(const pd_path *p, const pd_names *names,
                        const pd_object *obj) {
  uint32_t want = 0;
  bool by_index = p->counter_is_index && parse_u32(p->counter, &want);
  int found = 0;
  for (uint32_t c = 0; c < obj->counter_count && found < 2; c++) {
    const pd_counter_def *def = &obj->counters[c];
    const char *name = pd_names_get(names, def->name_index);
    char num[12];
    if (name == NULL) {
      snprintf(num, sizeof num, "%u", def->name_index);
      name = num;
    }
    bool match = by_index ? def->name_index == want
                 : p->counter_has_wildcard
                     ? pd_wildcard_match(p->counter, name)
                     : pd_name_casecmp(p->counter, name) == 0;
    if (match)
      found = pd_type_is_displayable(def->type) ? 2 : 1;
  }
  return found;
}

static void unknown_counter(const pd_path *p, const pd_names *names,
                            const pd_object *obj, const char *object, int found,
                            pd_diagnosis *out) {
  if (found == 1) {
    say(out, PD_VERDICT_UNKNOWN_NAME,
        "counter \"%s\" of \"%s\" is a base or non-numeric counter, never "
        "shown alone: name the counter it serves",
        p->counter, object);
    return;
  }
  closest c;
  closest_init(&c, p->counter);
  for (uint32_t k = 0; k < obj->counter_count; k++)
    if (pd_type_is_displayable(obj->counters[k].type))
      closest_offer(&c, pd_names_get(names, obj->counters[k].name_index));
  if (pd_names_lookup(names, p->counter, NULL) > 0)
    say(out, PD_VERDICT_UNKNOWN_NAME,
        "\"%s\" is in the name table but not a counter of \"%s\"", p->counter,
        object);
  else
    say(out, PD_VERDICT_UNKNOWN_NAME,
        "counter \"%s\" is not in the name table%s: a typo, or its provider "
        "is not registered (lodctr /R rebuilds the table)",
        p->counter, names ? "" : " (no name table given)");
  suggest(out, &c);
}

static void no_match(const pd_path *p, const pd_object *obj, const char *object,
                     pd_diagnosis *out) {
  if (obj->num_instances == -1)
    say(out, PD_VERDICT_UNKNOWN_NAME,
        "\"%s\" is a single-instance object: write the path without "
        "\"(%s)\"",
        object, p->instance);
  else if (p->instance == NULL)
    say(out, PD_VERDICT_UNKNOWN_NAME,
        "\"%s\" has instances: name one, or all with \"(*)\"", object);
  else if (obj->instance_count == 0)
    say(out, PD_VERDICT_NO_INSTANCES,
        "\"%s\" has no instances now: nothing to report yet (not an error)",
        object);
  else
    say(out, PD_VERDICT_NO_INSTANCES,
        "no instance of \"%s\" is \"%s\" now (it has %u): values start when "
        "one appears",
        object, p->instance, obj->instance_count);
}

/* The path does not match: tell why. */
static void explain(const pd_path *p, const pd_names *names,
                    pd_snapshot *answer, pd_diagnosis *out) {
  bool known;
  uint32_t index = 0;
  const pd_object *obj = find_object(p, names, answer, &known, &index);
  if (obj == NULL) {
    if (!known) {
      unknown_object(p, names, answer, out);
      return;
    }
    say(out, PD_VERDICT_OBJECT_ABSENT,
        "\"%s\" (index %u) is in the name table but not in the answer: its "
        "provider is disabled (Disable Performance Counters; lodctr /E:NAME "
        "enables it) or failed to load (see the Application event log)",
        pd_names_get(names, index), index);
    return;
  }
  char num[12];
  const char *object = pd_names_get(names, obj->name_index);
  if (object == NULL) {
    snprintf(num, sizeof num, "%u", obj->name_index);
    object = num;
  }
  int found = find_counter(p, names, obj);
  if (found < 2)
    unknown_counter(p, names, obj, object, found, out);
  else
    no_match(p, obj, object, out);
}

/* Counters the path matches in the answer, as the selection counts them. */
static pd_status count_matches(const char *text, const pd_names *names,
                               pd_snapshot *answer, size_t *matches,
                               pd_error *err) {
  pd_selection *sel = pd_selection_new();
  if (sel == NULL)
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  size_t id = 0, count = 0;
  const pd_result *res;
  pd_status st = pd_selection_add(sel, text, &id, err);
  if (st == PD_OK) {
    pd_selection_set_names(sel, names);
    st = pd_selection_evaluate(sel, NULL, answer, &res, &count, err);
  }
  *matches = st == PD_OK ? pd_selection_matches(sel, id) : 0;
  pd_selection_free(sel);
  return st;
}

pd_status pd_diagnose(const char *path, const pd_names *names,
                      pd_snapshot *answer, const pd_source_state *src,
                      pd_diagnosis *out, pd_error *err) {
  if (path == NULL || out == NULL)
    return pd_error_set(err, PD_E_ARGUMENT, 0, "no path or no diagnosis");
  memset(out, 0, sizeof *out);
  pd_path p;
  pd_status st = pd_path_parse(path, &p, err);
  if (st != PD_OK)
    return st;
  if (src != NULL && src->failure != PD_SOURCE_ANSWERED) {
    failure_verdict(src, out);
  } else if (answer == NULL) {
    st = pd_error_set(err, PD_E_ARGUMENT, 0, "no answer to diagnose");
  } else if ((st = count_matches(path, names, answer, &out->matches, err)) ==
             PD_OK) {
    if (out->matches > 0)
      say(out, PD_VERDICT_OK, "%zu %s", out->matches,
          out->matches == 1 ? "counter matches" : "counters match");
    else
      explain(&p, names, answer, out);
    /* The path's own problem first, then the table's (when the table
     * shows real damage, the path may be right and the table wrong). */
    pd_names_check check;
    if ((out->verdict == PD_VERDICT_UNKNOWN_NAME ||
         out->verdict == PD_VERDICT_OBJECT_ABSENT) &&
        names != NULL &&
        !pd_names_check_table(names, src ? src->last_counter : 0, answer,
                              &check)) {
      char was[sizeof out->fix];
      memcpy(was, out->fix, sizeof was);
      size_t len = strlen(was);
      bool ended = len > 0 && (was[len - 1] == '?' || was[len - 1] == '.');
      say(out, PD_VERDICT_NAMES_TABLE_CORRUPT,
          "%.280s%s Also, the name table is inconsistent: %s; rebuild it "
          "with lodctr /R (then winmgmt /resyncperf)",
          was, ended ? "" : ".", check.message);
    }
  }
  pd_path_clear(&p);
  return st;
}
