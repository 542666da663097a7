/* collectd-winperf: credentials that never lock an account
 * (src/plugin/credentials.h) and MaxConcurrentConnects (connects.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The rules of collectd-winperf(5), CREDENTIALS AND LOCKOUTS, step by step
 * with times given by hand (cdtime_t: 2^-30 s).
 */
#include "connects.h"
#include "credentials.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define S(x) WP_CRED_SECONDS(x)

int main(void) {
  char file[] = "/tmp/winperf-cred.XXXXXX";
  int fd = mkstemp(file);
  if (fd < 0 || write(fd, "password = wrong\n", 17) != 17)
    return 1;
  close(fd);
  uint64_t retry = S(3600);
  wp_cred *a = wp_cred_get("ntlm", "CORP", "svc", file);
  wp_cred *b = wp_cred_get("ntlm", "CORP", "svc", file);
  wp_cred *c = wp_cred_get("ntlm", "CORP", "svc", file);
  wp_cred *other = wp_cred_get("ntlm", "CORP", "other", file);
  tap_ok(a == b && b == c && a != other,
         "hosts with the same auth, domain, user and file share one "
         "credential; another user has its own");
  tap_ok(wp_cred_state_now(a) == WP_CRED_UNPROVEN,
         "a new credential is unproven");

  wp_cred_news news;
  uint64_t t = S(100);
  tap_ok(wp_cred_enter(a, "h1", t, retry), "unproven: h1 may go");
  tap_ok(!wp_cred_enter(a, "h2", t, retry) && !wp_cred_enter(a, "h3", t, retry),
         "unproven: h2 and h3 skip while h1's request runs");
  wp_cred_leave(a, "h1", WP_CRED_OTHER, t, &news);
  tap_ok(news.what == WP_CRED_NEWS_NONE &&
             wp_cred_state_now(a) == WP_CRED_UNPROVEN,
         "a timeout is not the credential's: still unproven, nothing to log");
  tap_ok(wp_cred_enter(a, "h2", t, retry), "then h2 may go");
  wp_cred_leave(a, "h2", WP_CRED_REFUSED, t, &news);
  tap_ok(news.what == WP_CRED_NEWS_PAUSED && news.others == 2 &&
             wp_cred_state_now(a) == WP_CRED_PAUSED,
         "h2 refused: paused, logged once with the 2 others that wait");
  tap_ok(!wp_cred_enter(a, "h1", t + S(10), retry) &&
             !wp_cred_enter(a, "h3", t + S(600), retry),
         "paused: nobody goes while the file is unchanged (10 s, 600 s later)");
  tap_ok(wp_cred_retry_in(a, t + S(600), retry) == S(3000),
         "the retry is due in 3000 s");

  /* the file changes (another size): one host, not h2, tries */
  sleep(1);
  FILE *f = fopen(file, "w");
  fputs("password = right-one\n", f);
  fclose(f);
  tap_ok(!wp_cred_enter(a, "h2", t + S(700), retry),
         "the file changed: h2, refused last, does not retry");
  tap_ok(wp_cred_enter(a, "h3", t + S(702), retry), "h3 does");
  tap_ok(!wp_cred_enter(a, "h1", t + S(702), retry), "and only h3");
  wp_cred_leave(a, "h3", WP_CRED_OK, t + S(702), &news);
  tap_ok(news.what == WP_CRED_NEWS_RESUMED &&
             wp_cred_state_now(a) == WP_CRED_PROVEN,
         "h3's logon succeeds: proven, its recovery logged");
  tap_ok(wp_cred_enter(a, "h1", t + S(703), retry) &&
             wp_cred_enter(a, "h2", t + S(703), retry),
         "proven: every host goes at once");
  wp_cred_leave(a, "h1", WP_CRED_OK, t + S(703), &news);
  wp_cred_leave(a, "h2", WP_CRED_REFUSED, t + S(703), &news);
  tap_ok(news.what == WP_CRED_NEWS_PAUSED, "a refusal pauses a proven one too");
  tap_ok(!wp_cred_enter(a, "h1", t + S(703 + 3599), retry) &&
             wp_cred_enter(a, "h1", t + S(703 + 3600), retry),
         "no change of the file: retried after AuthRetryInterval");
  wp_cred_leave(a, "h1", WP_CRED_OTHER, t + S(4304), &news);

  /* a credential of one host: that host retries */
  tap_ok(wp_cred_enter(other, "solo", t, retry), "a sole host goes");
  wp_cred_leave(other, "solo", WP_CRED_REFUSED, t, &news);
  tap_ok(news.others == 0 && wp_cred_enter(other, "solo", t + retry, retry),
         "and, refused, retries itself after AuthRetryInterval");
  wp_cred_leave(other, "solo", WP_CRED_OTHER, t + retry, &news);

  wp_cred_put(a);
  wp_cred_put(b);
  wp_cred_put(c);
  wp_cred_put(other);
  wp_cred *env = wp_cred_get("ntlm", NULL, NULL, NULL);
  tap_ok(env != NULL && strstr(wp_cred_label(env), "environment") != NULL,
         "no password file: the environment (%s)", wp_cred_label(env));
  wp_cred_put(env);

  wp_connects k;
  wp_connects_init(&k, 2);
  bool one = wp_connects_take(&k), two = wp_connects_take(&k),
       three = wp_connects_take(&k);
  tap_ok(one && two && !three, "MaxConcurrentConnects 2: a third waits");
  wp_connects_give(&k);
  tap_ok(wp_connects_take(&k), "one given back: the next goes");
  wp_connects_destroy(&k);
  unlink(file);
  return tap_done();
}
