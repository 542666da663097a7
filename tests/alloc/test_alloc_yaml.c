/* collectd-winperf tests: the YAML counter list loader when allocations
 * fail.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * wp_counters_parse and wp_counters_load (src/config/counters_yaml.h) on a
 * realistic counter list, failing allocation 1, 2, ... once and
 * persistently (failalloc.h). A failing run must return -1 with the list
 * left empty and "out of memory" in the message, and leave nothing
 * allocated; a run that completes must give the list of a run with no
 * failure.
 *
 * How libyaml is linked decides what is failed. With FAILALLOC_YAML_WRAPPED
 * (configure found libyaml.a: tests/alloc/Makefile.inc links it
 * statically), libyaml's own allocations go through the shim too: the
 * parser's buffers, tokens, events and strings fail like the loader's.
 * Otherwise libyaml is the shared library, whose allocations the link-time
 * wrap cannot see, and only the loader's own strdup/realloc calls fail.
 */
#include "counters_yaml.h"
#include "failalloc.h"
#include "tap.h"
#include "failalloc_tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FAILALLOC_YAML_WRAPPED
#define FAILALLOC_YAML_WRAPPED 0
#endif

static const char TEXT[] =
    "# counters\n"
    "- \\Processor(*)\\% Processor Time\n"
    "- '\\Memory\\Available Bytes'\n"
    "- \"\\\\System\\\\Processes\"\n"
    "- path: \\Network Interface(*)\\Bytes Received/sec\n"
    "  raw: true\n"
    "- path: \\Process(svchost#1)\\Working Set\n"
    "  type: bytes\n"
    "  plugin_instance: proc\n"
    "  type_instance: working_set\n"
    "  scale: 0.5\n"
    "- {path: '\\Thread(*/0)\\*', raw: off, type_instance: ''}\n"
    "- \\LogicalDisk(C:)\\Free Megabytes\n"
    "- \\PhysicalDisk(*)\\Avg. Disk sec/Read\n"
    "- \\Cache\\Copy Reads/sec\n"
    "- \\System\\Context Switches/sec\n";

typedef struct fixture {
  char file[64];
  char want[2048];
} fixture;

static void describe(const wp_counter_list *l, char *out, size_t cap) {
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < l->count && used < cap; i++) {
    const wp_counter_entry *e = &l->entries[i];
    used += (size_t)snprintf(
        out + used, cap - used, "%u:%u %s|%s|%s|%s|%g|%d|%d%d\n", e->line,
        e->column, e->path, e->type ? e->type : "-",
        e->plugin_instance ? e->plugin_instance : "-",
        e->type_instance ? e->type_instance : "-", e->scale, e->raw,
        e->instance_has_wildcard, e->counter_has_wildcard);
  }
}

static failalloc_result check(fixture *f, int rc, wp_counter_list *list,
                              const wp_error *werr, char *why, size_t whylen) {
  const char *err = werr->message;
  failalloc_result res = FA_SUCCESS;
  if (rc == 0) {
    char got[sizeof f->want];
    describe(list, got, sizeof got);
    if (strcmp(got, f->want) != 0) {
      snprintf(why, whylen, "succeeded with a different list");
      res = FA_BROKEN;
    }
  } else if (list->entries != NULL || list->count != 0) {
    snprintf(why, whylen, "-1 but the list is not empty (%zu entries)",
             list->count);
    res = FA_BROKEN;
  } else if (strstr(err, "out of memory") == NULL || werr->code != WP_E_NOMEM) {
    snprintf(why, whylen, "-1 without \"out of memory\" (WP_E_NOMEM): %s", err);
    res = FA_BROKEN;
  } else if (strstr(err, "bad counter path") != NULL) {
    snprintf(why, whylen, "out of memory reported as a bad path: %s", err);
    res = FA_BROKEN;
  } else {
    res = FA_CLEAN_ERROR;
  }
  wp_counters_free(list);
  return res;
}

static failalloc_result op_parse(void *ctx, char *why, size_t whylen) {
  fixture *f = ctx;
  wp_counter_list list = {(wp_counter_entry *)1, 99};
  wp_error err;
  wp_error_clear(&err);
  int rc = wp_counters_parse("t.yaml", TEXT, sizeof TEXT - 1, &list, &err);
  return check(f, rc, &list, &err, why, whylen);
}

static failalloc_result op_load(void *ctx, char *why, size_t whylen) {
  fixture *f = ctx;
  wp_counter_list list = {(wp_counter_entry *)1, 99};
  wp_error err;
  wp_error_clear(&err);
  int rc = wp_counters_load(f->file, &list, &err);
  return check(f, rc, &list, &err, why, whylen);
}

int main(void) {
  static fixture f;
  snprintf(f.file, sizeof f.file, "/tmp/test_alloc_yaml.%ld.yaml",
           (long)getpid());
  FILE *fp = fopen(f.file, "wb");
  if (fp == NULL || fwrite(TEXT, 1, sizeof TEXT - 1, fp) != sizeof TEXT - 1 ||
      fclose(fp) != 0) {
    printf("Bail out! cannot write %s\n", f.file);
    return 1;
  }
  wp_counter_list list;
  wp_error err;
  wp_error_clear(&err);
  int rc = wp_counters_parse("t.yaml", TEXT, sizeof TEXT - 1, &list, &err);
  if (!OK(rc == 0 && list.count == 10, "the list parses with no failure"))
    tap_diag("  %s", err.message);
  describe(&list, f.want, sizeof f.want);
  wp_counters_free(&list);
  tap_diag("libyaml's allocations %s failed too",
           FAILALLOC_YAML_WRAPPED ? "are" : "are not (shared library)");

  failalloc_tap_sweep("wp_counters_parse", op_parse, &f,
                      "each -1 with \"out of memory\" and an empty list", NULL,
                      NULL);
  failalloc_tap_sweep("wp_counters_load", op_load, &f,
                      "each -1 with \"out of memory\" and an empty list", NULL,
                      NULL);
  unlink(f.file);
  return tap_done();
}
