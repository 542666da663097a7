/* collectd-winperf: test driver for the remote source and the helper.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * remote_driver [--helper PATH] [--port N] [--credentials FILE]
 *               [--user NAME] [--query-timeout MS] [--connect-timeout MS]
 *               [--buffer-size BYTES] HOST
 * reads commands on stdin, one per line, and answers one line each:
 *   collect FILE QUERY   fetch a blob through src/source/remote.c (QUERY:
 *                        "Global" or an index list, spaces allowed)
 *                        -> "ok BYTES" | "error KIND MESSAGE"
 *   names FILE           fetch the Counter 009 table, same answers
 *   pid                  -> the helper's pid or -1
 *   kill                 SIGKILL the helper behind the source's back and
 *                        wait until it is dead (not reaped) -> "killed"
 *   eval OLD NEW NAMES PATH   decode two blobs with the shared parser and
 *                        evaluate a counter path -> "value INSTANCE VALUE"
 *                        per result, then "end N"
 *   compare A B          decode both blobs, compare objects, counters,
 *                        instance names and raw values -> "same N" | "differ
 *                        WHY" (N = raw values compared)
 * A test script drives it as a coprocess (tests/remote/smbd.sh).
 */
#include "perfdata.h"
#include "remote.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static int read_file(const char *path, uint8_t **data, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return -1;
  size_t cap = 65536, n = 0;
  uint8_t *p = malloc(cap);
  for (;;) {
    if (p == NULL) {
      fclose(f);
      return -1;
    }
    size_t got = fread(p + n, 1, cap - n, f);
    n += got;
    if (n < cap)
      break;
    cap *= 2;
    uint8_t *q = realloc(p, cap);
    if (q == NULL)
      free(p);
    p = q;
  }
  fclose(f);
  *data = p;
  *len = n;
  return 0;
}

static int write_file(const char *path, const uint8_t *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (f == NULL)
    return -1;
  int ok = fwrite(data, 1, len, f) == len;
  return fclose(f) == 0 && ok ? 0 : -1;
}

static void fetch(wp_source *src, const char *query, const char *file) {
  wp_buffer buf = {0};
  wp_error err;
  wp_error_clear(&err);
  wp_source_status st = query ? src->collect(src, query, &buf, &err)
                              : src->names(src, &buf, &err);
  if (st != WP_SOURCE_OK) {
    printf("error %d %s\n", wp_remote_last_error(src), err.message);
  } else if (write_file(file, buf.data, buf.len) != 0) {
    printf("error -2 cannot write %s\n", file);
  } else {
    printf("ok %zu\n", buf.len);
  }
  wp_buffer_free(&buf);
}

static void kill_helper(wp_source *src) {
  pid_t pid = wp_remote_helper_pid(src);
  siginfo_t si;
  if (pid <= 0 || kill(pid, SIGKILL) != 0) {
    printf("no helper\n");
    return;
  }
  /* We are the helper's parent: wait for its death, leave the reaping
   * (WNOWAIT) to the source. */
  memset(&si, 0, sizeof(si));
  while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) != 0 &&
         errno == EINTR)
    ;
  printf("killed\n");
}

static void eval(const char *oldf, const char *newf, const char *namesf,
                 const char *path) {
  uint8_t *a = NULL, *b = NULL, *n = NULL;
  size_t alen, blen, nlen;
  pd_error err;
  if (read_file(oldf, &a, &alen) || read_file(newf, &b, &blen) ||
      read_file(namesf, &n, &nlen)) {
    printf("fail cannot read input\n");
    goto out;
  }
  pd_names *names = NULL;
  if (pd_names_parse(n, nlen, &names, &err) != PD_OK) {
    printf("fail names: %s\n", err.message);
    goto out;
  }
  pd_snapshot *sa = pd_snapshot_new(), *sb = pd_snapshot_new();
  pd_selection *sel = pd_selection_new();
  size_t id;
  const pd_result *res;
  size_t count = 0;
  if (pd_decode(sa, a, alen, NULL, &err) != PD_OK ||
      pd_decode(sb, b, blen, NULL, &err) != PD_OK) {
    printf("fail decode: %s\n", err.message);
  } else if (pd_selection_add(sel, path, &id, &err) != PD_OK) {
    printf("fail path: %s\n", err.message);
  } else {
    pd_selection_set_names(sel, names);
    if (pd_selection_evaluate(sel, sa, sb, &res, &count, &err) != PD_OK) {
      printf("fail evaluate: %s\n", err.message);
    } else {
      for (size_t i = 0; i < count; i++) {
        if (res[i].status == PD_VALUE_OK)
          printf("value %s %.17g\n", res[i].instance ? res[i].instance : "-",
                 res[i].value);
        else
          printf("value %s %s\n", res[i].instance ? res[i].instance : "-",
                 pd_value_status_name(res[i].status));
      }
      printf("end %zu\n", count);
    }
  }
  pd_selection_free(sel);
  pd_snapshot_free(sa);
  pd_snapshot_free(sb);
  pd_names_free(names);
out:
  free(a);
  free(b);
  free(n);
}

static void compare(const char *fa, const char *fb) {
  uint8_t *a = NULL, *b = NULL;
  size_t alen, blen, compared = 0;
  pd_error err;
  pd_snapshot *sa = pd_snapshot_new(), *sb = pd_snapshot_new();
  if (read_file(fa, &a, &alen) || read_file(fb, &b, &blen)) {
    printf("differ cannot read input\n");
    goto out;
  }
  if (pd_decode(sa, a, alen, NULL, &err) != PD_OK ||
      pd_decode(sb, b, blen, NULL, &err) != PD_OK) {
    printf("differ decode: %s\n", err.message);
    goto out;
  }
  uint32_t no = pd_snapshot_object_count(sa);
  if (no != pd_snapshot_object_count(sb) || no == 0) {
    printf("differ object count %u vs %u\n", no, pd_snapshot_object_count(sb));
    goto out;
  }
  for (uint32_t o = 0; o < no; o++) {
    const pd_object *oa = pd_snapshot_object(sa, o),
                    *ob = pd_snapshot_object(sb, o);
    if (oa->name_index != ob->name_index ||
        oa->counter_count != ob->counter_count ||
        oa->instance_count != ob->instance_count) {
      printf("differ object %u shape\n", o);
      goto out;
    }
    for (uint32_t i = 0; i < oa->instance_count; i++) {
      const char *na = pd_instance_name(sa, oa, i),
                 *nb = pd_instance_name(sb, ob, i);
      if (na == NULL || nb == NULL || strcmp(na, nb) != 0) {
        printf("differ object %u instance %u name\n", o, i);
        goto out;
      }
      for (uint32_t c = 0; c < oa->counter_count; c++) {
        const pd_counter_def *ca = &oa->counters[c], *cb = &ob->counters[c];
        if (ca->name_index != cb->name_index || ca->type != cb->type) {
          printf("differ object %u counter %u definition\n", o, c);
          goto out;
        }
        uint64_t va = pd_counter_raw(sa, &oa->instances[i], ca);
        uint64_t vb = pd_counter_raw(sb, &ob->instances[i], cb);
        if (va != vb) {
          printf("differ object %u instance %u counter %u: %" PRIu64
                 " vs %" PRIu64 "\n",
                 o, i, c, va, vb);
          goto out;
        }
        compared++;
      }
    }
  }
  printf("same %zu\n", compared);
out:
  pd_snapshot_free(sa);
  pd_snapshot_free(sb);
  free(a);
  free(b);
}

int main(int argc, char **argv) {
  wp_remote_options opt = {0};
  for (int i = 1; i < argc; i++) {
    if (i + 1 < argc && strcmp(argv[i], "--helper") == 0)
      opt.helper = argv[++i];
    else if (i + 1 < argc && strcmp(argv[i], "--port") == 0)
      opt.port = (unsigned)atoi(argv[++i]);
    else if (i + 1 < argc && strcmp(argv[i], "--credentials") == 0)
      opt.credentials_file = argv[++i];
    else if (i + 1 < argc && strcmp(argv[i], "--user") == 0)
      opt.user = argv[++i];
    else if (i + 1 < argc && strcmp(argv[i], "--query-timeout") == 0)
      opt.query_timeout_ms = (unsigned)atoi(argv[++i]);
    else if (i + 1 < argc && strcmp(argv[i], "--buffer-size") == 0)
      opt.buffer_size = (unsigned)atoi(argv[++i]);
    else if (i + 1 < argc && strcmp(argv[i], "--connect-timeout") == 0)
      opt.connect_timeout_ms = (unsigned)atoi(argv[++i]);
    else
      opt.host = argv[i];
  }
  wp_error err = {0};
  wp_source *src = wp_remote_source_new(&opt, &err);
  if (src == NULL) {
    fprintf(stderr, "remote_driver: %s\n", err.message);
    return 2;
  }
  char line[4096];
  setvbuf(stdout, NULL, _IOLBF, 0);
  while (fgets(line, sizeof(line), stdin) != NULL) {
    char *w[8] = {0};
    int n = 0;
    for (char *t = strtok(line, " \t\r\n"); t != NULL && n < 8;) {
      w[n++] = t;
      /* the last argument (counter path, query) may contain spaces */
      int rest = (n == 4 && strcmp(w[0], "eval") == 0) ||
                 (n == 2 && strcmp(w[0], "collect") == 0);
      t = strtok(NULL, rest ? "\r\n" : " \t\r\n");
    }
    if (n == 0)
      continue;
    if (strcmp(w[0], "quit") == 0)
      break;
    if (strcmp(w[0], "collect") == 0 && n == 3)
      fetch(src, w[2], w[1]);
    else if (strcmp(w[0], "names") == 0 && n == 2)
      fetch(src, NULL, w[1]);
    else if (strcmp(w[0], "pid") == 0)
      printf("%ld\n", (long)wp_remote_helper_pid(src));
    else if (strcmp(w[0], "kill") == 0)
      kill_helper(src);
    else if (strcmp(w[0], "eval") == 0 && n == 5)
      eval(w[1], w[2], w[3], w[4]);
    else if (strcmp(w[0], "compare") == 0 && n == 3)
      compare(w[1], w[2]);
    else
      printf("bad command\n");
  }
  src->destroy(src);
  return 0;
}
