/* collectd-winperf: live reload of a context's CountersFile (reload.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "reload.h"
#include "counters.h"
#include "reload_map.h"

#include <errno.h>

/* The file's identity; -1 with "PATH: reason" in err. */
static int file_id(const char *path, wp_file_id *id, wp_error *err) {
  if (wp_file_id_of(path, id) != 0)
    return wp_error_errno(err, errno, "%s", path);
  return 0;
}

/* "<Host "name">: " for a <Host> block's messages, "" otherwise. */
static const char *who(const wp_ctx *c, char *buf, size_t len) {
  if (c->kind != WP_SOURCE_REMOTE)
    return "";
  snprintf(buf, len, "<Host \"%s\">: ", c->host);
  return buf;
}

static const char *entries(size_t n) {
  return n == 1 ? "entry" : "entries";
}

/* The new list's runtime state: an unchanged entry keeps its warning
 * state and its alternative in use, an added one is fresh (dispatch.c
 * drops its values) until a sample has been taken with it. 0, or -1 when
 * memory runs out. */
static int carry_over(wp_ctx *c, const wp_counter_list *list, wp_entry_rt *rt,
                      size_t *kept, bool *any_fresh) {
  size_t *map = calloc(list->count ? list->count : 1, sizeof(*map));
  if (map == NULL || wp_reload_map(&c->counters, list, map, kept) != 0) {
    free(map);
    return -1;
  }
  for (size_t i = 0; i < list->count; i++) {
    if (map[i] == WP_RELOAD_NONE) {
      rt[i].fresh = true;
    } else { /* fresh too: added by a reload and not sampled yet */
      const wp_entry_rt *was = &c->rt[map[i]];
      rt[i].fresh = was->fresh;
      rt[i].warned_no_match = was->warned_no_match;
      rt[i].active = was->active;
      rt[i].capped = was->capped;
    }
    *any_fresh |= rt[i].fresh;
  }
  free(map);
  return 0;
}

/* Read and build the changed file; swap it in when it is good. */
static void reload(wp_ctx *c) {
  char wb[DATA_MAX_NAME_LEN + 16];
  const char *w = who(c, wb, sizeof(wb));
  wp_counter_list list = {0};
  wp_counter_state st = {0};
  size_t kept = 0;
  bool any_fresh = false;
  int status = wp_counters_read(c, &list); /* logs FILE:LINE:COLUMN */
  if (status == 0)
    status = wp_counters_build(c, &list, &st);
  if (status == 0 && carry_over(c, &list, st.rt, &kept, &any_fresh) != 0) {
    ERROR(PLUGIN ": %sCountersFile %s: out of memory comparing the lists", w,
          c->counters_file);
    status = -1;
  }
  if (status != 0) {
    NOTICE(PLUGIN ": %sCountersFile %s changed but does not load: the %zu "
                  "%s in use stay until it changes again",
           w, c->counters_file, c->counters.count, entries(c->counters.count));
    wp_counter_state_free(&st, list.count);
    wp_counters_free(&list);
    return;
  }
  INFO(PLUGIN ": %sCountersFile %s reloaded: %zu %s (%zu unchanged, "
              "%zu added, %zu removed); added entries take their first "
              "sample now and report from the next interval on",
       w, c->counters_file, list.count, entries(list.count), kept,
       list.count - kept, c->counters.count - kept);
  wp_counters_install(c, &st); /* frees the old state (old entry count) */
  wp_counters_free(&c->counters);
  c->counters = list;
  c->warned_nothing_resolves = false;
  c->fresh_pending = any_fresh;
  c->fresh_cur = c->cur;
}

/* After a sample has been taken with the new list (the slot moved on),
 * the added entries are no longer fresh. */
static void end_fresh(wp_ctx *c) {
  if (!c->fresh_pending || c->cur == c->fresh_cur)
    return;
  for (size_t i = 0; i < c->counters.count; i++)
    c->rt[i].fresh = false;
  c->fresh_pending = false;
}

void wp_reload_check(wp_ctx *c) {
  end_fresh(c);
  wp_file_id id;
  wp_error err;
  if (file_id(c->counters_file, &id, &err) != 0) {
    if (!c->counters_stat_warned) {
      char wb[DATA_MAX_NAME_LEN + 16];
      WARNING(PLUGIN ": %sCountersFile %s; the %zu %s in use stay until it "
                     "is back",
              who(c, wb, sizeof(wb)), err.message, c->counters.count,
              entries(c->counters.count));
    }
    c->counters_stat_warned = true;
    return;
  }
  c->counters_stat_warned = false;
  /* Unknown when the stat before the configuration's read failed (or a
   * caller read the file itself): this first look takes it. */
  if (c->counters_id_known && wp_file_id_same(&id, &c->counters_id))
    return;
  bool first = !c->counters_id_known;
  c->counters_id = id;
  c->counters_id_known = true;
  if (!first)
    reload(c);
}

int wp_reload_read_first(wp_ctx *c) {
  wp_error err;
  c->counters_id_known = file_id(c->counters_file, &c->counters_id, &err) == 0;
  return wp_counters_read(c, &c->counters); /* its own error if it fails */
}
