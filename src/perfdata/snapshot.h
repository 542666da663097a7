/* collectd-winperf: the snapshot's private layout, shared by decode.c
 * (the structure and the values), instance_names.c and full_names.c (the
 * instances' names, kept per object across decodes).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef PD_SNAPSHOT_H
#define PD_SNAPSHOT_H

#include "name_memo.h"
#include "pd_internal.h"
#include "text_arena.h"

/* Parent objects a full-names build looked at, with the epoch of their
 * own names then; more than this many parents: rebuilt every decode. */
enum { PD_NAME_PARENTS_MAX = 4 };

/* Per-object instance names, built on first use after a decode and kept
 * across decodes while the instances are named alike (format.md 1.4 names
 * depend only on the raw name bytes, unique ids, code page, byte order and
 * parent references, and the parents' names): a steady host converts no
 * name twice. The slot is that of the object's position in the snapshot. */
/* A row of what a full-names build made for an instance: its own and
 * parent names' pointers, base entry and group, "#n", full name's hash,
 * base and full name (full_names.c reads the last build's rows). */
typedef struct pd_name_row {
  uint32_t pos; /* the row's position */
  uint32_t base_entry, group, dup, hash;
  const char *own, *parent, *base, *full;
} pd_name_row;

typedef struct pd_instance_names {
  uint32_t own_generation;  /* name[] checked for this decode when == the
                             * snapshot's generation */
  uint32_t full_generation; /* full[], the index: likewise */
  /* What name[] was built from (compared at the next decode). */
  bool own_built;
  uint32_t object_index, count, code_page;
  int32_t num_instances;
  bool big_endian;
  uint8_t *sig; /* per instance: name_bytes, unique_id, parent refs, bytes */
  size_t sig_len, sig_cap;
  uint32_t epoch; /* snapshot-unique number of this build of name[] */
  /* Own names by raw bytes, for code_page and byte order as noted. */
  pd_name_memo own_memo;
  uint32_t memo_code_page;
  bool memo_big_endian;
  /* What full[] was built from: this slot's and the parents' epochs. */
  bool full_built;
  uint32_t full_epoch;
  int parents; /* -1: too many to track */
  uint32_t parent_index[PD_NAME_PARENTS_MAX], parent_epoch[PD_NAME_PARENTS_MAX];
  /* Base names by (parent's own name, own name), "base#n" by (base, n);
   * each cleared when what its keys point into was. */
  pd_name_memo base_memo, dup_memo;
  uint32_t base_own_epoch, dup_base_epoch;
  /* What the last full build made per instance, for the next one to keep
   * where an instance's inputs are the same pointers (valid while no memo
   * of the snapshot was cleared: reuse_epochs == the snapshot's). */
  uint32_t prev_count, reuse_epochs;
  const char **prev_own, **prev_parent; /* own name, parent's (or NULL) */
  uint32_t *base_entry;                 /* base_memo entry of base[i] */
  uint32_t *dup_no;                     /* the n of full[i], 0 plain */
  uint32_t *group_of; /* base's group, bit 31: base has a '#' */
  uint64_t *changed;  /* instances whose full name pass 1 set anew: the
                       * instance, and its old full name's hash << 32 */
  uint32_t changed_count;
  uint32_t index_count;  /* the instances the index was built for */
  uint32_t cap;          /* capacity of the arrays below (instances) */
  const char **name;     /* own name, UTF-8 */
  uint32_t *own_len;     /* strlen of name[i] */
  uint32_t *own_hash;    /* pd_hash_folded of name[i] */
  uint8_t *own_has_hash; /* name[i] has a '#' */
  const char **full;     /* PDH full name: parent/name#n */
  const char **base;     /* full name without "#n": parent/name */
  uint32_t *hash;        /* pd_hash_folded of full[i] */
  wp_table index;        /* instance + 1 by hash[]: pd_find_instance */
  bool distinct;         /* no base name has a '#': every full name is unique */
} pd_instance_names;

struct pd_snapshot {
  wire_bytes bytes;
  pd_header header;
  uint32_t generation; /* bumped by every decode: invalidates name caches */
  uint64_t decode_id;  /* every decode's own, unique in the process */

  pd_object *objects;
  uint32_t object_count, object_cap;
  size_t *object_first_counter;  /* index into counters[] */
  size_t *object_first_instance; /* index into instances[] */

  pd_counter_def *counters;
  size_t counter_count, counter_cap;
  pd_instance *instances;
  size_t instance_count, instance_cap;

  pd_instance_names *inst_names; /* one per object slot, kept across decodes */
  uint32_t inst_names_cap;
  uint32_t inst_names_epoch; /* last pd_instance_names.epoch handed out */
  uint32_t memo_epochs;      /* last name memo epoch handed out */

  pd_text_arena text; /* the system name; reset per decode */
};

/* The first object of snap whose ObjectNameTitleIndex is `index`, or NULL:
 * pd_snapshot_find_object, inline for the parser's own files. */
static inline const pd_object *pd_object_by_index(const pd_snapshot *snap,
                                                  uint32_t index) {
  for (uint32_t i = 0; i < snap->object_count; i++)
    if (snap->objects[i].name_index == index)
      return &snap->objects[i];
  return NULL;
}

/* obj's own names (name[], own_len[], own_hash[], own_has_hash[]) for this
 * decode, built when needed; NULL only when out of memory. */
pd_instance_names *pd_own_names(pd_snapshot *snap, const pd_object *obj);
/* obj's slot when its own (full: false) or full names are already built
 * for this decode, else NULL (inline: every name lookup asks first). */
static inline pd_instance_names *
pd_instance_names_cached(pd_snapshot *snap, const pd_object *obj, bool full) {
  size_t k = (size_t)(obj - snap->objects);
  if (obj < snap->objects || k >= snap->inst_names_cap)
    return NULL;
  pd_instance_names *n = &snap->inst_names[k];
  uint32_t gen = full ? n->full_generation : n->own_generation;
  return gen == snap->generation ? n : NULL;
}

/* True when obj of a and ob of b name their instances alike, position by
 * position: the same raw name bytes, unique ids, code page and parent
 * references, and the parent objects' instances named alike too. Their
 * full names are then equal position by position (no conversion needed
 * to know it). False when unsure or out of memory (own names are built
 * to compare them). */
bool pd_instances_same_names(pd_snapshot *a, const pd_object *oa,
                             pd_snapshot *b, const pd_object *ob);
/* The same for the own names alone (parent references compared, not the
 * parents' names). */
bool pd_same_own_names(pd_snapshot *a, const pd_object *oa, pd_snapshot *b,
                       const pd_object *ob);

/* pd_find_instance of a name whose pd_hash_folded is h (known already:
 * pd_instance_names.hash of another sample's instance). */
int64_t pd_find_instance_hashed(pd_snapshot *snap, const pd_object *obj,
                                const char *full_name, uint32_t h);

/* obj's instance names (own, full and base, per instance; full names
 * built), for a caller that reads many: NULL only when out of memory. */
const pd_instance_names *pd_full_names(pd_snapshot *snap, const pd_object *obj);

/* 1 when obj's full names are all distinct (an instance is then the first
 * of its full name), 0 when not known to be, -1 out of memory. */
int pd_instance_names_distinct(pd_snapshot *snap, const pd_object *obj);

/* The clocks of a sample of obj (the header's and the object's), value and
 * base zero: filled per counter by pd_sample_read. */
void pd_sample_clocks(const pd_snapshot *snap, const pd_object *obj,
                      pd_sample *s);
/* Counter c of obj in inst into s (pd_snapshot_sample; without the base
 * when the type has none, the common case, inline: it runs per value). */
static inline void pd_sample_read(const pd_snapshot *snap, const pd_object *obj,
                                  const pd_instance *inst, uint32_t c,
                                  bool needs_base, pd_sample *s) {
  if (needs_base) {
    pd_snapshot_sample(snap, obj, inst, c, s);
    return;
  }
  s->value = pd_counter_raw(snap, inst, &obj->counters[c]);
  s->base = 0;
  s->has_base = false;
}

#endif
