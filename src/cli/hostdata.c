/* collectd-winperf: a live host for `winperf names` and `winperf doctor`.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Failures: the remote helper's kinds (src/remote/frame.h) auth ->
 * access-denied, connect with "no \pipe\winreg" -> remote-registry-off,
 * server (a Win32 error answering the query) -> provider-failed, the
 * others (unreachable host, timeout, helper) a failed connection. The
 * local registry's RegQueryValueExW error 5 (ERROR_ACCESS_DENIED) ->
 * access-denied, any other error -> provider-failed.
 *
 * Windows: cli_perf_service_find reads the services' Performance keys,
 * "Disable Performance Counters" included, for the doctor's notes.
 */
#include "hostdata.h"

#include "cli.h"

#ifdef _WIN32
#include "registry.h"
#include <windows.h>
#endif

#include <string.h>

#ifndef WINPERF_REMOTE
void cli_host_report(cli_host *h, const cli_host_opts *o, FILE *out) {
  (void)h;
  (void)o;
  (void)out;
}
#endif

bool cli_host_open(cli_host *h, const cli_host_opts *o) {
  wp_error err = {0};
  memset(h, 0, sizeof *h);
#ifdef WINPERF_REMOTE
  h->src = wp_remote_source_new(&o->remote, &err);
  h->remote = true;
#elif defined(_WIN32)
  (void)o;
  h->src = wp_registry_open(NULL, &err);
#else
  (void)o;
  wp_error_set(&err, "no live source in this build");
#endif
  if (h->src == NULL) {
    snprintf(h->error, sizeof h->error, "%s", err.message);
    cli_error("%s", h->error);
  }
  return h->src != NULL;
}

void cli_host_close(cli_host *h) {
  if (h->src != NULL)
    h->src->destroy(h->src);
  h->src = NULL;
}

#ifdef WINPERF_REMOTE
/* One report line: "key\tvalue" -> its value, NUL-terminated in place. */
static const char *report_value(char *text, const char *key) {
  size_t k = strlen(key);
  for (char *line = text; line != NULL && *line;) {
    char *next = strchr(line, '\n');
    if (strncmp(line, key, k) == 0 && line[k] == '\t') {
      if (next != NULL)
        *next = '\0';
      return line + k + 1;
    }
    line = next ? next + 1 : NULL;
  }
  return NULL;
}

void cli_host_report(cli_host *h, const cli_host_opts *o, FILE *out) {
  const wp_remote_options *r = &o->remote;
  bool krb =
      (r->auth && strcmp(r->auth, "ntlm") != 0) || r->keytab || r->ccache;
  wp_buffer buf = {0};
  wp_error err = {0};
  if (!krb || h->src == NULL || wp_remote_helper_pid(h->src) <= 0 ||
      wp_remote_report(h->src, &buf, &err) != WP_SOURCE_OK ||
      wp_buffer_reserve(&buf, buf.len + 1) != 0) {
    wp_buffer_free(&buf);
    return;
  }
  buf.data[buf.len] = '\0';
  static const char *const keys[][2] = {
      {"used", "logon"},
      {"principal", "principal"},
      {"realm", "realm"},
      {"source", "credential"},
      {"kdc_offset", "clock offset to the KDC (s, KDC minus here)"},
      {"tgt_start", "TGT valid from"},
      {"tgt_end", "TGT valid until"},
      {"spn", "SPN"},
      {"spn_found", "SPN found"},
      {"ticket_start", "service ticket valid from"},
      {"ticket_end", "service ticket valid until"},
      {"error", "error"}};
  for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
    /* each lookup works on a fresh copy: report_value cuts lines */
    char copy[4097];
    snprintf(copy, sizeof copy, "%.*s", (int)buf.len, (char *)buf.data);
    const char *v = report_value(copy, keys[i][0]);
    if (v != NULL)
      fprintf(out, "kerberos: %s: %s\n", keys[i][1], v);
  }
  wp_buffer_free(&buf);
}

static cli_fetch classify(cli_host *h, pd_source_state *state) {
  switch (wp_remote_last_error(h->src)) {
  case WP_REMOTE_ERR_AUTH:
  case WP_REMOTE_ERR_ACCESS:
    state->failure = PD_SOURCE_ACCESS_DENIED;
    break;
  case WP_REMOTE_ERR_CONNECT:
    if (strstr(h->error, "has no \\pipe\\winreg") == NULL)
      return CLI_FETCH_FATAL;
    state->failure = PD_SOURCE_REMOTE_REGISTRY_OFF;
    break;
  case WP_REMOTE_ERR_SERVER:
    state->failure = PD_SOURCE_PROVIDER_FAILED;
    break;
  default:
    return CLI_FETCH_FATAL;
  }
  return CLI_FETCH_VERDICT;
}
#else
static cli_fetch classify(cli_host *h, pd_source_state *state) {
  const char *e = strstr(h->error, "error 5");
  bool denied = e != NULL && (e[7] == '\0' || e[7] == ':');
  state->failure = denied ? PD_SOURCE_ACCESS_DENIED : PD_SOURCE_PROVIDER_FAILED;
  return CLI_FETCH_VERDICT;
}
#endif

cli_fetch cli_host_fetch(cli_host *h, const char *query, bool local_names,
                         wp_buffer *out, pd_source_state *state) {
  memset(state, 0, sizeof *state);
  state->remote = h->remote;
  wp_source_status st;
  wp_error err;
  wp_error_clear(&err);
  if (query != NULL)
    st = h->src->collect(h->src, query, out, &err);
#ifdef _WIN32
  else if (local_names)
    st = wp_registry_names_local(h->src, out, &err);
#endif
  else
    st = h->src->names(h->src, out, &err);
  (void)local_names;
  /* the remote source reads Last Counter with the names: asked after */
  state->last_counter = wp_source_last_counter(h->src);
  if (st == WP_SOURCE_OK)
    return CLI_FETCHED;
  snprintf(h->error, sizeof h->error, "%s", err.message);
  state->detail = h->error;
  cli_fetch f = classify(h, state);
  if (f == CLI_FETCH_FATAL)
    cli_error("%s", h->error);
  return f;
}

#ifdef _WIN32
static void to_utf8(const wchar_t *w, char *out, size_t cap) {
  if (WideCharToMultiByte(CP_UTF8, 0, w, -1, out, (int)cap, NULL, NULL) == 0)
    out[0] = '\0';
}

static bool get_dword(HKEY key, const wchar_t *name, DWORD *v) {
  DWORD type = 0, size = sizeof *v;
  return RegQueryValueExW(key, name, NULL, &type, (LPBYTE)v, &size) ==
             ERROR_SUCCESS &&
         type == REG_DWORD && size == sizeof *v;
}

/* A string value (REG_SZ, REG_EXPAND_SZ or REG_MULTI_SZ, terminated), or
 * false. */
static bool get_text(HKEY key, const wchar_t *name, wchar_t *out, DWORD cap) {
  DWORD type = 0, size = (cap - 1) * sizeof *out;
  if (RegQueryValueExW(key, name, NULL, &type, (LPBYTE)out, &size) !=
          ERROR_SUCCESS ||
      (type != REG_SZ && type != REG_EXPAND_SZ && type != REG_MULTI_SZ))
    return false;
  out[size / sizeof *out] = 0;
  return true;
}

/* Does this Performance key claim object `index`? */
static bool claims(HKEY perf, uint32_t index) {
  wchar_t list[1024];
  if (get_text(perf, L"Object List", list, 1024)) {
    for (const wchar_t *s = list; *s;) {
      if (*s < L'0' || *s > L'9') {
        s++;
        continue;
      }
      uint64_t v = 0;
      while (*s >= L'0' && *s <= L'9')
        if ((v = v * 10 + (uint64_t)(*s++ - L'0')) > UINT32_MAX)
          v = (uint64_t)UINT32_MAX + 1;
      if (v == index)
        return true;
    }
  }
  DWORD first, last;
  return get_dword(perf, L"First Counter", &first) &&
         get_dword(perf, L"Last Counter", &last) && first <= index &&
         index <= last;
}

static void describe(HKEY perf, const wchar_t *service, cli_perf_service *out) {
  wchar_t lib[260];
  DWORD d;
  to_utf8(service, out->service, sizeof out->service);
  if (get_text(perf, L"Library", lib, 260))
    to_utf8(lib, out->library, sizeof out->library);
  out->disable_set = get_dword(perf, L"Disable Performance Counters", &d);
  out->disable = out->disable_set ? d : 0;
}

bool cli_perf_service_find(uint32_t index, cli_perf_service *out) {
  memset(out, 0, sizeof *out);
  HKEY root;
  if (RegOpenKeyExW(HKEY_LOCAL_MACHINE, L"SYSTEM\\CurrentControlSet\\Services",
                    0, KEY_READ, &root) != ERROR_SUCCESS)
    return false;
  bool found = false;
  wchar_t name[256], sub[256 + 16];
  for (DWORD i = 0; !found; i++) {
    DWORD len = 256;
    LONG rc = RegEnumKeyExW(root, i, name, &len, NULL, NULL, NULL, NULL);
    if (rc == ERROR_NO_MORE_ITEMS)
      break;
    HKEY perf;
    if (rc != ERROR_SUCCESS)
      continue;
    wcscpy(sub, name);
    wcscat(sub, L"\\Performance");
    if (RegOpenKeyExW(root, sub, 0, KEY_READ, &perf) != ERROR_SUCCESS)
      continue;
    if ((found = claims(perf, index)))
      describe(perf, name, out);
    RegCloseKey(perf);
  }
  RegCloseKey(root);
  return found;
}
#endif
