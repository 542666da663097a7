/* collectd-winperf: the helper process of the remote source: start it on a
 * socket pair, read its answers with a deadline, reap it.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * fork/exec (no shell) on an AF_UNIX socket pair, close-on-exec; the child
 * closes every other descriptor and reports a failed exec through a pipe.
 * Writes go through wpr_write_all (send with MSG_NOSIGNAL): a dead helper
 * cannot raise SIGPIPE in collectd.
 */
#ifndef WP_SOURCE_REMOTE_PROC_H
#define WP_SOURCE_REMOTE_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct wp_helper_proc {
  pid_t pid; /* -1: none */
  int fd;    /* our end of the socket pair, -1: none */
  /* The helper's private directory (remote_dir.h), removed when the
   * helper has been reaped; NULL: none. */
  char *dir;
} wp_helper_proc;

#define WP_HELPER_PROC_NONE                                                    \
  { -1, -1, NULL }

/* Start path with argv (argv[0] first, NULL-terminated). 0; or -1 with
 * *what ("socketpair", "pipe", "fork", "exec") and errno's value in
 * *errnum, nothing left running. */
int wp_proc_spawn(wp_helper_proc *p, const char *path, const char *const *argv,
                  const char **what, int *errnum);

/* Close the stream and reap the helper: an exiting one is given 2 s unless
 * force, then SIGKILL. How it ended into why (may be NULL). Its private
 * directory, if any, is removed once it is gone. */
void wp_proc_reap(wp_helper_proc *p, int force, char *why, size_t whylen);

/* Whether the helper died since it was last looked at (then reaped). */
int wp_proc_died(wp_helper_proc *p);

/* Send the n bytes of a frame with nfds descriptors (SCM_RIGHTS, at most
 * 8; an OPEN's files) as wpr_write_all sends one. 0, or -1. */
int wp_proc_send_fds(int fd, const uint8_t *p, size_t n, const int *fds,
                     int nfds);

/* Receive exactly n bytes before the deadline (wp_now_ms's clock): 1 ok,
 * 0 EOF, -1 error, -2 timeout. */
int wp_proc_recv(int fd, uint8_t *p, size_t n, int64_t deadline);

/* Whether the helper closes the stream within ms: a helper whose watchdog
 * expired exits right after its timeout ERROR. */
int wp_proc_closes_within(const wp_helper_proc *p, int ms);

/* CLOCK_MONOTONIC in milliseconds. */
int64_t wp_now_ms(void);

#endif
