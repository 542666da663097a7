/* collectd-winperf: every option of <Plugin winperf>, its <Host> blocks and
 * its host inventories (HostsFile), in one table.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The parser (options.c) looks each option up here: an option not in the
 * table, or given where the table does not allow it, is refused with the
 * list of what the block takes. A host setting's value is then parsed by
 * src/config/host_settings.h (shared with the inventory loader and
 * `winperf hosts --check`), a plugin option's by options.c.
 * tests/plugin/test_option_table compares the table, section by section,
 * with collectd-winperf(5): every option and key is documented with its
 * default, and the page documents nothing the table lacks.
 *
 * Adding an option is one row here (and the code that stores its value).
 * No collectd header: the unit tests link it.
 */
#ifndef WP_PLUGIN_OPTION_TABLE_H
#define WP_PLUGIN_OPTION_TABLE_H

#include <stddef.h>

/* Where an option may be given (bits). */
enum {
  WP_OPT_PLUGIN = 1, /* <Plugin winperf>; a host setting there is the
                        default of the block's hosts */
  WP_OPT_HOST = 2,   /* <Host> blocks (and, by its key, an inventory) */
};

typedef struct wp_option {
  const char *name;     /* as collectd.conf spells it; NULL: a key only */
  unsigned where;       /* WP_OPT_* bits; 0: an inventory key only */
  const char *key;      /* its HostsFile key; NULL: none */
  const char *alias_of; /* another name of this option; NULL: none */
  const char *value;    /* what it takes, as the man page's entry shows it */
  const char *def;      /* its default, as the man page says it; NULL:
                           none (not set unless given) */
  const char *doc;      /* one line */
} wp_option;

/* The rows, in man page order, and how many. */
extern const wp_option wp_option_table[];
extern const size_t wp_option_table_count;

/* The row of a collectd option (case-insensitive, as collectd's own
 * options), or NULL. */
const wp_option *wp_option_find(const char *name);

/* The option names allowed at `where` (comma-separated, aliases left out)
 * into buf, for "expected ..." messages. */
const char *wp_option_names(unsigned where, char *buf, size_t len);

#endif
