/* collectd-winperf: unit tests for the portable V2 (PerfLib) part, format.md 5.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The vectors are built field by field from the format.md 5 layouts
 * (tests/encoder/v2_encoder.h, which never calls the decoder); the expected
 * values are the format.md 3.3 worked examples, not the code's output.
 */
#include "tap.h"
#include "perfdata_v2.h"
#include "v2_encoder.h"

#include <stdlib.h>

#define NONE PD_V2_NO_ID

/* ------------------------------------------------------------ tests */

static void test_guid(void) {
  pd_guid g;
  pd_error err;
  IS_INT(pd_guid_parse("{01234567-89ab-CDEF-0123-456789abcdef}", &g, &err),
         PD_OK, "guid: parse braced");
  IS_U64(g.data1, 0x01234567u, "guid: Data1");
  IS_U64(g.data2, 0x89abu, "guid: Data2");
  IS_U64(g.data3, 0xcdefu, "guid: Data3");
  IS_U64(g.data4[0], 0x01, "guid: Data4[0]");
  IS_U64(g.data4[7], 0xef, "guid: Data4[7]");
  char text[39];
  pd_guid_format(&g, text);
  IS_STR(text, "{01234567-89ab-cdef-0123-456789abcdef}", "guid: format");
  IS_INT(pd_guid_parse("01234567-89ab-cdef-0123-456789abcdef", &g, &err), PD_OK,
         "guid: parse bare");
  IS_INT(pd_guid_parse("{01234567-89ab-cdef-0123-456789abcde}", &g, &err),
         PD_E_ARGUMENT, "guid: short rejected");
  IS_INT(pd_guid_parse("{01234567-89ab-cdef-0123-456789abcdefx}", &g, &err),
         PD_E_ARGUMENT, "guid: trailing rejected");
}

static void test_identifier(void) {
  pd_guid g = {0x11223344u, 0x5566, 0x7788, {1, 2, 3, 4, 5, 6, 7, 8}};
  uint8_t buf[128];
  memset(buf, 0xAA, sizeof buf);
  size_t n = pd_v2_identifier_encode(&g, 6, NULL, PD_V2_ANY_INSTANCE_ID, buf,
                                     sizeof buf);
  IS_INT(n, 40, "identifier: no instance is 40 bytes");
  static const uint8_t want_guid[16] = {
      0x44, 0x33, 0x22, 0x11, 0x66, 0x55, 0x88, 0x77, 1, 2, 3, 4, 5, 6, 7, 8};
  OK(memcmp(buf, want_guid, 16) == 0, "identifier: GUID little-endian fields");
  IS_INT(buf[20], 40, "identifier: Size@20");
  IS_INT(buf[24], 6, "identifier: CounterId@24");
  OK(buf[28] == 0xff && buf[31] == 0xff, "identifier: InstanceId@28");
  OK(buf[40] == 0xAA, "identifier: nothing written after Size");

  /* "_Total": 40 + 7 units * 2 = 54, padded to 56 */
  memset(buf, 0xAA, sizeof buf);
  n = pd_v2_identifier_encode(&g, PD_V2_WILDCARD_COUNTER, "_Total", 0, buf,
                              sizeof buf);
  IS_INT(n, 56, "identifier: _Total padded to 56");
  IS_INT(buf[20], 56, "identifier: Size counts name and pad");
  OK(buf[40] == '_' && buf[41] == 0 && buf[50] == 'l' && buf[51] == 0,
     "identifier: name UTF-16LE at 40");
  OK(buf[52] == 0 && buf[53] == 0 && buf[54] == 0 && buf[55] == 0,
     "identifier: NUL and zero pad");
  OK(buf[24] == 0xff && buf[27] == 0xff, "identifier: wildcard counter");

  IS_INT(pd_v2_identifier_encode(&g, 1, "*", 0, NULL, 0), 48,
         "identifier: '*' needs 44 -> 48 (size query)");
  IS_INT(pd_v2_identifier_encode(&g, 1, "_Total", 0, buf, 55), 56,
         "identifier: too small a buffer reports the size");
  /* U+1F600 is a surrogate pair: 2 units + NUL = 6 bytes -> 46 -> 48 */
  n = pd_v2_identifier_encode(&g, 1, "\xF0\x9F\x98\x80", 0, buf, sizeof buf);
  IS_INT(n, 48, "identifier: non-BMP name");
  OK(buf[40] == 0x3D && buf[41] == 0xD8 && buf[42] == 0x00 && buf[43] == 0xDE,
     "identifier: surrogate pair D83D DE00");
  IS_INT(pd_v2_identifier_encode(&g, 1, "\xC0\xAF", 0, buf, sizeof buf), 0,
         "identifier: overlong UTF-8 rejected");

  /* decode back what PerfAddCounters / PerfQueryCounterInfo return */
  n = pd_v2_identifier_encode(&g, 6, "cpu 1", 3, buf, sizeof buf);
  buf[16] = 0x57; /* Status = ERROR_INVALID_PARAMETER (87) */
  buf[32] = 2;    /* Index */
  pd_v2_identifier id;
  pd_error err;
  size_t next = 0;
  IS_INT(pd_v2_identifier_decode(buf, n, 0, &id, &next, &err), PD_OK,
         "identifier: decode");
  IS_INT(next, n, "identifier: next block offset");
  IS_STR(id.instance, "cpu 1", "identifier: decoded name");
  IS_INT(id.status, 87, "identifier: Status");
  IS_INT(id.index, 2, "identifier: Index");
  IS_INT(id.instance_id, 3, "identifier: InstanceId");
  OK(memcmp(&id.set, &g, sizeof g) == 0, "identifier: GUID back");
  IS_INT(pd_v2_identifier_decode(buf, n - 1, 0, &id, &next, &err), PD_E_V2,
         "identifier: Size past the buffer");
  IS_INT(pd_v2_identifier_decode(buf, 39, 0, &id, &next, &err), PD_E_TRUNCATED,
         "identifier: truncated struct");
}

static void test_counterset(void) {
  enc_vec v;
  enc_v2_reg r[3] = {{6, PD_COUNTER_COUNTER, NONE, NONE, NONE, NONE},
                     {8, PD_RAW_FRACTION, 10, NONE, NONE, NONE},
                     {10, PD_RAW_BASE, NONE, NONE, NONE, NONE}};
  enc_v2_counterset(&v, r, 3);
  IS_INT(v.n, 32 + 3 * 48, "counterset: vector size");
  pd_v2_counterset *set = NULL;
  pd_error err;
  IS_INT(pd_v2_counterset_parse(v.b, v.n, &set, &err), PD_OK,
         "counterset: parse");
  if (set == NULL)
    return;
  IS_INT(set->counter_count, 3, "counterset: NumCounters");
  IS_INT(set->instance_type, 2, "counterset: InstanceType");
  IS_U64(set->guid.data1, 0x13121110u, "counterset: GUID");
  IS_U64(set->counters[1].type, PD_RAW_FRACTION, "counterset: Type");
  IS_INT(set->counters[1].base_id, 10, "counterset: BaseCounterId");
  IS_INT(set->counters[1].detail_level, 100, "counterset: DetailLevel");
  OK(pd_v2_counterset_find(set, 10) == &set->counters[2], "counterset: find");
  OK(pd_v2_counterset_find(set, 7) == NULL, "counterset: find missing");
  pd_v2_counterset_free(set);
  set = NULL;
  IS_INT(pd_v2_counterset_parse(v.b, v.n - 1, &set, &err), PD_E_TRUNCATED,
         "counterset: one byte short");
  OK(set == NULL, "counterset: nothing returned on error");
  enc_set32(&v, 24, 0x7fffffffu);
  IS_INT(pd_v2_counterset_parse(v.b, v.n, &set, &err), PD_E_TRUNCATED,
         "counterset: huge NumCounters rejected before allocating");
}

/* enc_v2_answer_all_types has every dwType; block b answers identifier b.
 * From sample 0 to 1 (PerfTimeStamp + 2 s, PerfTime100NSec + 1 s): block 1
 * COUNTER_COUNTER 600 / 2 s = 300/s; block 2 RAW_FRACTION 25 / 200 =
 * 12.5 %, 100NSEC_TIMER 7.5e6 / 1e7 = 75 %; block 3 100NSEC_TIMER_INV
 * 100 * (1 - 7e6 / 1e7) = 30 %; block 4 w3wp AVERAGE_TIMER (3e6 / 1e7 s) /
 * 100 = 0.003 s, 100NSEC_MULTI_TIMER 100 * 1.5 / 2 = 75 %; svchost's base
 * does not move (0, format.md 3.1) and its multi count is 0 (value 0). */
static void ids_for_answer(pd_v2_identifier ids[5]) {
  memset(ids, 0, 5 * sizeof *ids);
  ids[0].counter_id = 99;
  ids[1].counter_id = 4;
  strcpy(ids[1].instance, "_Total");
  ids[2].counter_id = PD_V2_WILDCARD_COUNTER;
  ids[3].counter_id = 14;
  strcpy(ids[3].instance, "*");
  ids[4].counter_id = PD_V2_WILDCARD_COUNTER;
  strcpy(ids[4].instance, "*");
  for (int i = 0; i < 5; i++) {
    ids[i].index = (uint32_t)i;
    ids[i].instance_id = PD_V2_ANY_INSTANCE_ID;
  }
}

static void test_decode(void) {
  enc_vec v;
  enc_v2_answer_all_types(&v, 0);
  pd_v2_identifier ids[5];
  ids_for_answer(ids);
  pd_v2_data *d = pd_v2_data_new();
  pd_error err;
  IS_INT(pd_v2_data_decode(d, v.b, v.n, ids, 5, 0, &err), PD_OK,
         "decode: every dwType");
  const pd_v2_header *h = pd_v2_data_header(d);
  IS_INT(h->num_counters, 5, "decode: dwNumCounters");
  IS_INT(h->perf_freq, 10000000, "decode: PerfFreq");
  IS_INT(h->perf_time_100ns, 133485408000000000, "decode: PerfTime100NSec");
  IS_INT(pd_v2_data_block_count(d), 5, "decode: five blocks");
  IS_INT(pd_v2_data_block(d, 0)->status, 0x490, "decode: error block status");
  IS_INT(pd_v2_data_block(d, 0)->value_count, 0, "decode: error block empty");
  IS_INT(pd_v2_data_value_count(d), 1 + 3 + 2 + 8, "decode: 14 readings");
  const pd_v2_value *x = pd_v2_data_value(d, 0);
  IS_INT(x->counter_id, 4, "decode: single counter id from the identifier");
  IS_STR(x->instance, "_Total", "decode: single instance from the identifier");
  IS_U64(x->raw, 1000, "decode: single value");
  x = pd_v2_data_value(d, 3);
  IS_INT(x->counter_id, 12, "decode: multi-counter id from the answer");
  IS_INT(x->data_size, 8, "decode: 8-byte value");
  IS_U64(x->raw, 5000000, "decode: 8-byte raw");
  IS_STR(x->instance, "", "decode: wildcard identifier means no name");
  x = pd_v2_data_value(d, 5);
  IS_INT(x->counter_id, 14, "decode: multi-instance counter id");
  IS_STR(x->instance, "1", "decode: instance name");
  IS_INT(x->instance_id, 1, "decode: instance id");
  IS_U64(x->raw, 2000000, "decode: multi-instance value");
  x = pd_v2_data_value(d, 11);
  IS_STR(x->instance, "svchost", "decode: counter set instance");
  IS_INT(x->counter_id, 22, "decode: counter set id order");
  IS_U64(x->raw, 10, "decode: counter set value");
  IS_INT(pd_v2_data_block(d, 4)->first_value, 6, "decode: block first value");
  IS_INT(pd_v2_data_block(d, 4)->value_count, 8, "decode: block value count");

  /* every truncation is an error, never a crash (ASan watches) */
  int bad = 0;
  for (size_t n = 0; n < v.n; n++) {
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, v.b, n);
    if (pd_v2_data_decode(d, copy, n, ids, 5, 0, &err) == PD_OK)
      bad++;
    free(copy);
  }
  IS_INT(bad, 0, "decode: each of %zu truncations is an error", v.n);
  IS_INT(pd_v2_data_value_count(d), 0, "decode: empty after an error");

  enc_vec w = v;
  enc_set32(&w, 48 + 16 + 8, 1u << 30); /* block 1 dwSize */
  IS_INT(pd_v2_data_decode(d, w.b, w.n, ids, 5, 0, &err), PD_E_V2,
         "decode: block dwSize past the end");
  w = v;
  enc_set32(&w, 48 + 16 + 4, 3); /* block 1 dwType 3 */
  IS_INT(pd_v2_data_decode(d, w.b, w.n, ids, 5, 0, &err), PD_E_V2,
         "decode: unknown dwType");
  OK(strstr(err.message, "dwType 3") != NULL, "decode: message names it (%s)",
     err.message);
  w = v;
  enc_set32(&w, 48 + 16 + 16, 4000); /* block 1 PERF_COUNTER_DATA dwDataSize */
  IS_INT(pd_v2_data_decode(d, w.b, w.n, ids, 5, 0, &err), PD_E_V2,
         "decode: dwDataSize past its block");
  w = v;
  enc_set32(&w, 4, 0x7fffffffu); /* dwNumCounters */
  IS_INT(pd_v2_data_decode(d, w.b, w.n, ids, 5, 0, &err), PD_E_TRUNCATED,
         "decode: huge dwNumCounters stops at the end");
  IS_INT(pd_v2_data_decode(d, v.b, v.n, ids, 5, 3, &err), PD_E_LIMIT,
         "decode: max_values enforced");
  IS_INT(pd_v2_data_decode(d, v.b, v.n, NULL, 0, 0, &err), PD_OK,
         "decode: without identifiers");
  IS_INT(pd_v2_data_value(d, 0)->counter_id, PD_V2_NO_ID,
         "decode: unnamed single counter");
  pd_v2_data_free(d);
}

static const pd_v2_result *find(const pd_v2_results *r, uint32_t block,
                                uint32_t id, const char *inst) {
  for (size_t i = 0; i < r->count; i++)
    if (r->items[i].block == block && r->items[i].counter_id == id &&
        strcmp(r->items[i].instance, inst) == 0)
      return &r->items[i];
  return NULL;
}

static void check(const pd_v2_results *r, uint32_t block, uint32_t id,
                  const char *inst, pd_value_status st, double want,
                  const char *what) {
  const pd_v2_result *x = find(r, block, id, inst);
  OK(x != NULL, "evaluate: %s present", what);
  if (x == NULL)
    return;
  IS_INT(x->status, st, "evaluate: %s status", what);
  if (st == PD_VALUE_OK)
    OK(tap_near(x->value, want, 1e-9), "evaluate: %s = %g (got %.12g)", what,
       want, x->value);
}

static void test_evaluate(void) {
  enc_vec v0, v1;
  enc_v2_answer_all_types(&v0, 0);
  enc_v2_answer_all_types(&v1, 1);
  pd_v2_identifier ids[5];
  ids_for_answer(ids);
  enc_v2_reg r1[1] = {{4, PD_COUNTER_COUNTER, NONE, NONE, NONE, NONE}};
  /* block 2: explicit BaseCounterId */
  enc_v2_reg r2[3] = {{8, PD_RAW_FRACTION, 10, NONE, NONE, NONE},
                      {10, PD_RAW_BASE, NONE, NONE, NONE, NONE},
                      {12, PD_100NSEC_TIMER, NONE, NONE, NONE, NONE}};
  enc_v2_reg r3[1] = {{14, PD_100NSEC_TIMER_INV, NONE, NONE, NONE, NONE}};
  /* block 4: bases found by position (no ids), multi by MultiId */
  enc_v2_reg r4[4] = {{20, PD_AVERAGE_TIMER, NONE, NONE, NONE, NONE},
                      {22, PD_AVERAGE_BASE, NONE, NONE, NONE, NONE},
                      {24, PD_100NSEC_MULTI_TIMER, NONE, NONE, NONE, 26},
                      {26, PD_RAW_BASE, NONE, NONE, NONE, NONE}};
  enc_vec cs;
  pd_v2_counterset *s1, *s2, *s3, *s4;
  pd_error err;
  enc_v2_counterset(&cs, r1, 1);
  pd_v2_counterset_parse(cs.b, cs.n, &s1, &err);
  enc_v2_counterset(&cs, r2, 3);
  pd_v2_counterset_parse(cs.b, cs.n, &s2, &err);
  enc_v2_counterset(&cs, r3, 1);
  pd_v2_counterset_parse(cs.b, cs.n, &s3, &err);
  enc_v2_counterset(&cs, r4, 4);
  pd_v2_counterset_parse(cs.b, cs.n, &s4, &err);
  const pd_v2_counterset *sets[5] = {NULL, s1, s2, s3, s4};

  pd_v2_data *d0 = pd_v2_data_new(), *d1 = pd_v2_data_new();
  pd_v2_data_decode(d0, v0.b, v0.n, ids, 5, 0, &err);
  pd_v2_data_decode(d1, v1.b, v1.n, ids, 5, 0, &err);
  pd_v2_results res = {0};

  IS_INT(pd_v2_evaluate(sets, 5, NULL, d0, NULL, &res, &err), PD_OK,
         "evaluate: first sample");
  IS_INT(res.count, 9, "evaluate: bases are not shown (9 of 14)");
  check(&res, 1, 4, "_Total", PD_VALUE_FIRST_SAMPLE, 0,
        "first COUNTER_COUNTER");
  check(&res, 2, 8, "", PD_VALUE_OK, 12.5, "first RAW_FRACTION (one sample)");

  IS_INT(pd_v2_evaluate(sets, 5, d0, d1, NULL, &res, &err), PD_OK,
         "evaluate: second sample");
  check(&res, 1, 4, "_Total", PD_VALUE_OK, 300, "COUNTER_COUNTER 300/s");
  check(&res, 2, 8, "", PD_VALUE_OK, 12.5, "RAW_FRACTION via BaseCounterId");
  check(&res, 2, 12, "", PD_VALUE_OK, 75.0, "100NSEC_TIMER");
  check(&res, 3, 14, "0", PD_VALUE_OK, 30.0, "100NSEC_TIMER_INV instance 0");
  check(&res, 3, 14, "1", PD_VALUE_OK, 30.0, "100NSEC_TIMER_INV instance 1");
  check(&res, 4, 20, "w3wp", PD_VALUE_OK, 0.003, "AVERAGE_TIMER next base");
  check(&res, 4, 24, "w3wp", PD_VALUE_OK, 75.0, "100NSEC_MULTI_TIMER MultiId");
  check(&res, 4, 20, "svchost", PD_VALUE_OK, 0.0, "AVERAGE_TIMER dB 0 -> 0");
  const pd_v2_result *x = find(&res, 4, 24, "w3wp");
  if (x) {
    IS_U64(x->raw_base, 2, "evaluate: multi count as raw base");
    IS_U64(x->counter_type, PD_100NSEC_MULTI_TIMER, "evaluate: type");
  }

  /* an instance that vanished and one that is new: pairing by name */
  enc_vec v2 = v1;
  /* rename svchost -> "svchosu" in the newer sample: no older reading */
  for (size_t i = 0; i + 14 <= v2.n; i++)
    if (memcmp(v2.b + i, "s\0v\0c\0h\0o\0s\0t\0", 14) == 0)
      v2.b[i + 12] = 'u';
  pd_v2_data *d2 = pd_v2_data_new();
  pd_v2_data_decode(d2, v2.b, v2.n, ids, 5, 0, &err);
  pd_v2_evaluate(sets, 5, d0, d2, NULL, &res, &err);
  check(&res, 4, 20, "svchosu", PD_VALUE_FIRST_SAMPLE, 0, "new instance");
  check(&res, 4, 20, "w3wp", PD_VALUE_OK, 0.003, "old instance still paired");

  /* object clock through PerfTimeId / PerfFreqId: OBJ_TIME_TIMER,
   * 100 dN / dD with D the object's clock */
  enc_v2_reg r5[3] = {{1, PD_OBJ_TIME_TIMER, NONE, 2, 3, NONE},
                      {2, PD_COUNTER_LARGE_RAWCOUNT, NONE, NONE, NONE, NONE},
                      {3, PD_COUNTER_LARGE_RAWCOUNT, NONE, NONE, NONE, NONE}};
  enc_v2_counterset(&cs, r5, 3);
  pd_v2_counterset *s5;
  pd_v2_counterset_parse(cs.b, cs.n, &s5, &err);
  const pd_v2_counterset *sets5[1] = {s5};
  static const uint32_t ids5[3] = {1, 2, 3};
  enc_vec o0, o1;
  for (int k = 0; k < 2; k++) {
    enc_vec *o = k ? &o1 : &o0;
    enc_v2_header(o, 1, 5 + k, 7 + k, 10000000); /* system clocks barely move */
    size_t b = enc_v2_begin(o, 0, PD_V2_MULTIPLE_COUNTERS);
    enc_v2_multi(o, ids5, 3);
    enc_v2_counter(o, 8, 100 + 250 * (uint64_t)k);   /* dN 250 */
    enc_v2_counter(o, 8, 4000 + 1000 * (uint64_t)k); /* dD 1000 */
    enc_v2_counter(o, 8, 1000);
    enc_v2_end(o, b);
    enc_v2_finish(o);
  }
  pd_v2_data_decode(d0, o0.b, o0.n, NULL, 0, 0, &err);
  pd_v2_data_decode(d1, o1.b, o1.n, NULL, 0, 0, &err);
  pd_v2_evaluate(sets5, 1, d0, d1, NULL, &res, &err);
  check(&res, 0, 1, "", PD_VALUE_OK, 25.0,
        "OBJ_TIME_TIMER on the object clock");
  IS_INT(res.count, 3, "evaluate: raw counts shown too");

  /* PRECISION_100NS_TIMER: base = the PRECISION_TIMESTAMP counter */
  enc_v2_reg r6[2] = {{1, PD_PRECISION_100NS_TIMER, 2, NONE, NONE, NONE},
                      {2, PD_PRECISION_TIMESTAMP, NONE, NONE, NONE, NONE}};
  enc_v2_counterset(&cs, r6, 2);
  pd_v2_counterset *s6;
  pd_v2_counterset_parse(cs.b, cs.n, &s6, &err);
  const pd_v2_counterset *sets6[1] = {s6};
  for (int k = 0; k < 2; k++) {
    enc_vec *o = k ? &o1 : &o0;
    enc_v2_header(o, 1, 5, 7, 10000000);
    size_t b = enc_v2_begin(o, 0, PD_V2_MULTIPLE_COUNTERS);
    enc_v2_multi(o, ids5, 2);
    enc_v2_counter(o, 8, 2500000 * (uint64_t)k);
    enc_v2_counter(o, 8, 90000000 + 10000000 * (uint64_t)k);
    enc_v2_end(o, b);
    enc_v2_finish(o);
  }
  pd_v2_data_decode(d0, o0.b, o0.n, NULL, 0, 0, &err);
  pd_v2_data_decode(d1, o1.b, o1.n, NULL, 0, 0, &err);
  pd_v2_evaluate(sets6, 1, d0, d1, NULL, &res, &err);
  check(&res, 0, 1, "", PD_VALUE_OK, 25.0, "PRECISION_100NS_TIMER");
  IS_INT(res.count, 1, "evaluate: timestamp not shown");

  pd_v2_results_free(&res);
  pd_v2_data_free(d0);
  pd_v2_data_free(d1);
  pd_v2_data_free(d2);
  pd_v2_counterset_free(s1);
  pd_v2_counterset_free(s2);
  pd_v2_counterset_free(s3);
  pd_v2_counterset_free(s4);
  pd_v2_counterset_free(s5);
  pd_v2_counterset_free(s6);
}

/* Mutations of the all-types answer: decode and evaluate must return a
 * status, never read outside the buffer (ASan/UBSan builds watch). A fixed
 * xorshift seed keeps it reproducible. */
static void test_mutations(void) {
  enc_vec v0, v1;
  enc_v2_answer_all_types(&v0, 0);
  enc_v2_answer_all_types(&v1, 1);
  pd_v2_identifier ids[5];
  ids_for_answer(ids);
  enc_v2_reg r[4] = {{20, PD_AVERAGE_TIMER, NONE, NONE, NONE, NONE},
                     {22, PD_AVERAGE_BASE, NONE, NONE, NONE, NONE},
                     {24, PD_100NSEC_MULTI_TIMER, NONE, NONE, NONE, 26},
                     {26, PD_RAW_BASE, NONE, NONE, NONE, NONE}};
  enc_vec cs;
  pd_v2_counterset *set = NULL;
  pd_error err;
  enc_v2_counterset(&cs, r, 4);
  pd_v2_counterset_parse(cs.b, cs.n, &set, &err);
  const pd_v2_counterset *sets[5] = {set, set, set, set, set};
  pd_v2_data *d0 = pd_v2_data_new(), *d1 = pd_v2_data_new();
  pd_v2_data_decode(d0, v0.b, v0.n, ids, 5, 0, &err);
  pd_v2_results res = {0};
  uint64_t x = 0x9E3779B97F4A7C15u;
  int decoded = 0, rejected = 0, bad_status = 0;
  for (int round = 0; round < 20000; round++) {
    enc_vec m = v1;
    int flips = 1 + (int)(x % 4);
    for (int f = 0; f < flips; f++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      size_t at = (size_t)(x % m.n);
      /* half the time a small size-like value, else a random byte */
      m.b[at] = (x >> 32) & 1 ? (uint8_t)(x >> 40) : (uint8_t)((x >> 40) % 64);
    }
    uint8_t *copy = malloc(m.n);
    memcpy(copy, m.b, m.n);
    pd_status st = pd_v2_data_decode(d1, copy, m.n, ids, 5, 0, &err);
    if (st == PD_OK) {
      decoded++;
      if (pd_v2_evaluate(sets, 5, d0, d1, NULL, &res, &err) != PD_OK)
        bad_status++;
    } else {
      rejected++;
      if (err.message[0] == '\0' || st != err.status)
        bad_status++;
    }
    free(copy);
  }
  OK(decoded > 0 && rejected > 0,
     "mutations: %d decoded, %d rejected with a status", decoded, rejected);
  IS_INT(bad_status, 0, "mutations: every rejection names its reason");
  pd_v2_results_free(&res);
  pd_v2_data_free(d0);
  pd_v2_data_free(d1);
  pd_v2_counterset_free(set);
}

int main(void) {
  test_guid();
  test_identifier();
  test_counterset();
  test_decode();
  test_evaluate();
  test_mutations();
  return tap_done();
}
