/* collectd-winperf: the remote source, a Windows host read over MS-RRP.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Spawns winperf-remote-helper (remote_proc.h), sends one framed request
 * at a time and waits for the answer with a deadline. Everything the
 * helper says is bounds-checked like network input: it carries a remote
 * server's bytes. A source with a helper of its own speaks QUERY and NAMES
 * to a helper started for its host; a source on a shared helper
 * (remote_shared.h) opens a session in it and speaks SQUERY and SNAMES.
 */
#include "remote.h"
#include "frame_session.h"
#include "remote_auth.h"
#include "remote_dir.h"
#include "remote_files.h"
#include "remote_proc.h"
#include "remote_shared.h"
#include "wire.h"

#include <unistd.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef WP_REMOTE_HELPER_PATH
#define WP_REMOTE_HELPER_PATH "winperf-remote-helper"
#endif

/* The helper's own watchdogs answer first; this margin (half the query
 * timeout, 0.5 to 5 s) covers a helper that hangs beyond them. */
#define DEADLINE_MARGIN_MIN_MS 500
#define DEADLINE_MARGIN_MAX_MS 5000
#define ERROR_PAYLOAD_MAX 4096u
/* How long a shared helper is given to close the stream after a timeout
 * ERROR: its watchdog exits right after saying so, libsmbclient's own
 * timeout (one host's) does not. */
#define WATCHDOG_EXIT_MS 100

typedef struct wp_remote {
  wp_source base;
  char *host, *user, *domain, *credentials, *helper;
  char port[12], connect_ms[16], query_ms[16], buffer_size[16];
  int encrypt;
  wp_remote_auth auth; /* NTLM, Kerberos or negotiate */
  char *helper_user;   /* the sandbox: --run-as, --no-sandbox */
  int no_sandbox;
  wp_remote_files files;    /* what the helper holds open (remote_files.h) */
  unsigned timeout_ms;      /* connect + query + margin */
  wpr_open open;            /* a shared helper's OPEN (strings: the above) */
  wp_helper_proc own;       /* the helper of its own */
  wp_helper_proc *proc;     /* &own, or the shared helper's */
  wp_remote_helper *shared; /* NULL: a helper of its own */
  uint32_t session;         /* in the shared helper; 0: none open */
  unsigned generation;      /* the shared helper's when it was opened */
  int last_err;
  /* The last exchange succeeded on the helper (and session) still in use:
   * the next request does not start a helper nor log on, unless the
   * server dropped the connection since. */
  bool live;
  pid_t live_pid;
  uint32_t answer_type; /* the registry type of the last DATA */
  /* Perflib's Last Counter, read with the name table (remote_names); 0:
   * unknown (not read, or the host would not tell). */
  uint32_t last_counter;
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

static void reap(wp_remote *r, int force, char *why, size_t whylen) {
  wp_proc_reap(r->proc, force, why, whylen);
}

static wp_source_status spawn(wp_remote *r, wp_error *err);

/* A helper of its own that failed is replaced at once (it idles until the
 * next request, which may be a backoff away), so a host keeps one helper
 * process throughout and a fleet's helpers stay as many as its hosts; a
 * shared one starts again on the next request of any of its hosts. */
static void reap_failed(wp_remote *r, int force) {
  if (r->shared != NULL) {
    reap(r, force, NULL, 0);
    return;
  }
  /* The old helper's private directory goes once the new helper runs:
   * emptying it first would leave the host without a helper meanwhile. */
  char *old_dir = r->proc->dir;
  r->proc->dir = NULL;
  reap(r, force, NULL, 0);
  wp_error ignored = {0};
  int last = r->last_err;
  (void)spawn(r, &ignored);
  r->last_err = last;
  wp_private_dir_remove(&old_dir);
}

static wp_source_status spawn(wp_remote *r, wp_error *err) {
  const char *argv[40];
  int n = 0;
  const char *what = "";
  int e = 0;
  if (r->shared != NULL) {
    if (wp_remote_helper_start(r->shared, &what, &e) == 0)
      return WP_SOURCE_OK;
  } else {
    argv[n++] = r->helper;
    argv[n++] = "--port"; /* always: no port would try 139 first */
    argv[n++] = r->port;
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
    /* Its private directory, removed once the helper is reaped
     * (remote_dir.h); --krb5-dir where Kerberos keeps its caches there. */
    bool krb5 = wp_remote_auth_krb5(&r->auth);
    if (wp_private_dir_make(r->auth.krb5_parent,
                            krb5 ? "winperf-krb5" : "winperf-helper",
                            &r->proc->dir, err) != 0) {
      r->last_err = WP_REMOTE_ERR_CONFIG;
      return WP_SOURCE_ERROR;
    }
    wp_remote_auth_argv(&r->auth, krb5 ? r->proc->dir : NULL, argv, &n);
    if (!krb5) {
      argv[n++] = "--private-dir";
      argv[n++] = r->proc->dir;
    }
    if (r->helper_user) {
      argv[n++] = "--run-as";
      argv[n++] = r->helper_user;
    }
    if (r->no_sandbox)
      argv[n++] = "--no-sandbox";
    argv[n++] = r->host;
    argv[n] = NULL;
    /* the files it opens itself, as they are now */
    wp_remote_files_note(&r->files);
    if (wp_proc_spawn(r->proc, r->helper, argv, &what, &e) == 0)
      return WP_SOURCE_OK;
    wp_private_dir_remove(&r->proc->dir);
  }
  if (strcmp(what, "exec") == 0)
    return fail(
        r, WP_REMOTE_ERR_HELPER, err, "remote %s: cannot run %s: %s", r->host,
        r->shared ? wp_remote_helper_path(r->shared) : r->helper, strerror(e));
  return fail(r, WP_REMOTE_ERR_HELPER, err, "remote %s: %s: %s", r->host, what,
              strerror(e));
}

static wp_source_status helper_lost(wp_remote *r, int rc, const char *doing,
                                    wp_error *err) {
  char why[256];
  if (rc == -2) {
    reap_failed(r, 1);
    return fail(r, WP_REMOTE_ERR_TIMEOUT, err,
                "remote %s: no answer from the helper within %u ms (%s); "
                "helper killed and started again",
                r->host, r->timeout_ms, doing);
  }
  reap(r, 0, why, sizeof(why));
  reap_failed(r, 0); /* nothing left to reap: a new helper */
  return fail(r, WP_REMOTE_ERR_HELPER, err,
              "remote %s: the helper %s while %s; started again", r->host, why,
              doing);
}

/* Read the answer to the request just sent: DATA into out, or (want
 * SESSION) a session id into *id; an ERROR is the call's failure. */
static wp_source_status read_answer(wp_remote *r, uint8_t want, wp_buffer *out,
                                    uint32_t *id, wp_error *err) {
  int64_t deadline = wp_now_ms() + r->timeout_ms;
  int fd = r->proc->fd;
  uint8_t hdr[WPR_FRAME_HDR];
  int rc = wp_proc_recv(fd, hdr, sizeof(hdr), deadline);
  if (rc != 1)
    return helper_lost(r, rc, "waiting for an answer", err);
  uint8_t mtype = 0;
  uint32_t len;
  char msg[ERROR_PAYLOAD_MAX + 1];
  wp_error frame_err = {0};
  if (wpr_frame_parse_header(hdr, WPR_FRAME_MAX, &mtype, &len, &frame_err) !=
          0 ||
      (mtype != want && mtype != WPR_MSG_ERROR) ||
      (mtype == WPR_MSG_ERROR && len > ERROR_PAYLOAD_MAX)) {
    reap_failed(r, 1);
    return fail(r, WP_REMOTE_ERR_PROTOCOL, err,
                "remote %s: bad answer from the helper (%s); helper killed",
                r->host,
                mtype == WPR_MSG_ERROR ? "error too long"
                : frame_err.message[0] ? frame_err.message
                                       : "unexpected message type");
  }
  if (mtype == WPR_MSG_ERROR) {
    uint8_t payload[ERROR_PAYLOAD_MAX];
    rc = wp_proc_recv(fd, payload, len, deadline);
    if (rc != 1)
      return helper_lost(r, rc, "reading an error", err);
    wpr_error_kind kind;
    wpr_parse_error(payload, len, &kind, msg, sizeof(msg));
    /* A helper exits after a timeout only when its watchdog expired;
     * libsmbclient's own timeout (answered first) fails that host alone. */
    if (kind == WPR_ERR_TIMEOUT &&
        wp_proc_closes_within(r->proc, WATCHDOG_EXIT_MS))
      reap_failed(r, 0);
    if (kind == WPR_ERR_REQUEST)
      r->session = 0; /* a session the helper does not know: open anew */
    return fail(r, (int)kind, err, "remote %s: %s", r->host, msg);
  }
  if (want == WPR_MSG_SESSION) {
    uint8_t payload[WPR_SESSION_ID_LEN];
    rc = wp_proc_recv(fd, payload, sizeof(payload), deadline);
    if (rc != 1)
      return helper_lost(r, rc, "reading a session id", err);
    if (wpr_parse_session(payload, sizeof(payload), id, NULL, 0, &frame_err) !=
        0) {
      reap(r, 1, NULL, 0);
      return fail(r, WP_REMOTE_ERR_PROTOCOL, err,
                  "remote %s: bad answer from the helper (%s); helper killed",
                  r->host, frame_err.message);
    }
    return WP_SOURCE_OK;
  }
  uint8_t regtype[4];
  rc = wp_proc_recv(fd, regtype, 4, deadline);
  if (rc != 1)
    return helper_lost(r, rc, "reading data", err);
  r->answer_type = (uint32_t)regtype[0] | (uint32_t)regtype[1] << 8 |
                   (uint32_t)regtype[2] << 16 | (uint32_t)regtype[3] << 24;
  size_t blob = (size_t)len - 4; /* len <= WPR_FRAME_MAX (64 MiB + 4) */
  if (wp_buffer_reserve(out, blob ? blob : 1) != 0) {
    reap(r, 1, NULL, 0);
    r->last_err = WP_REMOTE_ERR_OTHER;
    wp_error_set_code(err, WP_E_NOMEM, "remote %s: out of memory for %zu bytes",
                      r->host, blob);
    return WP_SOURCE_ERROR;
  }
  rc = wp_proc_recv(fd, out->data, blob, deadline);
  if (rc != 1)
    return helper_lost(r, rc, "reading data", err);
  out->len = blob;
  return WP_SOURCE_OK;
}

/* Start the helper when none runs (fresh: it just started). */
static wp_source_status running(wp_remote *r, int *fresh, wp_error *err) {
  *fresh = 0;
  (void)wp_proc_died(r->proc);
  if (r->proc->pid > 0)
    return WP_SOURCE_OK;
  *fresh = 1;
  return spawn(r, err);
}

/* This host's session in the shared helper, opened when the helper is not
 * the one it was opened in. 1 when a send failed (a helper that died while
 * idle: the caller starts anew), else the status. */
static int session(wp_remote *r, wp_error *err) {
  unsigned gen = wp_remote_helper_generation(r->shared);
  if (r->session != 0 && r->generation == gen)
    return WP_SOURCE_OK;
  r->session = 0;
  /* The host's files go with it, open: the helper may not open them. */
  int fds[WP_REMOTE_FILES], nfds = 0;
  unsigned mask = 0;
  if (wp_remote_files_open(&r->files, fds, &mask, r->host, err) != 0) {
    r->last_err = WP_REMOTE_ERR_CONFIG;
    return WP_SOURCE_ERROR;
  }
  for (unsigned m = mask; m; m &= m - 1)
    nfds++;
  r->open.fds = mask;
  uint8_t f[WPR_FRAME_HDR + WPR_OPEN_MAX];
  size_t n = wpr_build_open(f + WPR_FRAME_HDR, WPR_OPEN_MAX, &r->open);
  int sent = 0;
  if (n != 0) {
    wpr_frame_header(f, WPR_MSG_OPEN, (uint32_t)n);
    sent = wp_proc_send_fds(r->proc->fd, f, WPR_FRAME_HDR + n, fds, nfds);
  }
  while (nfds > 0)
    close(fds[--nfds]);
  if (n == 0)
    return fail(r, WP_REMOTE_ERR_REQUEST, err,
                "remote %s: settings too long for the helper", r->host);
  if (sent != 0)
    return 1;
  uint32_t id = 0;
  wp_source_status st = read_answer(r, WPR_MSG_SESSION, NULL, &id, err);
  if (st != WP_SOURCE_OK)
    return st;
  r->session = id;
  r->generation = gen;
  return WP_SOURCE_OK;
}

/* A request of a helper of one host as its session request. */
static uint8_t session_type(uint8_t type) {
  switch (type) {
  case WPR_MSG_QUERY:
    return WPR_MSG_SQUERY;
  case WPR_MSG_LAST_COUNTER:
    return WPR_MSG_SLAST_COUNTER;
  default:
    return WPR_MSG_SNAMES;
  }
}

static wp_source_status request(wp_remote *r, uint8_t type, const char *arg,
                                wp_buffer *out, wp_error *err) {
  size_t alen = arg ? strlen(arg) : 0;
  uint8_t req[WPR_FRAME_HDR + WPR_SESSION_ID_LEN + WPR_REQUEST_MAX];
  if (alen > WPR_REQUEST_MAX)
    return fail(r, WP_REMOTE_ERR_REQUEST, err,
                "remote %s: query of %zu bytes is too long", r->host, alen);
  for (int attempt = 0;; attempt++) {
    int fresh = 0;
    if (running(r, &fresh, err) != WP_SOURCE_OK)
      return WP_SOURCE_ERROR;
    int st = r->shared ? session(r, err) : WP_SOURCE_OK;
    if (st < 0)
      return WP_SOURCE_ERROR;
    size_t n = WPR_FRAME_HDR + alen;
    if (st == WP_SOURCE_OK && r->shared != NULL) {
      n = wpr_build_session_frame(req, sizeof(req), session_type(type),
                                  r->session, arg);
    } else if (st == WP_SOURCE_OK) {
      wpr_frame_header(req, type, (uint32_t)alen);
      if (alen)
        memcpy(req + WPR_FRAME_HDR, arg, alen);
    }
    if (st == WP_SOURCE_OK && wpr_write_all(r->proc->fd, req, n) == 0)
      break;
    if (fresh || attempt > 0)
      return helper_lost(r, -1, "sending a request", err);
    reap(r, 0, NULL, 0);
  }
  if (read_answer(r, WPR_MSG_DATA, out, NULL, err) != WP_SOURCE_OK)
    return WP_SOURCE_ERROR;
  r->last_err = WP_REMOTE_ERR_NONE;
  r->live = true;
  r->live_pid = r->proc->pid;
  return WP_SOURCE_OK;
}

/* CLOSE this host's session when it is open in the running helper (its
 * key closed, its login ended); the next request opens a new one. Called
 * under the lock. */
static void close_session(wp_remote *r) {
  if (r->session != 0 && !wp_proc_died(r->proc) && r->proc->pid > 0 &&
      r->generation == wp_remote_helper_generation(r->shared)) {
    uint8_t f[WPR_FRAME_HDR + WPR_SESSION_ID_LEN];
    size_t n =
        wpr_build_session_frame(f, sizeof(f), WPR_MSG_CLOSE, r->session, NULL);
    wp_error err = {0};
    uint32_t id;
    int last = r->last_err;
    if (wpr_write_all(r->proc->fd, f, n) == 0)
      (void)read_answer(r, WPR_MSG_SESSION, NULL, &id, &err);
    r->last_err = last; /* the failure that made us close it */
  }
  r->session = 0;
}

/* One exchange, under the shared helper's lock when there is one. A
 * session whose credentials were refused (or could not be used) is closed,
 * so the next attempt reads the credentials file again: a corrected
 * password is picked up without a restart. */
static wp_source_status exchange(wp_remote *r, uint8_t type, const char *arg,
                                 wp_buffer *out, wp_error *err) {
  r->live = false; /* until this exchange succeeds */
  /* A key file replaced since the helper opened it: the helper cannot open
   * the new one (remote_files.h); a new helper or session does. */
  bool replaced = wp_remote_files_replaced(&r->files);
  if (r->shared == NULL) {
    if (replaced && r->proc->pid > 0)
      reap(r, 0, NULL, 0); /* it closes its key and logs off */
    return request(r, type, arg, out, err);
  }
  wp_remote_helper_lock(r->shared);
  if (replaced)
    close_session(r);
  wp_source_status st = request(r, type, arg, out, err);
  if (st != WP_SOURCE_OK && (r->last_err == WP_REMOTE_ERR_AUTH ||
                             r->last_err == WP_REMOTE_ERR_CONFIG))
    close_session(r);
  wp_remote_helper_unlock(r->shared);
  return st;
}

static wp_source_status remote_collect(wp_source *src, const char *query,
                                       wp_buffer *out, wp_error *err) {
  wp_remote *r = (wp_remote *)src;
  if (query == NULL || query[0] == '\0')
    query = "Global";
  return exchange(r, WPR_MSG_QUERY, query, out, err);
}

/* Perflib's Last Counter, asked right after the name table it goes with
 * (doc/format.md 4.1). The host's answer is hostile input: a REG_DWORD of
 * 4 bytes, else unknown. Any failure (access denied, no such key, a
 * malformed answer, a helper lost) leaves it unknown (0, no Last-Counter
 * claim) and is no failure of the host: the names were read. */
static void read_last_counter(wp_remote *r) {
  wp_buffer value = {0};
  wp_error err = {0};
  pid_t pid = r->proc->pid;
  r->last_counter = 0;
  if (exchange(r, WPR_MSG_LAST_COUNTER, NULL, &value, &err) == WP_SOURCE_OK &&
      r->answer_type == 4 && value.len == 4) {
    wire_bytes b = wire_le(value.data, 4);
    r->last_counter = wire_ld32(&b, 0);
  } else {
    r->last_err = WP_REMOTE_ERR_NONE;
    r->live = r->proc->pid > 0 && r->proc->pid == pid;
    r->live_pid = r->proc->pid;
  }
  wp_buffer_free(&value);
}

static wp_source_status remote_names(wp_source *src, wp_buffer *out,
                                     wp_error *err) {
  wp_remote *r = (wp_remote *)src;
  wp_source_status st = exchange(r, WPR_MSG_NAMES, NULL, out, err);
  if (st == WP_SOURCE_OK)
    read_last_counter(r);
  return st;
}

static uint32_t remote_last_counter(wp_source *src) {
  return ((const wp_remote *)src)->last_counter;
}

/* Leave the shared helper: close the session, then let go. */
static void leave_shared(wp_remote *r) {
  wp_remote_helper_lock(r->shared);
  close_session(r);
  wp_remote_helper_unlock(r->shared);
  wp_remote_helper_unref(r->shared);
}

static void remote_destroy(wp_source *src) {
  wp_remote *r = (wp_remote *)src;
  if (r == NULL)
    return;
  if (r->shared != NULL)
    leave_shared(r);
  else /* closing the stream lets the helper close the key and log off */
    reap(r, 0, NULL, 0);
  free(r->host);
  free(r->user);
  free(r->domain);
  free(r->credentials);
  free(r->helper);
  free(r->helper_user);
  wp_remote_auth_free(&r->auth);
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

static bool remote_connected(const wp_source *src) {
  const wp_remote *r = (const wp_remote *)src;
  return r->live && r->proc->pid > 0 && r->proc->pid == r->live_pid &&
         (r->shared == NULL ||
          (r->session != 0 &&
           r->generation == wp_remote_helper_generation(r->shared)));
}

/* The timeouts, their text for the helper's arguments, the deadline and a
 * shared helper's OPEN. */
static void settings(wp_remote *r, const wp_remote_options *opt) {
  unsigned port = opt->port ? opt->port : WP_REMOTE_DEFAULT_PORT;
  snprintf(r->port, sizeof(r->port), "%u", port);
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
  /* the helper's watchdogs wait beyond libsmbclient's own timeouts */
  r->timeout_ms =
      wpr_shared_watchdog_ms(cms) + wpr_shared_watchdog_ms(qms) + margin;
  r->open = (wpr_open){.port = port,
                       .connect_timeout_ms = cms,
                       .query_timeout_ms = qms,
                       .buffer_size = opt->buffer_size,
                       .encrypt = opt->encrypt,
                       .host = r->host,
                       .user = r->user,
                       .domain = r->domain,
                       .credentials = r->credentials};
  wp_remote_auth_open(&r->auth, &r->open);
  wp_remote_files_init(&r->files, r->credentials, r->auth.keytab,
                       r->auth.ccache, r->auth.krb5_config);
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
  r->helper_user = dup_opt(opt->helper_user, &ok);
  r->no_sandbox = opt->no_sandbox;
  r->own = (wp_helper_proc)WP_HELPER_PROC_NONE;
  r->proc = &r->own;
  const char *pw = getenv("WINPERF_REMOTE_PASSWORD");
  if (ok && wp_remote_auth_init(
                &r->auth, opt->auth, opt->principal, opt->keytab, opt->ccache,
                opt->krb5_config, opt->krb5_parent, opt->host,
                opt->credentials_file != NULL || (pw != NULL && pw[0] != '\0'),
                err) != 0) {
    remote_destroy(&r->base);
    return NULL;
  }
  if (opt->shared != NULL) {
    r->shared = opt->shared;
    wp_remote_helper_ref(r->shared);
    r->proc = wp_remote_helper_proc(r->shared);
    if (wp_remote_auth_krb5(&r->auth))
      wp_remote_helper_want_krb5(r->shared, r->auth.krb5_parent);
    wp_remote_helper_want_sandbox(r->shared, r->auth.krb5_parent,
                                  r->helper_user, r->no_sandbox);
  }
  r->last_err = WP_REMOTE_ERR_NONE;
  r->encrypt = opt->encrypt;
  settings(r, opt);
  r->base.kind = "remote";
  r->base.collect = remote_collect;
  r->base.names = remote_names;
  r->base.last_counter = remote_last_counter;
  r->base.destroy = remote_destroy;
  r->base.fault = remote_fault;
  r->base.connected = remote_connected;
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
  return ((const wp_remote *)src)->proc->pid;
}

wp_source_status wp_remote_report(wp_source *src, wp_buffer *out,
                                  wp_error *err) {
  wp_remote *r = (wp_remote *)src;
  if (r->shared != NULL)
    return fail(r, WP_REMOTE_ERR_REQUEST, err,
                "remote %s: no report from a shared helper", r->host);
  return request(r, WPR_MSG_REPORT, NULL, out, err);
}
