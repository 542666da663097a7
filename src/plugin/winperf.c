/* collectd-winperf: the collectd plugin's entry points.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * config parses each <Plugin winperf> block into contexts and fleets
 * (options.h); init starts each local or replay context (context.h) and
 * registers it as a read callback of its own, with the context as
 * user_data and wp_ctx_free as free_func, so every block has its own
 * interval and its own failures, and starts each fleet, which registers
 * its remote hosts the same way (fleet.h); read runs one interval of the
 * context collectd hands back (read.h).
 *
 * The only file-scope variables are the lists of contexts and fleets
 * configured but not yet started: collectd calls config before init, with
 * no user pointer.
 */
#include "context.h"
#include "open_source.h"
#include "fleet.h"
#include "options.h"
#include "read.h"

#include "collectd/core/utils/common/common.h"

static wp_ctx *pending;  /* configured, not yet registered (init does) */
static wp_fleet *fleets; /* the blocks' remote hosts, likewise */

static int wp_config(oconfig_item_t *ci) {
  return wp_options_parse(ci, &pending, &fleets);
}

static int wp_read(user_data_t *ud) {
  wp_ctx *c = ud->data;
  return c == NULL ? 0 : wp_read_interval(c);
}

/* The read callback's name: "winperf", "winperf-2", ... for the local and
 * replay blocks in configuration order ("winperf-host-NAME" for a remote
 * host: fleet.c). */
static void read_name(wp_ctx *c, int locals) {
  if (locals == 0)
    sstrncpy(c->read_name, PLUGIN, sizeof(c->read_name));
  else
    snprintf(c->read_name, sizeof(c->read_name), PLUGIN "-%d", locals + 1);
}

static int wp_init(void) {
  int status = 0;
  int locals = 0;
  while (pending != NULL) {
    wp_ctx *c = pending;
    pending = c->next_pending;
    c->next_pending = NULL;
    if (wp_ctx_start(c) != 0) {
      wp_ctx_free(c);
      status = -1;
      continue;
    }
    read_name(c, locals);
    user_data_t ud = {.data = c, .free_func = wp_ctx_free};
    if (plugin_register_complex_read(NULL, c->read_name, wp_read, c->interval,
                                     &ud) != 0) {
      ERROR(PLUGIN ": cannot register the read callback %s", c->read_name);
      wp_ctx_free(c);
      status = -1;
      continue;
    }
    locals++;
  }
  /* The remote hosts: each block's fleet registers them in turn. */
  for (int index = 0; fleets != NULL; index++) {
    wp_fleet *f = fleets;
    wp_fleet_unlink(&fleets, f);
    if (wp_fleet_start(f, index, wp_read) != 0)
      status = -1;
  }
  return status;
}

static int wp_shutdown(void) {
  /* Contexts that never reached init (collectd stopped early). Registered
   * ones are freed by collectd through free_func. */
  while (pending != NULL) {
    wp_ctx *c = pending;
    pending = c->next_pending;
    wp_ctx_free(c);
  }
  while (fleets != NULL) {
    wp_fleet *f = fleets;
    wp_fleet_unlink(&fleets, f);
    wp_fleet_unref(f);
  }
  return 0;
}

void module_register(void);
void module_register(void) {
  plugin_register_complex_config(PLUGIN, wp_config);
  plugin_register_init(PLUGIN, wp_init);
  plugin_register_shutdown(PLUGIN, wp_shutdown);
}
