/* collectd-winperf tests: the V1 decoder on valid blobs.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The V1 decoder (format.md 1) against the spec's test vector and against
 * encoder-built blobs of every shape, in both byte orders. Expected values
 * are the literals given to the encoder (or the spec's numbers). */
#include "encoder.h"
#include "perfdata.h"
#include "spec_vector.h"
#include "tap.h"

#include <stdlib.h>

/* Decode into snap; one TAP line; returns true on PD_OK. */
static bool decode_ok(pd_snapshot *snap, const uint8_t *buf, size_t len,
                      const char *what) {
  pd_error err;
  memset(&err, 0, sizeof err);
  pd_status s = pd_decode(snap, buf, len, NULL, &err);
  if (!OK(s == PD_OK, "%s: decodes", what))
    tap_diag("  %s: %s", pd_status_name(s), err.message);
  return s == PD_OK;
}

/* The value of counter `counter` of instance `inst` of the object with
 * index `index` (UINT64_MAX when missing). */
static uint64_t raw_of(const pd_snapshot *snap, uint32_t index, uint32_t inst,
                       uint32_t counter) {
  const pd_object *o = pd_snapshot_find_object(snap, index);
  if (!o || inst >= o->instance_count || counter >= o->counter_count)
    return UINT64_MAX;
  return pd_counter_raw(snap, &o->instances[inst], &o->counters[counter]);
}

/* ------------------------------------------------------- format.md 1.8 vector
 */

static void test_spec_vector(void) {
  pd_snapshot *snap = pd_snapshot_new();
  if (!decode_ok(snap, spec_vector, sizeof spec_vector,
                 "format.md 1.8 vector")) {
    pd_snapshot_free(snap);
    return;
  }
  const pd_header *h = pd_snapshot_header(snap);
  OK(!h->big_endian, "header: little-endian");
  IS_INT(h->version, 1, "header: Version");
  IS_INT(h->revision, 1, "header: Revision");
  IS_INT(h->total_byte_length, 416, "header: TotalByteLength");
  IS_INT(h->header_length, 96, "header: HeaderLength");
  IS_INT(h->num_object_types, 2, "header: NumObjectTypes");
  IS_INT(h->default_object, -1, "header: DefaultObject");
  static const uint16_t st[8] = {2024, 1, 1, 1, 0, 0, 0, 0};
  OK(memcmp(h->system_time, st, sizeof st) == 0,
     "header: SystemTime 2024-01-01 (Monday) 00:00:00.000");
  IS_INT(h->perf_time, 123456789, "header: PerfTime");
  IS_INT(h->perf_freq, 10000000, "header: PerfFreq");
  IS_INT(h->perf_time_100ns, 133485408000000000LL, "header: PerfTime100nSec");
  IS_STR(h->system_name, "PC", "header: system name");
  size_t blen = 0;
  OK(pd_snapshot_bytes(snap, &blen) == spec_vector && blen == 416,
     "pd_snapshot_bytes gives the input back");

  IS_INT(pd_snapshot_object_count(snap), 2, "two objects");
  const pd_object *o = pd_snapshot_object(snap, 0);
  OK(o != NULL && pd_snapshot_find_object(snap, 2) == o, "object 0 is index 2");
  if (o) {
    IS_INT(o->wire_offset, 0x60, "object 2: at 0x60");
    IS_INT(o->help_index, 3, "object 2: help index 3");
    IS_INT(o->detail_level, 100, "object 2: detail novice");
    IS_INT(o->num_instances, -1, "object 2: NumInstances -1");
    IS_INT(o->code_page, 0, "object 2: CodePage 0");
    IS_INT(o->counter_count, 2, "object 2: two counters");
    IS_INT(o->instance_count, 1, "object 2: one (single) instance");
    if (o->counter_count == 2 && o->instance_count == 1) {
      const pd_counter_def *c0 = &o->counters[0], *c1 = &o->counters[1];
      IS_INT(c0->wire_offset, 0xa0, "counter 6: definition at 0xa0");
      IS_INT(c0->name_index, 6, "counter 0: name index 6");
      IS_INT(c0->help_index, 7, "counter 0: help index 7");
      IS_INT(c0->type, PD_COUNTER_RAWCOUNT, "counter 0: RAWCOUNT");
      IS_INT(c0->size, 4, "counter 0: size 4");
      IS_INT(c0->offset, 8, "counter 0: offset 8");
      IS_INT(c1->name_index, 8, "counter 1: name index 8");
      IS_INT(c1->type, PD_100NSEC_TIMER, "counter 1: 100NSEC_TIMER");
      IS_INT(c1->size, 8, "counter 1: size 8");
      IS_INT(c1->offset, 16, "counter 1: offset 16");
      IS_INT(c1->detail_level, 100, "counter 1: detail level 100");
      const pd_instance *in = &o->instances[0];
      IS_INT(in->wire_offset, 0, "single instance: wire_offset 0");
      IS_INT(in->name_bytes, 0, "single instance: unnamed");
      IS_INT(in->block_offset, 0xf0, "single instance: block at 0xf0");
      IS_INT(in->block_length, 24, "single instance: block 24 bytes");
      IS_U64(pd_counter_raw(snap, in, c0), 42, "RAWCOUNT = 42");
      IS_U64(pd_counter_raw(snap, in, c1), 5000000, "100NSEC_TIMER = 5e6");
      IS_STR(pd_instance_name(snap, o, 0), "", "single instance: name \"\"");
    }
  }
  o = pd_snapshot_object(snap, 1);
  OK(o != NULL && pd_snapshot_find_object(snap, 10) == o,
     "object 1 is index 10");
  OK(pd_snapshot_find_object(snap, 4) == NULL, "no object 4");
  OK(pd_snapshot_object(snap, 2) == NULL, "no third object");
  if (o && o->instance_count == 1 && o->counter_count == 1) {
    IS_INT(o->wire_offset, 0x108, "object 10: at 0x108");
    IS_INT(o->num_instances, 1, "object 10: NumInstances 1");
    const pd_instance *in = &o->instances[0];
    IS_INT(in->wire_offset, 0x170, "_Total: definition at 0x170");
    IS_INT(in->name_offset, 0x188, "_Total: name at 0x188");
    IS_INT(in->unique_id, -1, "_Total: no UniqueID");
    IS_INT(in->parent_object, 0, "_Total: no parent");
    IS_INT(in->block_offset, 0x198, "_Total: block at 0x198");
    IS_INT(in->block_length, 8, "_Total: block 8 bytes");
    IS_INT(o->counters[0].offset, 4, "object 10: RAWCOUNT at 4");
    IS_U64(pd_counter_raw(snap, in, &o->counters[0]), 7, "_Total = 7");
    IS_STR(pd_instance_name(snap, o, 0), "_Total", "instance name _Total");
    IS_STR(pd_instance_full_name(snap, o, 0), "_Total", "full name _Total");
    IS_INT(pd_find_instance(snap, o, "_total"), 0, "find \"_total\" (case)");
    IS_INT(pd_find_instance(snap, o, "Total"), -1, "no \"Total\"");
    OK(pd_instance_name(snap, o, 1) == NULL, "instance 1 out of range: NULL");
  } else {
    OK(0, "object 10 has one instance and one counter");
  }
  pd_snapshot_free(snap);
}

/* Both samples of format.md 1.8: 100 * 7.5e6 / 1e7 = 75 %. */
static void test_two_samples(void) {
  enc_blob *b = enc_new_spec_vector();
  enc_set_clock(b, 123456789, 10000000, 133485408000000000LL + 10000000);
  enc_set_value(enc_blob_object(b, 0), ENC_SINGLE, 1, 12500000);
  size_t len2;
  uint8_t *buf2 = enc_build(b, &len2);
  pd_snapshot *s1 = pd_snapshot_new(), *s2 = pd_snapshot_new();
  if (decode_ok(s1, spec_vector, sizeof spec_vector, "sample 1") &&
      decode_ok(s2, buf2, len2, "sample 2")) {
    const pd_object *o1 = pd_snapshot_find_object(s1, 2);
    const pd_object *o2 = pd_snapshot_find_object(s2, 2);
    pd_sample a, c;
    pd_snapshot_sample(s1, o1, &o1->instances[0], 1, &a);
    pd_snapshot_sample(s2, o2, &o2->instances[0], 1, &c);
    IS_U64(a.value, 5000000, "sample 1: N0 5,000,000");
    IS_U64(c.value, 12500000, "sample 2: N1 12,500,000");
    IS_INT(a.perf_time_100ns, 133485408000000000LL, "sample 1: clock");
    IS_INT(c.perf_time_100ns, 133485408010000000LL, "sample 2: clock + 1e7");
    IS_INT(c.perf_time, 123456789, "sample: block PerfTime");
    IS_INT(c.perf_freq, 10000000, "sample: block PerfFreq");
    OK(!c.has_base, "100NSEC_TIMER: no base");
    double v = -1;
    pd_value_status st = pd_compute(PD_100NSEC_TIMER, &a, &c, NULL, &v);
    IS_INT(st, PD_VALUE_OK, "pd_compute: ok");
    IS_DOUBLE(v, 75.0, "format.md 1.8: 75.0 %%");
    pd_sample r;
    pd_snapshot_sample(s2, o2, &o2->instances[0], 0, &r);
    IS_U64(r.value, 42, "RAWCOUNT sample: 42");
  }
  pd_snapshot_free(s1);
  pd_snapshot_free(s2);
  free(buf2);
  enc_free(b);
}

/* ------------------------------------------------- encoder-built shapes */

enum {
  IDX_SYSTEM = 2,
  IDX_PROCESS = 230,
  IDX_THREAD = 232,
  IDX_EMPTY = 500,
  IDX_META_MULTI = 502,
  IDX_META_NONE = 504,
  IDX_UNNAMED = 506,
  IDX_CP1252 = 508,
  IDX_MULTI_DEF = 510,
  IDX_MULTI_DWORD = 512,
  IDX_FRACTION = 514,
};

static enc_blob *shapes_blob(bool big_endian) {
  enc_blob *b = enc_new("WinHost-\xc3\x9c"); /* "WinHost-Ü" */
  enc_set_big_endian(b, big_endian);
  enc_set_clock(b, 5000000000LL, 3579545, 133485408000000000LL);

  /* single instance, object clock, 4- and 8-byte values */
  enc_object *sys = enc_add_object(b, IDX_SYSTEM, ENC_SINGLE_INSTANCE);
  enc_object_set_clock(sys, 5000000000LL, 10000000);
  uint32_t c = enc_add_counter(sys, 10, PD_COUNTER_RAWCOUNT);
  enc_set_value(sys, ENC_SINGLE, c, 0xDEADBEEFu);
  c = enc_add_counter(sys, 12, PD_COUNTER_LARGE_RAWCOUNT);
  enc_set_value(sys, ENC_SINGLE, c, 0x123456789ABCDEF0ull);
  c = enc_add_counter(sys, 674, PD_ELAPSED_TIME);
  enc_set_value(sys, ENC_SINGLE, c, 1000000000);

  /* multi-instance with duplicates */
  enc_object *proc = enc_add_object(b, IDX_PROCESS, ENC_MULTI_INSTANCE);
  uint32_t pid = enc_add_counter(proc, 784, PD_COUNTER_RAWCOUNT);
  uint32_t ptime = enc_add_counter(proc, 6, PD_100NSEC_TIMER);
  static const char *const procs[] = {"Idle",    "System",  "explorer",
                                      "svchost", "svchost", "svchost",
                                      "SVCHOST", "_Total"};
  for (uint32_t i = 0; i < 8; i++) {
    uint32_t in = enc_add_instance(proc, procs[i]);
    enc_set_value(proc, in, pid, 100 + i);
    enc_set_value(proc, in, ptime, 1000000ull * (i + 1));
  }

  /* threads under processes (format.md 1.4) */
  enc_object *thr = enc_add_object(b, IDX_THREAD, ENC_MULTI_INSTANCE);
  uint32_t tid = enc_add_counter(thr, 804, PD_COUNTER_RAWCOUNT);
  static const struct {
    const char *name;
    uint32_t parent_obj, parent_inst, id;
  } threads[] = {
      {"0", IDX_PROCESS, 2, 4000},  /* explorer/0 */
      {"1", IDX_PROCESS, 2, 4001},  /* explorer/1 */
      {"0", IDX_PROCESS, 3, 4002},  /* svchost/0 */
      {"0", IDX_PROCESS, 4, 4003},  /* svchost#1's thread: "svchost/0#1" */
      {"7", 999, 0, 4004},          /* parent object missing: plain "7" */
      {"8", IDX_PROCESS, 77, 4005}, /* parent instance missing: plain "8" */
  };
  for (uint32_t i = 0; i < 6; i++) {
    uint32_t in = enc_add_instance(thr, threads[i].name);
    enc_instance_set_parent(thr, in, threads[i].parent_obj,
                            threads[i].parent_inst);
    enc_set_value(thr, in, tid, threads[i].id);
  }

  /* zero instances, metadata only */
  enc_object *e = enc_add_object(b, IDX_EMPTY, ENC_MULTI_INSTANCE);
  enc_add_counter(e, 20, PD_COUNTER_RAWCOUNT);
  e = enc_add_object(b, IDX_META_MULTI, ENC_METADATA_MULTI);
  enc_add_counter(e, 22, PD_COUNTER_RAWCOUNT);
  enc_add_counter(e, 24, PD_COUNTER_COUNTER);
  e = enc_add_object(b, IDX_META_NONE, ENC_METADATA_NONE);
  enc_add_counter(e, 26, PD_COUNTER_LARGE_RAWCOUNT);

  /* unnamed instances: UniqueID -> decimal */
  enc_object *un = enc_add_object(b, IDX_UNNAMED, ENC_MULTI_INSTANCE);
  c = enc_add_counter(un, 30, PD_COUNTER_RAWCOUNT);
  uint32_t in = enc_add_instance(un, NULL);
  enc_instance_set_unique_id(un, in, 4242);
  enc_set_value(un, in, c, 1);
  in = enc_add_instance(un, NULL);
  enc_instance_set_unique_id(un, in, 17);
  enc_set_value(un, in, c, 2);

  /* code page 1252 names */
  enc_object *cp = enc_add_object(b, IDX_CP1252, ENC_MULTI_INSTANCE);
  enc_object_set_code_page(cp, 1252);
  c = enc_add_counter(cp, 32, PD_COUNTER_RAWCOUNT);
  in = enc_add_instance_bytes(cp, "caf\xe9", 5); /* with its NUL */
  enc_set_value(cp, in, c, 11);
  in = enc_add_instance(cp, "\xe2\x82\xacuro"); /* "€uro" -> 80 75 72 6f */
  enc_set_value(cp, in, c, 12);

  /* multi counters: base from a MULTI_BASE definition */
  enc_object *md = enc_add_object(b, IDX_MULTI_DEF, ENC_SINGLE_INSTANCE);
  c = enc_add_counter(md, 40, PD_100NSEC_MULTI_TIMER);
  enc_set_value(md, ENC_SINGLE, c, 15000000);
  c = enc_add_counter(md, 42, PD_COUNTER_MULTI_BASE);
  enc_set_value(md, ENC_SINGLE, c, 2);

  /* ... or from the DWORD after the 8-byte value (block offset 8 + 8) */
  enc_object *mw = enc_add_object(b, IDX_MULTI_DWORD, ENC_MULTI_INSTANCE);
  c = enc_add_counter(mw, 44, PD_100NSEC_MULTI_TIMER);
  enc_counter_set_offset(mw, c, 8);
  in = enc_add_instance(mw, "disk0");
  enc_set_value(mw, in, c, 30000000);
  enc_poke32(mw, in, 16, 4);

  /* RAW_FRACTION + RAW_BASE */
  enc_object *fr = enc_add_object(b, IDX_FRACTION, ENC_SINGLE_INSTANCE);
  c = enc_add_counter(fr, 50, PD_RAW_FRACTION);
  enc_set_value(fr, ENC_SINGLE, c, 25);
  c = enc_add_counter(fr, 52, PD_RAW_BASE);
  enc_set_value(fr, ENC_SINGLE, c, 200);
  return b;
}

static void check_shapes(pd_snapshot *snap, const char *bo) {
  const pd_header *h = pd_snapshot_header(snap);
  IS_STR(h->system_name, "WinHost-\xc3\x9c", "%s: system name", bo);
  IS_INT(h->perf_freq, 3579545, "%s: PerfFreq", bo);
  IS_INT(pd_snapshot_object_count(snap), 11, "%s: 11 objects", bo);

  const pd_object *o = pd_snapshot_find_object(snap, IDX_SYSTEM);
  if (OK(o && o->instance_count == 1 && o->counter_count == 3,
         "%s: single-instance object: 1 instance, 3 counters", bo)) {
    IS_INT(o->num_instances, -1, "%s: NumInstances -1", bo);
    IS_U64(raw_of(snap, IDX_SYSTEM, 0, 0), 0xDEADBEEFu, "%s: DWORD", bo);
    IS_U64(raw_of(snap, IDX_SYSTEM, 0, 1), 0x123456789ABCDEF0ull, "%s: LARGE",
           bo);
    IS_INT(o->perf_time, 5000000000LL, "%s: object PerfTime", bo);
    IS_INT(o->perf_freq, 10000000, "%s: object PerfFreq", bo);
    pd_sample s;
    pd_snapshot_sample(snap, o, &o->instances[0], 2, &s);
    IS_INT(s.object_time, 5000000000LL, "%s: sample object clock", bo);
    double v = 0;
    IS_INT(pd_compute(PD_ELAPSED_TIME, NULL, &s, NULL, &v), PD_VALUE_OK,
           "%s: ELAPSED_TIME computes", bo);
    IS_DOUBLE(v, 400.0, "%s: ELAPSED_TIME (5e9 - 1e9) / 1e7 = 400 s", bo);
  }

  o = pd_snapshot_find_object(snap, IDX_PROCESS);
  if (OK(o && o->instance_count == 8 && o->counter_count == 2,
         "%s: Process: 8 instances, 2 counters", bo)) {
    static const char *const full[] = {"Idle",      "System",    "explorer",
                                       "svchost",   "svchost#1", "svchost#2",
                                       "SVCHOST#3", "_Total"};
    for (uint32_t i = 0; i < 8; i++) {
      IS_STR(pd_instance_full_name(snap, o, i), full[i], "%s: Process %u", bo,
             i);
      IS_U64(raw_of(snap, IDX_PROCESS, i, 0), 100 + i, "%s: ID Process %u", bo,
             i);
      IS_U64(raw_of(snap, IDX_PROCESS, i, 1), 1000000ull * (i + 1),
             "%s: %% Processor Time %u", bo, i);
    }
    IS_STR(pd_instance_name(snap, o, 6), "SVCHOST", "%s: own name kept", bo);
    IS_INT(pd_find_instance(snap, o, "svchost"), 3, "%s: find svchost", bo);
    IS_INT(pd_find_instance(snap, o, "SvcHost#2"), 5, "%s: find #2", bo);
    IS_INT(pd_find_instance(snap, o, "svchost#3"), 6, "%s: find #3", bo);
    IS_INT(pd_find_instance(snap, o, "svchost#4"), -1, "%s: no #4", bo);
    IS_INT(pd_find_instance(snap, o, "explorer"), 2, "%s: find explorer", bo);
  }

  o = pd_snapshot_find_object(snap, IDX_THREAD);
  if (OK(o && o->instance_count == 6, "%s: Thread: 6 instances", bo)) {
    static const char *const full[] = {"explorer/0",  "explorer/1", "svchost/0",
                                       "svchost/0#1", "7",          "8"};
    for (uint32_t i = 0; i < 6; i++) {
      IS_STR(pd_instance_full_name(snap, o, i), full[i], "%s: Thread %u", bo,
             i);
      IS_U64(raw_of(snap, IDX_THREAD, i, 0), 4000 + i, "%s: thread id %u", bo,
             i);
    }
    IS_INT(o->instances[0].parent_object, IDX_PROCESS, "%s: parent index", bo);
    IS_INT(o->instances[2].parent_instance, 3, "%s: parent position", bo);
    IS_STR(pd_instance_name(snap, o, 1), "1", "%s: own name of a thread", bo);
    IS_INT(pd_find_instance(snap, o, "EXPLORER/1"), 1, "%s: find thread", bo);
  }

  o = pd_snapshot_find_object(snap, IDX_EMPTY);
  if (OK(o, "%s: zero-instance object present", bo)) {
    IS_INT(o->num_instances, 0, "%s: NumInstances 0", bo);
    IS_INT(o->instance_count, 0, "%s: no instances", bo);
    IS_INT(o->counter_count, 1, "%s: its counter", bo);
    IS_INT(pd_find_instance(snap, o, "x"), -1, "%s: find in empty", bo);
  }
  o = pd_snapshot_find_object(snap, IDX_META_MULTI);
  if (OK(o, "%s: metadata -2 object present", bo)) {
    IS_INT(o->num_instances, -2, "%s: NumInstances -2", bo);
    IS_INT(o->instance_count, 0, "%s: -2: no instances", bo);
    IS_INT(o->counter_count, 2, "%s: -2: 2 definitions", bo);
    IS_INT(o->counters[1].name_index, 24, "%s: -2: 2nd definition", bo);
  }
  o = pd_snapshot_find_object(snap, IDX_META_NONE);
  if (OK(o, "%s: metadata -3 object present", bo)) {
    IS_INT(o->num_instances, -3, "%s: NumInstances -3", bo);
    IS_INT(o->instance_count, 0, "%s: -3: no instances", bo);
    IS_INT(o->counter_count, 1, "%s: -3: 1 definition", bo);
    IS_INT(o->counters[0].size, 8, "%s: -3: LARGE size 8", bo);
  }

  o = pd_snapshot_find_object(snap, IDX_UNNAMED);
  if (OK(o && o->instance_count == 2, "%s: unnamed instances", bo)) {
    IS_INT(o->instances[0].name_bytes, 0, "%s: NameLength 0", bo);
    IS_INT(o->instances[0].unique_id, 4242, "%s: UniqueID", bo);
    IS_STR(pd_instance_name(snap, o, 0), "4242", "%s: name = UniqueID", bo);
    IS_STR(pd_instance_full_name(snap, o, 1), "17", "%s: full = UniqueID", bo);
    IS_INT(pd_find_instance(snap, o, "17"), 1, "%s: find by UniqueID", bo);
    IS_U64(raw_of(snap, IDX_UNNAMED, 1, 0), 2, "%s: its value", bo);
  }

  o = pd_snapshot_find_object(snap, IDX_CP1252);
  if (OK(o && o->instance_count == 2, "%s: code-page object", bo)) {
    IS_INT(o->code_page, 1252, "%s: CodePage 1252", bo);
    IS_STR(pd_instance_name(snap, o, 0), "caf\xc3\xa9",
           "%s: cp1252 e9 -> UTF-8 \"caf\xc3\xa9\"", bo);
    IS_STR(pd_instance_name(snap, o, 1), "\xe2\x82\xacuro",
           "%s: cp1252 80 -> U+20AC", bo);
    IS_INT(pd_find_instance(snap, o, "CAF\xc3\x89"), 0,
           "%s: find \"CAF\xc3\x89\" (Latin-1 fold)", bo);
    IS_U64(raw_of(snap, IDX_CP1252, 1, 0), 12, "%s: its value", bo);
  }

  o = pd_snapshot_find_object(snap, IDX_MULTI_DEF);
  if (OK(o && o->counter_count == 2, "%s: multi timer + MULTI_BASE", bo)) {
    pd_sample s;
    pd_snapshot_sample(snap, o, &o->instances[0], 0, &s);
    IS_U64(s.value, 15000000, "%s: multi value", bo);
    OK(s.has_base, "%s: MULTI_BASE definition read", bo);
    IS_U64(s.base, 2, "%s: B = 2 from the MULTI_BASE definition", bo);
  }
  o = pd_snapshot_find_object(snap, IDX_MULTI_DWORD);
  if (OK(o && o->instance_count == 1, "%s: multi timer, no base def", bo)) {
    pd_sample s;
    pd_snapshot_sample(snap, o, &o->instances[0], 0, &s);
    IS_U64(s.value, 30000000, "%s: multi value (8 bytes at 8)", bo);
    OK(s.has_base, "%s: DWORD after the value read", bo);
    IS_U64(s.base, 4, "%s: B = 4 from CounterOffset + 8", bo);
    IS_STR(pd_instance_name(snap, o, 0), "disk0", "%s: disk0", bo);
  }
  o = pd_snapshot_find_object(snap, IDX_FRACTION);
  if (OK(o && o->counter_count == 2, "%s: RAW_FRACTION + RAW_BASE", bo)) {
    pd_sample s;
    pd_snapshot_sample(snap, o, &o->instances[0], 0, &s);
    OK(s.has_base && s.base == 200, "%s: base 200 from the next def", bo);
    double v = 0;
    pd_compute(PD_RAW_FRACTION, NULL, &s, NULL, &v);
    IS_DOUBLE(v, 12.5, "%s: 100 * 25 / 200 = 12.5 %%", bo);
  }
}

static void test_shapes(void) {
  for (int be = 0; be < 2; be++) {
    const char *bo = be ? "BE" : "LE";
    enc_blob *b = shapes_blob(be);
    size_t len;
    uint8_t *buf = enc_build(b, &len);
    pd_snapshot *snap = pd_snapshot_new();
    if (decode_ok(snap, buf, len, bo)) {
      OK(pd_snapshot_header(snap)->big_endian == (be != 0),
         "%s: byte order detected", bo);
      check_shapes(snap, bo);
    }
    pd_snapshot_free(snap);
    free(buf);
    enc_free(b);
  }
}

/* --------------------------------------------------------- Samba quirks */

static void test_samba(void) {
  /* "SAMBA" + NUL = 12 bytes: 88 + 12 = 100 -> 104; "SMB" + NUL = 8 bytes:
   * 96 is aligned, so Samba writes 104 */
  enc_blob *b = enc_new("SMB");
  enc_set_quirks(b, ENC_QUIRK_SAMBA | ENC_QUIRK_STALE_PADDING);
  enc_object *o = enc_add_object(b, 2, ENC_SINGLE_INSTANCE);
  uint32_t c = enc_add_counter(o, 10, PD_COUNTER_RAWCOUNT);
  enc_set_value(o, ENC_SINGLE, c, 0x1234567890ull); /* > 32 bits: 8 read */
  c = enc_add_counter(o, 12, PD_COUNTER_COUNTER);
  enc_set_value(o, ENC_SINGLE, c, 77);
  enc_object *m = enc_add_object(b, 230, ENC_MULTI_INSTANCE);
  c = enc_add_counter(m, 784, PD_COUNTER_RAWCOUNT);
  uint32_t in = enc_add_instance(m, "smbd");
  enc_set_value(m, in, c, 4321);
  in = enc_add_instance(m, "winbindd");
  enc_set_value(m, in, c, 4322);
  size_t len;
  uint8_t *buf = enc_build(b, &len);
  pd_snapshot *snap = pd_snapshot_new();
  if (decode_ok(snap, buf, len, "samba")) {
    const pd_header *h = pd_snapshot_header(snap);
    IS_INT(h->header_length, 104, "samba: HeaderLength 104 (full pad)");
    IS_INT(h->total_byte_length, len - 104,
           "samba: TotalByteLength without the header is kept as is");
    IS_STR(h->system_name, "SMB", "samba: system name");
    IS_INT(pd_snapshot_object_count(snap), 2, "samba: both objects");
    const pd_object *so = pd_snapshot_find_object(snap, 2);
    if (OK(so && so->counter_count == 2, "samba: object 2")) {
      IS_INT(so->counters[0].size, 8, "samba: CounterSize 8 for a DWORD");
      IS_U64(raw_of(snap, 2, 0, 0), 0x1234567890ull, "samba: all 8 bytes read");
      IS_U64(raw_of(snap, 2, 0, 1), 77, "samba: COUNTER_COUNTER 77");
    }
    const pd_object *mo = pd_snapshot_find_object(snap, 230);
    if (OK(mo && mo->instance_count == 2, "samba: object 230")) {
      IS_STR(pd_instance_full_name(snap, mo, 1), "winbindd",
             "samba: name with stale padding after its NUL");
      IS_U64(raw_of(snap, 230, 1, 0), 4322, "samba: value 4322");
    }
  }
  free(buf);

  /* NumObjectTypes overstating: stop at the end of the data (format.md 1.3) */
  enc_set_quirks(b, 0);
  enc_set_num_objects(b, 9);
  buf = enc_build(b, &len);
  if (decode_ok(snap, buf, len, "NumObjectTypes 9, 2 present")) {
    IS_INT(pd_snapshot_header(snap)->num_object_types, 9,
           "claimed count kept in the header");
    IS_INT(pd_snapshot_object_count(snap), 2, "two objects decoded");
  }
  free(buf);
  pd_snapshot_free(snap);
  enc_free(b);
}

/* ------------------------------------------------------- snapshot reuse */

static void test_reuse(void) {
  /* The same object index with other instance names: the name cache must
   * not survive a decode. */
  enc_blob *a = shapes_blob(false);
  enc_blob *b = enc_new("OTHER");
  enc_set_big_endian(b, true);
  enc_object *p = enc_add_object(b, IDX_PROCESS, ENC_MULTI_INSTANCE);
  uint32_t c = enc_add_counter(p, 784, PD_COUNTER_RAWCOUNT);
  uint32_t in = enc_add_instance(p, "notepad");
  enc_set_value(p, in, c, 555);
  in = enc_add_instance(p, "notepad");
  enc_set_value(p, in, c, 556);
  size_t alen, blen;
  uint8_t *abuf = enc_build(a, &alen), *bbuf = enc_build(b, &blen);

  pd_snapshot *snap = pd_snapshot_new();
  if (decode_ok(snap, abuf, alen, "reuse: first decode")) {
    const pd_object *o = pd_snapshot_find_object(snap, IDX_PROCESS);
    IS_STR(pd_instance_full_name(snap, o, 4), "svchost#1",
           "reuse: names of the first blob");
  }
  if (decode_ok(snap, bbuf, blen, "reuse: second decode (BE, smaller)")) {
    IS_STR(pd_snapshot_header(snap)->system_name, "OTHER",
           "reuse: new system name");
    IS_INT(pd_snapshot_object_count(snap), 1, "reuse: one object now");
    const pd_object *o = pd_snapshot_find_object(snap, IDX_PROCESS);
    if (OK(o && o->instance_count == 2, "reuse: two instances now")) {
      IS_STR(pd_instance_full_name(snap, o, 0), "notepad", "reuse: new name");
      IS_STR(pd_instance_full_name(snap, o, 1), "notepad#1",
             "reuse: new duplicate");
      IS_INT(pd_find_instance(snap, o, "svchost"), -1, "reuse: old names gone");
      IS_INT(pd_find_instance(snap, o, "notepad#1"), 1, "reuse: new index");
      IS_U64(raw_of(snap, IDX_PROCESS, 1, 0), 556, "reuse: new value");
    }
    OK(pd_snapshot_find_object(snap, IDX_THREAD) == NULL,
       "reuse: old objects gone");
  }
  if (decode_ok(snap, abuf, alen, "reuse: third decode (the first again)"))
    check_shapes(snap, "reuse LE");
  pd_snapshot_free(snap);
  free(abuf);
  free(bbuf);
  enc_free(a);
  enc_free(b);
}

/* Valid but unusual producers: definitions longer than 40 bytes (step by
 * ByteLength), unaligned counters, text and zero-size counters, no system
 * name. The decoder never relies on alignment (format.md 1.3). */
static void test_unusual(void) {
  for (int be = 0; be < 2; be++) {
    const char *bo = be ? "BE" : "LE";
    enc_blob *b = enc_new(NULL);
    enc_set_big_endian(b, be);
    enc_object *o = enc_add_object(b, 600, ENC_MULTI_INSTANCE);
    uint32_t c0 = enc_add_counter(o, 60, PD_COUNTER_RAWCOUNT);
    enc_counter_set_byte_length(o, c0, 48);
    enc_counter_set_offset(o, c0, 5);
    uint32_t c1 = enc_add_counter(o, 62, PD_COUNTER_LARGE_RAWCOUNT);
    enc_counter_set_offset(o, c1, 9);
    uint32_t c2 = enc_add_counter(o, 64, PD_COUNTER_TEXT);
    enc_counter_set_size(o, c2, 6);
    enc_counter_set_offset(o, c2, 17);
    uint32_t c3 = enc_add_counter(o, 66, PD_COUNTER_NODATA);
    enc_counter_set_byte_length(o, c3, 44);
    uint32_t in = enc_add_instance(o, "odd");
    enc_set_value(o, in, c0, 0xCAFEBABEu);
    enc_set_value(o, in, c1, 0x0011223344556677ull);
    in = enc_add_instance(o, "odder");
    enc_set_value(o, in, c0, 5);
    enc_set_value(o, in, c1, 6);
    size_t len;
    uint8_t *buf = enc_build(b, &len);
    pd_snapshot *snap = pd_snapshot_new();
    if (decode_ok(snap, buf, len, bo)) {
      IS_STR(pd_snapshot_header(snap)->system_name, "",
             "%s: no system name: \"\"", bo);
      const pd_object *ob = pd_snapshot_find_object(snap, 600);
      if (OK(ob && ob->counter_count == 4 && ob->instance_count == 2,
             "%s: 4 definitions (48 and 44 bytes long), 2 instances", bo)) {
        IS_INT(ob->counters[1].wire_offset, enc_counter_def_offset(o, 1),
               "%s: 2nd definition found by ByteLength 48", bo);
        IS_INT(ob->counters[1].name_index, 62, "%s: its name index", bo);
        IS_INT(ob->counters[3].name_index, 66, "%s: 4th definition", bo);
        IS_INT(ob->counters[2].size, 6, "%s: TEXT size 6", bo);
        IS_INT(ob->counters[3].size, 0, "%s: NODATA size 0", bo);
        IS_U64(raw_of(snap, 600, 0, 0), 0xCAFEBABEu, "%s: DWORD at 5", bo);
        IS_U64(raw_of(snap, 600, 0, 1), 0x0011223344556677ull, "%s: LARGE at 9",
               bo);
        IS_U64(raw_of(snap, 600, 1, 1), 6, "%s: 2nd instance LARGE", bo);
        IS_U64(raw_of(snap, 600, 0, 2), 0, "%s: TEXT raw value 0", bo);
        IS_STR(pd_instance_name(snap, ob, 1), "odder", "%s: odder", bo);
      }
    }
    pd_snapshot_free(snap);
    free(buf);
    enc_free(b);
  }
}

/* Odd UTF-16 names (raw bytes, little-endian): no NUL, odd length, an
 * unpaired surrogate, an embedded NUL, only a NUL. */
static void test_odd_names(void) {
  enc_blob *b = enc_new("N");
  enc_object *o = enc_add_object(b, 800, ENC_MULTI_INSTANCE);
  enc_add_counter(o, 90, PD_COUNTER_RAWCOUNT);
  enc_add_instance_bytes(o, "a\0b\0", 4);
  enc_add_instance_bytes(o, "a\0b\0c", 5);
  enc_add_instance_bytes(o,
                         "\0\xd8"
                         "a\0\0\0",
                         6);
  enc_add_instance_bytes(o, "a\0\0\0b\0\0\0", 8);
  uint32_t z = enc_add_instance_bytes(o, "\0\0", 2);
  enc_instance_set_unique_id(o, z, 99);
  size_t len;
  uint8_t *buf = enc_build(b, &len);
  pd_snapshot *snap = pd_snapshot_new();
  if (decode_ok(snap, buf, len, "odd names")) {
    const pd_object *ob = pd_snapshot_find_object(snap, 800);
    if (OK(ob && ob->instance_count == 5, "odd names: 5 instances")) {
      IS_STR(pd_instance_name(snap, ob, 0), "ab", "name without a NUL");
      IS_STR(pd_instance_name(snap, ob, 1), "ab", "odd NameLength 5: 2 units");
      IS_STR(pd_instance_name(snap, ob, 2),
             "\xef\xbf\xbd"
             "a",
             "unpaired surrogate -> U+FFFD");
      IS_STR(pd_instance_name(snap, ob, 3), "a", "stops at the first NUL");
      IS_STR(pd_instance_name(snap, ob, 4), "",
             "named but empty (NameLength 2) stays \"\"");
      IS_STR(pd_instance_full_name(snap, ob, 3), "a", "full name a");
    }
  }
  pd_snapshot_free(snap);
  free(buf);
  enc_free(b);
}

/* Bases for pd_snapshot_sample (format.md 3): the next definition when it is a
 * base type, none when it is missing, and the multi count only when the
 * DWORD after the value lies inside the block. */
static void test_bases(void) {
  enc_blob *b = enc_new("B");
  enc_object *o = enc_add_object(b, 700, ENC_SINGLE_INSTANCE);
  uint32_t avg = enc_add_counter(o, 70, PD_AVERAGE_TIMER);
  uint32_t avgb = enc_add_counter(o, 72, PD_AVERAGE_BASE);
  uint32_t prec = enc_add_counter(o, 74, PD_PRECISION_100NS_TIMER);
  uint32_t ts = enc_add_counter(o, 76, PD_PRECISION_TIMESTAMP);
  uint32_t frac = enc_add_counter(o, 78, PD_RAW_FRACTION);
  uint32_t raw = enc_add_counter(o, 80, PD_COUNTER_RAWCOUNT); /* not a base */
  uint32_t last = enc_add_counter(o, 82, PD_SAMPLE_FRACTION); /* no next */
  enc_set_value(o, ENC_SINGLE, avg, 3000000);
  enc_set_value(o, ENC_SINGLE, avgb, 100);
  enc_set_value(o, ENC_SINGLE, prec, 2500000);
  enc_set_value(o, ENC_SINGLE, ts, 133485408000000000ull);
  enc_set_value(o, ENC_SINGLE, frac, 1);
  enc_set_value(o, ENC_SINGLE, raw, 2);
  enc_set_value(o, ENC_SINGLE, last, 3);
  /* a multi timer as the block's last 8 bytes: no room for the count */
  enc_object *m = enc_add_object(b, 702, ENC_SINGLE_INSTANCE);
  uint32_t mt = enc_add_counter(m, 84, PD_100NSEC_MULTI_TIMER);
  enc_counter_set_offset(m, mt, 8);
  enc_set_value(m, ENC_SINGLE, mt, 9);
  size_t len;
  uint8_t *buf = enc_build(b, &len);
  pd_snapshot *snap = pd_snapshot_new();
  if (decode_ok(snap, buf, len, "bases")) {
    const pd_object *ob = pd_snapshot_find_object(snap, 700);
    pd_sample s;
    pd_snapshot_sample(snap, ob, &ob->instances[0], avg, &s);
    OK(s.has_base && s.base == 100 && s.value == 3000000,
       "AVERAGE_TIMER: value 3e6, base 100 from AVERAGE_BASE");
    pd_snapshot_sample(snap, ob, &ob->instances[0], prec, &s);
    OK(s.has_base && s.base == 133485408000000000ull,
       "PRECISION_100NS_TIMER: base from PRECISION_TIMESTAMP");
    pd_snapshot_sample(snap, ob, &ob->instances[0], frac, &s);
    OK(!s.has_base, "RAW_FRACTION followed by a RAWCOUNT: no base");
    pd_snapshot_sample(snap, ob, &ob->instances[0], last, &s);
    OK(!s.has_base && s.value == 3, "SAMPLE_FRACTION as the last: no base");
    pd_snapshot_sample(snap, ob, &ob->instances[0], raw, &s);
    OK(!s.has_base && s.value == 2, "RAWCOUNT: no base");
    const pd_object *mo = pd_snapshot_find_object(snap, 702);
    IS_INT(mo ? mo->instances[0].block_length : 0, 16,
           "multi timer block: 16 bytes (value at 8..16)");
    pd_snapshot_sample(snap, mo, &mo->instances[0], 0, &s);
    OK(!s.has_base && s.value == 9,
       "multi timer: the count DWORD would be past the block: no base");
  }
  pd_snapshot_free(snap);
  free(buf);
  enc_free(b);
}

/* Thread x13,000 under 1,000 processes: the hash lookups and the "#n"
 * numbering at scale (the benchmark's shape). */
static void test_large(void) {
  enc_blob *b = enc_new("BIG");
  enc_object *p = enc_add_object(b, IDX_PROCESS, ENC_MULTI_INSTANCE);
  uint32_t pc = enc_add_counter(p, 784, PD_COUNTER_RAWCOUNT);
  char name[32];
  for (uint32_t i = 0; i < 1000; i++) {
    snprintf(name, sizeof name, "proc%u", i % 500); /* each name twice */
    uint32_t in = enc_add_instance(p, name);
    enc_set_value(p, in, pc, i);
  }
  enc_object *t = enc_add_object(b, IDX_THREAD, ENC_MULTI_INSTANCE);
  uint32_t tc = enc_add_counter(t, 804, PD_COUNTER_RAWCOUNT);
  for (uint32_t i = 0; i < 13000; i++) {
    snprintf(name, sizeof name, "%u", i % 13);
    uint32_t in = enc_add_instance(t, name);
    enc_instance_set_parent(t, in, IDX_PROCESS, i / 13);
    enc_set_value(t, in, tc, 100000 + i);
  }
  size_t len;
  uint8_t *buf = enc_build(b, &len);
  pd_snapshot *snap = pd_snapshot_new();
  if (decode_ok(snap, buf, len, "13,000 threads")) {
    const pd_object *po = pd_snapshot_find_object(snap, IDX_PROCESS);
    const pd_object *to = pd_snapshot_find_object(snap, IDX_THREAD);
    if (OK(po && to && po->instance_count == 1000 &&
               to->instance_count == 13000,
           "1,000 processes, 13,000 threads")) {
      IS_STR(pd_instance_full_name(snap, po, 742), "proc242#1",
             "process 742 is proc242#1");
      IS_STR(pd_instance_full_name(snap, to, 12999), "proc499/12#1",
             "thread 12999 is proc499/12#1 (parent 999 = proc499#1)");
      IS_INT(pd_find_instance(snap, to, "proc7/3"), 7 * 13 + 3, "find proc7/3");
      IS_INT(pd_find_instance(snap, to, "PROC7/3#1"), 507 * 13 + 3,
             "find PROC7/3#1");
      IS_U64(raw_of(snap, IDX_THREAD, 507 * 13 + 3, 0), 100000 + 507 * 13 + 3,
             "its value");
      uint32_t bad = 0;
      for (uint32_t i = 0; i < 13000; i++)
        if (pd_find_instance(snap, to, pd_instance_full_name(snap, to, i)) !=
            (int64_t)i)
          bad++;
      IS_INT(bad, 0, "every thread found by its own full name");
    }
  }
  pd_snapshot_free(snap);
  free(buf);
  enc_free(b);
}

/* Errors and the snapshot: a failed decode keeps the objects before the
 * error; the next good decode is whole; err may be NULL. */
static void test_errors_and_reuse(void) {
  enc_blob *b = shapes_blob(false);
  size_t len;
  uint8_t *buf = enc_build(b, &len);
  pd_snapshot *snap = pd_snapshot_new();
  /* break the Thread object (the third): its first instance's ByteLength */
  enc_object *thr = enc_blob_object(b, 2);
  uint8_t *bad = malloc(len);
  memcpy(bad, buf, len);
  enc_put32(bad, enc_instance_offset(thr, 0), 3, false);
  pd_error err;
  IS_INT(pd_decode(snap, bad, len, NULL, &err), PD_E_INSTANCE,
         "broken Thread instance: PD_E_INSTANCE");
  IS_INT(err.offset, enc_instance_offset(thr, 0), "at its definition");
  IS_INT(pd_snapshot_object_count(snap), 2, "two objects before it kept");
  const pd_object *p = pd_snapshot_find_object(snap, IDX_PROCESS);
  OK(p && p->instance_count == 8, "Process still usable");
  if (p)
    IS_STR(pd_instance_full_name(snap, p, 5), "svchost#2",
           "Process names still work after the error");
  IS_INT(pd_decode(snap, bad, len, NULL, NULL), PD_E_INSTANCE,
         "err NULL: status only");
  if (decode_ok(snap, buf, len, "good decode after a failed one"))
    check_shapes(snap, "after error");
  free(bad);
  pd_snapshot_free(snap);
  free(buf);
  enc_free(b);
}

int main(void) {
  test_spec_vector();
  test_two_samples();
  test_shapes();
  test_samba();
  test_reuse();
  test_unusual();
  test_bases();
  test_odd_names();
  test_large();
  test_errors_and_reuse();
  return tap_done();
}
