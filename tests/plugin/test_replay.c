/* collectd-winperf tests: the replay source (src/source/replay.c).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay.h"
#include "tap.h"

static char dir[64];
static char err[1024];

static void write_file(const char *name, const char *content) {
  char path[256];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (f == NULL) {
    perror(path);
    exit(1);
  }
  fputs(content, f);
  fclose(f);
}

static char *content(const wp_buffer *b) {
  static char s[256];
  size_t n = b->len < sizeof(s) - 1 ? b->len : sizeof(s) - 1;
  memcpy(s, b->data ? (const char *)b->data : "", n);
  s[n] = '\0';
  return s;
}

/* The source's calls with the message copied into err. */
static wp_source_status collect_err(wp_source *s, const char *q, wp_buffer *b) {
  wp_error e;
  wp_error_clear(&e);
  wp_source_status st = s->collect(s, q, b, &e);
  snprintf(err, sizeof(err), "%s", e.message);
  return st;
}

static wp_source *open_err(const char *d, bool loop) {
  wp_error e;
  wp_error_clear(&e);
  wp_source *s = wp_replay_open(d, loop, &e);
  snprintf(err, sizeof(err), "%s", e.message);
  return s;
}

static wp_source_status names_err(wp_source *s, wp_buffer *b) {
  wp_error e;
  wp_error_clear(&e);
  wp_source_status st = s->names(s, b, &e);
  snprintf(err, sizeof(err), "%s", e.message);
  return st;
}

static void collect_expect(wp_source *src, wp_buffer *b, const char *want,
                           const char *name) {
  err[0] = '\0';
  wp_source_status st = collect_err(src, "238 2", b);
  IS_INT(st, WP_SOURCE_OK, "%s: collect ok", name);
  IS_STR(content(b), want, "%s: content", name);
}

static void test_open_errors(void) {
  wp_source *s = open_err("/nonexistent/capture", true);
  OK(s == NULL, "missing directory: no source");
  OK(strstr(err, "/nonexistent/capture: cannot open the capture directory") !=
         NULL,
     "missing directory named: %s", err);
  s = open_err(dir, true);
  OK(s == NULL, "no blobs: no source");
  char want[128];
  snprintf(want, sizeof(want), "%s: no *.blob files", dir);
  OK(strstr(err, want) != NULL, "no blobs: says so: %s", err);
}

static void test_order_and_loop(void) {
  write_file("b.blob", "B");
  write_file("a.blob", "A");
  write_file("10.blob", "TEN");
  write_file("9.blob", "NINE");
  write_file("notes.txt", "not a blob");
  write_file(".blob", "just the extension"); /* no name: not a blob */
  write_file("names.multisz", "NAMES");
  char sub[128];
  snprintf(sub, sizeof(sub), "%s/sub.blob", dir);
  mkdir(sub, 0700); /* a directory named *.blob is skipped */

  wp_source *s = open_err(dir, true);
  if (!OK(s != NULL, "open with blobs")) {
    tap_diag("  %s", err);
    return;
  }
  IS_STR(s->kind, "replay", "kind");
  IS_INT(wp_replay_blob_count(s), 4, "four blobs");
  OK(wp_replay_last_file(s) == NULL, "no file read yet");
  wp_buffer b = {0};
  /* byte order of names: "10" < "9" < "a" < "b" */
  collect_expect(s, &b, "TEN", "first: 10.blob");
  char want[128];
  snprintf(want, sizeof(want), "%s/10.blob", dir);
  IS_STR(wp_replay_last_file(s), want, "last file named");
  collect_expect(s, &b, "NINE", "second: 9.blob");
  const uint8_t *data = b.data;
  collect_expect(s, &b, "A", "third: a.blob");
  collect_expect(s, &b, "B", "fourth: b.blob");
  collect_expect(s, &b, "TEN", "loop: 10.blob again");
  OK(b.data == data, "buffer reused, not reallocated");
  wp_source_status st = names_err(s, &b);
  IS_INT(st, WP_SOURCE_OK, "names ok");
  IS_STR(content(&b), "NAMES", "names content");
  snprintf(want, sizeof(want), "%s/names.multisz", dir);
  IS_STR(wp_replay_last_file(s), want, "names file named");
  s->destroy(s);

  s = open_err(dir, false);
  for (int i = 0; i < 4; i++) {
    st = collect_err(s, "", &b);
    IS_INT(st, WP_SOURCE_OK, "no loop: blob %d", i + 1);
  }
  IS_STR(content(&b), "B", "no loop: last blob read");
  st = collect_err(s, "", &b);
  IS_INT(st, WP_SOURCE_END, "no loop: END after the last blob");
  st = collect_err(s, "", &b);
  IS_INT(st, WP_SOURCE_END, "no loop: END stays");
  s->destroy(s);
  wp_buffer_free(&b);
}

static void test_read_errors(void) {
  wp_source *s = open_err(dir, true);
  wp_buffer b = {0};
  char path[128];
  snprintf(path, sizeof(path), "%s/9.blob", dir);
  unlink(path); /* vanished after the scan */
  collect_expect(s, &b, "TEN", "before the vanished file");
  err[0] = '\0';
  wp_source_status st = collect_err(s, "", &b);
  IS_INT(st, WP_SOURCE_ERROR, "vanished blob: error");
  char want[160];
  snprintf(want, sizeof(want), "%s: cannot open: ", path);
  OK(strncmp(err, want, strlen(want)) == 0, "error names the file: %s", err);
  collect_expect(s, &b, "A", "the next call moves on");

  snprintf(path, sizeof(path), "%s/names.multisz", dir);
  unlink(path);
  st = names_err(s, &b);
  IS_INT(st, WP_SOURCE_ERROR, "missing names.multisz: error");
  snprintf(want, sizeof(want), "%s: cannot open: ", path);
  OK(strncmp(err, want, strlen(want)) == 0, "names error names the file: %s",
     err);
  s->destroy(s);

  /* One byte above the limit (a sparse file): a clear error. */
  snprintf(path, sizeof(path), "%s/c.blob", dir);
  int fd = open(path, O_CREAT | O_WRONLY, 0600);
  OK(fd >= 0 && ftruncate(fd, (off_t)WP_REPLAY_MAX_BYTES + 1) == 0,
     "sparse 256 MiB + 1 file");
  close(fd);
  write_file("0.blob", "");
  s = open_err(dir, false);
  st = collect_err(s, "", &b);
  IS_INT(st, WP_SOURCE_OK, "empty blob reads");
  IS_INT(b.len, 0, "empty blob: 0 bytes");
  collect_expect(s, &b, "TEN", "10.blob");
  collect_expect(s, &b, "A", "a.blob");
  collect_expect(s, &b, "B", "b.blob");
  st = collect_err(s, "", &b);
  IS_INT(st, WP_SOURCE_ERROR, "oversized blob: error");
  snprintf(want, sizeof(want), "%s: larger than the 256 MiB limit", path);
  IS_STR(err, want, "oversized blob: says so");
  IS_INT(b.len, 0, "oversized blob: nothing kept");
  s->destroy(s);
  wp_buffer_free(&b);
  unlink(path);
}

/* DIR/last-counter: Perflib's Last Counter of the captured host. */
static void test_last_counter(void) {
  wp_source *s = open_err(dir, false);
  IS_INT(wp_source_last_counter(s), 0, "no last-counter file: 0 (unknown)");
  s->destroy(s);
  write_file("last-counter", "21096\n");
  s = open_err(dir, false);
  IS_INT(wp_source_last_counter(s), 21096, "last-counter 21096");
  s->destroy(s);
  write_file("last-counter", "4294967295");
  s = open_err(dir, false);
  IS_INT(wp_source_last_counter(s), 4294967295u, "last-counter 2^32-1");
  s->destroy(s);
  static const char *const bad[] = {"",    "0\n", "4294967296",
                                    "12x", "-4",  "1847 1847"};
  char want[160];
  snprintf(want, sizeof(want),
           "%s/last-counter: not Perflib's Last Counter (one line, a decimal "
           "number from 1 to 4294967295)",
           dir);
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    write_file("last-counter", bad[i]);
    s = open_err(dir, false);
    OK(s == NULL, "last-counter \"%s\": the capture is refused", bad[i]);
    IS_STR(err, want, "  ... naming the file and the reason");
    if (s != NULL)
      s->destroy(s);
  }
  char path[128];
  snprintf(path, sizeof(path), "%s/last-counter", dir);
  unlink(path);
}

int main(void) {
  snprintf(dir, sizeof(dir), "/tmp/wp-replay-XXXXXX");
  if (mkdtemp(dir) == NULL) {
    perror("mkdtemp");
    return 1;
  }
  test_open_errors();
  test_order_and_loop();
  test_read_errors();
  test_last_counter();
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  if (system(cmd) != 0)
    tap_diag("could not remove %s", dir);
  return tap_done();
}
