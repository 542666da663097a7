/* collectd-winperf: `winperf doctor`, why each counter path matches or not.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   winperf doctor [--json] --names FILE BLOB [--last-counter N]
 *       [--counters FILE] [PATH...]
 *   winperf doctor [--json] --remote HOST [REMOTE OPTIONS] [--names FILE]
 *       [--counters FILE] [PATH...]                   (builds with the helper)
 *   winperf doctor [--json] [--counters FILE] [PATH...]  (Windows: local)
 *
 * One line per path, "path<TAB>verdict<TAB>fix", or a JSON array of
 * {path, verdict, fix, suggestions}; the verdicts and fixes are
 * pd_diagnose's (src/perfdata/diagnose.h). A live host is read through its
 * English Counter table and its Global answer; a path whose object is not
 * in that answer is diagnosed again against the answer to its own objects
 * (costly objects are not in Global). A source failure the
 * diagnosis names (access denied, RemoteRegistry off, a failed query) is
 * every path's verdict; a failed connection is an error. Exit 0 when every
 * path resolves (ok, no-instances), 1 when one does not, 2 on usage errors
 * and failed connections.
 *
 * On Windows the local registry also tells which provider serves a path's
 * object (the service whose Performance key lists it, hostdata.h): an
 * object-absent fix names it with its "Disable Performance Counters"
 * value (set: the provider is disabled; not set or 0: its Open or Collect
 * failed), and a path that resolves although its provider has the value
 * set gets a note (Windows skips such a provider; Wine does not).
 */
#include "cli.h"
#include "commands.h"
#include "json.h"
#include "wp_grow.h"

#if defined(WINPERF_REMOTE) || defined(_WIN32)
#include "hostdata.h"
#define DOCTOR_LIVE 1
#else
#include "diagnose.h"
#endif
#ifdef WINPERF_YAML
#include "counters_yaml.h"
#endif

#include <stdlib.h>
#include <string.h>

typedef struct doctor {
  cli_common common;
  const char *counters_file, *blob_file;
  char **paths; /* argv's or the counters file's */
  size_t path_count, path_cap;
  char *file_text; /* the plain list's bytes (paths point into them) */
#ifdef WINPERF_YAML
  wp_counter_list list;
#endif
#ifdef DOCTOR_LIVE
  cli_host_opts host;
  cli_host conn; /* open while the paths are diagnosed (conn.src) */
#endif
  pd_names *names;
  cli_blob blob;
#ifdef DOCTOR_LIVE
  wp_buffer live; /* a live answer's bytes */
#endif
  pd_snapshot *answer; /* blob.snap or the live answer */
  pd_source_state state;
  uint32_t last_counter; /* --last-counter; 0: not given */
  char error[512];
} doctor;

static bool add_path(doctor *d, char *path) {
  if (WP_GROW(&d->paths, &d->path_cap, d->path_count + 1, WP_GROW_NO_CAP) !=
      WP_GROW_OK)
    return cli_error("out of memory"), false;
  d->paths[d->path_count++] = path;
  return true;
}

/* --last-counter N: a decimal from 1 to 4294967295 (format.md 4.1). */
static bool parse_last_counter(const char *v, uint32_t *out) {
  uint64_t n = 0;
  const char *p = v;
  for (; *p >= '0' && *p <= '9' && n <= UINT32_MAX; p++)
    n = n * 10 + (uint64_t)(*p - '0');
  if (*v == '\0' || *p != '\0' || n == 0 || n > UINT32_MAX)
    return cli_error("doctor: --last-counter '%s' is not a number from 1 to "
                     "4294967295",
                     v),
           false;
  *out = (uint32_t)n;
  return true;
}

static int parse_args(int argc, char **argv, doctor *d) {
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *v = NULL;
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
      return CLI_SHOW_HELP;
    if (strcmp(arg, "--json") == 0) {
      d->common.json = true;
    } else if ((v = cli_opt_value(arg, "--names", argc, argv, &i)) ||
               (v = cli_opt_value(arg, "-n", argc, argv, &i))) {
      d->common.names_file = v;
    } else if ((v = cli_opt_value(arg, "--counters", argc, argv, &i))) {
      d->counters_file = v;
    } else if ((v = cli_opt_value(arg, "--last-counter", argc, argv, &i))) {
      if (!parse_last_counter(v, &d->last_counter))
        return CLI_EXIT_ERROR;
    } else if (arg[0] == '\\') {
      if (!add_path(d, argv[i]))
        return CLI_EXIT_ERROR;
    } else if (arg[0] != '-' && d->blob_file == NULL) {
      d->blob_file = arg;
    } else {
#ifdef WINPERF_REMOTE
      int r = cli_remote_option(argc, argv, &i, &d->host.remote);
      if (r < 0)
        return CLI_EXIT_ERROR;
      d->host.any = true;
      if (r == 0)
#endif
        return cli_error("doctor: unexpected argument '%s' (try 'winperf "
                         "doctor --help')",
                         arg);
    }
    if (v != NULL && v[0] == '\0')
      return CLI_EXIT_ERROR;
  }
#ifdef _WIN32
  d->host.any = d->blob_file == NULL;
#endif
#ifdef DOCTOR_LIVE
  if (d->host.any && d->blob_file != NULL)
    return cli_error("doctor: a BLOB file or a live host, not both");
  if (!d->host.any && (d->blob_file == NULL || d->common.names_file == NULL))
#else
  if (d->blob_file == NULL || d->common.names_file == NULL)
#endif
    return cli_error("doctor: give --names FILE and a BLOB file%s",
#ifdef WINPERF_REMOTE
                     ", or --remote HOST"
#else
                     ""
#endif
    );
  return CLI_CONTINUE;
}

/* The counters file: the plugin's YAML where the build has the loader,
 * else one path a line ("- " before it, blank lines and '#' comments
 * allowed). */
static bool load_counters(doctor *d) {
#ifdef WINPERF_YAML
  wp_error err;
  if (wp_counters_load(d->counters_file, &d->list, &err) != 0)
    return cli_error("%s", err.message), false;
  for (size_t i = 0; i < d->list.count; i++)
    if (!add_path(d, d->list.entries[i].path))
      return false;
  return true;
#else
  uint8_t *data;
  size_t len;
  if (!cli_read_file(d->counters_file, &data, &len))
    return false;
  char *text = realloc(data, len + 1);
  if (text == NULL)
    return free(data), cli_error("out of memory"), false;
  text[len] = '\0';
  d->file_text = text;
  for (char *line = strtok(text, "\r\n"); line; line = strtok(NULL, "\r\n")) {
    line += strspn(line, " \t");
    if (line[0] == '-' && (line[1] == ' ' || line[1] == '\t'))
      line += 1 + strspn(line + 1, " \t");
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t'))
      line[--n] = '\0';
    if (n > 0 && line[0] != '#' && !add_path(d, line))
      return false;
  }
  return true;
#endif
}

#ifdef DOCTOR_LIVE
static int load_answers(doctor *d);

/* The host's names (unless --names) and Global answer. CLI_CONTINUE, or a
 * source failure in d->state (every path's verdict), or CLI_EXIT_ERROR. */
static int load_live(doctor *d) {
  cli_host *h = &d->conn;
  if (!cli_host_open(h, &d->host))
    return CLI_EXIT_ERROR;
  int rc = load_answers(d);
  /* Kerberos: realm, SPN, clock offset and ticket times, also (above all)
   * when the logon failed */
  fflush(stdout);
  cli_host_report(h, &d->host, stderr);
  return rc;
}

static int load_answers(doctor *d) {
  cli_host *h = &d->conn;
  cli_fetch f = CLI_FETCHED;
  if (d->names == NULL) {
    f = cli_host_fetch(h, NULL, false, &d->live, &d->state);
    pd_error err = {0};
    if (f == CLI_FETCHED &&
        pd_names_parse(d->live.data, d->live.len, &d->names, &err) != PD_OK)
      f = (cli_error_at("the host's Counter table", &err), CLI_FETCH_FATAL);
  }
  if (f == CLI_FETCHED)
    f = cli_host_fetch(h, "Global", false, &d->live, &d->state);
  pd_error err = {0};
  if (f == CLI_FETCHED &&
      ((d->answer = pd_snapshot_new()) == NULL ||
       pd_decode(d->answer, d->live.data, d->live.len, NULL, &err) != PD_OK))
    f = (cli_error_at("the host's Global answer", &err), CLI_FETCH_FATAL);
  snprintf(d->error, sizeof d->error, "%s", h->error);
  d->state.detail = f == CLI_FETCH_VERDICT ? d->error : NULL;
  return f == CLI_FETCH_FATAL ? CLI_EXIT_ERROR : CLI_CONTINUE;
}

/* An object absent from the Global answer may be a costly one, or one
 * whose provider fails only when asked for: ask for the path's objects
 * alone, as the plugin does, and keep that diagnosis unless it is
 * object-absent again. */
static void ask_alone(doctor *d, const char *path, pd_diagnosis *dg) {
  pd_selection *sel = pd_selection_new();
  pd_snapshot *snap = pd_snapshot_new();
  wp_buffer buf = {0};
  pd_source_state st;
  pd_error err = {0};
  size_t id;
  const char *q = NULL;
  if (sel != NULL && pd_selection_add(sel, path, &id, &err) == PD_OK) {
    pd_selection_set_names(sel, d->names);
    q = pd_selection_query(sel, NULL);
  }
  pd_diagnosis again;
  cli_fetch f = q && *q && snap ? cli_host_fetch(&d->conn, q, false, &buf, &st)
                                : CLI_FETCH_FATAL;
  if ((f == CLI_FETCHED &&
       pd_decode(snap, buf.data, buf.len, NULL, &err) == PD_OK &&
       pd_diagnose(path, d->names, snap, &d->state, &again, &err) == PD_OK) ||
      (f == CLI_FETCH_VERDICT &&
       pd_diagnose(path, d->names, NULL, &st, &again, &err) == PD_OK))
    if (again.verdict != PD_VERDICT_OBJECT_ABSENT)
      *dg = again;
  pd_snapshot_free(snap);
  pd_selection_free(sel);
  wp_buffer_free(&buf);
}
#endif

#ifdef _WIN32
/* The object index a path names (numeric, or its first index in the
 * table); false when it has none. */
static bool object_index(doctor *d, const char *path, uint32_t *index) {
  pd_path p;
  pd_error err = {0};
  if (pd_path_parse(path, &p, &err) != PD_OK)
    return false;
  bool have = false;
  if (p.object_is_index) {
    char *end;
    unsigned long long v = strtoull(p.object, &end, 10);
    have = *end == '\0' && v <= UINT32_MAX;
    *index = (uint32_t)v;
  } else if (d->names != NULL) {
    const uint32_t *idx;
    if ((have = pd_names_lookup(d->names, p.object, &idx) > 0))
      *index = idx[0];
  }
  pd_path_clear(&p);
  return have;
}

/* Append what the registry says of the path's provider (see the top). */
static void provider_note(doctor *d, const char *path, pd_diagnosis *dg) {
  uint32_t index;
  cli_perf_service s;
  if (!object_index(d, path, &index) || !cli_perf_service_find(index, &s))
    return;
  bool absent = dg->verdict == PD_VERDICT_OBJECT_ABSENT;
  bool disabled = s.disable_set && s.disable != 0;
  bool resolves = pd_verdict_resolves(dg->verdict);
  size_t len = strlen(dg->fix), cap = sizeof dg->fix;
  if (len + 1 >= cap || !(absent || (resolves && disabled)))
    return;
  if (absent && disabled)
    snprintf(dg->fix + len, cap - len,
             "; provider %s (%s): Disable Performance Counters = %u, so it is "
             "disabled: set the value to 0 (lodctr /E:%s)",
             s.service, s.library, (unsigned)s.disable, s.service);
  else if (absent)
    snprintf(dg->fix + len, cap - len,
             "; provider %s (%s): Disable Performance Counters %s, so it is "
             "enabled and its Open or Collect failed (Application event log, "
             "Perflib events)",
             s.service, s.library, s.disable_set ? "= 0" : "not set");
  else
    snprintf(dg->fix + len, cap - len,
             "; note: provider %s has Disable Performance Counters = %u and "
             "answered anyway (Windows skips a disabled provider; Wine does "
             "not)",
             s.service, (unsigned)s.disable);
}
#endif

static int load(doctor *d) {
  if (d->counters_file != NULL && !load_counters(d))
    return CLI_EXIT_ERROR;
  if (d->path_count == 0)
    return cli_error("doctor: no counter path (give paths or --counters "
                     "FILE)");
  if (d->common.names_file != NULL &&
      !cli_load_names(d->common.names_file, &d->names))
    return CLI_EXIT_ERROR;
  if (d->blob_file != NULL) {
    d->blob.file = d->blob_file;
    if (!cli_blob_load(&d->blob))
      return CLI_EXIT_ERROR;
    d->answer = d->blob.snap;
    d->state.last_counter = d->last_counter;
    return CLI_CONTINUE;
  }
#ifdef DOCTOR_LIVE
  int rc = load_live(d);
  if (d->last_counter != 0) /* given: it wins over the host's */
    d->state.last_counter = d->last_counter;
  return rc;
#else
  return CLI_EXIT_ERROR;
#endif
}

static void print_one(doctor *d, json_writer *w, const char *path,
                      const pd_diagnosis *dg) {
  const char *verdict = pd_verdict_name(dg->verdict);
  if (!d->common.json) {
    cli_put_text(stdout, path);
    printf("\t%s\t", verdict);
    cli_put_text(stdout, dg->fix);
    putchar('\n');
    return;
  }
  json_begin_object(w);
  json_member_string(w, "path", path);
  json_member_string(w, "verdict", verdict);
  json_member_string(w, "fix", dg->fix);
  json_key(w, "suggestions");
  json_begin_array(w);
  for (size_t k = 0; k < dg->suggestion_count; k++)
    json_string(w, dg->suggestions[k]);
  json_end_array(w);
  json_end_object(w);
}

/* Every path's diagnosis; syntax errors first, so nothing is half printed. */
static int diagnose_all(doctor *d) {
  for (size_t i = 0; i < d->path_count; i++) {
    pd_path p;
    pd_error err = {0};
    if (pd_path_parse(d->paths[i], &p, &err) != PD_OK)
      return cli_path_error(d->paths[i], &err);
    pd_path_clear(&p);
  }
  json_writer w;
  json_init(&w, stdout);
  if (d->common.json)
    json_begin_array(&w);
  int rc = CLI_EXIT_OK;
  for (size_t i = 0; i < d->path_count; i++) {
    pd_diagnosis dg;
    pd_error err = {0};
    if (pd_diagnose(d->paths[i], d->names, d->answer, &d->state, &dg, &err) !=
        PD_OK) {
      fflush(stdout);
      return cli_path_error(d->paths[i], &err);
    }
#ifdef DOCTOR_LIVE
    if (dg.verdict == PD_VERDICT_OBJECT_ABSENT && d->conn.src != NULL)
      ask_alone(d, d->paths[i], &dg);
#endif
#ifdef _WIN32
    if (d->conn.src != NULL && !d->conn.remote) /* the local registry */
      provider_note(d, d->paths[i], &dg);
#endif
    print_one(d, &w, d->paths[i], &dg);
    if (!pd_verdict_resolves(dg.verdict))
      rc = CLI_EXIT_NO_MATCH;
  }
  if (d->common.json) {
    json_end_array(&w);
    json_finish(&w);
  }
  return rc;
}

int cmd_doctor(int argc, char **argv) {
  doctor d;
  memset(&d, 0, sizeof d);
  int rc = parse_args(argc, argv, &d);
  if (rc == CLI_CONTINUE)
    rc = load(&d);
  if (rc == CLI_CONTINUE)
    rc = diagnose_all(&d);
  if (d.answer != d.blob.snap)
    pd_snapshot_free(d.answer);
  cli_blob_clear(&d.blob);
#ifdef DOCTOR_LIVE
  wp_buffer_free(&d.live);
  cli_host_close(&d.conn);
#endif
  pd_names_free(d.names);
#ifdef WINPERF_YAML
  wp_counters_free(&d.list);
#endif
  free(d.file_text);
  free(d.paths);
  return rc;
}
