/* collectd-winperf: the files the helper holds open: its credentials file,
 * keytab, ticket cache and krb5.conf.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The helper reads these before it drops its privileges (helper_sandbox.h):
 * a helper of one host opens the files its command line names while it is
 * still the user it was started as; a helper of several hosts receives
 * each host's files already open, with the OPEN that names them
 * (doc/remote-protocol.md 5.4: the plugin opens them). It keeps the
 * descriptors, not the bytes, and reads them again at every logon: a
 * password corrected in place (cp, an editor that rewrites the file) is
 * read at the next attempt, as before the sandbox. A file replaced by
 * another one (rename, k5start's new cache) is a new file the helper
 * cannot open any more: the plugin notices (src/source/remote_files.h)
 * and gives the host a new helper or session, which holds the new one.
 *
 * Libraries that want a file name (MIT krb5's keytab, cache and profile
 * readers) get a private copy in memory (memfd) named /proc/self/fd/N:
 * the key never lands on disk, and the name works whatever the helper's
 * user may open.
 */
#ifndef WP_REMOTE_HELPER_FILES_H
#define WP_REMOTE_HELPER_FILES_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

/* A file held open: fd, or -1 with err the errno of the failed open (0:
 * none was named). */
typedef struct hfile {
  int fd;
  int err;
} hfile;

#define HFILE_NONE                                                             \
  { -1, 0 }

/* The descriptors that came with a request (an OPEN's files, at most
 * WPR_OPEN_FDS: frame_session.h); overflow: more came than an OPEN may
 * carry (the rest were closed). */
#define HRECEIVED_MAX 4
typedef struct hreceived {
  int fd[HRECEIVED_MAX];
  unsigned n;
  int overflow;
} hreceived;

/* Close the descriptors rx still holds. */
void hreceived_close(hreceived *rx);

/* Open path (NULL or "": none) read-only; a failure is kept in err. A
 * "FILE:" prefix (a ticket cache's name) is skipped. */
void hfile_open(hfile *f, const char *path);

/* Hold fd (already open, received from the plugin). */
void hfile_adopt(hfile *f, int fd);

void hfile_close(hfile *f);

/* Whether f holds a file or remembers why it could not. */
int hfile_given(const hfile *f);

/* fstat of the held file; -1 with errno (the failed open's) otherwise. */
int hfile_stat(const hfile *f, struct stat *st);

/* A stream reading the held file from its start (fclose it when done; the
 * held descriptor stays); NULL with errno. */
FILE *hfile_stream(const hfile *f);

/* A private copy of the held file's bytes in memory, for a library that
 * opens by name: its descriptor (close it when done), and name set to
 * "PREFIX/proc/self/fd/N" (prefix "FILE:" for krb5's keytabs and caches,
 * "" for a profile). -1 with errno. At most 16 MiB. */
int hfile_copy(const hfile *f, const char *prefix, char *name, size_t cap);

#endif
