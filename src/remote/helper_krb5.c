/* collectd-winperf: the helper's Kerberos tickets (helper_krb5.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "helper_krb5.h"
#include "helper_krb5_error.h"

#include <errno.h>
#include <fcntl.h>
#include <krb5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATH_CAP 1200
#define HELPER_CONF "krb5-helper.conf"

struct hkrb5_principal {
  hkrb5_principal *next;
  unsigned refs;
  char key[4 * PATH_CAP];   /* source, principal, user, domain, krb5.conf */
  char chain[2 * PATH_CAP]; /* KRB5_CONFIG: ours, then the operator's */
  int conf_copy;            /* the operator's Krb5Config in memory, or -1 */
  krb5_context ctx;
  krb5_principal client;
  char name[512];
  hk5_source source;
  krb5_creds tgt;
  int have_tgt;
  hk5_offset offset;   /* the KDC's clock minus ours, at the last AS */
  unsigned generation; /* counts the TGTs obtained */
};

static hkrb5_principal *principals;
static unsigned last_cache_id;
static hk5_report rep;

static time_t tt(krb5_timestamp ts) {
  return (time_t)(uint32_t)ts; /* MIT: unsigned after 2038 */
}

static time_t start_of(const krb5_creds *c) {
  return tt(c->times.starttime ? c->times.starttime : c->times.authtime);
}

/* Less than a quarter of [start, end) left at now. */
static int due(time_t start, time_t end, time_t now) {
  return end - now < (end - start) / 4 + 1;
}

static const char *source_path(const char *s) {
  const char *colon = strchr(s, ':');
  return colon != NULL && colon[1] == '/' ? colon + 1 : s;
}

/* A keytab or cache holds keys: refused when group or others can read it
 * (the password file is refused when everyone can). It is the file held
 * open (helper_files.h), whatever its name names now. */
static int private_file(const char *what, const char *name, const hfile *f,
                        herr *e, const char *host) {
  const char *path = source_path(name);
  struct stat st;
  if (hfile_stat(f, &st) != 0)
    return herr_set(e, WPR_ERR_CONFIG, "%s: Kerberos: %s %s: %s", host, what,
                    path, strerror(errno));
  if (st.st_mode & (S_IRGRP | S_IROTH))
    return herr_set(e, WPR_ERR_CONFIG,
                    "%s: Kerberos: %s %s is readable by group or others "
                    "(mode %04o): refused; chmod 600 %s",
                    host, what, path, (unsigned)(st.st_mode & 07777), path);
  return 0;
}

/* The held keytab or cache as krb5 names a file: a private copy in memory
 * ("FILE:/proc/self/fd/N", helper_files.h); its descriptor, or -1 with e. */
static int key_copy(const char *what, const char *name, const hfile *f,
                    char *out, size_t cap, herr *e, const char *host) {
  if (private_file(what, name, f, e, host) != 0)
    return -1;
  int m = hfile_copy(f, "FILE:", out, cap);
  if (m < 0)
    herr_set(e, WPR_ERR_CONFIG, "%s: Kerberos: %s %s: %s", host, what,
             source_path(name), strerror(errno));
  return m;
}

/* The helper's own krb5.conf (kdc_timesync off) in its private directory,
 * written once; its name into conf. */
static int own_conf(const helper_cfg *cfg, char *conf, size_t cap, herr *e) {
  if (cfg->krb5_dir == NULL || cfg->krb5_dir[0] != '/')
    return herr_set(e, WPR_ERR_CONFIG,
                    "%s: Kerberos needs the helper's private directory "
                    "(--private-dir; the plugin and winperf give one)",
                    cfg->host);
  snprintf(conf, cap, "%s/%s", cfg->krb5_dir, HELPER_CONF);
  if (access(conf, R_OK) != 0) {
    int fd = open(conf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    static const char text[] =
        "# winperf-remote-helper: read before the operator's krb5.conf.\n"
        "# A skewed clock is an error that names the offset, not corrected.\n"
        "[libdefaults]\n\tkdc_timesync = 0\n";
    if (fd < 0 || write(fd, text, sizeof(text) - 1) != sizeof(text) - 1) {
      int err = errno;
      if (fd >= 0)
        close(fd);
      return herr_set(e, WPR_ERR_CONFIG, "%s: Kerberos: cannot write %s: %s",
                      cfg->host, conf, strerror(err));
    }
    close(fd);
  }
  return 0;
}

/* The operator's krb5.conf as named (Krb5Config, else KRB5_CONFIG as the
 * helper found it, else /etc/krb5.conf): what tells principals apart. */
static const char *operator_conf(const helper_cfg *cfg) {
  static char original[PATH_CAP];
  static int captured;
  if (!captured) {
    const char *env = getenv("KRB5_CONFIG");
    snprintf(original, sizeof(original), "%s", env ? env : "/etc/krb5.conf");
    captured = 1;
  }
  return cfg->krb5_config ? cfg->krb5_config : original;
}

/* KRB5_CONFIG for a principal: the helper's own krb5.conf before the
 * operator's; a Krb5Config is the file held open, read through a copy
 * (*copy: its descriptor, kept while the principal lives; -1: none). */
static int config_chain(const helper_cfg *cfg, char *out, size_t cap, int *copy,
                        herr *e) {
  char conf[PATH_CAP], theirs[PATH_CAP];
  *copy = -1;
  if (own_conf(cfg, conf, sizeof(conf), e) != 0)
    return -1;
  snprintf(theirs, sizeof(theirs), "%s", operator_conf(cfg));
  if (cfg->krb5_config != NULL &&
      (*copy = hfile_copy(&cfg->krb5_file, "", theirs, sizeof(theirs))) < 0)
    return herr_set(e, WPR_ERR_CONFIG, "%s: Krb5Config %s: %s", cfg->host,
                    cfg->krb5_config, strerror(errno));
  snprintf(out, cap, "%s:%s", conf, theirs);
  return 0;
}

static hk5_source source_of(const helper_cfg *cfg) {
  if (cfg->keytab != NULL)
    return HK5_KEYTAB;
  return cfg->ccache != NULL ? HK5_CCACHE : HK5_PASSWORD;
}

/* The client principal: Principal; the cache's own; or User@REALM with
 * REALM = Domain upper-cased when it has a dot, else the default realm.
 * 0, or -1 with e. */
static int client_name(hkrb5_principal *p, const helper_cfg *cfg, herr *e) {
  krb5_context ctx = p->ctx;
  krb5_error_code rc;
  if (p->source == HK5_CCACHE) {
    krb5_ccache cc;
    char name[64];
    int m = key_copy("cache", cfg->ccache, &cfg->ccache_file, name,
                     sizeof(name), e, cfg->host);
    if (m < 0)
      return -1;
    rc = krb5_cc_resolve(ctx, name, &cc);
    if (rc == 0) {
      rc = krb5_cc_get_principal(ctx, cc, &p->client);
      krb5_cc_close(ctx, cc);
    }
    close(m);
    return rc == 0 ? 0 : hk5_fail(e, ctx, rc, HK5_CACHE, cfg, NULL, NULL);
  }
  if (cfg->principal != NULL || strchr(cfg->user, '@') != NULL) {
    rc = krb5_parse_name(ctx, cfg->principal ? cfg->principal : cfg->user,
                         &p->client);
    return rc == 0 ? 0 : hk5_fail(e, ctx, rc, HK5_CLIENT, cfg, NULL, NULL);
  }
  char realm[256];
  if (strchr(cfg->domain, '.') != NULL) {
    snprintf(realm, sizeof(realm), "%s", cfg->domain);
    for (char *s = realm; *s; s++)
      if (*s >= 'a' && *s <= 'z')
        *s = (char)(*s - 'a' + 'A');
  } else {
    char *def = NULL;
    if (krb5_get_default_realm(ctx, &def) != 0 || def == NULL)
      return herr_set(e, WPR_ERR_CONFIG,
                      "%s: Kerberos: no realm for user %s: give Principal "
                      "(\"%s@REALM\"), a Domain with dots, or default_realm "
                      "in krb5.conf",
                      cfg->host, cfg->user, cfg->user);
    snprintf(realm, sizeof(realm), "%s", def);
    krb5_free_default_realm(ctx, def);
  }
  rc = krb5_build_principal(ctx, &p->client, (unsigned)strlen(realm), realm,
                            cfg->user, (char *)NULL);
  return rc == 0 ? 0 : hk5_fail(e, ctx, rc, HK5_CLIENT, cfg, NULL, NULL);
}

static void principal_free(hkrb5_principal *p) {
  if (p->have_tgt)
    krb5_free_cred_contents(p->ctx, &p->tgt);
  if (p->client != NULL)
    krb5_free_principal(p->ctx, p->client);
  if (p->ctx != NULL)
    krb5_free_context(p->ctx);
  if (p->conf_copy >= 0)
    close(p->conf_copy);
  free(p);
}

/* The principal entry of cfg's credential, made on first use. */
static hkrb5_principal *principal_for(const helper_cfg *cfg, herr *e) {
  char key[sizeof(((hkrb5_principal *)0)->key)], chain[2 * PATH_CAP];
  hk5_source source = source_of(cfg);
  snprintf(key, sizeof(key), "%d\n%s\n%s\n%s\n%s\n%s\n%s", (int)source,
           cfg->keytab   ? cfg->keytab
           : cfg->ccache ? cfg->ccache
                         : (cfg->credentials ? cfg->credentials : "(env)"),
           cfg->principal ? cfg->principal : "", cfg->user, cfg->domain,
           operator_conf(cfg), "");
  for (hkrb5_principal *p = principals; p != NULL; p = p->next)
    if (strcmp(p->key, key) == 0)
      return p;
  hkrb5_principal *p = calloc(1, sizeof(*p));
  if (p == NULL) {
    herr_set(e, WPR_ERR_OTHER, "%s: Kerberos: out of memory", cfg->host);
    return NULL;
  }
  if (config_chain(cfg, chain, sizeof(chain), &p->conf_copy, e) != 0) {
    if (p->conf_copy >= 0)
      close(p->conf_copy);
    free(p);
    return NULL;
  }
  snprintf(p->key, sizeof(p->key), "%s", key);
  snprintf(p->chain, sizeof(p->chain), "%s", chain);
  p->source = source;
  setenv("KRB5_CONFIG", chain, 1); /* read by krb5_init_context */
  krb5_error_code rc = krb5_init_context(&p->ctx);
  if (rc != 0) {
    p->ctx = NULL;
    herr_set(e, WPR_ERR_CONFIG, "%s: Kerberos: cannot read %s (error %d)",
             cfg->host, chain, (int)rc);
  } else {
    rc = client_name(p, cfg, e);
  }
  char *n = NULL;
  if (rc == 0 && krb5_unparse_name(p->ctx, p->client, &n) == 0) {
    snprintf(p->name, sizeof(p->name), "%s", n);
    krb5_free_unparsed_name(p->ctx, n);
  }
  if (rc == 0 && p->source == HK5_CCACHE && cfg->principal != NULL &&
      strcmp(cfg->principal, p->name) != 0) {
    herr_set(e, WPR_ERR_CONFIG,
             "%s: Kerberos: the cache %s belongs to %s, not to Principal %s",
             cfg->host, cfg->ccache, p->name, cfg->principal);
    rc = -1;
  }
  if (rc != 0) {
    principal_free(p);
    return NULL;
  }
  p->next = principals;
  principals = p;
  return p;
}

static void keep_tgt(hkrb5_principal *p, krb5_creds *creds) {
  if (p->have_tgt)
    krb5_free_cred_contents(p->ctx, &p->tgt);
  p->tgt = *creds;
  p->have_tgt = 1;
  p->generation++;
  rep.tgt_start = start_of(&p->tgt);
  rep.tgt_end = tt(p->tgt.times.endtime);
}

/* The TGT from the operator's cache (read, never written). */
static int copy_tgt(hkrb5_principal *p, const helper_cfg *cfg, herr *e) {
  krb5_context ctx = p->ctx;
  krb5_ccache cc = NULL;
  krb5_principal tgs = NULL;
  krb5_creds match, creds;
  memset(&match, 0, sizeof(match));
  const krb5_data *realm = krb5_princ_realm(ctx, p->client);
  char name[64];
  int m = key_copy("cache", cfg->ccache, &cfg->ccache_file, name, sizeof(name),
                   e, cfg->host);
  if (m < 0)
    return -1;
  krb5_error_code rc = krb5_cc_resolve(ctx, name, &cc);
  if (rc == 0)
    rc = krb5_build_principal_ext(ctx, &tgs, realm->length, realm->data, 6,
                                  "krbtgt", realm->length, realm->data, 0);
  if (rc == 0) {
    match.client = p->client;
    match.server = tgs;
    rc = krb5_cc_retrieve_cred(ctx, cc, 0, &match, &creds);
  }
  if (tgs != NULL)
    krb5_free_principal(ctx, tgs);
  if (cc != NULL)
    krb5_cc_close(ctx, cc);
  close(m);
  if (rc != 0)
    return hk5_fail(e, ctx, rc, HK5_CACHE, cfg, p->name, NULL);
  if (tt(creds.times.endtime) <= time(NULL)) {
    krb5_free_cred_contents(ctx, &creds);
    return hk5_fail(e, ctx, KRB5KRB_AP_ERR_TKT_EXPIRED, HK5_CACHE, cfg, p->name,
                    NULL);
  }
  keep_tgt(p, &creds);
  return 0;
}

/* An AS exchange with the keytab or the password. */
static int new_tgt(hkrb5_principal *p, const helper_cfg *cfg, herr *e) {
  krb5_context ctx = p->ctx;
  krb5_get_init_creds_opt *opt = NULL;
  krb5_init_creds_context ic = NULL;
  krb5_keytab kt = NULL;
  krb5_creds creds;
  hk5_offset off = {0, 0};
  char kt_name[64];
  int m = -1;
  if (p->source == HK5_KEYTAB &&
      (m = key_copy("keytab", cfg->keytab, &cfg->keytab_file, kt_name,
                    sizeof(kt_name), e, cfg->host)) < 0)
    return -1;
  krb5_error_code rc = krb5_get_init_creds_opt_alloc(ctx, &opt);
  if (rc == 0)
    rc = krb5_init_creds_init(ctx, p->client, NULL, NULL, 0, opt, &ic);
  if (rc == 0 && p->source == HK5_KEYTAB) {
    rc = krb5_kt_resolve(ctx, kt_name, &kt);
    if (rc == 0)
      rc = krb5_init_creds_set_keytab(ctx, ic, kt);
  } else if (rc == 0) {
    rc = krb5_init_creds_set_password(ctx, ic, cfg->password);
  }
  if (rc == 0)
    rc = krb5_init_creds_get(ctx, ic);
  time_t now = time(NULL);
  krb5_error *kerr = NULL;
  if (rc != 0 && ic != NULL && krb5_init_creds_get_error(ctx, ic, &kerr) == 0 &&
      kerr != NULL) {
    off.known = 1;
    off.seconds = (long)(tt(kerr->stime) - now);
    krb5_free_error(ctx, kerr);
  }
  if (rc == 0 && (rc = krb5_init_creds_get_creds(ctx, ic, &creds)) == 0) {
    off.known = 1;
    off.seconds = (long)(tt(creds.times.authtime) - now);
    keep_tgt(p, &creds);
  }
  p->offset = off;
  if (ic != NULL)
    krb5_init_creds_free(ctx, ic);
  if (kt != NULL)
    krb5_kt_close(ctx, kt);
  if (m >= 0)
    close(m);
  krb5_get_init_creds_opt_free(ctx, opt);
  return rc == 0 ? 0 : hk5_fail(e, ctx, rc, HK5_AS, cfg, p->name, &off);
}

static int fresh_tgt(hkrb5_principal *p, const helper_cfg *cfg, herr *e) {
  if (p->have_tgt &&
      !due(start_of(&p->tgt), tt(p->tgt.times.endtime), time(NULL))) {
    rep.tgt_start = start_of(&p->tgt);
    rep.tgt_end = tt(p->tgt.times.endtime);
    return 0;
  }
  if (p->source == HK5_CCACHE)
    return copy_tgt(p, cfg, e);
  return new_tgt(p, cfg, e);
}

/* cifs/HOST in the host's name (krb5.conf's canonicalization rules), in the
 * client's realm when krb5.conf maps the host to none. */
static krb5_error_code service_name(hkrb5_principal *p, const char *host,
                                    krb5_principal *out) {
  krb5_error_code rc =
      krb5_sname_to_principal(p->ctx, host, "cifs", KRB5_NT_SRV_HST, out);
  if (rc == 0 && krb5_princ_realm(p->ctx, *out)->length == 0) {
    const krb5_data *r = krb5_princ_realm(p->ctx, p->client);
    char realm[256];
    snprintf(realm, sizeof(realm), "%.*s", (int)r->length, r->data);
    rc = krb5_set_principal_realm(p->ctx, *out, realm);
  }
  return rc;
}

/* The connection's own cache: the TGT, then cifs/HOST from the KDC. */
static int new_service_ticket(hkrb5_principal *p, hkrb5_conn *kc,
                              const helper_cfg *cfg, herr *e) {
  krb5_context ctx = p->ctx;
  krb5_ccache cc = NULL;
  krb5_principal server = NULL;
  krb5_creds in, *out = NULL;
  char name[sizeof(kc->cache) + 8];
  if (kc->cache[0] == '\0')
    snprintf(kc->cache, sizeof(kc->cache), "%s/cc.%u", cfg->krb5_dir,
             ++last_cache_id);
  snprintf(name, sizeof(name), "FILE:%s", kc->cache);
  krb5_error_code rc = service_name(p, cfg->host, &server);
  char *sn = NULL;
  if (rc == 0 && krb5_unparse_name(ctx, server, &sn) == 0) {
    snprintf(kc->spn, sizeof(kc->spn), "%s", sn);
    snprintf(rep.spn, sizeof(rep.spn), "%s", sn);
    krb5_free_unparsed_name(ctx, sn);
  }
  if (rc == 0)
    rc = krb5_cc_resolve(ctx, name, &cc);
  if (rc == 0)
    rc = krb5_cc_initialize(ctx, cc, p->client);
  if (rc == 0)
    rc = krb5_cc_store_cred(ctx, cc, &p->tgt);
  if (rc == 0) {
    memset(&in, 0, sizeof(in));
    in.client = p->client;
    in.server = server;
    const char *knob = getenv("WINPERF_KRB5_TICKET_LIFETIME");
    if (knob != NULL && atoi(knob) > 0)
      in.times.endtime = (krb5_timestamp)(time(NULL) + atoi(knob));
    rc = krb5_get_credentials(ctx, 0, cc, &in, &out);
  }
  rep.spn_state = rc == 0 ? 1 : rc == KRB5KDC_ERR_S_PRINCIPAL_UNKNOWN ? -1 : 0;
  if (rc == 0) {
    kc->start = start_of(out);
    kc->end = tt(out->times.endtime);
    kc->principal = p;
    kc->tgt_generation = p->generation;
    krb5_free_creds(ctx, out);
  }
  if (server != NULL)
    krb5_free_principal(ctx, server);
  if (cc != NULL)
    krb5_cc_close(ctx, cc);
  return rc == 0 ? 0 : hk5_fail(e, ctx, rc, HK5_TGS, cfg, p->name, NULL);
}

/* "user@REALM" -> user and realm, for libsmbclient's auth callback. */
static void split_client(const hkrb5_principal *p, hkrb5_conn *kc) {
  const char *at = strrchr(p->name, '@');
  size_t n = at ? (size_t)(at - p->name) : strlen(p->name);
  if (n >= sizeof(kc->user))
    n = sizeof(kc->user) - 1;
  memcpy(kc->user, p->name, n);
  kc->user[n] = '\0';
  kc->realm[0] = '\0';
  if (at != NULL)
    strncat(kc->realm, at + 1, sizeof(kc->realm) - 1);
}

int hkrb5_prepare(const helper_cfg *cfg, hkrb5_conn *kc, herr *e) {
  hkrb5_principal *p = principal_for(cfg, e);
  memset(&rep.offset, 0, sizeof(rep.offset));
  rep.error[0] = '\0';
  rep.spn_state = 0;
  rep.tgt_start = rep.tgt_end = rep.tkt_start = rep.tkt_end = 0;
  rep.spn[0] = '\0';
  snprintf(rep.principal, sizeof(rep.principal), "%s", p ? p->name : "");
  if (p == NULL)
    return -1;
  if (kc->principal != p) {
    hkrb5_release(kc);
    p->refs++;
    kc->principal = p;
    kc->tgt_generation = 0;
  }
  int rc = fresh_tgt(p, cfg, e);
  rep.offset = p->offset;
  if (rc != 0)
    return -1;
  if (kc->tgt_generation != p->generation || kc->end == 0 ||
      due(kc->start, kc->end, time(NULL))) {
    if (new_service_ticket(p, kc, cfg, e) != 0)
      return -1;
  } else {
    rep.spn_state = 1;
    snprintf(rep.spn, sizeof(rep.spn), "%s", kc->spn);
  }
  rep.tkt_start = kc->start;
  rep.tkt_end = kc->end;
  split_client(p, kc);
  char name[sizeof(kc->cache) + 8];
  snprintf(name, sizeof(name), "FILE:%s", kc->cache);
  setenv("KRB5CCNAME", name, 1);
  setenv("KRB5_CONFIG", p->chain, 1);
  return 0;
}

int hkrb5_stale(const hkrb5_conn *kc, time_t now) {
  return kc->principal != NULL && kc->end != 0 && due(kc->start, kc->end, now);
}

void hkrb5_release(hkrb5_conn *kc) {
  hkrb5_principal *p = kc->principal;
  if (kc->cache[0] != '\0')
    unlink(kc->cache);
  kc->cache[0] = '\0';
  kc->start = kc->end = 0;
  kc->principal = NULL;
  if (p == NULL || --p->refs > 0)
    return;
  for (hkrb5_principal **q = &principals; *q != NULL; q = &(*q)->next) {
    if (*q == p) {
      *q = p->next;
      break;
    }
  }
  principal_free(p);
}

void hkrb5_note(const char *used, const char *error) {
  snprintf(rep.used, sizeof(rep.used), "%s", used ? used : "");
  snprintf(rep.error, sizeof(rep.error), "%s", error ? error : "");
}

size_t hkrb5_report(const helper_cfg *cfg, char *out, size_t cap) {
  return hk5_report_text(&rep, cfg, out, cap);
}
