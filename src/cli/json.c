/* collectd-winperf: a small streaming JSON writer for the winperf tool.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void json_init(json_writer *w, FILE *out) {
  memset(w, 0, sizeof *w);
  w->out = out;
}

static void indent(json_writer *w) {
  fputc('\n', w->out);
  for (int i = 0; i < w->depth; i++)
    fputs("  ", w->out);
}

/* Comma and indentation before a value (or a key) at the current depth. */
static void before_item(json_writer *w) {
  if (w->after_key) {
    w->after_key = false;
    return;
  }
  if (w->depth > 0) {
    if (w->has_items[w->depth])
      fputc(',', w->out);
    indent(w);
  }
  w->has_items[w->depth] = true;
}

static void open_container(json_writer *w, char c) {
  before_item(w);
  fputc(c, w->out);
  if (w->depth + 1 < JSON_MAX_DEPTH)
    w->depth++;
  w->has_items[w->depth] = false;
}

static void close_container(json_writer *w, char c) {
  bool had = w->has_items[w->depth];
  if (w->depth > 0)
    w->depth--;
  if (had)
    indent(w);
  fputc(c, w->out);
}

void json_begin_object(json_writer *w) {
  open_container(w, '{');
}

void json_end_object(json_writer *w) {
  close_container(w, '}');
}

void json_begin_array(json_writer *w) {
  open_container(w, '[');
}

void json_end_array(json_writer *w) {
  close_container(w, ']');
}

/* Length of the valid UTF-8 sequence at s (at most `left` bytes), or 0 if
 * it is not valid (overlong, surrogate, above U+10FFFF, truncated). */
static size_t utf8_valid_len(const unsigned char *s, size_t left,
                             uint32_t *cp) {
  unsigned char c = s[0];
  size_t n;
  uint32_t v, min;
  if (c < 0x80) {
    *cp = c;
    return 1;
  } else if (c >= 0xC2 && c <= 0xDF) {
    n = 2, v = c & 0x1F, min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3, v = c & 0x0F, min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4, v = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (left < n)
    return 0;
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80)
      return 0;
    v = (v << 6) | (s[i] & 0x3F);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
    return 0;
  *cp = v;
  return n;
}

static void json_string_n(json_writer *w, const char *s, size_t len) {
  before_item(w);
  const unsigned char *p = (const unsigned char *)s;
  fputc('"', w->out);
  size_t i = 0;
  while (i < len) {
    uint32_t cp;
    size_t n = utf8_valid_len(p + i, len - i, &cp);
    if (n == 0) {
      fputs("\\ufffd", w->out); /* invalid byte: replacement character */
      i++;
      continue;
    }
    switch (cp) {
    case '"':
      fputs("\\\"", w->out);
      break;
    case '\\':
      fputs("\\\\", w->out);
      break;
    case '\n':
      fputs("\\n", w->out);
      break;
    case '\r':
      fputs("\\r", w->out);
      break;
    case '\t':
      fputs("\\t", w->out);
      break;
    case '\b':
      fputs("\\b", w->out);
      break;
    case '\f':
      fputs("\\f", w->out);
      break;
    default:
      /* Control characters must be escaped; DEL and the JavaScript line
       * separators are escaped too so the output is safe to embed. */
      if (cp < 0x20 || cp == 0x7F || cp == 0x2028 || cp == 0x2029)
        fprintf(w->out, "\\u%04" PRIx32, cp);
      else
        fwrite(p + i, 1, n, w->out);
      break;
    }
    i += n;
  }
  fputc('"', w->out);
}

void json_string(json_writer *w, const char *s) {
  if (s == NULL)
    json_null(w);
  else
    json_string_n(w, s, strlen(s));
}

void json_key(json_writer *w, const char *key) {
  json_string(w, key);
  fputs(": ", w->out);
  w->after_key = true;
}

void json_int(json_writer *w, int64_t v) {
  before_item(w);
  fprintf(w->out, "%" PRId64, v);
}

void json_uint(json_writer *w, uint64_t v) {
  before_item(w);
  fprintf(w->out, "%" PRIu64, v);
}

void json_format_double(double v, char *buf, size_t cap) {
  if (v == 0)
    v = 0; /* no "-0" */
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(buf, cap, "%.*g", prec, v);
    if (strtod(buf, NULL) == v)
      return;
  }
}

void json_double(json_writer *w, double v) {
  if (!isfinite(v)) {
    json_null(w);
    return;
  }
  char buf[40];
  json_format_double(v, buf, sizeof buf);
  before_item(w);
  fputs(buf, w->out);
}

void json_null(json_writer *w) {
  before_item(w);
  fputs("null", w->out);
}

void json_member_string(json_writer *w, const char *key, const char *s) {
  json_key(w, key);
  json_string(w, s);
}

void json_member_int(json_writer *w, const char *key, int64_t v) {
  json_key(w, key);
  json_int(w, v);
}

void json_member_uint(json_writer *w, const char *key, uint64_t v) {
  json_key(w, key);
  json_uint(w, v);
}

void json_finish(json_writer *w) {
  fputc('\n', w->out);
}
