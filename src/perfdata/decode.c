/* collectd-winperf: the V1 blob decoder (spec section 1).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Walks a PERF_DATA_BLOCK as spec 1.3 describes, validating every offset,
 * length and count before it is used, and records where each object,
 * counter definition, instance and counter block sits. Values and names are
 * read from the blob later, on demand (sample.c, instance_names.c), so a
 * decode touches only the structure.
 */
#include "snapshot.h"

#include <stdlib.h>
#include <string.h>

/* Fixed structure sizes, spec 1.2. */
enum {
  DATA_BLOCK_SIZE = 88,
  OBJECT_TYPE_SIZE = 64,
  COUNTER_DEF_SIZE = 40,
  INSTANCE_DEF_SIZE = 24,
  COUNTER_BLOCK_SIZE = 4,
};

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
  for (uint32_t i = 0; i < snap->names_cap; i++) {
    pd_object_names *n = &snap->names[i];
    free(n->name);
    free(n->full);
    free(n->base);
    free(n->hash);
    free(n->next);
    free(n->dup);
    free(n->bucket);
  }
  free(snap->names);
  free(snap->objects);
  free(snap->object_first_counter);
  free(snap->object_first_instance);
  free(snap->counters);
  free(snap->instances);
  pd_text_free(&snap->text);
  free(snap);
}

/* Grow an array to hold at least `need` elements; counts were checked
 * against the blob's size before this is called, so `need` is bounded by
 * the input length. */
static bool grow(void **array, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return true;
  size_t want = *cap ? *cap : 16;
  while (want < need)
    want = want > SIZE_MAX / 2 ? need : want * 2;
  if (want > SIZE_MAX / elem)
    return false;
  void *p = realloc(*array, want * elem);
  if (p == NULL)
    return false;
  *array = p;
  *cap = want;
  return true;
}

static bool grow_objects(pd_snapshot *snap, uint32_t need) {
  if (need <= snap->object_cap)
    return true;
  size_t cap = snap->object_cap, cap2 = snap->object_cap,
         cap3 = snap->object_cap;
  if (!grow((void **)&snap->objects, &cap, need, sizeof(pd_object)) ||
      !grow((void **)&snap->object_first_counter, &cap2, need,
            sizeof(size_t)) ||
      !grow((void **)&snap->object_first_instance, &cap3, need, sizeof(size_t)))
    return false;
  /* All three grew from the same capacity with the same rule. */
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

/* Counter sizes: numeric types read exactly 4 or 8 bytes (spec 1.3); text,
 * zero-size and variable-length types may have any size. */
static bool counter_size_ok(uint32_t type, uint32_t size) {
  uint32_t size_field = type & 0x300u, type_field = type & 0xC00u;
  if (type_field == 0x800u || size_field == 0x300u || size_field == 0x200u)
    return true;
  return size == 4 || size == 8;
}

static pd_status decode_header(pd_snapshot *snap, pd_error *err) {
  pd_bytes *b = &snap->bytes;
  pd_header *h = &snap->header;
  if (b->len < DATA_BLOCK_SIZE)
    return pd_error_set(err, PD_E_TRUNCATED, 0,
                        "offset 0x0: %zu bytes, shorter than the 88-byte "
                        "PERF_DATA_BLOCK",
                        b->len);
  static const uint8_t sig_le[8] = {'P', 0, 'E', 0, 'R', 0, 'F', 0};
  static const uint8_t sig_be[8] = {0, 'P', 0, 'E', 0, 'R', 0, 'F'};
  if (memcmp(b->data, sig_le, 8) == 0)
    b->big_endian = false;
  else if (memcmp(b->data, sig_be, 8) == 0)
    b->big_endian = true;
  else
    return pd_error_set(err, PD_E_SIGNATURE, 0,
                        "offset 0x0: signature is not \"PERF\" in UTF-16");
  /* Spec 1.7: the signature decides; the flag must agree. */
  uint32_t little = pd_ld32(b, 8);
  if (little != (b->big_endian ? 0u : 1u))
    return pd_error_set(err, PD_E_BYTE_ORDER, 8,
                        "offset 0x8: LittleEndian is %u but the signature is "
                        "%s-endian",
                        little, b->big_endian ? "big" : "little");
  h->big_endian = b->big_endian;
  h->version = pd_ld32(b, 12);
  h->revision = pd_ld32(b, 16);
  h->total_byte_length = pd_ld32(b, 20);
  h->header_length = pd_ld32(b, 24);
  h->num_object_types = pd_ld32(b, 28);
  h->default_object = (int32_t)pd_ld32(b, 32);
  for (int i = 0; i < 8; i++)
    h->system_time[i] = pd_ld16(b, 36 + 2 * (size_t)i);
  h->perf_time = (int64_t)pd_ld64(b, 56);
  h->perf_freq = (int64_t)pd_ld64(b, 64);
  h->perf_time_100ns = (int64_t)pd_ld64(b, 72);
  if (h->header_length < DATA_BLOCK_SIZE || h->header_length > b->len)
    return pd_error_set(err, PD_E_HEADER, 24,
                        "offset 0x18: HeaderLength %u outside [88, %zu]",
                        h->header_length, b->len);

  uint32_t name_len = pd_ld32(b, 80), name_off = pd_ld32(b, 84);
  h->system_name = "";
  if (name_len > 0) {
    if (name_off < DATA_BLOCK_SIZE || name_off > h->header_length ||
        name_len > h->header_length - name_off)
      return pd_error_set(err, PD_E_NAME, 80,
                          "offset 0x50: system name (offset %u, %u bytes) "
                          "outside the header (HeaderLength %u)",
                          name_off, name_len, h->header_length);
    size_t units = name_len / 2;
    size_t need =
        pd_utf16_to_utf8(b->data + name_off, units, b->big_endian, NULL, 0);
    char *s = pd_text_alloc(&snap->text, need + 1);
    if (s == NULL)
      return pd_error_set(err, PD_E_NOMEM, 80, "out of memory");
    pd_utf16_to_utf8(b->data + name_off, units, b->big_endian, s, need + 1);
    h->system_name = s;
  }
  return PD_OK;
}

/* Definitions of object `o` (spec 1.2/1.3); *max_end gets the largest
 * CounterOffset + CounterSize, which every counter block must cover. */
static pd_status decode_definitions(pd_snapshot *snap, size_t o,
                                    uint32_t header_len, uint32_t def_len,
                                    uint32_t num_counters, uint64_t *max_end,
                                    size_t *max_end_def, pd_error *err) {
  const pd_bytes *b = &snap->bytes;
  size_t end = o + def_len, p = o + header_len;
  *max_end = 0;
  *max_end_def = p;
  for (uint32_t c = 0; c < num_counters; c++) {
    if (p > end || end - p < COUNTER_DEF_SIZE)
      return pd_error_set(err, PD_E_COUNTER_DEF, p,
                          "offset 0x%zx: counter definition %u of object at "
                          "0x%zx runs past its DefinitionLength (ends 0x%zx)",
                          p, c, o, end);
    uint32_t byte_len = pd_ld32(b, p);
    if (byte_len < COUNTER_DEF_SIZE || byte_len > end - p)
      return pd_error_set(err, PD_E_COUNTER_DEF, p,
                          "offset 0x%zx: counter definition ByteLength %u "
                          "outside [40, %zu] (DefinitionLength ends 0x%zx)",
                          p, byte_len, end - p, end);
    pd_counter_def *d = &snap->counters[snap->counter_count++];
    d->wire_offset = p;
    d->name_index = pd_ld32(b, p + 4);
    d->help_index = pd_ld32(b, p + 12);
    d->default_scale = (int32_t)pd_ld32(b, p + 20);
    d->detail_level = pd_ld32(b, p + 24);
    d->type = pd_ld32(b, p + 28);
    d->size = pd_ld32(b, p + 32);
    d->offset = pd_ld32(b, p + 36);
    if (!counter_size_ok(d->type, d->size))
      return pd_error_set(err, PD_E_COUNTER_DEF, p + 32,
                          "offset 0x%zx: CounterSize %u for numeric counter "
                          "type 0x%08x (must be 4 or 8)",
                          p + 32, d->size, d->type);
    uint64_t e = (uint64_t)d->offset + d->size;
    if (e > *max_end) {
      *max_end = e;
      *max_end_def = p;
    }
    p += byte_len; /* byte_len <= UINT32_MAX and p < SIZE_MAX/2 in practice */
    if (p < byte_len)
      return pd_error_set(err, PD_E_COUNTER_DEF, d->wire_offset,
                          "offset 0x%zx: ByteLength overflows", d->wire_offset);
  }
  return PD_OK;
}

/* A PERF_COUNTER_BLOCK at p, inside [p, obj_end); returns its length. */
static pd_status decode_block(const pd_bytes *b, size_t p, size_t obj_end,
                              uint64_t max_end, size_t max_end_def,
                              uint32_t *length, pd_error *err) {
  if (p > obj_end || obj_end - p < COUNTER_BLOCK_SIZE)
    return pd_error_set(err, PD_E_COUNTER_BLOCK, p,
                        "offset 0x%zx: counter block runs past its object "
                        "(ends 0x%zx)",
                        p, obj_end);
  uint32_t len = pd_ld32(b, p);
  if (len < COUNTER_BLOCK_SIZE || len > obj_end - p)
    return pd_error_set(err, PD_E_COUNTER_BLOCK, p,
                        "offset 0x%zx: counter block ByteLength %u outside "
                        "[4, %zu]",
                        p, len, obj_end - p);
  if (max_end > len)
    return pd_error_set(err, PD_E_COUNTER_DEF, max_end_def + 36,
                        "offset 0x%zx: CounterOffset + CounterSize = %llu "
                        "past the %u-byte counter block at 0x%zx",
                        max_end_def + 36, (unsigned long long)max_end, len, p);
  *length = len;
  return PD_OK;
}

static pd_status decode_instances(pd_snapshot *snap, size_t o, size_t obj_end,
                                  size_t p, uint32_t n, uint64_t max_end,
                                  size_t max_end_def, pd_error *err) {
  const pd_bytes *b = &snap->bytes;
  for (uint32_t i = 0; i < n; i++) {
    if (p > obj_end || obj_end - p < INSTANCE_DEF_SIZE)
      return pd_error_set(err, PD_E_INSTANCE, p,
                          "offset 0x%zx: instance %u of object at 0x%zx runs "
                          "past the object (ends 0x%zx)",
                          p, i, o, obj_end);
    uint32_t byte_len = pd_ld32(b, p);
    if (byte_len < INSTANCE_DEF_SIZE || byte_len > obj_end - p)
      return pd_error_set(err, PD_E_INSTANCE, p,
                          "offset 0x%zx: instance ByteLength %u outside "
                          "[24, %zu]",
                          p, byte_len, obj_end - p);
    pd_instance *in = &snap->instances[snap->instance_count++];
    in->wire_offset = p;
    in->parent_object = pd_ld32(b, p + 4);
    in->parent_instance = pd_ld32(b, p + 8);
    in->unique_id = (int32_t)pd_ld32(b, p + 12);
    uint32_t name_off = pd_ld32(b, p + 16), name_len = pd_ld32(b, p + 20);
    in->name_offset = p;
    in->name_bytes = 0;
    if (name_len > 0) {
      if (name_off < INSTANCE_DEF_SIZE || name_off > byte_len ||
          name_len > byte_len - name_off)
        return pd_error_set(err, PD_E_NAME, p + 16,
                            "offset 0x%zx: instance name (offset %u, %u "
                            "bytes) outside its %u-byte instance at 0x%zx",
                            p + 16, name_off, name_len, byte_len, p);
      in->name_offset = p + name_off;
      in->name_bytes = name_len;
    }
    size_t q = p + byte_len;
    pd_status s = decode_block(b, q, obj_end, max_end, max_end_def,
                               &in->block_length, err);
    if (s != PD_OK)
      return s;
    in->block_offset = q;
    p = q + in->block_length;
  }
  (void)o;
  return PD_OK;
}

static pd_status decode_object(pd_snapshot *snap, size_t o, uint32_t k,
                               const pd_decode_limits *lim, size_t *next,
                               bool *stop, pd_error *err) {
  const pd_bytes *b = &snap->bytes;
  size_t left = b->len - o;
  *stop = false;
  if (left < OBJECT_TYPE_SIZE) {
    /* Spec 1.3 stops here; zero bytes are padding (Samba pads its reply),
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
  uint32_t total = pd_ld32(b, o), def_len = pd_ld32(b, o + 4),
           hdr_len = pd_ld32(b, o + 8);
  if (total == 0) {
    *stop = true;
    return PD_OK;
  }
  if (hdr_len < OBJECT_TYPE_SIZE)
    return pd_error_set(err, PD_E_OBJECT, o + 8,
                        "offset 0x%zx: object HeaderLength %u is below 64",
                        o + 8, hdr_len);
  if (def_len < hdr_len)
    return pd_error_set(err, PD_E_OBJECT, o + 4,
                        "offset 0x%zx: object DefinitionLength %u is below "
                        "its HeaderLength %u",
                        o + 4, def_len, hdr_len);
  if (total < def_len)
    return pd_error_set(err, PD_E_OBJECT, o,
                        "offset 0x%zx: object TotalByteLength %u is below "
                        "its DefinitionLength %u",
                        o, total, def_len);
  if (total > left)
    return pd_error_set(err, PD_E_TRUNCATED, o,
                        "offset 0x%zx: object TotalByteLength %u runs past "
                        "the end of the data (%zu bytes left)",
                        o, total, left);
  uint32_t num_counters = pd_ld32(b, o + 32);
  int32_t num_instances = (int32_t)pd_ld32(b, o + 40);
  if (num_counters > lim->max_counters)
    return pd_error_set(err, PD_E_LIMIT, o + 32,
                        "offset 0x%zx: NumCounters %u above the limit %u",
                        o + 32, num_counters, lim->max_counters);
  if ((uint64_t)num_counters * COUNTER_DEF_SIZE > def_len - hdr_len)
    return pd_error_set(err, PD_E_COUNTER_DEF, o + 32,
                        "offset 0x%zx: NumCounters %u needs %llu bytes of "
                        "definitions, the object has %u",
                        o + 32, num_counters,
                        (unsigned long long)num_counters * COUNTER_DEF_SIZE,
                        def_len - hdr_len);
  if (num_instances < -3)
    return pd_error_set(err, PD_E_OBJECT, o + 40,
                        "offset 0x%zx: NumInstances %d is not valid", o + 40,
                        num_instances);
  if (num_instances > 0) {
    if ((uint32_t)num_instances > lim->max_instances)
      return pd_error_set(err, PD_E_LIMIT, o + 40,
                          "offset 0x%zx: NumInstances %d above the limit %u",
                          o + 40, num_instances, lim->max_instances);
    /* Each instance needs its definition and a counter block. */
    if ((uint64_t)num_instances * (INSTANCE_DEF_SIZE + COUNTER_BLOCK_SIZE) >
        total - def_len)
      return pd_error_set(err, PD_E_INSTANCE, o + 40,
                          "offset 0x%zx: NumInstances %d cannot fit in the "
                          "object's %u bytes of instance data",
                          o + 40, num_instances, total - def_len);
  }

  /* Reserve before filling: the counts are bounded by the bytes above. */
  size_t n_inst =
      num_instances > 0 ? (size_t)num_instances : (num_instances == -1 ? 1 : 0);
  if (!grow_objects(snap, k + 1) ||
      !grow((void **)&snap->counters, &snap->counter_cap,
            snap->counter_count + num_counters, sizeof(pd_counter_def)) ||
      !grow((void **)&snap->instances, &snap->instance_cap,
            snap->instance_count + n_inst, sizeof(pd_instance)))
    return pd_error_set(err, PD_E_NOMEM, o, "offset 0x%zx: out of memory", o);

  size_t first_counter = snap->counter_count,
         first_instance = snap->instance_count;
  uint64_t max_end;
  size_t max_end_def;
  pd_status s = decode_definitions(snap, o, hdr_len, def_len, num_counters,
                                   &max_end, &max_end_def, err);
  if (s != PD_OK)
    return s;

  size_t obj_end = o + total, p = o + def_len;
  if (num_instances == -1) {
    pd_instance *in = &snap->instances[snap->instance_count];
    memset(in, 0, sizeof *in);
    in->unique_id = -1;
    s = decode_block(b, p, obj_end, max_end, max_end_def, &in->block_length,
                     err);
    if (s != PD_OK)
      return s;
    in->block_offset = p;
    in->name_offset = p;
    snap->instance_count++;
  } else if (num_instances > 0) {
    s = decode_instances(snap, o, obj_end, p, (uint32_t)num_instances, max_end,
                         max_end_def, err);
    if (s != PD_OK)
      return s;
  }

  pd_object *obj = &snap->objects[k];
  obj->wire_offset = o;
  obj->name_index = pd_ld32(b, o + 12);
  obj->help_index = pd_ld32(b, o + 20);
  obj->detail_level = pd_ld32(b, o + 28);
  obj->default_counter = (int32_t)pd_ld32(b, o + 36);
  obj->num_instances = num_instances;
  obj->code_page = pd_ld32(b, o + 44);
  obj->perf_time = (int64_t)pd_ld64(b, o + 48);
  obj->perf_freq = (int64_t)pd_ld64(b, o + 56);
  obj->counter_count = num_counters;
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

  /* Spec 1.3: NumObjectTypes may overstate what is present; stop at the
   * end of the data. Samba's TotalByteLength omits the header (spec 6), so
   * the bytes actually returned bound the walk, not TotalByteLength. */
  size_t o = snap->header.header_length;
  for (uint32_t k = 0; k < snap->header.num_object_types && o < len; k++) {
    bool stop = false;
    size_t next = o;
    /* NumObjectTypes may overstate (spec 1.3): the limit counts the
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
  for (uint32_t i = 0; i < snap->object_count; i++)
    if (snap->objects[i].name_index == index)
      return &snap->objects[i];
  return NULL;
}
