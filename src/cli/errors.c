/* collectd-winperf: one-line error messages of the winperf tool.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "cli.h"

#include <stdarg.h>
#include <string.h>

int cli_error(const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fflush(stdout);
  fputs("winperf: ", stderr);
  cli_put_text(stderr, msg);
  fputc('\n', stderr);
  return CLI_EXIT_ERROR;
}

int cli_error_at(const char *file, const pd_error *err) {
  /* The library's messages start with "offset 0x...: " (perfdata.h); add
   * the offset ourselves if a message does not. */
  const char *msg =
      err->message[0] ? err->message : pd_status_name(err->status);
  if (strncmp(msg, "offset ", 7) == 0)
    return cli_error("%s: %s", file, msg);
  return cli_error("%s: offset 0x%zx: %s", file, err->offset, msg);
}

int cli_path_error(const char *path, const pd_error *err) {
  /* The library's path messages start with "column N: " (0-based, as
   * err->offset); add it if one does not. */
  if (strncmp(err->message, "column ", 7) == 0)
    return cli_error("%s: %s", path, err->message);
  return cli_error("%s: column %zu: %s", path, err->offset, err->message);
}
