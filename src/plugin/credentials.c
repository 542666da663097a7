/* collectd-winperf: credentials that never lock an account
 * (credentials.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "credentials.h"
#include "file_id.h"

#include <limits.h>
#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wp_cred {
  wp_cred *next;
  char *key; /* auth \0 domain \0 user \0 source: the identity */
  size_t key_len;
  char *label; /* for log lines */
  char *file;  /* the source's path; NULL: the environment */
  unsigned users;
  wp_cred_state state;
  char *holder;       /* the host with the one request allowed, or NULL */
  char *last_refused; /* the host refused last */
  uint64_t refused_at;
  wp_file_id at_refusal; /* all 0: the file was not there */
  bool changed;          /* the source changed since the refusal */
  uint64_t seen_at;      /* when the source was last looked at */
};

/* The process's credentials: hosts of every <Plugin winperf> block that
 * share a credential share its state. */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static wp_cred *table;

static void look(const char *file, wp_file_id *id) {
  if (file == NULL || wp_file_id_of(file, id) != 0)
    memset(id, 0, sizeof(*id));
}

static char *identity(const char *auth, const char *domain, const char *user,
                      const char *source, size_t *len) {
  size_t n = strlen(auth) + strlen(domain) + strlen(user) + strlen(source) + 4;
  char *k = malloc(n);
  if (k != NULL)
    snprintf(k, n, "%s%c%s%c%s%c%s", auth, 0, domain, 0, user, 0, source);
  *len = n;
  return k;
}

wp_cred *wp_cred_get(const char *auth, const char *domain, const char *user,
                     const char *source_file) {
  const char *password_file = source_file;
  char canon[PATH_MAX];
  const char *source = "environment";
  if (password_file != NULL)
#ifdef _WIN32
    source =
        _fullpath(canon, password_file, sizeof(canon)) ? canon : password_file;
#else
    source = realpath(password_file, canon) ? canon : password_file;
#endif
  size_t klen = 0;
  char *key = identity(auth ? auth : "ntlm", domain ? domain : "",
                       user ? user : "", source, &klen);
  if (key == NULL)
    return NULL;
  pthread_mutex_lock(&table_lock);
  wp_cred *c = table;
  while (c != NULL && (c->key_len != klen || memcmp(c->key, key, klen) != 0))
    c = c->next;
  if (c == NULL && (c = calloc(1, sizeof(*c))) != NULL) {
    char label[1024];
    snprintf(label, sizeof(label), "%s %s%s%s, %s", auth ? auth : "ntlm",
             domain ? domain : "", domain && *domain ? "\\" : "",
             user && *user ? user : "(user from the source)", source);
    c->key = key;
    c->key_len = klen;
    key = NULL;
    c->label = strdup(label);
    c->file = password_file ? strdup(source) : NULL;
    c->next = table;
    table = c;
  }
  if (c != NULL)
    c->users++;
  pthread_mutex_unlock(&table_lock);
  free(key);
  return c;
}

void wp_cred_put(wp_cred *c) {
  if (c == NULL)
    return;
  pthread_mutex_lock(&table_lock);
  if (--c->users > 0) {
    pthread_mutex_unlock(&table_lock);
    return;
  }
  for (wp_cred **p = &table; *p != NULL; p = &(*p)->next)
    if (*p == c) {
      *p = c->next;
      break;
    }
  pthread_mutex_unlock(&table_lock);
  free(c->key);
  free(c->label);
  free(c->file);
  free(c->holder);
  free(c->last_refused);
  free(c);
}

const char *wp_cred_label(const wp_cred *c) {
  return c->label ? c->label : "(credential)";
}

/* While paused: whether the retry is due (the source changed, or the
 * retry interval passed). Called under the lock. */
static bool retry_due(wp_cred *c, uint64_t now, uint64_t retry_interval) {
  if (!c->changed && c->file != NULL &&
      (c->seen_at == 0 || 4 * (now - c->seen_at) >= WP_CRED_SECONDS(1))) {
    wp_file_id id;
    look(c->file, &id);
    c->seen_at = now;
    c->changed = !wp_file_id_same(&id, &c->at_refusal);
  }
  return c->changed || now - c->refused_at >= retry_interval;
}

bool wp_cred_enter(wp_cred *c, const char *host, uint64_t now,
                   uint64_t retry_interval) {
  bool go = false;
  pthread_mutex_lock(&table_lock);
  if (c->state == WP_CRED_PROVEN) {
    go = true;
  } else if (c->holder == NULL) {
    /* one at a time; a retry after a refusal by another host than the
     * one refused, unless none other uses it */
    go = c->state == WP_CRED_UNPROVEN ||
         (retry_due(c, now, retry_interval) &&
          (c->users == 1 || c->last_refused == NULL ||
           strcmp(c->last_refused, host) != 0));
    if (go && (c->holder = strdup(host)) == NULL)
      go = false;
  }
  pthread_mutex_unlock(&table_lock);
  return go;
}

void wp_cred_leave(wp_cred *c, const char *host, wp_cred_outcome outcome,
                   uint64_t now, wp_cred_news *news) {
  news->what = WP_CRED_NEWS_NONE;
  pthread_mutex_lock(&table_lock);
  news->others = c->users - 1;
  bool held = c->holder != NULL && strcmp(c->holder, host) == 0;
  if (held) {
    free(c->holder);
    c->holder = NULL;
  }
  if (outcome == WP_CRED_OK && c->state != WP_CRED_PROVEN) {
    if (c->state == WP_CRED_PAUSED)
      news->what = WP_CRED_NEWS_RESUMED;
    c->state = WP_CRED_PROVEN;
  } else if (outcome == WP_CRED_REFUSED) {
    c->state = WP_CRED_PAUSED;
    free(c->last_refused);
    c->last_refused = strdup(host);
    c->refused_at = now;
    look(c->file, &c->at_refusal);
    c->seen_at = now;
    c->changed = false;
    news->what = WP_CRED_NEWS_PAUSED;
  }
  pthread_mutex_unlock(&table_lock);
}

wp_cred_state wp_cred_state_now(wp_cred *c) {
  pthread_mutex_lock(&table_lock);
  wp_cred_state s = c->state;
  pthread_mutex_unlock(&table_lock);
  return s;
}

uint64_t wp_cred_retry_in(wp_cred *c, uint64_t now, uint64_t retry_interval) {
  uint64_t left = 0;
  pthread_mutex_lock(&table_lock);
  if (c->state == WP_CRED_PAUSED && !c->changed &&
      now - c->refused_at < retry_interval)
    left = retry_interval - (now - c->refused_at);
  pthread_mutex_unlock(&table_lock);
  return left;
}
