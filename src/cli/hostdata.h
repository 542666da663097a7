/* collectd-winperf: a live host for `winperf names` and `winperf doctor`.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The remote host (--remote HOST, Linux builds with the helper) or the
 * local registry (Windows): name tables and answers into memory, with a
 * source failure told apart as the diagnosis needs it (diagnose.h).
 */
#ifndef WINPERF_HOSTDATA_H
#define WINPERF_HOSTDATA_H

#include "diagnose.h"
#include "source.h"

#ifdef WINPERF_REMOTE
#include "remote.h"
#endif

#include <stdbool.h>
#include <stdio.h>

typedef struct cli_host_opts {
#ifdef WINPERF_REMOTE
  wp_remote_options remote; /* remote.host set: --remote HOST was given */
#endif
  bool any; /* a live source is wanted (remote host or local registry) */
} cli_host_opts;

typedef struct cli_host {
  wp_source *src;
  bool remote;
  char error[512]; /* the last failure's message */
} cli_host;

/* What a fetch gave. */
typedef enum cli_fetch {
  CLI_FETCHED = 0,
  CLI_FETCH_VERDICT, /* no data, but a failure the diagnosis names
                      * (state->failure set; state->detail = h->error) */
  CLI_FETCH_FATAL,   /* a failed connection: reported, exit 2 */
} cli_fetch;

/* Open the source o asks for; reports errors. */
bool cli_host_open(cli_host *h, const cli_host_opts *o);
void cli_host_close(cli_host *h);

/* A remote host logged on to with Kerberos (or negotiate): how the logon
 * went, as the helper tells it (realm, SPN found, clock offset to the KDC,
 * ticket times), printed to out as "kerberos: ..." lines; nothing for an
 * NTLM host or a source that did not start. */
void cli_host_report(cli_host *h, const cli_host_opts *o, FILE *out);

/* The answer to `query` ("Global", "238 2"), or with query NULL the English
 * Counter table (local_names: the localized one; Windows only). */
cli_fetch cli_host_fetch(cli_host *h, const char *query, bool local_names,
                         wp_buffer *out, pd_source_state *state);

#ifdef _WIN32
/* The V1 provider (a service's Performance key under
 * HKLM\SYSTEM\CurrentControlSet\Services) that claims object `index`:
 * its "Object List" names the index, or its "First Counter" .. "Last
 * Counter" range holds it. False when no service does. */
typedef struct cli_perf_service {
  char service[128];
  char library[260]; /* "Library", empty when unreadable */
  bool disable_set;  /* "Disable Performance Counters" is a DWORD there */
  uint32_t disable;  /* its value (non-zero: Windows skips the provider) */
} cli_perf_service;

bool cli_perf_service_find(uint32_t index, cli_perf_service *out);
#endif

#endif
