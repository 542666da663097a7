/* collectd-winperf: the parser's caches checked the slow, obvious way.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Where NDEBUG is not defined (--enable-asserts, the sanitizer builds, the
 * fuzzers, tests/select/test_name_churn), whatever a cache answers is
 * computed again from the blob alone, sort-based (O(n log n), so a
 * fuzzer's biggest inputs stay fast), and asserted equal:
 *
 *   own and full names  converted from the raw bytes again, numbered
 *                       "#n" by sorting the base names; the index answers
 *                       each full name with the first instance of it
 *                       (pd_check_instance_names, after every build or
 *                       reuse of an object's names);
 *   two samples alike   pd_same_own_names / pd_instances_same_names true
 *                       only when the names built from scratch are equal
 *                       position by position (pd_check_same_names);
 *   pairing             by id and by full name, the pair memo and the
 *                       same-position shortcut: the pairing of every
 *                       object an evaluation paired, against a pairing
 *                       made by sorting ids and names
 *                       (pd_check_pairings, at the end of an evaluation);
 *   result templates    results a plain pass left in place carry their
 *                       counter's template (evaluate.c);
 *   deduplication       the claims and the reported set (share() in
 *                       select.c, pd_reported): every value the paths
 *                       matched, logged with its group and whether it was
 *                       reported, sorted: each value of a group reported
 *                       exactly once, under the first of its paths that
 *                       matched it, and nothing else reported
 *                       (pd_check_dedup, dedup_check.c, at the end of an
 *                       evaluation).
 *
 * In a release build (NDEBUG) the calls compile to nothing. A check that
 * cannot get memory skips itself (the allocation-failure tests fail the
 * checks' allocations too).
 */
#ifndef PD_CACHE_CHECK_H
#define PD_CACHE_CHECK_H

#include "snapshot.h"

struct pd_selection;
struct pd_identity;
struct pd_value_key;

#ifndef NDEBUG
/* The checks' memory (weak: tests/alloc replaces them). */
void *pd_check_malloc(size_t n);
void pd_check_free(void *p);

void pd_check_own_names(pd_snapshot *snap, const pd_object *obj,
                        const pd_instance_names *n);
void pd_check_instance_names(pd_snapshot *snap, const pd_object *obj,
                             const pd_instance_names *n);
void pd_check_same_names(pd_snapshot *a, const pd_object *oa, pd_snapshot *b,
                         const pd_object *ob, bool parents_too);
void pd_check_pairings(const struct pd_selection *sel, pd_snapshot *older,
                       pd_snapshot *newer);
/* The dedup check's log: emptied as an evaluation begins; each value a
 * path matched (reported under it or not) added; checked at the end; its
 * memory freed with the selection. */
void pd_check_matched_begin(struct pd_selection *sel);
void pd_check_matched(struct pd_selection *sel, const struct pd_value_key *key,
                      size_t path_id, bool reported);
void pd_check_dedup(struct pd_selection *sel);
void pd_check_matched_free(struct pd_selection *sel);
#define PD_CHECK(call) call
#else
#define PD_CHECK(call) ((void)0)
#endif

#endif
