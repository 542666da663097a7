/* collectd-winperf: selection — configured paths matched against samples.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Given the configured counter paths (format.md 4.2), a names table (4.1) and a
 * pair of decoded samples, produce every matching counter's canonical path,
 * value and status in one pass. Instances pair across samples by process
 * id where the object has one, else by full PDH name as PDH does
 * (format.md 1.4, identity.h). All storage is owned here and reused, so a warm
 * selection allocates nothing per interval. This file: the configuration
 * (paths, names, options) and the object query; evaluate.c the pass.
 */
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
