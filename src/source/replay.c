/* collectd-winperf: the replay source (a capture directory of *.blob files).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "replay.h"
#include "replay_blg.h"

#include "wp_grow.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_BINARY
#define O_BINARY 0 /* Windows: no newline translation */
#endif

typedef struct replay {
  wp_source base; /* first member: a wp_source * is a replay * */
  char *dir;
  char **files; /* full paths, sorted by file name */
  size_t nfiles;
  size_t next; /* index of the blob the next collect returns */
  bool loop;
  bool ended;
  char *names_path;
  const char *last;      /* files[i] or names_path */
  uint32_t last_counter; /* from DIR/last-counter; 0: no such file */
} replay;

static wp_source_status replay_collect(wp_source *src, const char *query,
                                       wp_buffer *out, wp_error *err);

static replay *as_replay(const wp_source *src) {
  if (src == NULL || src->collect != replay_collect)
    return NULL;
  return (replay *)src;
}

static char *join_path(const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  char *p = malloc(a + 1 + b + 1);
  if (p == NULL)
    return NULL;
  memcpy(p, dir, a);
  size_t n = a;
  if (n == 0 || (dir[n - 1] != '/' && dir[n - 1] != '\\'))
    p[n++] = '/';
  memcpy(p + n, name, b + 1);
  return p;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with_blob(const char *name) {
  size_t n = strlen(name);
  return n > 5 && strcmp(name + n - 5, ".blob") == 0;
}

/* Read the whole file into out, at most WP_REPLAY_MAX_BYTES. open/read
 * rather than stdio (no FILE to allocate), chunked into the buffer's spare
 * capacity: once the buffer has grown to the largest file, steady state
 * allocates nothing. */
static wp_source_status read_whole(const char *path, wp_buffer *out,
                                   wp_error *err) {
  int fd = open(path, O_RDONLY | O_BINARY);
  if (fd < 0) {
    wp_error_errno(err, errno, "%s: cannot open", path);
    return WP_SOURCE_ERROR;
  }
  out->len = 0;
  for (;;) {
    if (out->len == out->cap) {
      size_t want = out->cap < 65536 ? 65536 : out->cap * 2;
      if (want > WP_REPLAY_MAX_BYTES + 1)
        want = WP_REPLAY_MAX_BYTES + 1;
      if (want <= out->cap || wp_buffer_reserve(out, want) != 0) {
        wp_error_set_code(err, WP_E_NOMEM, "%s: out of memory reading the file",
                          path);
        close(fd);
        out->len = 0;
        return WP_SOURCE_ERROR;
      }
    }
    size_t room = out->cap - out->len;
    if (room > (1u << 30))
      room = 1u << 30; /* read() takes an int-sized count on Windows */
    ssize_t got = read(fd, out->data + out->len, (unsigned)room);
    if (got < 0) {
      if (errno == EINTR)
        continue;
      wp_error_errno(err, errno, "%s: read error", path);
      close(fd);
      out->len = 0;
      return WP_SOURCE_ERROR;
    }
    out->len += (size_t)got;
    if (out->len > WP_REPLAY_MAX_BYTES) {
      wp_error_set_code(err, WP_E_LIMIT, "%s: larger than the %zu MiB limit",
                        path, WP_REPLAY_MAX_BYTES / (1024 * 1024));
      close(fd);
      out->len = 0;
      return WP_SOURCE_ERROR;
    }
    if (got == 0)
      break;
  }
  close(fd);
  return WP_SOURCE_OK;
}

static wp_source_status replay_collect(wp_source *src, const char *query,
                                       wp_buffer *out, wp_error *err) {
  replay *r = as_replay(src);
  (void)query; /* a capture holds whatever was captured */
  if (r->ended)
    return WP_SOURCE_END;
  if (r->next >= r->nfiles) {
    if (!r->loop) {
      r->ended = true;
      return WP_SOURCE_END;
    }
    r->next = 0;
  }
  /* Advance even when the read fails: a broken file is skipped, not retried
   * forever. */
  const char *path = r->files[r->next++];
  r->last = path;
  return read_whole(path, out, err);
}

static wp_source_status replay_names(wp_source *src, wp_buffer *out,
                                     wp_error *err) {
  replay *r = as_replay(src);
  r->last = r->names_path;
  return read_whole(r->names_path, out, err);
}

static uint32_t replay_last_counter(wp_source *src) {
  return as_replay(src)->last_counter;
}

/* DIR/last-counter, optional: Perflib's Last Counter of the captured host as
 * decimal text (one line), written by `winperf capture` (format.md 4.1). A
 * file that is there but not such a number is an error naming it. */
static bool read_last_counter(replay *r, wp_error *err) {
  char *path = join_path(r->dir, "last-counter");
  if (path == NULL) {
    wp_error_set_code(err, WP_E_NOMEM, "%s: out of memory", r->dir);
    return false;
  }
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    bool absent = errno == ENOENT;
    if (!absent)
      wp_error_errno(err, errno, "%s: cannot open", path);
    free(path);
    return absent;
  }
  char text[32];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r'))
    text[--n] = '\0';
  uint64_t v = 0;
  bool ok = n > 0 && n < 11;
  for (size_t i = 0; ok && i < n; i++)
    ok = text[i] >= '0' && text[i] <= '9' &&
         (v = v * 10 + (uint64_t)(text[i] - '0')) <= UINT32_MAX;
  if (!ok || v == 0)
    wp_error_set(err,
                 "%s: not Perflib's Last Counter (one line, a decimal number "
                 "from 1 to 4294967295)",
                 path);
  else
    r->last_counter = (uint32_t)v;
  free(path);
  return ok && v != 0;
}

static void replay_destroy(wp_source *src) {
  replay *r = as_replay(src);
  if (r == NULL)
    return;
  for (size_t i = 0; i < r->nfiles; i++)
    free(r->files[i]);
  free(r->files);
  free(r->names_path);
  free(r->dir);
  free(r);
}

wp_source *wp_replay_open(const char *dir, bool loop, wp_error *err) {
  if (dir == NULL || *dir == '\0') {
    wp_error_set(err, "replay: empty capture directory name");
    return NULL;
  }
  if (wp_replay_is_blg(dir)) /* a Perfmon log rather than a directory */
    return wp_replay_blg_open(dir, loop, err);
  replay *r = calloc(1, sizeof(*r));
  if (r == NULL) {
    wp_error_set_code(err, WP_E_NOMEM, "%s: out of memory", dir);
    return NULL;
  }
  r->base.kind = "replay";
  r->base.collect = replay_collect;
  r->base.names = replay_names;
  r->base.destroy = replay_destroy;
  r->base.last_counter = replay_last_counter;
  r->loop = loop;
  r->dir = strdup(dir);
  r->names_path = join_path(dir, "names.multisz");
  if (r->dir == NULL || r->names_path == NULL) {
    wp_error_set_code(err, WP_E_NOMEM, "%s: out of memory", dir);
    replay_destroy(&r->base);
    return NULL;
  }

  DIR *d = opendir(dir);
  if (d == NULL) {
    wp_error_errno(err, errno, "%s: cannot open the capture directory", dir);
    replay_destroy(&r->base);
    return NULL;
  }
  if (!read_last_counter(r, err)) {
    closedir(d);
    replay_destroy(&r->base);
    return NULL;
  }
  size_t cap = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!ends_with_blob(e->d_name))
      continue;
    char *path = join_path(dir, e->d_name);
    if (path == NULL)
      goto nomem;
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
      free(path); /* a directory or a dangling link named *.blob */
      continue;
    }
    int grown = WP_GROW(&r->files, &cap, r->nfiles + 1, WP_REPLAY_MAX_FILES);
    if (grown != WP_GROW_OK) {
      free(path);
      if (grown == WP_GROW_NOMEM)
        goto nomem;
      closedir(d);
      wp_error_set_code(
          err, WP_E_LIMIT,
          "%s: more than %zu *.blob files in the capture directory", dir,
          (size_t)WP_REPLAY_MAX_FILES);
      replay_destroy(&r->base);
      return NULL;
    }
    r->files[r->nfiles++] = path;
  }
  closedir(d);
  if (r->nfiles == 0) {
    wp_error_set(err, "%s: no *.blob files in the capture directory", dir);
    replay_destroy(&r->base);
    return NULL;
  }
  /* Same directory prefix for every path: sorting full paths sorts names. */
  qsort(r->files, r->nfiles, sizeof(*r->files), cmp_str);
  return &r->base;

nomem:
  closedir(d);
  wp_error_set_code(err, WP_E_NOMEM, "%s: out of memory listing the directory",
                    dir);
  replay_destroy(&r->base);
  return NULL;
}

const char *wp_replay_last_file(const wp_source *src) {
  replay *r = as_replay(src);
  return r ? r->last : wp_replay_blg_where(src);
}

size_t wp_replay_blob_count(const wp_source *src) {
  replay *r = as_replay(src);
  return r ? r->nfiles : 0;
}
