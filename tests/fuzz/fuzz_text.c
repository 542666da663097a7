/* collectd-winperf: libFuzzer target over the text parsers: REG_MULTI_SZ
 * name tables, counter paths and wildcard matching.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "perfdata.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pd_error err;
  pd_names *names = NULL;
  if (pd_names_parse(data, size, &names, &err) == PD_OK) {
    const uint32_t *idx;
    (void)pd_names_get(names, 6);
    (void)pd_names_lookup(names, "Processor", &idx);
    pd_names_free(names);
  }
  /* The same bytes as a NUL-terminated path, and as pattern + text. */
  char *text = malloc(size + 1);
  if (text == NULL)
    return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  pd_path path;
  if (pd_path_parse(text, &path, &err) == PD_OK)
    pd_path_clear(&path);
  /* First half as a wildcard pattern, second half as the text. */
  size_t len = strlen(text), half = len / 2;
  char *pattern = strndup(text, half);
  if (pattern != NULL) {
    (void)pd_wildcard_match(pattern, text + half);
    (void)pd_name_casecmp(pattern, text + half);
    free(pattern);
  }
  free(text);
  return 0;
}
