/* collectd-winperf: the helper process of the remote source
 * (remote_proc.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "remote_proc.h"
#include "frame.h"
#include "remote_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
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
  /* Give an exiting helper up to 2 s before the hard stop, looking again
   * after 1, 2, 4 ... ms (at most 50 ms apart): under collectd, which
   * ignores SIGCHLD, the kernel reaps it the moment it exits, and its host
   * is without a helper until the next is started (remote.c). */
  for (long step = 1, waited = 0; !force && got == 0 && waited < 2000;
       waited += step, step = step < 32 ? step * 2 : 50) {
    got = waitpid(p->pid, &status, WNOHANG);
    if (got == 0) {
      struct timespec ts = {0, step * 1000 * 1000};
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
    else if (got == p->pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS)
      snprintf(why, whylen,
               "was killed by its sandbox (signal %d, SIGSYS: a system call "
               "its seccomp filter forbids)",
               SIGSYS);
    else if (got == p->pid && WIFSIGNALED(status))
      snprintf(why, whylen, "was killed by signal %d", WTERMSIG(status));
    else /* ECHILD: the status went to someone else */
      snprintf(why, whylen,
               "ended (how is not known here: collectd reaps child processes "
               "itself; the kernel logs a kill by the helper's sandbox as an "
               "audit record of type 1326)");
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

typedef struct child_args {
  const char *path;
  const char *const *argv;
  int stream, report; /* the helper's end of the socket pair; exec's pipe */
} child_args;

/* The child: only async-signal-safe calls from here to exec. */
static void child_main(const child_args *a) {
  sigset_t all;
  sigemptyset(&all);
  sigprocmask(SIG_SETMASK, &all, NULL);
  signal(SIGPIPE, SIG_DFL);
  signal(SIGCHLD, SIG_DFL); /* collectd ignores it; the helper should not */
  if (dup2(a->stream, STDIN_FILENO) < 0 || dup2(a->stream, STDOUT_FILENO) < 0)
    _exit(127);
  /* Whatever else collectd has open stays out of the helper (which closes
   * the rest itself: src/remote/helper_sandbox.h). */
  for (int fd = 3; fd < 1024; fd++)
    if (fd != a->report)
      close(fd);
  execv(a->path, (char *const *)a->argv);
  int e = errno;
  ssize_t w = write(a->report, &e, sizeof(e));
  (void)w;
  _exit(127);
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
  child_args a = {path, argv, sv[1], st[1]};
  pid_t pid = fork();
  if (pid < 0) {
    *what = "fork";
    *errnum = errno;
    close_pair(sv[0], sv[1]);
    close_pair(st[0], st[1]);
    return -1;
  }
  if (pid == 0)
    child_main(&a);
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

int wp_proc_send_fds(int fd, const uint8_t *p, size_t n, const int *fds,
                     int nfds) {
  if (nfds <= 0)
    return wpr_write_all(fd, p, n);
  union {
    struct cmsghdr align;
    char buf[CMSG_SPACE(sizeof(int) * 8)];
  } ctl;
  if (nfds > 8)
    return -1;
  memset(&ctl, 0, sizeof(ctl));
  struct iovec iov = {(void *)p, n};
  struct msghdr m = {0};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  m.msg_control = ctl.buf;
  m.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
  struct cmsghdr *c = CMSG_FIRSTHDR(&m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
  memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)nfds);
  ssize_t w;
  while ((w = sendmsg(fd, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR)
    ;
  if (w < 0)
    return -1;
  /* the descriptors went with the first byte; the rest as any frame */
  return (size_t)w == n ? 0 : wpr_write_all(fd, p + w, n - (size_t)w);
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
