/* collectd-winperf: winperf-remote-helper, the process that speaks SMB.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Reads HKEY_PERFORMANCE_DATA of one Windows host over MS-RRP on the
 * \pipe\winreg named pipe, using libsmbclient only as a named-pipe
 * transport; the DCE/RPC and NDR are the project's own (dcerpc.c, rrp.c).
 * It runs as a separate process so libsmbclient (GPLv3+, ~110 libraries)
 * never loads into collectd and a hostile or hung server cannot take the
 * plugin down. It talks to the plugin with the framed protocol of frame.h
 * on stdin/stdout; diagnostics go to stderr and never contain credentials.
 *
 * Usage: winperf-remote-helper [--port N] [--user [DOMAIN\]NAME]
 *          [--domain NAME] [--credentials FILE] [--connect-timeout MS]
 *          [--query-timeout MS] [--buffer-size BYTES] [--encrypt]
 *          [--smb-conf FILE] HOST
 * Credentials: the file (smbclient's "-A" format: username = / password = /
 * domain = lines; must not be world-readable), else the environment
 * (WINPERF_REMOTE_USER, WINPERF_REMOTE_PASSWORD, WINPERF_REMOTE_DOMAIN).
 * Never argv (visible in ps) for the password. No anonymous fallback.
 */
#include "dcerpc.h"
#include "frame.h"
#include "rrp.h"

#include <errno.h>
#include <fcntl.h>
#include <libsmbclient.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#define FIRST_QUERY_SIZE (256u * 1024u)

typedef struct helper_cfg {
  const char *host;
  unsigned port;
  char user[256];
  char domain[256];
  char password[512];
  const char *credentials;
  const char *smb_conf;
  unsigned connect_timeout_ms;
  unsigned query_timeout_ms;
  unsigned buffer_size; /* first BaseRegQueryValue buffer */
  int encrypt;
  int user_from_argv, domain_from_argv;
} helper_cfg;

typedef struct conn {
  SMBCCTX *ctx;
  SMBCFILE *pipe;
  int have_key;
  rrp_handle key;
  uint32_t call_id;
  uint16_t max_xmit;
  uint32_t size_hint; /* last data buffer size that sufficed */
  uint32_t names_hint;
  dcerpc_reasm reasm;
  uint8_t frag[DCERPC_MAX_FRAG + 1];
} conn;

/* An error to send back: kind + message. */
typedef struct herr {
  wpr_error_kind kind;
  char msg[512];
  int transport; /* the SMB connection broke: reconnect and maybe retry */
} herr;

__attribute__((format(printf, 3, 4))) static int
set_err(herr *e, wpr_error_kind kind, const char *fmt, ...) {
  va_list ap;
  e->kind = kind;
  e->transport = 0;
  va_start(ap, fmt);
  vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
  va_end(ap);
  return -1;
}

/* ------------------------------------------------------------ watchdog */

/* The protocol's output descriptor and a prebuilt timeout frame: the
 * SIGALRM handler may only use async-signal-safe calls, so it writes these
 * bytes and exits; the plugin restarts the helper. */
static int out_fd = -1;
static uint8_t alarm_frame[WPR_FRAME_HDR + 256];
static size_t alarm_frame_len;

static void on_alarm(int sig) {
  (void)sig;
  size_t off = 0;
  while (off < alarm_frame_len) {
    ssize_t w = write(out_fd, alarm_frame + off, alarm_frame_len - off);
    if (w <= 0)
      break;
    off += (size_t)w;
  }
  _exit(3);
}

static void arm(unsigned ms, const char *what, const helper_cfg *cfg) {
  char msg[250];
  snprintf(msg, sizeof(msg), "%s %s timed out after %u ms", what, cfg->host,
           ms);
  size_t n = wpr_build_error(alarm_frame + WPR_FRAME_HDR,
                             sizeof(alarm_frame) - WPR_FRAME_HDR,
                             WPR_ERR_TIMEOUT, msg);
  wpr_frame_header(alarm_frame, WPR_MSG_ERROR, (uint32_t)n);
  alarm_frame_len = WPR_FRAME_HDR + n;
  struct itimerval it = {{0, 0}, {ms / 1000, (long)(ms % 1000) * 1000}};
  setitimer(ITIMER_REAL, &it, NULL);
}

static void disarm(void) {
  struct itimerval it = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &it, NULL);
}

/* ------------------------------------------------------- plugin stream */

static int read_full(int fd, uint8_t *p, size_t n) {
  size_t off = 0;
  while (off < n) {
    ssize_t r = read(fd, p + off, n - off);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return off == 0 && r == 0 ? 0 : -1;
    off += (size_t)r;
  }
  return 1;
}

static int write_full(int fd, const uint8_t *p, size_t n) {
  size_t off = 0;
  while (off < n) {
    ssize_t w = write(fd, p + off, n - off);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return -1;
    off += (size_t)w;
  }
  return 0;
}

static int send_error(const herr *e) {
  uint8_t buf[WPR_FRAME_HDR + sizeof(e->msg) + 1];
  size_t n = wpr_build_error(buf + WPR_FRAME_HDR, sizeof(buf) - WPR_FRAME_HDR,
                             e->kind, e->msg);
  wpr_frame_header(buf, WPR_MSG_ERROR, (uint32_t)n);
  return write_full(out_fd, buf, WPR_FRAME_HDR + n);
}

static int send_data(uint32_t type, const uint8_t *data, uint32_t len) {
  uint8_t hdr[WPR_DATA_HDR];
  wpr_data_header(hdr, len, type);
  if (write_full(out_fd, hdr, sizeof(hdr)) != 0)
    return -1;
  return len ? write_full(out_fd, data, len) : 0;
}

/* --------------------------------------------------------- credentials */

static void copy_str(char *dst, size_t cap, const char *src) {
  snprintf(dst, cap, "%s", src ? src : "");
}

/* "DOMAIN\user" or "user@domain" -> user + domain (domain kept if set). */
static void split_user(helper_cfg *cfg) {
  char *bs = strchr(cfg->user, '\\');
  if (bs != NULL) {
    *bs = '\0';
    copy_str(cfg->domain, sizeof(cfg->domain), cfg->user);
    memmove(cfg->user, bs + 1, strlen(bs + 1) + 1);
  }
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' ||
                   s[n - 1] == '\n'))
    s[--n] = '\0';
  return s;
}

static int load_credentials(helper_cfg *cfg, herr *e) {
  if (cfg->credentials != NULL) {
    int fd = open(cfg->credentials, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      return set_err(e, WPR_ERR_CONFIG, "credentials file %s: %s",
                     cfg->credentials, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || (st.st_mode & S_IROTH)) {
      close(fd);
      return set_err(e, WPR_ERR_CONFIG,
                     "credentials file %s is readable by everyone: chmod o-r",
                     cfg->credentials);
    }
    FILE *f = fdopen(fd, "r");
    if (f == NULL) {
      close(fd);
      return set_err(e, WPR_ERR_CONFIG, "credentials file %s: %s",
                     cfg->credentials, strerror(errno));
    }
    char line[1024];
    unsigned lineno = 0;
    while (fgets(line, sizeof(line), f) != NULL) {
      lineno++;
      char *s = trim(line);
      if (*s == '\0' || *s == '#' || *s == ';')
        continue;
      char *eq = strchr(s, '=');
      if (eq == NULL) {
        fclose(f);
        explicit_bzero(line, sizeof(line));
        return set_err(e, WPR_ERR_CONFIG,
                       "credentials file %s line %u: expected key = value",
                       cfg->credentials, lineno);
      }
      *eq = '\0';
      char *key = trim(s), *val = trim(eq + 1);
      /* --user/--domain on the command line win over the file. */
      if (strcmp(key, "username") == 0 && !cfg->user_from_argv)
        copy_str(cfg->user, sizeof(cfg->user), val);
      else if (strcmp(key, "password") == 0)
        copy_str(cfg->password, sizeof(cfg->password), val);
      else if ((strcmp(key, "domain") == 0 || strcmp(key, "workgroup") == 0) &&
               !cfg->domain_from_argv)
        copy_str(cfg->domain, sizeof(cfg->domain), val);
      /* other keys are ignored, as smbclient does */
    }
    explicit_bzero(line, sizeof(line));
    fclose(f);
  } else {
    const char *u = getenv("WINPERF_REMOTE_USER");
    const char *p = getenv("WINPERF_REMOTE_PASSWORD");
    const char *d = getenv("WINPERF_REMOTE_DOMAIN");
    if (u != NULL && cfg->user[0] == '\0')
      copy_str(cfg->user, sizeof(cfg->user), u);
    if (p != NULL)
      copy_str(cfg->password, sizeof(cfg->password), p);
    if (d != NULL && cfg->domain[0] == '\0')
      copy_str(cfg->domain, sizeof(cfg->domain), d);
    /* Keep the secret out of anything this process might start. */
    unsetenv("WINPERF_REMOTE_PASSWORD");
  }
  split_user(cfg);
  if (cfg->user[0] == '\0')
    return set_err(e, WPR_ERR_CONFIG,
                   "no user name: give a credentials file or set "
                   "WINPERF_REMOTE_USER (anonymous sessions are never used)");
  return 0;
}

static void auth_fn(SMBCCTX *c, const char *srv, const char *shr, char *wg,
                    int wglen, char *un, int unlen, char *pw, int pwlen) {
  (void)srv;
  (void)shr;
  const helper_cfg *cfg = smbc_getOptionUserData(c);
  if (cfg == NULL)
    return;
  if (cfg->domain[0] && wglen > 0)
    snprintf(wg, (size_t)wglen, "%s", cfg->domain);
  if (unlen > 0)
    snprintf(un, (size_t)unlen, "%s", cfg->user);
  if (pwlen > 0)
    snprintf(pw, (size_t)pwlen, "%s", cfg->password);
}

/* ------------------------------------------------------------ SMB pipe */

static void disconnect(conn *c) {
  if (c->ctx != NULL) {
    if (c->pipe != NULL)
      smbc_getFunctionClose(c->ctx)(c->ctx, c->pipe);
    smbc_free_context(c->ctx, 1);
  }
  c->ctx = NULL;
  c->pipe = NULL;
  c->have_key = 0;
}

static int transport_err(herr *e, const helper_cfg *cfg, const char *what,
                         int errnum) {
  set_err(e, errnum == ETIMEDOUT ? WPR_ERR_TIMEOUT : WPR_ERR_CONNECT,
          "%s on \\\\%s\\pipe\\winreg failed: %s", what, cfg->host,
          errnum ? strerror(errnum) : "connection closed");
  e->transport = 1;
  return -1;
}

static int pipe_write(conn *c, const helper_cfg *cfg, const uint8_t *p,
                      size_t n, herr *e) {
  smbc_write_fn wr = smbc_getFunctionWrite(c->ctx);
  size_t off = 0;
  while (off < n) {
    errno = 0;
    ssize_t w = wr(c->ctx, c->pipe, p + off, n - off);
    if (w <= 0)
      return transport_err(e, cfg, "write", errno);
    off += (size_t)w;
  }
  return 0;
}

static int pipe_read(conn *c, const helper_cfg *cfg, uint8_t *p, size_t n,
                     herr *e) {
  smbc_read_fn rd = smbc_getFunctionRead(c->ctx);
  size_t off = 0;
  while (off < n) {
    errno = 0;
    ssize_t r = rd(c->ctx, c->pipe, p + off, n - off);
    if (r <= 0)
      return transport_err(e, cfg, "read", r == 0 ? 0 : errno);
    off += (size_t)r;
  }
  return 0;
}

/* Read one whole PDU fragment into c->frag; returns its length or -1. */
static long read_fragment(conn *c, const helper_cfg *cfg, herr *e) {
  dcerpc_hdr h;
  char msg[256];
  if (pipe_read(c, cfg, c->frag, DCERPC_HDR_LEN, e) != 0)
    return -1;
  if (dcerpc_parse_header(c->frag, DCERPC_HDR_LEN, &h, msg, sizeof(msg)) !=
      DCERPC_OK)
    return set_err(e, WPR_ERR_PROTOCOL, "%s: %s", cfg->host, msg);
  /* frag_length is 16 bits: the 64 KiB buffer always holds it. */
  if (pipe_read(c, cfg, c->frag + DCERPC_HDR_LEN,
                (size_t)h.frag_length - DCERPC_HDR_LEN, e) != 0)
    return -1;
  return (long)h.frag_length;
}

/* One request/response exchange; the stub ends up in c->reasm. */
static int rpc_call(conn *c, const helper_cfg *cfg, uint16_t opnum,
                    const uint8_t *stub, size_t stub_len, herr *e) {
  static uint8_t req[DCERPC_MAX_FRAG];
  char msg[256];
  uint32_t call_id = ++c->call_id;
  if (stub_len + DCERPC_REQ_HDR_LEN > c->max_xmit)
    return set_err(e, WPR_ERR_REQUEST,
                   "request of %zu bytes exceeds the negotiated fragment "
                   "size %u",
                   stub_len, c->max_xmit);
  size_t n =
      dcerpc_build_request(req, sizeof(req), call_id, opnum, stub, stub_len);
  if (n == 0)
    return set_err(e, WPR_ERR_REQUEST, "request too large");
  if (pipe_write(c, cfg, req, n, e) != 0)
    return -1;
  dcerpc_reasm_reset(&c->reasm, call_id);
  c->reasm.limit = DCERPC_MAX_STUB;
  while (!c->reasm.done) {
    long len = read_fragment(c, cfg, e);
    if (len < 0)
      return -1;
    dcerpc_status st =
        dcerpc_reasm_add(&c->reasm, c->frag, (size_t)len, msg, sizeof(msg));
    if (st == DCERPC_E_FAULT)
      return set_err(e, c->reasm.fault == 5 ? WPR_ERR_AUTH : WPR_ERR_SERVER,
                     "%s: opnum %u: %s", cfg->host, opnum, msg);
    if (st != DCERPC_OK)
      return set_err(e, WPR_ERR_PROTOCOL, "%s: opnum %u: %s", cfg->host, opnum,
                     msg);
  }
  return 0;
}

static SMBCCTX *new_context(const helper_cfg *cfg, herr *e) {
  SMBCCTX *ctx = smbc_new_context();
  if (ctx == NULL) {
    set_err(e, WPR_ERR_OTHER, "libsmbclient: cannot create a context: %s",
            strerror(errno));
    return NULL;
  }
  smbc_setDebug(ctx, 0);
  smbc_setOptionDebugToStderr(ctx, 1);
  /* libsmbclient otherwise retries refused credentials as an anonymous
   * session, which many servers accept: "this user or fail". */
  smbc_setOptionNoAutoAnonymousLogin(ctx, 1);
  smbc_setOptionUserData(ctx, (void *)cfg);
  smbc_setFunctionAuthDataWithContext(ctx, auth_fn);
  smbc_setTimeout(ctx, (int)cfg->connect_timeout_ms);
  if (cfg->port)
    smbc_setPort(ctx, (uint16_t)cfg->port);
  if (cfg->encrypt)
    smbc_setOptionSmbEncryptionLevel(ctx, SMBC_ENCRYPTLEVEL_REQUIRE);
  if (cfg->smb_conf != NULL && smbc_setConfiguration(ctx, cfg->smb_conf)) {
    set_err(e, WPR_ERR_CONFIG, "cannot load %s", cfg->smb_conf);
    smbc_free_context(ctx, 1);
    return NULL;
  }
  if (smbc_init_context(ctx) == NULL) {
    set_err(e, WPR_ERR_OTHER, "libsmbclient: cannot initialise: %s",
            strerror(errno));
    smbc_free_context(ctx, 1);
    return NULL;
  }
  return ctx;
}

static int open_error(herr *e, const helper_cfg *cfg, int errnum) {
  switch (errnum) {
  case EACCES:
  case EPERM:
    return set_err(e, WPR_ERR_AUTH,
                   "authentication failed: %s refused the credentials of "
                   "user %s%s%s (or the account may not open "
                   "\\pipe\\winreg): %s",
                   cfg->host, cfg->domain, cfg->domain[0] ? "\\" : "",
                   cfg->user, strerror(errnum));
  case ENOENT:
    return set_err(e, WPR_ERR_CONNECT,
                   "%s has no \\pipe\\winreg: is the RemoteRegistry service "
                   "running?",
                   cfg->host);
  case ETIMEDOUT:
    return set_err(e, WPR_ERR_TIMEOUT, "connecting to %s timed out", cfg->host);
  default:
    return set_err(e, WPR_ERR_CONNECT, "cannot open \\\\%s\\IPC$\\winreg: %s",
                   cfg->host, errnum ? strerror(errnum) : "unknown error");
  }
}

static int connect_host(conn *c, const helper_cfg *cfg, herr *e) {
  char msg[256];
  disconnect(c);
  arm(cfg->connect_timeout_ms, "connecting to", cfg);
  c->ctx = new_context(cfg, e);
  if (c->ctx == NULL)
    goto fail;
  char url[600];
  snprintf(url, sizeof(url), "smb://%s/IPC$/winreg", cfg->host);
  errno = 0;
  c->pipe = smbc_getFunctionOpen(c->ctx)(c->ctx, url, O_RDWR, 0);
  if (c->pipe == NULL) {
    open_error(e, cfg, errno);
    goto fail;
  }
  /* Bind to winreg v1.0 with NDR (C706 12.6.4.3). */
  c->max_xmit = DCERPC_DEFAULT_FRAG;
  uint32_t call_id = ++c->call_id;
  size_t n = dcerpc_build_bind(c->frag, sizeof(c->frag), call_id,
                               DCERPC_DEFAULT_FRAG, DCERPC_DEFAULT_FRAG,
                               &dcerpc_winreg_syntax, &dcerpc_ndr_syntax);
  if (pipe_write(c, cfg, c->frag, n, e) != 0)
    goto fail;
  long len = read_fragment(c, cfg, e);
  if (len < 0)
    goto fail;
  dcerpc_bind_result br;
  dcerpc_status st = dcerpc_parse_bind_ack(c->frag, (size_t)len, call_id, &br,
                                           msg, sizeof(msg));
  if (st != DCERPC_OK) {
    set_err(e, st == DCERPC_E_REJECTED ? WPR_ERR_SERVER : WPR_ERR_PROTOCOL,
            "%s: %s", cfg->host, msg);
    goto fail;
  }
  /* The server's receive size bounds our request fragments. */
  if (br.max_recv < c->max_xmit)
    c->max_xmit = br.max_recv;
  /* OpenHKPD (MS-RRP 3.1.5.4): samDesired SHOULD be 0. */
  uint8_t stub[16];
  n = rrp_build_open_hkpd(stub, sizeof(stub), 0);
  if (rpc_call(c, cfg, RRP_OPNUM_OPEN_HKPD, stub, n, e) != 0)
    goto fail;
  uint32_t werr;
  if (rrp_parse_open_hkpd(c->reasm.data, c->reasm.len, &c->key, &werr, msg,
                          sizeof(msg)) != 0) {
    set_err(e, WPR_ERR_PROTOCOL, "%s: OpenHKPD: %s", cfg->host, msg);
    goto fail;
  }
  if (werr != 0) {
    const char *name = rrp_werror_name(werr);
    set_err(e, werr == RRP_ERROR_ACCESS_DENIED ? WPR_ERR_AUTH : WPR_ERR_SERVER,
            "%s: OpenHKPD failed: Win32 error %u%s%s%s%s", cfg->host, werr,
            name ? " (" : "", name ? name : "", name ? ")" : "",
            werr == RRP_ERROR_ACCESS_DENIED
                ? ": the account needs Performance Monitor Users or "
                  "administrator rights"
                : "");
    goto fail;
  }
  c->have_key = 1;
  disarm();
  return 0;
fail:
  disarm();
  disconnect(c);
  return -1;
}

/* BaseRegQueryValue with a growing buffer. On success the value's bytes are
 * res->data (inside c->reasm). */
static int query_value(conn *c, const helper_cfg *cfg, const char *name,
                       uint32_t *hint, rrp_query_result *res, herr *e) {
  char msg[256];
  uint8_t stub[RRP_HANDLE_LEN + 64 + 2 * RRP_MAX_NAME];
  uint32_t size = *hint ? *hint : cfg->buffer_size;
  for (;;) {
    size_t n = rrp_build_query_value(stub, sizeof(stub), &c->key, name, size);
    if (n == 0)
      return set_err(e, WPR_ERR_REQUEST, "invalid value name");
    if (rpc_call(c, cfg, RRP_OPNUM_QUERY_VALUE, stub, n, e) != 0)
      return -1;
    if (rrp_parse_query_value(c->reasm.data, c->reasm.len, res, msg,
                              sizeof(msg)) != 0)
      return set_err(e, WPR_ERR_PROTOCOL, "%s: BaseRegQueryValue(\"%s\"): %s",
                     cfg->host, name, msg);
    int grow = 0;
    if (res->werror == RRP_ERROR_MORE_DATA)
      grow = 1;
    else if (res->werror != 0) {
      const char *wn = rrp_werror_name(res->werror);
      return set_err(e,
                     res->werror == RRP_ERROR_ACCESS_DENIED ? WPR_ERR_AUTH
                                                            : WPR_ERR_SERVER,
                     "%s: BaseRegQueryValue(\"%s\") failed: Win32 error "
                     "%u%s%s%s",
                     cfg->host, name, res->werror, wn ? " (" : "", wn ? wn : "",
                     wn ? ")" : "");
    } else if (!res->has_data) {
      return set_err(e, WPR_ERR_PROTOCOL,
                     "%s: BaseRegQueryValue(\"%s\"): success without data",
                     cfg->host, name);
    } else if (res->data_len >= size) {
      /* Samba answers a short buffer with a truncated block and success:
       * a full buffer may be a cut one (samba-rrp notes). */
      grow = 1;
    }
    if (!grow) {
      *hint = size;
      return 0;
    }
    if (size >= RRP_MAX_DATA)
      return set_err(e, WPR_ERR_PROTOCOL,
                     "%s: \"%s\" does not fit the 64 MiB MS-RRP limit",
                     cfg->host, name);
    uint32_t next = size * 2;
    /* ERROR_MORE_DATA carries the needed size in *lpcbData. */
    if (res->werror == RRP_ERROR_MORE_DATA && res->has_size && res->size > size)
      next = res->size;
    if (next > RRP_MAX_DATA || next < size)
      next = RRP_MAX_DATA;
    size = next;
  }
}

/* Serve one request, reconnecting once when a cached connection broke
 * (the server restarted since the last request). */
static int serve(conn *c, const helper_cfg *cfg, const char *name,
                 uint32_t *hint, herr *e) {
  for (int attempt = 0; attempt < 2; attempt++) {
    int fresh = 0;
    if (!c->have_key) {
      if (connect_host(c, cfg, e) != 0)
        return -1;
      fresh = 1;
    }
    rrp_query_result res;
    arm(cfg->query_timeout_ms, "query to", cfg);
    int rc = query_value(c, cfg, name, hint, &res, e);
    disarm();
    if (rc == 0)
      return send_data(res.has_type ? res.type : 3, res.data, res.data_len) == 0
                 ? 0
                 : -2;
    /* A broken or confused connection is not reused; nor a key handle
     * the server no longer knows (ERROR_INVALID_HANDLE, 6). */
    if (e->transport || e->kind == WPR_ERR_PROTOCOL ||
        (e->kind == WPR_ERR_SERVER && res.werror == 6))
      disconnect(c);
    if (!e->transport || fresh)
      return -1;
  }
  return -1;
}

static void close_key(conn *c, const helper_cfg *cfg) {
  if (c->have_key) {
    herr e;
    uint8_t stub[RRP_HANDLE_LEN];
    size_t n = rrp_build_close_key(stub, sizeof(stub), &c->key);
    arm(cfg->query_timeout_ms, "closing the key on", cfg);
    if (rpc_call(c, cfg, RRP_OPNUM_CLOSE_KEY, stub, n, &e) == 0) {
      uint32_t werr;
      char msg[128];
      (void)rrp_parse_close_key(c->reasm.data, c->reasm.len, &werr, msg,
                                sizeof(msg));
    }
    disarm();
  }
  disconnect(c);
}

/* ---------------------------------------------------------------- main */

static unsigned parse_uint(const char *s, unsigned max, int *ok) {
  char *end;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  if (errno || end == s || *end != '\0' || v > max || s[0] == '-') {
    *ok = 0;
    return 0;
  }
  return (unsigned)v;
}

static void usage(void) {
  fprintf(stderr,
          "usage: winperf-remote-helper [--port N] [--user [DOMAIN\\]NAME] "
          "[--domain NAME]\n"
          "         [--credentials FILE] [--connect-timeout MS] "
          "[--query-timeout MS]\n"
          "         [--buffer-size BYTES] [--encrypt] [--smb-conf FILE] HOST\n"
          "Speaks the winperf framed protocol on stdin/stdout; meant to be "
          "started by\nthe collectd-winperf plugin or the winperf tool.\n");
}

int main(int argc, char **argv) {
  static helper_cfg cfg;
  static conn c;
  herr e = {WPR_ERR_OTHER, "", 0};
  int ok = 1;
  cfg.connect_timeout_ms = 10000;
  cfg.query_timeout_ms = 30000;
  cfg.buffer_size = FIRST_QUERY_SIZE;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--help") == 0) {
      usage();
      return 0;
    } else if (strcmp(a, "--encrypt") == 0) {
      cfg.encrypt = 1;
    } else if (v == NULL && a[0] == '-') {
      ok = 0;
    } else if (strcmp(a, "--port") == 0) {
      cfg.port = parse_uint(v, 65535, &ok);
      i++;
    } else if (strcmp(a, "--user") == 0) {
      copy_str(cfg.user, sizeof(cfg.user), v);
      cfg.user_from_argv = 1;
      i++;
    } else if (strcmp(a, "--domain") == 0) {
      copy_str(cfg.domain, sizeof(cfg.domain), v);
      cfg.domain_from_argv = 1;
      i++;
    } else if (strcmp(a, "--credentials") == 0) {
      cfg.credentials = v;
      i++;
    } else if (strcmp(a, "--smb-conf") == 0) {
      cfg.smb_conf = v;
      i++;
    } else if (strcmp(a, "--connect-timeout") == 0) {
      cfg.connect_timeout_ms = parse_uint(v, 3600000, &ok);
      i++;
    } else if (strcmp(a, "--buffer-size") == 0) {
      cfg.buffer_size = parse_uint(v, RRP_MAX_DATA, &ok);
      i++;
    } else if (strcmp(a, "--query-timeout") == 0) {
      cfg.query_timeout_ms = parse_uint(v, 3600000, &ok);
      i++;
    } else if (a[0] == '-' || cfg.host != NULL) {
      ok = 0;
    } else {
      cfg.host = a;
    }
  }
  if (!ok || cfg.host == NULL || cfg.host[0] == '\0' ||
      strpbrk(cfg.host, "/\\@ ") != NULL || cfg.connect_timeout_ms == 0 ||
      cfg.query_timeout_ms == 0 || cfg.buffer_size == 0) {
    usage();
    return 2;
  }

  /* The protocol owns stdout: move it to a private descriptor and point
   * fd 1 at stderr, so nothing a library prints can corrupt the stream. */
  out_fd = dup(STDOUT_FILENO);
  if (out_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
    return 2;
  (void)fcntl(out_fd, F_SETFD, FD_CLOEXEC);
  signal(SIGPIPE, SIG_IGN);
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, NULL);

  int cred_ok = load_credentials(&cfg, &e) == 0;

  for (;;) {
    uint8_t hdr[WPR_FRAME_HDR], payload[WPR_REQUEST_MAX + 1];
    char msg[256], name[WPR_REQUEST_MAX + 1];
    uint8_t type;
    uint32_t len;
    int r = read_full(STDIN_FILENO, hdr, sizeof(hdr));
    if (r == 0)
      break; /* the plugin closed the stream: done */
    if (r < 0)
      break;
    if (wpr_frame_parse_header(hdr, WPR_REQUEST_MAX, &type, &len, msg,
                               sizeof(msg)) != 0 ||
        (type != WPR_MSG_QUERY && type != WPR_MSG_NAMES)) {
      /* Out of sync: say so once and stop. */
      set_err(&e, WPR_ERR_REQUEST, "%s", msg[0] ? msg : "unexpected message");
      send_error(&e);
      break;
    }
    if (len && read_full(STDIN_FILENO, payload, len) != 1)
      break;
    if (!cred_ok) {
      if (send_error(&e) != 0)
        break;
      continue;
    }
    uint32_t *hint = &c.size_hint;
    if (type == WPR_MSG_NAMES) {
      snprintf(name, sizeof(name), "Counter 009");
      hint = &c.names_hint;
    } else if (wpr_parse_query(payload, len, name, sizeof(name), msg,
                               sizeof(msg)) != 0) {
      set_err(&e, WPR_ERR_REQUEST, "%s", msg);
      if (send_error(&e) != 0)
        break;
      continue;
    }
    int rc = serve(&c, &cfg, name, hint, &e);
    if (rc == -2)
      break; /* the plugin went away */
    if (rc != 0 && send_error(&e) != 0)
      break;
  }
  close_key(&c, &cfg);
  dcerpc_reasm_free(&c.reasm);
  explicit_bzero(cfg.password, sizeof(cfg.password));
  return 0;
}
