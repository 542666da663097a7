/* collectd-winperf: selection — configured paths matched against samples.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Given the configured counter paths (format.md 4.2), a names table (4.1) and a
 * pair of decoded samples, produce every matching counter's canonical path,
 * value and status in one pass. Instances pair across samples by process
 * id where the object has one, else by full PDH name as PDH does
 * (format.md 1.4, identity.h). All storage is owned here and reused, so a warm
 * selection allocates nothing per interval.
 */
#include "identity.h"
#include "seen_set.h"
#include "snapshot.h"
#include "type_props.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct matched_counter {
  uint32_t pos;     /* in the newer object */
  uint32_t old_pos; /* in the older object, UINT32_MAX: none */
  const char *name; /* display name, NULL until first reported */
  size_t name_len;
  pd_type_props props;
} matched_counter;

typedef struct compiled_path {
  char *text;
  pd_path path;
  char *instance_pattern; /* "parent/name#n" as written, NULL without () */
  uint32_t *objects;      /* object indices the object name resolves to */
  size_t object_count;
  uint32_t numeric_object; /* when path.object_is_index */
  uint32_t numeric_counter;
  bool all_instances;        /* "(*)": every instance, no matching needed */
  int pair_by;               /* pd_pair_by, or -1: the selection's */
  size_t matches;            /* counters matched in the last evaluation */
  pd_instance_filter filter; /* NULL: every matched instance */
  void *filter_ctx;
} compiled_path;

struct pd_selection {
  compiled_path *paths;
  size_t path_count, path_cap;
  const pd_names *names;
  bool resolved; /* paths' object lists match `names` */
  pd_calc_options options;
  bool want_id_base; /* pd_selection_set_id_base */

  char *query;
  size_t query_cap;
  size_t unresolved;

  pd_result *results;
  size_t result_count, result_cap;
  pd_text_arena text; /* canonical paths and names, reset per evaluation */

  /* Scratch: the counters of one object a path matches, each resolved once
   * per object (name, older position), not per value. */
  struct matched_counter *counters;
  size_t counters_cap;

  pd_seen_set seen; /* emitted (object, instance, counter) */

  /* ID Process / ID Thread, and the pairing of the newer sample's
   * instances with the older's, looked up once per evaluation and mode
   * however many paths need it. */
  pd_identity identity;
};

pd_selection *pd_selection_new(void) {
  return calloc(1, sizeof(pd_selection));
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
  pd_seen_free(&sel->seen);
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
  if (sel->path_count == sel->path_cap) {
    size_t cap = sel->path_cap ? sel->path_cap * 2 : 8;
    compiled_path *p = realloc(sel->paths, cap * sizeof *p);
    if (p == NULL) {
      pd_path_clear(&path);
      return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
    }
    sel->paths = p;
    sel->path_cap = cap;
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

void pd_selection_set_id_base(pd_selection *sel, bool want) {
  sel->want_id_base = want;
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
static bool resolve(pd_selection *sel) {
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
  size_t need = total * 11 + 1;
  if (need > sel->query_cap) {
    char *q = realloc(sel->query, need);
    if (q == NULL)
      return false;
    sel->query = q;
    sel->query_cap = need;
  }
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
  if (!resolve(sel))
    return NULL;
  if (unresolved != NULL)
    *unresolved = sel->unresolved;
  return sel->query ? sel->query : "";
}

/* ---------------------------------------------------------- evaluation */

static const char *index_text(pd_selection *sel, uint32_t index) {
  char num[12];
  int len = snprintf(num, sizeof num, "%u", index);
  return pd_text_dup(&sel->text, num, (size_t)len);
}

/* Name of an object or counter index: the table's, else the number. */
static const char *display_name(pd_selection *sel, uint32_t index) {
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

static pd_result *next_result(pd_selection *sel) {
  if (sel->result_count == sel->result_cap) {
    size_t cap = sel->result_cap ? sel->result_cap * 2 : 64;
    pd_result *r = realloc(sel->results, cap * sizeof *r);
    if (r == NULL)
      return NULL;
    sel->results = r;
    sel->result_cap = cap;
  }
  return &sel->results[sel->result_count++];
}

/* A wildcard matches every duplicate of the names it matches: the pattern
 * "svc*" followed by "/0" takes "svchost/0", "SVCHOST/0#1" and
 * "svchost/0#2" (format.md 4.2). Without a wildcard the full name must match,
 * so a name without "#n" means #0. */
static bool instance_matches(const compiled_path *cp, pd_snapshot *snap,
                             const pd_object *obj, uint32_t inst,
                             const char *full) {
  if (obj->num_instances == -1) /* single instance: no "(...)" or "(*)" */
    return cp->instance_pattern == NULL ||
           strcmp(cp->instance_pattern, "*") == 0;
  if (cp->instance_pattern == NULL)
    return false;
  if (cp->all_instances)
    return true;
  if (cp->path.instance_has_wildcard) {
    if (pd_wildcard_match(cp->instance_pattern, full))
      return true;
    const char *base = pd_instance_base_name(snap, obj, inst);
    return base != NULL && base != full &&
           pd_wildcard_match(cp->instance_pattern, base);
  }
  return pd_name_casecmp(cp->instance_pattern, full) == 0;
}

/* The path's filter on instance i (full: its full name, NULL when single):
 * 1 keep, 0 leave out, -1 out of memory. */
static int filter_keeps(const compiled_path *cp, size_t path_id,
                        pd_snapshot *snap, const pd_object *obj, uint32_t i,
                        const char *full) {
  if (cp->filter == NULL)
    return 1;
  const char *base = full ? pd_instance_base_name(snap, obj, i) : "";
  if (base == NULL)
    return -1;
  return cp->filter(cp->filter_ctx, path_id, full ? full : "", base);
}

/* The counters path cp names in obj, into sel->counters: once per object,
 * not per instance. Base and non-numeric counters are never shown alone. */
static pd_status match_counters(pd_selection *sel, const compiled_path *cp,
                                const pd_object *obj, const pd_object *old,
                                uint32_t *n, pd_error *err) {
  if (obj->counter_count > sel->counters_cap) {
    matched_counter *c = realloc(sel->counters, obj->counter_count * sizeof *c);
    if (c == NULL)
      return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
    sel->counters = c;
    sel->counters_cap = obj->counter_count;
  }
  *n = 0;
  for (uint32_t c = 0; c < obj->counter_count; c++)
    if (pd_type_is_displayable(obj->counters[c].type) &&
        counter_matches(sel, cp, &obj->counters[c])) {
      matched_counter *m = &sel->counters[(*n)++];
      m->pos = c;
      m->name = NULL;
      m->props = pd_type_props_of(obj->counters[c].type);
      if (old == NULL ||
          pd_older_counter(old, &obj->counters[c], c, &m->old_pos) == NULL)
        m->old_pos = UINT32_MAX;
    }
  return PD_OK;
}

static pd_status evaluate_object(pd_selection *sel, size_t path_id,
                                 pd_snapshot *older, pd_snapshot *newer,
                                 const pd_object *obj, uint32_t obj_pos,
                                 pd_error *err) {
  compiled_path *cp = &sel->paths[path_id];
  const pd_object *old =
      older ? pd_snapshot_find_object(older, obj->name_index) : NULL;
  uint32_t n_counters = 0;
  pd_status st = match_counters(sel, cp, obj, old, &n_counters, err);
  if (st != PD_OK || n_counters == 0)
    return st;

  sized object_name = {NULL, 0};
  int64_t t100 = pd_snapshot_header(newer)->perf_time_100ns;
  int32_t id_pos[PD_ID_KINDS];
  pd_identity_positions(&sel->identity, obj, obj_pos, id_pos);
  pd_sample now, before;
  pd_sample_clocks(newer, obj, &now);
  if (old != NULL)
    pd_sample_clocks(older, old, &before);
  bool exact = cp->instance_pattern != NULL &&
               !cp->path.instance_has_wildcard && obj->num_instances != -1;
  pd_pair_by pair_by =
      cp->pair_by >= 0 ? (pd_pair_by)cp->pair_by : sel->identity.pair_by;
  uint32_t first = 0, end = obj->instance_count;
  if (exact) { /* one instance by name: hash lookup, not a scan */
    if (!pd_full_names_built(newer, obj))
      return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
    int64_t at = pd_find_instance(newer, obj, cp->instance_pattern);
    if (at < 0)
      return PD_OK;
    first = (uint32_t)at;
    end = first + 1;
  }
  for (uint32_t i = first; i < end; i++) {
    const char *full =
        obj->num_instances == -1 ? NULL : pd_instance_full_name(newer, obj, i);
    if (obj->num_instances != -1 && full == NULL)
      return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
    if (!exact && !instance_matches(cp, newer, obj, i, full ? full : ""))
      continue;
    int keep = filter_keeps(cp, path_id, newer, obj, i, full);
    if (keep <= 0) {
      if (keep < 0)
        return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
      continue;
    }
    const pd_instance *old_inst = NULL;
    const char *id_base = NULL;
    pd_status s =
        old == NULL
            ? PD_OK
            : pd_identity_older(&sel->identity, pair_by, older, old, newer, obj,
                                obj_pos, i, full, &old_inst, err);
    if (s == PD_OK && pair_by == PD_PAIR_BY_ID && sel->want_id_base)
      s = pd_identity_base(&sel->identity, newer, obj, obj_pos, i, &id_base,
                           err);
    if (s != PD_OK)
      return s;
    /* Lives in the newer snapshot's arena, like the results' use of it. */
    sized instance_text = {full, full ? strlen(full) : 0};
    for (uint32_t k = 0; k < n_counters; k++) {
      matched_counter *m = &sel->counters[k];
      uint32_t c = m->pos;
      const pd_counter_def *def = &obj->counters[c];
      uint64_t key = (uint64_t)obj_pos << 52 | (uint64_t)i << 20 | c;
      cp->matches++; /* matched, whether reported here or earlier */
      int fresh = sel->path_count > 1 ? pd_seen_insert(&sel->seen, key) : 1;
      if (fresh < 0)
        return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
      if (fresh == 0)
        continue;
      if (object_name.s == NULL) {
        if ((object_name.s = display_name(sel, obj->name_index)) == NULL)
          return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
        object_name.len = strlen(object_name.s);
      }
      pd_sample_read(newer, obj, &obj->instances[i], c, m->props.needs_base,
                     &now);
      const pd_sample *prev = NULL;
      if (old_inst != NULL && m->old_pos != UINT32_MAX) {
        pd_sample_read(older, old, old_inst, m->old_pos, m->props.needs_base,
                       &before);
        prev = &before;
      }
      pd_result *r = next_result(sel);
      if (r == NULL)
        return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
      r->path_id = path_id;
      r->object = object_name.s;
      r->instance = instance_text.s;
      if (m->name == NULL &&
          (m->name = display_name(sel, def->name_index)) != NULL)
        m->name_len = strlen(m->name);
      r->counter = m->name;
      r->path = r->counter
                    ? pd_text_path(&sel->text, object_name, instance_text,
                                   (sized){m->name, m->name_len})
                    : NULL;
      if (r->path == NULL)
        return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
      r->object_index = obj->name_index;
      r->counter_index = def->name_index;
      r->counter_type = def->type;
      r->value = 0;
      r->status = pd_compute_props(def->type, m->props, prev, &now,
                                   &sel->options, &r->value);
      r->raw_value = now.value;
      r->raw_base = now.base;
      r->time_100ns = t100;
      pd_identity_of(id_pos, newer, obj, &obj->instances[i], &r->has_pid,
                     &r->pid, &r->has_tid, &r->tid);
      r->id_base = id_base;
    }
  }
  return PD_OK;
}

pd_status pd_selection_evaluate(pd_selection *sel, pd_snapshot *older,
                                pd_snapshot *newer, const pd_result **results,
                                size_t *count, pd_error *err) {
  if (sel == NULL || newer == NULL)
    return pd_error_set(err, PD_E_ARGUMENT, 0, "no selection or sample");
  sel->result_count = 0;
  pd_text_reset(&sel->text);
  pd_seen_begin(&sel->seen);
  if (!resolve(sel))
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  uint32_t n_objects = pd_snapshot_object_count(newer);
  if (newer->instance_count > UINT32_MAX ||
      !pd_identity_begin(&sel->identity, n_objects,
                         (uint32_t)newer->instance_count))
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  for (size_t p = 0; p < sel->path_count; p++) {
    compiled_path *cp = &sel->paths[p];
    cp->matches = 0;
    for (size_t j = 0; j < cp->object_count; j++)
      for (uint32_t k = 0; k < n_objects; k++) {
        const pd_object *obj = pd_snapshot_object(newer, k);
        if (obj->name_index != cp->objects[j])
          continue;
        pd_status s = evaluate_object(sel, p, older, newer, obj, k, err);
        if (s != PD_OK)
          return s;
        break; /* the first object with that index, as find_object does */
      }
  }
  *results = sel->results;
  *count = sel->result_count;
  return PD_OK;
}
