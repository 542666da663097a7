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
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif

/* Calls that kill the helper. Names this kernel or libseccomp does not
 * know on this architecture are skipped. */
static const char *const killed[] = {
    "execve",
    "execveat",
    "process_vm_readv",
    "process_vm_writev",
    "process_madvise",
    "pidfd_getfd",
    "listen",
    "accept",
    "accept4",
    "unshare",
    "setns",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "open_tree",
    "move_mount",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
    "init_module",
    "finit_module",
    "delete_module",
    "kexec_load",
    "kexec_file_load",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "setuid",
    "setgid",
    "setreuid",
    "setregid",
    "setresuid",
    "setresgid",
    "setgroups",
    "setfsuid",
    "setfsgid",
    "capset",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "swapon",
    "swapoff",
    "reboot",
    "sethostname",
    "setdomainname",
    "name_to_handle_at",
    "open_by_handle_at",
    "personality",
    "iopl",
    "ioperm",
    "syslog",
    "acct",
    "quotactl",
    "quotactl_fd",
    "fanotify_init",
    "lookup_dcookie",
    "uselib",
    "vhangup",
    "nfsservctl",
#ifndef UNDER_SANITIZER
    "ptrace",
    "fork",
    "vfork",
#endif
};

/* Calls that fail with an errno. */
static const struct {
  const char *name;
  int err;
} refused[] = {
    {"keyctl", ENOSYS}, {"add_key", ENOSYS},          {"request_key", ENOSYS},
    {"clone3", ENOSYS}, /* glibc then uses clone, whose flags are seen */
    {"tkill", EPERM},   {"pidfd_send_signal", EPERM},
};

static int add_list(scmp_filter_ctx ctx, char *why, size_t len) {
  for (size_t i = 0; i < sizeof(killed) / sizeof(killed[0]); i++) {
    int nr = seccomp_syscall_resolve_name(killed[i]);
    if (nr < 0)
      continue; /* not on this architecture */
    int rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, nr, 0);
    if (rc < 0)
      return snprintf(why, len, "%s: %s", killed[i], strerror(-rc)), -1;
  }
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

/* Rules on arguments: clone without CLONE_THREAD (a new process), signals
 * to other processes, socket families, TIOCSTI. */
static int add_argument_rules(scmp_filter_ctx ctx) {
  int rc = 0;
#ifndef UNDER_SANITIZER
  rc |= seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(clone), 1,
                         SCMP_A0_64(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
#endif
  scmp_datum_t self = (scmp_datum_t)getpid();
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(kill), 1,
                         SCMP_A0_32(SCMP_CMP_NE, self));
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(tgkill), 1,
                         SCMP_A0_32(SCMP_CMP_NE, self));
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(rt_sigqueueinfo),
                         1, SCMP_A0_32(SCMP_CMP_NE, self));
  rc |=
      seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(rt_tgsigqueueinfo),
                       1, SCMP_A0_32(SCMP_CMP_NE, self));
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                         SCMP_A1_64(SCMP_CMP_EQ, (scmp_datum_t)TIOCSTI));
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
                           1, SCMP_A0_32(SCMP_CMP_EQ, (scmp_datum_t)fam));
  }
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1,
                         SCMP_A0_32(SCMP_CMP_GE, (scmp_datum_t)AF_MAX));
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
