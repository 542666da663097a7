/* collectd-winperf: the set of counters one evaluation has reported.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Open addressing on 64-bit keys (object position, instance, counter). A
 * slot is in use when its mark is the current evaluation's, so starting an
 * evaluation clears nothing; storage is reused, so a warm set allocates
 * nothing.
 */
#ifndef PD_SEEN_SET_H
#define PD_SEEN_SET_H

#include <stddef.h>
#include <stdint.h>

typedef struct pd_seen_set {
  uint64_t *key;
  uint32_t *mark;
  uint32_t stamp; /* the current evaluation's mark, never 0 */
  size_t cap, count;
} pd_seen_set;

void pd_seen_free(pd_seen_set *set);
/* Empty the set for a new evaluation. */
void pd_seen_begin(pd_seen_set *set);
/* 1: inserted, 0: already there, -1: out of memory (not "already there":
 * that would drop a counter). */
int pd_seen_insert(pd_seen_set *set, uint64_t key);

#endif
