/* collectd-winperf tests: instance names kept across decodes.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A snapshot keeps an object's instance names from one decode to the next
 * while the instances are named alike (src/perfdata/instance_names.c). The
 * names must still be exactly what format.md 1.4 gives for the blob just
 * decoded: one snapshot decodes a sequence of blobs that change one naming
 * input at a time (a name's bytes, a parent reference, a parent's name,
 * the object order, the code page, a unique id, the byte order) and every
 * full name is compared with the one written by hand.
 */
#include "encoder.h"
#include "perfdata.h"
#include "tap.h"

#include <stdlib.h>

enum { PROCESS = 230, THREAD = 232, DISK = 236 };

/* What one blob of the sequence holds. */
typedef struct shape {
  const char *process[3];    /* Process instance names */
  uint32_t thread_parent[3]; /* each Thread's Process instance */
  bool threads_first;        /* Thread object before Process */
  uint32_t disk_code_page;   /* the Disk object's names: "a" 0x80 */
  int32_t unnamed_id;        /* a Disk instance without a name */
  bool big_endian;
} shape;

static uint8_t *build(const shape *s, size_t *len) {
  enc_blob *b = enc_new("CACHE");
  enc_set_big_endian(b, s->big_endian);
  enc_object *p = NULL, *t = NULL;
  for (int k = 0; k < 2; k++) {
    bool thread_now = (k == 0) == s->threads_first;
    if (!thread_now) {
      p = enc_add_object(b, PROCESS, ENC_MULTI_INSTANCE);
      enc_add_counter(p, 784, PD_COUNTER_RAWCOUNT);
      for (uint32_t i = 0; i < 3; i++)
        enc_set_value(p, enc_add_instance(p, s->process[i]), 0, 100 + i);
    } else {
      t = enc_add_object(b, THREAD, ENC_MULTI_INSTANCE);
      enc_add_counter(t, 804, PD_COUNTER_RAWCOUNT);
      for (uint32_t i = 0; i < 3; i++) {
        uint32_t in = enc_add_instance(t, "0");
        enc_instance_set_parent(t, in, PROCESS, s->thread_parent[i]);
      }
    }
  }
  enc_object *d = enc_add_object(b, DISK, ENC_MULTI_INSTANCE);
  enc_add_counter(d, 200, PD_COUNTER_RAWCOUNT);
  enc_object_set_code_page(d, s->disk_code_page);
  static const uint8_t a80[] = {'a', 0x80, 0};
  enc_add_instance_bytes(d, a80, sizeof a80);
  uint32_t u = enc_add_instance(d, NULL);
  enc_instance_set_unique_id(d, u, s->unnamed_id);
  uint8_t *bytes = enc_build(b, len);
  enc_free(b);
  return bytes;
}

/* Every full name of object `index`, joined by '|'. */
static const char *names_of(pd_snapshot *snap, uint32_t index, char *buf,
                            size_t size) {
  const pd_object *o = pd_snapshot_find_object(snap, index);
  buf[0] = '\0';
  if (o == NULL)
    return "(no object)";
  size_t at = 0;
  for (uint32_t i = 0; i < o->instance_count; i++) {
    const char *n = pd_instance_full_name(snap, o, i);
    int w =
        snprintf(buf + at, size - at, "%s%s", i ? "|" : "", n ? n : "(null)");
    if (w < 0 || (size_t)w >= size - at)
      break;
    at += (size_t)w;
  }
  return buf;
}

/* Decode the blob of `s` into snap (kept alive in *keep) and compare the
 * full names of the three objects with the expected ones. */
static void check(pd_snapshot *snap, uint8_t **keep, const shape *s,
                  const char *what, const char *process, const char *thread,
                  const char *disk) {
  size_t len = 0;
  free(*keep);
  *keep = build(s, &len);
  pd_error err;
  if (!OK(pd_decode(snap, *keep, len, NULL, &err) == PD_OK, "%s: decodes",
          what)) {
    tap_diag("  %s", err.message);
    return;
  }
  char buf[512];
  IS_STR(names_of(snap, PROCESS, buf, sizeof buf), process, "%s: Process",
         what);
  IS_STR(names_of(snap, THREAD, buf, sizeof buf), thread, "%s: Thread", what);
  IS_STR(names_of(snap, DISK, buf, sizeof buf), disk, "%s: Disk", what);
}

static void test_one_snapshot(void) {
  pd_snapshot *snap = pd_snapshot_new();
  uint8_t *keep = NULL;
  shape s = {{"svc", "app", "svc"}, {0, 1, 2}, false, 1252, 7, false};
  const char *euro = "a\xe2\x82\xac"; /* 1252 0x80 is U+20AC */
  char disk[32];
  snprintf(disk, sizeof disk, "%s|7", euro);

  check(snap, &keep, &s, "first decode", "svc|app|svc#1", "svc/0|app/0|svc/0#1",
        disk);
  check(snap, &keep, &s, "same names again", "svc|app|svc#1",
        "svc/0|app/0|svc/0#1", disk);
  s.process[1] = "apq"; /* same length: only the bytes differ */
  check(snap, &keep, &s, "a process renamed", "svc|apq|svc#1",
        "svc/0|apq/0|svc/0#1", disk);
  s.thread_parent[2] = 1;
  check(snap, &keep, &s, "a thread's parent reference changed", "svc|apq|svc#1",
        "svc/0|apq/0|apq/0#1", disk);
  s.process[1] = "svc"; /* parent's name now equal to the others */
  check(snap, &keep, &s, "the parent named like another", "svc|svc#1|svc#2",
        "svc/0|svc/0#1|svc/0#2", disk);
  s.threads_first = true;
  check(snap, &keep, &s, "objects in another order", "svc|svc#1|svc#2",
        "svc/0|svc/0#1|svc/0#2", disk);
  s.disk_code_page = 28591; /* Latin-1: 0x80 is U+0080 */
  check(snap, &keep, &s, "another code page, same bytes", "svc|svc#1|svc#2",
        "svc/0|svc/0#1|svc/0#2", "a\xc2\x80|7");
  s.unnamed_id = 8;
  check(snap, &keep, &s, "an unnamed instance's unique id", "svc|svc#1|svc#2",
        "svc/0|svc/0#1|svc/0#2", "a\xc2\x80|8");
  s.big_endian = true;
  check(snap, &keep, &s, "big-endian blob", "svc|svc#1|svc#2",
        "svc/0|svc/0#1|svc/0#2", "a\xc2\x80|8");
  s.big_endian = false;
  s.process[0] = "web";
  check(snap, &keep, &s, "back to little-endian, first process renamed",
        "web|svc|svc#1", "web/0|svc/0|svc/0#1", "a\xc2\x80|8");

  /* The hash index follows the names it was built for. */
  const pd_object *o = pd_snapshot_find_object(snap, THREAD);
  IS_INT(o ? pd_find_instance(snap, o, "SVC/0#1") : -2, 2,
         "find: svc/0#1 is the third thread");
  IS_INT(o ? pd_find_instance(snap, o, "apq/0") : -2, -1,
         "find: apq/0 is gone");
  free(keep);
  pd_snapshot_free(snap);
}

/* The plugin's pattern: two snapshots take turns, each decoding every
 * other blob; a rename two intervals back must not leak into either. */
static void test_two_snapshots(void) {
  pd_snapshot *snap[2] = {pd_snapshot_new(), pd_snapshot_new()};
  uint8_t *keep[2] = {NULL, NULL};
  static const char *const second[] = {"b", "b", "c", "c", "b", "d"};
  char want[64], label[64];
  for (int k = 0; k < 6; k++) {
    shape s = {{"a", second[k], "a"}, {0, 1, 2}, false, 1252, 1, false};
    snprintf(want, sizeof want, "a|%s|a#1", second[k]);
    char thread[64];
    snprintf(thread, sizeof thread, "a/0|%s/0|a/0#1", second[k]);
    snprintf(label, sizeof label, "interval %d (snapshot %d)", k, k & 1);
    check(snap[k & 1], &keep[k & 1], &s, label, want, thread,
          "a\xe2\x82\xac|1");
  }
  for (int i = 0; i < 2; i++) {
    free(keep[i]);
    pd_snapshot_free(snap[i]);
  }
}

int main(void) {
  test_one_snapshot();
  test_two_snapshots();
  return tap_done();
}
