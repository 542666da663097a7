/* collectd-winperf: the helper's watchdog: a timer around each step that
 * talks to the server. On expiry the SIGALRM handler writes a prebuilt
 * timeout ERROR frame to the plugin and exits with status 3.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef WP_REMOTE_HELPER_WATCHDOG_H
#define WP_REMOTE_HELPER_WATCHDOG_H

/* Install the SIGALRM handler; the timeout frame goes to out_fd. */
void watchdog_init(int out_fd);
/* Start the timer: "<what> <host> timed out after <ms> ms" on expiry. */
void watchdog_arm(unsigned ms, const char *what, const char *host);
void watchdog_disarm(void);

#endif
