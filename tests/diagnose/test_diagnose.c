/* Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 * collectd-winperf: tests for the diagnosis of counter paths (diagnose.c).
 *
 * The answer is built with the test encoder, the name tables by hand
 * (REG_MULTI_SZ UTF-16LE, ASCII names). Expected verdicts, suggestions and
 * distances are worked out by hand in the comments.
 *
 * The answer: 238 Processor, instances "0" and "_Total", counter 6
 * PERF_100NSEC_TIMER and 8 PERF_RAW_BASE; 230 Process, no instance,
 * counter 6; 2 System, single instance, counter 242 PERF_COUNTER_RAWCOUNT.
 * The table names 2 System, 4 Memory, 6 % Processor Time, 8 Base,
 * 230 Process, 238 Processor, 240 Available Bytes, 242 Processes, after
 * the leading "1", "250" pair. Memory (4) is not in the answer.
 *
 * Real tables start with "1", "1847" (a historical constant, format.md 4.1)
 * while their indices reach 4658 or 21096: test_real_shaped builds one such
 * table of 10,000 pairs and checks that a typo in it is only a typo.
 */
#include "diagnose.h"
#include "encoder.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>

static uint8_t table[1 << 20];
static size_t table_len;

static void put(const char *s) {
  do {
    table[table_len++] = (uint8_t)*s;
    table[table_len++] = 0;
  } while (*s++);
}

static pd_names *parse_table(void);

/* pairs: "index", "name", ..., NULL */
static pd_names *names_of(const char *const *pairs) {
  table_len = 0;
  for (; *pairs; pairs++)
    put(*pairs);
  return parse_table();
}

/* The pairs put so far, ended and parsed. */
static pd_names *parse_table(void) {
  put("");
  pd_names *nm = NULL;
  pd_error err = {0};
  if (pd_names_parse(table, table_len, &nm, &err) != PD_OK)
    tap_diag("names: %s", err.message);
  return nm;
}

static const char *const good[] = {
    "1",   "250",       "2",   "System",
    "4",   "Memory",    "6",   "% Processor Time",
    "8",   "Base",      "230", "Process",
    "238", "Processor", "240", "Available Bytes",
    "242", "Processes", NULL};

static uint8_t *blob;

static pd_snapshot *answer(void) {
  enc_blob *b = enc_new("HOST");
  enc_object *cpu = enc_add_object(b, 238, ENC_MULTI_INSTANCE);
  enc_add_counter(cpu, 6, PD_100NSEC_TIMER);
  enc_add_counter(cpu, 8, PD_RAW_BASE);
  enc_add_instance(cpu, "0");
  enc_add_instance(cpu, "_Total");
  enc_object *proc = enc_add_object(b, 230, ENC_MULTI_INSTANCE);
  enc_add_counter(proc, 6, PD_100NSEC_TIMER);
  enc_object *sys = enc_add_object(b, 2, ENC_SINGLE_INSTANCE);
  enc_set_value(sys, ENC_SINGLE, enc_add_counter(sys, 242, PD_COUNTER_RAWCOUNT),
                42);
  size_t len;
  blob = enc_build(b, &len);
  enc_free(b);
  pd_snapshot *snap = pd_snapshot_new();
  pd_error err = {0};
  if (pd_decode(snap, blob, len, NULL, &err) != PD_OK)
    tap_diag("decode: %s", err.message);
  return snap;
}

static pd_diagnosis dg;

static pd_verdict diagnose(const pd_names *nm, pd_snapshot *snap,
                           const char *path) {
  pd_error err = {0};
  pd_status st = pd_diagnose(path, nm, snap, NULL, &dg, &err);
  if (st != PD_OK) {
    tap_diag("%s: %s", path, err.message);
    return (pd_verdict)-1;
  }
  return dg.verdict;
}

static void test_distance(void) {
  IS_INT(pd_name_distance("kitten", "sitting"), 3, "kitten/sitting: 3");
  IS_INT(pd_name_distance("PROCESSOR", "processor"), 0, "case does not count");
  IS_INT(pd_name_distance("\xc3\x84nderung", "\xc3\xa4NDERUNG"), 0,
         "Latin-1 letters fold (Ä, ä)");
  IS_INT(pd_name_distance("", "abc"), 3, "empty: the other's length");
  IS_INT(pd_name_distance("Procesor", "Process"), 2,
         "Procesor/Process: o->s, drop r");
}

static void test_verdicts(const pd_names *nm, pd_snapshot *snap) {
  IS_INT(diagnose(nm, snap, "\\Processor(*)\\% Processor Time"), PD_VERDICT_OK,
         "both instances: ok");
  IS_STR(dg.fix, "2 counters match", "ok: how many match");
  IS_INT(diagnose(nm, snap, "\\2\\242"), PD_VERDICT_OK, "by index: ok");
  IS_STR(dg.fix, "1 counter matches", "ok: one counter");

  /* Objects of the answer: Processor 1, Process 2, System 8 > limit 4. */
  IS_INT(diagnose(nm, snap, "\\Procesor(*)\\% Processor Time"),
         PD_VERDICT_UNKNOWN_NAME, "object typo: unknown-name");
  IS_INT(dg.suggestion_count, 2, "two objects within distance 4");
  IS_STR(dg.suggestions[0], "Processor", "closest first: Processor");
  IS_STR(dg.suggestions[1], "Process", "then Process");
  IS_STR(dg.fix,
         "object \"Procesor\" is not in the name table: a typo, or its "
         "provider is not registered (lodctr /Q lists them, lodctr /R "
         "rebuilds the table); did you mean: Processor, Process?",
         "object typo: the fix names both");

  /* Counters of Processor shown alone: % Processor Time only (Base is a
   * base counter). */
  IS_INT(diagnose(nm, snap, "\\Processor(_Total)\\% Procesor Time"),
         PD_VERDICT_UNKNOWN_NAME, "counter typo: unknown-name");
  IS_INT(dg.suggestion_count, 1, "one counter suggested");
  IS_STR(dg.suggestions[0], "% Processor Time", "the object's own counter");
  IS_INT(diagnose(nm, snap, "\\Processor(_Total)\\Processes"),
         PD_VERDICT_UNKNOWN_NAME, "a name of another object's counter");
  IS_STR(dg.fix,
         "\"Processes\" is in the name table but not a counter of "
         "\"Processor\"",
         "... says so (no close counter)");
  IS_INT(diagnose(nm, snap, "\\Processor(*)\\Base"), PD_VERDICT_UNKNOWN_NAME,
         "a base counter alone: unknown-name");

  IS_INT(diagnose(nm, snap, "\\300\\6"), PD_VERDICT_UNKNOWN_NAME,
         "an index in neither the table nor the answer");
  IS_INT(dg.suggestion_count, 0, "no suggestion for an index");

  IS_INT(diagnose(nm, snap, "\\Memory\\Available Bytes"),
         PD_VERDICT_OBJECT_ABSENT, "known object, absent: object-absent");
  IS_STR(dg.fix,
         "\"Memory\" (index 4) is in the name table but not in the answer: "
         "its provider is disabled (Disable Performance Counters; lodctr "
         "/E:NAME enables it) or failed to load (see the Application event "
         "log)",
         "object-absent: the fix");

  IS_INT(diagnose(nm, snap, "\\Process(*)\\% Processor Time"),
         PD_VERDICT_NO_INSTANCES, "zero instances: no-instances");
  IS_INT(diagnose(nm, snap, "\\Processor(7)\\% Processor Time"),
         PD_VERDICT_NO_INSTANCES, "an instance not there now: no-instances");
  OK(pd_verdict_resolves(PD_VERDICT_NO_INSTANCES) &&
         !pd_verdict_resolves(PD_VERDICT_OBJECT_ABSENT),
     "no-instances resolves, object-absent does not");
  IS_INT(diagnose(nm, snap, "\\System(x)\\Processes"), PD_VERDICT_UNKNOWN_NAME,
         "an instance on a single-instance object");
  IS_INT(diagnose(NULL, snap, "\\238(*)\\6"), PD_VERDICT_OK,
         "no table: a numeric path resolves");
  IS_INT(diagnose(NULL, snap, "\\System\\Processes"), PD_VERDICT_UNKNOWN_NAME,
         "no table: a named path is unknown-name");

  pd_error err = {0};
  IS_INT(pd_diagnose("Processor\\x", nm, snap, NULL, &dg, &err), PD_E_PATH,
         "a path that does not parse: PD_E_PATH");
}

static void test_failures(const pd_names *nm) {
  pd_source_state st = {.failure = PD_SOURCE_ACCESS_DENIED};
  pd_error err = {0};
  pd_diagnose("\\System\\Processes", nm, NULL, &st, &dg, &err);
  IS_INT(dg.verdict, PD_VERDICT_ACCESS_DENIED, "local access denied");
  IS_STR(dg.fix,
         "access denied; add the account to Performance Monitor Users (or "
         "run as an administrator)",
         "local: Performance Monitor Users");
  st.remote = true;
  st.detail = "remote h: authentication failed";
  pd_diagnose("\\System\\Processes", nm, NULL, &st, &dg, &err);
  IS_STR(dg.fix,
         "access denied: remote h: authentication failed; check the user and "
         "password, and that the account may read the registry remotely "
         "(Performance Monitor Users, the winreg pipe's ACL)",
         "remote: the message and the credentials");
  st.failure = PD_SOURCE_REMOTE_REGISTRY_OFF;
  st.detail = NULL;
  pd_diagnose("\\System\\Processes", nm, NULL, &st, &dg, &err);
  IS_INT(dg.verdict, PD_VERDICT_REMOTE_REGISTRY_OFF, "remote-registry-off");
  st.failure = PD_SOURCE_PROVIDER_FAILED;
  pd_diagnose("\\System\\Processes", nm, NULL, &st, &dg, &err);
  IS_INT(dg.verdict, PD_VERDICT_PROVIDER_FAILED, "provider-failed");
  IS_STR(pd_verdict_name(PD_VERDICT_NAMES_TABLE_CORRUPT), "names-table-corrupt",
         "verdict keyword");
  IS_INT(pd_diagnose("\\System\\Processes", nm, NULL, NULL, &dg, &err),
         PD_E_ARGUMENT, "no answer and no failure: an argument error");
}

static void check_problem(const char *const *pairs, uint32_t last_counter,
                          pd_snapshot *snap, pd_names_problem want,
                          const char *message, const char *what) {
  pd_names *nm = names_of(pairs);
  pd_names_check c;
  OK(!pd_names_check_table(nm, last_counter, snap, &c), "%s: inconsistent",
     what);
  IS_INT(c.problem, want, "%s: the problem", what);
  IS_STR(c.message, message, "%s: the message", what);
  pd_names_free(nm);
}

static void test_tables(pd_snapshot *snap) {
  pd_names *nm = names_of(good);
  pd_names_check c;
  OK(pd_names_check_table(nm, 0, snap, &c), "the good table is consistent");
  OK(pd_names_check_table(nm, 250, snap, &c),
     "... also with Perflib's Last Counter 250 known");
  pd_names_free(nm);
  static const char *const dup[] = {"1",         "250", "2",   "System", "238",
                                    "Processor", "238", "CPU", NULL};
  check_problem(dup, 0, NULL, PD_NAMES_DUPLICATE,
                "index 238 is both \"Processor\" and \"CPU\"", "duplicate");
  static const char *const odd[] = {"1", "250",   "2", "System",
                                    "7", "Seven", NULL};
  check_problem(odd, 0, NULL, PD_NAMES_ODD_INDEX,
                "index 7 is odd (Counter indices are even, from 2)", "odd");
  /* Perflib's Last Counter, where the registry told it: real evidence. */
  static const char *const below[] = {"1",   "1847", "2", "System",
                                      "238", "CPU",  NULL};
  check_problem(below, 200, NULL, PD_NAMES_LAST_BELOW,
                "Perflib's Last Counter 200 is below index 238 in use",
                "Last Counter 200 known, index 238 in use");
  check_problem(good, 236, snap, PD_NAMES_LAST_BELOW,
                "Perflib's Last Counter 236 is below index 242 in use",
                "Last Counter 236 known, the table reaches 242");
  /* The leading "1" pair is no Last Counter: "1", "200" under index 238
   * says nothing. */
  static const char *const one_pair_low[] = {"1",   "200", "2", "System",
                                             "238", "CPU", NULL};
  nm = names_of(one_pair_low);
  OK(pd_names_check_table(nm, 0, NULL, &c),
     "\"1\", \"200\" with index 238 in use and no Last Counter known: "
     "consistent");
  pd_names_free(nm);
  /* Samba's "1" pair holds the number of pairs (format.md 6): nothing. */
  static const char *const samba[] = {"1",   "3",   "2",       "System", "238",
                                      "CPU", "230", "Process", NULL};
  nm = names_of(samba);
  OK(pd_names_check_table(nm, 0, NULL, &c),
     "a Samba table (\"1\" is the pair count, 3) is not corrupt");
  pd_names_free(nm);
  static const char *const missing[] = {
      "1", "250", "2", "System", "230", "Process", "6", "Time", NULL};
  check_problem(missing, 0, snap, PD_NAMES_MISSING_INDEX,
                "object index 238 of the answer has no name in the table",
                "an object of the answer unnamed");
  static const char *const none[] = {NULL};
  check_problem(none, 0, NULL, PD_NAMES_EMPTY, "the table has no names",
                "empty");

  /* A typo in a corrupt table: the path's own problem first, then the
   * table's. */
  nm = names_of(dup);
  IS_INT(diagnose(nm, snap, "\\Procesor(*)\\% Processor Time"),
         PD_VERDICT_NAMES_TABLE_CORRUPT, "typo, corrupt table: corrupt");
  IS_STR(dg.fix,
         "object \"Procesor\" is not in the name table: a typo, or its "
         "provider is not registered (lodctr /Q lists them, lodctr /R "
         "rebuilds the table). Also, the name table is inconsistent: index "
         "238 is both \"Processor\" and \"CPU\"; rebuild it with lodctr /R "
         "(then winmgmt /resyncperf)",
         "... the fix names the typo first (CPU is 5 edits away: no "
         "suggestion), then the table's problem and lodctr /R");
  IS_INT(diagnose(nm, snap, "\\238(*)\\6"), PD_VERDICT_OK,
         "a path that matches stays ok in a corrupt table");
  pd_names_free(nm);
}

/* A table shaped like a real host's (a Windows Server table: "1", "1847",
 * then 10,127 pairs reaching 21096): the good names, then "Counter N" for
 * every even N from 1848 to 21096. */
static pd_names *real_shaped(void) {
  table_len = 0;
  for (const char *const *p = good; *p; p++)
    put(*p == good[1] ? "1847" : *p);
  char index[12], name[24];
  for (unsigned n = 1848; n <= 21096; n += 2) {
    snprintf(index, sizeof index, "%u", n);
    snprintf(name, sizeof name, "Counter %u", n);
    put(index);
    put(name);
  }
  return parse_table();
}

static void test_real_shaped(pd_snapshot *snap) {
  pd_names *nm = real_shaped();
  IS_INT(pd_names_count(nm), 8 + 9625, "8 names and 9,625 above 1847");
  pd_names_check c;
  OK(pd_names_check_table(nm, 0, snap, &c),
     "\"1\", \"1847\" under index 21096, Last Counter unknown: consistent");
  OK(pd_names_check_table(nm, 21096, snap, &c),
     "... and with Perflib's Last Counter 21096: consistent");

  /* A typo is a typo: unknown-name with its suggestion, nothing more. */
  IS_INT(diagnose(nm, snap, "\\Processor(_Total)\\% Procesor Time"),
         PD_VERDICT_UNKNOWN_NAME, "real-shaped table, counter typo: unknown");
  IS_STR(dg.fix,
         "counter \"% Procesor Time\" is not in the name table: a typo, or "
         "its provider is not registered (lodctr /R rebuilds the table); did "
         "you mean: % Processor Time?",
         "... the fix is the typo's alone");
  IS_INT(dg.suggestion_count, 1, "... one suggestion");
  IS_INT(diagnose(nm, snap, "\\Procesor(*)\\% Processor Time"),
         PD_VERDICT_UNKNOWN_NAME, "real-shaped table, object typo: unknown");
  IS_STR(dg.suggestions[0], "Processor", "... Processor suggested first");

  /* The same typo where the registry's Last Counter is known. */
  pd_source_state known = {.failure = PD_SOURCE_ANSWERED,
                           .last_counter = 21096};
  pd_error err = {0};
  pd_diagnose("\\Processor(_Total)\\% Procesor Time", nm, snap, &known, &dg,
              &err);
  IS_INT(dg.verdict, PD_VERDICT_UNKNOWN_NAME,
         "Last Counter 21096 known, the same typo: unknown-name");
  known.last_counter = 20000;
  pd_diagnose("\\Processor(_Total)\\% Procesor Time", nm, snap, &known, &dg,
              &err);
  IS_INT(dg.verdict, PD_VERDICT_NAMES_TABLE_CORRUPT,
         "Last Counter 20000 known, index 21096 in use: names-table-corrupt");
  IS_STR(dg.fix,
         "counter \"% Procesor Time\" is not in the name table: a typo, or "
         "its provider is not registered (lodctr /R rebuilds the table); did "
         "you mean: % Processor Time? Also, the name table is inconsistent: "
         "Perflib's Last Counter 20000 is below index 21096 in use; rebuild "
         "it with lodctr /R (then winmgmt /resyncperf)",
         "... the typo first, then the table's problem");
  pd_names_free(nm);
}

/* pd_names_at: index order, an index listed twice in table order. */
static void test_names_at(void) {
  static const char *const pairs[] = {"1",      "250", "238", "Processor", "2",
                                      "System", "238", "CPU", NULL};
  pd_names *nm = names_of(pairs);
  uint32_t idx[3] = {0, 0, 0};
  const char *name[3];
  for (size_t i = 0; i < 3; i++)
    name[i] = pd_names_at(nm, i, &idx[i]);
  IS_INT(idx[0], 2, "pair 0: index 2");
  IS_STR(name[0], "System", "pair 0: System");
  OK(idx[1] == 238 && idx[2] == 238, "pairs 1 and 2: index 238 twice");
  IS_STR(name[1], "Processor", "pair 1: the first of 238 in the table");
  IS_STR(name[2], "CPU", "pair 2: the later, what pd_names_get gives");
  OK(pd_names_at(nm, 3, NULL) == NULL, "past the end: NULL");
  pd_names_free(nm);
}

int main(void) {
  pd_snapshot *snap = answer();
  pd_names *nm = names_of(good);
  test_distance();
  test_names_at();
  test_verdicts(nm, snap);
  test_failures(nm);
  test_tables(snap);
  test_real_shaped(snap);
  pd_names_free(nm);
  pd_snapshot_free(snap);
  free(blob);
  return tap_done();
}
