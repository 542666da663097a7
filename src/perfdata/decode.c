/* collectd-winperf: the V1 blob decoder (format.md 1).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Walks a PERF_DATA_BLOCK as format.md 1.3 describes, validating every offset,
 * length and count before it is used, and records where each object,
 * counter definition, instance and counter block sits. Values and names are
 * read from the blob later, on demand (sample.c, instance_names.c), so a
 * decode touches only the structure.
 */
#include "snapshot.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static const pd_decode_limits default_limits = {
    .max_objects = 4096,
    .max_counters = 65536,
    .max_instances = 1000000,
};

pd_snapshot *pd_snapshot_new(void) {
  return calloc(1, sizeof(pd_snapshot));
}

void pd_snapshot_free(pd_snapshot *snap) {
  if (snap == NULL)
    return;
  for (uint32_t i = 0; i < snap->inst_names_cap; i++) {
    pd_instance_names *n = &snap->inst_names[i];
    free(n->name);
    free(n->full);
    free(n->base);
    free(n->hash);
    free(n->own_hash);
    free(n->own_len);
    free(n->own_has_hash);
    wp_table_free(&n->index);
    free(n->prev_own);
    free(n->prev_parent);
    free(n->base_entry);
    free(n->dup_no);
    free(n->group_of);
    free(n->changed);
    free(n->sig);
    pd_memo_free(&n->own_memo);
    pd_memo_free(&n->base_memo);
    pd_memo_free(&n->dup_memo);
  }
  free(snap->inst_names);
  free(snap->objects);
  free(snap->object_first_counter);
  free(snap->object_first_instance);
  free(snap->counters);
  free(snap->instances);
  pd_text_free(&snap->text);
  free(snap);
}

static bool grow_objects(pd_snapshot *snap, uint32_t need) {
  if (need <= snap->object_cap)
    return true;
  size_t cap = snap->object_cap;
  if (WP_GROW(&snap->objects, &cap, need, UINT32_MAX) != WP_GROW_OK ||
      WP_RESIZE(&snap->object_first_counter, cap) != WP_GROW_OK ||
      WP_RESIZE(&snap->object_first_instance, cap) != WP_GROW_OK)
    return false;
  /* objects[] grew to cap; the two arrays beside it with it. */
  snap->object_cap = (uint32_t)cap;
  return true;
}

/* The pointers in pd_object are set once the arrays stop moving. An object
 * without counters (or instances) gets NULL: the shared array may itself be
 * NULL then, and NULL + 0 is undefined behaviour in C. */
static void fix_object_pointers(pd_snapshot *snap) {
  for (uint32_t i = 0; i < snap->object_count; i++) {
    pd_object *o = &snap->objects[i];
    o->counters = o->counter_count == 0
                      ? NULL
                      : snap->counters + snap->object_first_counter[i];
    o->instances = o->instance_count == 0
                       ? NULL
                       : snap->instances + snap->object_first_instance[i];
  }
}

static bool all_zero(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != 0)
      return false;
  return true;
}

/* How pd_counter_raw reads a counter of that size: 4 and 8 bytes in the
 * blob's byte order; any other size reads as 0 (format.md 1.3). */
static uint8_t counter_load(bool big_endian, uint32_t size) {
  if (size == 4)
    return big_endian ? PD_LOAD_BE32 : PD_LOAD_LE32;
  if (size == 8)
    return big_endian ? PD_LOAD_BE64 : PD_LOAD_LE64;
  return PD_LOAD_NONE;
}

/* Counter sizes: numeric types read exactly 4 or 8 bytes (format.md 1.3); text,
 * zero-size and variable-length types may have any size. */
static bool counter_size_ok(uint32_t type, uint32_t size) {
  uint32_t size_field = type & 0x300u, type_field = type & 0xC00u;
  if (type_field == 0x800u || size_field == 0x300u || size_field == 0x200u)
    return true;
  return size == 4 || size == 8;
}

static pd_status decode_header(pd_snapshot *snap, pd_error *err) {
  wire_bytes *b = &snap->bytes;
  pd_header *h = &snap->header;
  if (b->len < PERF_DATA_BLOCK_SIZE)
    return pd_error_set(err, PD_E_TRUNCATED, 0,
                        "offset 0x0: %zu bytes, shorter than the 88-byte "
                        "PERF_DATA_BLOCK",
                        b->len);
  static const uint8_t sig_le[8] = {'P', 0, 'E', 0, 'R', 0, 'F', 0};
  static const uint8_t sig_be[8] = {0, 'P', 0, 'E', 0, 'R', 0, 'F'};
  const uint8_t *sig = b->data + PERF_DATA_BLOCK_Signature;
  if (memcmp(sig, sig_le, 8) == 0)
    b->big_endian = false;
  else if (memcmp(sig, sig_be, 8) == 0)
    b->big_endian = true;
  else
    return pd_error_set(err, PD_E_SIGNATURE, 0,
                        "offset 0x0: signature is not \"PERF\" in UTF-16");
  /* format.md 1.7: the signature decides; the flag must agree. */
  uint32_t little = wire_ld32(b, PERF_DATA_BLOCK_LittleEndian);
  if (little != (b->big_endian ? 0u : 1u))
    return pd_error_set(err, PD_E_BYTE_ORDER, PERF_DATA_BLOCK_LittleEndian,
                        "offset 0x8: LittleEndian is %u but the signature is "
                        "%s-endian",
                        little, b->big_endian ? "big" : "little");
  h->big_endian = b->big_endian;
  h->version = wire_ld32(b, PERF_DATA_BLOCK_Version);
  h->revision = wire_ld32(b, PERF_DATA_BLOCK_Revision);
  h->total_byte_length = wire_ld32(b, PERF_DATA_BLOCK_TotalByteLength);
  h->header_length = wire_ld32(b, PERF_DATA_BLOCK_HeaderLength);
  h->num_object_types = wire_ld32(b, PERF_DATA_BLOCK_NumObjectTypes);
  h->default_object = (int32_t)wire_ld32(b, PERF_DATA_BLOCK_DefaultObject);
  for (int i = 0; i < 8; i++)
    h->system_time[i] =
        wire_ld16(b, PERF_DATA_BLOCK_SystemTime + 2 * (size_t)i);
  h->perf_time = (int64_t)wire_ld64(b, PERF_DATA_BLOCK_PerfTime);
  h->perf_freq = (int64_t)wire_ld64(b, PERF_DATA_BLOCK_PerfFreq);
  h->perf_time_100ns = (int64_t)wire_ld64(b, PERF_DATA_BLOCK_PerfTime100nSec);
  if (h->header_length < PERF_DATA_BLOCK_SIZE || h->header_length > b->len)
    return pd_error_set(err, PD_E_HEADER, PERF_DATA_BLOCK_HeaderLength,
                        "offset 0x18: HeaderLength %u outside [88, %zu]",
                        h->header_length, b->len);

  uint32_t name_len = wire_ld32(b, PERF_DATA_BLOCK_SystemNameLength),
           name_off = wire_ld32(b, PERF_DATA_BLOCK_SystemNameOffset);
  h->system_name = "";
  if (name_len > 0) {
    if (name_off < PERF_DATA_BLOCK_SIZE || name_off > h->header_length ||
        name_len > h->header_length - name_off)
      return pd_error_set(err, PD_E_NAME, PERF_DATA_BLOCK_SystemNameLength,
                          "offset 0x50: system name (offset %u, %u bytes) "
                          "outside the header (HeaderLength %u)",
                          name_off, name_len, h->header_length);
    size_t units = name_len / 2;
    size_t need =
        pd_utf16_to_utf8(b->data + name_off, units, b->big_endian, NULL, 0);
    char *s = pd_text_alloc(&snap->text, need + 1);
    if (s == NULL)
      return pd_error_set(err, PD_E_NOMEM, PERF_DATA_BLOCK_SystemNameLength,
                          "out of memory");
    pd_utf16_to_utf8(b->data + name_off, units, b->big_endian, s, need + 1);
    h->system_name = s;
  }
  return PD_OK;
}

/* Definitions of object `o` (format.md 1.2/1.3); *max_end gets the largest
 * CounterOffset + CounterSize, which every counter block must cover. */
static pd_status decode_definitions(pd_snapshot *snap, size_t o,
                                    uint32_t header_len, uint32_t def_len,
                                    uint32_t num_counters, uint64_t *max_end,
                                    size_t *max_end_def, pd_error *err) {
  const wire_bytes *b = &snap->bytes;
  size_t end = o + def_len, p = o + header_len;
  *max_end = 0;
  *max_end_def = p;
  for (uint32_t c = 0; c < num_counters; c++) {
    wire_sized def;
    if (wire_sized_at(b, p, end, PERF_COUNTER_DEFINITION_SIZE,
                      PERF_COUNTER_DEFINITION_ByteLength, &def) != WIRE_OK) {
      if (def.check == WIRE_SHORT)
        return pd_error_set(err, PD_E_COUNTER_DEF, p,
                            "offset 0x%zx: counter definition %u of object at "
                            "0x%zx runs past its DefinitionLength (ends 0x%zx)",
                            p, c, o, end);
      return pd_error_set(err, PD_E_COUNTER_DEF, def.at,
                          "offset 0x%zx: counter definition ByteLength %u "
                          "outside [%u, %zu] (DefinitionLength ends 0x%zx)",
                          def.at, def.length, def.min, def.max, end);
    }
    pd_counter_def *d = &snap->counters[snap->counter_count++];
    d->wire_offset = p;
    d->name_index =
        wire_ld32(b, p + PERF_COUNTER_DEFINITION_CounterNameTitleIndex);
    d->help_index =
        wire_ld32(b, p + PERF_COUNTER_DEFINITION_CounterHelpTitleIndex);
    d->default_scale =
        (int32_t)wire_ld32(b, p + PERF_COUNTER_DEFINITION_DefaultScale);
    d->detail_level = wire_ld32(b, p + PERF_COUNTER_DEFINITION_DetailLevel);
    d->type = wire_ld32(b, p + PERF_COUNTER_DEFINITION_CounterType);
    d->size = wire_ld32(b, p + PERF_COUNTER_DEFINITION_CounterSize);
    d->offset = wire_ld32(b, p + PERF_COUNTER_DEFINITION_CounterOffset);
    d->load = counter_load(b->big_endian, d->size);
    if (!counter_size_ok(d->type, d->size))
      return pd_error_set(
          err, PD_E_COUNTER_DEF, p + PERF_COUNTER_DEFINITION_CounterSize,
          "offset 0x%zx: CounterSize %u for numeric counter "
          "type 0x%08x (must be 4 or 8)",
          p + PERF_COUNTER_DEFINITION_CounterSize, d->size, d->type);
    uint64_t e = (uint64_t)d->offset + d->size;
    if (e > *max_end) {
      *max_end = e;
      *max_end_def = p;
    }
    p += def.length; /* inside [o, end): wire_sized_at checked it */
  }
  return PD_OK;
}

/* A PERF_COUNTER_BLOCK at p, inside [p, obj_end); returns its length. */
static pd_status decode_block(const wire_bytes *b, size_t p, size_t obj_end,
                              uint64_t max_end, size_t max_end_def,
                              uint32_t *length, pd_error *err) {
  wire_sized blk;
  if (wire_sized_at(b, p, obj_end, PERF_COUNTER_BLOCK_SIZE,
                    PERF_COUNTER_BLOCK_ByteLength, &blk) != WIRE_OK) {
    if (blk.check == WIRE_SHORT)
      return pd_error_set(err, PD_E_COUNTER_BLOCK, p,
                          "offset 0x%zx: counter block runs past its object "
                          "(ends 0x%zx)",
                          p, obj_end);
    return pd_error_range(err, PD_E_COUNTER_BLOCK, &blk,
                          "counter block ByteLength");
  }
  if (max_end > blk.length) {
    size_t at = max_end_def + PERF_COUNTER_DEFINITION_CounterOffset;
    return pd_error_set(err, PD_E_COUNTER_DEF, at,
                        "offset 0x%zx: CounterOffset + CounterSize = %llu "
                        "past the %u-byte counter block at 0x%zx",
                        at, (unsigned long long)max_end, blk.length, p);
  }
  *length = blk.length;
  return PD_OK;
}

/* The name of the instance at p (ByteLength byte_len, NameOffset name_off,
 * NameLength name_len) must lie inside the instance (format.md 1.2). */
static pd_status decode_instance_name(size_t p, uint32_t byte_len,
                                      uint32_t name_off, uint32_t name_len,
                                      pd_instance *in, pd_error *err) {
  in->name_offset = p;
  in->name_bytes = 0;
  if (name_len == 0)
    return PD_OK;
  if (name_off < PERF_INSTANCE_DEFINITION_SIZE || name_off > byte_len ||
      name_len > byte_len - name_off)
    return pd_error_set(err, PD_E_NAME, p + PERF_INSTANCE_DEFINITION_NameOffset,
                        "offset 0x%zx: instance name (offset %u, %u "
                        "bytes) outside its %u-byte instance at 0x%zx",
                        p + PERF_INSTANCE_DEFINITION_NameOffset, name_off,
                        name_len, byte_len, p);
  in->name_offset = p + name_off;
  in->name_bytes = name_len;
  return PD_OK;
}

static pd_status decode_instances(pd_snapshot *snap, size_t o, size_t obj_end,
                                  size_t p, uint32_t n, uint64_t max_end,
                                  size_t max_end_def, pd_error *err) {
  const wire_bytes *b = &snap->bytes;
  for (uint32_t i = 0; i < n; i++) {
    wire_sized def;
    if (wire_sized_at(b, p, obj_end, PERF_INSTANCE_DEFINITION_SIZE,
                      PERF_INSTANCE_DEFINITION_ByteLength, &def) != WIRE_OK) {
      if (def.check == WIRE_SHORT)
        return pd_error_set(err, PD_E_INSTANCE, p,
                            "offset 0x%zx: instance %u of object at 0x%zx runs "
                            "past the object (ends 0x%zx)",
                            p, i, o, obj_end);
      return pd_error_range(err, PD_E_INSTANCE, &def, "instance ByteLength");
    }
    /* Loads before stores: a store through `in` might alias the bytes'
     * byte order as far as the compiler knows. */
    uint32_t parent_object =
        wire_ld32(b, p + PERF_INSTANCE_DEFINITION_ParentObjectTitleIndex);
    uint32_t parent_instance =
        wire_ld32(b, p + PERF_INSTANCE_DEFINITION_ParentObjectInstance);
    uint32_t unique_id = wire_ld32(b, p + PERF_INSTANCE_DEFINITION_UniqueID);
    uint32_t name_off = wire_ld32(b, p + PERF_INSTANCE_DEFINITION_NameOffset);
    uint32_t name_len = wire_ld32(b, p + PERF_INSTANCE_DEFINITION_NameLength);
    pd_instance *in = &snap->instances[snap->instance_count++];
    in->wire_offset = p;
    in->parent_object = parent_object;
    in->parent_instance = parent_instance;
    in->unique_id = (int32_t)unique_id;
    pd_status s =
        decode_instance_name(p, def.length, name_off, name_len, in, err);
    if (s != PD_OK)
      return s;
    size_t q = p + def.length;
    s = decode_block(b, q, obj_end, max_end, max_end_def, &in->block_length,
                     err);
    if (s != PD_OK)
      return s;
    in->block_offset = q;
    in->block = b->data + q;
    p = q + in->block_length;
  }
  return PD_OK;
}

/* The lengths and counts of the PERF_OBJECT_TYPE at o, validated. */
typedef struct object_head {
  uint32_t total, def_len, hdr_len, num_counters;
  int32_t num_instances;
} object_head;

/* format.md 1.3: the three lengths nest inside the bytes left, and the counts
 * fit the bytes they describe. */
static pd_status check_object(const wire_bytes *b, size_t o, size_t left,
                              const pd_decode_limits *lim, object_head *h,
                              pd_error *err) {
  if (h->hdr_len < PERF_OBJECT_TYPE_SIZE)
    return pd_error_set(err, PD_E_OBJECT, o + PERF_OBJECT_TYPE_HeaderLength,
                        "offset 0x%zx: object HeaderLength %u is below 64",
                        o + PERF_OBJECT_TYPE_HeaderLength, h->hdr_len);
  if (h->def_len < h->hdr_len)
    return pd_error_set(err, PD_E_OBJECT, o + PERF_OBJECT_TYPE_DefinitionLength,
                        "offset 0x%zx: object DefinitionLength %u is below "
                        "its HeaderLength %u",
                        o + PERF_OBJECT_TYPE_DefinitionLength, h->def_len,
                        h->hdr_len);
  if (h->total < h->def_len)
    return pd_error_set(err, PD_E_OBJECT, o + PERF_OBJECT_TYPE_TotalByteLength,
                        "offset 0x%zx: object TotalByteLength %u is below "
                        "its DefinitionLength %u",
                        o + PERF_OBJECT_TYPE_TotalByteLength, h->total,
                        h->def_len);
  if (h->total > left)
    return pd_error_set(err, PD_E_TRUNCATED,
                        o + PERF_OBJECT_TYPE_TotalByteLength,
                        "offset 0x%zx: object TotalByteLength %u runs past "
                        "the end of the data (%zu bytes left)",
                        o + PERF_OBJECT_TYPE_TotalByteLength, h->total, left);
  h->num_counters = wire_ld32(b, o + PERF_OBJECT_TYPE_NumCounters);
  h->num_instances = (int32_t)wire_ld32(b, o + PERF_OBJECT_TYPE_NumInstances);
  size_t at = o + PERF_OBJECT_TYPE_NumCounters;
  uint64_t need = (uint64_t)h->num_counters * PERF_COUNTER_DEFINITION_SIZE;
  if (h->num_counters > lim->max_counters)
    return pd_error_set(err, PD_E_LIMIT, at,
                        "offset 0x%zx: NumCounters %u above the limit %u", at,
                        h->num_counters, lim->max_counters);
  if (need > h->def_len - h->hdr_len)
    return pd_error_set(err, PD_E_COUNTER_DEF, at,
                        "offset 0x%zx: NumCounters %u needs %llu bytes of "
                        "definitions, the object has %u",
                        at, h->num_counters, (unsigned long long)need,
                        h->def_len - h->hdr_len);
  at = o + PERF_OBJECT_TYPE_NumInstances;
  if (h->num_instances < -3)
    return pd_error_set(err, PD_E_OBJECT, at,
                        "offset 0x%zx: NumInstances %d is not valid", at,
                        h->num_instances);
  if (h->num_instances <= 0)
    return PD_OK;
  if ((uint32_t)h->num_instances > lim->max_instances)
    return pd_error_set(err, PD_E_LIMIT, at,
                        "offset 0x%zx: NumInstances %d above the limit %u", at,
                        h->num_instances, lim->max_instances);
  /* Each instance needs its definition and a counter block. */
  if ((uint64_t)h->num_instances *
          (PERF_INSTANCE_DEFINITION_SIZE + PERF_COUNTER_BLOCK_SIZE) >
      h->total - h->def_len)
    return pd_error_set(err, PD_E_INSTANCE, at,
                        "offset 0x%zx: NumInstances %d cannot fit in the "
                        "object's %u bytes of instance data",
                        at, h->num_instances, h->total - h->def_len);
  return PD_OK;
}

/* Reserve before filling: the counts are bounded by the bytes checked. */
static bool reserve_object(pd_snapshot *snap, uint32_t k,
                           const object_head *h) {
  size_t n_inst = h->num_instances > 0 ? (size_t)h->num_instances
                                       : (h->num_instances == -1 ? 1 : 0);
  return grow_objects(snap, k + 1) &&
         WP_GROW(&snap->counters, &snap->counter_cap,
                 snap->counter_count + h->num_counters,
                 WP_GROW_NO_CAP) == WP_GROW_OK &&
         WP_GROW(&snap->instances, &snap->instance_cap,
                 snap->instance_count + n_inst, WP_GROW_NO_CAP) == WP_GROW_OK;
}

/* The counter block of an object without instances (NumInstances -1). */
static pd_status decode_single_block(pd_snapshot *snap, size_t p,
                                     size_t obj_end, uint64_t max_end,
                                     size_t max_end_def, pd_error *err) {
  pd_instance *in = &snap->instances[snap->instance_count];
  memset(in, 0, sizeof *in);
  in->unique_id = -1;
  pd_status s = decode_block(&snap->bytes, p, obj_end, max_end, max_end_def,
                             &in->block_length, err);
  if (s != PD_OK)
    return s;
  in->block_offset = p;
  in->block = snap->bytes.data + p;
  in->name_offset = p;
  snap->instance_count++;
  return PD_OK;
}

static void fill_object(pd_object *obj, const wire_bytes *b, size_t o) {
  obj->wire_offset = o;
  obj->name_index = wire_ld32(b, o + PERF_OBJECT_TYPE_ObjectNameTitleIndex);
  obj->help_index = wire_ld32(b, o + PERF_OBJECT_TYPE_ObjectHelpTitleIndex);
  obj->detail_level = wire_ld32(b, o + PERF_OBJECT_TYPE_DetailLevel);
  obj->default_counter =
      (int32_t)wire_ld32(b, o + PERF_OBJECT_TYPE_DefaultCounter);
  obj->code_page = wire_ld32(b, o + PERF_OBJECT_TYPE_CodePage);
  obj->perf_time = (int64_t)wire_ld64(b, o + PERF_OBJECT_TYPE_PerfTime);
  obj->perf_freq = (int64_t)wire_ld64(b, o + PERF_OBJECT_TYPE_PerfFreq);
}

static pd_status decode_object(pd_snapshot *snap, size_t o, uint32_t k,
                               const pd_decode_limits *lim, size_t *next,
                               bool *stop, pd_error *err) {
  const wire_bytes *b = &snap->bytes;
  size_t left = b->len - o;
  *stop = false;
  if (left < PERF_OBJECT_TYPE_SIZE) {
    /* format.md 1.3 stops here; zero bytes are padding (Samba pads its reply),
     * anything else is an object cut short. */
    if (all_zero(b->data + o, left)) {
      *stop = true;
      return PD_OK;
    }
    return pd_error_set(err, PD_E_TRUNCATED, o,
                        "offset 0x%zx: object %u: %zu bytes left, "
                        "PERF_OBJECT_TYPE needs 64",
                        o, k, left);
  }
  object_head h = {
      .total = wire_ld32(b, o + PERF_OBJECT_TYPE_TotalByteLength),
      .def_len = wire_ld32(b, o + PERF_OBJECT_TYPE_DefinitionLength),
      .hdr_len = wire_ld32(b, o + PERF_OBJECT_TYPE_HeaderLength),
  };
  if (h.total == 0) {
    *stop = true;
    return PD_OK;
  }
  pd_status s = check_object(b, o, left, lim, &h, err);
  if (s != PD_OK)
    return s;
  if (!reserve_object(snap, k, &h))
    return pd_error_set(err, PD_E_NOMEM, o, "offset 0x%zx: out of memory", o);

  size_t first_counter = snap->counter_count,
         first_instance = snap->instance_count;
  uint64_t max_end;
  size_t max_end_def;
  s = decode_definitions(snap, o, h.hdr_len, h.def_len, h.num_counters,
                         &max_end, &max_end_def, err);
  if (s != PD_OK)
    return s;

  size_t obj_end = o + h.total, p = o + h.def_len;
  if (h.num_instances == -1)
    s = decode_single_block(snap, p, obj_end, max_end, max_end_def, err);
  else if (h.num_instances > 0)
    s = decode_instances(snap, o, obj_end, p, (uint32_t)h.num_instances,
                         max_end, max_end_def, err);
  if (s != PD_OK)
    return s;

  pd_object *obj = &snap->objects[k];
  fill_object(obj, b, o);
  obj->num_instances = h.num_instances;
  obj->counter_count = h.num_counters;
  obj->instance_count = (uint32_t)(snap->instance_count - first_instance);
  snap->object_first_counter[k] = first_counter;
  snap->object_first_instance[k] = first_instance;
  snap->object_count = k + 1;
  *next = obj_end;
  return PD_OK;
}

pd_status pd_decode(pd_snapshot *snap, const uint8_t *data, size_t len,
                    const pd_decode_limits *limits, pd_error *err) {
  if (snap == NULL || (data == NULL && len > 0))
    return pd_error_set(err, PD_E_ARGUMENT, 0, "no snapshot or data");
  const pd_decode_limits *lim = limits ? limits : &default_limits;
  snap->bytes.data = data;
  snap->bytes.len = len;
  snap->bytes.big_endian = false;
  memset(&snap->header, 0, sizeof snap->header);
  snap->header.system_name = "";
  snap->generation++;
  static atomic_uint_fast64_t decodes;
  snap->decode_id =
      atomic_fetch_add_explicit(&decodes, 1, memory_order_relaxed) + 1;
  snap->object_count = 0;
  snap->counter_count = 0;
  snap->instance_count = 0;
  pd_text_reset(&snap->text);
  if (err != NULL) {
    err->status = PD_OK;
    err->offset = 0;
    err->message[0] = '\0';
  }

  pd_status s = decode_header(snap, err);
  if (s != PD_OK)
    return s;

  /* format.md 1.3: NumObjectTypes may overstate what is present; stop at the
   * end of the data. Samba's TotalByteLength omits the header (format.md 6), so
   * the bytes actually returned bound the walk, not TotalByteLength. */
  size_t o = snap->header.header_length;
  for (uint32_t k = 0; k < snap->header.num_object_types && o < len; k++) {
    bool stop = false;
    size_t next = o;
    /* NumObjectTypes may overstate (format.md 1.3): the limit counts the
     * objects actually present. */
    if (k >= lim->max_objects) {
      s = pd_error_set(err, PD_E_LIMIT, o, "offset 0x%zx: more than %u objects",
                       o, lim->max_objects);
      break;
    }
    s = decode_object(snap, o, k, lim, &next, &stop, err);
    if (s != PD_OK || stop)
      break;
    o = next;
  }
  fix_object_pointers(snap);
  return s;
}

const pd_header *pd_snapshot_header(const pd_snapshot *snap) {
  return &snap->header;
}

const uint8_t *pd_snapshot_bytes(const pd_snapshot *snap, size_t *len) {
  if (len != NULL)
    *len = snap->bytes.len;
  return snap->bytes.data;
}

uint32_t pd_snapshot_object_count(const pd_snapshot *snap) {
  return snap->object_count;
}

const pd_object *pd_snapshot_object(const pd_snapshot *snap, uint32_t i) {
  return i < snap->object_count ? &snap->objects[i] : NULL;
}

const pd_object *pd_snapshot_find_object(const pd_snapshot *snap,
                                         uint32_t index) {
  return pd_object_by_index(snap, index);
}
