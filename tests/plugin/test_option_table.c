/* collectd-winperf: the options' table (src/plugin/option_table.h) against
 * collectd-winperf(5), section by section, and against the host settings'
 * parser (src/config/host_settings.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The page's entries are its ".TP" tags: ".BI Port \" port\"" names one
 * option and what it takes, ".BR Auth \", \" Principal ..." several.
 *   OPTIONS                  every tag is a <Plugin winperf> option, and
 *                            every such option (not an alias) is a tag;
 *   REMOTE HOSTS, KERBEROS   every tag is a <Host> option, and every <Host>
 *                            option is a tag of REMOTE HOSTS;
 *   HOST INVENTORY           "The keys are exactly ..." lists exactly the
 *                            table's keys.
 * An option's first entry that names it alone shows what it takes (the
 * table's value) and its default near the word "default" ("required":
 * the word Required); an alias is named in a section where its option is;
 * a key without an option has its default in HOST INVENTORY.
 */
#include "host_settings.h"
#include "option_table.h"
#include "tap.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <strings.h>

#define MAX_ENTRIES 200
#define MAX_NAMES 16

typedef struct entry {
  int section;            /* S_* */
  char *names[MAX_NAMES]; /* the options the tag names */
  int n_names;
  char *value; /* what a one-option tag shows it takes */
  char *body;  /* the entry's text, roff removed */
} entry;

enum { S_OTHER, S_OPTIONS, S_REMOTE, S_KERBEROS, S_INVENTORY, S_COUNT };
static const char *const section_names[S_COUNT] = {
    "", "OPTIONS", "REMOTE HOSTS", "KERBEROS", "HOST INVENTORY"};

static entry entries[MAX_ENTRIES];
static int n_entries;
static char *section_text[S_COUNT]; /* each section's whole text */
static char *inventory_keys;        /* ", name, address, ..., " */

/* s with text appended (s may be NULL). */
static char *append(char *s, const char *text) {
  size_t a = s ? strlen(s) : 0, b = strlen(text);
  char *r = realloc(s, a + b + 1);
  if (r == NULL)
    abort();
  memcpy(r + a, text, b + 1);
  return r;
}

/* roff's escapes as text: \(dq \e \- \fX "\ ". */
static void unescape(const char *in, char *out) {
  while (*in != '\0') {
    if (in[0] == '\\' && in[1] == '(' && in[2] && in[3]) {
      *out++ = strncmp(in + 2, "dq", 2) == 0 ? '"' : '?';
      in += 4;
    } else if (in[0] == '\\' && in[1] == 'f' && in[2]) {
      in += 3;
    } else if (in[0] == '\\' && in[1] == 'e') {
      *out++ = '\\';
      in += 2;
    } else if (in[0] == '\\' && in[1] != '\0') {
      *out++ = in[1]; /* \- \  \& ... */
      in += 2;
    } else {
      *out++ = *in++;
    }
  }
  *out = '\0';
}

/* A font macro's arguments (".BR a \", \" b") joined, as roff prints them;
 * first: the first argument alone. */
static void macro_text(const char *line, char *out, char *first) {
  const char *p = strchr(line, ' ');
  char raw[1024] = "";
  size_t n = 0;
  if (first)
    first[0] = '\0';
  for (int arg = 0; p != NULL && *p != '\0'; arg++) {
    while (*p == ' ')
      p++;
    if (*p == '\0')
      break;
    const char *start = p, *end;
    if (*p == '"') {
      start = ++p;
      end = strchr(p, '"');
      if (end == NULL)
        end = p + strlen(p);
      p = *end ? end + 1 : end;
    } else {
      end = strchr(p, ' ');
      if (end == NULL)
        end = p + strlen(p);
      p = end;
    }
    size_t len = (size_t)(end - start);
    if (n + len + 1 >= sizeof(raw))
      break;
    memcpy(raw + n, start, len);
    n += len;
    raw[n] = '\0';
    if (arg == 0 && first) {
      memcpy(first, start, len);
      first[len] = '\0';
    }
  }
  unescape(raw, out);
  if (first)
    unescape(first, first);
}

static bool font_macro(const char *line) {
  static const char *const m[] = {".B ",  ".I ",  ".BI ", ".BR ",
                                  ".IB ", ".IR ", ".RB ", ".RI "};
  for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
    if (strncmp(line, m[i], strlen(m[i])) == 0)
      return true;
  return false;
}

/* A line's text: a font macro's, plain text unescaped, other requests
 * nothing. */
static void line_text(const char *line, char *out) {
  out[0] = '\0';
  if (font_macro(line))
    macro_text(line, out, NULL);
  else if (line[0] != '.' && line[0] != '\'')
    unescape(line, out);
}

/* A tag's text into the entry: "A, B, C" several names, "Name value" one
 * name and what it takes. */
static void parse_tag(entry *e, const char *text) {
  char buf[4096];
  snprintf(buf, sizeof(buf), "%s", text);
  if (strstr(buf, ", ") != NULL) {
    for (char *t = strtok(buf, ", "); t && e->n_names < MAX_NAMES;
         t = strtok(NULL, ", "))
      e->names[e->n_names++] = strdup(t);
    return;
  }
  char *space = strchr(buf, ' ');
  if (space != NULL) {
    *space = '\0';
    e->value = strdup(space + 1);
  }
  e->names[e->n_names++] = strdup(buf);
}

static int section_of(const char *line) {
  for (int s = 1; s < S_COUNT; s++) {
    char want[64];
    snprintf(want, sizeof(want), ".SH %s", section_names[s]);
    if (strcmp(line, want) == 0)
      return s;
  }
  return S_OTHER;
}

static bool ends_entry(const char *line) {
  return strncmp(line, ".TP", 3) == 0 || strncmp(line, ".PP", 3) == 0 ||
         strncmp(line, ".SH", 3) == 0 || strncmp(line, ".SS", 3) == 0 ||
         strncmp(line, ".RS", 3) == 0;
}

/* The page's lines, continuations ("\" at the end) joined. */
static int read_page(const char *path, char ***out) {
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return -1;
  char **lines = NULL, buf[4096], *pending = NULL;
  int n = 0;
  while (fgets(buf, sizeof(buf), f) != NULL) {
    buf[strcspn(buf, "\n")] = '\0';
    size_t len = strlen(buf);
    bool cont =
        len > 0 && buf[len - 1] == '\\' && (len < 2 || buf[len - 2] != '\\');
    if (cont)
      buf[len - 1] = '\0';
    pending = append(pending, buf);
    if (cont)
      continue;
    lines = realloc(lines, sizeof(*lines) * (size_t)(n + 1));
    if (lines == NULL)
      abort();
    lines[n++] = pending;
    pending = NULL;
  }
  fclose(f);
  *out = lines;
  return n;
}

/* The entries, each section's text and the inventory's key list. */
static void scan(char **lines, int n) {
  int section = S_OTHER, depth = 0; /* .RS nesting: not option entries */
  bool in_keys = false;
  char text[4096], first[1024];
  for (int i = 0; i < n; i++) {
    const char *l = lines[i];
    if (strncmp(l, ".SH", 3) == 0) {
      section = section_of(l);
      depth = 0;
    }
    if (strncmp(l, ".RS", 3) == 0)
      depth++;
    if (strncmp(l, ".RE", 3) == 0 && depth > 0)
      depth--;
    line_text(l, text);
    if (section != S_OTHER) {
      section_text[section] = append(section_text[section], " ");
      section_text[section] = append(section_text[section], text);
    }
    if (section == S_INVENTORY && strstr(l, "The keys are exactly")) {
      in_keys = true;
      inventory_keys = append(inventory_keys, ", ");
    }
    if (in_keys && strstr(l, "with the values of the options"))
      in_keys = false;
    if (in_keys && (strncmp(l, ".B ", 3) == 0 || strncmp(l, ".BR ", 4) == 0)) {
      macro_text(l, text, first);
      inventory_keys = append(append(inventory_keys, first), ", ");
    }
    if (section == S_OTHER || section == S_INVENTORY || depth > 0 ||
        strncmp(l, ".TP", 3) != 0 || i + 1 >= n || n_entries == MAX_ENTRIES)
      continue;
    entry *e = &entries[n_entries++];
    e->section = section;
    line_text(lines[++i], text);
    parse_tag(e, text);
    e->body = strdup(" ");
    while (i + 1 < n && !ends_entry(lines[i + 1])) {
      line_text(lines[++i], text);
      e->body = append(append(e->body, text), " ");
    }
  }
}

static bool tag_names(const entry *e, const char *name) {
  for (int k = 0; k < e->n_names; k++)
    if (strcmp(e->names[k], name) == 0)
      return true;
  return false;
}

static bool section_tags(int section, const char *name) {
  for (int i = 0; i < n_entries; i++)
    if (entries[i].section == section && tag_names(&entries[i], name))
      return true;
  return false;
}

/* The first entry that names `name` alone. */
static const entry *home_of(const char *name) {
  for (int i = 0; i < n_entries; i++)
    if (entries[i].n_names == 1 && strcmp(entries[i].names[0], name) == 0)
      return &entries[i];
  return NULL;
}

static char *lower_squeezed(const char *s) {
  char *r = malloc(strlen(s) + 1), *o = r;
  if (r == NULL)
    abort();
  for (; *s; s++) {
    if (isspace((unsigned char)*s) && o > r && o[-1] == ' ')
      continue;
    *o++ = isspace((unsigned char)*s) ? ' ' : (char)tolower((unsigned char)*s);
  }
  *o = '\0';
  return r;
}

/* def within 60 characters of the word "default" in text (or, for
 * "required", the word required). */
static bool default_said(const char *text, const char *def) {
  char *t = lower_squeezed(text), *d = lower_squeezed(def);
  bool found = false;
  if (strcmp(d, "required") == 0) {
    found = strstr(t, "required") != NULL;
  } else {
    for (char *p = strstr(t, d); p && !found; p = strstr(p + 1, d)) {
      size_t from = (size_t)(p - t) > 60 ? (size_t)(p - t) - 60 : 0;
      size_t to = (size_t)(p - t) + strlen(d) + 60;
      for (char *w = strstr(t + from, "default"); w && !found;
           w = strstr(w + 1, "default"))
        found = (size_t)(w - t) <= to;
    }
  }
  free(t);
  free(d);
  return found;
}

static void check_sections(void) {
  /* Nothing documented that the code lacks. */
  for (int i = 0; i < n_entries; i++) {
    const entry *e = &entries[i];
    unsigned want = e->section == S_OPTIONS ? WP_OPT_PLUGIN : WP_OPT_HOST;
    for (int k = 0; k < e->n_names; k++) {
      const wp_option *o = wp_option_find(e->names[k]);
      OK(o != NULL && strcmp(o->name, e->names[k]) == 0 && (o->where & want),
         "%s: %s is a %s option of the table", section_names[e->section],
         e->names[k], want == WP_OPT_PLUGIN ? "<Plugin winperf>" : "<Host>");
    }
  }
  /* Every option and key documented, where it may be given. */
  for (size_t i = 0; i < wp_option_table_count; i++) {
    const wp_option *o = &wp_option_table[i];
    if (o->name != NULL && o->alias_of != NULL) {
      bool named = false;
      for (int s = S_OPTIONS; s <= S_KERBEROS; s++)
        named = named || (section_tags(s, o->alias_of) &&
                          strstr(section_text[s], o->name));
      OK(named, "%s (another name of %s) is named beside it", o->name,
         o->alias_of);
      continue;
    }
    if (o->where & WP_OPT_PLUGIN)
      OK(section_tags(S_OPTIONS, o->name), "OPTIONS has %s", o->name);
    if (o->where & WP_OPT_HOST)
      OK(section_tags(S_REMOTE, o->name), "REMOTE HOSTS has %s", o->name);
  }
}

static void check_entries(void) {
  for (size_t i = 0; i < wp_option_table_count; i++) {
    const wp_option *o = &wp_option_table[i];
    if (o->alias_of != NULL)
      continue;
    if (o->name == NULL) { /* a key only: in HOST INVENTORY */
      OK(o->def == NULL || default_said(section_text[S_INVENTORY], o->def),
         "HOST INVENTORY: key %s, default %s", o->key,
         o->def ? o->def : "none");
      continue;
    }
    const entry *e = home_of(o->name);
    if (!OK(e != NULL, "%s has an entry of its own", o->name))
      continue;
    OK(e->value == NULL || strcmp(e->value, o->value) == 0, "%s: %s takes %s",
       section_names[e->section], o->name, o->value);
    if (e->value != NULL && strcmp(e->value, o->value) != 0)
      tap_diag("  the page: %s", e->value);
    OK(o->def == NULL || default_said(e->body, o->def), "%s: %s, default %s",
       section_names[e->section], o->name, o->def ? o->def : "none");
  }
}

static void check_inventory(void) {
  char want[128];
  for (size_t i = 0; i < wp_option_table_count; i++) {
    if (wp_option_table[i].key == NULL)
      continue;
    snprintf(want, sizeof(want), ", %s, ", wp_option_table[i].key);
    OK(inventory_keys && strstr(inventory_keys, want) != NULL,
       "HOST INVENTORY lists key %s", wp_option_table[i].key);
    OK(strstr(wp_hs_keys_expected(), wp_option_table[i].key) != NULL,
       "the inventory loader's message names key %s", wp_option_table[i].key);
  }
  char *copy = strdup(inventory_keys ? inventory_keys : "");
  for (char *t = strtok(copy, ", "); t; t = strtok(NULL, ", ")) {
    bool known = false;
    for (size_t i = 0; i < wp_option_table_count; i++)
      known = known || (wp_option_table[i].key &&
                        strcmp(wp_option_table[i].key, t) == 0);
    OK(known, "HOST INVENTORY's key %s is in the table", t);
  }
  free(copy);
}

/* The table's <Host> options and keys are the host settings' rows, and
 * the other way round. */
static void check_host_settings(void) {
  for (size_t i = 0; i < wp_option_table_count; i++) {
    const wp_option *o = &wp_option_table[i];
    if (o->name != NULL && (o->where & WP_OPT_HOST)) {
      int row = wp_hs_find_option(o->name);
      OK(row >= 0 && strcmp(wp_hs_key_name(row), o->key) == 0,
         "host settings parse %s as key %s", o->name, o->key);
    } else if (o->key != NULL && strcmp(o->key, "name") != 0) {
      OK(wp_hs_find_key(o->key) >= 0, "host settings parse key %s", o->key);
    }
  }
  for (int row = 0; row < wp_hs_row_count(); row++) {
    const char *key = wp_hs_key_name(row), *name = wp_hs_option_name(row);
    bool has_option = strcmp(name, key) != 0; /* else a key only */
    bool found = false;
    for (size_t i = 0; i < wp_option_table_count && !found; i++) {
      const wp_option *o = &wp_option_table[i];
      found = o->key != NULL && strcmp(o->key, key) == 0 &&
              (has_option ? o->name && strcmp(o->name, name) == 0
                          : o->name == NULL);
    }
    OK(found, "host settings' %s (key %s) is in the table", name, key);
  }
}

/* Everything read, freed (the sanitizer build checks for leaks). */
static void free_page(char **lines, int n) {
  for (int i = 0; i < n; i++)
    free(lines[i]);
  free(lines);
  for (int i = 0; i < n_entries; i++) {
    for (int k = 0; k < entries[i].n_names; k++)
      free(entries[i].names[k]);
    free(entries[i].value);
    free(entries[i].body);
  }
  for (int s = 0; s < S_COUNT; s++)
    free(section_text[s]);
  free(inventory_keys);
}

int main(int argc, char **argv) {
  const char *top = getenv("top_srcdir");
  char path[4096];
  snprintf(path, sizeof(path), "%s/doc/collectd-winperf.5",
           argc > 1 ? argv[1]
           : top    ? top
                    : ".");
  char **lines = NULL;
  int n = read_page(path, &lines);
  if (!OK(n > 0, "read %s", path))
    return tap_done();
  scan(lines, n);
  OK(n_entries >= 42 && inventory_keys != NULL,
     "%d entries in OPTIONS, REMOTE HOSTS and KERBEROS; the inventory's keys",
     n_entries);
  check_sections();
  check_entries();
  check_inventory();
  check_host_settings();
  free_page(lines, n);
  return tap_done();
}
