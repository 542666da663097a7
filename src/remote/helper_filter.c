/* collectd-winperf: the helper's seccomp filter (helper_filter.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "helper_filter.h"

#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

/* Calls that kill the helper, by what they would do. Names this kernel or
 * libseccomp does not know on this architecture are skipped. */
static const char *const killed[] = {
    /* start a program */
    "execve execveat",
    /* reach into other processes */
    "process_vm_readv process_vm_writev process_madvise pidfd_getfd",
    /* serve connections */
    "listen accept accept4",
    /* namespaces and mounts */
    "unshare setns mount umount2 pivot_root chroot open_tree move_mount "
    "fsopen fsconfig fsmount fspick mount_setattr",
    /* the kernel's own: modules, kexec, bpf, tracing, io_uring */
    "init_module finit_module delete_module kexec_load kexec_file_load bpf "
    "perf_event_open userfaultfd io_uring_setup io_uring_enter "
    "io_uring_register",
    /* identities and capabilities: the helper has dropped them for good */
    "setuid setgid setreuid setregid setresuid setresgid setgroups setfsuid "
    "setfsgid capset",
    /* the machine's: clock, swap, reboot, names, devices, accounting */
    "settimeofday clock_settime clock_adjtime adjtimex swapon swapoff reboot "
    "sethostname setdomainname name_to_handle_at open_by_handle_at "
    "personality iopl ioperm syslog acct quotactl quotactl_fd fanotify_init "
    "lookup_dcookie uselib vhangup nfsservctl",
#if !HFILTER_SANITIZER
    "ptrace",
#endif
};

/* Calls that fail with an errno. */
static const struct {
  const char *name;
  int err;
} refused[] = {
    {"keyctl", ENOSYS},
    {"add_key", ENOSYS},
    {"request_key", ENOSYS},
    {"clone3", ENOSYS}, /* glibc then uses clone, whose flags are seen */
};

/* Each name of the space-separated list names: KILL_PROCESS. */
static int add_killed(scmp_filter_ctx ctx, const char *names, char *why,
                      size_t len) {
  char name[40];
  for (const char *p = names; *p;) {
    size_t n = strcspn(p, " ");
    if (n > 0 && n < sizeof(name)) {
      memcpy(name, p, n);
      name[n] = '\0';
      int nr = seccomp_syscall_resolve_name(name);
      int rc = nr < 0 ? 0 /* not on this architecture */
                      : seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, nr, 0);
      if (rc < 0)
        return snprintf(why, len, "%s: %s", name, strerror(-rc)), -1;
    }
    p += n + (p[n] == ' ');
  }
  return 0;
}

static int add_list(scmp_filter_ctx ctx, char *why, size_t len) {
  for (size_t i = 0; i < sizeof(killed) / sizeof(killed[0]); i++)
    if (add_killed(ctx, killed[i], why, len) != 0)
      return -1;
  for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
    int nr = seccomp_syscall_resolve_name(refused[i].name);
    if (nr < 0)
      continue;
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(refused[i].err), nr, 0);
    if (rc < 0)
      return snprintf(why, len, "%s: %s", refused[i].name, strerror(-rc)), -1;
  }
  return 0;
}

/* A comparison with every field set (libseccomp's macros leave datum_b
 * out, which clang's -Wmissing-field-initializers refuses). */
static struct scmp_arg_cmp cmp(unsigned arg, enum scmp_compare op,
                               scmp_datum_t a, scmp_datum_t b) {
  struct scmp_arg_cmp c = {.arg = arg, .op = op, .datum_a = a, .datum_b = b};
  return c;
}

/* Rules on arguments: clone into new namespaces, socket families,
 * TIOCSTI. */
static int add_argument_rules(scmp_filter_ctx ctx) {
  int rc = 0;
  static const unsigned long ns[] = {CLONE_NEWNS,    CLONE_NEWUTS, CLONE_NEWIPC,
                                     CLONE_NEWUSER,  CLONE_NEWPID, CLONE_NEWNET,
                                     CLONE_NEWCGROUP};
  for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
    rc |= seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(clone), 1,
                           cmp(0, SCMP_CMP_MASKED_EQ, ns[i], ns[i]));
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                         cmp(1, SCMP_CMP_EQ, (scmp_datum_t)TIOCSTI, 0));
  /* Unix (nscd, sssd), IPv4, IPv6, netlink (getaddrinfo's interfaces):
   * every other family fails, the way a kernel without it answers. */
  static const int allowed[] = {AF_UNIX, AF_INET, AF_INET6, AF_NETLINK};
  for (int fam = 0; fam < AF_MAX; fam++) {
    int ok = 0;
    for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
      ok |= fam == allowed[i];
    if (!ok)
      rc |=
          seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket),
                           1, cmp(0, SCMP_CMP_EQ, (scmp_datum_t)fam, 0));
  }
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1,
                         cmp(0, SCMP_CMP_GE, (scmp_datum_t)AF_MAX, 0));
  return rc;
}

int hfilter_install(char *why, size_t len) {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (ctx == NULL) {
    snprintf(why, len, "seccomp_init failed");
    return -1;
  }
  int rc =
      seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
  if (rc == 0 && add_list(ctx, why, len) != 0)
    rc = -1;
  else if (rc == 0 && add_argument_rules(ctx) != 0)
    snprintf(why, len, "a rule on arguments was refused"), rc = -1;
  else if (rc == 0 && (rc = seccomp_load(ctx)) != 0)
    snprintf(why, len, "seccomp_load: %s", strerror(-rc));
  else if (rc != 0)
    snprintf(why, len, "seccomp_attr_set: %s", strerror(-rc));
  seccomp_release(ctx);
  return rc == 0 ? 0 : -1;
}
