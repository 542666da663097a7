/* collectd-winperf: a context's life: created by the configuration, started
 * at init, freed by collectd (context.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "context.h"
#include "replay.h"

wp_ctx *wp_ctx_new(wp_source_kind kind) {
  wp_ctx *c = calloc(1, sizeof(*c));
  if (c == NULL)
    return NULL;
  c->kind = kind;
  c->replay_loop = true;
  c->opt.calc.multi_timer = PD_MULTI_TIMER_RESKIT;
  c->opt.self_metrics = true;
  c->hosts_per_helper = 1;
  c->group = -1;
  c->iv_fault = -1;
  return c;
}

void wp_counter_state_free(wp_counter_state *st, size_t entries) {
  for (size_t i = 0; st->rt != NULL && i < entries; i++)
    wp_card_free(st->rt[i].card);
  for (size_t i = 0; st->paths != NULL && i < st->path_count; i++)
    free(st->paths[i].object);
  free(st->rt);
  free(st->paths);
  pd_selection_free(st->sel);
  memset(st, 0, sizeof *st);
}

void wp_ctx_free(void *ctx) {
  wp_ctx *c = ctx;
  if (c == NULL)
    return;
  if (c->src != NULL)
    c->src->destroy(c->src);
  wp_source_shared_helper_release(c->shared);
  if (c->on_free != NULL) /* a fleet's host: its turn, its places, its ref */
    c->on_free(c);
  free(c->auth_error);
  wp_counter_state st = {c->sel, c->rt, c->paths, c->path_count};
  wp_counter_state_free(&st, c->counters.count);
  pd_names_free(c->names);
  wp_buffer_free(&c->names_buf);
  for (int i = 0; i < 2; i++) {
    wp_buffer_free(&c->buf[i]);
    pd_snapshot_free(c->snap[i]);
  }
  free(c->clash_logged);
  wp_agg_free(&c->agg);
  wp_name_cache_free(&c->name_cache);
  wp_counters_free(&c->counters);
  free(c->counters_file);
  free(c->replay_dir);
  free(c->host);
  free(c->address);
  free(c->user);
  free(c->domain);
  free(c->password_file);
  free(c->helper);
  free(c->helper_user);
  free(c->auth);
  free(c->principal);
  free(c->keytab);
  free(c->ccache);
  free(c->krb5_config);
  free(c);
}

const char *wp_ctx_where(const wp_ctx *c) {
  if (c->kind == WP_SOURCE_REMOTE)
    return c->host;
  const char *f = wp_replay_last_file(c->src);
  return f ? f : c->src->kind;
}
