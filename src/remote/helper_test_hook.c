/* collectd-winperf: the test build's switch (helper_test_hook.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "helper_test_hook.h"

#ifdef WPR_HELPER_TEST_HOOKS
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t asked;

static void on_usr1(int sig) {
  (void)sig;
  asked = 1;
}

void helper_test_hook_arm(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_usr1;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGUSR1, &sa, NULL);
}

void helper_test_hook_poll(void) {
  if (!asked)
    return;
  char *const argv[] = {"true", NULL};
  char *const envp[] = {NULL};
  execve("/bin/true", argv, envp);
  /* The filter kills the helper above; without the sandbox (HelperSandbox
   * false) the helper becomes /bin/true, which exits. Here only when
   * execve itself failed. */
  fprintf(stderr, "winperf-remote-helper (test build): execve returned: %s\n",
          strerror(errno));
  _exit(5);
}
#endif
