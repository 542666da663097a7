/* collectd-winperf: the one error value for code outside the parser.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The parser has pd_error (perfdata.h: a status and a message naming the
 * wire offset; wp_error_from_pd there turns one into a wp_error). Everything
 * around it (sources, the YAML loader, the remote helper, the CLI, the plugin)
 * reports failures with a wp_error: a code for the few callers that branch on
 * the kind of failure, and a message for the human, built from the innermost
 * failure outwards:
 *
 *   static int load(const char *file, wp_error *err) {
 *     ...
 *     if (p == NULL)
 *       return wp_error_nomem(err);                 // "out of memory"
 *     if (bad)
 *       return wp_error_set(err, "%u:%u: expected a list", line, col);
 *   }
 *   if (load(file, err) != 0)
 *     return wp_error_prefix(err, "%s:", file);     // "f.yaml:3:5: expected"
 *
 * Rules:
 * - Every setter returns -1, so `return wp_error_set(...)` fits functions
 *   returning 0/-1 and wp_source_status (WP_SOURCE_ERROR is -1).
 * - err may be NULL (the failure is still returned, the message dropped).
 * - Messages are truncated to fit, never overflow; a prefix keeps its text
 *   and the tail of the old message is what gets cut.
 * - A message has no trailing newline or period; prefixes end in ": " by
 *   convention ("host winsrv01: ") unless the caller's format already has
 *   the separator, as for "FILE:LINE:COL: " built in pieces.
 */
#ifndef WP_ERROR_H
#define WP_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define WP_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define WP_PRINTF(fmt, args)
#endif

/* What kind of failure; most callers only log the message. */
typedef enum wp_error_code {
  WP_E_NONE = 0, /* no error recorded (wp_error_clear) */
  WP_E_FAILED,   /* anything not below: bad input, refused request, ... */
  WP_E_NOMEM,    /* an allocation failed */
  WP_E_LIMIT,    /* a size cap was reached (wp_grow's WP_GROW_LIMIT) */
  WP_E_IO,       /* the operating system refused (open, read, connect) */
  WP_E_PARSER,   /* a pd_error taken over (perfdata.h: wp_error_from_pd) */
} wp_error_code;

#define WP_ERROR_MESSAGE_SIZE 512

typedef struct wp_error {
  wp_error_code code;
  char message[WP_ERROR_MESSAGE_SIZE]; /* "" when code is WP_E_NONE */
} wp_error;

/* No error: code WP_E_NONE, empty message. */
void wp_error_clear(wp_error *err);

/* Record a failure (code WP_E_FAILED) with a printf-style message. -1. */
int wp_error_set(wp_error *err, const char *fmt, ...) WP_PRINTF(2, 3);
/* The same with an explicit code. -1. */
int wp_error_set_code(wp_error *err, wp_error_code code, const char *fmt, ...)
    WP_PRINTF(3, 4);
/* wp_error_set_code for a caller's own variadic reporter. -1. */
int wp_error_vset(wp_error *err, wp_error_code code, const char *fmt,
                  va_list ap) WP_PRINTF(3, 0);
/* "out of memory" (WP_E_NOMEM). -1. */
int wp_error_nomem(wp_error *err);
/* "<message>: <strerror(errnum)>" (WP_E_IO). -1. */
int wp_error_errno(wp_error *err, int errnum, const char *fmt, ...)
    WP_PRINTF(3, 4);
/* Put context before the current message, keeping the code:
 * wp_error_prefix(err, "host %s: ", name). -1. With no error recorded the
 * prefix alone becomes the message (code WP_E_FAILED). */
int wp_error_prefix(wp_error *err, const char *fmt, ...) WP_PRINTF(2, 3);

/* Report a failed wp_grow/wp_grow_bytes (wp_grow.h): "out of memory"
 * (WP_E_NOMEM) or "more than <max> <what>" (WP_E_LIMIT), e.g.
 * wp_error_grow(err, rc, WP_MAX_COUNTERS, "counter entries"). -1. */
int wp_error_grow(wp_error *err, int grow_status, size_t max, const char *what);

#ifdef __cplusplus
}
#endif

#endif
