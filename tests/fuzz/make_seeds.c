/* collectd-winperf: write the fuzz targets' seed inputs from valid data.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 *   make_seeds OUT_DIR [TOP_SRCDIR]
 *
 * writes one directory per target under OUT_DIR, each input in its
 * target's format (see the target's source):
 *   perfdata  blob pairs (2-byte LE length of the older blob, the older
 *             blob, the newer blob) built with the test encoder, and with
 *             TOP_SRCDIR the conf/sample and conf/demo captures
 *   text      name tables and counter paths (and conf's name tables)
 *   v2        registration info, identifiers and two answers, built field
 *             by field with tests/windows/test_v2.c's builder
 *             (tests/encoder/v2_encoder.h)
 *   rpc       bind_ack, fragmented responses, MS-RRP stubs
 *   frame     request and answer streams as the helper and plugin write them
 *   yaml      counter files (and conf's)
 * make fuzz-long merges them into the committed corpora
 * (tests/fuzz/corpus/TARGET).
 */
#include "dcerpc.h"
#include "encoder.h"
#include "frame.h"
#include "frame_session.h"
#include "perfdata.h"
#include "perfdata_v2.h"
#include "v2_encoder.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int write_file(const char *dir, const char *name, const uint8_t *a,
                      size_t alen, const uint8_t *b, size_t blen) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (f == NULL) {
    perror(path);
    return -1;
  }
  fwrite(a, 1, alen, f);
  if (b != NULL)
    fwrite(b, 1, blen, f);
  return fclose(f);
}

/* Two samples of one shape as a pair input. */
static int write_pair(const char *dir, const char *name, enc_blob *b,
                      enc_object *o, uint32_t counter) {
  size_t la, lb;
  uint8_t *a = enc_build(b, &la);
  uint32_t n = enc_object_instance_count(o);
  for (uint32_t i = 0; i < (n ? n : 1); i++)
    enc_set_value(o, i, counter, enc_get_value(o, i, counter) + 2500000);
  enc_set_clock(b, 223456789, 10000000, 133485408000000000 + 10000000);
  uint8_t *bb = enc_build(b, &lb);
  uint8_t hdr[2] = {(uint8_t)(la & 0xFF), (uint8_t)(la >> 8)};
  uint8_t *joined = malloc(2 + la);
  memcpy(joined, hdr, 2);
  memcpy(joined + 2, a, la);
  int rc = la < 65536 ? write_file(dir, name, joined, 2 + la, bb, lb) : 0;
  free(joined);
  free(a);
  free(bb);
  return rc;
}

static int processes(const char *dir, const char *name, bool big_endian,
                     unsigned quirks) {
  enc_blob *b = enc_new("HOST");
  enc_set_big_endian(b, big_endian);
  enc_set_quirks(b, quirks);
  enc_object *p = enc_add_object(b, 230, ENC_MULTI_INSTANCE);
  uint32_t cpu = enc_add_counter(p, 6, PD_100NSEC_TIMER);
  enc_add_counter(p, 784, PD_COUNTER_RAWCOUNT);
  enc_add_counter(p, 180, PD_COUNTER_LARGE_RAWCOUNT);
  const char *names[] = {"svchost", "svchost", "SVCHOST", "chrome (2)",
                         "_Total"};
  for (uint32_t i = 0; i < 5; i++) {
    uint32_t in = enc_add_instance(p, names[i]);
    enc_set_value(p, in, cpu, 1000 * i);
  }
  enc_object *t = enc_add_object(b, 232, ENC_MULTI_INSTANCE);
  uint32_t tc = enc_add_counter(t, 6, PD_100NSEC_TIMER);
  for (uint32_t i = 0; i < 3; i++) {
    uint32_t in = enc_add_instance(t, i == 2 ? NULL : "0");
    enc_instance_set_parent(t, in, 230, i);
    enc_instance_set_unique_id(t, in, (int32_t)i);
    enc_set_value(t, in, tc, 10 * i);
  }
  int rc = write_pair(dir, name, b, p, cpu);
  enc_free(b);
  return rc;
}

static int every_type(const char *dir) {
  static const uint32_t types[] = {
      PD_COUNTER_COUNTER,
      PD_COUNTER_TIMER,
      PD_COUNTER_QUEUELEN_TYPE,
      PD_COUNTER_LARGE_QUEUELEN_TYPE,
      PD_COUNTER_100NS_QUEUELEN_TYPE,
      PD_COUNTER_OBJ_TIME_QUEUELEN_TYPE,
      PD_COUNTER_BULK_COUNT,
      PD_COUNTER_RAWCOUNT,
      PD_COUNTER_LARGE_RAWCOUNT,
      PD_SAMPLE_FRACTION,
      PD_SAMPLE_BASE,
      PD_COUNTER_TIMER_INV,
      PD_AVERAGE_TIMER,
      PD_AVERAGE_BASE,
      PD_AVERAGE_BULK,
      PD_AVERAGE_BASE,
      PD_OBJ_TIME_TIMER,
      PD_100NSEC_TIMER_INV,
      PD_COUNTER_MULTI_TIMER,
      PD_COUNTER_MULTI_BASE,
      PD_100NSEC_MULTI_TIMER,
      PD_100NSEC_MULTI_TIMER_INV,
      PD_RAW_FRACTION,
      PD_RAW_BASE,
      PD_LARGE_RAW_FRACTION,
      PD_LARGE_RAW_BASE,
      PD_ELAPSED_TIME,
      PD_COUNTER_DELTA,
      PD_COUNTER_LARGE_DELTA,
      PD_PRECISION_100NS_TIMER,
      PD_PRECISION_TIMESTAMP,
      PD_COUNTER_TEXT,
      PD_COUNTER_NODATA,
      PD_COUNTER_HISTOGRAM_TYPE,
  };
  enc_blob *b = enc_new("TYPES");
  enc_object *o = enc_add_object(b, 500, ENC_SINGLE_INSTANCE);
  enc_object_set_clock(o, 50000000000, 10000000);
  uint32_t first = 0;
  for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
    uint32_t c = enc_add_counter(o, 502 + 2 * (uint32_t)i, types[i]);
    if (i == 0)
      first = c;
  }
  for (uint32_t c = 0; c < enc_object_counter_count(o); c++)
    enc_set_value(o, ENC_SINGLE, c, 1000 + 7 * c);
  int rc = write_pair(dir, "every-type", b, o, first);
  enc_free(b);
  return rc;
}

static int spec_vector(const char *dir) {
  /* The format.md 1.8 vector, plus the shapes it lacks. */
  enc_blob *b = enc_new_spec_vector();
  enc_object *os = enc_blob_object(b, 0);
  uint32_t tim = 1;                          /* its 100NSEC_TIMER */
  enc_add_object(b, 20, ENC_MULTI_INSTANCE); /* zero instances */
  enc_object *meta = enc_add_object(b, 30, ENC_METADATA_MULTI);
  enc_add_counter(meta, 32, PD_COUNTER_COUNTER);
  enc_object *cp = enc_add_object(b, 40, ENC_MULTI_INSTANCE);
  enc_object_set_code_page(cp, 1252);
  uint32_t cc = enc_add_counter(cp, 42, PD_COUNTER_RAWCOUNT);
  enc_set_value(cp, enc_add_instance(cp, "caf\xc3\xa9"), cc, 1);
  int rc = write_pair(dir, "spec-vector", b, os, tim);
  enc_free(b);
  return rc;
}

static int text_seeds(const char *dir) {
  static const char *const paths[] = {
      "\\Processor(_Total)\\% Processor Time",
      "\\\\HOST\\Process(svchost#2)\\ID Process",
      "\\Thread(explorer/0)\\% Processor Time",
      "\\PhysicalDisk(0 C:)\\Avg. Disk sec/Read",
      "\\Process(w3wp*)\\*",
      "\\238(_Total)\\6",
      "\\Process(chrome (2))\\# of Exceps Thrown",
  };
  char name[32];
  for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
    snprintf(name, sizeof name, "path-%zu", i);
    if (write_file(dir, name, (const uint8_t *)paths[i], strlen(paths[i]), NULL,
                   0) != 0)
      return -1;
  }
  /* A Counter table: "1" "1847" "2" "System" "6" "% Processor Time" "". */
  static const char *const pairs[] = {"1",      "1847", "2",
                                      "System", "6",    "% Processor Time"};
  uint8_t table[256], *p = table;
  for (size_t i = 0; i < 6; i++) {
    for (const char *s = pairs[i]; *s; s++) {
      *p++ = (uint8_t)*s;
      *p++ = 0;
    }
    *p++ = 0;
    *p++ = 0;
  }
  *p++ = 0;
  *p++ = 0;
  return write_file(dir, "names-table", table, (size_t)(p - table), NULL, 0);
}

/* ------------------------------------------------ files from the tree */

static uint8_t *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return NULL;
  uint8_t *buf = NULL;
  size_t cap = 0, n = 0, got;
  do {
    if (n == cap) {
      cap = cap ? 2 * cap : 65536;
      uint8_t *p = realloc(buf, cap);
      if (p == NULL) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = p;
    }
    got = fread(buf + n, 1, cap - n, f);
    n += got;
  } while (got > 0);
  fclose(f);
  *len = n;
  return buf;
}

/* Two captured blobs as a pair input (skipped when either is missing). */
static int capture_pair(const char *dir, const char *name, const char *top,
                        const char *older, const char *newer) {
  char pa[4096], pb[4096];
  snprintf(pa, sizeof pa, "%s/%s", top, older);
  snprintf(pb, sizeof pb, "%s/%s", top, newer);
  size_t la = 0, lb = 0;
  uint8_t *a = slurp(pa, &la), *b = slurp(pb, &lb);
  int rc = 0;
  if (a != NULL && b != NULL && la < 65536) {
    uint8_t *joined = malloc(2 + la);
    if (joined == NULL) {
      rc = -1;
    } else {
      joined[0] = (uint8_t)(la & 0xFF);
      joined[1] = (uint8_t)(la >> 8);
      memcpy(joined + 2, a, la);
      rc = write_file(dir, name, joined, 2 + la, b, lb);
      free(joined);
    }
  }
  free(a);
  free(b);
  return rc;
}

/* A file of the tree as it is (skipped when missing). */
static int copy_file(const char *dir, const char *name, const char *top,
                     const char *rel) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", top, rel);
  size_t n = 0;
  uint8_t *p = slurp(path, &n);
  if (p == NULL)
    return 0;
  int rc = write_file(dir, name, p, n, NULL, 0);
  free(p);
  return rc;
}

/* ------------------------------------------------- a byte builder */

/* enc_vec and its writers: tests/encoder/v2_encoder.h. */
static int write_vec(const char *dir, const char *name, const enc_vec *v) {
  return write_file(dir, name, v->b, v->n, NULL, 0);
}
/* A section of a multi-part input: 2-byte LE length, then the bytes. */
static void section(enc_vec *v, const enc_vec *part) {
  enc_u16(v, (uint16_t)part->n);
  enc_bytes(v, part->b, part->n);
}

/* ------------------------------------------------------------- V2 */

static void v2_ids(enc_vec *v) {
  static const struct {
    uint32_t counter;
    const char *instance;
  } ids[5] = {{99, NULL},
              {4, "_Total"},
              {PD_V2_WILDCARD_COUNTER, NULL},
              {14, "*"},
              {PD_V2_WILDCARD_COUNTER, "*"}};
  pd_guid g = {0x13121110, 0x1514, 0x1716, {0x18, 0x19, 0x1a, 0x1b, 0x1c}};
  v->n = 0;
  for (int i = 0; i < 5; i++) {
    size_t at = v->n;
    v->n += pd_v2_identifier_encode(&g, ids[i].counter, ids[i].instance,
                                    PD_V2_ANY_INSTANCE_ID, v->b + at,
                                    sizeof v->b - at);
    enc_set32(v, at + 32, (uint32_t)i); /* Index, as PerfQueryCounterInfo */
  }
}

static int v2_seeds(const char *dir) {
  const uint32_t none = PD_V2_NO_ID;
  enc_v2_reg r[] = {{4, PD_COUNTER_COUNTER, none, none, none, none},
                    {8, PD_RAW_FRACTION, 10, none, none, none},
                    {10, PD_RAW_BASE, none, none, none, none},
                    {12, PD_100NSEC_TIMER, none, none, none, none},
                    {14, PD_100NSEC_TIMER_INV, none, none, none, none},
                    {20, PD_AVERAGE_TIMER, none, none, none, none},
                    {22, PD_AVERAGE_BASE, none, none, none, none},
                    {24, PD_100NSEC_MULTI_TIMER, none, none, none, 26},
                    {26, PD_RAW_BASE, none, none, none, none},
                    {30, PD_OBJ_TIME_TIMER, none, 32, 34, none},
                    {32, PD_COUNTER_LARGE_RAWCOUNT, none, none, none, none},
                    {34, PD_COUNTER_LARGE_RAWCOUNT, none, none, none, none},
                    {36, PD_PRECISION_100NS_TIMER, 38, none, none, none},
                    {38, PD_PRECISION_TIMESTAMP, none, none, none, none}};
  enc_vec reg, ids, a0, a1, in;
  enc_v2_counterset(&reg, r, sizeof r / sizeof *r);
  v2_ids(&ids);
  enc_v2_answer_all_types(&a0, 0);
  enc_v2_answer_all_types(&a1, 1);
  in.n = 0;
  section(&in, &reg);
  section(&in, &ids);
  section(&in, &a0);
  enc_bytes(&in, a1.b, a1.n);
  if (write_vec(dir, "all-types", &in))
    return -1;
  /* One sample only, no identifiers. */
  in.n = 0;
  section(&in, &reg);
  enc_u16(&in, 0);
  enc_u16(&in, 0);
  enc_bytes(&in, a0.b, a0.n);
  if (write_vec(dir, "one-sample", &in))
    return -1;
  /* An answer of one object-timer counter set instance. */
  enc_vec o0, o1;
  for (uint32_t k = 0; k < 2; k++) {
    enc_vec *v = k ? &o1 : &o0;
    enc_v2_header(v, 1, 5000 + 1000 * k, 133485408000000000 + 100 * k, 1000);
    size_t b = enc_v2_begin(v, 0, PD_V2_COUNTERSET);
    static const uint32_t ids3[5] = {30, 32, 34, 36, 38};
    enc_v2_multi(v, ids3, 5);
    size_t mi = enc_v2_instances(v, 1);
    enc_v2_instance(v, 3, "_Total");
    enc_v2_counter(v, 8, 100 + 500 * k);
    enc_v2_counter(v, 8, 7000 + 10000 * k);
    enc_v2_counter(v, 8, 10000);
    enc_v2_counter(v, 8, 40 + 50 * k);
    enc_v2_counter(v, 8, 1000 + 100 * k);
    enc_v2_instances_end(v, mi);
    enc_v2_end(v, b);
    enc_v2_finish(v);
  }
  in.n = 0;
  section(&in, &reg);
  enc_u16(&in, 0);
  section(&in, &o0);
  enc_bytes(&in, o1.b, o1.n);
  return write_vec(dir, "object-timer", &in);
}

/* ------------------------------------------------------------ RPC */

/* Common header: version 5.0, type, flags, little-endian drep. */
static void rpc_hdr(enc_vec *v, uint8_t type, uint8_t flags, uint32_t call_id) {
  enc_u8(v, 5);
  enc_u8(v, 0);
  enc_u8(v, type);
  enc_u8(v, flags);
  enc_u32(v, 0x10);
  enc_u16(v, 0); /* frag_length: patched */
  enc_u16(v, 0);
  enc_u32(v, call_id);
}
static void rpc_end(enc_vec *v, size_t at) {
  enc_set16(v, at + 8, (uint16_t)(v->n - at));
}
static void rpc_response(enc_vec *v, uint8_t flags, uint32_t call_id,
                         const uint8_t *stub, size_t n) {
  size_t at = v->n;
  rpc_hdr(v, DCERPC_PT_RESPONSE, flags, call_id);
  enc_u32(v, (uint32_t)n);
  enc_u16(v, 0);
  enc_u16(v, 0);
  enc_bytes(v, stub, n);
  rpc_end(v, at);
}
/* BaseRegQueryValue response stub: REG_BINARY, data, cbData, cbLen. */
static void rrp_query_stub(enc_vec *v, const uint8_t *data, uint32_t n,
                           uint32_t werr) {
  v->n = 0;
  enc_u32(v, 0x20000);
  enc_u32(v, 3);
  enc_u32(v, 0x20004);
  enc_u32(v, n);
  enc_u32(v, 0);
  enc_u32(v, n);
  enc_bytes(v, data, n);
  enc_pad(v, 0, 4);
  enc_u32(v, 0x20008);
  enc_u32(v, n);
  enc_u32(v, 0x2000c);
  enc_u32(v, n);
  enc_u32(v, werr);
}

static int rpc_seeds(const char *dir) {
  enc_vec v;
  /* 0: bind_ack as Samba sends it */
  v.n = 0;
  enc_u8(&v, 0);
  size_t at = v.n;
  rpc_hdr(&v, DCERPC_PT_BIND_ACK, 3, 1);
  enc_u16(&v, 4280);
  enc_u16(&v, 4280);
  enc_u32(&v, 0x1234);
  enc_u16(&v, 13);
  enc_bytes(&v, "\\PIPE\\winreg", 13);
  enc_pad(&v, at, 4);
  enc_u8(&v, 1);
  enc_u8(&v, 0);
  enc_u16(&v, 0);
  enc_u16(&v, 0);
  enc_u16(&v, 0);
  enc_bytes(&v, dcerpc_ndr_syntax.uuid, 16);
  enc_u32(&v, 2);
  rpc_end(&v, at);
  if (write_vec(dir, "bind-ack", &v))
    return -1;

  /* A small blob as the value: the spec vector. */
  enc_blob *b = enc_new_spec_vector();
  size_t blen;
  uint8_t *blob = enc_build(b, &blen);
  enc_free(b);
  if (blob == NULL || blen > 4096) {
    free(blob);
    return -1;
  }
  enc_vec stub;
  rrp_query_stub(&stub, blob, (uint32_t)blen, 0);
  free(blob);

  /* 1: the stub in two fragments, then a fault as a second call would */
  v.n = 0;
  enc_u8(&v, 1);
  size_t half = stub.n / 2;
  rpc_response(&v, DCERPC_PFC_FIRST_FRAG, 1, stub.b, half);
  rpc_response(&v, DCERPC_PFC_LAST_FRAG, 1, stub.b + half, stub.n - half);
  if (write_vec(dir, "response-fragments", &v))
    return -1;
  v.n = 0;
  enc_u8(&v, 1);
  at = v.n;
  rpc_hdr(&v, DCERPC_PT_FAULT, 3, 1);
  enc_u32(&v, 0);
  enc_u32(&v, 0);
  enc_u32(&v, 0x1c010002);
  enc_u32(&v, 0);
  rpc_end(&v, at);
  if (write_vec(dir, "fault", &v))
    return -1;

  /* 2: the QueryValue stub alone; and ERROR_MORE_DATA with no data */
  v.n = 0;
  enc_u8(&v, 2);
  enc_bytes(&v, stub.b, stub.n);
  if (write_vec(dir, "query-value", &v))
    return -1;
  rrp_query_stub(&stub, NULL, 0, 234);
  v.n = 0;
  enc_u8(&v, 2);
  enc_bytes(&v, stub.b, stub.n);
  if (write_vec(dir, "query-value-more-data", &v))
    return -1;
  /* Perflib's Last Counter: a REG_DWORD of 4 bytes (rrp_query_dword) */
  static const uint8_t last_counter[4] = {0x1e, 0x52, 0, 0};
  rrp_query_stub(&stub, last_counter, 4, 0);
  stub.b[4] = 4; /* the type: REG_DWORD */
  v.n = 0;
  enc_u8(&v, 2);
  enc_bytes(&v, stub.b, stub.n);
  if (write_vec(dir, "query-value-dword", &v))
    return -1;

  /* 3: OpenHKPD / CloseKey response: handle + WERROR */
  v.n = 0;
  enc_u8(&v, 3);
  for (int i = 0; i < 20; i++)
    enc_u8(&v, (uint8_t)(0xa0 + i));
  enc_u32(&v, 0);
  if (write_vec(dir, "open-hkpd", &v))
    return -1;

  /* 4: a frame header and an error payload */
  v.n = 0;
  enc_u8(&v, 4);
  enc_u32(&v, 12);
  enc_u8(&v, WPR_MSG_ERROR);
  enc_bytes(&v, "\x02timed out", 10);
  if (write_vec(dir, "frame", &v))
    return -1;

  /* 5: a response header */
  v.n = 0;
  enc_u8(&v, 5);
  rpc_hdr(&v, DCERPC_PT_RESPONSE, 3, 7);
  enc_set16(&v, 9, 24);
  enc_u32(&v, 0);
  enc_u32(&v, 0);
  return write_vec(dir, "header", &v);
}

/* ----------------------------------------------------------- frames */

static void frame(enc_vec *v, uint8_t type, const void *payload, size_t n) {
  uint8_t h[WPR_FRAME_HDR];
  wpr_frame_header(h, type, (uint32_t)n);
  enc_bytes(v, h, sizeof h);
  enc_bytes(v, payload, n);
}

static int frame_seeds(const char *dir) {
  enc_vec v;
  /* helper side (first byte even): the plugin's requests */
  v.n = 0;
  enc_u8(&v, 0);
  frame(&v, WPR_MSG_NAMES, NULL, 0);
  frame(&v, WPR_MSG_QUERY, "Global", 6);
  frame(&v, WPR_MSG_QUERY, "238 2 4", 7);
  if (write_vec(dir, "requests", &v))
    return -1;
  /* a helper of several hosts: OPEN, SQUERY, SNAMES, CLOSE */
  static wpr_open o = {.port = 4455,
                       .connect_timeout_ms = 5000,
                       .query_timeout_ms = 30000,
                       .host = "winsrv01",
                       .user = "CORP\\monitor",
                       .credentials = "/etc/collectd/winsrv01.cred"};
  uint8_t f[WPR_FRAME_HDR + WPR_OPEN_MAX];
  size_t n = wpr_build_open(f, sizeof f, &o);
  v.n = 0;
  enc_u8(&v, 0);
  frame(&v, WPR_MSG_OPEN, f, n);
  enc_bytes(&v, f,
            wpr_build_session_frame(f, sizeof f, WPR_MSG_SNAMES, 1, NULL));
  enc_bytes(&v, f,
            wpr_build_session_frame(f, sizeof f, WPR_MSG_SQUERY, 1, "238 2 4"));
  enc_bytes(&v, f,
            wpr_build_session_frame(f, sizeof f, WPR_MSG_CLOSE, 1, NULL));
  if (write_vec(dir, "session-requests", &v))
    return -1;
  /* Kerberos: OPEN with Auth kerberos and its strings; a REPORT */
  static wpr_open k = {.port = 445,
                       .connect_timeout_ms = 10000,
                       .query_timeout_ms = 30000,
                       .auth = 1,
                       .host = "sql01.corp.example",
                       .principal = "svc-perf@CORP.EXAMPLE",
                       .keytab = "/etc/collectd/svc-perf.keytab",
                       .krb5_config = "/etc/krb5.conf"};
  n = wpr_build_open(f, sizeof f, &k);
  v.n = 0;
  enc_u8(&v, 0);
  frame(&v, WPR_MSG_OPEN, f, n);
  k.auth = 2;
  k.keytab = NULL;
  k.ccache = "FILE:/var/lib/collectd/krb5cc";
  n = wpr_build_open(f, sizeof f, &k);
  frame(&v, WPR_MSG_OPEN, f, n);
  if (write_vec(dir, "open-kerberos", &v))
    return -1;
  v.n = 0;
  enc_u8(&v, 0);
  frame(&v, WPR_MSG_REPORT, NULL, 0);
  if (write_vec(dir, "report", &v))
    return -1;
  /* plugin side (odd): the helper's answers */
  v.n = 0;
  enc_u8(&v, 1);
  uint8_t data[4 + 24] = {7, 0, 0, 0, 'P', 0, 'E', 0, 'R', 0, 'F', 0};
  frame(&v, WPR_MSG_DATA, data, sizeof data);
  uint8_t e[64];
  n = wpr_build_error(e, sizeof e, WPR_ERR_AUTH,
                      "winsrv01: BaseRegOpenKey: access denied");
  frame(&v, WPR_MSG_ERROR, e, n);
  if (write_vec(dir, "answers", &v))
    return -1;
  v.n = 0;
  enc_u8(&v, 1);
  enc_bytes(&v, f,
            wpr_build_session_frame(f, sizeof f, WPR_MSG_SESSION, 2, NULL));
  frame(&v, WPR_MSG_DATA, data, sizeof data);
  if (write_vec(dir, "session-answers", &v))
    return -1;
  v.n = 0;
  enc_u8(&v, 1);
  n = wpr_build_error(e, sizeof e, WPR_ERR_TIMEOUT, "no answer\r\n\x7f");
  frame(&v, WPR_MSG_ERROR, e, n);
  return write_vec(dir, "error-timeout", &v);
}

/* ------------------------------------------------------------ YAML */

static int yaml_seeds(const char *dir) {
  static const char *const files[] = {
      /* every key of a mapping entry, plain and quoted paths, flow style */
      ("- raw: yes\n"
       "  scale: 100\n"
       "  type_instance: busy\n"
       "  plugin_instance: cpu\n"
       "  type: percent\n"
       "  path: '\\Processor(*)\\% Idle Time'\n"
       "- \\Cache\\Copy Reads/sec  # comment\n"
       "- {path: \"\\\\Process(w3wp*)\\\\Working Set\", type_instance: ''}\n"),
      "---\n- \"\\\\\\\\HOST\\\\Thread(explorer/0)\\\\% Processor "
      "Time\"\n...\n",
      "[\\238(_Total)\\6, {path: \\Memory\\*, scale: 1e-3, type: bytes}]\n",
      ("- path: \\PhysicalDisk(0 C:)\\Avg. Disk sec/Read\n"
       "  raw: no\n  scale: -2.5\n"),
      "- &a \\System\\*\n- *a\n- !!str \\Memory\\Pages/sec\n",
      "",
  };
  char name[32];
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    snprintf(name, sizeof name, "counters-%zu.yaml", i);
    if (write_file(dir, name, (const uint8_t *)files[i], strlen(files[i]), NULL,
                   0))
      return -1;
  }
  return 0;
}

/* -------------------------------------------------------------- main */

static int subdir(char *out, size_t size, const char *top, const char *name) {
  snprintf(out, size, "%s/%s", top, name);
  if (mkdir(out, 0777) != 0 && errno != EEXIST) {
    perror(out);
    return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3) {
    fprintf(stderr, "usage: make_seeds OUT_DIR [TOP_SRCDIR]\n");
    return 2;
  }
  const char *top = argc == 3 ? argv[2] : NULL;
  char dir[4096];
  if (subdir(dir, sizeof dir, argv[1], "perfdata") || spec_vector(dir) ||
      every_type(dir) || processes(dir, "processes-le", false, 0) ||
      processes(dir, "processes-be", true, 0) ||
      processes(dir, "processes-samba", false,
                ENC_QUIRK_SAMBA | ENC_QUIRK_STALE_PADDING))
    return 1;
  if (top != NULL &&
      (capture_pair(dir, "conf-sample", top, "conf/sample/sample1.blob",
                    "conf/sample/sample2.blob") ||
       capture_pair(dir, "conf-demo", top, "conf/demo/0000.blob",
                    "conf/demo/0001.blob")))
    return 1;
  if (subdir(dir, sizeof dir, argv[1], "text") || text_seeds(dir))
    return 1;
  if (top != NULL &&
      (copy_file(dir, "names-sample", top, "conf/sample/names.multisz") ||
       copy_file(dir, "names-demo", top, "conf/demo/names.multisz")))
    return 1;
  if (subdir(dir, sizeof dir, argv[1], "v2") || v2_seeds(dir))
    return 1;
  if (subdir(dir, sizeof dir, argv[1], "rpc") || rpc_seeds(dir))
    return 1;
  if (subdir(dir, sizeof dir, argv[1], "frame") || frame_seeds(dir))
    return 1;
  if (subdir(dir, sizeof dir, argv[1], "yaml") || yaml_seeds(dir))
    return 1;
  if (top != NULL &&
      (copy_file(dir, "conf-winperf.yaml", top, "conf/winperf.yaml") ||
       copy_file(dir, "conf-demo-winperf.yaml", top, "conf/demo/winperf.yaml")))
    return 1;
  /* blg: the real logs and the hand-built fixture of tests/data/blg */
  if (subdir(dir, sizeof dir, argv[1], "blg"))
    return 1;
  if (top != NULL && (copy_file(dir, "pal-SampleLog", top,
                                "tests/data/blg/pal-SampleLog.blg") ||
                      copy_file(dir, "tx-BasicPerfCounters", top,
                                "tests/data/blg/tx-BasicPerfCounters.blg") ||
                      copy_file(dir, "fixture-both-kinds", top,
                                "tests/data/blg/fixture-both-kinds.blg")))
    return 1;
  return 0;
}
