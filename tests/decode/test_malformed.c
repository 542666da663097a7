/* collectd-winperf tests: the V1 decoder on malformed blobs.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Malformed V1 blobs (format.md 1.3: every offset and count is hostile).
 *
 * A valid five-object blob is built with the encoder; its layout (from the
 * encoder, never from the decoder) gives the offset of every structure.
 * Then: every prefix of it, and each length/offset/count field pushed past
 * its limit, in both byte orders. Every input is copied into a buffer of
 * exactly its size so ASan catches any read past the end. Each case checks
 * the status, that err.offset points at the structure or field corrupted,
 * that err.message names that offset, and that the snapshot keeps the
 * objects validated before the error. */
#include "encoder.h"
#include "perfdata.h"
#include "tap.h"

#include <stdarg.h>
#include <stdlib.h>

/* The blob under test and where its structures are. */
typedef struct fixture {
  bool be;
  enc_blob *blob;
  enc_object *obj[5];
  uint8_t *buf;
  size_t len;
} fixture;

enum { NOBJ = 5 };

static void fixture_build(fixture *f, bool be) {
  memset(f, 0, sizeof *f);
  f->be = be;
  f->blob = enc_new("HOST"); /* 10 bytes: HeaderLength 104 */
  enc_set_big_endian(f->blob, be);
  enc_object *o = enc_add_object(f->blob, 2, ENC_SINGLE_INSTANCE);
  enc_add_counter(o, 10, PD_COUNTER_RAWCOUNT);
  enc_add_counter(o, 12, PD_COUNTER_LARGE_RAWCOUNT);
  enc_set_value(o, ENC_SINGLE, 0, 1);
  enc_set_value(o, ENC_SINGLE, 1, 2);
  f->obj[0] = o;
  o = enc_add_object(f->blob, 230, ENC_MULTI_INSTANCE);
  enc_add_counter(o, 784, PD_COUNTER_RAWCOUNT);
  enc_add_counter(o, 6, PD_100NSEC_TIMER);
  static const char *const names[] = {"alpha", "beta", "gamma"};
  for (uint32_t i = 0; i < 3; i++) {
    enc_add_instance(o, names[i]);
    enc_set_value(o, i, 0, 10 + i);
    enc_set_value(o, i, 1, 20 + i);
  }
  f->obj[1] = o;
  o = enc_add_object(f->blob, 500, ENC_MULTI_INSTANCE); /* zero instances */
  enc_add_counter(o, 20, PD_COUNTER_RAWCOUNT);
  f->obj[2] = o;
  o = enc_add_object(f->blob, 502, ENC_METADATA_MULTI);
  enc_add_counter(o, 22, PD_COUNTER_RAWCOUNT);
  f->obj[3] = o;
  o = enc_add_object(f->blob, 4, ENC_SINGLE_INSTANCE);
  enc_add_counter(o, 30, PD_COUNTER_RAWCOUNT);
  enc_set_value(o, ENC_SINGLE, 0, 3);
  f->obj[4] = o;
  f->buf = enc_build(f->blob, &f->len);
}

static void fixture_free(fixture *f) {
  free(f->buf);
  enc_free(f->blob);
}

/* A private copy of the first n bytes, in a buffer of exactly n bytes. */
static uint8_t *exact_copy(const uint8_t *src, size_t n) {
  uint8_t *p = malloc(n ? n : 1);
  if (!p)
    abort();
  if (n)
    memcpy(p, src, n);
  return p;
}

/* One acceptable outcome: a status and err.offset. */
typedef struct outcome {
  pd_status status;
  size_t offset;
} outcome;

static bool message_names(const pd_error *err, size_t off) {
  char hex[32];
  snprintf(hex, sizeof hex, "0x%zx", off);
  return strstr(err->message, hex) != NULL;
}

/* Cases where decode.c disagrees with this suite's reading of the spec are
 * marked TODO while todo_reason is set (TAP: the driver reports them as
 * XFAIL, and as XPASS -- a failure -- once decode.c changes, so the mark
 * gets removed). */
static const char *todo_reason;

__attribute__((format(printf, 2, 3))) static int check(int pass,
                                                       const char *fmt, ...) {
  va_list ap;
  if (!todo_reason) {
    char line[512];
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    return tap_ok(pass, "%s", line);
  }
  tap_count++;
  printf("%s %d - ", pass ? "ok" : "not ok", tap_count);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf(" # TODO %s\n", todo_reason);
  fflush(stdout);
  return pass;
}

/* Decode `buf` (len bytes, copied exactly) and require one of `n`
 * outcomes, the offset in the message, and `objects` objects kept. */
static void expect(const char *what, const fixture *f, const uint8_t *buf,
                   size_t len, const pd_decode_limits *lim, const outcome *want,
                   size_t n, uint32_t objects) {
  uint8_t *copy = exact_copy(buf, len);
  pd_snapshot *snap = pd_snapshot_new();
  pd_error err;
  memset(&err, 0, sizeof err);
  pd_status s = pd_decode(snap, copy, len, lim, &err);
  const char *bo = f->be ? "BE" : "LE";
  bool match = false;
  for (size_t i = 0; i < n; i++)
    if (s == want[i].status && (s == PD_OK || err.offset == want[i].offset))
      match = true;
  bool named = s == PD_OK || message_names(&err, err.offset);
  bool kept = pd_snapshot_object_count(snap) == objects;
  if (todo_reason) {
    /* one line, so that it turns XPASS only when all of it holds */
    if (!check(match && err.status == s && named && kept,
               "%s %s: %s at 0x%zx, %u object(s) kept", bo, what,
               pd_status_name(want[0].status), want[0].offset, objects))
      tap_diag("  got %s at 0x%zx, %u object(s): %s", pd_status_name(s),
               err.offset, pd_snapshot_object_count(snap), err.message);
  } else {
    if (!check(match, "%s %s: %s at 0x%zx", bo, what,
               pd_status_name(want[0].status), want[0].offset))
      tap_diag("  got %s at 0x%zx: %s", pd_status_name(s), err.offset,
               err.message);
    check(err.status == s, "%s %s: err.status = return value", bo, what);
    if (!check(named, "%s %s: message names 0x%zx", bo, what, err.offset))
      tap_diag("  message: %s", err.message);
    if (!check(kept, "%s %s: %u object(s) validated before the error kept", bo,
               what, objects))
      tap_diag("  got %u", pd_snapshot_object_count(snap));
  }
  pd_snapshot_free(snap);
  free(copy);
}

static void expect1(const char *what, const fixture *f, const uint8_t *buf,
                    size_t len, pd_status status, size_t offset,
                    uint32_t objects) {
  outcome o = {status, offset};
  expect(what, f, buf, len, NULL, &o, 1, objects);
}

/* A copy of the fixture with the 32-bit field at `off` set to v. */
static uint8_t *patched(const fixture *f, size_t off, uint32_t v) {
  uint8_t *p = exact_copy(f->buf, f->len);
  enc_put32(p, off, v, f->be);
  return p;
}

/* Patch one field and expect one outcome. */
static void field1(const char *what, const fixture *f, size_t off, uint32_t v,
                   pd_status status, size_t at, uint32_t objects) {
  uint8_t *p = patched(f, off, v);
  expect1(what, f, p, f->len, status, at, objects);
  free(p);
}

/* Patch one field and accept either of two outcomes. */
static void field2(const char *what, const fixture *f, size_t off, uint32_t v,
                   outcome a, outcome b, uint32_t objects) {
  uint8_t *p = patched(f, off, v);
  outcome w[2] = {a, b};
  expect(what, f, p, f->len, NULL, w, 2, objects);
  free(p);
}

/* ------------------------------------------------------------ truncation */

/* Every prefix: never a crash (ASan), and either PD_OK with the objects
 * before the cut (only where format.md 1.3 stops: at an object boundary or with
 * fewer than 64 bytes of the next object) or TRUNCATED at the object cut
 * short (HEADER/TRUNCATED at HeaderLength inside the header). One TAP line
 * per region. */
static void test_truncation(const fixture *f) {
  const char *bo = f->be ? "BE" : "LE";
  size_t hl = enc_header_length(f->blob);
  size_t bad[NOBJ + 2] = {0}, tried[NOBJ + 2] = {0};
  size_t first_bad[NOBJ + 2];
  for (size_t len = 0; len < f->len; len++) {
    uint8_t *p = exact_copy(f->buf, len);
    pd_snapshot *snap = pd_snapshot_new();
    pd_error err;
    memset(&err, 0, sizeof err);
    pd_status s = pd_decode(snap, p, len, NULL, &err);
    uint32_t got = pd_snapshot_object_count(snap);
    size_t region;
    bool ok;
    if (len < ENC_HDR_SIZE) {
      region = 0;
      ok = s == PD_E_TRUNCATED && err.offset == 0;
    } else if (len < hl) {
      region = 0;
      ok = (s == PD_E_HEADER || s == PD_E_TRUNCATED) &&
           err.offset == ENC_HDR_HEADER_LENGTH;
    } else {
      uint32_t k = 0;
      while (k + 1 < NOBJ && len >= enc_object_offset(f->obj[k + 1]))
        k++;
      size_t o = enc_object_offset(f->obj[k]);
      region = 1 + k;
      if (len == o)
        ok = s == PD_OK && got == k;
      else if (len - o < ENC_OBJ_SIZE) /* format.md 1.3: stop if o + 64 > L */
        ok = (s == PD_OK || (s == PD_E_TRUNCATED && err.offset == o)) &&
             got == k;
      else
        ok = s == PD_E_TRUNCATED && err.offset == o && got == k;
    }
    if (s != PD_OK && !message_names(&err, err.offset))
      ok = false;
    tried[region]++;
    if (!ok && bad[region]++ == 0)
      first_bad[region] = len;
    if (!ok && bad[region] <= 3)
      tap_diag("  %s prefix %zu: %s at 0x%zx, %u objects: %s", bo, len,
               pd_status_name(s), err.offset, got, err.message);
    pd_snapshot_free(snap);
    free(p);
  }
  OK(bad[0] == 0, "%s truncation inside the header (%zu prefixes)", bo,
     tried[0]);
  for (uint32_t k = 0; k < NOBJ; k++)
    if (!OK(bad[1 + k] == 0,
            "%s truncation inside object %u at 0x%zx (%zu "
            "prefixes)",
            bo, k, enc_object_offset(f->obj[k]), tried[1 + k]))
      tap_diag("  %zu bad, first at length %zu", bad[1 + k], first_bad[1 + k]);

  uint8_t *p = exact_copy(f->buf, f->len);
  pd_snapshot *snap = pd_snapshot_new();
  pd_error err;
  IS_INT(pd_decode(snap, p, f->len, NULL, &err), PD_OK, "%s whole blob decodes",
         bo);
  IS_INT(pd_snapshot_object_count(snap), NOBJ, "%s whole blob: 5 objects", bo);
  IS_INT(pd_decode(snap, p, 0, NULL, &err), PD_E_TRUNCATED,
         "%s 0 bytes: truncated", bo);
  IS_INT(pd_decode(snap, NULL, 0, NULL, &err) != PD_OK, 1,
         "%s NULL, 0 bytes: an error, no crash", bo);
  pd_snapshot_free(snap);
  free(p);
}

/* ----------------------------------------------------------- the header */

static void test_header(const fixture *f) {
  size_t hl = enc_header_length(f->blob);
  uint8_t *p = exact_copy(f->buf, f->len);
  p[f->be ? 1 : 0] = 'X';
  expect1("signature \"XERF\"", f, p, f->len, PD_E_SIGNATURE, 0, 0);
  memset(p, 0, 8);
  expect1("signature all zero", f, p, f->len, PD_E_SIGNATURE, 0, 0);
  free(p);

  /* format.md 1.7: the signature decides the order; the flag must agree */
  field1(f->be ? "signature BE, LittleEndian 1"
               : "signature LE, LittleEndian 0",
         f, ENC_HDR_LITTLE_ENDIAN, f->be ? 1 : 0, PD_E_BYTE_ORDER,
         ENC_HDR_LITTLE_ENDIAN, 0);
  field1("LittleEndian 2", f, ENC_HDR_LITTLE_ENDIAN, 2, PD_E_BYTE_ORDER,
         ENC_HDR_LITTLE_ENDIAN, 0);

  field1("HeaderLength 87", f, ENC_HDR_HEADER_LENGTH, 87, PD_E_HEADER,
         ENC_HDR_HEADER_LENGTH, 0);
  field1("HeaderLength = length + 1", f, ENC_HDR_HEADER_LENGTH,
         (uint32_t)f->len + 1, PD_E_HEADER, ENC_HDR_HEADER_LENGTH, 0);
  field1("HeaderLength 0xffffffff", f, ENC_HDR_HEADER_LENGTH, 0xffffffffu,
         PD_E_HEADER, ENC_HDR_HEADER_LENGTH, 0);

  /* the system name must lie inside the header, after the 88 bytes; the
   * offset may name either field of the pair */
  const outcome len_at = {PD_E_NAME, ENC_HDR_SYSTEM_NAME_LENGTH};
  const outcome off_at = {PD_E_NAME, ENC_HDR_SYSTEM_NAME_OFFSET};
  field2("SystemNameLength past HeaderLength", f, ENC_HDR_SYSTEM_NAME_LENGTH,
         (uint32_t)(hl - ENC_HDR_SIZE + 2), len_at, off_at, 0);
  field2("SystemNameLength 0xffffffff", f, ENC_HDR_SYSTEM_NAME_LENGTH,
         0xffffffffu, len_at, off_at, 0);
  field2("SystemNameOffset = HeaderLength", f, ENC_HDR_SYSTEM_NAME_OFFSET,
         (uint32_t)hl, off_at, len_at, 0);
  field2("SystemNameOffset 0xfffffffe", f, ENC_HDR_SYSTEM_NAME_OFFSET,
         0xfffffffeu, off_at, len_at, 0);
  field2("SystemNameOffset 8 (inside the 88 bytes)", f,
         ENC_HDR_SYSTEM_NAME_OFFSET, 8, off_at, len_at, 0);

  /* NumObjectTypes may overstate (format.md 1.3): the walk stops at the end of
   * the data, so a huge claim with five objects present is either decoded
   * (format.md 1.3) or refused by the configured limit. */
  const outcome walk = {PD_OK, 0};
  const outcome limit = {PD_E_LIMIT, ENC_HDR_NUM_OBJECT_TYPES};
  uint8_t *q = patched(f, ENC_HDR_NUM_OBJECT_TYPES, 0x7fffffffu);
  outcome w[2] = {walk, limit};
  uint8_t *c = exact_copy(q, f->len);
  pd_snapshot *snap = pd_snapshot_new();
  pd_error err;
  memset(&err, 0, sizeof err);
  pd_status s = pd_decode(snap, c, f->len, NULL, &err);
  OK((s == w[0].status && pd_snapshot_object_count(snap) == NOBJ) ||
         (s == w[1].status && err.offset == w[1].offset),
     "%s NumObjectTypes 0x7fffffff: the 5 objects, or LIMIT at 0x1c",
     f->be ? "BE" : "LE");
  if (s != PD_OK)
    tap_diag("  %s: %s", pd_status_name(s), err.message);
  pd_snapshot_free(snap);
  free(c);
  free(q);
  q = patched(f, ENC_HDR_NUM_OBJECT_TYPES, 9);
  expect1("NumObjectTypes 9, 5 present", f, q, f->len, PD_OK, 0, NOBJ);
  free(q);
  q = patched(f, ENC_HDR_NUM_OBJECT_TYPES, 2);
  expect1("NumObjectTypes 2, 5 present", f, q, f->len, PD_OK, 0, 2);
  free(q);
}

/* ------------------------------------------------------------- objects */

static void test_object(const fixture *f) {
  const enc_object *m = f->obj[1]; /* the multi-instance object */
  size_t o = enc_object_offset(m);
  uint32_t total = enc_object_total_length(m),
           deflen = enc_object_definition_length(m);
  size_t left = f->len - o;

  field1("object TotalByteLength past the data", f,
         o + ENC_OBJ_TOTAL_BYTE_LENGTH, (uint32_t)left + 8, PD_E_TRUNCATED, o,
         1);
  field1("object TotalByteLength 0xffffffff", f, o + ENC_OBJ_TOTAL_BYTE_LENGTH,
         0xffffffffu, PD_E_TRUNCATED, o, 1);
  field1("object TotalByteLength below DefinitionLength", f,
         o + ENC_OBJ_TOTAL_BYTE_LENGTH, deflen - 8, PD_E_OBJECT, o, 1);
  /* format.md 1.3: TotalByteLength 0 stops the walk */
  uint8_t *p = patched(f, o + ENC_OBJ_TOTAL_BYTE_LENGTH, 0);
  expect1("object TotalByteLength 0 stops the walk", f, p, f->len, PD_OK, 0, 1);
  free(p);

  const outcome def_at = {PD_E_OBJECT, o + ENC_OBJ_DEFINITION_LENGTH};
  const outcome tot_at = {PD_E_OBJECT, o + ENC_OBJ_TOTAL_BYTE_LENGTH};
  const outcome hdr_at = {PD_E_OBJECT, o + ENC_OBJ_HEADER_LENGTH};
  field1("object DefinitionLength 60 (below HeaderLength)", f,
         o + ENC_OBJ_DEFINITION_LENGTH, 60, PD_E_OBJECT,
         o + ENC_OBJ_DEFINITION_LENGTH, 1);
  field2("object DefinitionLength past TotalByteLength", f,
         o + ENC_OBJ_DEFINITION_LENGTH, total + 8, def_at, tot_at, 1);
  field2("object DefinitionLength 0xffffffff", f, o + ENC_OBJ_DEFINITION_LENGTH,
         0xffffffffu, def_at, tot_at, 1);
  field1("object HeaderLength 63", f, o + ENC_OBJ_HEADER_LENGTH, 63,
         PD_E_OBJECT, o + ENC_OBJ_HEADER_LENGTH, 1);
  field2("object HeaderLength past DefinitionLength", f,
         o + ENC_OBJ_HEADER_LENGTH, deflen + 8, hdr_at, def_at, 1);
  field2("object HeaderLength 0xffffffff", f, o + ENC_OBJ_HEADER_LENGTH,
         0xffffffffu, hdr_at, def_at, 1);

  /* NumCounters: 2 definitions present */
  const size_t nc = o + ENC_OBJ_NUM_COUNTERS;
  field1("NumCounters 3 (2 definitions present)", f, nc, 3, PD_E_COUNTER_DEF,
         nc, 1);
  field1("NumCounters 0x7fffffff (default limits)", f, nc, 0x7fffffffu,
         PD_E_LIMIT, nc, 1);
  const pd_decode_limits wide = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
  p = patched(f, nc, 0x7fffffffu);
  outcome w = {PD_E_COUNTER_DEF, nc};
  expect("NumCounters 0x7fffffff (no limits)", f, p, f->len, &wide, &w, 1, 1);
  free(p);

  /* NumInstances: 3 present */
  const size_t ni = o + ENC_OBJ_NUM_INSTANCES;
  field1("NumInstances 0x7fffffff (default limits)", f, ni, 0x7fffffffu,
         PD_E_LIMIT, ni, 1);
  p = patched(f, ni, 0x7fffffffu);
  w = (outcome){PD_E_INSTANCE, ni};
  expect("NumInstances 0x7fffffff (no limits)", f, p, f->len, &wide, &w, 1, 1);
  free(p);
  field1("NumInstances -4", f, ni, (uint32_t)-4, PD_E_OBJECT, ni, 1);
  field1("NumInstances INT32_MIN", f, ni, 0x80000000u, PD_E_OBJECT, ni, 1);
  /* one more than present: the 4th would start at the object's end */
  field2("NumInstances 4 (3 present)", f, ni, 4,
         (outcome){PD_E_INSTANCE, o + total}, (outcome){PD_E_INSTANCE, ni}, 1);
  /* fewer than present is legal: the rest of the object is ignored */
  p = patched(f, ni, 2);
  expect1("NumInstances 2 (3 present) decodes", f, p, f->len, PD_OK, 0, NOBJ);
  free(p);
}

/* ------------------------------------------------- counter definitions */

static void test_counter_defs(const fixture *f) {
  const enc_object *m = f->obj[1];
  size_t d0 = enc_counter_def_offset(m, 0), d1 = enc_counter_def_offset(m, 1);
  uint32_t blen = enc_block_length(m);

  field1("definition ByteLength 39", f, d0 + ENC_CTR_BYTE_LENGTH, 39,
         PD_E_COUNTER_DEF, d0, 1);
  field1("definition ByteLength 0", f, d0 + ENC_CTR_BYTE_LENGTH, 0,
         PD_E_COUNTER_DEF, d0, 1);
  /* the first definition's ByteLength pushes the second past the
   * DefinitionLength (format.md 1.3: all inside [o + HeaderLength, o +
   * DefinitionLength)): the bad definition is the first */
  field1("first definition ByteLength 0x1000", f, d0 + ENC_CTR_BYTE_LENGTH,
         0x1000, PD_E_COUNTER_DEF, d0, 1);
  field1("first definition ByteLength 0xfffffff0", f, d0 + ENC_CTR_BYTE_LENGTH,
         0xfffffff0u, PD_E_COUNTER_DEF, d0, 1);
  /* the last definition running past DefinitionLength */
  field1("last definition ByteLength 48 (past DefinitionLength)", f,
         d1 + ENC_CTR_BYTE_LENGTH, 48, PD_E_COUNTER_DEF, d1, 1);

  /* CounterOffset + CounterSize past the counter block (format.md 1.3) */
  field1("CounterOffset past its block (8-byte counter at ByteLength - 4)", f,
         d1 + ENC_CTR_OFFSET, blen - 4, PD_E_COUNTER_DEF, d1 + ENC_CTR_OFFSET,
         1);
  field1("CounterOffset 0xfffffffc", f, d1 + ENC_CTR_OFFSET, 0xfffffffcu,
         PD_E_COUNTER_DEF, d1 + ENC_CTR_OFFSET, 1);
  field1("CounterOffset = ByteLength (4-byte counter)", f, d0 + ENC_CTR_OFFSET,
         blen, PD_E_COUNTER_DEF, d0 + ENC_CTR_OFFSET, 1);

  /* numeric types read exactly 4 or 8 bytes */
  field1("CounterSize 3", f, d0 + ENC_CTR_SIZE, 3, PD_E_COUNTER_DEF,
         d0 + ENC_CTR_SIZE, 1);
  field1("CounterSize 0 (RAWCOUNT)", f, d0 + ENC_CTR_SIZE, 0, PD_E_COUNTER_DEF,
         d0 + ENC_CTR_SIZE, 1);
  field1("CounterSize 16 (100NSEC_TIMER)", f, d1 + ENC_CTR_SIZE, 16,
         PD_E_COUNTER_DEF, d1 + ENC_CTR_SIZE, 1);
  field1("CounterSize 0xffffffff", f, d1 + ENC_CTR_SIZE, 0xffffffffu,
         PD_E_COUNTER_DEF, d1 + ENC_CTR_SIZE, 1);
}

/* ---------------------------------------------- instances and blocks */

static void test_instances(const fixture *f) {
  const enc_object *m = f->obj[1];
  size_t i1 = enc_instance_offset(m, 1), b1 = enc_block_offset(m, 1);
  uint32_t ilen = (uint32_t)(b1 - i1);
  size_t obj_end = enc_object_offset(m) + enc_object_total_length(m);

  field1("instance ByteLength 23", f, i1 + ENC_INST_BYTE_LENGTH, 23,
         PD_E_INSTANCE, i1, 1);
  field1("instance ByteLength 0", f, i1 + ENC_INST_BYTE_LENGTH, 0,
         PD_E_INSTANCE, i1, 1);
  field1("instance ByteLength past the object", f, i1 + ENC_INST_BYTE_LENGTH,
         (uint32_t)(obj_end - i1) + 8, PD_E_INSTANCE, i1, 1);
  field1("instance ByteLength 0xfffffff0", f, i1 + ENC_INST_BYTE_LENGTH,
         0xfffffff0u, PD_E_INSTANCE, i1, 1);

  /* the name must lie inside its instance (format.md 1.3); the offset may name
   * either field of the pair */
  const outcome noff = {PD_E_NAME, i1 + ENC_INST_NAME_OFFSET};
  const outcome nlen = {PD_E_NAME, i1 + ENC_INST_NAME_LENGTH};
  field1("NameOffset past the instance", f, i1 + ENC_INST_NAME_OFFSET, ilen + 2,
         PD_E_NAME, i1 + ENC_INST_NAME_OFFSET, 1);
  field1("NameOffset 0xfffffffe", f, i1 + ENC_INST_NAME_OFFSET, 0xfffffffeu,
         PD_E_NAME, i1 + ENC_INST_NAME_OFFSET, 1);
  field1("NameOffset 4 (inside the definition)", f, i1 + ENC_INST_NAME_OFFSET,
         4, PD_E_NAME, i1 + ENC_INST_NAME_OFFSET, 1);
  field2("NameLength past the instance", f, i1 + ENC_INST_NAME_LENGTH,
         ilen - ENC_INST_SIZE + 2, nlen, noff, 1);
  field2("NameLength 0xffffffff", f, i1 + ENC_INST_NAME_LENGTH, 0xffffffffu,
         nlen, noff, 1);

  /* counter blocks */
  field1("counter block ByteLength 3", f, b1 + ENC_BLOCK_BYTE_LENGTH, 3,
         PD_E_COUNTER_BLOCK, b1, 1);
  field1("counter block ByteLength 0", f, b1 + ENC_BLOCK_BYTE_LENGTH, 0,
         PD_E_COUNTER_BLOCK, b1, 1);
  field1("counter block ByteLength past the object", f,
         b1 + ENC_BLOCK_BYTE_LENGTH, (uint32_t)(obj_end - b1) + 4,
         PD_E_COUNTER_BLOCK, b1, 1);
  field1("counter block ByteLength 0xffffffff", f, b1 + ENC_BLOCK_BYTE_LENGTH,
         0xffffffffu, PD_E_COUNTER_BLOCK, b1, 1);
  /* a block too short for the counters (the 8-byte timer ends at
   * CounterOffset + 8): the block, or the definition that does not fit */
  size_t d1 = enc_counter_def_offset(m, 1);
  field2("counter block ByteLength 8 (counters need more)", f,
         b1 + ENC_BLOCK_BYTE_LENGTH, 8, (outcome){PD_E_COUNTER_BLOCK, b1},
         (outcome){PD_E_COUNTER_DEF, d1 + ENC_CTR_OFFSET}, 1);

  /* the single-instance object's block */
  const enc_object *s = f->obj[0];
  size_t bs = enc_block_offset(s, ENC_SINGLE);
  size_t s_end = enc_object_offset(s) + enc_object_total_length(s);
  field1("single-instance block ByteLength past the object", f,
         bs + ENC_BLOCK_BYTE_LENGTH, (uint32_t)(s_end - bs) + 8,
         PD_E_COUNTER_BLOCK, bs, 0);
  field1("single-instance block ByteLength 2", f, bs + ENC_BLOCK_BYTE_LENGTH, 2,
         PD_E_COUNTER_BLOCK, bs, 0);
}

/* Configured limits (pd_decode_limits) below what the blob holds. */
static void test_limits(const fixture *f) {
  outcome w;
  pd_decode_limits lim = {4096, 65536, 2};
  size_t o1 = enc_object_offset(f->obj[1]);
  w = (outcome){PD_E_LIMIT, o1 + ENC_OBJ_NUM_INSTANCES};
  expect("max_instances 2, 3 present", f, f->buf, f->len, &lim, &w, 1, 1);
  lim = (pd_decode_limits){4096, 1, 1000000};
  w = (outcome){PD_E_LIMIT,
                enc_object_offset(f->obj[0]) + ENC_OBJ_NUM_COUNTERS};
  expect("max_counters 1, 2 present", f, f->buf, f->len, &lim, &w, 1, 0);
  /* five objects, four allowed: refused up front (NumObjectTypes) or at
   * the fifth object */
  lim = (pd_decode_limits){4, 65536, 1000000};
  outcome two[2] = {{PD_E_LIMIT, ENC_HDR_NUM_OBJECT_TYPES},
                    {PD_E_LIMIT, enc_object_offset(f->obj[4])}};
  uint8_t *c = exact_copy(f->buf, f->len);
  pd_snapshot *snap = pd_snapshot_new();
  pd_error err;
  memset(&err, 0, sizeof err);
  pd_status s = pd_decode(snap, c, f->len, &lim, &err);
  OK(s == PD_E_LIMIT &&
         (err.offset == two[0].offset ||
          (err.offset == two[1].offset && pd_snapshot_object_count(snap) == 4)),
     "%s max_objects 4, 5 present: LIMIT at 0x1c or at the fifth object",
     f->be ? "BE" : "LE");
  pd_snapshot_free(snap);
  free(c);
}

/* ------------------------------------------------------- empty shapes */

/* Objects without counters or without instances, at every position of a
 * four-object blob, and blobs where no object has any: the decoder must
 * decode them without forming a pointer from NULL (clang's UBSan reports
 * "applying zero offset to null pointer" otherwise), and selection plus
 * computation over two samples must walk them. Every other object is a
 * multi-instance object with one RAWCOUNT counter and two instances, so a
 * wildcard per object yields 2 values for each such object. */
enum empty_shape {
  SHAPE_SINGLE_NO_COUNTERS,   /* NumInstances -1, NumCounters 0 */
  SHAPE_MULTI_NO_COUNTERS,    /* two instances, NumCounters 0 */
  SHAPE_MULTI_NO_INSTANCES,   /* one counter, NumInstances 0 */
  SHAPE_NOTHING,              /* NumInstances 0, NumCounters 0 */
  SHAPE_METADATA_NO_COUNTERS, /* NumInstances -2, NumCounters 0 */
  SHAPE_NORMAL,
};

static const char *const shape_names[] = {
    "single-instance without counters", "two instances without counters",
    "one counter without instances",    "no counters and no instances",
    "metadata-only without counters",   "normal",
};

static void add_shape(enc_blob *b, uint32_t index, enum empty_shape shape) {
  enc_object *o;
  switch (shape) {
  case SHAPE_SINGLE_NO_COUNTERS:
    enc_add_object(b, index, ENC_SINGLE_INSTANCE);
    break;
  case SHAPE_MULTI_NO_COUNTERS:
    o = enc_add_object(b, index, ENC_MULTI_INSTANCE);
    enc_add_instance(o, "a");
    enc_add_instance(o, "b");
    break;
  case SHAPE_MULTI_NO_INSTANCES:
    o = enc_add_object(b, index, ENC_MULTI_INSTANCE);
    enc_add_counter(o, index + 2, PD_COUNTER_RAWCOUNT);
    break;
  case SHAPE_NOTHING:
    enc_add_object(b, index, ENC_MULTI_INSTANCE);
    break;
  case SHAPE_METADATA_NO_COUNTERS:
    enc_add_object(b, index, ENC_METADATA_MULTI);
    break;
  case SHAPE_NORMAL:
    o = enc_add_object(b, index, ENC_MULTI_INSTANCE);
    enc_add_counter(o, index + 2, PD_COUNTER_RAWCOUNT);
    enc_set_value(o, enc_add_instance(o, "a"), 0, 5);
    enc_set_value(o, enc_add_instance(o, "b"), 0, 6);
    break;
  }
}

/* Build shapes[0..3] (object indices 100, 200, 300, 400), decode twice,
 * evaluate "\N(*)\*" and "\N\*" for every object over the two samples. */
static void check_shapes(bool be, const enum empty_shape shapes[4],
                         const char *what) {
  const char *bo = be ? "BE" : "LE";
  enc_blob *b = enc_new("HOST");
  enc_set_big_endian(b, be);
  size_t want_values = 0;
  for (uint32_t k = 0; k < 4; k++) {
    add_shape(b, 100 * (k + 1), shapes[k]);
    if (shapes[k] == SHAPE_NORMAL)
      want_values += 2;
  }
  size_t len;
  uint8_t *built = enc_build(b, &len);
  uint8_t *copy[2] = {exact_copy(built, len), exact_copy(built, len)};
  pd_snapshot *snap[2] = {pd_snapshot_new(), pd_snapshot_new()};
  pd_error err;
  bool decoded = true, pointers = true;
  for (int i = 0; i < 2; i++) {
    if (pd_decode(snap[i], copy[i], len, NULL, &err) != PD_OK ||
        pd_snapshot_object_count(snap[i]) != 4) {
      decoded = false;
      tap_diag("  decode: %s", err.message);
      continue;
    }
    for (uint32_t k = 0; k < 4; k++) {
      const pd_object *o = pd_snapshot_object(snap[i], k);
      if ((o->counter_count == 0) != (o->counters == NULL) ||
          (o->instance_count == 0) != (o->instances == NULL))
        pointers = false;
    }
  }
  check(decoded, "%s %s: decodes, 4 objects", bo, what);
  check(pointers, "%s %s: an empty array is NULL, a non-empty one is not", bo,
        what);

  pd_selection *sel = pd_selection_new();
  char path[32];
  for (uint32_t k = 0; k < 4; k++) {
    snprintf(path, sizeof path, "\\%u(*)\\*", 100 * (k + 1));
    pd_selection_add(sel, path, NULL, &err);
    snprintf(path, sizeof path, "\\%u\\*", 100 * (k + 1));
    pd_selection_add(sel, path, NULL, &err);
  }
  const pd_result *r = NULL;
  size_t n = 0, ok_values = 0;
  pd_status s = pd_selection_evaluate(sel, snap[0], snap[1], &r, &n, &err);
  for (size_t i = 0; i < n; i++)
    if (r[i].status == PD_VALUE_OK && (r[i].value == 5 || r[i].value == 6))
      ok_values++;
  if (!check(s == PD_OK && n == want_values && ok_values == want_values,
             "%s %s: two-sample selection gives %zu values", bo, what,
             want_values))
    tap_diag("  got %s, %zu results, %zu values 5 or 6", pd_status_name(s), n,
             ok_values);
  pd_selection_free(sel);
  for (int i = 0; i < 2; i++) {
    pd_snapshot_free(snap[i]);
    free(copy[i]);
  }
  free(built);
  enc_free(b);
}

static void test_empty_shapes(bool be) {
  char what[128];
  for (int shape = 0; shape < SHAPE_NORMAL; shape++) {
    /* the shape at each position among normal objects */
    for (int pos = 0; pos < 4; pos++) {
      enum empty_shape shapes[4] = {SHAPE_NORMAL, SHAPE_NORMAL, SHAPE_NORMAL,
                                    SHAPE_NORMAL};
      shapes[pos] = (enum empty_shape)shape;
      snprintf(what, sizeof what, "%s at object %d", shape_names[shape], pos);
      check_shapes(be, shapes, what);
    }
    /* every object of that shape: no counters (or no instances) at all */
    enum empty_shape all[4] = {(enum empty_shape)shape, (enum empty_shape)shape,
                               (enum empty_shape)shape,
                               (enum empty_shape)shape};
    snprintf(what, sizeof what, "every object %s", shape_names[shape]);
    check_shapes(be, all, what);
  }
}

int main(void) {
  for (int be = 0; be < 2; be++) {
    fixture f;
    fixture_build(&f, be != 0);
    test_truncation(&f);
    test_header(&f);
    test_object(&f);
    test_counter_defs(&f);
    test_instances(&f);
    test_limits(&f);
    fixture_free(&f);
    test_empty_shapes(be != 0);
  }
  return tap_done();
}
