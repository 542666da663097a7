/* collectd-winperf: the sessions of a helper that serves several hosts
 * (helper_sessions.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "helper_sessions.h"
#include "frame_session.h"
#include "helper_answer.h"

_Static_assert(HRECEIVED_MAX == WPR_OPEN_FDS, "an OPEN's files fit hreceived");

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hsession {
  uint32_t id;
  helper_cfg cfg; /* host and credentials point into the strings below */
  char host[WPR_OPEN_HOST_MAX + 1];
  char credentials[WPR_OPEN_STR_MAX + 1];
  char krb5[WPR_OPEN_MAX]; /* principal, keytab, ccache, krb5.conf */
  conn c;
};

int helper_sessions_init(hsessions *t, const helper_cfg *base) {
  t->base = base;
  t->last_id = 0;
  t->slot = calloc(base->sessions, sizeof(*t->slot));
  return t->slot == NULL ? -1 : 0;
}

static void session_free(hsession *s) {
  session_close(&s->c, &s->cfg);
  helper_close_files(&s->cfg);
  explicit_bzero(s->cfg.password, sizeof(s->cfg.password));
  free(s);
}

/* The session's files: those that came with OPEN, in the order of
 * frame_session.h; a file named without one (a client that does not pass
 * them) is opened here, as the helper's user. */
static void session_files(helper_cfg *cfg, const wpr_open *o, hreceived *rx) {
  const char *path[WPR_OPEN_FDS] = {cfg->credentials, cfg->keytab, cfg->ccache,
                                    cfg->krb5_config};
  hfile *f[WPR_OPEN_FDS] = {&cfg->cred_file, &cfg->keytab_file,
                            &cfg->ccache_file, &cfg->krb5_file};
  unsigned next = 0;
  for (int i = 0; i < WPR_OPEN_FDS; i++) {
    if (o->fds & (1u << i))
      hfile_adopt(f[i], rx->fd[next++]);
    else
      hfile_open(f[i], path[i]);
  }
  /* the session holds them now */
  for (unsigned i = next; i < rx->n; i++)
    rx->fd[i - next] = rx->fd[i];
  rx->n -= next;
}

static unsigned bits(unsigned v) {
  unsigned n = 0;
  for (; v; v &= v - 1)
    n++;
  return n;
}

static int send_session(int out_fd, uint32_t id) {
  uint8_t f[WPR_FRAME_HDR + WPR_SESSION_ID_LEN];
  size_t n = wpr_build_session_frame(f, sizeof(f), WPR_MSG_SESSION, id, NULL);
  return wpr_write_all(out_fd, f, n);
}

static int request_error(int out_fd, const char *what, const char *why) {
  herr e;
  herr_set(&e, WPR_ERR_REQUEST, "%s: %s", what, why);
  return helper_send_error(out_fd, &e);
}

/* A session's settings from OPEN and the helper's own (--smb-conf, the
 * environment). 0, or -1 with e (a credentials file that cannot be read). */
static int session_settings(hsession *s, const hsessions *t, const wpr_open *o,
                            hreceived *rx, herr *e) {
  helper_cfg *cfg = &s->cfg;
  snprintf(s->host, sizeof(s->host), "%s", o->host);
  snprintf(s->credentials, sizeof(s->credentials), "%s", o->credentials);
  cfg->host = s->host;
  cfg->credentials = s->credentials[0] ? s->credentials : NULL;
  cfg->smb_conf = t->base->smb_conf;
  cfg->lib_smb_conf = t->base->lib_smb_conf;
  cfg->env = t->base;
  cfg->sessions = t->base->sessions;
  cfg->port = o->port;
  cfg->connect_timeout_ms = o->connect_timeout_ms;
  cfg->query_timeout_ms = o->query_timeout_ms;
  cfg->buffer_size = o->buffer_size ? o->buffer_size : t->base->buffer_size;
  cfg->encrypt = o->encrypt;
  cfg->auth = o->auth;
  cfg->krb5_dir = t->base->krb5_dir;
  /* the Kerberos strings, kept one after the other (NULL: not given) */
  const char *in[4] = {o->principal, o->keytab, o->ccache, o->krb5_config};
  const char **out[4] = {&cfg->principal, &cfg->keytab, &cfg->ccache,
                         &cfg->krb5_config};
  size_t used = 0;
  for (int i = 0; i < 4; i++) {
    size_t k = strlen(in[i]);
    *out[i] = k ? memcpy(s->krb5 + used, in[i], k + 1) : NULL;
    used += k + 1; /* the payload held all of them in WPR_OPEN_MAX */
  }
  if (o->user[0]) {
    snprintf(cfg->user, sizeof(cfg->user), "%s", o->user);
    cfg->user_from_argv = 1;
  }
  if (o->domain[0]) {
    snprintf(cfg->domain, sizeof(cfg->domain), "%s", o->domain);
    cfg->domain_from_argv = 1;
  }
  session_files(cfg, o, rx);
  return helper_load_credentials(cfg, e);
}

static int open_session(hsessions *t, int out_fd, const uint8_t *payload,
                        uint32_t len, hreceived *rx) {
  static wpr_open o;
  wp_error pe = {0};
  if (wpr_parse_open(payload, len, &o, &pe) != 0)
    return request_error(out_fd, "OPEN", pe.message);
  if (rx->overflow || bits(o.fds) != rx->n)
    return request_error(out_fd, "OPEN",
                         "the descriptors that came with it are not the "
                         "files it names");
  unsigned free_slot = t->base->sessions;
  for (unsigned i = 0; i < t->base->sessions && free_slot == t->base->sessions;
       i++)
    if (t->slot[i] == NULL)
      free_slot = i;
  if (free_slot == t->base->sessions) {
    herr e;
    herr_set(&e, WPR_ERR_REQUEST,
             "OPEN %s: all %u sessions of this helper "
             "are in use",
             o.host, t->base->sessions);
    return helper_send_error(out_fd, &e);
  }
  hsession *s = calloc(1, sizeof(*s));
  if (s == NULL)
    return request_error(out_fd, "OPEN", "out of memory");
  herr e = {WPR_ERR_OTHER, "", 0};
  s->cfg.cred_file = s->cfg.keytab_file = s->cfg.ccache_file =
      s->cfg.krb5_file = (hfile)HFILE_NONE;
  if (session_settings(s, t, &o, rx, &e) != 0) {
    helper_close_files(&s->cfg);
    explicit_bzero(s->cfg.password, sizeof(s->cfg.password));
    free(s);
    return helper_send_error(out_fd, &e);
  }
  if (++t->last_id == 0)
    t->last_id = 1;
  s->id = t->last_id;
  t->slot[free_slot] = s;
  return send_session(out_fd, s->id);
}

static hsession **find(hsessions *t, uint32_t id) {
  for (unsigned i = 0; i < t->base->sessions; i++)
    if (t->slot[i] != NULL && t->slot[i]->id == id)
      return &t->slot[i];
  return NULL;
}

int helper_sessions_answer(hsessions *t, int out_fd, uint8_t type,
                           const uint8_t *payload, uint32_t len,
                           hreceived *rx) {
  if (type == WPR_MSG_OPEN)
    return open_session(t, out_fd, payload, len, rx);
  wp_error pe = {0};
  char name[WPR_REQUEST_MAX + 1];
  uint32_t id = 0;
  if (wpr_parse_session(payload, len, &id, type == WPR_MSG_SQUERY ? name : NULL,
                        sizeof(name), &pe) != 0)
    return request_error(out_fd, "session request", pe.message);
  hsession **s = find(t, id);
  if (s == NULL) {
    herr e;
    herr_set(&e, WPR_ERR_REQUEST, "no session %u in this helper", id);
    return helper_send_error(out_fd, &e);
  }
  if (type == WPR_MSG_CLOSE) {
    session_free(*s);
    *s = NULL;
    return send_session(out_fd, id);
  }
  if (type == WPR_MSG_SLAST_COUNTER)
    return helper_answer_last_counter(out_fd, &(*s)->c, &(*s)->cfg);
  return helper_answer_query(out_fd, &(*s)->c, &(*s)->cfg,
                             type == WPR_MSG_SQUERY ? name : NULL);
}

void helper_sessions_close(hsessions *t) {
  for (unsigned i = 0; t->slot != NULL && i < t->base->sessions; i++) {
    if (t->slot[i] != NULL)
      session_free(t->slot[i]);
    t->slot[i] = NULL;
  }
  free(t->slot);
  t->slot = NULL;
}
