/* collectd-winperf: the one growth helper for arrays and byte buffers.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Every growable array outside the parser keeps a pointer and a capacity
 * (in elements) and, before writing element `n`, asks for room for n + 1:
 *
 *   int rc = WP_GROW(&list->entries, &list->cap, list->count + 1,
 *                    WP_MAX_ENTRIES);
 *   if (rc != WP_GROW_OK)
 *     return wp_error_grow(err, rc, WP_MAX_ENTRIES, "counter entries");
 *   list->entries[list->count++] = entry;
 *
 * Policy: the first capacity is 8 elements (4096 bytes for wp_grow_bytes),
 * and a capacity doubles until it holds `need` (amortized O(1) appends),
 * never beyond the cap: the last step stops exactly at it. Every product
 * and doubling is overflow-checked.
 *
 * Results:
 *   WP_GROW_OK     *cap >= need (the array may have moved: re-derive any
 *                  pointer into it)
 *   WP_GROW_NOMEM  realloc failed; array and *cap unchanged, still valid
 *   WP_GROW_LIMIT  need is above max_elems (or need * elem would overflow
 *                  size_t); nothing allocated, array and *cap unchanged
 * Both failures are negative, so `if (wp_grow(...) < 0)` also works.
 *
 * The array argument is the address of the caller's pointer of any type
 * (T **, passed as void *) so no cast is written at the call site; it is
 * read and written with memcpy, which is well-defined for any pointer
 * type on the platforms we build for (all object pointers share one
 * representation).
 */
#ifndef WP_GROW_H
#define WP_GROW_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  WP_GROW_OK = 0,
  WP_GROW_NOMEM = -1,
  WP_GROW_LIMIT = -2,
};

/* No cap beyond what size_t can address. */
#define WP_GROW_NO_CAP SIZE_MAX
/* First capacities. */
#define WP_GROW_FIRST_ELEMS 8u
#define WP_GROW_FIRST_BYTES 4096u

/* Make room for `need` elements of `elem` bytes (elem > 0) in the array
 * whose pointer is at `arrayp` and capacity (elements) at `cap`; the array
 * never holds more than `max_elems`. New elements are uninitialized. */
int wp_grow(void *arrayp, size_t *cap, size_t need, size_t elem,
            size_t max_elems);

/* The same for a byte buffer (elem 1, first size 4096 bytes), e.g. a
 * uint8_t *data with size_t cap. */
int wp_grow_bytes(void *bufp, size_t *cap, size_t need, size_t max_bytes);

/* Resize the array at `arrayp` to exactly `n` elements of `elem` bytes
 * (for arrays kept in step with another whose capacity wp_grow chose):
 * WP_GROW_OK, WP_GROW_NOMEM (array unchanged) or WP_GROW_LIMIT (n * elem
 * overflows). n 0 keeps the array as it is. */
int wp_resize(void *arrayp, size_t n, size_t elem);

/* wp_grow with the element size taken from the pointer's type. */
#define WP_GROW(arrayp, cap, need, max_elems)                                  \
  wp_grow((arrayp), (cap), (need), sizeof(**(arrayp)), (max_elems))

/* wp_resize with the element size taken from the pointer's type. */
#define WP_RESIZE(arrayp, n) wp_resize((arrayp), (n), sizeof(**(arrayp)))

#ifdef __cplusplus
}
#endif

#endif
