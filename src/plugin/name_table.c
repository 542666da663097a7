/* collectd-winperf: a context's Counter name table (name_table.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "name_table.h"

/* The load itself. With src_failed, a failure at the source while no table
 * is in use is the caller's to report (*src_failed, err). */
static bool load(wp_ctx *c, bool force, bool *src_failed, wp_error *err) {
  cdtime_t now = cdtime();
  if (c->names_tried && !force && now - c->names_at < WP_NAMES_RELOAD_MIN)
    return false;
  c->names_tried = true;
  c->names_at = now;
  /* Counters installed or removed: the local registry reopens its key. */
  (void)wp_source_names_changed(c->src);
  wp_error_clear(err);
  wp_source_status st = c->src->names(c->src, &c->names_buf, err);
  if (st != WP_SOURCE_OK) {
    if (c->names == NULL && src_failed != NULL) {
      *src_failed = true;
      return false;
    }
    bool host = c->kind == WP_SOURCE_REMOTE;
    WARNING(PLUGIN ": %s%s%snames table: %s (only numeric paths resolve)",
            host ? "host \"" : "", host ? c->host : "", host ? "\": " : "",
            err->message[0] ? err->message : "unknown error");
    return false;
  }
  pd_names *n = NULL;
  pd_error perr = {0};
  if (pd_names_parse(c->names_buf.data, c->names_buf.len, &n, &perr) != PD_OK) {
    WARNING(PLUGIN ": %s: names table: %s (%s)", wp_ctx_where(c), perr.message,
            pd_status_name(perr.status));
    pd_names_free(n);
    return false;
  }
  pd_selection_set_names(c->sel, n); /* before freeing the old one */
  pd_names_free(c->names);
  c->names = n;
  return true;
}

bool wp_names_load(wp_ctx *c, bool force) {
  wp_error err;
  return load(c, force, NULL, &err);
}

bool wp_names_first_load(wp_ctx *c, wp_error *err) {
  bool failed = false;
  load(c, true, &failed, err);
  return !failed;
}
