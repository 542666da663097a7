/* collectd-winperf: growing arrays (pd_internal.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "pd_internal.h"

#include <stdint.h>
#include <stdlib.h>

bool pd_grow(void **array, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return true;
  size_t want = *cap ? *cap : 16;
  while (want < need)
    want = want > SIZE_MAX / 2 ? need : want * 2;
  if (want > SIZE_MAX / elem)
    return false;
  void *p = realloc(*array, want * elem);
  if (p == NULL)
    return false;
  *array = p;
  *cap = want;
  return true;
}
