/* collectd-winperf: the snapshot's private layout, shared by decode.c,
 * instance_names.c and sample.c.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef PD_SNAPSHOT_H
#define PD_SNAPSHOT_H

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
typedef struct pd_object_names {
  uint32_t own_generation;  /* name[] checked for this decode when == the
                             * snapshot's generation */
  uint32_t full_generation; /* full[], the hash chains: likewise */
  /* What name[] was built from (compared at the next decode). */
  bool own_built;
  uint32_t object_index, count, code_page;
  int32_t num_instances;
  bool big_endian;
  uint8_t *sig; /* per instance: name_bytes, unique_id, parent refs, bytes */
  size_t sig_len, sig_cap;
  uint32_t epoch; /* snapshot-unique number of this build of name[] */
  pd_text_arena own_text;
  /* What full[] was built from: this slot's and the parents' epochs. */
  bool full_built;
  uint32_t full_epoch;
  int parents; /* -1: too many to track */
  uint32_t parent_index[PD_NAME_PARENTS_MAX], parent_epoch[PD_NAME_PARENTS_MAX];
  pd_text_arena full_text;
  uint32_t cap;          /* capacity of the arrays below (instances) */
  const char **name;     /* own name, UTF-8 */
  uint32_t *own_len;     /* strlen of name[i] */
  uint32_t *own_hash;    /* pd_hash_folded of name[i] */
  uint8_t *own_has_hash; /* name[i] has a '#' */
  const char **full;     /* PDH full name: parent/name#n */
  const char **base;     /* full name without "#n": parent/name */
  uint32_t *hash;        /* folded hash of full[i] */
  uint32_t *next;        /* hash chain, UINT32_MAX ends */
  uint32_t *dup;         /* duplicates seen so far (group heads) */
  uint32_t *bucket;      /* bucket heads */
  uint32_t bucket_cap;   /* power of two */
  bool distinct;         /* no base name has a '#': every full name is unique */
} pd_object_names;

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

  pd_object_names *names; /* one per object slot, reused across decodes */
  uint32_t names_cap;
  uint32_t names_epoch; /* last pd_object_names.epoch handed out */

  pd_text_arena text; /* the system name; reset per decode */
};

/* Folded (case-insensitive) hash of a UTF-8 string. */
uint32_t pd_hash_folded(const char *s);

/* True when obj of a and ob of b name their instances alike, position by
 * position: the same raw name bytes, unique ids, code page and parent
 * references, and the parent objects' instances named alike too. Their
 * full names are then equal position by position (no conversion needed
 * to know it). False when unsure or out of memory (own names are built
 * to compare them). */
bool pd_instances_same_names(pd_snapshot *a, const pd_object *oa,
                             pd_snapshot *b, const pd_object *ob);

/* Builds obj's full names: false only when out of memory (after it,
 * pd_find_instance's -1 means only "no such instance"). */
bool pd_full_names_built(pd_snapshot *snap, const pd_object *obj);

/* pd_find_instance of a name whose pd_hash_folded is h (known already:
 * pd_object_names.hash of another sample's instance). */
int64_t pd_find_instance_hashed(pd_snapshot *snap, const pd_object *obj,
                                const char *full_name, uint32_t h);

/* obj's names (own, full and base, per instance; full names built), for
 * a caller that reads many: NULL only when out of memory. */
const pd_object_names *pd_object_full_names(pd_snapshot *snap,
                                            const pd_object *obj);

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
