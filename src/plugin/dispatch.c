/* collectd-winperf: one computed counter value to collectd (dispatch.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "dispatch.h"
#include "naming.h"

#include "collectd/core/utils/common/common.h"

#include <math.h>

/* FILETIME epoch (1601) to Unix epoch (1970) in 100 ns units. */
#define WP_EPOCH_DIFF_100NS 116444736000000000LL

/* The value in the data source's type; false when it cannot carry it. */
static bool to_value(const pd_result *r, bool raw, double scale, int ds_type,
                     value_t *v) {
  if (ds_type == DS_TYPE_GAUGE) {
    v->gauge = (raw ? (double)r->raw_value : r->value) * scale;
    return true;
  }
  if (raw && scale == 1.0) {
    /* exact: no trip through double */
    if (ds_type == DS_TYPE_DERIVE)
      v->derive = (derive_t)r->raw_value;
    else if (ds_type == DS_TYPE_COUNTER)
      v->counter = (counter_t)r->raw_value;
    else
      v->absolute = (absolute_t)r->raw_value;
    return true;
  }
  double x = (raw ? (double)r->raw_value : r->value) * scale;
  if (!isfinite(x))
    return false;
  if (ds_type == DS_TYPE_DERIVE)
    v->derive = (derive_t)llround(x);
  else if (x < 0)
    return false; /* counter/absolute cannot carry it */
  else if (ds_type == DS_TYPE_COUNTER)
    v->counter = (counter_t)llround(x);
  else
    v->absolute = (absolute_t)llround(x);
  return true;
}

/* r (its value already in the mode `raw` says) through the naming rule
 * of its path to collectd. */
static bool dispatch(const wp_ctx *c, const pd_result *r, bool raw) {
  const wp_path_ref *ref = &c->paths[r->path_id];
  const wp_counter_entry *e = &c->counters.entries[ref->entry];
  const wp_entry_rt *rt = &c->rt[ref->entry];
  /* Formatted: only a computed value. Raw: the raw reading exists whatever
   * the pair's status, except for text and unknown types. */
  bool usable = raw ? r->status != PD_VALUE_NOT_NUMERIC &&
                          r->status != PD_VALUE_UNKNOWN_TYPE
                    : r->status == PD_VALUE_OK;
  if (!usable) {
    plugin_log(LOG_DEBUG, PLUGIN ": %s: no value (%s)", r->path,
               pd_value_status_name(r->status));
    return false;
  }
  const char *type =
      e->type ? e->type : wp_name_default_type(raw, r->counter_type);
  int ds_type = rt->ds                        ? rt->ds->ds[0].type
                : strcmp(type, "derive") == 0 ? DS_TYPE_DERIVE
                                              : DS_TYPE_GAUGE;
  value_t v;
  if (!to_value(r, raw, e->scale, ds_type, &v))
    return false;

  value_list_t vl = VALUE_LIST_INIT;
  vl.values = &v;
  vl.values_len = 1;
  if (c->sample_time && r->time_100ns > WP_EPOCH_DIFF_100NS) {
    uint64_t ns = (uint64_t)(r->time_100ns - WP_EPOCH_DIFF_100NS) * 100u;
    vl.time = NS_TO_CDTIME_T(ns);
  } /* else 0: collectd stamps it now */
  wp_name_sanitize(vl.host, sizeof(vl.host), c->host ? c->host : hostname_g);
  sstrncpy(vl.plugin, PLUGIN, sizeof(vl.plugin));
  wp_name_plugin_instance(vl.plugin_instance, sizeof(vl.plugin_instance),
                          r->object, r->instance, e->plugin_instance,
                          ref->instance_has_wildcard);
  wp_name_type_instance(vl.type_instance, sizeof(vl.type_instance), r->counter,
                        e->type_instance, ref->counter_has_wildcard);
  sstrncpy(vl.type, type, sizeof(vl.type));
  return plugin_dispatch_values(&vl) == 0;
}

bool wp_dispatch_result(const wp_ctx *c, const pd_result *r) {
  if (r->path_id >= c->path_count)
    return false;
  const wp_counter_entry *e = &c->counters.entries[c->paths[r->path_id].entry];
  return dispatch(c, r, e->raw >= 0 ? e->raw == 1 : c->opt.raw_mode);
}

bool wp_dispatch_aggregate(const wp_ctx *c, const pd_result *r,
                           const char *instance, double value) {
  if (r->path_id >= c->path_count)
    return false;
  pd_result agg = *r;
  agg.instance = instance;
  agg.value = value;
  agg.status = PD_VALUE_OK;
  return dispatch(c, &agg, false);
}
