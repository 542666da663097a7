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

/* An instance's ids, where its object has those counters. */
typedef struct pd_ids {
  bool has_pid, has_tid;
  uint64_t pid, tid;
} pd_ids;

/* One sample's instances of one object by (pid, tid): per instance its
 * ids, their hash and whether it pairs by them, and the index of those
 * that do (instance + 1, wp_table.h). */
enum { PD_ID_UNUSABLE, PD_ID_UNIQUE, PD_ID_DUPLICATE };
typedef struct pd_id_entry {
  uint64_t pid, tid;
  uint32_t hash;
  uint8_t state; /* PD_ID_*: _Total or an id 0, once, twice or more */
} pd_id_entry;
typedef struct pd_id_table {
  pd_id_entry *entry; /* per instance */
  size_t cap;
  wp_table index;
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

/* What pairing one object looks at: its older sample (old NULL: none),
 * its newer one (obj, at position obj_pos of newer) and the way. */
typedef struct pd_pair_query {
  pd_snapshot *older;
  const pd_object *old;
  pd_snapshot *newer;
  const pd_object *obj;
  uint32_t obj_pos;
  pd_pair_by pair_by;
} pd_pair_query;

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

/* The pairing of q's object, the whole object once per evaluation and
 * way (every path shares it): *pair gets its array, pair[i] for instance
 * i an older position, PD_PAIR_NONE (a first sample) or PD_PAIR_BY_NAME
 * (resolve it with pd_pair_by_full_name). By id where the object has an
 * ID Process counter and q pairs by id, else by full name. */
pd_status pd_pairing(pd_identity *id, const pd_pair_query *q, int32_t **pair,
                     pd_error *err);

/* pd_pairing with every PD_PAIR_BY_NAME resolved (names: the newer
 * object's, pd_full_names), once per evaluation: the pairing then only
 * read, for a pass over every instance. */
pd_status pd_pairing_resolved(pd_identity *id, const pd_pair_query *q,
                              const pd_instance_names *names, int32_t **pair,
                              pd_error *err);

/* A PD_PAIR_BY_NAME entry of instance i resolved in place: the position
 * of q's older object's first instance (blob order) with the full name of
 * the newer's instance i (names: the newer object's), or PD_PAIR_NONE. */
pd_status pd_pair_by_full_name(const pd_pair_query *q,
                               const pd_instance_names *names, uint32_t i,
                               int32_t *pair, pd_error *err);

/* The name instance i of obj (position obj_pos in newer) goes by when it
 * is known by its id (InstanceNames "pid"), into *base: its own name, or
 * for a thread (ID Thread and a parent instance) its process's own name;
 * never with "#n". NULL when it pairs by full name: _Total, id 0, an id
 * twice in this sample, no ID Process counter. The object is looked at
 * once per evaluation. */
pd_status pd_identity_base(pd_identity *id, pd_snapshot *newer,
                           const pd_object *obj, uint32_t obj_pos, uint32_t i,
                           const char **base, pd_error *err);

/* The older object's definition of the same counter as def (position pos
 * in the newer object): the same position when the layout is unchanged,
 * else the first with the same index and type; *old_pos gets where. */
const pd_counter_def *pd_older_counter(const pd_object *old,
                                       const pd_counter_def *def, uint32_t pos,
                                       uint32_t *old_pos);

#endif
