/* collectd-winperf: one helper process for several remote sources
 * (remote_shared.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "remote_shared.h"
#include "remote_dir.h"
#include "remote_proc.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef WP_REMOTE_HELPER_PATH
#define WP_REMOTE_HELPER_PATH "winperf-remote-helper"
#endif
#define SESSIONS_MAX 1024u

struct wp_remote_helper {
  pthread_mutex_t lock; /* one exchange at a time */
  pthread_mutex_t refs_lock;
  unsigned refs;
  char *path;
  char sessions[12];
  wp_helper_proc proc;
  unsigned generation;
  bool krb5;         /* a session logs on with Kerberos */
  char *krb5_parent; /* where its private directory goes */
  bool sandbox_set;  /* helper_user and no_sandbox given */
  char *helper_user; /* --run-as; NULL: the helper's default */
  int no_sandbox;
};

wp_remote_helper *wp_remote_helper_new(const char *path, unsigned hosts,
                                       wp_error *err) {
  if (hosts < 2 || hosts > SESSIONS_MAX) {
    wp_error_set(err, "remote: %u hosts per helper (2..%u)", hosts,
                 SESSIONS_MAX);
    return NULL;
  }
  wp_remote_helper *h = calloc(1, sizeof(*h));
  if (h != NULL)
    h->path = strdup(path ? path : WP_REMOTE_HELPER_PATH);
  if (h == NULL || h->path == NULL) {
    free(h);
    wp_error_set_code(err, WP_E_NOMEM, "remote: out of memory");
    return NULL;
  }
  pthread_mutex_init(&h->lock, NULL);
  pthread_mutex_init(&h->refs_lock, NULL);
  h->refs = 1;
  snprintf(h->sessions, sizeof(h->sessions), "%u", hosts);
  h->proc = (wp_helper_proc)WP_HELPER_PROC_NONE;
  return h;
}

void wp_remote_helper_ref(wp_remote_helper *h) {
  if (h == NULL)
    return;
  pthread_mutex_lock(&h->refs_lock);
  h->refs++;
  pthread_mutex_unlock(&h->refs_lock);
}

void wp_remote_helper_unref(wp_remote_helper *h) {
  if (h == NULL)
    return;
  pthread_mutex_lock(&h->refs_lock);
  unsigned left = --h->refs;
  pthread_mutex_unlock(&h->refs_lock);
  if (left > 0)
    return;
  /* Closing the stream lets the helper close every session and exit. */
  wp_proc_reap(&h->proc, 0, NULL, 0);
  pthread_mutex_destroy(&h->lock);
  pthread_mutex_destroy(&h->refs_lock);
  free(h->path);
  free(h->krb5_parent);
  free(h->helper_user);
  free(h);
}

void wp_remote_helper_want_krb5(wp_remote_helper *h, const char *parent) {
  pthread_mutex_lock(&h->lock);
  if (h->krb5_parent == NULL && parent != NULL)
    h->krb5_parent = strdup(parent); /* NULL: $TMPDIR, as the caller's */
  h->krb5 = true;
  pthread_mutex_unlock(&h->lock);
}

void wp_remote_helper_want_sandbox(wp_remote_helper *h, const char *parent,
                                   const char *user, int no_sandbox) {
  pthread_mutex_lock(&h->lock);
  if (!h->sandbox_set) {
    if (h->krb5_parent == NULL && parent != NULL)
      h->krb5_parent = strdup(parent);
    h->helper_user = user ? strdup(user) : NULL; /* NULL: the default */
    h->no_sandbox = no_sandbox;
    h->sandbox_set = true;
  }
  pthread_mutex_unlock(&h->lock);
}

void wp_remote_helper_lock(wp_remote_helper *h) {
  pthread_mutex_lock(&h->lock);
}

void wp_remote_helper_unlock(wp_remote_helper *h) {
  pthread_mutex_unlock(&h->lock);
}

struct wp_helper_proc *wp_remote_helper_proc(wp_remote_helper *h) {
  return &h->proc;
}

unsigned wp_remote_helper_generation(const wp_remote_helper *h) {
  return h->generation;
}

const char *wp_remote_helper_path(const wp_remote_helper *h) {
  return h->path;
}

int wp_remote_helper_start(wp_remote_helper *h, const char **what,
                           int *errnum) {
  /* No host and no credentials here: each source's OPEN says them. */
  const char *argv[10] = {h->path, "--sessions", h->sessions};
  int n = 3;
  h->generation++;
  wp_error err;
  if (wp_private_dir_make(h->krb5_parent,
                          h->krb5 ? "winperf-krb5" : "winperf-helper",
                          &h->proc.dir, &err) != 0) {
    *what = "the helper's private directory";
    *errnum = errno;
    return -1;
  }
  /* --krb5-dir where Kerberos keeps its caches there, as before */
  argv[n++] = h->krb5 ? "--krb5-dir" : "--private-dir";
  argv[n++] = h->proc.dir;
  if (h->helper_user != NULL) {
    argv[n++] = "--run-as";
    argv[n++] = h->helper_user;
  }
  if (h->no_sandbox)
    argv[n++] = "--no-sandbox";
  argv[n] = NULL;
  if (wp_proc_spawn(&h->proc, h->path, argv, what, errnum) == 0)
    return 0;
  wp_private_dir_remove(&h->proc.dir);
  return -1;
}
