/* collectd-winperf: instance names as PDH shows them (format.md 1.4).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Own names (an instance's own, without parent or "#n"): converted to
 * UTF-8 only for objects someone asks about, once per decode. An object
 * named as at its last decode keeps its names; one whose instances
 * changed looks each name up by its raw bytes (name_memo.h), so only new
 * names cost a conversion, wherever the instances moved. Full names:
 * full_names.c; comparing two samples' names: same_names.c.
 */
#include "snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t pd_hash_folded(const char *s) {
  bool has_hash = false;
  return pd_hash_from(PD_FNV_START, s, &has_hash);
}

static bool grow_u32(uint32_t **a, size_t n) {
  void *p = realloc(*a, n * sizeof(uint32_t));
  if (p == NULL)
    return false;
  *a = p;
  return true;
}

static pd_object_names *slot_for(pd_snapshot *snap, const pd_object *obj) {
  if (obj < snap->objects || obj >= snap->objects + snap->object_count)
    return NULL;
  uint32_t k = (uint32_t)(obj - snap->objects);
  if (k >= snap->names_cap) {
    uint32_t cap = snap->object_cap;
    pd_object_names *p = realloc(snap->names, cap * sizeof *p);
    if (p == NULL)
      return NULL;
    memset(p + snap->names_cap, 0, (cap - snap->names_cap) * sizeof *p);
    snap->names = p;
    snap->names_cap = cap;
  }
  pd_object_names *n = &snap->names[k];
  uint32_t count = obj->instance_count;
  if (count > n->cap) {
    void *a = realloc(n->name, count * sizeof(char *));
    if (a == NULL)
      return NULL;
    n->name = a;
    void *b = realloc(n->full, count * sizeof(char *));
    if (b == NULL)
      return NULL;
    n->full = b;
    void *c = realloc(n->base, count * sizeof(char *));
    if (c == NULL)
      return NULL;
    n->base = c;
    void *d = realloc(n->own_has_hash, count);
    if (d == NULL)
      return NULL;
    n->own_has_hash = d;
    void *e = realloc(n->prev_own, count * sizeof(char *));
    if (e == NULL)
      return NULL;
    n->prev_own = e;
    void *f = realloc(n->prev_parent, count * sizeof(char *));
    if (f == NULL)
      return NULL;
    n->prev_parent = f;
    if (!grow_u32(&n->hash, count) || !grow_u32(&n->next, count) ||
        !grow_u32(&n->own_hash, count) || !grow_u32(&n->own_len, count) ||
        !grow_u32(&n->base_entry, count) || !grow_u32(&n->dup_no, count) ||
        !grow_u32(&n->group_of, count) || !grow_u32(&n->changed, count))
      return NULL;
    n->cap = count;
  }
  /* Buckets: a power of two at least twice the instances. */
  uint32_t want = 16;
  while (want < 2 * (uint64_t)count && want < (1u << 30))
    want *= 2;
  if (want > n->bucket_cap) {
    if (!grow_u32(&n->bucket, want))
      return NULL;
    n->bucket_cap = want;
  }
  return n;
}

static const char *convert_name(const pd_snapshot *snap, pd_text_arena *text,
                                const pd_object *obj, const pd_instance *in) {
  if (in->name_bytes == 0) {
    if (in->unique_id == -1)
      return "";
    char num[16];
    int len = snprintf(num, sizeof num, "%d", in->unique_id);
    return pd_text_dup(text, num, (size_t)len);
  }
  const uint8_t *src = snap->bytes.data + in->name_offset;
  size_t worst = (size_t)in->name_bytes * 3 + 1;
  char *out = pd_text_alloc(text, worst);
  if (out == NULL)
    return NULL;
  size_t used;
  if (obj->code_page == 0)
    used = pd_utf16_to_utf8(src, in->name_bytes / 2, snap->bytes.big_endian,
                            out, worst);
  else
    used = pd_codepage_to_utf8(src, in->name_bytes, obj->code_page, out, worst);
  pd_text_trim(text, out, used + 1);
  return out;
}

/* a[0, len) == b[0, len), inline: names are short, and compared per
 * instance at every decode. */
static inline bool bytes_equal(const uint8_t *a, const uint8_t *b, size_t len) {
  uint64_t x, y;
  for (; len >= 8; len -= 8, a += 8, b += 8) {
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    if (x != y)
      return false;
  }
  uint32_t u, v;
  if (len >= 4) {
    memcpy(&u, a, 4);
    memcpy(&v, b, 4);
    if (u != v)
      return false;
    len -= 4;
    a += 4;
    b += 4;
  }
  for (; len > 0; len--)
    if (*a++ != *b++)
      return false;
  return true;
}

/* The signature of obj's instance naming: per instance a head (its
 * NameLength, unique id and parent references, two 64-bit words) and its
 * raw name bytes. */
static inline void sig_head(const pd_instance *in, uint64_t head[2]) {
  head[0] = (uint64_t)in->name_bytes | (uint64_t)(uint32_t)in->unique_id << 32;
  head[1] = (uint64_t)in->parent_object | (uint64_t)in->parent_instance << 32;
}

/* Whether n->sig is obj's signature. */
static bool signature_same(const pd_object_names *n, const pd_snapshot *snap,
                           const pd_object *obj) {
  const uint8_t *sig = n->sig, *data = snap->bytes.data;
  size_t left = n->sig_len;
  for (uint32_t i = 0; i < obj->instance_count; i++) {
    const pd_instance *in = &obj->instances[i];
    uint64_t head[2], was[2];
    sig_head(in, head);
    size_t need = sizeof head + in->name_bytes;
    if (left < need)
      return false;
    memcpy(was, sig, sizeof was);
    if (((was[0] ^ head[0]) | (was[1] ^ head[1])) != 0 ||
        !bytes_equal(sig + sizeof head, data + in->name_offset, in->name_bytes))
      return false;
    sig += need;
    left -= need;
  }
  return left == 0;
}

/* obj's signature into n->sig; false when out of memory. */
static bool signature_store(pd_object_names *n, const pd_snapshot *snap,
                            const pd_object *obj) {
  size_t at = 0;
  for (uint32_t i = 0; i < obj->instance_count; i++) {
    const pd_instance *in = &obj->instances[i];
    uint64_t head[2];
    sig_head(in, head);
    size_t need = sizeof head + in->name_bytes;
    if (!pd_grow((void **)&n->sig, &n->sig_cap, at + need, 1))
      return false;
    memcpy(n->sig + at, head, sizeof head);
    memcpy(n->sig + at + sizeof head, snap->bytes.data + in->name_offset,
           in->name_bytes);
    at += need;
  }
  n->sig_len = at;
  return true;
}

/* Whether name[] of the slot was built from instances named as obj's are. */
static bool same_as_built(pd_object_names *n, const pd_snapshot *snap,
                          const pd_object *obj) {
  return n->own_built && n->object_index == obj->name_index &&
         n->count == obj->instance_count && n->code_page == obj->code_page &&
         n->num_instances == obj->num_instances &&
         n->big_endian == snap->bytes.big_endian &&
         signature_same(n, snap, obj);
}

/* Instance in's own name from the memo, converted and added when new. */
static const pd_memo_entry *own_entry(pd_snapshot *snap, pd_object_names *n,
                                      const pd_object *obj,
                                      const pd_instance *in) {
  const uint8_t *raw = snap->bytes.data + in->name_offset;
  uint32_t len = in->name_bytes;
  /* Unnamed: the unique id (format.md 1.4), flagged apart from any bytes. */
  uint64_t key[3] = {len ? pd_hash_bytes(raw, len) : 0, len,
                     len ? 0 : (uint64_t)(uint32_t)in->unique_id | 1ull << 32};
  pd_memo_entry *e = pd_memo_find(&n->own_memo, key, raw, len);
  if (e != NULL)
    return e;
  const char *text = convert_name(snap, &n->own_memo.text, obj, in);
  if (text == NULL || (e = pd_memo_add(&n->own_memo, key, raw, len)) == NULL)
    return NULL;
  e->text = text;
  e->len = (uint32_t)strlen(text);
  e->fold_hash = pd_hash_from(PD_FNV_START, text, &e->has_hash);
  return e;
}

pd_object_names *pd_own_names(pd_snapshot *snap, const pd_object *obj) {
  pd_object_names *n = pd_names_cached(snap, obj, false);
  if (n != NULL)
    return n;
  if ((n = slot_for(snap, obj)) == NULL)
    return NULL;
  if (!same_as_built(n, snap, obj)) {
    n->own_built = n->full_built = false;
    if (n->memo_code_page != obj->code_page ||
        n->memo_big_endian != snap->bytes.big_endian)
      pd_memo_clear(&n->own_memo, &snap->memo_epochs);
    n->memo_code_page = obj->code_page;
    n->memo_big_endian = snap->bytes.big_endian;
    pd_memo_begin(&n->own_memo, &snap->memo_epochs);
    for (uint32_t i = 0; i < obj->instance_count; i++) {
      const pd_memo_entry *e = own_entry(snap, n, obj, &obj->instances[i]);
      if (e == NULL)
        return NULL;
      n->name[i] = e->text;
      n->own_len[i] = e->len;
      n->own_hash[i] = e->fold_hash;
      n->own_has_hash[i] = e->has_hash;
    }
    if (!signature_store(n, snap, obj))
      return NULL;
    n->object_index = obj->name_index;
    n->count = obj->instance_count;
    n->code_page = obj->code_page;
    n->num_instances = obj->num_instances;
    n->big_endian = snap->bytes.big_endian;
    n->epoch = ++snap->names_epoch;
    pd_memo_end(&n->own_memo, obj->instance_count);
    n->own_built = true;
  }
  n->own_generation = snap->generation;
  return n;
}

const char *pd_instance_name(pd_snapshot *snap, const pd_object *obj,
                             uint32_t inst) {
  if (inst >= obj->instance_count)
    return NULL;
  pd_object_names *n = pd_own_names(snap, obj);
  return n ? n->name[inst] : NULL;
}
