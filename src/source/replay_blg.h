/* collectd-winperf: the replay source over a Perfmon binary log (.blg).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * `Replay "/path/log.blg"`: each collect returns the next sample of the
 * log's first machine as a V1 blob whose PerfTime100nSec is the sample's
 * UTC time (doc/blg.md 4), names returns the log's name table; after the
 * last sample, the first again when looping, else WP_SOURCE_END. A sample
 * that cannot be read is one failed collect (its offset in the message);
 * the next collect reads the next sample.
 */
#ifndef WP_REPLAY_BLG_H
#define WP_REPLAY_BLG_H

#include <stdbool.h>
#include <stddef.h>

#include "source.h"

/* Whether a Replay path names a .blg (by its extension). */
bool wp_replay_is_blg(const char *path);
/* Open the log (read whole); NULL with the file, offset and reason. */
wp_source *wp_replay_blg_open(const char *path, bool loop, wp_error *err);
/* The logged machine replayed (the host its values go under); NULL for
 * another kind of source. */
const char *wp_replay_blg_machine(const wp_source *src);
/* "FILE sample N (offset 0x...)" of the last collect, for log lines. */
const char *wp_replay_blg_where(const wp_source *src);
/* How many warnings opening the log gave, the first in first[size]. */
size_t wp_replay_blg_warnings(const wp_source *src, char *first, size_t size);
/* How many machines the log has (the first is replayed). */
size_t wp_replay_blg_machines(const wp_source *src);

#endif
