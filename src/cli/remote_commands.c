/* collectd-winperf: `winperf query --remote` and `winperf capture --remote`.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   winperf query --remote HOST [REMOTE OPTIONS] [--interval S] [query
 *       options] PATH...
 *       two samples S seconds apart (default 1) through winperf-remote-helper,
 *       then exactly what `winperf query OLDER NEWER PATH...` prints.
 *   winperf capture --remote HOST [REMOTE OPTIONS] --dir DIR [--count N]
 *       [--interval S] [--objects "238 2"]
 *       the replay format: 000001.blob, ... and names.multisz, with
 *       last-counter when the host tells Perflib's Last Counter.
 * REMOTE OPTIONS: --port N (default 445, always passed to the helper),
 * --user [DOMAIN\]NAME, --domain NAME, --credentials FILE (smbclient -A
 * format; else WINPERF_REMOTE_USER/_PASSWORD/_DOMAIN), --encrypt (require
 * SMB3 encryption), --auth ntlm|kerberos|negotiate, --principal NAME,
 * --keytab FILE, --ccache FILE:PATH, --krb5-config FILE (Kerberos; the
 * helper's caches go to a private directory under $TMPDIR, removed when it
 * ends), --timeout S (connect and query), --buffer-size BYTES, --helper
 * PATH: what the plugin's <Host> options do; --helper-user NAME and
 * --no-helper-sandbox: what its HelperUser and HelperSandbox false do.
 * See doc/winperf-remote.md.
 *
 * Fetches blobs from a Windows host through the remote source
 * (src/source/remote.h, which runs winperf-remote-helper), writes them as
 * files and lets the offline `winperf query` evaluate them, so a remote
 * query prints exactly what a query over captured blobs prints.
 */
#include "remote.h"
#include "cli.h"
#include "commands.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct remote_args {
  wp_remote_options src;
  double interval;     /* seconds */
  unsigned long count; /* capture */
  const char *dir;     /* capture */
  const char *objects; /* capture; NULL: "Global" */
  const char *names_file;
  int npass;
  char **pass; /* the other arguments, for `winperf query` */
} remote_args;

static bool parse_number(const char *opt, const char *s, double max,
                         double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !(v >= 0.0) || v > max) {
    cli_error("%s: '%s' is not a number from 0 to %.0f", opt, s, max);
    return false;
  }
  *out = v;
  return true;
}

int cli_remote_option(int argc, char **argv, int *i,
                      struct wp_remote_options *o) {
  const char *arg = argv[*i], *v;
  double d = 0;
  if ((v = cli_opt_value(arg, "--remote", argc, argv, i)) != NULL) {
    o->host = v;
  } else if ((v = cli_opt_value(arg, "--port", argc, argv, i)) != NULL) {
    if (*v && !parse_number("--port", v, 65535, &d))
      return -1;
    o->port = (unsigned)d;
  } else if ((v = cli_opt_value(arg, "--user", argc, argv, i)) != NULL) {
    o->user = v;
  } else if ((v = cli_opt_value(arg, "--domain", argc, argv, i)) != NULL) {
    o->domain = v;
  } else if (strcmp(arg, "--encrypt") == 0) {
    o->encrypt = 1; /* no value */
    return 1;
  } else if ((v = cli_opt_value(arg, "--credentials", argc, argv, i)) != NULL) {
    o->credentials_file = v;
  } else if ((v = cli_opt_value(arg, "--auth", argc, argv, i)) != NULL) {
    o->auth = v; /* checked with the rest by wp_remote_source_new */
  } else if ((v = cli_opt_value(arg, "--principal", argc, argv, i)) != NULL) {
    o->principal = v;
  } else if ((v = cli_opt_value(arg, "--keytab", argc, argv, i)) != NULL) {
    o->keytab = v;
  } else if ((v = cli_opt_value(arg, "--ccache", argc, argv, i)) != NULL) {
    o->ccache = v;
  } else if ((v = cli_opt_value(arg, "--krb5-config", argc, argv, i)) != NULL) {
    o->krb5_config = v;
  } else if ((v = cli_opt_value(arg, "--helper", argc, argv, i)) != NULL) {
    o->helper = v;
  } else if ((v = cli_opt_value(arg, "--helper-user", argc, argv, i)) != NULL) {
    o->helper_user = v;
  } else if (strcmp(arg, "--no-helper-sandbox") == 0) {
    o->no_sandbox = 1; /* no value */
    return 1;
  } else if ((v = cli_opt_value(arg, "--timeout", argc, argv, i)) != NULL) {
    if (*v && !parse_number("--timeout", v, 3600, &d))
      return -1;
    o->connect_timeout_ms = o->query_timeout_ms = (unsigned)(d * 1000.0 + 0.5);
  } else if ((v = cli_opt_value(arg, "--buffer-size", argc, argv, i)) != NULL) {
    if (*v && !parse_number("--buffer-size", v, 0x4000000, &d))
      return -1;
    o->buffer_size = (unsigned)d;
  } else {
    return 0;
  }
  return v[0] == '\0' ? -1 : 1;
}

bool cli_remote_wanted(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0)
      return false;
    if (strcmp(argv[i], "--remote") == 0 ||
        strncmp(argv[i], "--remote=", 9) == 0)
      return true;
  }
  return false;
}

/* CLI_CONTINUE when the command can run, CLI_SHOW_HELP for --help, else
 * CLI_EXIT_ERROR (reported). */
static int parse_args(int argc, char **argv, remote_args *a) {
  memset(a, 0, sizeof *a);
  a->interval = 1.0;
  a->count = 1;
  a->pass = calloc((size_t)argc + 8, sizeof *a->pass);
  if (a->pass == NULL)
    return cli_error("out of memory");
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *v;
    double d;
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
      return CLI_SHOW_HELP;
    int r = cli_remote_option(argc, argv, &i, &a->src);
    if (r < 0)
      return CLI_EXIT_ERROR;
    if (r > 0) {
      continue;
    } else if ((v = cli_opt_value(arg, "--interval", argc, argv, &i)) != NULL) {
      if (!parse_number("--interval", v, 86400, &a->interval))
        return CLI_EXIT_ERROR;
    } else if ((v = cli_opt_value(arg, "--count", argc, argv, &i)) != NULL) {
      if (!parse_number("--count", v, 1e9, &d) || d < 1)
        return cli_error("--count: at least 1");
      a->count = (unsigned long)d;
    } else if ((v = cli_opt_value(arg, "--dir", argc, argv, &i)) != NULL) {
      a->dir = v;
    } else if ((v = cli_opt_value(arg, "--objects", argc, argv, &i)) != NULL) {
      a->objects = v;
    } else {
      /* For `winperf query`; remember --names, keep option values. */
      bool names = strcmp(arg, "--names") == 0 || strcmp(arg, "-n") == 0;
      a->pass[a->npass++] = argv[i];
      bool valued = strcmp(arg, "--multi-timer") == 0 ||
                    strcmp(arg, "--pair-by") == 0 ||
                    strcmp(arg, "--instance-names") == 0 ||
                    strcmp(arg, "--metric-names") == 0;
      if ((names || valued) && i + 1 < argc) {
        if (names)
          a->names_file = argv[i + 1];
        a->pass[a->npass++] = argv[++i];
      } else if (strncmp(arg, "--names=", 8) == 0) {
        a->names_file = arg + 8;
      }
    }
    if (v != NULL && v[0] == '\0')
      return CLI_EXIT_ERROR;
  }
  if (a->src.host == NULL || a->src.host[0] == '\0')
    return cli_error("--remote HOST is required");
  return CLI_CONTINUE;
}

static bool fetch(wp_source *src, const char *objects, const char *path,
                  wp_buffer *buf) {
  wp_error err;
  wp_error_clear(&err);
  wp_source_status st = objects ? src->collect(src, objects, buf, &err)
                                : src->names(src, buf, &err);
  if (st != WP_SOURCE_OK)
    return cli_error("%s", err.message), false;
  return cli_write_file(path, buf->data, buf->len);
}

static void pause_for(double seconds) {
  struct timespec ts;
  ts.tv_sec = (time_t)seconds;
  ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
    ;
}

/* The object index list the paths need (from the names table), or
 * "Global" when a path names no known object. */
static char *objects_for(const char *names_path, char **pass, int npass) {
  uint8_t *data = NULL;
  size_t len = 0;
  pd_names *names = NULL;
  pd_selection *sel = pd_selection_new();
  char *objects = NULL;
  pd_error err;
  if (sel != NULL && cli_read_file(names_path, &data, &len) &&
      pd_names_parse(data, len, &names, &err) == PD_OK) {
    size_t id, unresolved = 0, paths = 0;
    bool ok = true;
    for (int i = 0; i < npass && ok; i++)
      if (pass[i][0] == '\\') {
        ok = pd_selection_add(sel, pass[i], &id, &err) == PD_OK;
        paths++;
      }
    pd_selection_set_names(sel, names);
    const char *q = ok && paths ? pd_selection_query(sel, &unresolved) : NULL;
    if (q != NULL && q[0] != '\0' && unresolved == 0)
      objects = strdup(q);
  }
  pd_selection_free(sel);
  pd_names_free(names);
  free(data);
  return objects ? objects : strdup("Global");
}

static int remote_query(remote_args *a, wp_source *src) {
  const char *tmp = getenv("TMPDIR");
  char dir[4096], names[4200], older[4200], newer[4200];
  snprintf(dir, sizeof dir, "%s/winperf-remote.XXXXXX",
           tmp && *tmp ? tmp : "/tmp");
  if (mkdtemp(dir) == NULL)
    return cli_error("%s: %s", dir, strerror(errno));
  snprintf(names, sizeof names, "%s/names.multisz", dir);
  snprintf(older, sizeof older, "%s/1.blob", dir);
  snprintf(newer, sizeof newer, "%s/2.blob", dir);
  int rc = CLI_EXIT_ERROR;
  wp_buffer buf = {0};
  char *objects = NULL;
  const char *names_path = a->names_file;
  if (names_path == NULL) {
    if (!fetch(src, NULL, names, &buf))
      goto out;
    names_path = names;
  }
  objects = objects_for(names_path, a->pass, a->npass);
  if (objects == NULL || !fetch(src, objects, older, &buf))
    goto out;
  pause_for(a->interval);
  if (!fetch(src, objects, newer, &buf))
    goto out;
  /* winperf query [--names FILE] OLDER NEWER <the other arguments> */
  static char query_name[] = "query", names_opt[] = "--names";
  char **qargv = calloc((size_t)a->npass + 8, sizeof *qargv);
  if (qargv == NULL) {
    cli_error("out of memory");
    goto out;
  }
  int n = 0;
  qargv[n++] = query_name;
  if (a->names_file == NULL) {
    qargv[n++] = names_opt;
    qargv[n++] = names;
  }
  qargv[n++] = older;
  qargv[n++] = newer;
  for (int i = 0; i < a->npass; i++)
    qargv[n++] = a->pass[i];
  qargv[n] = NULL;
  rc = cmd_query(n, qargv);
  free(qargv);
out:
  free(objects);
  wp_buffer_free(&buf);
  unlink(older);
  unlink(newer);
  unlink(names);
  rmdir(dir);
  return rc;
}

static int remote_capture(remote_args *a, wp_source *src) {
  if (a->dir == NULL)
    return cli_error("capture: --dir DIR is required");
  if (a->npass > 0)
    return cli_error("capture: unexpected argument '%s'", a->pass[0]);
  if (!cli_make_dir(a->dir))
    return CLI_EXIT_ERROR;
  size_t cap = strlen(a->dir) + 32;
  char *path = malloc(cap);
  if (path == NULL)
    return cli_error("out of memory");
  wp_buffer buf = {0};
  int rc = CLI_EXIT_ERROR;
  snprintf(path, cap, "%s/names.multisz", a->dir);
  if (!fetch(src, NULL, path, &buf))
    goto out;
  /* last-counter, when the host told Perflib's (read with the names). */
  uint32_t last = wp_source_last_counter(src);
  if (last != 0) {
    char text[16];
    int n = snprintf(text, sizeof text, "%u\n", (unsigned)last);
    snprintf(path, cap, "%s/last-counter", a->dir);
    if (!cli_write_file(path, (const uint8_t *)text, (size_t)n))
      goto out;
  }
  for (unsigned long i = 1; i <= a->count; i++) {
    if (i > 1)
      pause_for(a->interval);
    snprintf(path, cap, "%s/%06lu.blob", a->dir, i);
    if (!fetch(src, a->objects ? a->objects : "Global", path, &buf))
      goto out;
  }
  rc = CLI_EXIT_OK;
out:
  wp_buffer_free(&buf);
  free(path);
  return rc;
}

int cmd_remote(int argc, char **argv) {
  remote_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc == CLI_CONTINUE) {
    rc = CLI_EXIT_ERROR;
    wp_error err = {0};
    wp_source *src = wp_remote_source_new(&a.src, &err);
    if (src == NULL) {
      cli_error("%s", err.message);
    } else {
      rc = strcmp(argv[0], "capture") == 0 ? remote_capture(&a, src)
                                           : remote_query(&a, src);
      src->destroy(src);
    }
  }
  free(a.pass);
  return rc;
}
