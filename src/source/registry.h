/* collectd-winperf: the local V1 source (HKEY_PERFORMANCE_DATA), Windows only.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * collect() asks RegQueryValueExW(HKEY_PERFORMANCE_DATA, L"<index list>")
 * for exactly the objects a configuration needs (format.md 1.6). The buffer
 * grows on ERROR_MORE_DATA (whose reported size is not usable), the
 * high-water size is kept between intervals and bounded by max_size;
 * ERROR_BUSY is retried briefly. The key stays open between intervals
 * (providers stay loaded, as PDH does) and is closed by destroy() and by
 * wp_registry_counters_changed() when counters were installed or removed.
 *
 * names() gives the English Counter table (HKEY_PERFORMANCE_TEXT);
 * wp_registry_names_local() the UI language's (HKEY_PERFORMANCE_NLSTEXT).
 */
#ifndef WP_REGISTRY_H
#define WP_REGISTRY_H

#include "source.h"

#include <stdbool.h>

typedef struct wp_registry_options {
  size_t initial_size;   /* first buffer size in bytes; 0: 64 KiB */
  size_t max_size;       /* growth stops here (an error); 0: 256 MiB */
  unsigned busy_retries; /* ERROR_BUSY retries per collect; 0: 5 */
  unsigned busy_wait_ms; /* pause between them; 0: 50 ms */
} wp_registry_options;

typedef struct wp_registry_stats {
  unsigned long queries; /* successful collects */
  unsigned long grows;   /* ERROR_MORE_DATA answers */
  unsigned long busy;    /* ERROR_BUSY answers */
  unsigned long reloads; /* key closed for a counter-table change */
  size_t high_water;     /* buffer size that last sufficed */
} wp_registry_stats;

/* Open the local source (opt may be NULL for the defaults). On Windows
 * only; returns NULL with the reason in err on failure. */
wp_source *wp_registry_open(const wp_registry_options *opt, wp_error *err);

/* The localized Counter table (HKEY_PERFORMANCE_NLSTEXT), REG_MULTI_SZ
 * UTF-16LE bytes. */
wp_source_status wp_registry_names_local(wp_source *src, wp_buffer *out,
                                         wp_error *err);

/* Whether Perflib's "Last Counter" differs from the value seen at open or at
 * the last reload (counters were installed or removed): if so the key is
 * reloaded and true returned; the caller then fetches the names again. */
bool wp_registry_counters_changed(wp_source *src);

void wp_registry_get_stats(const wp_source *src, wp_registry_stats *out);

/* Sleep (Windows Sleep), so callers need no windows.h. */
void wp_registry_sleep_ms(unsigned long ms);

#endif
