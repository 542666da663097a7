/* collectd-winperf: the YAML counter list loader (libyaml event API).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "counters_yaml.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "naming.h"
#include "perfdata.h"
#include "wp_grow.h"

#define KEYS_EXPECTED                                                          \
  "path, type, plugin_instance, type_instance, scale, raw, include, "          \
  "exclude, total, aggregate, max_instances, pair_by, instance_names or "      \
  "metric_names"

typedef struct loader {
  yaml_parser_t parser;
  const char *file;
  wp_error *err;
  wp_counter_list list;
  size_t cap;
} loader;

/* "FILE:LINE:COL: <message>" with that code; -1. */
__attribute__((format(printf, 4, 5))) static int
fail_code(loader *ld, wp_error_code code, yaml_mark_t mark, const char *fmt,
          ...) {
  char what[WP_ERROR_MESSAGE_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof(what), fmt, ap);
  va_end(ap);
  return wp_error_set_code(ld->err, code, "%s:%zu:%zu: %s", ld->file,
                           mark.line + 1, mark.column + 1, what);
}

#define fail_at(ld, mark, ...) fail_code((ld), WP_E_FAILED, (mark), __VA_ARGS__)
#define fail_nomem(ld, mark)                                                   \
  fail_code((ld), WP_E_NOMEM, (mark), "out of memory")

/* Pull the next event; a libyaml syntax error becomes our message. */
static int next_event(loader *ld, yaml_event_t *ev) {
  if (yaml_parser_parse(&ld->parser, ev))
    return 0;
  yaml_mark_t mark = ld->parser.problem_mark;
  if (ld->parser.error == YAML_MEMORY_ERROR) /* no problem text, no mark */
    return fail_nomem(ld, ld->parser.mark);
  if (ld->parser.context != NULL)
    return fail_at(ld, mark, "YAML syntax error: %s %s",
                   ld->parser.problem ? ld->parser.problem : "invalid input",
                   ld->parser.context);
  return fail_at(ld, mark, "YAML syntax error: %s",
                 ld->parser.problem ? ld->parser.problem : "invalid input");
}

/* "a mapping", "a list", "the string 'x'", for "expected X, got Y". */
static void describe(const yaml_event_t *ev, char *buf, size_t len) {
  switch (ev->type) {
  case YAML_MAPPING_START_EVENT:
    snprintf(buf, len, "a mapping");
    break;
  case YAML_SEQUENCE_START_EVENT:
    snprintf(buf, len, "a list");
    break;
  case YAML_SCALAR_EVENT:
    snprintf(buf, len, "'%.*s'",
             (int)(ev->data.scalar.length > 60 ? 60 : ev->data.scalar.length),
             (const char *)ev->data.scalar.value);
    break;
  case YAML_ALIAS_EVENT:
    snprintf(buf, len, "an alias (*%s)", (const char *)ev->data.alias.anchor);
    break;
  case YAML_STREAM_END_EVENT:
  case YAML_DOCUMENT_END_EVENT:
    snprintf(buf, len, "the end of the document");
    break;
  default:
    snprintf(buf, len, "something else");
    break;
  }
}

static int fail_expected(loader *ld, const yaml_event_t *ev,
                         const char *expected) {
  char got[96];
  describe(ev, got, sizeof(got));
  return fail_at(ld, ev->start_mark, "expected %s, got %s", expected, got);
}

/* A new entry at `mark`; NULL with the error reported (out of memory, or
 * more than WP_COUNTERS_MAX_ENTRIES). */
static wp_counter_entry *new_entry(loader *ld, yaml_mark_t mark) {
  int rc = WP_GROW(&ld->list.entries, &ld->cap, ld->list.count + 1,
                   WP_COUNTERS_MAX_ENTRIES);
  if (rc == WP_GROW_LIMIT) {
    fail_code(ld, WP_E_LIMIT, mark, "more than %zu counter entries",
              (size_t)WP_COUNTERS_MAX_ENTRIES);
    return NULL;
  }
  if (rc != WP_GROW_OK) {
    fail_nomem(ld, mark);
    return NULL;
  }
  wp_counter_entry *e = &ld->list.entries[ld->list.count++];
  memset(e, 0, sizeof(*e));
  e->scale = 1.0;
  e->raw = -1;
  e->pair_by = e->instance_names = e->metric_names = -1;
  e->line = (unsigned)mark.line + 1;
  e->column = (unsigned)mark.column + 1;
  return e;
}

/* Where character `byte_offset` of a scalar's text sits in the file. Exact
 * for plain and single-quoted one-line scalars (the usual way to write a
 * path); a double-quoted scalar's escapes shift it. */
static yaml_mark_t scalar_char_mark(const yaml_event_t *ev,
                                    size_t byte_offset) {
  yaml_mark_t m = ev->start_mark;
  if (ev->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
      ev->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
    m.column++;
  const unsigned char *s = ev->data.scalar.value;
  for (size_t i = 0; i < byte_offset && i < ev->data.scalar.length; i++)
    if ((s[i] & 0xC0) != 0x80) /* libyaml counts characters, not bytes */
      m.column++;
  return m;
}

/* A counter path into *path and its wildcard flags. */
static int parse_path(loader *ld, char **path, bool *inst_wild, bool *ctr_wild,
                      const yaml_event_t *ev) {
  const char *text = (const char *)ev->data.scalar.value;
  if (ev->data.scalar.length == 0)
    return fail_at(ld, ev->start_mark,
                   "expected a counter path such as "
                   "\\Processor(_Total)\\%% Processor Time, got an empty "
                   "value");
  if (strlen(text) != ev->data.scalar.length)
    return fail_at(ld, ev->start_mark,
                   "expected a counter path, got a string with a NUL byte");
  pd_path p;
  pd_error perr;
  memset(&p, 0, sizeof(p));
  memset(&perr, 0, sizeof(perr));
  pd_status st = pd_path_parse(text, &p, &perr);
  if (st == PD_E_NOMEM) {
    pd_path_clear(&p);
    return fail_nomem(ld, ev->start_mark);
  }
  if (st != PD_OK) {
    pd_path_clear(&p);
    size_t off = perr.offset > ev->data.scalar.length ? ev->data.scalar.length
                                                      : perr.offset;
    return fail_at(ld, scalar_char_mark(ev, off), "bad counter path '%s' (%s)",
                   text, perr.message[0] ? perr.message : pd_status_name(st));
  }
  *inst_wild = p.instance_has_wildcard;
  *ctr_wild = p.counter_has_wildcard;
  pd_path_clear(&p);
  *path = strdup(text);
  if (*path == NULL)
    return fail_nomem(ld, ev->start_mark);
  return 0;
}

static int set_path(loader *ld, wp_counter_entry *e, const yaml_event_t *ev) {
  return parse_path(ld, &e->path, &e->instance_has_wildcard,
                    &e->counter_has_wildcard, ev);
}

/* `path:` as a list (after its SEQUENCE_START `start`): the first path is
 * the entry's, the others its alternatives, tried in order. */
static int set_path_list(loader *ld, wp_counter_entry *e,
                         const yaml_event_t *start) {
  size_t cap = 0;
  for (;;) {
    yaml_event_t ev;
    if (next_event(ld, &ev) != 0)
      return -1;
    int rc = 0;
    if (ev.type == YAML_SEQUENCE_END_EVENT) {
      yaml_event_delete(&ev);
      if (e->path != NULL)
        return 0;
      return fail_at(ld, start->start_mark,
                     "expected at least one counter path in the 'path' list, "
                     "got an empty list");
    }
    if (ev.type != YAML_SCALAR_EVENT) {
      rc = fail_expected(ld, &ev, "a counter path in the 'path' list");
    } else if (e->path == NULL) {
      rc = set_path(ld, e, &ev);
    } else if (WP_GROW(&e->alts, &cap, e->alt_count + 1,
                       WP_COUNTERS_MAX_ENTRIES) != WP_GROW_OK) {
      rc = fail_nomem(ld, ev.start_mark);
    } else {
      wp_path_alt *a = &e->alts[e->alt_count];
      memset(a, 0, sizeof(*a));
      rc = parse_path(ld, &a->path, &a->instance_has_wildcard,
                      &a->counter_has_wildcard, &ev);
      if (rc == 0)
        e->alt_count++;
    }
    yaml_event_delete(&ev);
    if (rc != 0)
      return rc;
  }
}

/* include, exclude, total, aggregate, max_instances (card_keys.h). */
static int set_card_key(loader *ld, wp_counter_entry *e, wp_card_key key,
                        const yaml_event_t *ev) {
  char why[WP_ERROR_MESSAGE_SIZE];
  int rc = wp_card_set_key(&e->card, key, (const char *)ev->data.scalar.value,
                           ev->data.scalar.length,
                           ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE,
                           why, sizeof(why));
  if (rc == -2)
    return fail_nomem(ld, ev->start_mark);
  if (rc != 0)
    return fail_at(ld, ev->start_mark, "%s", why);
  return 0;
}

static int set_string(loader *ld, char **dst, const char *key,
                      const yaml_event_t *ev, bool allow_empty) {
  if (!allow_empty && ev->data.scalar.length == 0)
    return fail_at(ld, ev->start_mark, "expected a value for '%s', got none",
                   key);
  if (strlen((const char *)ev->data.scalar.value) != ev->data.scalar.length)
    return fail_at(ld, ev->start_mark,
                   "expected a string for '%s', got one with a NUL byte", key);
  *dst = strdup((const char *)ev->data.scalar.value);
  if (*dst == NULL)
    return fail_nomem(ld, ev->start_mark);
  return 0;
}

static int set_scale(loader *ld, wp_counter_entry *e, const yaml_event_t *ev) {
  const char *text = (const char *)ev->data.scalar.value;
  char *end = NULL;
  errno = 0;
  double v = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
                     ev->data.scalar.length > 0
                 ? strtod(text, &end)
                 : NAN;
  if (end == NULL || end == text || *end != '\0' || !isfinite(v) ||
      errno == ERANGE)
    return fail_expected(ld, ev, "a finite number for 'scale' (e.g. 0.001)");
  e->scale = v;
  return 0;
}

static int set_raw(loader *ld, wp_counter_entry *e, const yaml_event_t *ev) {
  static const char *const yes[] = {"true", "yes", "on"};
  static const char *const no[] = {"false", "no", "off"};
  const char *text = (const char *)ev->data.scalar.value;
  if (ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
    for (size_t i = 0; i < 3; i++) {
      if (strcasecmp(text, yes[i]) == 0) {
        e->raw = 1;
        return 0;
      }
      if (strcasecmp(text, no[i]) == 0) {
        e->raw = 0;
        return 0;
      }
    }
  }
  return fail_expected(ld, ev, "true or false for 'raw'");
}

/* pair_by, instance_names, metric_names: one of two words, as the
 * <Plugin>/<Host> options PairBy, InstanceNames, MetricNames spell them. */
static int set_choice(loader *ld, wp_counter_entry *e, const char *key,
                      const yaml_event_t *ev) {
  static const char *const pair_by_text[2] = {"id", "name"};
  static const struct {
    const char *key;
    const char *const *text; /* by value */
    size_t offset;
  } choices[] = {
      {"pair_by", pair_by_text, offsetof(wp_counter_entry, pair_by)},
      {"instance_names", wp_instance_names_text,
       offsetof(wp_counter_entry, instance_names)},
      {"metric_names", wp_metric_names_text,
       offsetof(wp_counter_entry, metric_names)},
  };
  for (size_t i = 0; i < sizeof choices / sizeof *choices; i++) {
    if (strcmp(key, choices[i].key) != 0)
      continue;
    const char *const *text = choices[i].text;
    const char *value = (const char *)ev->data.scalar.value;
    int v = strlen(value) == ev->data.scalar.length
                ? wp_name_choice(text, value)
                : -1;
    if (v < 0) {
      char what[96];
      snprintf(what, sizeof what, "%s or %s for '%s'", text[0], text[1], key);
      return fail_expected(ld, ev, what);
    }
    *(int *)(void *)((char *)e + choices[i].offset) = v;
    return 0;
  }
  return fail_at(ld, ev->start_mark, "unknown key '%s'", key);
}

/* A mapping entry: keys until MAPPING_END. `start` is its MAPPING_START. */
static int parse_mapping(loader *ld, const yaml_event_t *start) {
  wp_counter_entry *e = new_entry(ld, start->start_mark);
  if (e == NULL)
    return -1;
  unsigned seen = 0; /* bit per key: duplicates are errors */
  yaml_mark_t agg_mark = start->start_mark;
  for (;;) {
    yaml_event_t key;
    if (next_event(ld, &key) != 0)
      return -1;
    if (key.type == YAML_MAPPING_END_EVENT) {
      yaml_event_delete(&key);
      break;
    }
    if (key.type != YAML_SCALAR_EVENT) {
      int rc = fail_expected(ld, &key, "a key (" KEYS_EXPECTED ")");
      yaml_event_delete(&key);
      return rc;
    }
    static const char *const keys[] = {
        "path", "type", "plugin_instance", "type_instance", "scale", "raw",
        /* alternatives and cardinality: keys 6 .. 10 (card_keys.h) */
        "include", "exclude", "total", "aggregate", "max_instances",
        /* naming, keys 11 .. 13: set_choice's */
        "pair_by", "instance_names", "metric_names"};
    enum {
      N_KEYS = sizeof(keys) / sizeof(keys[0]),
      CARD_FIRST = 6,
      NAMING_FIRST = 11
    };
    const char *name = (const char *)key.data.scalar.value;
    size_t k = 0;
    while (k < N_KEYS && strcmp(name, keys[k]) != 0)
      k++;
    if (k == N_KEYS) {
      int rc = fail_at(ld, key.start_mark, "unknown key '%s' (expected %s)",
                       name, KEYS_EXPECTED);
      yaml_event_delete(&key);
      return rc;
    }
    if (seen & (1u << k)) {
      int rc = fail_at(ld, key.start_mark, "duplicate key '%s'", name);
      yaml_event_delete(&key);
      return rc;
    }
    seen |= 1u << k;
    yaml_event_delete(&key);

    yaml_event_t val;
    if (next_event(ld, &val) != 0)
      return -1;
    int rc;
    if (k == 0 && val.type == YAML_SEQUENCE_START_EVENT) {
      rc = set_path_list(ld, e, &val);
    } else if (val.type != YAML_SCALAR_EVENT) {
      char what[64];
      snprintf(what, sizeof(what), "a single value for '%s'", keys[k]);
      rc = fail_expected(ld, &val, what);
    } else {
      switch (k) {
      case 0:
        rc = set_path(ld, e, &val);
        break;
      case 1:
        rc = set_string(ld, &e->type, "type", &val, false);
        e->type_line = (unsigned)val.start_mark.line + 1;
        e->type_column = (unsigned)val.start_mark.column + 1;
        break;
      case 2:
        rc = set_string(ld, &e->plugin_instance, "plugin_instance", &val, true);
        break;
      case 3:
        rc = set_string(ld, &e->type_instance, "type_instance", &val, true);
        break;
      case 4:
        rc = set_scale(ld, e, &val);
        break;
      case 5:
        rc = set_raw(ld, e, &val);
        break;
      default:
        if (k >= NAMING_FIRST) {
          rc = set_choice(ld, e, keys[k], &val);
          break;
        }
        rc = set_card_key(ld, e, (wp_card_key)(k - CARD_FIRST), &val);
        if (k - CARD_FIRST == WP_CARD_KEY_AGGREGATE)
          agg_mark = val.start_mark;
        break;
      }
    }
    yaml_event_delete(&val);
    if (rc != 0)
      return rc;
  }
  if (e->path == NULL)
    return fail_at(ld, start->start_mark,
                   "expected a 'path' key in this entry (a counter path such "
                   "as \\Memory\\Available Bytes)");
  if (e->card.aggregate != WP_AGG_NONE && e->raw == 1)
    return fail_at(ld, agg_mark,
                   "expected either 'aggregate' or 'raw: true', got both (an "
                   "aggregate combines computed values)");
  return 0;
}

/* The top-level list: entries until SEQUENCE_END. */
static int parse_list(loader *ld) {
  for (;;) {
    yaml_event_t ev;
    if (next_event(ld, &ev) != 0)
      return -1;
    int rc = 0;
    switch (ev.type) {
    case YAML_SEQUENCE_END_EVENT:
      yaml_event_delete(&ev);
      return 0;
    case YAML_SCALAR_EVENT: {
      wp_counter_entry *e = new_entry(ld, ev.start_mark);
      rc = e ? set_path(ld, e, &ev) : -1;
      break;
    }
    case YAML_MAPPING_START_EVENT:
      rc = parse_mapping(ld, &ev);
      break;
    default:
      rc = fail_expected(ld, &ev,
                         "a counter path or a mapping with 'path' as a list "
                         "entry");
      break;
    }
    yaml_event_delete(&ev);
    if (rc != 0)
      return rc;
  }
}

static int parse_stream(loader *ld) {
  yaml_event_t ev;
  if (next_event(ld, &ev) != 0) /* STREAM_START */
    return -1;
  yaml_event_delete(&ev);
  if (next_event(ld, &ev) != 0)
    return -1;
  if (ev.type != YAML_DOCUMENT_START_EVENT) {
    int rc = fail_at(ld, ev.start_mark,
                     "expected a list of counter paths, got an empty file");
    yaml_event_delete(&ev);
    return rc;
  }
  yaml_event_delete(&ev);
  if (next_event(ld, &ev) != 0)
    return -1;
  if (ev.type != YAML_SEQUENCE_START_EVENT) {
    int rc = ev.type == YAML_SCALAR_EVENT && ev.data.scalar.length == 0 &&
                     ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE
                 ? fail_at(ld, ev.start_mark,
                           "expected a list of counter paths, got an empty "
                           "document")
                 : fail_expected(ld, &ev,
                                 "a list of counter paths (\"- \\Object\\"
                                 "Counter\" lines) at the top level");
    yaml_event_delete(&ev);
    return rc;
  }
  yaml_mark_t list_mark = ev.start_mark;
  yaml_event_delete(&ev);
  if (parse_list(ld) != 0)
    return -1;
  if (ld->list.count == 0)
    return fail_at(ld, list_mark,
                   "expected at least one counter path, got an empty list");
  if (next_event(ld, &ev) != 0) /* DOCUMENT_END */
    return -1;
  yaml_event_delete(&ev);
  if (next_event(ld, &ev) != 0)
    return -1;
  if (ev.type != YAML_STREAM_END_EVENT) {
    int rc = fail_at(ld, ev.start_mark,
                     "expected the end of the file, got a second document");
    yaml_event_delete(&ev);
    return rc;
  }
  yaml_event_delete(&ev);
  return 0;
}

static void free_entries(wp_counter_list *list) {
  for (size_t i = 0; i < list->count; i++) {
    wp_counter_entry *e = &list->entries[i];
    free(e->path);
    free(e->type);
    free(e->plugin_instance);
    free(e->type_instance);
    for (size_t a = 0; a < e->alt_count; a++)
      free(e->alts[a].path);
    free(e->alts);
    wp_card_config_clear(&e->card);
  }
  free(list->entries);
  list->entries = NULL;
  list->count = 0;
}

void wp_counters_free(wp_counter_list *list) {
  if (list != NULL)
    free_entries(list);
}

static int run(loader *ld, wp_counter_list *out) {
  int rc = parse_stream(ld);
  yaml_parser_delete(&ld->parser);
  if (rc != 0) {
    free_entries(&ld->list);
    return -1;
  }
  *out = ld->list;
  return 0;
}

int wp_counters_parse(const char *filename, const char *text, size_t len,
                      wp_counter_list *out, wp_error *err) {
  loader ld;
  memset(&ld, 0, sizeof(ld));
  ld.file = filename;
  ld.err = err;
  out->entries = NULL;
  out->count = 0;
  if (!yaml_parser_initialize(&ld.parser)) {
    /* libyaml's only failure here is an allocation */
    return wp_error_set_code(err, WP_E_NOMEM, "%s: out of memory", filename);
  }
  yaml_parser_set_input_string(&ld.parser, (const unsigned char *)text, len);
  return run(&ld, out);
}

int wp_counters_load(const char *filename, wp_counter_list *out,
                     wp_error *err) {
  out->entries = NULL;
  out->count = 0;
  FILE *f = fopen(filename, "rb");
  if (f == NULL) {
    return wp_error_errno(err, errno, "%s: cannot open", filename);
  }
  loader ld;
  memset(&ld, 0, sizeof(ld));
  ld.file = filename;
  ld.err = err;
  if (!yaml_parser_initialize(&ld.parser)) {
    fclose(f);
    /* libyaml's only failure here is an allocation */
    return wp_error_set_code(err, WP_E_NOMEM, "%s: out of memory", filename);
  }
  yaml_parser_set_input_file(&ld.parser, f);
  int rc = run(&ld, out);
  fclose(f);
  return rc;
}
