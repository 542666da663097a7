/* collectd-winperf: which process or thread an instance is, and pairing
 * instances across samples by it (format.md 1.4, "Pairing").
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * PDH pairs instances of two samples by full name ("w3wp#1"). When w3wp#1
 * exits, Windows renumbers w3wp#2 to w3wp#1 and PDH computes a rate from
 * two different processes. Objects that carry "ID Process" (Process, and
 * with "ID Thread" Thread, or any object with those counters) are paired
 * here by that id instead: a renumbered instance keeps its own previous
 * sample, a new id is a first sample, and a reused id whose base name
 * (the full name without "#n") differs is a new process. _Total, id 0
 * (Idle, _Total, idle threads) and an id that occurs twice within one
 * sample pair by full name, as does every object without such counters.
 * Owned by the selection; the tables are reused, so a warm evaluation
 * allocates nothing.
 */
#ifndef PD_IDENTITY_H
#define PD_IDENTITY_H

#include "snapshot.h"

enum { PD_ID_PROCESS, PD_ID_THREAD, PD_ID_KINDS };

/* Pairing results, per instance of the newer sample. */
enum {
  PD_PAIR_UNKNOWN = -1, /* not looked up yet */
  PD_PAIR_NONE = -2,    /* no older sample: first sample */
  PD_PAIR_BY_NAME = -3, /* look it up by full name */
};

typedef struct pd_id_indices {
  const uint32_t *index; /* names-owned, or the standard index */
  size_t count;
} pd_id_indices;

/* One sample's keys of one object: open addressing on (pid, tid). */
typedef struct pd_id_table {
  uint64_t *pid, *tid;
  int32_t *pos; /* instance position; PD_ID_SLOT_EMPTY or _DUPLICATE */
  uint32_t cap; /* power of two */
} pd_id_table;

/* One object's pairing by id, kept for the next evaluation: when the
 * sample it was computed for (as the newer one) is the older one now, and
 * both samples named their instances alike and gave them the same ids, as
 * did the two samples then, the pairing is the same again. */
typedef struct pd_pair_memo {
  uint64_t decode_id; /* the newer sample's decode; 0: none kept */
  uint32_t object_index, count;
  uint32_t obj_pos; /* the object's position in that sample */
  bool stable;      /* the two samples had the same names and ids */
  int32_t *pair;
  size_t cap;
} pd_pair_memo;

enum { PD_PAIR_MEMOS = 4 };

typedef struct pd_identity {
  pd_pair_by pair_by; /* the selection's; a path may have its own */
  /* Counter name indices carrying each id (names table, else standard). */
  pd_id_indices ids[PD_ID_KINDS];
  /* Per object of the newer sample, the positions of its id counters:
   * -1 until first looked at in this evaluation, -2 when it has none. */
  int32_t *pos;
  size_t pos_cap;
  pd_id_table older, newer;
  /* Per instance of the newer sample (by position in the snapshot), for
   * each pd_pair_by: the older sample's position, PD_PAIR_UNKNOWN,
   * PD_PAIR_NONE or PD_PAIR_BY_NAME; reset on first use per evaluation. */
  int32_t *pair[2];
  size_t pair_cap[2];
  bool pair_ready[2];
  /* Per instance of the newer sample: whether it is known by its id
   * (KEYED_*, identity.c); reset on first use per evaluation. */
  int8_t *keyed;
  size_t keyed_cap;
  bool keyed_ready;
  /* Per object of the newer sample and pd_pair_by: every PD_PAIR_BY_NAME
   * of its pairing resolved in this evaluation (1) or not yet (0). */
  uint8_t *resolved;
  size_t resolved_cap;
  pd_pair_memo memo[PD_PAIR_MEMOS]; /* by object index */
  unsigned memo_next;               /* the one replaced next */
  uint32_t instances;               /* the newer sample's instance count */
} pd_identity;

void pd_identity_free(pd_identity *id);
/* Which counter indices carry the ids (after the names table changed). */
void pd_identity_resolve(pd_identity *id, const pd_names *names);
/* Start an evaluation of a sample with `objects` objects and `instances`
 * instances in all. */
bool pd_identity_begin(pd_identity *id, uint32_t objects, uint32_t instances);

/* Positions in obj (position obj_pos of the newer sample) of its ID
 * Process and ID Thread counters, -2 for none: once per object. */
void pd_identity_positions(pd_identity *id, const pd_object *obj,
                           uint32_t obj_pos, int32_t pos[PD_ID_KINDS]);

/* The instance's pid and tid, when its object has those counters (pos from
 * pd_identity_positions). */
void pd_identity_of(const int32_t pos[PD_ID_KINDS], const pd_snapshot *snap,
                    const pd_object *obj, const pd_instance *inst,
                    bool *has_pid, uint64_t *pid, bool *has_tid, uint64_t *tid);

/* The pairing of obj's instances (obj at position obj_pos in newer) with
 * old's in older under pair_by: *pair gets the object's array, pair[i] for
 * instance i an older position, PD_PAIR_NONE (a first sample) or
 * PD_PAIR_BY_NAME (resolve with pd_identity_by_name). The whole object is
 * paired on first use in an evaluation, so every path shares one pairing. */
pd_status pd_identity_pairs(pd_identity *id, pd_pair_by pair_by,
                            pd_snapshot *older, const pd_object *old,
                            pd_snapshot *newer, const pd_object *obj,
                            uint32_t obj_pos, int32_t **pair, pd_error *err);

/* A PD_PAIR_BY_NAME entry resolved in place: the position of old's
 * first instance (blob order) with the full name of newer's instance i
 * (names: newer's object's, pd_object_full_names), or PD_PAIR_NONE. */
pd_status pd_identity_by_name(pd_snapshot *older, const pd_object *old,
                              const pd_object_names *names, uint32_t i,
                              int32_t *pair, pd_error *err);

/* pd_identity_pairs, then every PD_PAIR_BY_NAME of the object resolved
 * (pd_identity_by_name; names: newer's object's), once per evaluation: the
 * pairing then only read, for a pass over every instance. */
pd_status pd_identity_pairs_resolved(pd_identity *id, pd_pair_by pair_by,
                                     pd_snapshot *older, const pd_object *old,
                                     pd_snapshot *newer, const pd_object *obj,
                                     uint32_t obj_pos,
                                     const pd_object_names *names,
                                     int32_t **pair, pd_error *err);

/* The name instance i of obj (position obj_pos in newer) goes by when it
 * is known by its id (InstanceNames "pid"), into *base: its own name, or
 * for a thread (ID Thread and a parent instance) its process's own name;
 * never with "#n". NULL when it pairs by full name: _Total, id 0, an id
 * twice in this sample, no ID Process counter. The object is looked at
 * once per evaluation. */
pd_status pd_identity_base(pd_identity *id, pd_snapshot *newer,
                           const pd_object *obj, uint32_t obj_pos, uint32_t i,
                           const char **base, pd_error *err);

/* Pair every instance of `obj` (position obj_pos in newer) with `old` in
 * older: pair[i] for i < obj->instance_count gets an older position,
 * PD_PAIR_NONE or PD_PAIR_BY_NAME. Returns PD_OK without touching pair
 * when the object has no ID Process counter or pair_by is by name. */
pd_status pd_identity_pair(pd_identity *id, pd_pair_by pair_by,
                           pd_snapshot *older, const pd_object *old,
                           pd_snapshot *newer, const pd_object *obj,
                           uint32_t obj_pos, int32_t *pair, bool *paired,
                           pd_error *err);

/* Pair every instance of obj by full name, the whole object once:
 * pair[i] = i when older names its instances as newer does, position by
 * position, and newer's full names are distinct (nothing built or looked
 * up); else PD_PAIR_BY_NAME, to look up when needed. */
pd_status pd_identity_pair_by_name(pd_snapshot *older, const pd_object *old,
                                   pd_snapshot *newer, const pd_object *obj,
                                   int32_t *pair, pd_error *err);

/* The older object's definition of the same counter as def (position pos
 * in the newer object): the same position when the layout is unchanged,
 * else the first with the same index and type; *old_pos gets where. */
const pd_counter_def *pd_older_counter(const pd_object *old,
                                       const pd_counter_def *def, uint32_t pos,
                                       uint32_t *old_pos);

#endif
