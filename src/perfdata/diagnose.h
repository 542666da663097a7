/* collectd-winperf: why a counter path matches nothing.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Pure and portable like the rest of the parser: no I/O, no collectd or
 * Windows header, no global state, errors as values. `winperf doctor`
 * calls it for every path; the plugin can call it for its first warning
 * about a path that matches nothing.
 *
 * The verdict, checked in this order:
 *   1. the source failed (no answer): access-denied, remote-registry-off or
 *      provider-failed, from the failure the source reported;
 *   2. the path matches counters in the answer: ok;
 *   3. the object or counter name is not in the name table, or the counter
 *      not in that object: unknown-name, with up to 3 closest names;
 *   4. the object is named in the table but absent from the answer:
 *      object-absent;
 *   5. the object is there, its counter too, no instance matches:
 *      no-instances (nothing to report yet; not an error);
 * and a path that does not resolve (3 or 4) in a table that is corrupt or
 * inconsistent (pd_names_check_table) is names-table-corrupt instead; its fix
 * says the path's own problem first, then the table's.
 */
#ifndef PD_DIAGNOSE_H
#define PD_DIAGNOSE_H

#include "perfdata.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pd_verdict {
  PD_VERDICT_OK = 0,
  PD_VERDICT_NO_INSTANCES,
  PD_VERDICT_UNKNOWN_NAME,
  PD_VERDICT_OBJECT_ABSENT,
  PD_VERDICT_PROVIDER_FAILED,
  PD_VERDICT_ACCESS_DENIED,
  PD_VERDICT_REMOTE_REGISTRY_OFF,
  PD_VERDICT_NAMES_TABLE_CORRUPT,
} pd_verdict;

/* "ok", "no-instances", "unknown-name", ... (stable: output and JSON). */
const char *pd_verdict_name(pd_verdict verdict);
/* True for ok and no-instances: the path is right, nothing to fix. */
bool pd_verdict_resolves(pd_verdict verdict);

/* Why the source gave no answer. */
typedef enum pd_source_failure {
  PD_SOURCE_ANSWERED = 0,
  PD_SOURCE_ACCESS_DENIED,       /* ERROR_ACCESS_DENIED; remote: auth */
  PD_SOURCE_REMOTE_REGISTRY_OFF, /* no \pipe\winreg on the host */
  PD_SOURCE_PROVIDER_FAILED,     /* the query failed with another error */
} pd_source_failure;

typedef struct pd_source_state {
  pd_source_failure failure;
  bool remote;        /* a remote host (changes the fix's wording) */
  const char *detail; /* the source's message, quoted in the fix; or NULL */
  /* Perflib's Last Counter (format.md 4.1) where the source read it from the
   * registry; 0 when unknown: then no Last-Counter claim is made. */
  uint32_t last_counter;
} pd_source_state;

/* ----------------------------------------------------- the names table */

typedef enum pd_names_problem {
  PD_NAMES_CONSISTENT = 0,
  PD_NAMES_EMPTY,         /* no pair at all */
  PD_NAMES_DUPLICATE,     /* one index, two different names */
  PD_NAMES_ODD_INDEX,     /* Counter indices are even (format.md 4.1); or 0 */
  PD_NAMES_LAST_BELOW,    /* Perflib's Last Counter below an index in use */
  PD_NAMES_MISSING_INDEX, /* an object of the answer unnamed */
} pd_names_problem;

typedef struct pd_names_check {
  pd_names_problem problem;
  uint32_t index;    /* the index concerned */
  char message[200]; /* "index 238 is both \"Processor\" and \"CPU\"" */
} pd_names_check;

/* Check a Counter table for what is evidence of damage on real tables: no
 * pair, an odd index or 0, one index with two different names, and, when
 * answer is non-NULL, an object of the answer the table does not name.
 * last_counter is Perflib's Last Counter where the caller read it from the
 * registry (the table's leading "1" pair is not it, format.md 4.1), else 0;
 * when known, an index in use above it is a problem too. The first problem
 * found is reported. Returns out->problem == PD_NAMES_CONSISTENT. */
bool pd_names_check_table(const pd_names *names, uint32_t last_counter,
                          const pd_snapshot *answer, pd_names_check *out);

/* ------------------------------------------------------- the diagnosis */

#define PD_DIAG_MAX_SUGGESTIONS 3

typedef struct pd_diagnosis {
  pd_verdict verdict;
  char fix[512];  /* one line, no tab: what to do (or what matched) */
  size_t matches; /* counters the path matched (ok) */
  size_t suggestion_count;
  /* Closest names for unknown-name, best first: names-owned strings,
   * valid while the names table lives. */
  const char *suggestions[PD_DIAG_MAX_SUGGESTIONS];
} pd_diagnosis;

/* Diagnose counter path `path` (PDH syntax, format.md 4.2) against `names` (may
 * be NULL: only numeric paths resolve) and the decoded `answer` (may be
 * NULL when src says the source failed). src may be NULL: it answered.
 * PD_E_PATH for a path that does not parse (err says where), PD_E_NOMEM,
 * PD_E_ARGUMENT; the verdict is in *out on PD_OK. */
pd_status pd_diagnose(const char *path, const pd_names *names,
                      pd_snapshot *answer, const pd_source_state *src,
                      pd_diagnosis *out, pd_error *err);

/* Case-insensitive Levenshtein distance of two UTF-8 names (pd_name_casecmp
 * folding), over at most their first 128 code points. */
size_t pd_name_distance(const char *a, const char *b);

#ifdef __cplusplus
}
#endif

#endif
