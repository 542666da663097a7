/* collectd-winperf: selection — configured paths matched against samples.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Given the configured counter paths (format.md 4.2), a names table (4.1) and a
 * pair of decoded samples, produce every matching counter's canonical path,
 * value and status in one pass. Instances pair across samples by process
 * id where the object has one, else by full PDH name as PDH does
 * (format.md 1.4, identity.h). All storage is owned here and reused, so a warm
 * selection allocates nothing per interval. This file: the configuration
 * (paths, names, options), the object query and each evaluation's plan
 * (which counters of which objects each path reads); evaluate.c the pass.
 */
#include "cache_check.h"
#include "selection.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pd_selection *pd_selection_new(void) {
  pd_selection *sel = calloc(1, sizeof(pd_selection));
  if (sel != NULL)
    sel->want_paths = true;
  return sel;
}

void pd_selection_free(pd_selection *sel) {
  if (sel == NULL)
    return;
  for (size_t i = 0; i < sel->path_count; i++) {
    compiled_path *cp = &sel->paths[i];
    free(cp->text);
    pd_path_clear(&cp->path);
    free(cp->instance_pattern);
    free(cp->objects);
  }
  free(sel->paths);
  free(sel->query);
  free(sel->results);
  free(sel->counters);
  free(sel->plan);
  free(sel->claims);
  free(sel->by_group);
  PD_CHECK(pd_check_matched_free(sel));
  free(sel->reported.key);
  wp_table_free(&sel->reported.index);
  pd_identity_free(&sel->identity);
  pd_text_free(&sel->text);
  free(sel);
}

/* Digits only, fits in 32 bits. */
static bool parse_index(const char *s, uint32_t *out) {
  uint64_t v = 0;
  if (*s == '\0')
    return false;
  for (; *s; s++) {
    if (*s < '0' || *s > '9')
      return false;
    v = v * 10 + (uint64_t)(*s - '0');
    if (v > UINT32_MAX)
      return false;
  }
  *out = (uint32_t)v;
  return true;
}

pd_status pd_selection_add(pd_selection *sel, const char *text, size_t *path_id,
                           pd_error *err) {
  if (sel == NULL || text == NULL)
    return pd_error_set(err, PD_E_ARGUMENT, 0, "no selection or path");
  pd_path path;
  pd_status s = pd_path_parse(text, &path, err);
  if (s != PD_OK)
    return s;
  if (WP_GROW(&sel->paths, &sel->path_cap, sel->path_count + 1,
              WP_GROW_NO_CAP) != WP_GROW_OK) {
    pd_path_clear(&path);
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  }
  compiled_path *cp = &sel->paths[sel->path_count];
  memset(cp, 0, sizeof *cp);
  cp->path = path;
  cp->pair_by = -1;
  cp->text = strdup(text);
  if (path.instance != NULL) {
    /* Rebuild the instance as PDH names it: parent/name, "#n" when n > 0
     * (#0 is the first of the duplicates, which has no suffix). */
    size_t len = strlen(path.instance) + 16 +
                 (path.parent ? strlen(path.parent) + 1 : 0);
    cp->instance_pattern = malloc(len);
    if (cp->instance_pattern != NULL) {
      int w = snprintf(cp->instance_pattern, len, "%s%s%s",
                       path.parent ? path.parent : "", path.parent ? "/" : "",
                       path.instance);
      if (path.dup_index > 0)
        snprintf(cp->instance_pattern + w, len - (size_t)w, "#%u",
                 path.dup_index);
    }
  }
  if (cp->text == NULL || (path.instance != NULL && !cp->instance_pattern)) {
    free(cp->text);
    free(cp->instance_pattern);
    pd_path_clear(&cp->path);
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  }
  cp->all_instances =
      cp->instance_pattern != NULL && strcmp(cp->instance_pattern, "*") == 0;
  if (path.object_is_index)
    parse_index(path.object, &cp->numeric_object);
  if (path.counter_is_index)
    parse_index(path.counter, &cp->numeric_counter);
  if (path_id != NULL)
    *path_id = sel->path_count;
  sel->path_count++;
  sel->resolved = false;
  return PD_OK;
}

void pd_selection_set_names(pd_selection *sel, const pd_names *names) {
  sel->names = names;
  sel->resolved = false;
}

void pd_selection_set_pairing(pd_selection *sel, pd_pair_by pair_by) {
  sel->identity.pair_by = pair_by;
}

bool pd_selection_set_path_pairing(pd_selection *sel, size_t path_id,
                                   pd_pair_by pair_by) {
  if (path_id >= sel->path_count ||
      (pair_by != PD_PAIR_BY_ID && pair_by != PD_PAIR_BY_FULL_NAME))
    return false;
  sel->paths[path_id].pair_by = (int)pair_by;
  return true;
}

bool pd_selection_set_path_group(pd_selection *sel, size_t path_id,
                                 uint32_t group) {
  if (path_id >= sel->path_count)
    return false;
  compiled_path *cp = &sel->paths[path_id];
  sel->grouped_paths += (group != 0) - (cp->group != 0);
  cp->group = group;
  return true;
}

void pd_selection_set_id_base(pd_selection *sel, bool want) {
  sel->want_id_base = want;
}

void pd_selection_set_paths(pd_selection *sel, bool want) {
  sel->want_paths = want;
}

void pd_selection_set_instance_filter(pd_selection *sel, size_t path_id,
                                      pd_instance_filter filter, void *ctx) {
  if (path_id < sel->path_count) {
    sel->paths[path_id].filter = filter;
    sel->paths[path_id].filter_ctx = ctx;
  }
}

void pd_selection_set_options(pd_selection *sel, const pd_calc_options *opt) {
  if (opt != NULL)
    sel->options = *opt;
  else
    memset(&sel->options, 0, sizeof sel->options);
}

size_t pd_selection_path_count(const pd_selection *sel) {
  return sel->path_count;
}

size_t pd_selection_matches(const pd_selection *sel, size_t path_id) {
  return path_id < sel->path_count ? sel->paths[path_id].matches : 0;
}

/* Object names to indices: every index the name has (format.md 4.1). Done when
 * paths or names change, not per interval. */
bool pd_selection_resolve(pd_selection *sel) {
  if (sel->resolved)
    return true;
  sel->unresolved = 0;
  for (size_t i = 0; i < sel->path_count; i++) {
    compiled_path *cp = &sel->paths[i];
    const uint32_t *idx = NULL;
    size_t n = 0;
    if (cp->path.object_is_index) {
      idx = &cp->numeric_object;
      n = 1;
    } else if (sel->names != NULL) {
      n = pd_names_lookup(sel->names, cp->path.object, &idx);
    }
    uint32_t *copy = NULL;
    if (n > 0) {
      copy = malloc(n * sizeof *copy);
      if (copy == NULL)
        return false;
      memcpy(copy, idx, n * sizeof *copy);
    } else {
      sel->unresolved++;
    }
    free(cp->objects);
    cp->objects = copy;
    cp->object_count = n;
  }
  pd_identity_resolve(&sel->identity, sel->names);

  /* The query string: unique indices, ascending, space-separated. */
  size_t total = 0;
  for (size_t i = 0; i < sel->path_count; i++)
    total += sel->paths[i].object_count;
  if (wp_grow_bytes(&sel->query, &sel->query_cap, total * 11 + 1,
                    WP_GROW_NO_CAP) != WP_GROW_OK)
    return false;
  uint32_t last = 0;
  bool any = false;
  size_t w = 0;
  sel->query[0] = '\0';
  for (;;) { /* selection of the next larger index: paths are few */
    bool found = false;
    uint32_t best = 0;
    for (size_t i = 0; i < sel->path_count; i++)
      for (size_t j = 0; j < sel->paths[i].object_count; j++) {
        uint32_t v = sel->paths[i].objects[j];
        if ((!any || v > last) && (!found || v < best)) {
          best = v;
          found = true;
        }
      }
    if (!found)
      break;
    w += (size_t)snprintf(sel->query + w, sel->query_cap - w, "%s%u",
                          any ? " " : "", best);
    last = best;
    any = true;
  }
  sel->resolved = true;
  return true;
}

const char *pd_selection_query(pd_selection *sel, size_t *unresolved) {
  if (!pd_selection_resolve(sel))
    return NULL;
  if (unresolved != NULL)
    *unresolved = sel->unresolved;
  return sel->query ? sel->query : "";
}

/* ------------------------------------------------------------ the plan */

static pd_status no_memory(pd_error *err) {
  return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
}

static const char *index_text(pd_selection *sel, uint32_t index) {
  char num[12];
  int len = snprintf(num, sizeof num, "%u", index);
  return pd_text_dup(&sel->text, num, (size_t)len);
}

const char *pd_display_name(pd_selection *sel, uint32_t index) {
  const char *name = sel->names ? pd_names_get(sel->names, index) : NULL;
  return name ? name : index_text(sel, index);
}

static bool counter_matches(const pd_selection *sel, const compiled_path *cp,
                            const pd_counter_def *def) {
  if (cp->path.counter_is_index)
    return def->name_index == cp->numeric_counter;
  const char *name =
      sel->names ? pd_names_get(sel->names, def->name_index) : NULL;
  if (cp->path.counter_has_wildcard) {
    char num[12];
    if (name == NULL) {
      snprintf(num, sizeof num, "%u", def->name_index);
      name = num;
    }
    return pd_wildcard_match(cp->path.counter, name);
  }
  return name != NULL && pd_name_casecmp(cp->path.counter, name) == 0;
}

/* The counters path_id names in newer's object obj_pos, appended to the
 * plan. Base and non-numeric counters are never shown alone. */
static pd_status plan_object(pd_selection *sel, size_t path_id,
                             pd_snapshot *older, pd_snapshot *newer,
                             uint32_t obj_pos, pd_error *err) {
  const compiled_path *cp = &sel->paths[path_id];
  const pd_object *obj = pd_snapshot_object(newer, obj_pos);
  const pd_object *old =
      older ? pd_object_by_index(older, obj->name_index) : NULL;
  if (WP_GROW(&sel->plan, &sel->plan_cap, sel->plan_count + 1,
              WP_GROW_NO_CAP) != WP_GROW_OK ||
      WP_GROW(&sel->counters, &sel->counters_cap,
              sel->counter_count + obj->counter_count,
              WP_GROW_NO_CAP) != WP_GROW_OK)
    return no_memory(err);
  path_object *po = &sel->plan[sel->plan_count++];
  if (sel->plan_count > sel->plan_init) { /* never used: nothing known */
    po->done_epoch = 0;
    sel->plan_init = sel->plan_count;
  }
  po->path_id = path_id;
  po->obj_pos = obj_pos;
  po->first = sel->counter_count;
  po->n = 0;
  for (uint32_t c = 0; c < obj->counter_count; c++) {
    const pd_counter_def *def = &obj->counters[c];
    if (!pd_type_is_displayable(def->type) || !counter_matches(sel, cp, def))
      continue;
    matched_counter *m = &sel->counters[sel->counter_count++];
    if (sel->counter_count > sel->counters_init) { /* no template yet */
      memset(&m->tmpl, 0, sizeof m->tmpl);
      sel->counters_init = sel->counter_count;
    }
    po->n++;
    m->pos = c;
    m->props = pd_type_props_of(def->type);
    if (old == NULL || pd_older_counter(old, def, c, &m->old_pos) == NULL)
      m->old_pos = UINT32_MAX;
    if ((m->name = pd_display_name(sel, def->name_index)) == NULL)
      return no_memory(err);
    m->name_len = strlen(m->name);
  }
  return PD_OK;
}

/* claims[] beyond the count of paths (0, 1, 2: two or more). */
enum { CLAIM_COUNT = 3, CLAIM_SEEN = 4, CLAIM_COVERED = 8 };

/* The plan entries of one group, in plan order: sel->by_group[from, to)
 * when the paths are grouped, else the whole plan. */
typedef struct plan_run {
  const pd_plan_rank *rank; /* NULL: entries from, ..., to - 1 */
  size_t from, to;
} plan_run;

static size_t run_entry(const plan_run *run, size_t i) {
  return run->rank ? run->rank[i].entry : i;
}

/* How many of the run's paths match each of its counters (claims[]): set
 * to 0, then counted. Only the run's counters are touched, so each group
 * counts afresh whatever another group left in claims[]. */
static void count_claims(pd_selection *sel, const pd_snapshot *newer,
                         const plan_run *run) {
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = run->from; i < run->to; i++) {
      const path_object *po = &sel->plan[run_entry(run, i)];
      uint8_t *claims = sel->claims + newer->object_first_counter[po->obj_pos];
      for (uint32_t k = 0; k < po->n; k++) {
        uint8_t *c = &claims[sel->counters[po->first + k].pos];
        *c = pass == 0 ? 0 : (uint8_t)(*c + (*c < 2));
      }
    }
}

/* Which counters of one group's plan entries need deduplicating, in plan
 * order: a counter two of its paths match goes through the reported set
 * (pd_reported), except that a pass over every instance (a "(*)" path
 * without a filter) reports all of them, so after one nothing is left to
 * report, and before one, when it is the first to match, nothing to look
 * up. */
static void share_run(pd_selection *sel, const pd_snapshot *newer,
                      const plan_run *run) {
  count_claims(sel, newer, run);
  for (size_t i = run->from; i < run->to; i++) {
    const path_object *po = &sel->plan[run_entry(run, i)];
    const compiled_path *cp = &sel->paths[po->path_id];
    bool every = cp->all_instances && cp->filter == NULL &&
                 pd_snapshot_object(newer, po->obj_pos)->num_instances != -1;
    uint8_t *claims = sel->claims + newer->object_first_counter[po->obj_pos];
    for (uint32_t k = 0; k < po->n; k++) {
      matched_counter *m = &sel->counters[po->first + k];
      uint8_t *c = &claims[m->pos];
      m->skip = (*c & CLAIM_COVERED) != 0;
      m->shared =
          (*c & CLAIM_COUNT) > 1 && !m->skip && !(every && !(*c & CLAIM_SEEN));
      *c |= CLAIM_SEEN | (every ? CLAIM_COVERED : 0);
    }
  }
}

static int by_rank(const void *pa, const void *pb) {
  const pd_plan_rank *a = pa, *b = pb;
  if (a->group != b->group)
    return a->group < b->group ? -1 : 1;
  return a->entry < b->entry ? -1 : a->entry > b->entry;
}

/* Which counters two paths of a group share: the whole plan as one run
 * when every path is in group 0, else each group's entries in turn. */
static pd_status share(pd_selection *sel, const pd_snapshot *newer,
                       pd_error *err) {
  if (sel->grouped_paths == 0) {
    share_run(sel, newer, &(plan_run){NULL, 0, sel->plan_count});
    return PD_OK;
  }
  if (WP_GROW(&sel->by_group, &sel->by_group_cap,
              sel->plan_count ? sel->plan_count : 1,
              WP_GROW_NO_CAP) != WP_GROW_OK)
    return no_memory(err);
  for (size_t q = 0; q < sel->plan_count; q++)
    sel->by_group[q] =
        (pd_plan_rank){sel->paths[sel->plan[q].path_id].group, q};
  qsort(sel->by_group, sel->plan_count, sizeof *sel->by_group, by_rank);
  for (size_t from = 0, to; from < sel->plan_count; from = to) {
    for (to = from + 1; to < sel->plan_count &&
                        sel->by_group[to].group == sel->by_group[from].group;
         to++)
      ;
    share_run(sel, newer, &(plan_run){sel->by_group, from, to});
  }
  return PD_OK;
}

pd_status pd_selection_plan(pd_selection *sel, pd_snapshot *older,
                            pd_snapshot *newer, pd_error *err) {
  sel->plan_count = sel->counter_count = 0;
  size_t defs = newer->counter_count;
  if (WP_GROW(&sel->claims, &sel->claims_cap, defs ? defs : 1,
              WP_GROW_NO_CAP) != WP_GROW_OK)
    return no_memory(err);
  uint32_t n_objects = pd_snapshot_object_count(newer);
  for (size_t p = 0; p < sel->path_count; p++) {
    compiled_path *cp = &sel->paths[p];
    cp->matches = 0;
    for (size_t j = 0; j < cp->object_count; j++)
      for (uint32_t k = 0; k < n_objects; k++) {
        if (pd_snapshot_object(newer, k)->name_index != cp->objects[j])
          continue;
        pd_status s = plan_object(sel, p, older, newer, k, err);
        if (s != PD_OK)
          return s;
        break; /* the first object with that index, as find_object does */
      }
  }
  return share(sel, newer, err);
}

char *pd_result_path(const pd_result *r, char *out, size_t len) {
  if (out == NULL || len == 0)
    return out;
  const char *inst = r->instance;
  snprintf(out, len, "\\%s%s%s%s\\%s", r->object ? r->object : "",
           inst ? "(" : "", inst ? inst : "", inst ? ")" : "",
           r->counter ? r->counter : "");
  return out;
}
