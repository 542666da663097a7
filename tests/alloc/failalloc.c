/* collectd-winperf tests: the fail-the-n-th-allocation shim and sweep.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "failalloc.h"

#include <errno.h>
#include <execinfo.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define FA_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FA_LSAN 1
#endif
#endif
#ifdef FA_LSAN
#include <sanitizer/lsan_interface.h>
#endif

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

/* ------------------------------------------------------ the live set */

/* Open addressing with linear probing over the block addresses; deletion
 * moves later entries back (no tombstones). Big enough for any test. */
#define LIVE_SLOTS (1u << 18)
static uintptr_t live_slot[LIVE_SLOTS];
static size_t live_count;

static size_t slot_of(uintptr_t p) {
  return (size_t)((p >> 4) * 0x9E3779B97F4A7C15ull >> 46) & (LIVE_SLOTS - 1);
}

static void live_add(void *ptr) {
  uintptr_t p = (uintptr_t)ptr;
  if (live_count >= LIVE_SLOTS / 2) {
    fprintf(stderr, "failalloc: more than %u live blocks\n", LIVE_SLOTS / 2);
    abort();
  }
  size_t i = slot_of(p);
  while (live_slot[i] != 0 && live_slot[i] != p)
    i = (i + 1) & (LIVE_SLOTS - 1);
  if (live_slot[i] == 0)
    live_count++;
  live_slot[i] = p;
}

static void live_remove(void *ptr) {
  uintptr_t p = (uintptr_t)ptr;
  size_t i = slot_of(p);
  while (live_slot[i] != p) {
    if (live_slot[i] == 0)
      return; /* not ours: allocated inside a shared library */
    i = (i + 1) & (LIVE_SLOTS - 1);
  }
  live_slot[i] = 0;
  live_count--;
  /* Move back every entry of the run after i that may no longer be found. */
  for (size_t j = (i + 1) & (LIVE_SLOTS - 1); live_slot[j] != 0;
       j = (j + 1) & (LIVE_SLOTS - 1)) {
    size_t home = slot_of(live_slot[j]);
    size_t dist_j = (j - home) & (LIVE_SLOTS - 1);
    size_t dist_i = (i - home) & (LIVE_SLOTS - 1);
    if (dist_i < dist_j) { /* i lies between home and j */
      live_slot[i] = live_slot[j];
      live_slot[j] = 0;
      i = j;
    }
  }
}

size_t failalloc_live(void) {
  return live_count;
}

/* ---------------------------------------------------- counting, failing */

static unsigned long calls, failures, fail_at;
static bool fail_persistent;

void failalloc_arm(unsigned long n, bool persistent) {
  calls = failures = 0;
  fail_at = n;
  fail_persistent = persistent;
}

void failalloc_disarm(void) {
  fail_at = 0;
}

unsigned long failalloc_calls(void) {
  return calls;
}

unsigned long failalloc_failures(void) {
  return failures;
}

/* FAILALLOC_BACKTRACE=N: print the stack of the injected failure of
 * allocation N (addresses; resolve with addr2line -f -e PROGRAM). */
static void maybe_backtrace(void) {
  const char *env = getenv("FAILALLOC_BACKTRACE");
  if (env == NULL || strtoul(env, NULL, 10) != calls)
    return;
  void *frames[32];
  int n = backtrace(frames, 32);
  fprintf(stderr, "failalloc: allocation %lu failed here:\n", calls);
  backtrace_symbols_fd(frames, n, 2);
}

/* Count one allocation call; true when it is to fail. */
static bool should_fail(void) {
  calls++;
  if (fail_at != 0 &&
      (calls == fail_at || (fail_persistent && calls > fail_at))) {
    failures++;
    maybe_backtrace();
    errno = ENOMEM;
    return true;
  }
  return false;
}

static void *track(void *p) {
  if (p != NULL)
    live_add(p);
  return p;
}

void *__wrap_malloc(size_t n) {
  return should_fail() ? NULL : track(__real_malloc(n));
}

void *__wrap_calloc(size_t n, size_t m) {
  return should_fail() ? NULL : track(__real_calloc(n, m));
}

void *__wrap_realloc(void *p, size_t n) {
  if (should_fail())
    return NULL; /* the old block stays live, as realloc promises */
  void *q = __real_realloc(p, n);
  if (q != NULL || n == 0) {
    if (p != NULL)
      live_remove(p);
    track(q);
  }
  return q;
}

void __wrap_free(void *p) {
  if (p != NULL)
    live_remove(p);
  __real_free(p);
}

char *__wrap_strndup(const char *s, size_t n) {
  if (should_fail())
    return NULL;
  size_t len = strnlen(s, n);
  char *d = __real_malloc(len + 1);
  if (d == NULL)
    return NULL;
  memcpy(d, s, len);
  d[len] = '\0';
  return track(d);
}

char *__wrap_strdup(const char *s) {
  return __wrap_strndup(s, SIZE_MAX);
}

/* The parser's debug-build checks (src/perfdata/cache_check.h) allocate
 * around the shim: their memory is neither counted nor failed, so a sweep
 * sees the allocations of release builds alone. */
void *pd_check_malloc(size_t n);
void pd_check_free(void *p);
void *pd_check_malloc(size_t n) {
  return __real_malloc(n);
}
void pd_check_free(void *p) {
  __real_free(p);
}

/* ------------------------------------------------------------ the sweep */

typedef struct run_outcome {
  unsigned long n; /* which allocation failed (0: none) */
  bool final;      /* the worker's last record: only lsan_leaks is set */
  failalloc_result result;
  unsigned long calls, failures;
  long leaked_blocks;
  int lsan_leaks;
  char why[256];
} run_outcome;

static void put_record(int fd, const run_outcome *o) {
  if (write(fd, o, sizeof *o) != (ssize_t)sizeof *o)
    _exit(1);
}

/* The forked worker: runs with allocation n, n + 1, ... failing, one
 * record each, until a run makes fewer than n allocations (or max); then
 * one LeakSanitizer pass over everything those runs left (a pass per run
 * would cost more than the runs) and a final record. */
static void worker(int fd, failalloc_op op, void *ctx, unsigned long n,
                   bool persistent, unsigned long max) {
  run_outcome o;
  for (;; n++) {
    memset(&o, 0, sizeof o);
    o.n = n;
    size_t before = failalloc_live();
    failalloc_arm(n, persistent);
    o.result = op(ctx, o.why, sizeof o.why);
    o.calls = failalloc_calls();
    o.failures = failalloc_failures();
    failalloc_disarm();
    o.leaked_blocks = (long)failalloc_live() - (long)before;
    put_record(fd, &o);
    if ((n > 0 && o.failures == 0) || n >= max)
      break;
  }
  memset(&o, 0, sizeof o);
  o.final = true;
#ifdef FA_LSAN
  o.lsan_leaks = __lsan_do_recoverable_leak_check();
#endif
  put_record(fd, &o);
  _exit(0);
}

/* Start a worker at allocation n; its records are read from *fd. */
static pid_t start_worker(failalloc_op op, void *ctx, unsigned long n,
                          bool persistent, unsigned long max, int *fd) {
  int fds[2];
  if (pipe(fds) != 0) {
    perror("failalloc: pipe");
    abort();
  }
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    perror("failalloc: fork");
    abort();
  }
  if (pid == 0) {
    close(fds[0]);
    worker(fds[1], op, ctx, n, persistent, max);
  }
  close(fds[1]);
  *fd = fds[0];
  return pid;
}

static bool get_record(int fd, run_outcome *o) {
  size_t got = 0;
  while (got < sizeof *o) {
    ssize_t r = read(fd, (char *)o + got, sizeof *o - got);
    if (r <= 0)
      return false;
    got += (size_t)r;
  }
  return true;
}

/* Up to 8 diagnostics per sweep, one per kind of failure: a message is
 * shown only when it differs from those shown before in more than its
 * digits (which allocation, which line), so a long run of the same bug
 * takes one line and a second bug still gets its own. */
typedef struct diag_state {
  unsigned long shown;
  char seen[8][160];
} diag_state;

static void shape_of(const char *msg, char *out, size_t cap) {
  size_t n = 0;
  for (; *msg && n + 1 < cap; msg++)
    if (*msg < '0' || *msg > '9')
      out[n++] = *msg;
  out[n] = '\0';
}

static void diag_bad(const char *name, diag_state *d, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void diag_bad(const char *name, diag_state *d, const char *fmt, ...) {
  char msg[512], shape[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  shape_of(msg, shape, sizeof shape);
  unsigned long kinds = d->shown < 8 ? d->shown : 8;
  for (unsigned long i = 0; i < kinds; i++)
    if (strcmp(d->seen[i], shape) == 0)
      return;
  if (d->shown >= 8)
    return;
  memcpy(d->seen[d->shown++], shape, sizeof shape);
  printf("#   %s: %s\n", name, msg);
}

/* Account one run's record. True when the sweep is complete. */
static bool account(const char *name, const char *mode, diag_state *shown,
                    const run_outcome *o, failalloc_report *report) {
  if (o->n == 0) {
    report->calls = o->calls;
    report->baseline_ok = o->result == FA_SUCCESS && o->leaked_blocks == 0;
    if (!report->baseline_ok)
      diag_bad(name, shown,
               "the run with no failure: result %d (%s), %ld blocks left",
               (int)o->result, o->why, o->leaked_blocks);
    return false;
  }
  if (o->failures == 0)
    return true; /* the operation made fewer than n allocations: done */
  report->runs++;
  bool bad = false;
  if (o->result == FA_CLEAN_ERROR)
    report->clean++;
  else if (o->result == FA_SUCCESS)
    report->success++;
  else {
    report->broken++;
    bad = true;
    diag_bad(name, shown, "%s, allocation %lu failing: %s", mode, o->n, o->why);
  }
  if (o->leaked_blocks != 0) {
    report->leaked++;
    bad = true;
    diag_bad(name, shown, "%s, allocation %lu failing: %ld blocks left", mode,
             o->n, o->leaked_blocks);
  }
  if (bad && report->first_bad == 0)
    report->first_bad = o->n;
  return false;
}

void failalloc_sweep(const char *name, failalloc_op op, void *ctx,
                     bool persistent, unsigned long max_runs,
                     failalloc_report *report) {
  memset(report, 0, sizeof *report);
  if (max_runs == 0)
    max_runs = 100000;
  const char *mode = persistent ? "persistent" : "once";
  diag_state shown;
  memset(&shown, 0, sizeof shown);
  unsigned long next = 0; /* the run a new worker starts with */
  bool done = false;
  while (!done && next <= max_runs) {
    int fd, ws = 0;
    pid_t pid = start_worker(op, ctx, next, persistent, max_runs, &fd);
    run_outcome o;
    bool final = false;
    while (!final && get_record(fd, &o)) {
      if (o.final) {
        final = true;
        if (o.lsan_leaks) {
          report->leaked++;
          diag_bad(name, &shown,
                   "%s: LeakSanitizer found leaks in runs %lu to %lu (its "
                   "report is above)",
                   mode, next, report->runs);
        }
      } else {
        done = account(name, mode, &shown, &o, report) || done;
        next = o.n + 1;
      }
    }
    close(fd);
    waitpid(pid, &ws, 0);
    if (final)
      break; /* the worker went to the end */
    /* It died during run `next`: count that, go on after it. */
    if (next == 0) {
      diag_bad(name, &shown, "the run with no failure died (status 0x%x)", ws);
      report->crashed++;
      return;
    }
    report->runs++;
    report->crashed++;
    if (report->first_bad == 0)
      report->first_bad = next;
    if (WIFSIGNALED(ws))
      diag_bad(name, &shown, "%s, allocation %lu failing: killed by signal %d",
               mode, next, WTERMSIG(ws));
    else
      diag_bad(name, &shown,
               "%s, allocation %lu failing: died (exit status %d; a "
               "sanitizer report above?)",
               mode, next, WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
    next++;
  }
  printf("# %s (%s): %lu allocations; %lu failing runs: %lu clean errors, "
         "%lu completed anyway, %lu wrong, %lu leaking, %lu crashed\n",
         name, mode, report->calls, report->runs, report->clean,
         report->success, report->broken, report->leaked, report->crashed);
  fflush(stdout);
}

bool failalloc_all_clean(const failalloc_report *r) {
  return r->baseline_ok && r->broken == 0 && r->leaked == 0 &&
         r->crashed == 0 && r->runs > 0;
}
