/* collectd-winperf: V2 (PerfLib) GUIDs, identifier blocks and counter-set
 * registration info (the answers: v2_answer.c).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * format.md 5. Every size and count read is hostile: each structure is
 * bounds-checked before it is read, and the registration's counter array
 * is allocated only once its count is bounded by the bytes present.
 */
#include "perfdata_v2.h"
#include "pd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- GUIDs */

static int hexval(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

pd_status pd_guid_parse(const char *text, pd_guid *out, pd_error *err) {
  if (text == NULL || out == NULL)
    return pd_error_set(err, PD_E_ARGUMENT, 0, "no GUID given");
  const char *p = text;
  bool brace = *p == '{';
  if (brace)
    p++;
  /* 8-4-4-4-12 hex digits */
  static const int groups[5] = {8, 4, 4, 4, 12};
  uint8_t bytes[16];
  size_t nb = 0;
  for (int g = 0; g < 5; g++) {
    if (g > 0) {
      if (*p != '-')
        return pd_error_set(err, PD_E_ARGUMENT, (size_t)(p - text),
                            "GUID: expected '-' at column %zu",
                            (size_t)(p - text));
      p++;
    }
    for (int i = 0; i < groups[g]; i += 2) {
      int hi = hexval(p[0]), lo = hi < 0 ? -1 : hexval(p[1]);
      if (hi < 0 || lo < 0)
        return pd_error_set(err, PD_E_ARGUMENT, (size_t)(p - text),
                            "GUID: expected a hex digit at column %zu",
                            (size_t)(p - text));
      bytes[nb++] = (uint8_t)(hi << 4 | lo);
      p += 2;
    }
  }
  if (brace && *p++ != '}')
    return pd_error_set(err, PD_E_ARGUMENT, (size_t)(p - 1 - text),
                        "GUID: expected '}'");
  if (*p != '\0')
    return pd_error_set(err, PD_E_ARGUMENT, (size_t)(p - text),
                        "GUID: trailing characters");
  /* The text is big-endian per field; Data4 is a byte array. */
  out->data1 = wire_be32(bytes + GUID_Data1);
  out->data2 = wire_be16(bytes + GUID_Data2);
  out->data3 = wire_be16(bytes + GUID_Data3);
  memcpy(out->data4, bytes + GUID_Data4, 8);
  return PD_OK;
}

void pd_guid_format(const pd_guid *g, char out[39]) {
  snprintf(out, 39, "{%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x}",
           (unsigned)g->data1, (unsigned)g->data2, (unsigned)g->data3,
           g->data4[0], g->data4[1], g->data4[2], g->data4[3], g->data4[4],
           g->data4[5], g->data4[6], g->data4[7]);
}

/* GUIDs on the wire: Data1-3 little-endian, Data4 a byte array. */
static void guid_put(wire_out *w, size_t off, const pd_guid *g) {
  wire_st32(w, off + GUID_Data1, g->data1);
  wire_st16(w, off + GUID_Data2, g->data2);
  wire_st16(w, off + GUID_Data3, g->data3);
  assert(wire_out_has(w, off + GUID_Data4, 8));
  memcpy(w->data + off + GUID_Data4, g->data4, 8);
}

static void guid_get(const wire_bytes *b, size_t off, pd_guid *g) {
  g->data1 = wire_ld32(b, off + GUID_Data1);
  g->data2 = wire_ld16(b, off + GUID_Data2);
  g->data3 = wire_ld16(b, off + GUID_Data3);
  assert(wire_has(b, off + GUID_Data4, 8));
  memcpy(g->data4, b->data + off + GUID_Data4, 8);
}

/* ------------------------------------------------------ identifiers */

/* Strict UTF-8 -> UTF-16LE. Returns the number of code units, or -1 for
 * invalid input; writes only units that fit in `cap_units`. */
static long utf8_to_utf16le(const char *s, uint8_t *out, size_t cap_units) {
  const uint8_t *p = (const uint8_t *)s;
  size_t n = 0;
  while (*p) {
    uint32_t cp;
    size_t len;
    if (p[0] < 0x80) {
      cp = p[0];
      len = 1;
    } else if ((p[0] & 0xE0) == 0xC0) {
      cp = p[0] & 0x1Fu;
      len = 2;
    } else if ((p[0] & 0xF0) == 0xE0) {
      cp = p[0] & 0x0Fu;
      len = 3;
    } else if ((p[0] & 0xF8) == 0xF0) {
      cp = p[0] & 0x07u;
      len = 4;
    } else {
      return -1;
    }
    for (size_t i = 1; i < len; i++) {
      if ((p[i] & 0xC0) != 0x80)
        return -1;
      cp = cp << 6 | (p[i] & 0x3Fu);
    }
    static const uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return -1;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      if (n + 2 <= cap_units) {
        wire_put_le16(out + 2 * n, (uint16_t)(0xD800 | cp >> 10));
        wire_put_le16(out + 2 * n + 2, (uint16_t)(0xDC00 | (cp & 0x3FF)));
      }
      n += 2;
    } else {
      if (n + 1 <= cap_units)
        wire_put_le16(out + 2 * n, (uint16_t)cp);
      n++;
    }
    p += len;
  }
  return (long)n;
}

size_t pd_v2_identifier_encode(const pd_guid *set, uint32_t counter_id,
                               const char *instance, uint32_t instance_id,
                               uint8_t *out, size_t cap) {
  size_t size = PERF_COUNTER_IDENTIFIER_SIZE;
  long units = 0;
  if (instance != NULL) {
    units = utf8_to_utf16le(instance, NULL, 0);
    if (units < 0)
      return 0;
    size += 2 * ((size_t)units + 1); /* with the NUL */
  }
  size = (size + 7) & ~(size_t)7; /* format.md 5: Size a multiple of 8 */
  if (size > UINT32_MAX)
    return 0;
  if (out == NULL || cap < size)
    return size;
  memset(out, 0, size);
  wire_out w = wire_out_le(out, size);
  guid_put(&w, PERF_COUNTER_IDENTIFIER_CounterSetGuid, set);
  /* Status: written by PerfAddCounters */
  wire_st32(&w, PERF_COUNTER_IDENTIFIER_Status, 0);
  wire_st32(&w, PERF_COUNTER_IDENTIFIER_Size, (uint32_t)size);
  wire_st32(&w, PERF_COUNTER_IDENTIFIER_CounterId, counter_id);
  wire_st32(&w, PERF_COUNTER_IDENTIFIER_InstanceId, instance_id);
  /* Index: written by PerfQueryCounterInfo */
  wire_st32(&w, PERF_COUNTER_IDENTIFIER_Index, 0);
  wire_st32(&w, PERF_COUNTER_IDENTIFIER_Reserved, 0);
  if (instance != NULL)
    utf8_to_utf16le(instance, out + PERF_COUNTER_IDENTIFIER_SIZE,
                    (size_t)units);
  return size;
}

bool pd_v2_identifier_set_index(uint8_t *block, size_t len, uint32_t index) {
  wire_out w = wire_out_le(block, len);
  if (!wire_out_has(&w, PERF_COUNTER_IDENTIFIER_Index, 4))
    return false;
  wire_st32(&w, PERF_COUNTER_IDENTIFIER_Index, index);
  return true;
}

pd_status pd_v2_identifier_decode(const uint8_t *data, size_t len,
                                  size_t offset, pd_v2_identifier *out,
                                  size_t *next, pd_error *err) {
  wire_bytes b = wire_le(data, len);
  wire_sized id;
  wire_check idc = wire_sized_at(&b, offset, len, PERF_COUNTER_IDENTIFIER_SIZE,
                                 PERF_COUNTER_IDENTIFIER_Size, &id);
  if (idc == WIRE_SHORT)
    return pd_error_set(err, PD_E_TRUNCATED, offset,
                        "offset 0x%zx: PERF_COUNTER_IDENTIFIER runs past the "
                        "end (%zu bytes)",
                        offset, len);
  memset(out, 0, sizeof *out);
  guid_get(&b, offset + PERF_COUNTER_IDENTIFIER_CounterSetGuid, &out->set);
  out->status = wire_ld32(&b, offset + PERF_COUNTER_IDENTIFIER_Status);
  out->size = id.length;
  out->counter_id = wire_ld32(&b, offset + PERF_COUNTER_IDENTIFIER_CounterId);
  out->instance_id = wire_ld32(&b, offset + PERF_COUNTER_IDENTIFIER_InstanceId);
  out->index = wire_ld32(&b, offset + PERF_COUNTER_IDENTIFIER_Index);
  if (idc == WIRE_RANGE)
    return pd_error_range(err, PD_E_V2, &id, "identifier Size");
  size_t name_at = offset + PERF_COUNTER_IDENTIFIER_SIZE;
  size_t name_units = (out->size - PERF_COUNTER_IDENTIFIER_SIZE) / 2;
  if (name_units > 0) {
    size_t need = pd_utf16_to_utf8(data + name_at, name_units, false,
                                   out->instance, sizeof out->instance);
    if (need >= sizeof out->instance)
      return pd_error_set(err, PD_E_NAME, name_at,
                          "offset 0x%zx: instance name longer than %zu bytes",
                          name_at, sizeof out->instance - 1);
  }
  if (next)
    *next = offset + out->size;
  return PD_OK;
}

/* ------------------------------------------------ registration info */

/* One PERF_COUNTER_REG_INFO (inside the bytes checked). */
static void counter_reg_get(wire_bytes r, pd_v2_counter_info *c) {
  c->id = wire_ld32(&r, PERF_COUNTER_REG_INFO_CounterId);
  c->type = wire_ld32(&r, PERF_COUNTER_REG_INFO_Type);
  c->attrib = wire_ld64(&r, PERF_COUNTER_REG_INFO_Attrib);
  c->detail_level = wire_ld32(&r, PERF_COUNTER_REG_INFO_DetailLevel);
  c->default_scale = (int32_t)wire_ld32(&r, PERF_COUNTER_REG_INFO_DefaultScale);
  c->base_id = wire_ld32(&r, PERF_COUNTER_REG_INFO_BaseCounterId);
  c->perf_time_id = wire_ld32(&r, PERF_COUNTER_REG_INFO_PerfTimeId);
  c->perf_freq_id = wire_ld32(&r, PERF_COUNTER_REG_INFO_PerfFreqId);
  c->multi_id = wire_ld32(&r, PERF_COUNTER_REG_INFO_MultiId);
  c->aggregate = wire_ld32(&r, PERF_COUNTER_REG_INFO_AggregateFunc);
}

pd_status pd_v2_counterset_parse(const uint8_t *data, size_t len,
                                 pd_v2_counterset **out, pd_error *err) {
  wire_bytes b = wire_le(data, len);
  *out = NULL;
  if (!wire_has(&b, 0, PERF_COUNTERSET_REG_INFO_SIZE))
    return pd_error_set(err, PD_E_TRUNCATED, 0,
                        "offset 0x0: PERF_COUNTERSET_REG_INFO needs 32 bytes, "
                        "have %zu",
                        len);
  uint32_t n = wire_ld32(&b, PERF_COUNTERSET_REG_INFO_NumCounters);
  /* bound the count by the bytes present before allocating */
  if ((len - PERF_COUNTERSET_REG_INFO_SIZE) / PERF_COUNTER_REG_INFO_SIZE < n)
    return pd_error_set(
        err, PD_E_TRUNCATED, PERF_COUNTERSET_REG_INFO_NumCounters,
        "offset 0x18: NumCounters %u needs %zu bytes, have %zu", n,
        (size_t)PERF_COUNTERSET_REG_INFO_SIZE +
            (size_t)n * PERF_COUNTER_REG_INFO_SIZE,
        len);
  pd_v2_counterset *set = calloc(1, sizeof *set);
  if (set == NULL)
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  set->counters = calloc(n ? n : 1, sizeof *set->counters);
  if (set->counters == NULL) {
    free(set);
    return pd_error_set(err, PD_E_NOMEM, 0, "out of memory");
  }
  guid_get(&b, PERF_COUNTERSET_REG_INFO_CounterSetGuid, &set->guid);
  set->detail_level = wire_ld32(&b, PERF_COUNTERSET_REG_INFO_DetailLevel);
  set->counter_count = n;
  set->instance_type = wire_ld32(&b, PERF_COUNTERSET_REG_INFO_InstanceType);
  for (uint32_t i = 0; i < n; i++) {
    size_t o =
        PERF_COUNTERSET_REG_INFO_SIZE + (size_t)i * PERF_COUNTER_REG_INFO_SIZE;
    counter_reg_get(wire_view(&b, o, PERF_COUNTER_REG_INFO_SIZE),
                    &set->counters[i]);
  }
  *out = set;
  return PD_OK;
}

void pd_v2_counterset_free(pd_v2_counterset *set) {
  if (set == NULL)
    return;
  free(set->counters);
  free(set);
}

const pd_v2_counter_info *pd_v2_counterset_find(const pd_v2_counterset *set,
                                                uint32_t id) {
  if (set == NULL)
    return NULL;
  for (uint32_t i = 0; i < set->counter_count; i++)
    if (set->counters[i].id == id)
      return &set->counters[i];
  return NULL;
}
