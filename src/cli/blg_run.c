/* collectd-winperf: `winperf blg`'s pass over a log's samples: each
 * sample's blob per machine, decoded and evaluated against that machine's
 * previous one, the cells the log holds handed to an output.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "blg_cli.h"

#include <stdlib.h>

/* The results whose cells the log holds (blg.md 4.3) into r->kept. */
static size_t keep_logged(blg_run *r, const pd_result *res, size_t n) {
  if (WP_GROW(&r->kept, &r->kept_cap, n, WP_GROW_NO_CAP) != WP_GROW_OK)
    return 0;
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    if (blg_cell_logged(r->log, res[i].object_index, res[i].counter_index,
                        res[i].instance))
      r->kept[kept++] = res[i];
  return kept;
}

static bool in_range(const blg_run *r, int64_t t) {
  return (!r->have_begin || t >= r->begin) && (!r->have_end || t <= r->end);
}

/* One sample of one machine; -1 when it could not be used (reported). */
static int one_sample(blg_run *r, size_t s, size_t m, const pd_result **res,
                      size_t *count) {
  blg_machine_state *st = &r->ms[m];
  int cur = st->cur;
  wp_error err;
  wp_error_clear(&err);
  int rc = blg_sample_blob(r->log, s, m, &st->buf[cur], &st->cap[cur],
                           &st->len[cur], &err);
  if (rc == 0)
    return 1; /* the machine has nothing in this sample */
  if (rc < 0) {
    cli_error("%s: %s", r->file, err.message);
    return -1;
  }
  pd_error perr = {0};
  pd_status ps =
      pd_decode(st->snap[cur], st->buf[cur], st->len[cur], NULL, &perr);
  if (ps == PD_OK)
    ps = pd_selection_evaluate(st->sel,
                               st->have_older ? st->snap[cur ^ 1] : NULL,
                               st->snap[cur], res, count, &perr);
  if (ps != PD_OK) {
    cli_error("%s: sample %zu (offset 0x%zx): %s", r->file, s,
              blg_sample_offset(r->log, s), perr.message);
    return -1;
  }
  st->have_older = true;
  st->cur = cur ^ 1;
  return 0;
}

int blg_run_samples(blg_run *r, blg_visit fn, void *ctx) {
  for (size_t m = 0; m < blg_machine_count(r->log); m++)
    r->ms[m].have_older = false;
  for (size_t s = 0; s < blg_sample_count(r->log); s++) {
    int64_t t = blg_sample_local(r->log, s);
    if (r->have_end && t > r->end)
      break;
    for (size_t m = 0; m < blg_machine_count(r->log); m++) {
      const pd_result *res = NULL;
      size_t n = 0;
      int rc = one_sample(r, s, m, &res, &n);
      if (rc != 0 || !in_range(r, t))
        continue;
      n = keep_logged(r, res, n);
      rc = fn(ctx, r, s, m, r->kept, n);
      if (rc != 0)
        return rc;
    }
  }
  return 0;
}
