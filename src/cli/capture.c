/* collectd-winperf: `winperf capture` on the local registry (Windows).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   winperf capture --dir DIR [--count N] [--interval S] [--objects "238 2"]
 *       writes 000001.blob, 000002.blob, ... plus names.multisz (English,
 *       HKEY_PERFORMANCE_TEXT), names-local.multisz (HKEY_PERFORMANCE_
 *       NLSTEXT) and last-counter (Perflib's Last Counter, where the
 *       registry has it): the replay format, for replaying on Linux.
 */
#include "cli.h"
#include "commands.h"
#include "live_options.h"

#include <stdlib.h>
#include <string.h>

/* Write DIR/NAME; reports errors. */
static bool write_in(const char *dir, const char *name, const uint8_t *data,
                     size_t len) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *path = malloc(n);
  if (path == NULL)
    return cli_error("out of memory"), false;
  snprintf(path, n, "%s/%s", dir, name);
  bool ok = cli_write_file(path, data, len);
  free(path);
  return ok;
}

static bool save_names(wp_source *src, live_names_fn fn, const char *dir,
                       const char *file, wp_buffer *buf) {
  wp_error err;
  wp_error_clear(&err);
  if (fn(src, buf, &err) != WP_SOURCE_OK)
    return cli_error("%s", err.message), false;
  return write_in(dir, file, buf->data, buf->len);
}

/* DIR/last-counter, when the registry tells it (format.md 4.1). */
static bool save_last_counter(wp_source *src, const char *dir) {
  uint32_t last = wp_source_last_counter(src);
  char text[16];
  int n = snprintf(text, sizeof text, "%u\n", (unsigned)last);
  return last == 0 ||
         write_in(dir, "last-counter", (const uint8_t *)text, (size_t)n);
}

/* count samples of `objects` into dir, each checked by the decoder. */
static int capture_samples(const live_opts *o, wp_source *src,
                           const char *objects, const char *dir,
                           wp_buffer *buf) {
  wp_error werr;
  wp_error_clear(&werr);
  pd_snapshot *snap = pd_snapshot_new();
  if (snap == NULL)
    return cli_error("out of memory");
  int rc = CLI_EXIT_ERROR;
  for (unsigned long i = 1; i <= o->count; i++) {
    if (i > 1)
      live_sleep_interval(o);
    if (src->collect(src, objects, buf, &werr) != WP_SOURCE_OK) {
      cli_error("registry: query \"%s\": %s", objects, werr.message);
      break;
    }
    char name[32];
    snprintf(name, sizeof name, "%06lu.blob", i);
    /* Written as returned; a blob the decoder rejects is reported (the
     * file stays, for a bug report) and ends the capture. */
    if (!write_in(dir, name, buf->data, buf->len))
      break;
    pd_error err = {0};
    if (pd_decode(snap, buf->data, buf->len, NULL, &err) != PD_OK) {
      cli_error_at(name, &err);
      break;
    }
    if (i == o->count)
      rc = CLI_EXIT_OK;
  }
  pd_snapshot_free(snap);
  return rc;
}

int cmd_capture(int argc, char **argv) {
  enum { OPT_DIR = LIVE_OPT_END, OPT_OBJECTS };
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
      return CLI_SHOW_HELP;
    else
      return cli_error("capture: bad option '%s' (try 'winperf capture "
                       "--help')",
                       argv[optind - 1]);
  }
  if (dir == NULL)
    return cli_error("capture: --dir DIR is required");
  if (optind < argc)
    return cli_error("capture: unexpected argument '%s'", argv[optind]);
  if (!cli_make_dir(dir))
    return CLI_EXIT_ERROR;

  wp_error err = {0};
  wp_source *src = wp_registry_open(&o.reg, &err);
  if (src == NULL)
    return cli_error("registry: %s", err.message);
  int rc = CLI_EXIT_ERROR;
  wp_buffer buf = {0};
  if (save_names(src, src->names, dir, "names.multisz", &buf) &&
      save_names(src, wp_registry_names_local, dir, "names-local.multisz",
                 &buf) &&
      save_last_counter(src, dir))
    rc = capture_samples(&o, src, objects, dir, &buf);
  live_report_stats(&o, src);
  wp_buffer_free(&buf);
  src->destroy(src);
  return rc;
}
