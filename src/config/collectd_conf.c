/* collectd-winperf: collectd's configuration syntax without collectd
 * (collectd_conf.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "collectd_conf.h"
#include "wp_grow.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#ifndef _WIN32
#include <glob.h>
#include <limits.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define MAX_DEPTH 16
#define MAX_LINE 65536

typedef struct reader {
  const char *file;
  FILE *f;
  unsigned line; /* of the logical line read last */
  wp_error *err;
  int depth; /* of Include */
} reader;

static int read_file(const char *path, wp_conf_item *parent, int depth,
                     wp_error *err);

/* One logical line (continuations joined) into buf; 0 at the end. */
static int logical_line(reader *r, char *buf, size_t cap) {
  size_t len = 0;
  char part[4096];
  bool any = false;
  while (fgets(part, sizeof(part), r->f) != NULL) {
    if (!any)
      r->line++;
    any = true;
    size_t n = strlen(part);
    bool more = n > 0 && part[n - 1] != '\n' && !feof(r->f);
    while (n > 0 && (part[n - 1] == '\n' || part[n - 1] == '\r'))
      part[--n] = '\0';
    bool cont = !more && n > 0 && part[n - 1] == '\\';
    if (cont)
      part[--n] = '\0';
    if (len + n + 1 >= cap)
      return wp_error_set(r->err, "%s:%u: line too long", r->file, r->line);
    memcpy(buf + len, part, n + 1);
    len += n;
    if (!more && !cont)
      return 1;
    if (cont)
      r->line++;
  }
  return any ? 1 : 0;
}

static int add_value(reader *r, wp_conf_item *it, const char *text,
                     bool quoted) {
  size_t need = (size_t)it->values_num + 1;
  if (need > it->values_cap) {
    size_t cap = it->values_cap;
    if (WP_GROW(&it->values, &cap, need, INT_MAX) != WP_GROW_OK ||
        WP_RESIZE(&it->strings, cap) != WP_GROW_OK)
      return wp_error_nomem(r->err);
    it->values_cap = cap;
  }
  if ((it->strings[it->values_num] = strdup(text)) == NULL)
    return wp_error_nomem(r->err);
  wp_cfg_value *nv = &it->values[it->values_num];
  memset(nv, 0, sizeof(*nv));
  nv->kind = WP_CFG_TEXT;
  nv->text = it->strings[it->values_num];
  nv->quoted = quoted;
  it->values_num++;
  if (quoted)
    return 0;
  char *end;
  double d = strtod(text, &end);
  if (end != text && *end == '\0') {
    nv->kind = WP_CFG_NUMBER;
    nv->number = d;
  } else if (strcasecmp(text, "true") == 0 || strcasecmp(text, "yes") == 0 ||
             strcasecmp(text, "on") == 0 || strcasecmp(text, "false") == 0 ||
             strcasecmp(text, "no") == 0 || strcasecmp(text, "off") == 0) {
    nv->kind = WP_CFG_BOOL;
    nv->boolean = strcasecmp(text, "true") == 0 ||
                  strcasecmp(text, "yes") == 0 || strcasecmp(text, "on") == 0;
  }
  return 0;
}

/* The values after a key (up to the end, or '>' for a block). */
static int values(reader *r, char **pp, wp_conf_item *it, bool block) {
  char *p = *pp;
  char tok[MAX_LINE];
  for (;;) {
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p == '\0' || *p == '#' || (block && *p == '>'))
      break;
    size_t n = 0;
    bool quoted = *p == '"';
    if (quoted) {
      for (p++; *p && *p != '"'; p++)
        tok[n++] = (*p == '\\' && p[1]) ? *++p : *p;
      if (*p != '"')
        return wp_error_set(r->err, "%s:%u: unterminated string", r->file,
                            r->line);
      p++;
    } else {
      while (*p && *p != ' ' && *p != '\t' && *p != '#' &&
             !(block && *p == '>'))
        tok[n++] = *p++;
    }
    tok[n] = '\0';
    if (add_value(r, it, tok, quoted) != 0)
      return -1;
  }
  *pp = p;
  return 0;
}

static wp_conf_item *new_child(reader *r, wp_conf_item *parent, const char *key,
                               size_t klen) {
  if (WP_GROW(&parent->children, &parent->children_cap,
              (size_t)parent->children_num + 1, INT_MAX) != WP_GROW_OK)
    return NULL;
  wp_conf_item *it = &parent->children[parent->children_num++];
  memset(it, 0, sizeof(*it));
  if ((it->key = malloc(klen + 1)) != NULL) {
    memcpy(it->key, key, klen);
    it->key[klen] = '\0';
  }
  it->file = strdup(r->file);
  it->line = r->line;
  if (it->key == NULL || it->file == NULL)
    return NULL;
  return it;
}

static int by_text(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Include "DIR": its files (not those starting with '.') in name order. */
static int include_dir(reader *r, wp_conf_item *parent, const char *path) {
  DIR *d = opendir(path);
  if (d == NULL)
    return wp_error_errno(r->err, errno, "%s", path);
  char **names = NULL;
  size_t n = 0, cap = 0;
  int status = 0;
  struct dirent *e;
  while (status == 0 && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    if (WP_GROW(&names, &cap, n + 1, WP_GROW_NO_CAP) != WP_GROW_OK ||
        (names[n] = strdup(e->d_name)) == NULL)
      status = wp_error_nomem(r->err);
    else
      n++;
  }
  closedir(d);
  qsort(names, n, sizeof(*names), by_text);
  for (size_t i = 0; i < n; i++) {
    if (status == 0) {
      char full[4096];
      snprintf(full, sizeof(full), "%s/%s", path, names[i]);
      status = read_file(full, parent, r->depth + 1, r->err);
    }
    free(names[i]);
  }
  free(names);
  return status;
}

static int include(reader *r, wp_conf_item *parent, const wp_conf_item *inc) {
  if (inc->values_num != 1 || inc->values[0].kind != WP_CFG_TEXT)
    return wp_error_set(r->err, "%s:%u: Include needs one path", r->file,
                        r->line);
  const char *path = inc->values[0].text;
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    return include_dir(r, parent, path);
#ifdef _WIN32
  return read_file(path, parent, r->depth + 1, r->err);
#else
  glob_t g;
  if (glob(path, 0, NULL, &g) != 0)
    return wp_error_set(r->err, "%s:%u: Include \"%s\": no such file", r->file,
                        r->line, path);
  int status = 0;
  for (size_t i = 0; i < g.gl_pathc && status == 0; i++)
    status = read_file(g.gl_pathv[i], parent, r->depth + 1, r->err);
  globfree(&g);
  return status;
#endif
}

/* The items up to the end of the file or "</Key>" of the block. */
static int items(reader *r, wp_conf_item *parent, const char *closing) {
  static char buf[MAX_LINE];
  int got;
  while ((got = logical_line(r, buf, sizeof(buf))) > 0) {
    char *p = buf;
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p == '\0' || *p == '#')
      continue;
    bool open = *p == '<' && p[1] != '/';
    if (*p == '<' && p[1] == '/') {
      char *end = strchr(p, '>');
      size_t n = end ? (size_t)(end - p - 2) : 0;
      if (closing == NULL || end == NULL || strlen(closing) != n ||
          strncasecmp(p + 2, closing, n) != 0)
        return wp_error_set(r->err, "%s:%u: unexpected %.*s", r->file, r->line,
                            end ? (int)(end - p + 1) : 2, p);
      return 0;
    }
    if (open)
      p++;
    char *k = p;
    while (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.')
      p++;
    if (p == k)
      return wp_error_set(r->err, "%s:%u: expected an option name", r->file,
                          r->line);
    wp_conf_item *it = new_child(r, parent, k, (size_t)(p - k));
    if (it == NULL)
      return wp_error_nomem(r->err);
    if (values(r, &p, it, open) != 0)
      return -1;
    if (open) {
      if (*p != '>')
        return wp_error_set(r->err, "%s:%u: expected '>'", r->file, r->line);
      char key[256];
      snprintf(key, sizeof(key), "%s", it->key);
      if (items(r, it, key) != 0)
        return -1;
    } else if (strcasecmp(it->key, "Include") == 0 && closing == NULL) {
      wp_conf_item inc = *it;
      parent->children_num--; /* replaced by what it includes */
      int status = include(r, parent, &inc);
      wp_conf_free(&inc);
      if (status != 0)
        return -1;
    }
  }
  if (got < 0)
    return -1;
  if (closing != NULL)
    return wp_error_set(r->err, "%s:%u: missing </%s>", r->file, r->line,
                        closing);
  return 0;
}

static int read_file(const char *path, wp_conf_item *parent, int depth,
                     wp_error *err) {
  if (depth > MAX_DEPTH)
    return wp_error_set(err, "%s: Include nested too deep", path);
  reader r = {.file = path, .err = err, .depth = depth};
  if ((r.f = fopen(path, "r")) == NULL)
    return wp_error_errno(err, errno, "%s", path);
  int status = items(&r, parent, NULL);
  fclose(r.f);
  return status;
}

int wp_conf_read(const char *path, wp_conf_item *root, wp_error *err) {
  memset(root, 0, sizeof(*root));
  int status = read_file(path, root, 0, err);
  if (status != 0)
    wp_conf_free(root);
  return status;
}

void wp_conf_free(wp_conf_item *it) {
  for (int i = 0; i < it->children_num; i++)
    wp_conf_free(&it->children[i]);
  for (int i = 0; i < it->values_num; i++)
    free(it->strings[i]);
  free(it->strings);
  free(it->values);
  free(it->children);
  free(it->key);
  free(it->file);
  memset(it, 0, sizeof(*it));
}
