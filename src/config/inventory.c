/* collectd-winperf: a host inventory (inventory.h), with libyaml's
 * document API: every node keeps its line and column for the messages.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "inventory.h"
#include "wp_grow.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

typedef struct loader {
  const char *path;
  yaml_document_t doc;
  wp_inventory *inv;
  wp_error *err;
} loader;

__attribute__((format(printf, 3, 4))) static int
fail_at(loader *ld, const yaml_node_t *n, const char *fmt, ...) {
  char what[WP_ERROR_MESSAGE_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof(what), fmt, ap);
  va_end(ap);
  return wp_error_set(ld->err, "%s:%zu:%zu: %s", ld->path,
                      n->start_mark.line + 1, n->start_mark.column + 1, what);
}

static const char *scalar(const yaml_node_t *n) {
  return n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value
                                     : NULL;
}

bool wp_host_name_ok(const char *name, const char **why) {
  size_t n = strlen(name);
  if (n == 0 || n > WP_HOST_NAME_MAX) {
    *why = "a host name has 1 to 100 characters";
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)name[i];
    if (ch <= ' ' || ch == 0x7f || ch == '/' || ch == '\\' || ch == '@') {
      *why = "a host name has no space, control character, /, \\ or @";
      return false;
    }
  }
  return true;
}

/* One "key: value" of a host entry or of defaults into s. */
static int setting(loader *ld, const yaml_node_t *k, const yaml_node_t *v,
                   wp_host_settings *s) {
  const char *key = scalar(k);
  int row = key ? wp_hs_find_key(key) : -1;
  if (row < 0)
    return fail_at(ld, k, "unknown key \"%s\" (expected %s)",
                   key ? key : "(not a string)", wp_hs_keys_expected());
  if (v->type != YAML_SCALAR_NODE)
    return fail_at(ld, v, "%s: expected a single value, not a %s", key,
                   v->type == YAML_MAPPING_NODE ? "mapping" : "list");
  wp_cfg_value cv = {
      .kind = WP_CFG_TEXT,
      .text = scalar(v),
      .quoted = v->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
                v->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE,
  };
  char why[300];
  if (wp_hs_set(s, row, &cv, why, sizeof(why)) != 0)
    return fail_at(ld, v, "%s", why);
  return 0;
}

static int add_host(loader *ld, const yaml_node_t *at, const char *name,
                    wp_inventory_host **out) {
  const char *why = NULL;
  if (!wp_host_name_ok(name, &why))
    return fail_at(ld, at, "host name \"%s\": %s", name, why);
  wp_inventory *inv = ld->inv;
  for (size_t i = 0; i < inv->count; i++)
    if (strcasecmp(inv->hosts[i].name, name) == 0)
      return fail_at(ld, at,
                     "host \"%s\" is listed twice (first at line %u, column "
                     "%u); a host name appears once in all inventories and "
                     "<Host> blocks",
                     name, inv->hosts[i].line, inv->hosts[i].column);
  if (WP_GROW(&inv->hosts, &inv->cap, inv->count + 1, WP_GROW_NO_CAP) !=
      WP_GROW_OK)
    return wp_error_nomem(ld->err);
  wp_inventory_host *h = &inv->hosts[inv->count];
  memset(h, 0, sizeof(*h));
  if ((h->name = strdup(name)) == NULL)
    return wp_error_nomem(ld->err);
  h->line = (unsigned)at->start_mark.line + 1;
  h->column = (unsigned)at->start_mark.column + 1;
  inv->count++;
  *out = h;
  return 0;
}

/* A host entry of the mapping form: name first, then its settings. */
static int host_mapping(loader *ld, const yaml_node_t *entry) {
  const yaml_node_t *name = NULL;
  yaml_node_pair_t *p;
  for (p = entry->data.mapping.pairs.start; p < entry->data.mapping.pairs.top;
       p++) {
    const yaml_node_t *k = yaml_document_get_node(&ld->doc, p->key);
    const char *key = scalar(k);
    if (key != NULL && strcmp(key, "name") == 0)
      name = yaml_document_get_node(&ld->doc, p->value);
  }
  if (name == NULL || scalar(name) == NULL)
    return fail_at(ld, name ? name : entry,
                   "a host entry needs \"name\" (a string)");
  wp_inventory_host *h = NULL;
  if (add_host(ld, name, scalar(name), &h) != 0)
    return -1;
  for (p = entry->data.mapping.pairs.start; p < entry->data.mapping.pairs.top;
       p++) {
    const yaml_node_t *k = yaml_document_get_node(&ld->doc, p->key);
    const yaml_node_t *v = yaml_document_get_node(&ld->doc, p->value);
    if (scalar(k) != NULL && strcmp(scalar(k), "name") == 0)
      continue;
    if (setting(ld, k, v, &h->s) != 0)
      return -1;
  }
  return 0;
}

static int hosts_list(loader *ld, const yaml_node_t *list) {
  if (list->type == YAML_SCALAR_NODE && scalar(list)[0] == '\0')
    return 0; /* "hosts:" with nothing: no hosts */
  if (list->type != YAML_SEQUENCE_NODE)
    return fail_at(ld, list,
                   "hosts: expected a list of host names or "
                   "mappings");
  for (yaml_node_item_t *i = list->data.sequence.items.start;
       i < list->data.sequence.items.top; i++) {
    const yaml_node_t *e = yaml_document_get_node(&ld->doc, *i);
    wp_inventory_host *h = NULL;
    if (e->type == YAML_SCALAR_NODE) {
      if (add_host(ld, e, scalar(e), &h) != 0)
        return -1;
    } else if (e->type == YAML_MAPPING_NODE) {
      if (host_mapping(ld, e) != 0)
        return -1;
    } else {
      return fail_at(ld, e, "a host is a name or a mapping with \"name\"");
    }
  }
  return 0;
}

static int defaults_map(loader *ld, const yaml_node_t *m) {
  if (m->type == YAML_SCALAR_NODE && scalar(m)[0] == '\0')
    return 0;
  if (m->type != YAML_MAPPING_NODE)
    return fail_at(ld, m, "defaults: expected a mapping of settings");
  for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
       p < m->data.mapping.pairs.top; p++) {
    const yaml_node_t *k = yaml_document_get_node(&ld->doc, p->key);
    const yaml_node_t *v = yaml_document_get_node(&ld->doc, p->value);
    if (scalar(k) != NULL && strcmp(scalar(k), "name") == 0)
      return fail_at(ld, k, "defaults: \"name\" belongs to a host entry");
    if (setting(ld, k, v, &ld->inv->defaults) != 0)
      return -1;
  }
  return 0;
}

static int top(loader *ld) {
  const yaml_node_t *root = yaml_document_get_root_node(&ld->doc);
  if (root == NULL)
    return wp_error_set(ld->err, "%s: empty file (expected \"hosts:\")",
                        ld->path);
  if (root->type != YAML_MAPPING_NODE)
    return fail_at(ld, root,
                   "expected a mapping with \"hosts:\" (and "
                   "optionally \"defaults:\")");
  const yaml_node_t *hosts = NULL, *defaults = NULL;
  for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
       p < root->data.mapping.pairs.top; p++) {
    const yaml_node_t *k = yaml_document_get_node(&ld->doc, p->key);
    const yaml_node_t *v = yaml_document_get_node(&ld->doc, p->value);
    const char *key = scalar(k);
    const yaml_node_t **slot = key == NULL                    ? NULL
                               : strcmp(key, "hosts") == 0    ? &hosts
                               : strcmp(key, "defaults") == 0 ? &defaults
                                                              : NULL;
    if (slot == NULL)
      return fail_at(ld, k, "unknown key \"%s\" (expected hosts or defaults)",
                     key ? key : "(not a string)");
    if (*slot != NULL)
      return fail_at(ld, k, "\"%s\" is given twice", key);
    *slot = v;
  }
  if (hosts == NULL)
    return fail_at(ld, root, "no \"hosts:\" list");
  if (defaults != NULL && defaults_map(ld, defaults) != 0)
    return -1;
  return hosts_list(ld, hosts);
}

static int parse(loader *ld, FILE *f) {
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser))
    return wp_error_nomem(ld->err);
  yaml_parser_set_input_file(&parser, f);
  int status = 0;
  if (!yaml_parser_load(&parser, &ld->doc)) {
    yaml_mark_t m = parser.problem_mark;
    status =
        parser.error == YAML_MEMORY_ERROR
            ? wp_error_nomem(ld->err)
            : wp_error_set(ld->err, "%s:%zu:%zu: YAML syntax error: %s%s%s",
                           ld->path, m.line + 1, m.column + 1,
                           parser.problem ? parser.problem : "invalid",
                           parser.context ? " " : "",
                           parser.context ? parser.context : "");
    yaml_parser_delete(&parser);
    return status;
  }
  status = top(ld);
  yaml_document_delete(&ld->doc);
  yaml_parser_delete(&parser);
  return status;
}

int wp_inventory_load(const char *path, wp_inventory *inv, wp_error *err) {
  memset(inv, 0, sizeof(*inv));
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return wp_error_errno(err, errno, "%s", path);
  loader ld = {.path = path, .inv = inv, .err = err};
  int status = parse(&ld, f);
  fclose(f);
  if (status == 0 && (inv->path = strdup(path)) == NULL)
    status = wp_error_nomem(err);
  if (status != 0)
    wp_inventory_free(inv);
  return status;
}

void wp_inventory_free(wp_inventory *inv) {
  for (size_t i = 0; i < inv->count; i++) {
    free(inv->hosts[i].name);
    wp_hs_free(&inv->hosts[i].s);
  }
  free(inv->hosts);
  wp_hs_free(&inv->defaults);
  free(inv->path);
  memset(inv, 0, sizeof(*inv));
}

static int by_name(const void *a, const void *b) {
  const wp_host_origin *x = a, *y = b;
  return strcasecmp(x->name, y->name);
}

int wp_hosts_unique(wp_host_origin *h, size_t n, wp_error *err) {
  if (n < 2)
    return 0;
  qsort(h, n, sizeof(*h), by_name);
  for (size_t i = 1; i < n; i++)
    if (strcasecmp(h[i - 1].name, h[i].name) == 0)
      return wp_error_set(err, "host \"%s\" is given twice: %s and %s",
                          h[i].name, h[i - 1].where, h[i].where);
  return 0;
}
