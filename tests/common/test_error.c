/* collectd-winperf tests: the error value outside the parser
 * (src/common/wp_error.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "perfdata.h"
#include "tap.h"
#include "wp_error.h"
#include "wp_grow.h"

#include <errno.h>
#include <string.h>

static void test_set(void) {
  wp_error err;
  wp_error_clear(&err);
  IS_INT(err.code, WP_E_NONE, "cleared: no code");
  IS_STR(err.message, "", "cleared: empty message");
  IS_INT(wp_error_set(&err, "expected %s, got %d", "a list", 3), -1,
         "set returns -1");
  IS_INT(err.code, WP_E_FAILED, "set: WP_E_FAILED");
  IS_STR(err.message, "expected a list, got 3", "set: formatted");
  IS_INT(wp_error_set_code(&err, WP_E_LIMIT, "too many"), -1,
         "set_code returns -1");
  IS_INT(err.code, WP_E_LIMIT, "set_code: the code given");
  IS_INT(wp_error_nomem(&err), -1, "nomem returns -1");
  IS_INT(err.code, WP_E_NOMEM, "nomem: WP_E_NOMEM");
  IS_STR(err.message, "out of memory", "nomem: the message");
  IS_INT(wp_error_errno(&err, ENOENT, "%s: cannot open", "x.yaml"), -1,
         "errno returns -1");
  IS_INT(err.code, WP_E_IO, "errno: WP_E_IO");
  char want[128];
  snprintf(want, sizeof want, "x.yaml: cannot open: %s", strerror(ENOENT));
  IS_STR(err.message, want, "errno: strerror appended");

  IS_INT(wp_error_set(NULL, "dropped"), -1, "NULL err: still -1");
  IS_INT(wp_error_nomem(NULL), -1, "NULL err: nomem -1");
  IS_INT(wp_error_prefix(NULL, "p: "), -1, "NULL err: prefix -1");
  IS_INT(wp_error_errno(NULL, EIO, "x"), -1, "NULL err: errno -1");
}

static void test_prefix(void) {
  wp_error err;
  wp_error_clear(&err);
  wp_error_set(&err, "expected a list");
  wp_error_prefix(&err, "%u:%u: ", 3u, 5u);
  wp_error_prefix(&err, "%s:", "file.yaml");
  IS_STR(err.message, "file.yaml:3:5: expected a list", "prefixes nest");
  IS_INT(err.code, WP_E_FAILED, "prefix keeps the code");
  wp_error_nomem(&err);
  wp_error_prefix(&err, "host %s: ", "winsrv01");
  IS_STR(err.message, "host winsrv01: out of memory", "prefix on nomem");
  IS_INT(err.code, WP_E_NOMEM, "prefix keeps WP_E_NOMEM");

  wp_error_clear(&err);
  wp_error_prefix(&err, "host %s", "a");
  IS_STR(err.message, "host a", "prefix with no error: the prefix alone");
  IS_INT(err.code, WP_E_FAILED, "... and a failure code");

  /* Truncation: the prefix survives, the old message's tail is cut. */
  char longmsg[WP_ERROR_MESSAGE_SIZE + 100];
  memset(longmsg, 'x', sizeof longmsg - 1);
  longmsg[sizeof longmsg - 1] = '\0';
  wp_error_set(&err, "%s", longmsg);
  IS_INT(strlen(err.message), WP_ERROR_MESSAGE_SIZE - 1,
         "a long message is truncated to the buffer");
  wp_error_prefix(&err, "host %s: ", "winsrv01");
  IS_INT(strlen(err.message), WP_ERROR_MESSAGE_SIZE - 1,
         "prefixed long message still fits");
  OK(strncmp(err.message, "host winsrv01: xxx", 18) == 0,
     "the prefix is kept whole");
}

static void test_from_pd(void) {
  wp_error err;
  pd_error pd;
  pd_error_set(&pd, PD_E_NAME, 0x1a8, "offset 0x1a8: name runs past");
  IS_INT(wp_error_from_pd(&err, &pd), -1, "from_pd returns -1");
  IS_INT(err.code, WP_E_PARSER, "a format error: WP_E_PARSER");
  IS_STR(err.message, "offset 0x1a8: name runs past", "the message taken");
  pd_error_set(&pd, PD_E_NOMEM, 0, "out of memory decoding");
  wp_error_from_pd(&err, &pd);
  IS_INT(err.code, WP_E_NOMEM, "PD_E_NOMEM: WP_E_NOMEM");
  pd_error_set(&pd, PD_E_LIMIT, 0, "more than 4096 objects");
  wp_error_from_pd(&err, &pd);
  IS_INT(err.code, WP_E_LIMIT, "PD_E_LIMIT: WP_E_LIMIT");
  pd.status = PD_E_TRUNCATED;
  pd.message[0] = '\0';
  wp_error_from_pd(&err, &pd);
  IS_STR(err.message, "truncated", "an empty message: the status name");
  wp_error_prefix(&err, "sample 2: ");
  IS_STR(err.message, "sample 2: truncated", "prefix after from_pd");
}

static void test_grow(void) {
  wp_error err;
  IS_INT(wp_error_grow(&err, WP_GROW_LIMIT, 10000, "counter entries"), -1,
         "grow limit returns -1");
  IS_STR(err.message, "more than 10000 counter entries", "grow limit message");
  IS_INT(err.code, WP_E_LIMIT, "grow limit: WP_E_LIMIT");
  wp_error_grow(&err, WP_GROW_NOMEM, 10000, "counter entries");
  IS_STR(err.message, "out of memory", "grow nomem message");
  IS_INT(err.code, WP_E_NOMEM, "grow nomem: WP_E_NOMEM");
}

int main(void) {
  test_set();
  test_prefix();
  test_from_pd();
  test_grow();
  return tap_done();
}
