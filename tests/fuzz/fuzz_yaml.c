/* collectd-winperf: libFuzzer target over the YAML counter file loader.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * src/config/counters_yaml.c without collectd: the input is a CountersFile.
 * It is parsed from memory (wp_counters_parse) and, as the plugin reads it,
 * from a file (wp_counters_load on a memfd, when the input is small enough
 * to make the extra system calls cheap): both must agree. Every entry's
 * path must parse again, and its overrides go through the naming rule the
 * plugin applies to them.
 */
#define _GNU_SOURCE
#include "counters_yaml.h"
#include "naming.h"
#include "perfdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Inputs up to this size are loaded from a file as well. */
#define FILE_MAX 4096

static int memfd = -2;
static char memfd_path[64];

static void check_entries(const wp_counter_list *list) {
  for (size_t i = 0; i < list->count; i++) {
    const wp_counter_entry *e = &list->entries[i];
    pd_path path;
    pd_error err;
    if (e->path == NULL || pd_path_parse(e->path, &path, &err) != PD_OK)
      abort(); /* the loader only keeps paths that parse */
    pd_path_clear(&path);
    if (e->line == 0 || e->column == 0)
      abort(); /* positions are 1-based */
    char name[128];
    wp_name_plugin_instance(name, sizeof name, "Object", "parent/inst#1",
                            e->plugin_instance, e->instance_has_wildcard);
    wp_name_type_instance(name, sizeof name, "Counter", e->type_instance,
                          e->counter_has_wildcard);
    if (e->type != NULL)
      wp_name_sanitize(name, sizeof name, e->type);
  }
}

static bool same(const wp_counter_list *a, const wp_counter_list *b) {
  if (a->count != b->count)
    return false;
  for (size_t i = 0; i < a->count; i++)
    if (strcmp(a->entries[i].path, b->entries[i].path) != 0 ||
        a->entries[i].raw != b->entries[i].raw ||
        a->entries[i].line != b->entries[i].line)
      return false;
  return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* An exact-size copy, not NUL-terminated: the loader takes a length. */
  char *text = malloc(size ? size : 1);
  if (text == NULL)
    return 0;
  if (size)
    memcpy(text, data, size);
  if (memfd == -2) {
    memfd = memfd_create("fuzz-yaml", 0);
    snprintf(memfd_path, sizeof memfd_path, "/proc/self/fd/%d", memfd);
  }
  wp_error err;
  wp_error_clear(&err);
  wp_counter_list list;
  int rc = wp_counters_parse(memfd_path, text, size, &list, &err);
  if (rc == 0) {
    check_entries(&list);
  } else if (rc != -1 || list.entries != NULL || list.count != 0 ||
             strncmp(err.message, memfd_path, strlen(memfd_path)) != 0) {
    abort(); /* an error leaves the list empty and names the file */
  }
  if (memfd >= 0 && size <= FILE_MAX && ftruncate(memfd, 0) == 0 &&
      pwrite(memfd, data, size, 0) == (ssize_t)size) {
    wp_error err2;
    wp_counter_list from_file;
    int rc2 = wp_counters_load(memfd_path, &from_file, &err2);
    if (rc2 != rc || (rc == 0 && !same(&list, &from_file)))
      abort(); /* the file and the buffer give the same answer */
    if (rc2 == 0)
      wp_counters_free(&from_file);
  }
  if (rc == 0)
    wp_counters_free(&list);
  free(text);
  return 0;
}
