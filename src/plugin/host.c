/* collectd-winperf: a remote host's failures, recoveries and turns
 * (host.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "host.h"
#include "credentials.h"

bool wp_host_waiting(const wp_ctx *c) {
  return wp_backoff_waiting(&c->backoff, cdtime(), plugin_get_interval());
}

static uint64_t retry_interval(const wp_ctx *c) {
  return c->auth_retry ? c->auth_retry : WP_CRED_RETRY_DEFAULT;
}

bool wp_host_admit(wp_ctx *c) {
  c->iv_start = cdtime();
  c->iv_fault = -1;
  c->iv_ok = false;
  if (c->cred != NULL) {
    c->auth_paused = wp_cred_state_now(c->cred) == WP_CRED_PAUSED;
    if (!wp_cred_enter(c->cred, c->host, cdtime(), retry_interval(c)))
      return false; /* another host's turn, or paused: not a failure */
    c->cred_held = true;
  }
  if (c->connects != NULL && !wp_source_connected(c->src)) {
    if (!wp_connects_take(c->connects)) {
      wp_host_release(c); /* the credential's turn goes to another */
      return false;
    }
    c->connect_held = true;
  }
  return true;
}

static void log_refusal(wp_ctx *c, const wp_cred_news *news) {
  cdtime_t retry = retry_interval(c);
  ERROR(PLUGIN ": host \"%s\" (%s): authentication failure: %s; credential "
               "%s paused: %u other host%s using it wait%s; tried again "
               "by one host when %s changes or in %.0f s",
        c->host, c->address, c->auth_error ? c->auth_error : "refused",
        wp_cred_label(c->cred), news->others, news->others == 1 ? "" : "s",
        news->others == 1 ? "s" : "",
        c->keytab          ? c->keytab
        : c->ccache        ? c->ccache
        : c->password_file ? c->password_file
                           : "the environment",
        CDTIME_T_TO_DOUBLE(retry));
}

void wp_host_release(wp_ctx *c) {
  if (c->connect_held && c->connects != NULL)
    wp_connects_give(c->connects);
  c->connect_held = false;
  wp_host_logged_on(c);
}

void wp_host_logged_on(wp_ctx *c) {
  if (!c->cred_held)
    return;
  c->cred_held = false;
  wp_cred_outcome outcome = WP_CRED_OTHER;
  if (c->iv_fault == WP_SOURCE_FAULT_AUTH)
    outcome = WP_CRED_REFUSED;
  else if (c->iv_ok)
    outcome = WP_CRED_OK;
  wp_cred_news news;
  wp_cred_leave(c->cred, c->host, outcome, cdtime(), &news);
  c->auth_paused = wp_cred_state_now(c->cred) == WP_CRED_PAUSED;
  if (news.what == WP_CRED_NEWS_PAUSED)
    log_refusal(c, &news);
  else if (news.what == WP_CRED_NEWS_RESUMED)
    INFO(PLUGIN ": host \"%s\" (%s): credential %s accepted again; the %u "
                "other host%s using it resume%s",
         c->host, c->address, wp_cred_label(c->cred), news.others,
         news.others == 1 ? "" : "s", news.others == 1 ? "s" : "");
}

void wp_host_failed(wp_ctx *c, const char *err) {
  wp_source_fault fault = wp_source_last_fault(c->src);
  if (c->iv_fault < 0)
    c->iv_fault = (int)fault;
  if (fault == WP_SOURCE_FAULT_AUTH && c->cred != NULL) {
    /* the credential pauses (wp_host_release logs it once) */
    free(c->auth_error);
    c->auth_error = strdup(err[0] ? err : "refused");
    return;
  }
  /* The wait counts from the attempt's start: a timeout as long as the
   * interval then costs that interval alone, not the next one too. */
  (void)wp_backoff_failed(&c->backoff, fault == WP_SOURCE_FAULT_AUTH,
                          c->iv_start, plugin_get_interval());
  double left = CDTIME_T_TO_DOUBLE(wp_host_wait_left(c));
  char next[48] = "next at its next interval";
  if (left >= 0.5)
    snprintf(next, sizeof(next), "next in %.0f s", left);
  ERROR(PLUGIN ": host \"%s\" (%s): %s: %s; attempt %u failed, %s", c->host,
        c->address, wp_source_fault_name(fault), err[0] ? err : "unknown error",
        c->backoff.failures, next);
}

void wp_host_recovered(wp_ctx *c) {
  c->iv_ok = true;
  unsigned failures = wp_backoff_recovered(&c->backoff);
  if (failures > 0)
    INFO(PLUGIN ": host \"%s\" (%s): collecting again after %u failed "
                "attempt%s",
         c->host, c->address, failures, failures == 1 ? "" : "s");
}

cdtime_t wp_host_wait_left(const wp_ctx *c) {
  cdtime_t now = cdtime();
  cdtime_t left = 0;
  if (c->backoff.failures > 0 && c->backoff.retry_at > now)
    left = c->backoff.retry_at - now;
  if (c->cred != NULL) {
    cdtime_t r = wp_cred_retry_in(c->cred, now, retry_interval(c));
    if (r > left)
      left = r;
  }
  return left;
}
