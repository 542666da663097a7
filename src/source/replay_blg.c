/* collectd-winperf: the replay source over a Perfmon binary log (.blg):
 * one sample per collect, as the V1 blob the log's reader builds for the
 * logged machine (src/blg), and the log's name table.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "replay_blg.h"

#include "blg.h"
#include "blg_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct replay_blg {
  wp_source base; /* first member */
  char *file;
  uint8_t *data;
  size_t len;
  blg_log *log;
  size_t machine;
  size_t next; /* the sample the next collect returns */
  bool loop, ended;
  char last[64]; /* "FILE sample N" for log lines */
  char *where;
} replay_blg;

static wp_source_status blg_collect(wp_source *src, const char *query,
                                    wp_buffer *out, wp_error *err);

static replay_blg *as_blg(const wp_source *src) {
  if (src == NULL || src->collect != blg_collect)
    return NULL;
  return (replay_blg *)src;
}

static wp_source_status blg_collect(wp_source *src, const char *query,
                                    wp_buffer *out, wp_error *err) {
  replay_blg *r = as_blg(src);
  (void)query; /* a log holds whatever was logged */
  for (;;) {
    if (r->ended)
      return WP_SOURCE_END;
    if (r->next >= blg_sample_count(r->log)) {
      if (!r->loop) {
        r->ended = true;
        return WP_SOURCE_END;
      }
      r->next = 0;
    }
    size_t s = r->next++;
    snprintf(r->where, strlen(r->file) + 64, "%s sample %zu (offset 0x%zx)",
             r->file, s, blg_sample_offset(r->log, s));
    int rc = blg_sample_blob(r->log, s, r->machine, &out->data, &out->cap,
                             &out->len, err);
    if (rc < 0) {
      wp_error_prefix(err, "%s: ", r->file);
      return WP_SOURCE_ERROR;
    }
    if (rc > 0)
      return WP_SOURCE_OK;
    /* the machine has nothing in this sample: the next one */
    if (r->next >= blg_sample_count(r->log) && !r->loop) {
      r->ended = true;
      return WP_SOURCE_END;
    }
  }
}

static wp_source_status replay_blg_names(wp_source *src, wp_buffer *out,
                                         wp_error *err) {
  replay_blg *r = as_blg(src);
  size_t len;
  const uint8_t *names = blg_names_multisz(r->log, &len);
  if (wp_buffer_reserve(out, len ? len : 1) != 0)
    return wp_error_nomem(err);
  memcpy(out->data, names, len);
  out->len = len;
  return WP_SOURCE_OK;
}

static void blg_destroy(wp_source *src) {
  replay_blg *r = as_blg(src);
  if (r == NULL)
    return;
  blg_close(r->log);
  free(r->data);
  free(r->file);
  free(r->where);
  free(r);
}

bool wp_replay_is_blg(const char *path) {
  size_t n = strlen(path);
  return n > 4 && (strcmp(path + n - 4, ".blg") == 0 ||
                   strcmp(path + n - 4, ".BLG") == 0);
}

wp_source *wp_replay_blg_open(const char *path, bool loop, wp_error *err) {
  replay_blg *r = calloc(1, sizeof *r);
  if (r == NULL) {
    wp_error_nomem(err);
    return NULL;
  }
  r->base.kind = "replay";
  r->base.collect = blg_collect;
  r->base.names = replay_blg_names;
  r->base.destroy = blg_destroy;
  r->loop = loop;
  r->file = strdup(path);
  r->where = malloc(strlen(path) + 64);
  if (r->file == NULL || r->where == NULL) {
    wp_error_nomem(err);
    blg_destroy(&r->base);
    return NULL;
  }
  snprintf(r->where, strlen(path) + 64, "%s", path);
  if (blg_read_file(path, &r->data, &r->len, err) != 0) {
    blg_destroy(&r->base);
    return NULL;
  }
  r->log = blg_open(r->data, r->len, err);
  if (r->log == NULL) {
    wp_error_prefix(err, "%s: ", path);
    blg_destroy(&r->base);
    return NULL;
  }
  if (blg_sample_count(r->log) == 0) {
    wp_error_set(err, "%s: the log holds no sample", path);
    blg_destroy(&r->base);
    return NULL;
  }
  return &r->base;
}

const char *wp_replay_blg_machine(const wp_source *src) {
  replay_blg *r = as_blg(src);
  return r ? blg_machine_at(r->log, r->machine) : NULL;
}

const char *wp_replay_blg_where(const wp_source *src) {
  replay_blg *r = as_blg(src);
  return r ? r->where : NULL;
}

size_t wp_replay_blg_warnings(const wp_source *src, char *first, size_t size) {
  replay_blg *r = as_blg(src);
  if (r == NULL)
    return 0;
  const blg_warning *w = blg_warning_at(r->log, 0);
  if (w && size > 0)
    snprintf(first, size, "offset 0x%zx: %s", w->offset, w->message);
  return blg_warning_count(r->log);
}

size_t wp_replay_blg_machines(const wp_source *src) {
  replay_blg *r = as_blg(src);
  return r ? blg_machine_count(r->log) : 0;
}
