/* collectd-winperf: the remote source, a Windows host read over MS-RRP.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Spawns winperf-remote-helper (fork/exec, no shell) on a socket pair
 * (send() with MSG_NOSIGNAL: a dead helper cannot raise SIGPIPE in
 * collectd), sends one framed request at a time and waits for the answer
 * with a deadline. Everything the helper says is bounds-checked like
 * network input: it carries a remote server's bytes.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "remote.h"
#include "../remote/frame.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef WP_REMOTE_HELPER_PATH
#define WP_REMOTE_HELPER_PATH "winperf-remote-helper"
#endif

/* The helper's own watchdogs answer first; this margin (half the query
 * timeout, 0.5 to 5 s) covers a helper that hangs beyond them. */
#define DEADLINE_MARGIN_MIN_MS 500
#define DEADLINE_MARGIN_MAX_MS 5000
#define ERROR_PAYLOAD_MAX 4096u

typedef struct wp_remote {
  wp_source base;
  char *host, *user, *domain, *credentials, *helper;
  char port[12], connect_ms[16], query_ms[16], buffer_size[16];
  int encrypt;
  unsigned timeout_ms; /* connect + query + margin */
  pid_t pid;
  int fd;
  int last_err;
} wp_remote;

/* Record the failure's kind (for wp_remote_last_error) and its message. */
WP_PRINTF(4, 5)
static wp_source_status fail(wp_remote *r, int kind, wp_error *err,
                             const char *fmt, ...) {
  r->last_err = kind;
  va_list ap;
  va_start(ap, fmt);
  wp_error_vset(err, WP_E_FAILED, fmt, ap);
  va_end(ap);
  return WP_SOURCE_ERROR;
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reap the helper; describe how it ended into why (may be NULL). */
static void reap(wp_remote *r, int force, char *why, size_t whylen) {
  if (r->fd >= 0) {
    close(r->fd);
    r->fd = -1;
  }
  if (r->pid <= 0)
    return;
  int status = 0;
  pid_t got = 0;
  /* Give an exiting helper a moment before the hard stop. */
  for (int i = 0; i < (force ? 0 : 40) && got == 0; i++) {
    got = waitpid(r->pid, &status, WNOHANG);
    if (got == 0) {
      struct timespec ts = {0, 50 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
  }
  if (got == 0 || (got < 0 && errno == EINTR)) {
    kill(r->pid, SIGKILL);
    while ((got = waitpid(r->pid, &status, 0)) < 0 && errno == EINTR)
      ;
  }
  if (why != NULL && whylen > 0) {
    if (got == r->pid && WIFEXITED(status))
      snprintf(why, whylen, "exited with status %d", WEXITSTATUS(status));
    else if (got == r->pid && WIFSIGNALED(status))
      snprintf(why, whylen, "was killed by signal %d", WTERMSIG(status));
    else
      snprintf(why, whylen, "is gone");
  }
  r->pid = -1;
}

static wp_source_status spawn(wp_remote *r, wp_error *err) {
  int sv[2], st[2];
  const char *argv[24];
  int n = 0;
  argv[n++] = r->helper;
  if (r->port[0]) {
    argv[n++] = "--port";
    argv[n++] = r->port;
  }
  if (r->user) {
    argv[n++] = "--user";
    argv[n++] = r->user;
  }
  if (r->domain) {
    argv[n++] = "--domain";
    argv[n++] = r->domain;
  }
  if (r->credentials) {
    argv[n++] = "--credentials";
    argv[n++] = r->credentials;
  }
  argv[n++] = "--connect-timeout";
  argv[n++] = r->connect_ms;
  argv[n++] = "--query-timeout";
  argv[n++] = r->query_ms;
  if (r->buffer_size[0]) {
    argv[n++] = "--buffer-size";
    argv[n++] = r->buffer_size;
  }
  if (r->encrypt)
    argv[n++] = "--encrypt";
  argv[n++] = r->host;
  argv[n] = NULL;

  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return fail(r, WP_REMOTE_ERR_HELPER, err, "remote %s: socketpair: %s",
                r->host, strerror(errno));
  if (pipe2(st, O_CLOEXEC) != 0) {
    int e = errno;
    close(sv[0]);
    close(sv[1]);
    return fail(r, WP_REMOTE_ERR_HELPER, err, "remote %s: pipe: %s", r->host,
                strerror(e));
  }
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    close(sv[0]);
    close(sv[1]);
    close(st[0]);
    close(st[1]);
    return fail(r, WP_REMOTE_ERR_HELPER, err, "remote %s: fork: %s", r->host,
                strerror(e));
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
    execv(r->helper, (char *const *)argv);
    int e = errno;
    ssize_t w = write(st[1], &e, sizeof(e));
    (void)w;
    _exit(127);
  }
  close(sv[1]);
  close(st[1]);
  int child_errno = 0;
  ssize_t got;
  while ((got = read(st[0], &child_errno, sizeof(child_errno))) < 0 &&
         errno == EINTR)
    ;
  close(st[0]);
  r->pid = pid;
  r->fd = sv[0];
  if (got > 0) {
    reap(r, 1, NULL, 0);
    return fail(r, WP_REMOTE_ERR_HELPER, err, "remote %s: cannot run %s: %s",
                r->host, r->helper, strerror(child_errno));
  }
  return WP_SOURCE_OK;
}

/* Receive exactly n bytes before the deadline: 1 ok, 0 EOF, -1 error,
 * -2 timeout. */
static int recv_all(int fd, uint8_t *p, size_t n, int64_t deadline) {
  size_t off = 0;
  while (off < n) {
    int64_t left = deadline - now_ms();
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

static wp_source_status helper_lost(wp_remote *r, int rc, const char *doing,
                                    wp_error *err) {
  char why[64];
  if (rc == -2) {
    reap(r, 1, NULL, 0);
    return fail(r, WP_REMOTE_ERR_TIMEOUT, err,
                "remote %s: no answer from the helper within %u ms (%s); "
                "helper killed, restarting on the next call",
                r->host, r->timeout_ms, doing);
  }
  reap(r, 0, why, sizeof(why));
  return fail(r, WP_REMOTE_ERR_HELPER, err,
              "remote %s: the helper %s while %s; restarting it on the next "
              "call",
              r->host, why, doing);
}

static wp_source_status request(wp_remote *r, uint8_t type, const char *arg,
                                wp_buffer *out, wp_error *err) {
  size_t alen = arg ? strlen(arg) : 0;
  uint8_t req[WPR_FRAME_HDR + WPR_REQUEST_MAX];
  if (alen > WPR_REQUEST_MAX)
    return fail(r, WP_REMOTE_ERR_REQUEST, err,
                "remote %s: query of %zu bytes is too long", r->host, alen);
  wpr_frame_header(req, type, (uint32_t)alen);
  if (alen)
    memcpy(req + WPR_FRAME_HDR, arg, alen);

  /* A helper that died while idle is noticed on send: start a new one and
   * send again, once. */
  for (int attempt = 0;; attempt++) {
    int fresh = 0;
    int status;
    /* Died since the last call: start anew. (ECHILD: someone else reaps
     * children, e.g. SIGCHLD ignored; then ask whether it still exists.) */
    pid_t w = r->pid > 0 ? waitpid(r->pid, &status, WNOHANG) : 0;
    if (w == r->pid || (w < 0 && errno == ECHILD && kill(r->pid, 0) != 0)) {
      r->pid = -1;
      reap(r, 1, NULL, 0);
    }
    if (r->pid <= 0) {
      if (spawn(r, err) != WP_SOURCE_OK)
        return WP_SOURCE_ERROR;
      fresh = 1;
    }
    if (wpr_write_all(r->fd, req, WPR_FRAME_HDR + alen) == 0)
      break;
    if (fresh || attempt > 0)
      return helper_lost(r, -1, "sending a request", err);
    reap(r, 0, NULL, 0);
  }

  int64_t deadline = now_ms() + r->timeout_ms;
  uint8_t hdr[WPR_FRAME_HDR];
  int rc = recv_all(r->fd, hdr, sizeof(hdr), deadline);
  if (rc != 1)
    return helper_lost(r, rc, "waiting for an answer", err);
  uint8_t mtype;
  uint32_t len;
  char msg[ERROR_PAYLOAD_MAX + 1];
  wp_error frame_err = {0};
  if (wpr_frame_parse_header(hdr, WPR_FRAME_MAX, &mtype, &len, &frame_err) !=
          0 ||
      (mtype != WPR_MSG_DATA && mtype != WPR_MSG_ERROR) ||
      (mtype == WPR_MSG_ERROR && len > ERROR_PAYLOAD_MAX)) {
    reap(r, 1, NULL, 0);
    return fail(r, WP_REMOTE_ERR_PROTOCOL, err,
                "remote %s: bad answer from the helper (%s); helper killed",
                r->host,
                mtype == WPR_MSG_ERROR ? "error too long" : frame_err.message);
  }
  if (mtype == WPR_MSG_ERROR) {
    uint8_t payload[ERROR_PAYLOAD_MAX];
    rc = recv_all(r->fd, payload, len, deadline);
    if (rc != 1)
      return helper_lost(r, rc, "reading an error", err);
    wpr_error_kind kind;
    wpr_parse_error(payload, len, &kind, msg, sizeof(msg));
    /* A timed-out helper exits after saying so. */
    if (kind == WPR_ERR_TIMEOUT)
      reap(r, 0, NULL, 0);
    return fail(r, (int)kind, err, "remote %s: %s", r->host, msg);
  }
  uint8_t regtype[4];
  rc = recv_all(r->fd, regtype, 4, deadline);
  if (rc != 1)
    return helper_lost(r, rc, "reading data", err);
  size_t blob = (size_t)len - 4; /* len <= WPR_FRAME_MAX (64 MiB + 4) */
  if (wp_buffer_reserve(out, blob ? blob : 1) != 0) {
    reap(r, 1, NULL, 0);
    r->last_err = WP_REMOTE_ERR_OTHER;
    wp_error_set_code(err, WP_E_NOMEM, "remote %s: out of memory for %zu bytes",
                      r->host, blob);
    return WP_SOURCE_ERROR;
  }
  rc = recv_all(r->fd, out->data, blob, deadline);
  if (rc != 1)
    return helper_lost(r, rc, "reading data", err);
  out->len = blob;
  r->last_err = WP_REMOTE_ERR_NONE;
  return WP_SOURCE_OK;
}

static wp_source_status remote_collect(wp_source *src, const char *query,
                                       wp_buffer *out, wp_error *err) {
  wp_remote *r = (wp_remote *)src;
  if (query == NULL || query[0] == '\0')
    query = "Global";
  return request(r, WPR_MSG_QUERY, query, out, err);
}

static wp_source_status remote_names(wp_source *src, wp_buffer *out,
                                     wp_error *err) {
  return request((wp_remote *)src, WPR_MSG_NAMES, NULL, out, err);
}

static void remote_destroy(wp_source *src) {
  wp_remote *r = (wp_remote *)src;
  if (r == NULL)
    return;
  /* Closing the stream lets the helper close the key and log off. */
  reap(r, 0, NULL, 0);
  free(r->host);
  free(r->user);
  free(r->domain);
  free(r->credentials);
  free(r->helper);
  free(r);
}

static char *dup_opt(const char *s, int *ok) {
  if (s == NULL)
    return NULL;
  char *d = strdup(s);
  if (d == NULL)
    *ok = 0;
  return d;
}

static wp_source_fault remote_fault(const wp_source *src) {
  return (wp_source_fault)((const wp_remote *)src)->last_err;
}

wp_source *wp_remote_source_new(const wp_remote_options *opt, wp_error *err) {
  if (opt == NULL || opt->host == NULL || opt->host[0] == '\0' ||
      opt->host[0] == '-' || strpbrk(opt->host, "/\\@ ") != NULL) {
    wp_error_set(err, "remote: a host name or address is required");
    return NULL;
  }
  if (opt->port > 65535) {
    wp_error_set(err, "remote %s: port %u out of range", opt->host, opt->port);
    return NULL;
  }
  wp_remote *r = calloc(1, sizeof(*r));
  if (r == NULL) {
    wp_error_set_code(err, WP_E_NOMEM, "remote: out of memory");
    return NULL;
  }
  int ok = 1;
  r->host = dup_opt(opt->host, &ok);
  r->user = dup_opt(opt->user, &ok);
  r->domain = dup_opt(opt->domain, &ok);
  r->credentials = dup_opt(opt->credentials_file, &ok);
  r->helper = dup_opt(opt->helper ? opt->helper : WP_REMOTE_HELPER_PATH, &ok);
  r->pid = -1;
  r->fd = -1;
  r->last_err = WP_REMOTE_ERR_NONE;
  r->encrypt = opt->encrypt;
  if (opt->port)
    snprintf(r->port, sizeof(r->port), "%u", opt->port);
  if (opt->buffer_size)
    snprintf(r->buffer_size, sizeof(r->buffer_size), "%u", opt->buffer_size);
  unsigned cms = opt->connect_timeout_ms ? opt->connect_timeout_ms : 10000;
  unsigned qms = opt->query_timeout_ms ? opt->query_timeout_ms : 30000;
  if (cms > 3600000)
    cms = 3600000;
  if (qms > 3600000)
    qms = 3600000;
  snprintf(r->connect_ms, sizeof(r->connect_ms), "%u", cms);
  snprintf(r->query_ms, sizeof(r->query_ms), "%u", qms);
  unsigned margin = qms / 2;
  if (margin < DEADLINE_MARGIN_MIN_MS)
    margin = DEADLINE_MARGIN_MIN_MS;
  if (margin > DEADLINE_MARGIN_MAX_MS)
    margin = DEADLINE_MARGIN_MAX_MS;
  r->timeout_ms = cms + qms + margin;
  r->base.kind = "remote";
  r->base.collect = remote_collect;
  r->base.names = remote_names;
  r->base.destroy = remote_destroy;
  r->base.fault = remote_fault;
  if (!ok) {
    remote_destroy(&r->base);
    wp_error_set_code(err, WP_E_NOMEM, "remote: out of memory");
    return NULL;
  }
  return &r->base;
}

int wp_remote_last_error(const wp_source *src) {
  return ((const wp_remote *)src)->last_err;
}

pid_t wp_remote_helper_pid(const wp_source *src) {
  return ((const wp_remote *)src)->pid;
}
