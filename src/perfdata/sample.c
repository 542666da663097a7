/* collectd-winperf: raw counter values and their bases (format.md 1.3, 3).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "snapshot.h"

#include <string.h>

/* format.md 3: "Multi item count B: from a following PERF_COUNTER_MULTI_BASE
 * definition if there is one, else the DWORD right after the 8-byte value
 * (CounterOffset + 8)." Other base-using types take the next definition,
 * which must be a base type (PRECISION_TIMESTAMP is one). */
static bool read_base(const pd_snapshot *snap, const pd_object *obj,
                      const pd_instance *inst, uint32_t counter,
                      uint64_t *base) {
  const pd_counter_def *def = &obj->counters[counter];
  const pd_counter_def *next =
      counter + 1 < obj->counter_count ? &obj->counters[counter + 1] : NULL;
  if (def->type & 0x02000000u) { /* PERF_MULTI_COUNTER */
    if (next != NULL && next->type == PD_COUNTER_MULTI_BASE) {
      *base = pd_counter_raw(snap, inst, next);
      return true;
    }
    uint64_t at = (uint64_t)def->offset + PERF_MULTI_COUNTER_Count;
    if (at + 4 > inst->block_length)
      return false;
    *base = wire_ld32(&snap->bytes, inst->block_offset + (size_t)at);
    return true;
  }
  if (next == NULL || !pd_type_is_base(next->type))
    return false;
  *base = pd_counter_raw(snap, inst, next);
  return true;
}

void pd_snapshot_sample(const pd_snapshot *snap, const pd_object *obj,
                        const pd_instance *inst, uint32_t counter,
                        pd_sample *out) {
  const pd_counter_def *def = &obj->counters[counter];
  out->value = pd_counter_raw(snap, inst, def);
  out->base = 0;
  out->has_base = pd_type_needs_base(def->type) &&
                  read_base(snap, obj, inst, counter, &out->base);
  out->perf_time = snap->header.perf_time;
  out->perf_freq = snap->header.perf_freq;
  out->perf_time_100ns = snap->header.perf_time_100ns;
  out->object_time = obj->perf_time;
  out->object_freq = obj->perf_freq;
}

/* The clocks of a sample of obj; value and base are per counter. */
void pd_sample_clocks(const pd_snapshot *snap, const pd_object *obj,
                      pd_sample *s) {
  const pd_header *h = pd_snapshot_header(snap);
  memset(s, 0, sizeof *s);
  s->perf_time = h->perf_time;
  s->perf_freq = h->perf_freq;
  s->perf_time_100ns = h->perf_time_100ns;
  s->object_time = obj->perf_time;
  s->object_freq = obj->perf_freq;
}
