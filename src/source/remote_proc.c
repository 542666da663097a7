/* collectd-winperf: the helper process of the remote source
 * (remote_proc.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "remote_proc.h"
#include "remote_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int64_t wp_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void wp_proc_reap(wp_helper_proc *p, int force, char *why, size_t whylen) {
  if (p->fd >= 0) {
    close(p->fd);
    p->fd = -1;
  }
  if (p->pid <= 0) {
    wp_private_dir_remove(&p->dir);
    return;
  }
  int status = 0;
  pid_t got = 0;
  /* Give an exiting helper a moment before the hard stop. */
  for (int i = 0; i < (force ? 0 : 40) && got == 0; i++) {
    got = waitpid(p->pid, &status, WNOHANG);
    if (got == 0) {
      struct timespec ts = {0, 50 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
  }
  if (got == 0 || (got < 0 && errno == EINTR)) {
    kill(p->pid, SIGKILL);
    while ((got = waitpid(p->pid, &status, 0)) < 0 && errno == EINTR)
      ;
  }
  if (why != NULL && whylen > 0) {
    if (got == p->pid && WIFEXITED(status))
      snprintf(why, whylen, "exited with status %d", WEXITSTATUS(status));
    else if (got == p->pid && WIFSIGNALED(status))
      snprintf(why, whylen, "was killed by signal %d", WTERMSIG(status));
    else
      snprintf(why, whylen, "is gone");
  }
  p->pid = -1;
  wp_private_dir_remove(&p->dir); /* its caches: the helper is gone */
}

int wp_proc_died(wp_helper_proc *p) {
  int status;
  /* (ECHILD: someone else reaps children, e.g. SIGCHLD ignored; then ask
   * whether it still exists.) */
  pid_t w = p->pid > 0 ? waitpid(p->pid, &status, WNOHANG) : 0;
  if (w == p->pid || (w < 0 && errno == ECHILD && kill(p->pid, 0) != 0)) {
    p->pid = -1;
    wp_proc_reap(p, 1, NULL, 0);
    return 1;
  }
  return 0;
}

static void close_pair(int a, int b) {
  close(a);
  close(b);
}

int wp_proc_spawn(wp_helper_proc *p, const char *path, const char *const *argv,
                  const char **what, int *errnum) {
  int sv[2], st[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    *what = "socketpair";
    *errnum = errno;
    return -1;
  }
  if (pipe2(st, O_CLOEXEC) != 0) {
    *what = "pipe";
    *errnum = errno;
    close_pair(sv[0], sv[1]);
    return -1;
  }
  pid_t pid = fork();
  if (pid < 0) {
    *what = "fork";
    *errnum = errno;
    close_pair(sv[0], sv[1]);
    close_pair(st[0], st[1]);
    return -1;
  }
  if (pid == 0) {
    /* Child: only async-signal-safe calls from here to exec. */
    sigset_t all;
    sigemptyset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
    signal(SIGPIPE, SIG_DFL);
    if (dup2(sv[1], STDIN_FILENO) < 0 || dup2(sv[1], STDOUT_FILENO) < 0)
      _exit(127);
    /* Whatever else collectd has open stays out of the helper. */
    for (int fd = 3; fd < 1024; fd++)
      if (fd != st[1])
        close(fd);
    execv(path, (char *const *)argv);
    int e = errno;
    ssize_t w = write(st[1], &e, sizeof(e));
    (void)w;
    _exit(127);
  }
  close_pair(sv[1], st[1]);
  int child_errno = 0;
  ssize_t got;
  while ((got = read(st[0], &child_errno, sizeof(child_errno))) < 0 &&
         errno == EINTR)
    ;
  close(st[0]);
  p->pid = pid;
  p->fd = sv[0];
  if (got > 0) {
    wp_proc_reap(p, 1, NULL, 0);
    *what = "exec";
    *errnum = child_errno;
    return -1;
  }
  return 0;
}

int wp_proc_recv(int fd, uint8_t *p, size_t n, int64_t deadline) {
  size_t off = 0;
  while (off < n) {
    int64_t left = deadline - wp_now_ms();
    if (left <= 0)
      return -2;
    struct pollfd pfd = {fd, POLLIN, 0};
    int pr = poll(&pfd, 1, left > 60000 ? 60000 : (int)left);
    if (pr < 0 && errno == EINTR)
      continue;
    if (pr < 0)
      return -1;
    if (pr == 0)
      continue;
    ssize_t got = recv(fd, p + off, n - off, 0);
    if (got < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    if (got < 0)
      return -1;
    if (got == 0)
      return 0;
    off += (size_t)got;
  }
  return 1;
}

int wp_proc_closes_within(const wp_helper_proc *p, int ms) {
  if (p->fd < 0)
    return 1;
  uint8_t b;
  int64_t deadline = wp_now_ms() + ms;
  /* Nothing is due from the helper between answers: anything readable is
   * the end of the stream (or a helper out of step: gone all the same). */
  return wp_proc_recv(p->fd, &b, 1, deadline) != -2;
}
