/* collectd-winperf: the helper's Kerberos errors, each naming the host and
 * what to do, and the report `winperf doctor` shows.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Error kinds (helper_krb5.h): KDC_ERR_PREAUTH_FAILED, KDC_ERR_CLIENT_REVOKED
 * and KDC_ERR_KEY_EXPIRED are refused logons (WPR_ERR_AUTH: the plugin's
 * lockout rule counts them); an unreachable KDC, clock skew or one host's
 * unknown SPN are not. doc/winperf-remote.md has the troubleshooting table.
 */
#ifndef WP_REMOTE_HELPER_KRB5_ERROR_H
#define WP_REMOTE_HELPER_KRB5_ERROR_H

#include "helper_config.h"
#include "helper_error.h"

#include <krb5.h>
#include <time.h>

typedef enum hk5_source { HK5_KEYTAB, HK5_CCACHE, HK5_PASSWORD } hk5_source;

/* Where a krb5 call failed: naming the client, reading the operator's
 * cache, the AS exchange (TGT) or the TGS exchange (cifs/HOST). */
typedef enum hk5_stage { HK5_CLIENT, HK5_CACHE, HK5_AS, HK5_TGS } hk5_stage;

/* The KDC's clock minus this machine's, when a KDC answer told it. */
typedef struct hk5_offset {
  int known;
  long seconds;
} hk5_offset;

/* The last attempt, for the report. */
typedef struct hk5_report {
  char principal[512], spn[600], used[16], error[1024];
  int spn_state; /* 1 found, -1 unknown to the KDC, 0 not asked */
  hk5_offset offset;
  time_t tgt_start, tgt_end, tkt_start, tkt_end;
} hk5_report;

/* Set e for rc (what the operator sees) and return -1. principal: the
 * client's name when known; offset: for KRB_AP_ERR_SKEW. */
int hk5_fail(herr *e, krb5_context ctx, krb5_error_code rc, hk5_stage stage,
             const helper_cfg *cfg, const char *principal,
             const hk5_offset *offset);

/* The report as "key<TAB>value" lines into out (NUL-terminated, cut at
 * cap); its length. */
size_t hk5_report_text(const hk5_report *r, const helper_cfg *cfg, char *out,
                       size_t cap);

#endif
