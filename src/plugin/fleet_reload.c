/* collectd-winperf: a fleet's inventories changed: reload and apply
 * (fleet.h, fleet_hosts.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * One stat per inventory and tick. When one changed, all are loaded again
 * (the duplicate check spans them all); a file that does not load is
 * logged once and the hosts in use stay until a file changes again.
 */
#include "fleet_hosts.h"

#include "collectd/core/utils/common/common.h"

static void file_id(const char *path, wp_file_id *id) {
  if (wp_file_id_of(path, id) != 0)
    id->size = -1; /* gone: a change too */
}

static bool changed(wp_fleet *f) {
  bool any = false;
  for (size_t i = 0; i < f->n_inventories; i++) {
    wp_file_id id;
    file_id(f->inventories[i], &id);
    if (memcmp(&id, &f->inventory_ids[i], sizeof(id)) != 0) {
      any = true;
      f->inventory_ids[i] = id;
    }
  }
  return any;
}

static wp_fleet_host *find(wp_fleet_set *set, const char *name) {
  for (size_t i = 0; i < set->count; i++)
    if (strcasecmp(set->hosts[i].name, name) == 0)
      return &set->hosts[i];
  return NULL;
}

/* A host of the set in use that the new set does not keep: its read
 * callback goes (collectd frees its context at its next due time), or
 * its context, if it was not registered yet. */
static void drop(wp_fleet_host *o) {
  if (o->registered) {
    char name[DATA_MAX_NAME_LEN];
    snprintf(name, sizeof(name), PLUGIN "-host-%s", o->name);
    plugin_unregister_read(name);
  }
  o->registered = false;
}

static void apply(wp_fleet *f, wp_fleet_set *set) {
  size_t kept = 0, changed_hosts = 0, added = 0, removed = 0;
  cdtime_t now = cdtime();
  for (size_t i = 0; i < set->count; i++) {
    wp_fleet_host *h = &set->hosts[i];
    wp_fleet_host *o = find(&f->hosts, h->name);
    if (h->ctx == NULL && o != NULL) { /* unchanged: it keeps its state */
      h->registered = o->registered;
      h->due = o->due;
      h->ctx = o->ctx;
      o->ctx = NULL;
      o->registered = false;
      o->name[0] = '\0'; /* taken */
      kept++;
      continue;
    }
    h->due = now; /* added or changed: at once */
    if (o == NULL) {
      added++;
    } else {
      drop(o);
      o->name[0] = '\0';
      changed_hosts++;
    }
  }
  for (size_t i = 0; i < f->hosts.count; i++) {
    wp_fleet_host *o = &f->hosts.hosts[i];
    if (o->name[0] == '\0')
      continue;
    drop(o);
    removed++;
  }
  wp_fleet_set_free(&f->hosts); /* frees unregistered contexts only */
  f->hosts = *set;
  INFO(PLUGIN ": HostsFile reloaded: %zu hosts for this poller (%zu "
              "unchanged, %zu changed, %zu added, %zu removed)",
       set->count, kept, changed_hosts, added, removed);
}

void wp_fleet_reload_mark(wp_fleet *f) {
  (void)changed(f);
}

void wp_fleet_reload_check(wp_fleet *f) {
  if (f->n_inventories == 0 || !changed(f))
    return;
  wp_fleet_set set = {0};
  wp_error err = {0};
  if (wp_fleet_load(f, NULL, &set, &err) != 0) {
    ERROR(PLUGIN ": %s; the %zu hosts in use stay until an inventory "
                 "changes again",
          err.message, f->hosts.count);
    return;
  }
  if (wp_fleet_make_contexts(f, &set, &f->hosts) != 0) {
    ERROR(PLUGIN ": HostsFile changed but a host's context could not be "
                 "made (above); the %zu hosts in use stay until an "
                 "inventory changes again",
          f->hosts.count);
    wp_fleet_set_free(&set);
    return;
  }
  apply(f, &set);
}
