/* collectd-winperf tests: the allocation-failure harness finds what it
 * should (tests/alloc/failalloc.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Small operations with a known defect each: the sweep must count the
 * failure points, the clean errors and every defect. The leaking and the
 * crashing one print a sanitizer or abort report in sanitizer builds: that
 * output is expected.
 */
#include "failalloc.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

/* Every block is published here, so the compiler cannot pair a malloc
 * with its free and drop both (clang does). */
static void *volatile sink;
static void *keep(void *p) {
  sink = p;
  return p;
}

/* Three allocations, each failure handled: the model to compare with. */
static failalloc_result op_clean(void *ctx, char *why, size_t whylen) {
  (void)ctx, (void)why, (void)whylen;
  char *a = keep(malloc(8)), *b = NULL, *c = NULL;
  if (a == NULL || (b = keep(calloc(2, 8))) == NULL ||
      (c = keep(strdup("x"))) == NULL) {
    free(a);
    free(b);
    return FA_CLEAN_ERROR;
  }
  free(a);
  free(b);
  free(c);
  return FA_SUCCESS;
}

/* Forgets the first block when the second allocation fails. */
static failalloc_result op_leaky(void *ctx, char *why, size_t whylen) {
  (void)ctx, (void)why, (void)whylen;
  char *a = keep(malloc(8));
  if (a == NULL)
    return FA_CLEAN_ERROR;
  char *b = keep(realloc(NULL, 16));
  if (b == NULL)
    return FA_CLEAN_ERROR; /* a leaks */
  free(a);
  free(b);
  return FA_SUCCESS;
}

/* Dies when the second allocation fails. */
static failalloc_result op_crashy(void *ctx, char *why, size_t whylen) {
  (void)ctx, (void)why, (void)whylen;
  char *a = keep(malloc(8));
  if (a == NULL)
    return FA_CLEAN_ERROR;
  char *b = keep(strndup("abc", 2));
  if (b == NULL)
    abort();
  free(a);
  free(b);
  return FA_SUCCESS;
}

/* Says it failed wrongly when the first allocation fails. */
static failalloc_result op_wrong(void *ctx, char *why, size_t whylen) {
  (void)ctx;
  char *a = keep(malloc(8));
  if (a == NULL) {
    snprintf(why, whylen, "wrong status on purpose");
    return FA_BROKEN;
  }
  free(a);
  return FA_SUCCESS;
}

int main(void) {
  failalloc_report r;
  for (int persistent = 0; persistent < 2; persistent++) {
    const char *mode = persistent ? "persistent" : "once";
    failalloc_sweep("clean", op_clean, NULL, persistent, 0, &r);
    IS_INT(r.calls, 3, "%s: three allocations counted", mode);
    IS_INT(r.runs, 3, "%s: three failure points", mode);
    IS_INT(r.clean, 3, "%s: three clean errors", mode);
    OK(failalloc_all_clean(&r), "%s: a correct operation passes", mode);
  }
  failalloc_sweep("leaky", op_leaky, NULL, false, 0, &r);
  OK(r.leaked >= 1 && r.first_bad == 2, "a leak at allocation 2 is found");
  OK(!failalloc_all_clean(&r), "a leaking operation fails");
  failalloc_sweep("crashy", op_crashy, NULL, false, 0, &r);
  IS_INT(r.crashed, 1, "a crash is counted, not fatal");
  IS_INT(r.first_bad, 2, "... at allocation 2");
  IS_INT(r.runs, 2, "the sweep goes on after the crash");
  failalloc_sweep("wrong", op_wrong, NULL, false, 0, &r);
  IS_INT(r.broken, 1, "a wrong result is counted");
  IS_INT(failalloc_live(), 0, "the harness leaves nothing live");
  return tap_done();
}
