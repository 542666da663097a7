/* collectd-winperf: reading a .blg file into memory.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef WP_BLG_FILE_H
#define WP_BLG_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wp_error.h"

/* Logs come by the gigabyte; the whole file is read (the reader keeps
 * offsets into it). */
#define BLG_MAX_FILE_BYTES                                                     \
  ((size_t)(SIZE_MAX > 0xffffffffu ? (uint64_t)8 << 30 : 0x7fffffffu))

/* Read `path` whole into a malloc'ed buffer; 0, or -1 with err naming the
 * file and the reason. */
int blg_read_file(const char *path, uint8_t **data, size_t *len, wp_error *err);

#endif
