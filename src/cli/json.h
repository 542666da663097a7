/* collectd-winperf: a small streaming JSON writer for the winperf tool.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Writes RFC 8259 JSON to a FILE, pretty-printed with two-space indents.
 * Strings are escaped (quote, backslash, control characters, U+2028/2029);
 * valid UTF-8 passes through, invalid bytes become U+FFFD so the output is
 * always valid UTF-8. Commas and nesting are tracked by the writer.
 */
#ifndef WINPERF_JSON_H
#define WINPERF_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

typedef struct json_writer {
  FILE *out;
  int depth;
  bool has_items[JSON_MAX_DEPTH]; /* an item was written at that depth */
  bool after_key;                 /* a key was written, its value is next */
} json_writer;

void json_init(json_writer *w, FILE *out);
void json_begin_object(json_writer *w);
void json_end_object(json_writer *w);
void json_begin_array(json_writer *w);
void json_end_array(json_writer *w);
/* A member name inside an object; the next call writes its value. */
void json_key(json_writer *w, const char *key);
void json_string(json_writer *w, const char *s); /* NULL writes null */
void json_int(json_writer *w, int64_t v);
void json_uint(json_writer *w, uint64_t v);
/* Shortest form that reads back as the same double; null if not finite. */
void json_double(json_writer *w, double v);
void json_null(json_writer *w);
/* A member of the current object: json_key then the value. */
void json_member_string(json_writer *w, const char *key, const char *s);
void json_member_int(json_writer *w, const char *key, int64_t v);
void json_member_uint(json_writer *w, const char *key, uint64_t v);
/* Finish the document with a newline (after the outermost value). */
void json_finish(json_writer *w);

/* Shortest "%.*g" rendering of v that strtod reads back exactly (up to 17
 * digits) into buf; for finite values only. */
void json_format_double(double v, char *buf, size_t cap);

#endif
