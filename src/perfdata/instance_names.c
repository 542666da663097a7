/* collectd-winperf: instance names as PDH shows them (format.md 1.4).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Names are converted to UTF-8 only for objects someone asks about, once
 * per decode, into the snapshot's arena. Full names ("parent/name#n") get a
 * case-insensitive hash index so instances pair across samples in O(1).
 */
#include "snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHAIN_END UINT32_MAX

#define FNV_START 2166136261u

/* FNV-1a over folded code points, from h on (FNV_START for a whole
 * string: pd_hash_folded), also telling whether s has a '#'. Continuing a
 * prefix's hash over the rest gives the whole string's. */
static inline uint32_t hash_from(uint32_t h, const char *s, bool *has_hash) {
  /* ASCII as pd_next_folded folds it, inline: names are mostly ASCII. */
  for (unsigned char c; (c = (unsigned char)*s) != '\0' && c < 0x80; s++) {
    *has_hash |= c == '#';
    h = (h ^ (c >= 'A' && c <= 'Z' ? c + 32u : c)) * 16777619u;
  }
  while (*s != '\0') {
    *has_hash |= *s == '#';
    uint32_t cp = pd_next_folded(&s);
    h = (h ^ (cp & 0xFFu)) * 16777619u;
    if (cp > 0xFF)
      h = (h ^ (cp >> 8)) * 16777619u;
  }
  return h;
}

/* Case-insensitively equal; the same bytes, the usual case, first. */
static inline bool same_name(const char *a, const char *b) {
  return strcmp(a, b) == 0 || pd_name_casecmp(a, b) == 0;
}

uint32_t pd_hash_folded(const char *s) {
  bool has_hash = false;
  return hash_from(FNV_START, s, &has_hash);
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
    if (!grow_u32(&n->hash, count) || !grow_u32(&n->next, count) ||
        !grow_u32(&n->dup, count) || !grow_u32(&n->own_hash, count) ||
        !grow_u32(&n->own_len, count))
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

/* The object's cache entry when it is already valid for this decode. */
static pd_object_names *cached(pd_snapshot *snap, const pd_object *obj,
                               bool full) {
  size_t k = (size_t)(obj - snap->objects);
  if (obj < snap->objects || k >= snap->names_cap)
    return NULL;
  pd_object_names *n = &snap->names[k];
  uint32_t gen = full ? n->full_generation : n->own_generation;
  return gen == snap->generation ? n : NULL;
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

static pd_object_names *own_names(pd_snapshot *snap, const pd_object *obj) {
  pd_object_names *n = cached(snap, obj, false);
  if (n != NULL)
    return n;
  if ((n = slot_for(snap, obj)) == NULL)
    return NULL;
  if (!same_as_built(n, snap, obj)) {
    n->own_built = n->full_built = false;
    pd_text_reset(&n->own_text);
    for (uint32_t i = 0; i < obj->instance_count; i++) {
      n->name[i] = convert_name(snap, &n->own_text, obj, &obj->instances[i]);
      if (n->name[i] == NULL)
        return NULL;
      bool has_hash = false;
      n->own_len[i] = (uint32_t)strlen(n->name[i]);
      n->own_hash[i] = hash_from(FNV_START, n->name[i], &has_hash);
      n->own_has_hash[i] = has_hash;
    }
    if (!signature_store(n, snap, obj))
      return NULL;
    n->object_index = obj->name_index;
    n->count = obj->instance_count;
    n->code_page = obj->code_page;
    n->num_instances = obj->num_instances;
    n->big_endian = snap->bytes.big_endian;
    n->epoch = ++snap->names_epoch;
    n->own_built = true;
  }
  n->own_generation = snap->generation;
  return n;
}

/* parent "/" name: the parent is instance ParentObjectInstance of the
 * object whose index is ParentObjectTitleIndex (format.md 1.4). A reference to
 * a missing parent leaves the plain name. */
typedef struct parent_cache {
  uint32_t index; /* ParentObjectTitleIndex looked up last */
  const pd_object *object;
  pd_object_names *names;
} parent_cache;

/* Note parent object `index` (its names' epoch, 0 when absent) as one
 * the full names of n depend on. */
static void note_parent(pd_object_names *n, uint32_t index, uint32_t epoch) {
  for (int i = 0; i < n->parents; i++)
    if (n->parent_index[i] == index)
      return;
  if (n->parents < 0 || n->parents == PD_NAME_PARENTS_MAX) {
    n->parents = -1;
    return;
  }
  n->parent_index[n->parents] = index;
  n->parent_epoch[n->parents++] = epoch;
}

/* Instance i's base name, and into *h its folded hash (continued from
 * its parent's own name's: the own names' hashes are kept), *has_hash set
 * when it has a '#'. */
static const char *base_name(pd_snapshot *snap, pd_object_names *n,
                             const pd_instance *in, uint32_t i,
                             parent_cache *pc, uint32_t *h, bool *has_hash) {
  const char *own = n->name[i];
  *h = n->own_hash[i];
  *has_hash |= n->own_has_hash[i];
  if (in->parent_object == 0)
    return own;
  if (in->parent_object != pc->index) { /* usually one parent object */
    pc->index = in->parent_object;
    pc->object = pd_snapshot_find_object(snap, in->parent_object);
    pc->names = pc->object ? own_names(snap, pc->object) : NULL;
    if (pc->object != NULL && pc->names == NULL)
      return NULL;
    note_parent(n, pc->index, pc->names ? pc->names->epoch : 0);
  }
  if (pc->object == NULL || in->parent_instance >= pc->object->instance_count)
    return own;
  const char *pname = pc->names->name[in->parent_instance];
  *has_hash |= pc->names->own_has_hash[in->parent_instance];
  *h = hash_from((pc->names->own_hash[in->parent_instance] ^ '/') * 16777619u,
                 own, has_hash);
  size_t a = pc->names->own_len[in->parent_instance], b = n->own_len[i];
  char *s = pd_text_alloc(&n->full_text, a + 1 + b + 1);
  if (s == NULL)
    return NULL;
  memcpy(s, pname, a);
  s[a] = '/';
  memcpy(s + a + 1, own, b + 1);
  return s;
}

/* Whether full[] and the chains were built from the same own names and
 * parents' names as this decode has: they are still right then. */
static bool full_still_right(pd_snapshot *snap, pd_object_names *n) {
  if (!n->full_built || n->full_epoch != n->epoch || n->parents < 0)
    return false;
  for (int i = 0; i < n->parents; i++) {
    const pd_object *p = pd_snapshot_find_object(snap, n->parent_index[i]);
    pd_object_names *pn = p ? own_names(snap, p) : NULL;
    if ((p != NULL && pn == NULL) || (pn ? pn->epoch : 0) != n->parent_epoch[i])
      return false;
  }
  return true;
}

static pd_object_names *full_names(pd_snapshot *snap, const pd_object *obj) {
  pd_object_names *n = cached(snap, obj, true);
  if (n != NULL)
    return n;
  if ((n = own_names(snap, obj)) == NULL)
    return NULL;
  if (full_still_right(snap, n)) {
    n->full_generation = snap->generation;
    return n;
  }
  n->full_built = false;
  n->parents = 0;
  pd_text_reset(&n->full_text);
  uint32_t mask = n->bucket_cap - 1, count = obj->instance_count;

  /* Pass 1: base names, and PDH's "#n" for case-insensitive duplicates in
   * blob order (first keeps the plain name). Only a group's first instance
   * enters the table; dup[] counts its followers. */
  memset(n->bucket, 0xFF, n->bucket_cap * sizeof(uint32_t));
  parent_cache pc = {0, NULL, NULL};
  bool has_hash = false;
  for (uint32_t i = 0; i < count; i++) {
    uint32_t h;
    const char *base =
        base_name(snap, n, &obj->instances[i], i, &pc, &h, &has_hash);
    if (base == NULL)
      return NULL;
    uint32_t j = n->bucket[h & mask];
    while (j != CHAIN_END && (n->hash[j] != h || !same_name(n->full[j], base)))
      j = n->next[j];
    n->hash[i] = h;
    n->dup[i] = 0;
    n->base[i] = base;
    if (j == CHAIN_END) {
      n->full[i] = base;
      n->next[i] = n->bucket[h & mask];
      n->bucket[h & mask] = i;
      continue;
    }
    uint32_t dup = ++n->dup[j];
    char digits[10];
    size_t nd = 0, len = strlen(base);
    do
      digits[nd++] = (char)('0' + dup % 10);
    while ((dup /= 10) > 0);
    char *s = pd_text_alloc(&n->full_text, len + 1 + nd + 1);
    if (s == NULL)
      return NULL;
    memcpy(s, base, len);
    s[len] = '#';
    for (size_t d = 0; d < nd; d++)
      s[len + 1 + d] = digits[nd - 1 - d];
    s[len + 1 + nd] = '\0';
    n->full[i] = s;
    bool suffix_hash = false; /* s is base "#" digits: continue base's */
    n->hash[i] = hash_from(h, s + len, &suffix_hash); /* never in pass 1's
                                                       * chains */
  }

  /* Pass 2: index every full name for pd_find_instance. */
  memset(n->bucket, 0xFF, n->bucket_cap * sizeof(uint32_t));
  for (uint32_t i = count; i-- > 0;) {
    uint32_t h = n->hash[i];
    n->next[i] = n->bucket[h & mask];
    n->bucket[h & mask] = i;
  }
  /* Without a '#' in any base name, "base#n" splits one way only, and the
   * numbering makes every (base, n) unique. */
  n->distinct = !has_hash;
  n->full_epoch = n->epoch;
  n->full_built = true;
  n->full_generation = snap->generation;
  return n;
}

const pd_object_names *pd_object_full_names(pd_snapshot *snap,
                                            const pd_object *obj) {
  return full_names(snap, obj);
}

int pd_instance_names_distinct(pd_snapshot *snap, const pd_object *obj) {
  if (obj->instance_count == 0)
    return 1;
  pd_object_names *n = full_names(snap, obj);
  return n == NULL ? -1 : n->distinct;
}

/* Own names alike: raw bytes, ids, parent references and the way they are
 * decoded. Each snapshot's signature already holds what its own names were
 * checked against in this decode, so one comparison of the two does it. */
static bool same_own(pd_snapshot *a, const pd_object *oa, pd_snapshot *b,
                     const pd_object *ob) {
  if (oa->instance_count != ob->instance_count ||
      oa->num_instances != ob->num_instances ||
      oa->code_page != ob->code_page ||
      a->bytes.big_endian != b->bytes.big_endian)
    return false;
  const pd_object_names *na = own_names(a, oa), *nb = own_names(b, ob);
  return na != NULL && nb != NULL && na->sig_len == nb->sig_len &&
         (na->sig_len == 0 || memcmp(na->sig, nb->sig, na->sig_len) == 0);
}

bool pd_instances_same_names(pd_snapshot *a, const pd_object *oa,
                             pd_snapshot *b, const pd_object *ob) {
  if (!same_own(a, oa, b, ob)) /* parent references too */
    return false;
  uint32_t checked = 0; /* the parent object compared last */
  int switches = 0;     /* bounded: a blob alternating parents is unsure */
  for (uint32_t i = 0; i < oa->instance_count; i++) {
    uint32_t parent = oa->instances[i].parent_object;
    if (parent == 0 || parent == checked)
      continue;
    if (++switches > 4)
      return false;
    const pd_object *pa = pd_snapshot_find_object(a, parent),
                    *pb = pd_snapshot_find_object(b, parent);
    if ((pa == NULL) != (pb == NULL) || (pa != NULL && !same_own(a, pa, b, pb)))
      return false;
    checked = parent;
  }
  return true;
}

const char *pd_instance_name(pd_snapshot *snap, const pd_object *obj,
                             uint32_t inst) {
  if (inst >= obj->instance_count)
    return NULL;
  pd_object_names *n = own_names(snap, obj);
  return n ? n->name[inst] : NULL;
}

const char *pd_instance_full_name(pd_snapshot *snap, const pd_object *obj,
                                  uint32_t inst) {
  if (inst >= obj->instance_count)
    return NULL;
  pd_object_names *n = full_names(snap, obj);
  return n ? n->full[inst] : NULL;
}

const char *pd_instance_base_name(pd_snapshot *snap, const pd_object *obj,
                                  uint32_t inst) {
  if (inst >= obj->instance_count)
    return NULL;
  pd_object_names *n = full_names(snap, obj);
  return n ? n->base[inst] : NULL;
}

int64_t pd_find_instance(pd_snapshot *snap, const pd_object *obj,
                         const char *full_name) {
  return pd_find_instance_hashed(snap, obj, full_name,
                                 pd_hash_folded(full_name));
}

int64_t pd_find_instance_hashed(pd_snapshot *snap, const pd_object *obj,
                                const char *full_name, uint32_t h) {
  pd_object_names *n = full_names(snap, obj);
  if (n == NULL || obj->instance_count == 0)
    return -1;
  /* Chains were built from the last instance backwards, so the first match
   * in blob order comes first. */
  for (uint32_t j = n->bucket[h & (n->bucket_cap - 1)]; j != CHAIN_END;
       j = n->next[j])
    if (n->hash[j] == h && same_name(n->full[j], full_name))
      return j;
  return -1;
}

/* pd_find_instance answers -1 both for "no such instance" and when the
 * object's full names could not be built (out of memory); building them
 * first leaves -1 meaning only the former, so an allocation failure is an
 * error and not an instance silently missing or unpaired. */
bool pd_full_names_built(pd_snapshot *snap, const pd_object *obj) {
  return obj->instance_count == 0 ||
         pd_instance_full_name(snap, obj, 0) != NULL;
}
