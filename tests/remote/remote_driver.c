/* collectd-winperf: test driver for the remote source and the helper.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * remote_driver [--helper PATH] [--shared N] [--port N] [--credentials FILE]
 *               [--user NAME] [--query-timeout MS] [--connect-timeout MS]
 *               [--buffer-size BYTES] HOST [[OPTIONS] HOST ...]
 * reads commands on stdin, one per line, and answers one line each:
 *   collect FILE QUERY   fetch a blob through src/source/remote.c (QUERY:
 *                        "Global" or an index list, spaces allowed)
 *                        -> "ok BYTES" | "error KIND MESSAGE"
 *   names FILE           fetch the Counter 009 table, same answers
 *   last                 Perflib's Last Counter the source read with the
 *                        names -> the number, 0: unknown
 *   pid                  -> the helper's pid or -1
 *   kill                 SIGKILL the helper behind the source's back and
 *                        wait until it is dead (not reaped) -> "killed"
 *   eval OLD NEW NAMES PATH   decode two blobs with the shared parser and
 *                        evaluate a counter path -> "value INSTANCE VALUE"
 *                        per result, then "end N"
 *   compare A B          decode both blobs, compare objects, counters,
 *                        instance names and raw values -> "same N" | "differ
 *                        WHY" (N = raw values compared)
 *   parallel FILE QUERY  collect on every host at once, a thread each, into
 *                        FILE.K -> "K ok BYTES MS" | "K error KIND MS MESSAGE"
 *                        per host K, in host order
 * Several HOSTs may be given, each with the options before it; "@K
 * COMMAND" runs a command on the K-th (0: the first, the default).
 * --shared N: the hosts share one helper (remote_shared.h, N sessions).
 * A test script drives it as a coprocess (tests/remote/smbd.sh).
 */
#include "perfdata.h"
#include "remote.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#define MAX_HOSTS 16

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

/* parallel: every host's collect at once, one thread each. */
typedef struct par {
  wp_source *src;
  const char *query;
  char file[4096];
  char out[600];
  pthread_t t;
} par;

static void *par_run(void *arg) {
  par *p = arg;
  wp_buffer buf = {0};
  wp_error err;
  wp_error_clear(&err);
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  wp_source_status st = p->src->collect(p->src, p->query, &buf, &err);
  clock_gettime(CLOCK_MONOTONIC, &b);
  long ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
  if (st != WP_SOURCE_OK)
    snprintf(p->out, sizeof(p->out), "error %d %ld %s",
             wp_remote_last_error(p->src), ms, err.message);
  else if (write_file(p->file, buf.data, buf.len) != 0)
    snprintf(p->out, sizeof(p->out), "error -2 cannot write");
  else
    snprintf(p->out, sizeof(p->out), "ok %zu %ld", buf.len, ms);
  wp_buffer_free(&buf);
  return NULL;
}

static void parallel(wp_source **src, int hosts, const char *file,
                     const char *query) {
  static par p[MAX_HOSTS];
  for (int i = 0; i < hosts; i++) {
    p[i].src = src[i];
    p[i].query = query;
    snprintf(p[i].file, sizeof(p[i].file), "%s.%d", file, i);
    pthread_create(&p[i].t, NULL, par_run, &p[i]);
  }
  for (int i = 0; i < hosts; i++) {
    pthread_join(p[i].t, NULL);
    printf("%d %s\n", i, p[i].out);
  }
}

/* One command line for host src[k] (or all of them: parallel). */
static void command(wp_source **src, int hosts, int k, char *line) {
  char *w[8] = {0};
  int n = 0;
  for (char *t = strtok(line, " \t\r\n"); t != NULL && n < 8;) {
    w[n++] = t;
    /* the last argument (counter path, query) may contain spaces */
    int rest = (n == 4 && strcmp(w[0], "eval") == 0) ||
               (n == 2 && strcmp(w[0], "collect") == 0) ||
               (n == 2 && strcmp(w[0], "parallel") == 0);
    t = strtok(NULL, rest ? "\r\n" : " \t\r\n");
  }
  if (n == 0)
    return;
  if (strcmp(w[0], "collect") == 0 && n == 3)
    fetch(src[k], w[2], w[1]);
  else if (strcmp(w[0], "names") == 0 && n == 2)
    fetch(src[k], NULL, w[1]);
  else if (strcmp(w[0], "parallel") == 0 && n == 3)
    parallel(src, hosts, w[1], w[2]);
  else if (strcmp(w[0], "last") == 0)
    printf("%u\n", (unsigned)wp_source_last_counter(src[k]));
  else if (strcmp(w[0], "pid") == 0)
    printf("%ld\n", (long)wp_remote_helper_pid(src[k]));
  else if (strcmp(w[0], "kill") == 0)
    kill_helper(src[k]);
  else if (strcmp(w[0], "eval") == 0 && n == 5)
    eval(w[1], w[2], w[3], w[4]);
  else if (strcmp(w[0], "compare") == 0 && n == 3)
    compare(w[1], w[2]);
  else
    printf("bad command\n");
}

int main(int argc, char **argv) {
  wp_remote_options opt = {0}, host_opt[MAX_HOSTS];
  int hosts = 0;
  unsigned shared = 0;
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
    else if (i + 1 < argc && strcmp(argv[i], "--shared") == 0)
      shared = (unsigned)atoi(argv[++i]);
    else if (hosts < MAX_HOSTS) {
      opt.host = argv[i];
      host_opt[hosts++] = opt; /* the options given so far are its own */
    }
  }
  if (hosts == 0)
    host_opt[hosts++] = opt; /* no host: the source says so */
  wp_error err = {0};
  wp_remote_helper *h = NULL;
  if (shared > 0 &&
      (h = wp_remote_helper_new(opt.helper, shared, &err)) == NULL) {
    fprintf(stderr, "remote_driver: %s\n", err.message);
    return 2;
  }
  wp_source *src[MAX_HOSTS];
  for (int i = 0; i < hosts; i++) {
    host_opt[i].shared = h;
    if ((src[i] = wp_remote_source_new(&host_opt[i], &err)) == NULL) {
      fprintf(stderr, "remote_driver: %s\n", err.message);
      return 2;
    }
  }
  wp_remote_helper_unref(h); /* the sources hold theirs */
  char line[4096];
  setvbuf(stdout, NULL, _IOLBF, 0);
  while (fgets(line, sizeof(line), stdin) != NULL) {
    if (strncmp(line, "quit", 4) == 0)
      break;
    /* "@K command": the K-th host (0: the first) */
    int k = 0;
    char *cmd = line;
    if (line[0] == '@') {
      k = atoi(line + 1);
      cmd = strchr(line, ' ') ? strchr(line, ' ') + 1 : line + strlen(line);
      if (k < 0 || k >= hosts) {
        printf("bad host\n");
        continue;
      }
    }
    command(src, hosts, k, cmd);
  }
  for (int i = 0; i < hosts; i++)
    src[i]->destroy(src[i]);
  return 0;
}
