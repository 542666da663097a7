/* collectd-winperf: instance names as PDH shows them (format.md 1.4).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Own names (an instance's own, without parent or "#n"): converted to
 * UTF-8 only for objects someone asks about, once per decode. An object
 * named as at its last decode keeps its names; one whose instances
 * changed looks each name up by its raw bytes (name_memo.h), so only new
 * names cost a conversion, wherever the instances moved. The memos
 * (name_memo.h, used by full_names.c too) are here. Whether two
 * samples name their instances alike is told here too, from the raw
 * inputs. Full names: full_names.c.
 */
#include "cache_check.h"
#include "snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------ the memos (name_memo.h) */

/* Entries beyond twice the last build's before a build starts afresh. */
enum { MEMO_MARGIN = 1024 };

void pd_memo_free(pd_name_memo *m) {
  free(m->entries);
  wp_table_free(&m->by_key);
  free(m->group);
  wp_table_free(&m->group_by_text);
  pd_text_free(&m->text);
  memset(m, 0, sizeof *m);
}

void pd_memo_clear(pd_name_memo *m, uint32_t *epochs) {
  m->count = 0;
  m->groups = 0;
  wp_table_clear(&m->by_key);
  wp_table_clear(&m->group_by_text);
  pd_text_reset(&m->text);
  m->live = 0;
  m->epoch = ++*epochs;
}

void pd_memo_begin(pd_name_memo *m, uint32_t *epochs) {
  if (m->epoch == 0 || m->count > 2 * (size_t)m->live + MEMO_MARGIN)
    pd_memo_clear(m, epochs);
  if (++m->build == 0) { /* wrapped: no group may look counted by build 1 */
    for (size_t g = 0; g < m->groups; g++)
      m->group[g].stamp = 0;
    m->build = 1;
  }
}

static inline __attribute__((always_inline)) uint32_t
key_hash(const uint64_t key[3]) {
  return wp_hash32(wp_hash_bytes(key, 3 * sizeof *key));
}

/* The key an entry is looked up by. */
typedef struct memo_key {
  const pd_name_memo *m;
  const uint64_t *key;
  const uint8_t *raw;
  uint32_t raw_len;
} memo_key;

static bool same_key(const void *ctx, uint32_t value) {
  const memo_key *k = ctx;
  const pd_memo_entry *e = &k->m->entries[value - 1];
  return e->key[0] == k->key[0] && e->key[1] == k->key[1] &&
         e->key[2] == k->key[2] && e->raw_len == k->raw_len &&
         (k->raw_len == 0 || memcmp(e->raw, k->raw, k->raw_len) == 0);
}

pd_memo_entry *pd_memo_find(pd_name_memo *m, const uint64_t key[3],
                            const uint8_t *raw, uint32_t raw_len) {
  memo_key k = {m, key, raw, raw_len};
  uint32_t v = wp_table_find(&m->by_key, key_hash(key), same_key, &k);
  return v == 0 ? NULL : &m->entries[v - 1];
}

pd_memo_entry *pd_memo_add(pd_name_memo *m, const uint64_t key[3],
                           const uint8_t *raw, uint32_t raw_len) {
  if (m->count >= UINT32_MAX - 1 ||
      WP_GROW(&m->entries, &m->cap, m->count + 1, WP_TABLE_MAX) != WP_GROW_OK ||
      wp_table_reserve(&m->by_key, m->count + 1) != WP_GROW_OK)
    return NULL;
  const uint8_t *copy = NULL;
  if (raw_len > 0) {
    char *p = pd_text_alloc(&m->text, raw_len);
    if (p == NULL)
      return NULL;
    memcpy(p, raw, raw_len);
    copy = (const uint8_t *)p;
  }
  wp_table_put(&m->by_key, key_hash(key), (uint32_t)m->count + 1);
  pd_memo_entry *e = &m->entries[m->count++];
  memset(e, 0, sizeof *e);
  memcpy(e->key, key, sizeof e->key);
  e->raw = copy;
  e->raw_len = raw_len;
  return e;
}

/* A group's text against the text looked up (case-insensitive). */
typedef struct group_key {
  const pd_name_memo *m;
  const char *text;
} group_key;

static bool same_group(const void *ctx, uint32_t value) {
  const group_key *k = ctx;
  const char *t = k->m->group[value - 1].text;
  return strcmp(t, k->text) == 0 || pd_name_casecmp(t, k->text) == 0;
}

uint32_t pd_memo_group(pd_name_memo *m, const char *text, uint32_t fold_hash) {
  group_key k = {m, text};
  uint32_t g = wp_table_find(&m->group_by_text, fold_hash, same_group, &k);
  if (g != 0)
    return g - 1;
  /* bit 31 of a group is the caller's */
  if (m->groups >= INT32_MAX ||
      WP_GROW(&m->group, &m->group_cap, m->groups + 1, INT32_MAX) !=
          WP_GROW_OK ||
      wp_table_reserve(&m->group_by_text, m->groups + 1) != WP_GROW_OK)
    return UINT32_MAX;
  uint32_t n = (uint32_t)m->groups++;
  wp_table_put(&m->group_by_text, fold_hash, n + 1);
  m->group[n] = (pd_memo_grp){text, fold_hash, 0, 0};
  return n;
}

/* ------------------------------------------------------- own names */

/* Per-instance arrays of a slot, all `count` long. */
static bool slot_arrays(pd_instance_names *n, uint32_t count) {
  return WP_RESIZE(&n->name, count) == WP_GROW_OK &&
         WP_RESIZE(&n->full, count) == WP_GROW_OK &&
         WP_RESIZE(&n->base, count) == WP_GROW_OK &&
         WP_RESIZE(&n->own_has_hash, count) == WP_GROW_OK &&
         WP_RESIZE(&n->prev_own, count) == WP_GROW_OK &&
         WP_RESIZE(&n->prev_parent, count) == WP_GROW_OK &&
         WP_RESIZE(&n->hash, count) == WP_GROW_OK &&
         WP_RESIZE(&n->own_hash, count) == WP_GROW_OK &&
         WP_RESIZE(&n->own_len, count) == WP_GROW_OK &&
         WP_RESIZE(&n->base_entry, count) == WP_GROW_OK &&
         WP_RESIZE(&n->dup_no, count) == WP_GROW_OK &&
         WP_RESIZE(&n->group_of, count) == WP_GROW_OK &&
         WP_RESIZE(&n->changed, count) == WP_GROW_OK;
}

static pd_instance_names *slot_for(pd_snapshot *snap, const pd_object *obj) {
  if (obj < snap->objects || obj >= snap->objects + snap->object_count)
    return NULL;
  uint32_t k = (uint32_t)(obj - snap->objects);
  if (k >= snap->inst_names_cap) {
    uint32_t cap = snap->object_cap;
    if (WP_RESIZE(&snap->inst_names, cap) != WP_GROW_OK)
      return NULL;
    memset(snap->inst_names + snap->inst_names_cap, 0,
           (cap - snap->inst_names_cap) * sizeof *snap->inst_names);
    snap->inst_names_cap = cap;
  }
  pd_instance_names *n = &snap->inst_names[k];
  uint32_t count = obj->instance_count;
  if (count > n->cap) {
    if (!slot_arrays(n, count))
      return NULL;
    n->cap = count;
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
static bool signature_same(const pd_instance_names *n, const pd_snapshot *snap,
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
static bool signature_store(pd_instance_names *n, const pd_snapshot *snap,
                            const pd_object *obj) {
  size_t at = 0;
  for (uint32_t i = 0; i < obj->instance_count; i++) {
    const pd_instance *in = &obj->instances[i];
    uint64_t head[2];
    sig_head(in, head);
    size_t need = sizeof head + in->name_bytes;
    if (wp_grow_bytes(&n->sig, &n->sig_cap, at + need, WP_GROW_NO_CAP) !=
        WP_GROW_OK)
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
static bool same_as_built(pd_instance_names *n, const pd_snapshot *snap,
                          const pd_object *obj) {
  return n->own_built && n->object_index == obj->name_index &&
         n->count == obj->instance_count && n->code_page == obj->code_page &&
         n->num_instances == obj->num_instances &&
         n->big_endian == snap->bytes.big_endian &&
         signature_same(n, snap, obj);
}

/* Instance in's own name from the memo, converted and added when new. */
static const pd_memo_entry *own_entry(pd_snapshot *snap, pd_instance_names *n,
                                      const pd_object *obj,
                                      const pd_instance *in) {
  const uint8_t *raw = snap->bytes.data + in->name_offset;
  uint32_t len = in->name_bytes;
  /* Unnamed: the unique id (format.md 1.4), flagged apart from any bytes. */
  uint64_t key[3] = {len ? wp_hash_bytes(raw, len) : 0, len,
                     len ? 0 : (uint64_t)(uint32_t)in->unique_id | 1ull << 32};
  pd_memo_entry *e = pd_memo_find(&n->own_memo, key, raw, len);
  if (e != NULL)
    return e;
  const char *text = convert_name(snap, &n->own_memo.text, obj, in);
  if (text == NULL || (e = pd_memo_add(&n->own_memo, key, raw, len)) == NULL)
    return NULL;
  e->text = text;
  e->len = (uint32_t)strlen(text);
  e->fold_hash = pd_hash_folded(text);
  e->has_hash = strchr(text, '#') != NULL;
  return e;
}

pd_instance_names *pd_own_names(pd_snapshot *snap, const pd_object *obj) {
  pd_instance_names *n = pd_instance_names_cached(snap, obj, false);
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
    n->epoch = ++snap->inst_names_epoch;
    pd_memo_end(&n->own_memo, obj->instance_count);
    n->own_built = true;
  }
  n->own_generation = snap->generation;
  PD_CHECK(pd_check_own_names(snap, obj, n));
  return n;
}

const char *pd_instance_name(pd_snapshot *snap, const pd_object *obj,
                             uint32_t inst) {
  if (inst >= obj->instance_count)
    return NULL;
  pd_instance_names *n = pd_own_names(snap, obj);
  return n ? n->name[inst] : NULL;
}

/* ------------------------------------- two samples named alike */

/* Own names alike: raw bytes, ids, parent references and the way they are
 * decoded. Each snapshot's signature already holds what its own names were
 * checked against in this decode, so one comparison of the two does it. */
bool pd_same_own_names(pd_snapshot *a, const pd_object *oa, pd_snapshot *b,
                       const pd_object *ob) {
  if (oa->instance_count != ob->instance_count ||
      oa->num_instances != ob->num_instances ||
      oa->code_page != ob->code_page ||
      a->bytes.big_endian != b->bytes.big_endian)
    return false;
  const pd_instance_names *na = pd_own_names(a, oa), *nb = pd_own_names(b, ob);
  bool same = na != NULL && nb != NULL && na->sig_len == nb->sig_len &&
              (na->sig_len == 0 || memcmp(na->sig, nb->sig, na->sig_len) == 0);
  if (same)
    PD_CHECK(pd_check_same_names(a, oa, b, ob, false));
  return same;
}

/* Whether parent object `index` names its instances alike in a and b
 * (out of line: the loop below runs per instance, this per parent). */
static __attribute__((noinline)) bool
same_parent_object(pd_snapshot *a, pd_snapshot *b, uint32_t index) {
  const pd_object *pa = pd_object_by_index(a, index),
                  *pb = pd_object_by_index(b, index);
  return (pa == NULL) == (pb == NULL) &&
         (pa == NULL || pd_same_own_names(a, pa, b, pb));
}

bool pd_instances_same_names(pd_snapshot *a, const pd_object *oa,
                             pd_snapshot *b, const pd_object *ob) {
  if (!pd_same_own_names(a, oa, b, ob)) /* parent references too */
    return false;
  uint32_t checked = 0; /* the parent object compared last */
  int switches = 0;     /* bounded: a blob alternating parents is unsure */
  for (uint32_t i = 0; i < oa->instance_count; i++) {
    uint32_t parent = oa->instances[i].parent_object;
    if (parent == 0 || parent == checked)
      continue;
    if (++switches > 4 || !same_parent_object(a, b, parent))
      return false;
    checked = parent;
  }
  PD_CHECK(pd_check_same_names(a, oa, b, ob, true));
  return true;
}
