/* collectd-winperf: a switch of the test build of the helper only.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * tests/remote/winperf-remote-helper-test is the helper compiled with
 * WPR_HELPER_TEST_HOOKS (tests/remote/Makefile.inc); the installed helper
 * has none of this. There, SIGUSR1 makes the helper attempt execve before
 * it answers its next request, after its sandbox is up: the seccomp filter
 * must kill it (tests/remote/sandbox-smbd.sh).
 */
#ifndef WP_REMOTE_HELPER_TEST_HOOK_H
#define WP_REMOTE_HELPER_TEST_HOOK_H

#ifdef WPR_HELPER_TEST_HOOKS
/* Install the SIGUSR1 handler. */
void helper_test_hook_arm(void);
/* After SIGUSR1: execve("/bin/true") (should it fail: exit 5). */
void helper_test_hook_poll(void);
#else
static inline void helper_test_hook_arm(void) {}
static inline void helper_test_hook_poll(void) {}
#endif

#endif
