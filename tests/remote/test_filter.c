/* collectd-winperf: the remote helper's seccomp filter
 * (src/remote/helper_filter.h), call by call.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Each case runs in a child process that sets PR_SET_NO_NEW_PRIVS, loads
 * the filter and makes one call; the parent reads how the child ended:
 * killed by SIGSYS (the filter's kill), or exited with the errno the call
 * failed with (0: it succeeded). Expected by the filter's list: the calls a
 * helper never needs kill it, a few fail with an errno, and what the
 * helper and its libraries do (files, sockets of the four families, fork)
 * still works. No root needed; as root, a call the filter let through by
 * mistake does no harm (mount names a directory that does not exist).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "helper_filter.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define KILLED (-1)

/* The calls, by name; each returns 0 or -1 with errno. */
static int call(const char *what) {
  if (strcmp(what, "execve") == 0) {
    char *const argv[] = {"true", NULL}, *const envp[] = {NULL};
    return execve("/bin/true", argv, envp);
  }
  if (strcmp(what, "ptrace") == 0)
    return (int)syscall(SYS_ptrace, 0 /* PTRACE_TRACEME */, 0, 0, 0);
  if (strcmp(what, "listen") == 0) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    return s < 0 ? -1 : listen(s, 1);
  }
  if (strcmp(what, "unshare") == 0)
    return unshare(CLONE_NEWUSER);
  if (strcmp(what, "clone-newnet") == 0)
    return (int)syscall(SYS_clone, CLONE_NEWNET | SIGCHLD, 0, 0, 0, 0);
  if (strcmp(what, "mount") == 0)
    return mount("none", "/nonexistent/winperf-test", "tmpfs", 0, NULL);
  if (strcmp(what, "setuid") == 0)
    return setuid(getuid());
  if (strcmp(what, "bpf") == 0)
    return (int)syscall(SYS_bpf, 0, 0, 0);
  if (strcmp(what, "process_vm_readv") == 0)
    return (int)syscall(SYS_process_vm_readv, getppid(), 0, 0, 0, 0, 0);
#ifdef __x86_64__
  if (strcmp(what, "x32") == 0)
    return (int)syscall(0x40000000 | SYS_getpid);
  if (strcmp(what, "i386") == 0) {
    long r;
    __asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory");
    return r < 0 ? (errno = (int)-r, -1) : 0;
  }
#endif
  if (strcmp(what, "packet") == 0)
    return socket(AF_PACKET, SOCK_RAW, 0) < 0 ? -1 : 0;
  if (strcmp(what, "keyctl") == 0)
    return (int)syscall(SYS_keyctl, 0, 0, 0, 0, 0);
  if (strcmp(what, "clone3") == 0)
    return (int)syscall(SYS_clone3, NULL, 0);
  if (strcmp(what, "tiocsti") == 0) {
    char c = 'x';
    return ioctl(STDIN_FILENO, TIOCSTI, &c);
  }
  if (strcmp(what, "files") == 0) {
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    char b[64];
    return fd < 0 || read(fd, b, sizeof(b)) <= 0 ? -1 : close(fd);
  }
  if (strcmp(what, "sockets") == 0) {
    int fams[] = {AF_UNIX, AF_INET, AF_INET6, AF_NETLINK};
    for (int i = 0; i < 4; i++) {
      int s = socket(fams[i], fams[i] == AF_NETLINK ? SOCK_RAW : SOCK_DGRAM, 0);
      if (s < 0 && errno != EAFNOSUPPORT) /* a kernel without IPv6 */
        return -1;
      if (s >= 0)
        close(s);
    }
    return 0;
  }
  if (strcmp(what, "fork") == 0) {
    pid_t p = fork();
    if (p == 0)
      _exit(0);
    int st;
    return p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st) ? -1 : 0;
  }
  errno = EINVAL;
  return -1;
}

/* KILLED, or the errno the call failed with (0: it succeeded). */
static int run(const char *what) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    char why[256];
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        hfilter_install(why, sizeof(why)) != 0)
      _exit(200);
    errno = 0;
    int rc = call(what);
    _exit(rc == 0 ? 0 : (errno > 0 && errno < 200 ? errno : 199));
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) != pid)
    return -2;
  if (WIFSIGNALED(st))
    return WTERMSIG(st) == SIGSYS ? KILLED : -3;
  return WEXITSTATUS(st);
}

static void killed(const char *what) {
  int got = run(what);
  if (!OK(got == KILLED, "%s: the filter kills the process", what))
    tap_diag("got %d (exit code: the errno; -3 another signal)", got);
}

static void fails(const char *what, int err) {
  int got = run(what);
  if (!OK(got == err, "%s: fails with %s", what, strerror(err)))
    tap_diag("got %d", got);
}

static void works(const char *what) {
  int got = run(what);
  if (!OK(got == 0, "%s: allowed", what))
    tap_diag("got %d", got);
}

int main(void) {
  killed("execve");
  killed("listen");
  killed("unshare");
  killed("clone-newnet");
  killed("mount");
  killed("setuid");
  killed("bpf");
  killed("process_vm_readv");
#if HFILTER_SANITIZER
  works("ptrace"); /* LeakSanitizer's: left to the runtime */
#else
  killed("ptrace");
#endif
#ifdef __x86_64__
  killed("x32");
  killed("i386");
#endif
  fails("packet", EAFNOSUPPORT);
  fails("keyctl", ENOSYS);
  fails("clone3", ENOSYS);
  works("files");
  works("sockets");
  works("fork");
  return tap_done();
}
