/* collectd-winperf: what each context tells about itself (self_metrics.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "self_metrics.h"
#include "counters.h"
#include "host.h"
#include "naming.h"

#include "collectd/core/utils/common/common.h"

void wp_self_begin(wp_ctx *c) {
  uint64_t errors = c->self.errors;
  memset(&c->self, 0, sizeof(c->self));
  c->self.errors = errors;
}

cdtime_t wp_self_since(cdtime_t start) {
  cdtime_t now = cdtime();
  return now > start ? now - start : 0;
}

void wp_self_collected(wp_ctx *c, cdtime_t took, size_t bytes) {
  c->self.collected = true;
  c->self.query = took;
  c->self.blob_bytes = bytes;
}

void wp_self_evaluated(wp_ctx *c, cdtime_t took, int n) {
  const pd_snapshot *snap = c->snap[n];
  uint32_t objects = pd_snapshot_object_count(snap);
  uint64_t instances = 0;
  for (uint32_t i = 0; i < objects; i++) {
    const pd_object *o = pd_snapshot_object(snap, i);
    if (o->num_instances >= 0) /* -1: single-instance; -2, -3: none */
      instances += o->instance_count;
  }
  c->self.evaluated = true;
  c->self.decode = took;
  c->self.objects = objects;
  c->self.instances = instances;
}

void wp_self_error(wp_ctx *c) {
  c->self.errors++;
}

/* One value as winperf/self/TYPE-TYPE_INSTANCE of the context's host. */
static void put(const wp_ctx *c, const char *type, const char *type_instance,
                value_t v) {
  value_list_t vl = VALUE_LIST_INIT;
  vl.values = &v;
  vl.values_len = 1;
  wp_name_sanitize(vl.host, sizeof(vl.host), c->host ? c->host : hostname_g);
  sstrncpy(vl.plugin, PLUGIN, sizeof(vl.plugin));
  sstrncpy(vl.plugin_instance, "self", sizeof(vl.plugin_instance));
  sstrncpy(vl.type, type, sizeof(vl.type));
  sstrncpy(vl.type_instance, type_instance, sizeof(vl.type_instance));
  plugin_dispatch_values(&vl);
}

static void put_gauge(const wp_ctx *c, const char *type,
                      const char *type_instance, double x) {
  put(c, type, type_instance, (value_t){.gauge = x});
}

void wp_self_dispatch(const wp_ctx *c) {
  if (!c->opt.self_metrics)
    return;
  const wp_self *s = &c->self;
  if (s->collected) {
    put_gauge(c, "duration", "query", CDTIME_T_TO_DOUBLE(s->query));
    put_gauge(c, "bytes", "blob", (double)s->blob_bytes);
  }
  if (s->evaluated) {
    put_gauge(c, "duration", "decode", CDTIME_T_TO_DOUBLE(s->decode));
    put_gauge(c, "count", "objects", (double)s->objects);
    put_gauge(c, "count", "instances", (double)s->instances);
    put_gauge(c, "count", "values", (double)s->values);
    put_gauge(c, "count", "unmatched_paths", (double)wp_counters_unmatched(c));
  }
  /* A gauge: write_graphite (StoreRates, its default) would store a derive
   * as its rate, 0 in every slot once the count stops rising. */
  put_gauge(c, "count", "errors", (double)s->errors);
  if (c->kind != WP_SOURCE_REMOTE)
    return;
  put_gauge(c, "duration", "backoff", CDTIME_T_TO_DOUBLE(wp_host_wait_left(c)));
  if (c->cred != NULL)
    put_gauge(c, "count", "auth_paused", c->auth_paused ? 1 : 0);
  if (c->has_skew)
    put_gauge(c, "gauge", "clock_skew", c->clock_skew);
}
