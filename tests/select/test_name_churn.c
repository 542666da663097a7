/* collectd-winperf tests: names and pairing while instances come and go.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Two snapshots take turns, as in the plugin, over 300 intervals of a host
 * whose processes are renamed, exit (the later ones move up), start at any
 * position, and whose threads change parent or name or exit; some
 * intervals change nothing. The names kept from one build to the next
 * (instance_names.c and its memos, full_names.c) must never show: every
 * interval, every full name, every lookup and every pairing is compared with a
 * model written here from format.md 1.4 alone (base "parent/name", or the own
 * name when the parent reference is out of range; "#n" for the n-th
 * earlier case-insensitive duplicate of a base; lookup: the first full
 * name equal case-insensitively; pairing by full name with the older
 * sample's first of that name). The name pool has case variants, a '#'
 * in an own name and own names that spell a joined name ("svc/0"), and
 * some renames take names never seen before, so the name memos outgrow
 * their bound and start afresh along the way (the threads' names are
 * built first, so a parent's memo may start afresh in the middle of it).
 * Phase 2 renames only a few processes an interval, so most names are
 * kept, the index is updated in place and the pairing goes by position.
 */
#include "encoder.h"
#include "perfdata.h"
#include "tap.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { PROCESS = 230, THREAD = 232, DELTA = 900 };
enum { MAX_P = 64, MAX_T = 160, INTERVALS = 300, PHASE2 = 600, NAME = 24 };
enum { NO_PARENT = 60000 };    /* a parent reference out of range */
enum { FULL = 2 * NAME + 16 }; /* a full name: base, "#", digits */

typedef struct model {
  int np, nt;
  char proc[MAX_P][NAME];
  char thread[MAX_T][NAME];
  int parent[MAX_T]; /* a process, or NO_PARENT */
} model;

static uint32_t rng = 12345;
static uint32_t next_rand(void) {
  rng = rng * 1103515245u + 12345u;
  return rng >> 8;
}
static int pick(int n) {
  return n > 0 ? (int)(next_rand() % (uint32_t)n) : 0;
}

static const char *const proc_pool[] = {"svc", "SVC", "Svc", "app", "web",
                                        "a",   "x",   "x#1", "b/c"};
static const char *const thread_pool[] = {"0", "1", "2", "svc/0", "SVC/0#1"};
static int fresh = 0;

static void fresh_name(char *out) {
  snprintf(out, NAME, "u%d", fresh++); /* never seen before */
}

static void proc_name(char *out) {
  if (pick(4) == 0)
    fresh_name(out);
  else
    snprintf(out, NAME, "%s", proc_pool[pick(9)]);
}

static void add_thread(model *m, int at, int parent) {
  if (m->nt == MAX_T)
    return;
  memmove(m->thread[at + 1], m->thread[at], (size_t)(m->nt - at) * NAME);
  memmove(&m->parent[at + 1], &m->parent[at],
          (size_t)(m->nt - at) * sizeof(int));
  snprintf(m->thread[at], NAME, "%s", thread_pool[pick(5)]);
  m->parent[at] = parent;
  m->nt++;
}

static void remove_thread(model *m, int at) {
  memmove(m->thread[at], m->thread[at + 1], (size_t)(m->nt - at - 1) * NAME);
  memmove(&m->parent[at], &m->parent[at + 1],
          (size_t)(m->nt - at - 1) * sizeof(int));
  m->nt--;
}

static void remove_process(model *m, int p) {
  memmove(m->proc[p], m->proc[p + 1], (size_t)(m->np - p - 1) * NAME);
  m->np--;
  for (int t = m->nt; t-- > 0;)
    if (m->parent[t] == p)
      remove_thread(m, t);
    else if (m->parent[t] != NO_PARENT && m->parent[t] > p)
      m->parent[t]--;
}

static void insert_process(model *m, int p) {
  if (m->np == MAX_P)
    return;
  memmove(m->proc[p + 1], m->proc[p], (size_t)(m->np - p) * NAME);
  proc_name(m->proc[p]);
  m->np++;
  for (int t = 0; t < m->nt; t++)
    if (m->parent[t] != NO_PARENT && m->parent[t] >= p)
      m->parent[t]++;
  for (int k = pick(4); k > 0; k--)
    add_thread(m, pick(m->nt + 1), p);
}

/* One interval's changes: none in one interval of four. */
static void mutate(model *m) {
  if (pick(4) == 0)
    return;
  /* Names never seen: the memos (a bound of twice the live names plus
   * 1,024) start afresh about once in 100 intervals. */
  for (int k = 0; k < 12 && m->np > 0; k++)
    fresh_name(m->proc[pick(m->np)]);
  for (int k = 0; k < 12 && m->nt > 0; k++)
    fresh_name(m->thread[pick(m->nt)]);
  for (int ops = 1 + pick(4); ops > 0; ops--) {
    switch (pick(7)) {
    case 0:
      if (m->np > 0)
        proc_name(m->proc[pick(m->np)]);
      break;
    case 1:
      if (m->np > 8)
        remove_process(m, pick(m->np));
      break;
    case 2:
      insert_process(m, pick(m->np + 1));
      break;
    case 3:
      if (m->nt > 0)
        m->parent[pick(m->nt)] = pick(8) == 0 ? NO_PARENT : pick(m->np);
      break;
    case 4:
      if (m->nt > 0)
        snprintf(m->thread[pick(m->nt)], NAME, "%s", thread_pool[pick(5)]);
      break;
    case 5:
      if (m->nt > 8)
        remove_thread(m, pick(m->nt));
      break;
    default:
      if (m->np > 0)
        add_thread(m, pick(m->nt + 1), pick(m->np));
      break;
    }
  }
}

static bool same_folded(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
      return false;
  return *a == *b;
}

/* format.md 1.4 full names of n bases, in blob order. */
static void number(char (*full)[FULL], char (*base)[2 * NAME], int n) {
  for (int i = 0; i < n; i++) {
    int earlier = 0;
    for (int j = 0; j < i; j++)
      earlier += same_folded(base[j], base[i]);
    if (earlier == 0)
      snprintf(full[i], FULL, "%.*s", 2 * NAME, base[i]);
    else
      snprintf(full[i], FULL, "%.*s#%d", 2 * NAME, base[i], earlier);
  }
}

typedef struct names {
  int np, nt;
  char proc[MAX_P][FULL];
  char thread[MAX_T][FULL];
} names;

static void model_names(const model *m, names *out) {
  static char base[MAX_T][2 * NAME];
  for (int p = 0; p < m->np; p++)
    snprintf(base[p], 2 * NAME, "%s", m->proc[p]);
  number(out->proc, base, m->np);
  for (int t = 0; t < m->nt; t++)
    if (m->parent[t] == NO_PARENT)
      snprintf(base[t], 2 * NAME, "%s", m->thread[t]);
    else
      snprintf(base[t], 2 * NAME, "%s/%s", m->proc[m->parent[t]], m->thread[t]);
  number(out->thread, base, m->nt);
  out->np = m->np;
  out->nt = m->nt;
}

/* The counter's raw value for full name f in interval k: from f's folded
 * hash, advancing by a step of its own, plus 1,000 for each earlier
 * instance of the same full name in the sample (names with a '#' of their
 * own can repeat one); paired with the older sample's first of that name,
 * the DELTA is exactly the step plus 1,000 per earlier one now, and
 * paired with any other it is not. */
static uint32_t hash_of(const char *f) {
  uint32_t h = 2166136261u;
  for (; *f; f++)
    h = (h ^ (uint32_t)tolower((unsigned char)*f)) * 16777619u;
  return h;
}
static uint32_t step_of(const char *f) {
  return 1 + hash_of(f) % 97;
}
static uint32_t raw_of(const char *f, int k, int earlier) {
  return hash_of(f) % 4000 * 1000000u + (uint32_t)earlier * 1000 +
         (uint32_t)k * step_of(f);
}

/* Instances before i in full[] with the same full name. */
static int earlier_same(const char (*full)[FULL], int i) {
  int e = 0;
  for (int j = 0; j < i; j++)
    e += same_folded(full[j], full[i]);
  return e;
}

static uint8_t *build(const model *m, const names *nm, int k, size_t *len) {
  enc_blob *b = enc_new("CHURN");
  enc_set_clock(b, 1000 + (int64_t)k * 10000000, 10000000,
                133485408000000000 + (int64_t)k * 10000000);
  enc_object *po = enc_add_object(b, PROCESS, ENC_MULTI_INSTANCE);
  uint32_t pc = enc_add_counter(po, DELTA, PD_COUNTER_DELTA);
  for (int p = 0; p < m->np; p++)
    enc_set_value(po, enc_add_instance(po, m->proc[p]), pc,
                  raw_of(nm->proc[p], k, earlier_same(nm->proc, p)));
  enc_object *to = enc_add_object(b, THREAD, ENC_MULTI_INSTANCE);
  uint32_t tc = enc_add_counter(to, DELTA, PD_COUNTER_DELTA);
  for (int t = 0; t < m->nt; t++) {
    uint32_t in = enc_add_instance(to, m->thread[t]);
    enc_instance_set_parent(to, in, PROCESS, (uint32_t)m->parent[t]);
    enc_set_value(to, in, tc,
                  raw_of(nm->thread[t], k, earlier_same(nm->thread, t)));
  }
  uint8_t *blob = enc_build(b, len);
  enc_free(b);
  return blob;
}

/* Whether object `index` of snap has exactly the model's full names, and
 * each (asked for in upper case) is found where the model's first equal
 * name is. */
static bool names_right(pd_snapshot *snap, uint32_t index, char (*want)[FULL],
                        int n, char *why, size_t whylen) {
  const pd_object *o = pd_snapshot_find_object(snap, index);
  if (o == NULL || (int)o->instance_count != n) {
    snprintf(why, whylen, "%d instances, want %d",
             o ? (int)o->instance_count : -1, n);
    return false;
  }
  for (int i = 0; i < n; i++) {
    const char *got = pd_instance_full_name(snap, o, (uint32_t)i);
    if (got == NULL || strcmp(got, want[i]) != 0) {
      snprintf(why, whylen, "instance %d is \"%s\", want \"%s\"", i,
               got ? got : "(null)", want[i]);
      return false;
    }
    char upper[FULL];
    size_t l = strlen(want[i]);
    for (size_t c = 0; c <= l; c++)
      upper[c] = (char)toupper((unsigned char)want[i][c]);
    int first = 0;
    while (!same_folded(want[first], want[i]))
      first++;
    int64_t at = pd_find_instance(snap, o, upper);
    if (at != first) {
      snprintf(why, whylen, "find \"%s\": %lld, want %d", upper, (long long)at,
               first);
      return false;
    }
  }
  if (pd_find_instance(snap, o, "no such name") != -1) {
    snprintf(why, whylen, "found a name that is not there");
    return false;
  }
  return true;
}

/* Whether full name f was in the older sample (case-insensitively). */
static bool was_there(const names *older, bool thread, const char *f) {
  int n = thread ? older->nt : older->np;
  for (int i = 0; i < n; i++)
    if (same_folded(thread ? older->thread[i] : older->proc[i], f))
      return true;
  return false;
}

static bool pairs_right(const pd_result *r, size_t count, const names *now,
                        const names *older, int k, char *why, size_t whylen) {
  if (count != (size_t)(now->np + now->nt)) {
    snprintf(why, whylen, "%zu results, want %d", count, now->np + now->nt);
    return false;
  }
  for (size_t i = 0; i < count; i++) {
    bool thread = r[i].object_index == THREAD;
    const char *f = r[i].instance ? r[i].instance : "(null)";
    /* Results: the threads' path first, each object in blob order. */
    int at = thread ? (int)i : (int)i - now->nt;
    if (thread != (i < (size_t)now->nt) ||
        strcmp(f, thread ? now->thread[at] : now->proc[at]) != 0) {
      snprintf(why, whylen, "result %zu is \"%s\"", i, f);
      return false;
    }
    bool paired = k > 0 && was_there(older, thread, f);
    pd_value_status want = paired ? PD_VALUE_OK : PD_VALUE_FIRST_SAMPLE;
    uint32_t delta =
        step_of(f) +
        1000u * (uint32_t)earlier_same(thread ? now->thread : now->proc, at);
    if (r[i].status != want || (paired && r[i].value != (double)delta)) {
      snprintf(why, whylen, "%s \"%s\": status %d value %g, want %d %u",
               thread ? "thread" : "process", f, (int)r[i].status, r[i].value,
               (int)want, paired ? delta : 0);
      return false;
    }
  }
  return true;
}

/* Phase 2's change: a few processes renamed, nothing else; their names
 * without a '#' (the threads' own names have none either), so the names
 * stay distinct and most instances keep theirs. */
static void rename_few(model *m) {
  static const char *const pool[] = {"svc", "SVC", "app", "web", "a", "b/c"};
  if (pick(4) == 0)
    return;
  for (int k = 0; k < 3; k++)
    fresh_name(m->proc[pick(m->np)]);
  snprintf(m->proc[pick(m->np)], NAME, "%s", pool[pick(6)]);
}

/* The two snapshots, their blobs and one selection, as the plugin has. */
typedef struct run {
  pd_snapshot *snap[2];
  uint8_t *blob[2];
  pd_selection *sel;
  names nm[2];
  int k; /* intervals so far */
  int names_bad, pairs_bad;
} run;

/* One interval of model m: decode, evaluate, compare. */
static void interval(run *u, const model *m) {
  int k = u->k++, cur = k & 1;
  names *now = &u->nm[cur], *older = &u->nm[!cur];
  model_names(m, now);
  size_t len;
  pd_error err;
  char why[256];
  free(u->blob[cur]);
  u->blob[cur] = build(m, now, k, &len);
  pd_snapshot *s = u->snap[cur];
  if (pd_decode(s, u->blob[cur], len, NULL, &err) != PD_OK) {
    if (u->names_bad++ == 0)
      tap_diag("  interval %d: decode: %s", k, err.message);
    return;
  }
  /* Pairing first: it builds the names the way the plugin does. */
  const pd_result *r;
  size_t count;
  if (pd_selection_evaluate(u->sel, k ? u->snap[!cur] : NULL, s, &r, &count,
                            &err) != PD_OK) {
    if (u->pairs_bad++ == 0)
      tap_diag("  interval %d: evaluate: %s", k, err.message);
  } else if (!pairs_right(r, count, now, older, k, why, sizeof why) &&
             u->pairs_bad++ == 0) {
    tap_diag("  interval %d: pairing: %s", k, why);
  }
  if ((!names_right(s, PROCESS, now->proc, now->np, why, sizeof why) ||
       !names_right(s, THREAD, now->thread, now->nt, why, sizeof why)) &&
      u->names_bad++ == 0)
    tap_diag("  interval %d: names: %s", k, why);
}

int main(void) {
  static model m;
  static run u;
  for (int p = 0; p < 24; p++)
    proc_name(m.proc[m.np++]);
  for (int t = 0; t < 80; t++)
    add_thread(&m, m.nt, pick(m.np));
  u.snap[0] = pd_snapshot_new();
  u.snap[1] = pd_snapshot_new();
  u.sel = pd_selection_new();
  pd_error err;
  /* Threads first: their names are built before their parents' are. */
  pd_selection_add(u.sel, "\\232(*)\\900", NULL, &err);
  pd_selection_add(u.sel, "\\230(*)\\900", NULL, &err);
  pd_selection_set_paths(u.sel, false);

  for (int k = 0; k < INTERVALS; k++) {
    if (k > 0)
      mutate(&m);
    interval(&u, &m);
  }
  IS_INT(u.names_bad, 0,
         "phase 1, %d intervals: every full name and lookup as the model",
         INTERVALS);
  IS_INT(u.pairs_bad, 0,
         "phase 1, %d intervals: every value paired as the model", INTERVALS);
  OK(fresh > 4800, "phase 1: the renames took %d names never seen before",
     fresh);

  /* Phase 2: 40 processes of 3 threads each, only renames. */
  memset(&m, 0, sizeof m);
  for (int p = 0; p < 40; p++) {
    proc_name(m.proc[m.np++]);
    for (int t = 0; t < 3; t++) {
      snprintf(m.thread[m.nt], NAME, "%s", t == 2 ? "svc/0" : t ? "1" : "0");
      m.parent[m.nt++] = p;
    }
  }
  u.names_bad = u.pairs_bad = 0;
  int before = fresh;
  for (int k = 0; k < PHASE2; k++) {
    if (k > 0)
      rename_few(&m);
    interval(&u, &m);
  }
  IS_INT(u.names_bad, 0,
         "phase 2, %d intervals: every full name and lookup as the model",
         PHASE2);
  IS_INT(u.pairs_bad, 0,
         "phase 2, %d intervals: every value paired as the model", PHASE2);
  OK(fresh - before > 1300, "phase 2: %d names never seen before",
     fresh - before);

  pd_selection_free(u.sel);
  for (int i = 0; i < 2; i++) {
    pd_snapshot_free(u.snap[i]);
    free(u.blob[i]);
  }
  return tap_done();
}
