/* collectd-winperf: `winperf capture` and live `winperf query` on the local
 * registry source (Windows only; see live.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "live.h"

#include "../source/perflib_v2.h"
#include "../source/registry.h"
#include "cli.h"
#include "json.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef _WIN32
#include <direct.h>
#endif

/* Options shared by capture and the live query. */
typedef struct live_opts {
  unsigned long count;
  double interval; /* seconds */
  wp_registry_options reg;
  bool verbose;
} live_opts;

enum {
  OPT_INTERVAL = 300,
  OPT_COUNT,
  OPT_BUFFER,
  OPT_MAX_BUFFER,
  OPT_VERBOSE,
  OPT_DIR,
  OPT_OBJECTS,
  OPT_MULTI_TIMER,
  OPT_CAP100,
};

#define LIVE_LONGOPTS                                                          \
  {"interval", required_argument, NULL, OPT_INTERVAL},                         \
      {"count", required_argument, NULL, OPT_COUNT},                           \
      {"buffer-size", required_argument, NULL, OPT_BUFFER},                    \
      {"max-buffer", required_argument, NULL, OPT_MAX_BUFFER}, {               \
    "verbose", no_argument, NULL, OPT_VERBOSE                                  \
  }

static bool parse_size(const char *opt, const char *s, size_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *end || s[0] == '-' || v > UINT32_MAX) {
    cli_error("%s: '%s' is not a byte count (at most 4294967295)", opt, s);
    return false;
  }
  *out = (size_t)v;
  return true;
}

static void live_opts_init(live_opts *o) {
  memset(o, 0, sizeof *o);
  o->count = 1;
  o->interval = 1.0;
  const char *env = getenv("WINPERF_INITIAL_BUFFER");
  if (env != NULL && *env)
    parse_size("WINPERF_INITIAL_BUFFER", env, &o->reg.initial_size);
}

/* 1 handled, 0 not a shared option, -1 error (reported). */
static int live_option(live_opts *o, int c) {
  char *end;
  switch (c) {
  case OPT_INTERVAL:
    errno = 0;
    o->interval = strtod(optarg, &end);
    if (errno || end == optarg || *end || !(o->interval >= 0.0) ||
        o->interval > 86400.0) {
      cli_error("--interval: '%s' is not a number of seconds (0-86400)",
                optarg);
      return -1;
    }
    return 1;
  case OPT_COUNT:
    errno = 0;
    o->count = strtoul(optarg, &end, 10);
    if (errno || end == optarg || *end || optarg[0] == '-' || o->count == 0) {
      cli_error("--count: '%s' is not a positive number", optarg);
      return -1;
    }
    return 1;
  case OPT_BUFFER:
    return parse_size("--buffer-size", optarg, &o->reg.initial_size) ? 1 : -1;
  case OPT_MAX_BUFFER:
    return parse_size("--max-buffer", optarg, &o->reg.max_size) ? 1 : -1;
  case OPT_VERBOSE:
    o->verbose = true;
    return 1;
  default:
    return 0;
  }
}

static void sleep_interval(const live_opts *o) {
  wp_registry_sleep_ms((unsigned long)(o->interval * 1000.0 + 0.5));
}

static void report_stats(const live_opts *o, const wp_source *src) {
  if (!o->verbose)
    return;
  wp_registry_stats st;
  wp_registry_get_stats(src, &st);
  fflush(stdout);
  fprintf(stderr,
          "winperf: registry: %lu queries, %lu buffer grows, %lu busy "
          "retries, %lu reloads, high water %zu bytes\n",
          st.queries, st.grows, st.busy, st.reloads, st.high_water);
}

static bool write_file(const char *dir, const char *name, const uint8_t *data,
                       size_t len) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *path = malloc(n);
  if (path == NULL)
    return cli_error("out of memory"), false;
  snprintf(path, n, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  bool ok = f != NULL && fwrite(data, 1, len, f) == len;
  if (f != NULL && fclose(f) != 0)
    ok = false;
  if (!ok)
    cli_error("%s: cannot write: %s", path, strerror(errno));
  free(path);
  return ok;
}

static bool make_dir(const char *dir) {
#ifdef _WIN32
  int rc = _mkdir(dir);
#else
  int rc = mkdir(dir, 0777);
#endif
  if (rc == 0 || errno == EEXIST)
    return true;
  cli_error("%s: cannot create the directory: %s", dir, strerror(errno));
  return false;
}

typedef wp_source_status (*names_fn)(wp_source *, wp_buffer *, char *, size_t);

static bool save_names(wp_source *src, names_fn fn, const char *dir,
                       const char *file, wp_buffer *buf) {
  char errbuf[256] = "";
  if (fn(src, buf, errbuf, sizeof errbuf) != WP_SOURCE_OK)
    return cli_error("%s", errbuf), false;
  return write_file(dir, file, buf->data, buf->len);
}

int cmd_capture(int argc, char **argv) {
  static const struct option longopts[] = {
      LIVE_LONGOPTS,
      {"dir", required_argument, NULL, OPT_DIR},
      {"objects", required_argument, NULL, OPT_OBJECTS},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  live_opts o;
  live_opts_init(&o);
  const char *dir = NULL, *objects = "Global";
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    int r = live_option(&o, c);
    if (r < 0)
      return CLI_EXIT_ERROR;
    if (r > 0)
      continue;
    if (c == OPT_DIR)
      dir = optarg;
    else if (c == OPT_OBJECTS)
      objects = optarg;
    else if (c == 'h')
      return cli_command_usage(stdout, "capture"), CLI_EXIT_OK;
    else
      return cli_error("capture: bad option '%s' (try 'winperf capture "
                       "--help')",
                       argv[optind - 1]);
  }
  if (dir == NULL)
    return cli_error("capture: --dir DIR is required");
  if (optind < argc)
    return cli_error("capture: unexpected argument '%s'", argv[optind]);
  if (!make_dir(dir))
    return CLI_EXIT_ERROR;

  char errbuf[512] = "";
  wp_source *src = wp_registry_open(&o.reg, errbuf, sizeof errbuf);
  if (src == NULL)
    return cli_error("registry: %s", errbuf);
  int rc = CLI_EXIT_ERROR;
  wp_buffer buf = {0};
  if (!save_names(src, src->names, dir, "names.multisz", &buf) ||
      !save_names(src, wp_registry_names_local, dir, "names-local.multisz",
                  &buf))
    goto out;
  pd_snapshot *snap = pd_snapshot_new();
  if (snap == NULL) {
    cli_error("out of memory");
    goto out;
  }
  for (unsigned long i = 1; i <= o.count; i++) {
    if (i > 1)
      sleep_interval(&o);
    if (src->collect(src, objects, &buf, errbuf, sizeof errbuf) !=
        WP_SOURCE_OK) {
      cli_error("registry: query \"%s\": %s", objects, errbuf);
      break;
    }
    char name[32];
    snprintf(name, sizeof name, "%06lu.blob", i);
    /* Written as returned; a blob the decoder rejects is reported (the
     * file stays, for a bug report) and ends the capture. */
    if (!write_file(dir, name, buf.data, buf.len))
      break;
    pd_error err = {0};
    if (pd_decode(snap, buf.data, buf.len, NULL, &err) != PD_OK) {
      cli_error_at(name, &err);
      break;
    }
    if (i == o.count)
      rc = CLI_EXIT_OK;
  }
  pd_snapshot_free(snap);
out:
  report_stats(&o, src);
  wp_buffer_free(&buf);
  src->destroy(src);
  return rc;
}

/* ------------------------------------------------------------ query */

bool cli_live_query_wanted(int argc, char **argv) {
  /* options whose value is the next argument */
  static const char *const with_value[] = {
      "--names",       "-n",           "--interval",    "--count",
      "--buffer-size", "--max-buffer", "--multi-timer", NULL};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      for (i++; i < argc; i++)
        if (argv[i][0] != '\\')
          return false;
      return true;
    }
    if (a[0] == '\\')
      continue;
    if (a[0] != '-' || a[1] == '\0')
      return false; /* a blob file */
    for (const char *const *w = with_value; *w; w++)
      if (strcmp(a, *w) == 0) {
        i++;
        break;
      }
  }
  return true;
}

static void print_report(const pd_result *res, size_t n, bool json) {
  char buf[64];
  if (!json) {
    for (size_t i = 0; i < n; i++) {
      cli_put_text(stdout, res[i].path);
      if (res[i].status == PD_VALUE_OK) {
        cli_format_value(res[i].value, buf, sizeof buf);
        printf("\t%s\n", buf);
      } else {
        printf("\t-\t%s\n", pd_value_status_name(res[i].status));
      }
    }
    return;
  }
  json_writer w;
  json_init(&w, stdout);
  json_begin_array(&w);
  for (size_t i = 0; i < n; i++) {
    json_begin_object(&w);
    json_key(&w, "path");
    json_string(&w, res[i].path);
    json_key(&w, "value");
    if (res[i].status == PD_VALUE_OK)
      json_double(&w, res[i].value);
    else
      json_null(&w);
    json_key(&w, "status");
    json_string(&w, pd_value_status_name(res[i].status));
    json_key(&w, "time_100ns");
    json_int(&w, res[i].time_100ns);
    json_end_object(&w);
  }
  json_end_array(&w);
  json_finish(&w);
}

/* Names for the paths: --names FILE, else the English table, else (when it
 * leaves paths unresolved) the localized one if it resolves more. */
static bool choose_names(wp_source *src, pd_selection *sel,
                         const char *names_file, pd_names **names) {
  if (names_file != NULL) {
    if (!cli_load_names(names_file, names))
      return false;
    pd_selection_set_names(sel, *names);
    return true;
  }
  names_fn fns[2] = {src->names, wp_registry_names_local};
  size_t best = SIZE_MAX;
  wp_buffer buf = {0};
  for (int k = 0; k < 2 && best != 0; k++) {
    char errbuf[512] = "";
    pd_names *t = NULL;
    pd_error err = {0};
    if (fns[k](src, &buf, errbuf, sizeof errbuf) != WP_SOURCE_OK) {
      if (k == 0)
        fprintf(stderr, "winperf: warning: %s\n", errbuf);
      continue;
    }
    if (pd_names_parse(buf.data, buf.len, &t, &err) != PD_OK)
      continue; /* numeric paths still work */
    size_t unresolved = 0;
    pd_selection_set_names(sel, t);
    pd_selection_query(sel, &unresolved);
    if (unresolved < best) {
      best = unresolved;
      if (*names)
        pd_names_free(*names);
      *names = t;
    } else {
      pd_names_free(t);
    }
  }
  wp_buffer_free(&buf);
  pd_selection_set_names(sel, *names);
  return true;
}

int cmd_live_query(int argc, char **argv) {
  static const struct option longopts[] = {
      CLI_COMMON_LONGOPTS,
      LIVE_LONGOPTS,
      {"multi-timer", required_argument, NULL, OPT_MULTI_TIMER},
      {"cap100", no_argument, NULL, OPT_CAP100},
      {NULL, 0, NULL, 0},
  };
  live_opts o;
  live_opts_init(&o);
  cli_common opt = {0};
  pd_calc_options calc = {.multi_timer = PD_MULTI_TIMER_RESKIT};
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS, longopts, NULL)) !=
         -1) {
    int r = live_option(&o, c);
    if (r < 0)
      return CLI_EXIT_ERROR;
    if (r > 0)
      continue;
    if (c == OPT_MULTI_TIMER) {
      if (strcmp(optarg, "reskit") == 0)
        calc.multi_timer = PD_MULTI_TIMER_RESKIT;
      else if (strcmp(optarg, "msdn") == 0)
        calc.multi_timer = PD_MULTI_TIMER_MSDN_SAMPLE;
      else
        return cli_error("--multi-timer: '%s' is not 'reskit' or 'msdn'",
                         optarg);
    } else if (c == OPT_CAP100) {
      calc.cap100 = true;
    } else {
      int rc = cli_common_option(c, &opt, "query", argv);
      if (rc != CLI_CONTINUE)
        return rc;
    }
  }
  pd_selection *sel = pd_selection_new();
  if (sel == NULL)
    return cli_error("out of memory");
  int rc = CLI_EXIT_ERROR;
  for (int i = optind; i < argc; i++) {
    pd_error err = {0};
    size_t id;
    if (pd_selection_add(sel, argv[i], &id, &err) != PD_OK) {
      cli_error("%s: %s", argv[i], err.message);
      pd_selection_free(sel);
      return CLI_EXIT_ERROR;
    }
  }
  if (pd_selection_path_count(sel) == 0) {
    pd_selection_free(sel);
    return cli_error("query: no counter path given (paths start with '\\')");
  }
  pd_selection_set_options(sel, &calc);

  char errbuf[512] = "";
  wp_source *src = wp_registry_open(&o.reg, errbuf, sizeof errbuf);
  if (src == NULL) {
    pd_selection_free(sel);
    return cli_error("registry: %s", errbuf);
  }
  pd_names *names = NULL;
  wp_buffer buf[2] = {{0}, {0}};
  pd_snapshot *snap[2] = {pd_snapshot_new(), pd_snapshot_new()};
  if (snap[0] == NULL || snap[1] == NULL) {
    cli_error("out of memory");
    goto out;
  }
  if (!choose_names(src, sel, opt.names_file, &names))
    goto out;
  size_t unresolved = 0;
  const char *objects = pd_selection_query(sel, &unresolved);
  if (objects == NULL || objects[0] == '\0') {
    cli_error("query: no path names a known object (%zu unresolved)",
              unresolved);
    goto out;
  }
  /* Sample 0, then one report per interval: `count` reports. Snapshots
   * point into their buffers, so the two alternate. */
  int cur = 0;
  size_t matched = 0;
  for (unsigned long i = 0; i <= o.count; i++) {
    if (i > 0)
      sleep_interval(&o);
    /* Counters were (un)installed: the source reloaded the key; the names
     * and so the object list may have changed. */
    if (i > 0 && opt.names_file == NULL && wp_registry_counters_changed(src)) {
      if (!choose_names(src, sel, NULL, &names))
        goto out;
      objects = pd_selection_query(sel, &unresolved);
      if (objects == NULL || objects[0] == '\0') {
        cli_error("query: after a counter reload no path names a known "
                  "object");
        goto out;
      }
    }
    if (src->collect(src, objects, &buf[cur], errbuf, sizeof errbuf) !=
        WP_SOURCE_OK) {
      cli_error("registry: query \"%s\": %s", objects, errbuf);
      goto out;
    }
    pd_error err = {0};
    if (pd_decode(snap[cur], buf[cur].data, buf[cur].len, NULL, &err) !=
        PD_OK) {
      cli_error_at("HKEY_PERFORMANCE_DATA", &err);
      goto out;
    }
    if (i > 0) {
      const pd_result *res;
      size_t n;
      if (pd_selection_evaluate(sel, snap[!cur], snap[cur], &res, &n, &err) !=
          PD_OK) {
        cli_error_at("HKEY_PERFORMANCE_DATA", &err);
        goto out;
      }
      if (i > 1 && !opt.json)
        printf("\n");
      print_report(res, n, opt.json);
      fflush(stdout);
      matched = n;
    }
    cur = !cur;
  }
  if (matched == 0) {
    cli_error("query: the paths matched no counter");
    rc = CLI_EXIT_NO_MATCH;
  } else {
    rc = CLI_EXIT_OK;
  }
out:
  report_stats(&o, src);
  src->destroy(src);
  for (int k = 0; k < 2; k++) {
    if (snap[k])
      pd_snapshot_free(snap[k]);
    wp_buffer_free(&buf[k]);
  }
  if (names)
    pd_names_free(names);
  pd_selection_free(sel);
  return rc;
}

/* ------------------------------------------------------ V2 (PerfLib) */

int cmd_query_v2(int argc, char **argv) {
  enum { OPT_SET = 400, OPT_COUNTER, OPT_INSTANCE };
  static const struct option longopts[] = {
      LIVE_LONGOPTS,
      {"set", required_argument, NULL, OPT_SET},
      {"counter", required_argument, NULL, OPT_COUNTER},
      {"instance", required_argument, NULL, OPT_INSTANCE},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  live_opts o;
  live_opts_init(&o);
  const char *set_text = NULL, *instance = "*";
  uint32_t counter = PD_V2_WILDCARD_COUNTER;
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    int r = live_option(&o, c);
    if (r < 0)
      return CLI_EXIT_ERROR;
    if (r > 0)
      continue;
    char *end;
    if (c == OPT_SET) {
      set_text = optarg;
    } else if (c == OPT_INSTANCE) {
      instance = optarg[0] ? optarg : NULL; /* "" = single-instance set */
    } else if (c == OPT_COUNTER) {
      errno = 0;
      unsigned long v = strtoul(optarg, &end, 10);
      if (errno || end == optarg || *end || v > UINT32_MAX)
        return cli_error("--counter: '%s' is not a counter id", optarg);
      counter = (uint32_t)v;
    } else if (c == 'h') {
      return cli_command_usage(stdout, "query-v2"), CLI_EXIT_OK;
    } else {
      return cli_error("query-v2: bad option '%s'", argv[optind - 1]);
    }
  }
  pd_guid set;
  pd_error err = {0};
  if (set_text == NULL)
    return cli_error("query-v2: --set GUID is required");
  if (pd_guid_parse(set_text, &set, &err) != PD_OK)
    return cli_error("--set: %s", err.message);

  char errbuf[512] = "";
  wp_v2_query *q = wp_v2_open(NULL, errbuf, sizeof errbuf);
  if (q == NULL)
    return cli_error("query-v2: %s", errbuf);
  int rc = CLI_EXIT_ERROR;
  wp_buffer buf[2] = {{0}, {0}}, ids = {0}, reg = {0};
  pd_v2_data *data[2] = {pd_v2_data_new(), pd_v2_data_new()};
  pd_v2_counterset *cs = NULL;
  pd_v2_identifier id;
  pd_v2_results res = {0};
  if (data[0] == NULL || data[1] == NULL) {
    cli_error("out of memory");
    goto out;
  }
  if (wp_v2_add(q, &set, counter, instance, errbuf, sizeof errbuf) != 0 ||
      wp_v2_counterset_info(q, &set, &reg, errbuf, sizeof errbuf) != 0 ||
      wp_v2_identifiers(q, &ids, errbuf, sizeof errbuf) != 0) {
    cli_error("query-v2: %s", errbuf);
    goto out;
  }
  if (pd_v2_counterset_parse(reg.data, reg.len, &cs, &err) != PD_OK ||
      pd_v2_identifier_decode(ids.data, ids.len, 0, &id, NULL, &err) != PD_OK) {
    cli_error_at("PerfLib", &err);
    goto out;
  }
  const pd_v2_counterset *sets[1] = {cs};
  char guid[39];
  pd_guid_format(&set, guid);
  int cur = 0;
  for (unsigned long i = 0; i <= o.count; i++) {
    if (i > 0)
      sleep_interval(&o);
    if (wp_v2_collect(q, &buf[cur], errbuf, sizeof errbuf) != 0) {
      cli_error("query-v2: %s", errbuf);
      goto out;
    }
    if (pd_v2_data_decode(data[cur], buf[cur].data, buf[cur].len, &id, 1, 0,
                          &err) != PD_OK) {
      cli_error_at("PerfQueryCounterData", &err);
      goto out;
    }
    if (i == 0)
      continue;
    if (pd_v2_evaluate(sets, 1, data[!cur], data[cur], NULL, &res, &err) !=
        PD_OK) {
      cli_error_at("PerfQueryCounterData", &err);
      goto out;
    }
    if (i > 1)
      printf("\n");
    for (size_t k = 0; k < res.count; k++) {
      const pd_v2_result *r = &res.items[k];
      char val[64];
      printf("%s(", guid);
      cli_put_text(stdout, r->instance);
      printf(")\\%u", (unsigned)r->counter_id);
      if (r->status == PD_VALUE_OK) {
        cli_format_value(r->value, val, sizeof val);
        printf("\t%s\n", val);
      } else {
        printf("\t-\t%s\n", pd_value_status_name(r->status));
      }
    }
    fflush(stdout);
    cur = !cur;
  }
  rc = CLI_EXIT_OK;
out:
  pd_v2_results_free(&res);
  pd_v2_counterset_free(cs);
  for (int k = 0; k < 2; k++) {
    pd_v2_data_free(data[k]);
    wp_buffer_free(&buf[k]);
  }
  wp_buffer_free(&ids);
  wp_buffer_free(&reg);
  wp_v2_close(q);
  return rc;
}
