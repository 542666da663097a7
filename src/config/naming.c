/* collectd-winperf: metric naming (see naming.h for the rule).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "naming.h"
#include "clean_name.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *const wp_metric_names_text[2] = {"pdh", "clean"};
const char *const wp_instance_names_text[2] = {"pdh", "pid"};

int wp_name_choice(const char *const text[2], const char *s) {
  for (int i = 0; i < 2; i++)
    if (s != NULL && strcasecmp(s, text[i]) == 0)
      return i;
  return -1;
}

typedef struct name_out {
  char *dst;
  size_t size; /* >= 1 */
  size_t len;
  bool full; /* a character did not fit: append nothing more */
} name_out;

/* Bytes of the UTF-8 character at s (1 for a stray or invalid byte), never
 * past the NUL. */
static size_t char_len(const unsigned char *s) {
  size_t want = s[0] < 0xC0 ? 1 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : 4;
  if (s[0] >= 0xF8)
    want = 1;
  size_t n = 1;
  while (n < want && (s[n] & 0xC0) == 0x80)
    n++;
  return n;
}

static bool is_control(const unsigned char *s, size_t n) {
  if (n == 1)
    return s[0] < 0x20 || s[0] == 0x7F;
  /* C1 controls U+0080..U+009F: C2 80..C2 9F */
  return n == 2 && s[0] == 0xC2 && s[1] <= 0x9F;
}

static void put(name_out *o, const char *text) {
  const unsigned char *s = (const unsigned char *)text;
  while (!o->full && *s != '\0') {
    if (*s >= 0x20 && *s < 0x7F) { /* printable ASCII: most names */
      if (o->len + 1 > o->size - 1) {
        o->full = true;
        break;
      }
      o->dst[o->len++] = *s == '/' || *s == '\\' ? '_' : (char)*s;
      s++;
      continue;
    }
    size_t n = char_len(s);
    bool bad = *s == '/' || *s == '\\' || is_control(s, n);
    size_t out = bad ? 1 : n;
    if (o->len + out > o->size - 1) {
      o->full = true; /* cut before this character: a UTF-8 boundary */
      break;
    }
    if (bad) {
      o->dst[o->len++] = '_';
    } else {
      for (size_t i = 0; i < n; i++)
        o->dst[o->len++] = (char)s[i];
    }
    s += n;
  }
  o->dst[o->len] = '\0';
}

static name_out start(char *dst, size_t size) {
  name_out o = {dst, size, 0, false};
  if (size > 0)
    dst[0] = '\0';
  else
    o.full = true;
  return o;
}

void wp_name_sanitize(char *dst, size_t size, const char *src) {
  name_out o = start(dst, size);
  if (src != NULL)
    put(&o, src);
}

void wp_name_plugin_instance(char *dst, size_t size, const char *object,
                             const char *instance, const char *override,
                             bool instance_wildcard) {
  name_out o = start(dst, size);
  if (override != NULL) {
    put(&o, override);
    if (!instance_wildcard || instance == NULL)
      return;
  } else {
    put(&o, object ? object : "");
    if (instance == NULL)
      return;
  }
  put(&o, "-");
  put(&o, instance);
}

void wp_name_type_instance(char *dst, size_t size, const char *counter,
                           const char *override, bool counter_wildcard) {
  name_out o = start(dst, size);
  if (override == NULL) {
    put(&o, counter ? counter : "");
    return;
  }
  put(&o, override);
  if (counter_wildcard && counter != NULL) {
    put(&o, "-");
    put(&o, counter);
  }
}

const char *wp_name_default_type(bool raw, uint32_t counter_type) {
  if (raw && pd_type_is_monotonic(counter_type))
    return "derive";
  return "gauge";
}

/* Bytes of s that fit in `room` without splitting a UTF-8 character. */
static size_t fit_utf8(const char *s, size_t room) {
  size_t n = strlen(s);
  if (n <= room)
    return n;
  while (room > 0 && ((unsigned char)s[room] & 0xC0) == 0x80)
    room--;
  return room;
}

const char *wp_name_instance(char *buf, size_t size, const pd_result *r,
                             wp_instance_names mode) {
  if (mode != WP_INSTANCE_NAMES_PID || r->id_base == NULL || !r->has_pid ||
      size == 0)
    return r->instance;
  char ids[48];
  if (r->has_tid)
    snprintf(ids, sizeof ids, ":%" PRIu64 ":%" PRIu64, r->pid, r->tid);
  else
    snprintf(ids, sizeof ids, ":%" PRIu64, r->pid);
  size_t base_len = strlen(r->id_base), ids_len = strlen(ids);
  /* Process V2 names its instances "name:pid" already. */
  if (!r->has_tid && base_len > ids_len &&
      strcmp(r->id_base + base_len - ids_len, ids) == 0) {
    ids[0] = '\0';
    ids_len = 0;
  }
  size_t room = size - 1 > ids_len ? size - 1 - ids_len : 0;
  size_t n = fit_utf8(r->id_base, room);
  memcpy(buf, r->id_base, n);
  snprintf(buf + n, size - n, "%s", ids);
  return buf;
}

const char *wp_name_part(char *buf, size_t size, const char *name,
                         wp_metric_names mode) {
  if (mode != WP_METRIC_NAMES_CLEAN || name == NULL || size == 0)
    return name;
  wp_name_clean(buf, size, name);
  return buf;
}
