/* collectd-winperf: the helper's seccomp filter (libseccomp).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * A denylist, not an allowlist (doc/winperf-remote.md, THE SANDBOX, says
 * why: the system calls a helper makes are those of glibc, libsmbclient's
 * ~110 libraries, MIT libkrb5 and whatever NSS modules nsswitch.conf
 * names, and change with each of them; a call an allowlist missed would
 * kill a helper in a rare path, a reconnection or a ticket renewal hours
 * later; libsmbclient, for one, forks to resolve a host's name). Every
 * call a helper never needs and an attacker in it would:
 *   kill the process: starting programs (execve, execveat), namespaces
 *   (unshare, setns, clone with a CLONE_NEW* flag; clone3 answers ENOSYS,
 *   so glibc uses clone, whose flags a filter sees), other processes'
 *   memory (ptrace, process_vm_*, process_madvise, pidfd_getfd),
 *   accepting connections (listen, accept, accept4), mounts (mount,
 *   umount2, pivot_root, chroot, the new mount API), kernel modules,
 *   kexec, bpf, perf_event_open, userfaultfd, io_uring, identities and
 *   capabilities (set*uid, set*gid, setgroups, capset), the clock, swap,
 *   reboot, sethostname, open_by_handle_at, personality, iopl/ioperm,
 *   syslog, acct, quotactl, fanotify_init...;
 *   fail with an error: kernel keyrings (ENOSYS), socket families other
 *   than Unix, IPv4, IPv6 and netlink (EAFNOSUPPORT), TIOCSTI (EPERM).
 * A system call of another architecture (i386's int 0x80, x32) kills the
 * process too. New processes stay possible (libsmbclient's fork): they
 * inherit the filter, the user and no-new-privileges, and cannot start a
 * program. Sanitizer builds leave ptrace to the sanitizers' runtime
 * (LeakSanitizer stops the world with it); the fuzzers never install the
 * filter.
 */
#ifndef WP_REMOTE_HELPER_FILTER_H
#define WP_REMOTE_HELPER_FILTER_H

#include <stddef.h>

/* 1 in a build with AddressSanitizer (gcc or clang): ptrace is left to
 * its runtime. */
#if defined(__SANITIZE_ADDRESS__)
#define HFILTER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HFILTER_SANITIZER 1
#endif
#endif
#ifndef HFILTER_SANITIZER
#define HFILTER_SANITIZER 0
#endif

/* Load the filter into this process (PR_SET_NO_NEW_PRIVS set before). 0,
 * or -1 with why. */
int hfilter_install(char *why, size_t len);

#endif
