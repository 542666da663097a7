/* collectd-winperf: the helper's session with one host: libsmbclient as a
 * named-pipe transport, the DCE/RPC bind, OpenHKPD, BaseRegQueryValue with
 * its buffer growth, and reconnection (helper_session.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "helper_session.h"
#include "frame_session.h"
#include "helper_logon.h"
#include "helper_watchdog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

static void auth_fn(SMBCCTX *c, const char *srv, const char *shr, char *wg,
                    int wglen, char *un, int unlen, char *pw, int pwlen) {
  (void)srv;
  (void)shr;
  const helper_cfg *cfg = smbc_getOptionUserData(c);
  if (cfg != NULL)
    helper_logon_identity(cfg, wg, wglen, un, unlen, pw, pwlen);
}

/* The watchdog for a step bounded by ms: later than libsmbclient's own
 * timeout, which answers first with a timeout of that host alone and
 * keeps the helper (in a helper of several hosts, its other sessions);
 * the watchdog ends a helper only when libsmbclient overruns its own. */
static void arm(const helper_cfg *cfg, unsigned ms, const char *what) {
  watchdog_arm(wpr_shared_watchdog_ms(ms), what, cfg->host);
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
  herr_set(e, errnum == ETIMEDOUT ? WPR_ERR_TIMEOUT : WPR_ERR_CONNECT,
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
  wp_error pe = {0};
  if (pipe_read(c, cfg, c->frag, DCERPC_HDR_LEN, e) != 0)
    return -1;
  if (dcerpc_parse_header(c->frag, DCERPC_HDR_LEN, &h, &pe) != DCERPC_OK)
    return herr_set(e, WPR_ERR_PROTOCOL, "%s: %s", cfg->host, pe.message);
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
  wp_error pe = {0};
  uint32_t call_id = ++c->call_id;
  if (stub_len + DCERPC_REQ_HDR_LEN > c->max_xmit)
    return herr_set(e, WPR_ERR_REQUEST,
                    "request of %zu bytes exceeds the negotiated fragment "
                    "size %u",
                    stub_len, c->max_xmit);
  size_t n =
      dcerpc_build_request(req, sizeof(req), call_id, opnum, stub, stub_len);
  if (n == 0)
    return herr_set(e, WPR_ERR_REQUEST, "request too large");
  if (pipe_write(c, cfg, req, n, e) != 0)
    return -1;
  dcerpc_reasm_reset(&c->reasm, call_id);
  c->reasm.limit = DCERPC_MAX_STUB;
  while (!c->reasm.done) {
    long len = read_fragment(c, cfg, e);
    if (len < 0)
      return -1;
    dcerpc_status st = dcerpc_reasm_add(&c->reasm, c->frag, (size_t)len, &pe);
    if (st == DCERPC_E_FAULT) /* 5: access denied, after the logon */
      return herr_set(e, c->reasm.fault == 5 ? WPR_ERR_ACCESS : WPR_ERR_SERVER,
                      "%s: opnum %u: %s", cfg->host, opnum, pe.message);
    if (st != DCERPC_OK)
      return herr_set(e, WPR_ERR_PROTOCOL, "%s: opnum %u: %s", cfg->host, opnum,
                      pe.message);
  }
  return 0;
}

static SMBCCTX *new_context(const helper_cfg *cfg, herr *e) {
  SMBCCTX *ctx = smbc_new_context();
  if (ctx == NULL) {
    herr_set(e, WPR_ERR_OTHER, "libsmbclient: cannot create a context: %s",
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
  /* Always a port: with none, libsmbclient tries 139 first for IPC$ and
   * starts 445 only when 139 fails (a firewall that drops 139 costs every
   * connection its whole connect timeout). */
  smbc_setPort(ctx, (uint16_t)(cfg->port ? cfg->port : HELPER_DEFAULT_PORT));
  if (cfg->encrypt)
    smbc_setOptionSmbEncryptionLevel(ctx, SMBC_ENCRYPTLEVEL_REQUIRE);
  helper_logon_context(ctx, cfg);
  /* The helper's own smb.conf (helper_private.h): the operator's settings
   * (--smb-conf, else the system's), its private state directories. */
  const char *conf = cfg->lib_smb_conf ? cfg->lib_smb_conf : cfg->smb_conf;
  if (conf != NULL && smbc_setConfiguration(ctx, conf)) {
    herr_set(e, WPR_ERR_CONFIG, "cannot load %s",
             cfg->smb_conf ? cfg->smb_conf : conf);
    smbc_free_context(ctx, 1);
    return NULL;
  }
  if (smbc_init_context(ctx) == NULL) {
    herr_set(e, WPR_ERR_OTHER, "libsmbclient: cannot initialise: %s",
             strerror(errno));
    smbc_free_context(ctx, 1);
    return NULL;
  }
  return ctx;
}

/* libsmbclient's errno for smbc_open. A refused SMB session setup and a
 * refused tree connect or pipe open after a good logon both come as
 * EACCES (4.17 maps both NT statuses through map_errno_from_nt_status and
 * keeps neither), EPERM where the server would not encrypt: none can be
 * told from a refused logon, so all count as one (the safe side for a
 * lockout policy). A denial after the pipe opened (OpenHKPD, the query,
 * DCE/RPC fault 5) is the access kind: the host's own. */
static int open_error(herr *e, const helper_cfg *cfg, int errnum) {
  switch (errnum) {
  case EACCES:
  case EPERM:
    return herr_set(e, WPR_ERR_AUTH,
                    "authentication failed: %s refused the logon of user "
                    "%s%s%s (or its access to IPC$ or \\pipe\\winreg%s; "
                    "libsmbclient keeps no NT status): %s",
                    cfg->host, cfg->domain, cfg->domain[0] ? "\\" : "",
                    cfg->user, cfg->encrypt ? ", or encryption" : "",
                    strerror(errnum));
  case ENOENT:
    return herr_set(e, WPR_ERR_CONNECT,
                    "%s has no \\pipe\\winreg: is the RemoteRegistry service "
                    "running?",
                    cfg->host);
  case ETIMEDOUT:
    return herr_set(e, WPR_ERR_TIMEOUT, "connecting to %s timed out",
                    cfg->host);
  default:
    return herr_set(e, WPR_ERR_CONNECT, "cannot open \\\\%s\\IPC$\\winreg: %s",
                    cfg->host, errnum ? strerror(errnum) : "unknown error");
  }
}

static int connect_host(conn *c, helper_cfg *cfg, herr *e) {
  wp_error pe = {0};
  disconnect(c);
  /* The credentials file is read at every logon: a password corrected in
   * it is used at the next attempt, whatever the helper's mode. */
  if (helper_load_credentials(cfg, e) != 0)
    return -1;
  arm(cfg, cfg->connect_timeout_ms, "connecting to");
  /* Kerberos: the tickets first, under the same watchdog */
  if (helper_logon_prepare(cfg, &c->krb, e) != 0)
    goto fail;
  c->ctx = new_context(cfg, e);
  if (c->ctx == NULL)
    goto fail;
  char url[600];
  snprintf(url, sizeof(url), "smb://%s/IPC$/winreg", cfg->host);
  errno = 0;
  c->pipe = smbc_getFunctionOpen(c->ctx)(c->ctx, url, O_RDWR, 0);
  int open_errno = errno;
  if (c->pipe == NULL && !helper_logon_failed(e, cfg, open_errno))
    open_error(e, cfg, open_errno);
  helper_logon_done(c->ctx, cfg, c->pipe == NULL ? e : NULL);
  if (c->pipe == NULL)
    goto fail;
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
  dcerpc_status st =
      dcerpc_parse_bind_ack(c->frag, (size_t)len, call_id, &br, &pe);
  if (st != DCERPC_OK) {
    herr_set(e, st == DCERPC_E_REJECTED ? WPR_ERR_SERVER : WPR_ERR_PROTOCOL,
             "%s: %s", cfg->host, pe.message);
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
  if (rrp_parse_open_hkpd(c->reasm.data, c->reasm.len, &c->key, &werr, &pe) !=
      0) {
    herr_set(e, WPR_ERR_PROTOCOL, "%s: OpenHKPD: %s", cfg->host, pe.message);
    goto fail;
  }
  if (werr != 0) {
    const char *name = rrp_werror_name(werr);
    herr_set(e,
             werr == RRP_ERROR_ACCESS_DENIED ? WPR_ERR_ACCESS : WPR_ERR_SERVER,
             "%s: OpenHKPD failed: Win32 error %u%s%s%s%s", cfg->host, werr,
             name ? " (" : "", name ? name : "", name ? ")" : "",
             werr == RRP_ERROR_ACCESS_DENIED
                 ? ": the account needs Performance Monitor Users or "
                   "administrator rights"
                 : "");
    goto fail;
  }
  c->have_key = 1;
  watchdog_disarm();
  return 0;
fail:
  cfg->krb_logon = NULL;
  disconnect(c); /* still under the watchdog: a logoff may wait too */
  watchdog_disarm();
  return -1;
}

/* BaseRegQueryValue with a growing buffer. On success the value's bytes are
 * res->data (inside c->reasm). */
static int query_value(conn *c, const helper_cfg *cfg, const char *name,
                       uint32_t *hint, rrp_query_result *res, herr *e) {
  wp_error pe = {0};
  uint8_t stub[RRP_HANDLE_LEN + 64 + 2 * RRP_MAX_NAME];
  uint32_t size = *hint ? *hint : cfg->buffer_size;
  for (;;) {
    size_t n = rrp_build_query_value(stub, sizeof(stub), &c->key, name, size);
    if (n == 0)
      return herr_set(e, WPR_ERR_REQUEST, "invalid value name");
    if (rpc_call(c, cfg, RRP_OPNUM_QUERY_VALUE, stub, n, e) != 0)
      return -1;
    if (rrp_parse_query_value(c->reasm.data, c->reasm.len, res, &pe) != 0)
      return herr_set(e, WPR_ERR_PROTOCOL, "%s: BaseRegQueryValue(\"%s\"): %s",
                      cfg->host, name, pe.message);
    int grow = 0;
    if (res->werror == RRP_ERROR_MORE_DATA)
      grow = 1;
    else if (res->werror != 0) {
      const char *wn = rrp_werror_name(res->werror);
      return herr_set(e,
                      res->werror == RRP_ERROR_ACCESS_DENIED ? WPR_ERR_ACCESS
                                                             : WPR_ERR_SERVER,
                      "%s: BaseRegQueryValue(\"%s\") failed: Win32 error "
                      "%u%s%s%s",
                      cfg->host, name, res->werror, wn ? " (" : "",
                      wn ? wn : "", wn ? ")" : "");
    } else if (!res->has_data) {
      return herr_set(e, WPR_ERR_PROTOCOL,
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
      return herr_set(e, WPR_ERR_PROTOCOL,
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

/* BaseRegCloseKey when a key is open. */
static void close_key(conn *c, const helper_cfg *cfg) {
  if (c->have_key) {
    herr e;
    uint8_t stub[RRP_HANDLE_LEN];
    size_t n = rrp_build_close_key(stub, sizeof(stub), &c->key);
    arm(cfg, cfg->query_timeout_ms, "closing the key on");
    if (rpc_call(c, cfg, RRP_OPNUM_CLOSE_KEY, stub, n, &e) == 0) {
      uint32_t werr;
      wp_error pe;
      (void)rrp_parse_close_key(c->reasm.data, c->reasm.len, &werr, &pe);
    }
    watchdog_disarm();
  }
}

/* One request on the host's connection: `step` on an open key
 * (connecting first when there is none). A broken or confused connection
 * is not reused, nor one whose key handle the server no longer knows
 * (*drop set by the step: ERROR_INVALID_HANDLE); a transport failure on a
 * cached connection is retried once on a fresh one. */
typedef int (*request_step)(conn *c, const helper_cfg *cfg, void *arg,
                            int *drop, herr *e);

static int on_connection(conn *c, helper_cfg *cfg, request_step step, void *arg,
                         herr *e) {
  /* A Kerberos logon whose ticket is getting old logs on again now, with a
   * fresh ticket, before the server ends the session at its expiry. */
  if (c->have_key && helper_logon_stale(&c->krb)) {
    close_key(c, cfg);
    disconnect(c);
  }
  for (int attempt = 0; attempt < 2; attempt++) {
    int fresh = 0;
    if (!c->have_key) {
      if (connect_host(c, cfg, e) != 0)
        return -1;
      fresh = 1;
    }
    arm(cfg, cfg->query_timeout_ms, "query to");
    int drop = 0;
    int rc = step(c, cfg, arg, &drop, e);
    if (rc != 0 && (e->transport || e->kind == WPR_ERR_PROTOCOL || drop))
      disconnect(c);
    watchdog_disarm();
    if (rc == 0)
      return 0;
    if (!e->transport || fresh)
      return -1;
  }
  return -1;
}

typedef struct query_args {
  const char *name;
  uint32_t *hint;
  rrp_query_result *res;
} query_args;

static int query_step(conn *c, const helper_cfg *cfg, void *arg, int *drop,
                      herr *e) {
  query_args *q = arg;
  int rc = query_value(c, cfg, q->name, q->hint, q->res, e);
  *drop = rc != 0 && e->kind == WPR_ERR_SERVER && q->res->werror == 6;
  return rc;
}

int session_query(conn *c, helper_cfg *cfg, const char *name, uint32_t *hint,
                  rrp_query_result *res, herr *e) {
  query_args q = {name, hint, res};
  return on_connection(c, cfg, query_step, &q, e);
}

/* Close a key opened by read_last_counter; its answer changes nothing. */
static void close_handle(conn *c, const helper_cfg *cfg, const rrp_handle *h) {
  herr e;
  uint8_t stub[RRP_HANDLE_LEN];
  size_t n = rrp_build_close_key(stub, sizeof(stub), h);
  if (rpc_call(c, cfg, RRP_OPNUM_CLOSE_KEY, stub, n, &e) == 0) {
    uint32_t werr;
    wp_error pe;
    (void)rrp_parse_close_key(c->reasm.data, c->reasm.len, &werr, &pe);
  }
}

/* A Win32 error of one step of read_last_counter: access denied is the
 * access kind, any other the server's. */
static int last_counter_werror(herr *e, const helper_cfg *cfg, const char *step,
                               uint32_t werr) {
  const char *wn = rrp_werror_name(werr);
  return herr_set(
      e, werr == RRP_ERROR_ACCESS_DENIED ? WPR_ERR_ACCESS : WPR_ERR_SERVER,
      "%s: %s failed: Win32 error %u%s%s%s", cfg->host, step, werr,
      wn ? " (" : "", wn ? wn : "", wn ? ")" : "");
}

/* OpenHKLM, BaseRegOpenKey of Perflib, BaseRegQueryValue of "Last
 * Counter", then both keys closed (doc/remote-protocol.md 4). */
static int read_last_counter(conn *c, const helper_cfg *cfg, uint32_t *value,
                             herr *e) {
  wp_error pe = {0};
  uint8_t stub[RRP_HANDLE_LEN + 64 + 2 * RRP_MAX_NAME];
  rrp_handle hklm, perflib;
  uint32_t werr;
  size_t n = rrp_build_open_hklm(stub, sizeof(stub), RRP_KEY_QUERY_VALUE);
  if (rpc_call(c, cfg, RRP_OPNUM_OPEN_HKLM, stub, n, e) != 0)
    return -1;
  if (rrp_parse_open_hkpd(c->reasm.data, c->reasm.len, &hklm, &werr, &pe) != 0)
    return herr_set(e, WPR_ERR_PROTOCOL, "%s: OpenHKLM: %s", cfg->host,
                    pe.message);
  if (werr != 0)
    return last_counter_werror(e, cfg, "OpenHKLM", werr);
  int rc = -1;
  n = rrp_build_open_key(stub, sizeof(stub), &hklm, RRP_PERFLIB_KEY,
                         RRP_KEY_QUERY_VALUE);
  if (rpc_call(c, cfg, RRP_OPNUM_OPEN_KEY, stub, n, e) != 0)
    goto close_hklm;
  if (rrp_parse_open_hkpd(c->reasm.data, c->reasm.len, &perflib, &werr, &pe) !=
      0) {
    herr_set(e, WPR_ERR_PROTOCOL, "%s: BaseRegOpenKey(Perflib): %s", cfg->host,
             pe.message);
    goto close_hklm;
  }
  if (werr != 0) {
    last_counter_werror(e, cfg, "BaseRegOpenKey(Perflib)", werr);
    goto close_hklm;
  }
  /* A REG_DWORD: 4 bytes; a bigger offer costs nothing and leaves room to
   * name a wrong type's size in the error. */
  n = rrp_build_query_value(stub, sizeof(stub), &perflib, RRP_LAST_COUNTER, 64);
  rrp_query_result res;
  if (rpc_call(c, cfg, RRP_OPNUM_QUERY_VALUE, stub, n, e) != 0)
    goto close_perflib;
  if (rrp_parse_query_value(c->reasm.data, c->reasm.len, &res, &pe) != 0) {
    herr_set(e, WPR_ERR_PROTOCOL, "%s: BaseRegQueryValue(\"%s\"): %s",
             cfg->host, RRP_LAST_COUNTER, pe.message);
    goto close_perflib;
  }
  if (res.werror != 0) {
    last_counter_werror(e, cfg, "BaseRegQueryValue(\"" RRP_LAST_COUNTER "\")",
                        res.werror);
    goto close_perflib;
  }
  if (rrp_query_dword(&res, value, &pe) != 0) {
    herr_set(e, WPR_ERR_PROTOCOL, "%s: \"%s\": %s", cfg->host, RRP_LAST_COUNTER,
             pe.message);
    goto close_perflib;
  }
  rc = 0;
close_perflib:
  /* keys are closed on a connection that stays (it is dropped otherwise) */
  if (rc == 0 || (!e->transport && e->kind != WPR_ERR_PROTOCOL))
    close_handle(c, cfg, &perflib);
close_hklm:
  if (rc == 0 || (!e->transport && e->kind != WPR_ERR_PROTOCOL))
    close_handle(c, cfg, &hklm);
  return rc;
}

static int last_counter_step(conn *c, const helper_cfg *cfg, void *arg,
                             int *drop, herr *e) {
  *drop = 0;
  return read_last_counter(c, cfg, arg, e);
}

int session_last_counter(conn *c, helper_cfg *cfg, uint32_t *value, herr *e) {
  return on_connection(c, cfg, last_counter_step, value, e);
}

void session_close(conn *c, const helper_cfg *cfg) {
  close_key(c, cfg);
  disconnect(c);
  dcerpc_reasm_free(&c->reasm);
  hkrb5_release(&c->krb);
}
