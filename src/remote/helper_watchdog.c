/* collectd-winperf: the helper's watchdog (helper_watchdog.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "helper_watchdog.h"
#include "frame.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

/* The protocol's output descriptor and a prebuilt timeout frame: the
 * SIGALRM handler may only use async-signal-safe calls, so it writes these
 * bytes and exits; the plugin restarts the helper. */
static int alarm_fd = -1;
static uint8_t alarm_frame[WPR_FRAME_HDR + 256];
static size_t alarm_frame_len;

static void on_alarm(int sig) {
  (void)sig;
  size_t off = 0;
  while (off < alarm_frame_len) {
    ssize_t w = write(alarm_fd, alarm_frame + off, alarm_frame_len - off);
    if (w <= 0)
      break;
    off += (size_t)w;
  }
  _exit(3);
}

void watchdog_init(int out_fd) {
  alarm_fd = out_fd;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, NULL);
}

void watchdog_arm(unsigned ms, const char *what, const char *host) {
  char msg[250];
  snprintf(msg, sizeof(msg), "%s %s timed out after %u ms", what, host, ms);
  size_t n = wpr_build_error(alarm_frame + WPR_FRAME_HDR,
                             sizeof(alarm_frame) - WPR_FRAME_HDR,
                             WPR_ERR_TIMEOUT, msg);
  wpr_frame_header(alarm_frame, WPR_MSG_ERROR, (uint32_t)n);
  alarm_frame_len = WPR_FRAME_HDR + n;
  struct itimerval it = {{0, 0}, {ms / 1000, (long)(ms % 1000) * 1000}};
  setitimer(ITIMER_REAL, &it, NULL);
}

void watchdog_disarm(void) {
  struct itimerval it = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &it, NULL);
}
