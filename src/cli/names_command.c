/* collectd-winperf: `winperf names`, the Counter name table.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   winperf names [--json] [--names FILE] [--local-names FILE] [--grep TEXT]
 *       [--objects | --counters OBJECT] [--blob FILE] [--remote HOST ...]
 *
 * One line per index, ascending: "index<TAB>English name<TAB>local name"
 * (an empty field where a table lacks the index), or a JSON array of
 * {index, name, local}. The tables come from files, a remote host
 * (English only; --local-names adds a file) or, on Windows, the local
 * registry (both). --objects keeps the indices that are objects of the
 * answer (--blob FILE or the live host's Global answer), --counters OBJECT
 * that object's counters in definition order. Exit 0, 1 when no line is
 * printed, 2 on errors.
 */
#include "cli.h"
#include "commands.h"
#include "json.h"

#if defined(WINPERF_REMOTE) || defined(_WIN32)
#include "hostdata.h"
#define NAMES_LIVE 1
#endif

#include <stdlib.h>
#include <string.h>

#ifdef WINPERF_REMOTE
#define OR_REMOTE " or --remote HOST"
#else
#define OR_REMOTE ""
#endif

typedef struct names_args {
  cli_common common;
  const char *local_file, *grep, *counters, *blob;
  bool objects;
#ifdef NAMES_LIVE
  cli_host_opts host;
#endif
} names_args;

typedef struct names_data {
  pd_names *english, *local;
  cli_blob blob;       /* from --blob */
  uint8_t *live;       /* a live answer's bytes */
  pd_snapshot *answer; /* blob.snap or the live answer */
  char *pattern;       /* "*TEXT*" for --grep */
  json_writer w;
  size_t printed;
} names_data;

static int parse_args(int argc, char **argv, names_args *a) {
  memset(a, 0, sizeof *a);
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *v = NULL;
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
      return CLI_SHOW_HELP;
    if (strcmp(arg, "--json") == 0) {
      a->common.json = true;
    } else if (strcmp(arg, "--objects") == 0) {
      a->objects = true;
    } else if ((v = cli_opt_value(arg, "--names", argc, argv, &i)) ||
               (v = cli_opt_value(arg, "-n", argc, argv, &i))) {
      a->common.names_file = v;
    } else if ((v = cli_opt_value(arg, "--local-names", argc, argv, &i))) {
      a->local_file = v;
    } else if ((v = cli_opt_value(arg, "--grep", argc, argv, &i))) {
      a->grep = v;
    } else if ((v = cli_opt_value(arg, "--counters", argc, argv, &i))) {
      a->counters = v;
    } else if ((v = cli_opt_value(arg, "--blob", argc, argv, &i))) {
      a->blob = v;
#ifdef WINPERF_REMOTE
    } else {
      int r = cli_remote_option(argc, argv, &i, &a->host.remote);
      if (r < 0)
        return CLI_EXIT_ERROR;
      if (r == 0)
        return cli_error("names: unknown option or argument '%s' (try "
                         "'winperf names --help')",
                         arg);
      a->host.any = true;
#else
    } else {
      return cli_error("names: unknown option or argument '%s' (try "
                       "'winperf names --help')",
                       arg);
#endif
    }
    if (v != NULL && v[0] == '\0')
      return CLI_EXIT_ERROR;
  }
  if (a->objects && a->counters)
    return cli_error("names: --objects and --counters exclude each other");
#ifdef _WIN32
  a->host.any = a->common.names_file == NULL ||
                ((a->objects || a->counters) && a->blob == NULL);
#endif
#ifdef NAMES_LIVE
  if (a->host.any && a->blob == NULL && !(a->objects || a->counters) &&
      a->common.names_file != NULL)
    a->host.any = false; /* nothing to ask the host */
#endif
  return CLI_CONTINUE;
}

#ifdef NAMES_LIVE
static bool parse_names(const wp_buffer *buf, const char *what,
                        pd_names **out) {
  pd_error err = {0};
  if (pd_names_parse(buf->data, buf->len, out, &err) == PD_OK)
    return true;
  cli_error_at(what, &err);
  return false;
}

/* The tables and the Global answer the files do not give, from the host. */
static bool load_live(const names_args *a, names_data *d) {
  cli_host h;
  if (!cli_host_open(&h, &a->host))
    return false;
  wp_buffer buf = {0};
  pd_source_state st = {0};
  bool ok = true;
  if (ok && d->english == NULL)
    ok = cli_host_fetch(&h, NULL, false, &buf, &st) == CLI_FETCHED &&
         parse_names(&buf, "the host's Counter table", &d->english);
#ifdef _WIN32
  if (ok && d->local == NULL && a->local_file == NULL)
    ok = cli_host_fetch(&h, NULL, true, &buf, &st) == CLI_FETCHED &&
         parse_names(&buf, "the host's localized Counter table", &d->local);
#endif
  if (ok && (a->objects || a->counters) && a->blob == NULL) {
    ok = cli_host_fetch(&h, "Global", false, &buf, &st) == CLI_FETCHED;
    pd_error err = {0};
    if (ok && ((d->answer = pd_snapshot_new()) == NULL ||
               pd_decode(d->answer, buf.data, buf.len, NULL, &err) != PD_OK))
      ok = (cli_error_at("the host's Global answer", &err), false);
    d->live = buf.data; /* the answer points into it */
    buf.data = NULL;
  }
  if (!ok && st.detail != NULL)
    cli_error("%s", h.error);
  wp_buffer_free(&buf);
  cli_host_close(&h);
  return ok;
}
#endif

static bool load(const names_args *a, names_data *d) {
  if (a->common.names_file &&
      !cli_load_names(a->common.names_file, &d->english))
    return false;
  if (a->local_file && !cli_load_names(a->local_file, &d->local))
    return false;
  if (a->blob != NULL) {
    d->blob.file = a->blob;
    if (!cli_blob_load(&d->blob))
      return false;
    d->answer = d->blob.snap;
  }
#ifdef NAMES_LIVE
  if (a->host.any && !load_live(a, d))
    return false;
#endif
  if (d->english == NULL)
    return cli_error("names: no name table (give --names FILE%s)", OR_REMOTE),
           false;
  if ((a->objects || a->counters) && d->answer == NULL)
    return cli_error("names: --objects and --counters need an answer "
                     "(--blob FILE%s)",
                     OR_REMOTE),
           false;
  return true;
}

/* One row, when --grep lets it through. */
static void row(names_data *d, bool json, uint32_t index) {
  const char *en = pd_names_get(d->english, index);
  const char *loc = pd_names_get(d->local, index);
  if (d->pattern != NULL && !pd_wildcard_match(d->pattern, en ? en : "") &&
      !pd_wildcard_match(d->pattern, loc ? loc : ""))
    return;
  d->printed++;
  if (json) {
    json_begin_object(&d->w);
    json_member_uint(&d->w, "index", index);
    json_member_string(&d->w, "name", en);
    json_member_string(&d->w, "local", loc);
    json_end_object(&d->w);
    return;
  }
  printf("%u\t", index);
  cli_put_text(stdout, en ? en : "");
  putchar('\t');
  cli_put_text(stdout, loc ? loc : "");
  putchar('\n');
}

/* Every index of either table, ascending, once. */
static void all_rows(names_data *d, bool json) {
  size_t i = 0, j = 0;
  uint32_t a = 0, b = 0;
  bool has_a = pd_names_at(d->english, i, &a) != NULL;
  bool has_b = pd_names_at(d->local, j, &b) != NULL;
  while (has_a || has_b) {
    uint32_t cur = !has_b || (has_a && a <= b) ? a : b;
    row(d, json, cur);
    while (has_a && a == cur)
      has_a = pd_names_at(d->english, ++i, &a) != NULL;
    while (has_b && b == cur)
      has_b = pd_names_at(d->local, ++j, &b) != NULL;
  }
}

static int cmp_u32(const void *x, const void *y) {
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  return a < b ? -1 : a > b;
}

/* The answer's object indices, ascending, once. */
static bool object_rows(names_data *d, bool json) {
  uint32_t n = pd_snapshot_object_count(d->answer);
  uint32_t *idx = malloc((n ? n : 1) * sizeof *idx);
  if (idx == NULL)
    return cli_error("out of memory"), false;
  for (uint32_t k = 0; k < n; k++)
    idx[k] = pd_snapshot_object(d->answer, k)->name_index;
  qsort(idx, n, sizeof *idx, cmp_u32);
  for (uint32_t k = 0; k < n; k++)
    if (k == 0 || idx[k] != idx[k - 1])
      row(d, json, idx[k]);
  free(idx);
  return true;
}

/* OBJECT by index, English or local name: the first such object of the
 * answer. */
static const pd_object *find_object(names_data *d, const char *object) {
  char *end;
  unsigned long v = strtoul(object, &end, 10);
  if (object[0] >= '0' && object[0] <= '9' && *end == '\0' && v <= UINT32_MAX)
    return pd_snapshot_find_object(d->answer, (uint32_t)v);
  const pd_names *tables[2] = {d->english, d->local};
  for (int t = 0; t < 2; t++) {
    const uint32_t *idx;
    size_t n = pd_names_lookup(tables[t], object, &idx);
    for (size_t k = 0; k < n; k++) {
      const pd_object *obj = pd_snapshot_find_object(d->answer, idx[k]);
      if (obj != NULL)
        return obj;
    }
  }
  return NULL;
}

/* The object's counters in definition order, each index once. */
static bool counter_rows(names_data *d, bool json, const char *object) {
  const pd_object *obj = find_object(d, object);
  if (obj == NULL) {
    cli_error("names: the answer has no object \"%s\"", object);
    return true; /* nothing printed: exit 1 */
  }
  for (uint32_t c = 0; c < obj->counter_count; c++) {
    uint32_t index = obj->counters[c].name_index;
    bool seen = false;
    for (uint32_t k = 0; k < c && !seen; k++)
      seen = obj->counters[k].name_index == index;
    if (!seen)
      row(d, json, index);
  }
  return true;
}

int cmd_names(int argc, char **argv) {
  names_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc != CLI_CONTINUE)
    return rc;
  names_data d;
  memset(&d, 0, sizeof d);
  rc = CLI_EXIT_ERROR;
  if (!load(&a, &d))
    goto out;
  if (a.grep != NULL) {
    size_t n = strlen(a.grep) + 3;
    if ((d.pattern = malloc(n)) == NULL) {
      cli_error("out of memory");
      goto out;
    }
    snprintf(d.pattern, n, "*%s*", a.grep);
  }
  json_init(&d.w, stdout);
  if (a.common.json)
    json_begin_array(&d.w);
  bool ok = true;
  if (a.objects)
    ok = object_rows(&d, a.common.json);
  else if (a.counters)
    ok = counter_rows(&d, a.common.json, a.counters);
  else
    all_rows(&d, a.common.json);
  if (a.common.json && ok) {
    json_end_array(&d.w);
    json_finish(&d.w);
  }
  rc = !ok ? CLI_EXIT_ERROR : d.printed ? CLI_EXIT_OK : CLI_EXIT_NO_MATCH;
out:
  free(d.pattern);
  pd_names_free(d.english);
  pd_names_free(d.local);
  if (d.answer != d.blob.snap)
    pd_snapshot_free(d.answer);
  cli_blob_clear(&d.blob);
  free(d.live);
  return rc;
}
