/* collectd-winperf tests: the capped growth helper (src/common/wp_grow.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Linked with the failalloc shim (tests/alloc) so a realloc can be made to
 * fail on purpose.
 */
#include "failalloc.h"
#include "tap.h"
#include "wp_grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
  uint32_t a, b, c; /* 12 bytes: not a power of two */
} entry;

static void test_from_zero(void) {
  entry *arr = NULL;
  size_t cap = 0;
  IS_INT(WP_GROW(&arr, &cap, 0, 100), WP_GROW_OK, "need 0: ok");
  OK(arr == NULL && cap == 0, "need 0 allocates nothing");
  IS_INT(WP_GROW(&arr, &cap, 1, 100), WP_GROW_OK, "need 1 from empty: ok");
  OK(arr != NULL, "need 1 allocates");
  IS_INT(cap, WP_GROW_FIRST_ELEMS, "first capacity: 8 elements");
  arr[cap - 1].c = 7; /* the whole capacity is usable (ASan checks) */
  entry *before = arr;
  IS_INT(WP_GROW(&arr, &cap, cap, 100), WP_GROW_OK, "need == cap: ok");
  OK(arr == before && cap == WP_GROW_FIRST_ELEMS, "need == cap: no change");
  IS_INT(WP_GROW(&arr, &cap, 9, 100), WP_GROW_OK, "need cap + 1: ok");
  IS_INT(cap, 16, "one past the capacity doubles it");
  IS_INT(arr[7].c, 7, "contents kept");
  IS_INT(WP_GROW(&arr, &cap, 40, 100), WP_GROW_OK, "need 40: ok");
  IS_INT(cap, 64, "doubling until it fits: 16, 32, 64");
  free(arr);

  arr = NULL;
  cap = 0;
  IS_INT(WP_GROW(&arr, &cap, 20, 100), WP_GROW_OK, "first need above 8");
  IS_INT(cap, 32, "first capacity doubles from 8 up to the need: 32");
  free(arr);
}

static void test_cap(void) {
  entry *arr = NULL;
  size_t cap = 0;
  IS_INT(WP_GROW(&arr, &cap, 5, 5), WP_GROW_OK, "need == cap limit: ok");
  IS_INT(cap, 5, "the first capacity stops at the cap (5, not 8)");
  IS_INT(WP_GROW(&arr, &cap, 6, 5), WP_GROW_LIMIT, "need cap + 1: LIMIT");
  IS_INT(cap, 5, "LIMIT leaves the capacity");
  free(arr);

  arr = NULL;
  cap = 0;
  IS_INT(WP_GROW(&arr, &cap, 9, 100), WP_GROW_OK, "9 of 100");
  IS_INT(WP_GROW(&arr, &cap, 70, 100), WP_GROW_OK, "70 of 100");
  IS_INT(cap, 100, "the last doubling (16, 32, 64, 128) stops at the cap");
  IS_INT(WP_GROW(&arr, &cap, 100, 100), WP_GROW_OK, "exactly the cap: ok");
  IS_INT(WP_GROW(&arr, &cap, 101, 100), WP_GROW_LIMIT, "one more: LIMIT");
  OK(arr != NULL && cap == 100, "array and capacity kept after LIMIT");
  free(arr);

  entry *none = NULL;
  cap = 0;
  IS_INT(WP_GROW(&none, &cap, 1, 0), WP_GROW_LIMIT, "cap 0: any need fails");
  OK(none == NULL && cap == 0, "nothing allocated");
  IS_INT(wp_grow(&none, &cap, 1, 0, 10), WP_GROW_LIMIT,
         "element size 0: refused");
}

static void test_overflow(void) {
  entry *arr = NULL;
  size_t cap = 0;
  size_t most = SIZE_MAX / sizeof(entry);
  IS_INT(WP_GROW(&arr, &cap, most + 1, WP_GROW_NO_CAP), WP_GROW_LIMIT,
         "need * elem overflows size_t: LIMIT");
  IS_INT(WP_GROW(&arr, &cap, SIZE_MAX, WP_GROW_NO_CAP), WP_GROW_LIMIT,
         "need SIZE_MAX: LIMIT");
  OK(arr == NULL && cap == 0, "nothing allocated on overflow");
  /* Doubling near the top must not wrap: a capacity above half the
   * maximum goes straight to the maximum. Simulated with a cap. */
  uint8_t *bytes = NULL;
  cap = 0;
  IS_INT(wp_grow_bytes(&bytes, &cap, 3000, 6000), WP_GROW_OK, "3000 of 6000");
  IS_INT(cap, 4096, "bytes start at 4096");
  IS_INT(wp_grow_bytes(&bytes, &cap, 4097, 6000), WP_GROW_OK, "4097 of 6000");
  IS_INT(cap, 6000, "doubling 4096 would pass the cap: stops at 6000");
  free(bytes);
}

static void test_bytes(void) {
  uint8_t *buf = NULL;
  size_t cap = 0;
  IS_INT(wp_grow_bytes(&buf, &cap, 1, 1 << 20), WP_GROW_OK, "bytes: need 1");
  IS_INT(cap, 4096, "bytes: first capacity 4096");
  memset(buf, 0xAB, cap);
  IS_INT(wp_grow_bytes(&buf, &cap, 70000, 1 << 20), WP_GROW_OK,
         "bytes: need 70000");
  IS_INT(cap, 131072, "bytes: 4096 doubled to 131072");
  OK(buf[4095] == 0xAB, "bytes: contents kept");
  IS_INT(wp_grow_bytes(&buf, &cap, (1 << 20) + 1, 1 << 20), WP_GROW_LIMIT,
         "bytes: one past the cap: LIMIT");
  free(buf);
}

static void test_realloc_failure(void) {
  entry *arr = NULL;
  size_t cap = 0;
  IS_INT(WP_GROW(&arr, &cap, 8, 1000), WP_GROW_OK, "8 entries");
  for (uint32_t i = 0; i < 8; i++)
    arr[i] = (entry){i, i * 2, i * 3};
  entry *before = arr;
  failalloc_arm(1, false);
  int rc = WP_GROW(&arr, &cap, 9, 1000);
  unsigned long failed = failalloc_failures();
  failalloc_disarm();
  IS_INT(rc, WP_GROW_NOMEM, "realloc failing: NOMEM");
  IS_INT(failed, 1, "exactly one allocation was attempted");
  OK(arr == before, "the array pointer is kept");
  IS_INT(cap, 8, "the capacity is kept");
  int same = 1;
  for (uint32_t i = 0; i < 8; i++)
    same &= arr[i].a == i && arr[i].b == i * 2 && arr[i].c == i * 3;
  OK(same, "the contents are intact");
  IS_INT(WP_GROW(&arr, &cap, 9, 1000), WP_GROW_OK, "retry succeeds");
  IS_INT(arr[7].c, 21, "contents moved with the array");
  free(arr);

  uint8_t *buf = NULL;
  cap = 0;
  failalloc_arm(1, false);
  rc = wp_grow_bytes(&buf, &cap, 10, 100);
  failalloc_disarm();
  IS_INT(rc, WP_GROW_NOMEM, "first allocation failing: NOMEM");
  OK(buf == NULL && cap == 0, "nothing allocated, nothing changed");
  IS_INT(failalloc_live(), 0, "no block left live by the test");
}

int main(void) {
  test_from_zero();
  test_cap();
  test_overflow();
  test_bytes();
  test_realloc_failure();
  return tap_done();
}
