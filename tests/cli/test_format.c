/* collectd-winperf tests: the winperf tool's formatting helpers.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Text value rule (winperf.1: at most 6 decimals, trailing zeros trimmed),
 * FILETIME -> ISO-8601 (expected dates from the well-known Unix epoch
 * constant and Python's datetime), SYSTEMTIME, JSON numbers and string
 * escaping.
 */
#include "cli.h"
#include "json.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>

static void value_is(double v, const char *want) {
  char buf[64];
  cli_format_value(v, buf, sizeof buf);
  IS_STR(buf, want, "text value %.17g -> %s", v, want);
}

static void filetime_is(int64_t t, const char *want) {
  char buf[64];
  bool ok = cli_format_filetime(t, buf, sizeof buf);
  OK(ok, "filetime %" PRId64 " accepted", t);
  IS_STR(buf, want, "filetime %" PRId64 " -> %s", t, want);
}

/* JSON written by `fn` into a memory stream. */
static char *json_of(void (*fn)(json_writer *)) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  json_writer w;
  json_init(&w, f);
  fn(&w);
  fclose(f);
  return text;
}

static void write_escapes(json_writer *w) {
  json_string(w, "q\"b\\n\n\x01\x1f\x7f\xc3\xa9\xe2\x80\xa8\xf0\x9f\x98\x80"
                 "\xff\xc3");
}

static void write_doc(json_writer *w) {
  json_begin_object(w);
  json_key(w, "a");
  json_begin_array(w);
  json_int(w, -1);
  json_uint(w, UINT64_MAX);
  json_double(w, 0.1);
  json_double(w, -0.0);
  json_end_array(w);
  json_key(w, "e");
  json_begin_object(w);
  json_end_object(w);
  json_key(w, "n");
  json_string(w, NULL);
  json_key(w, "x");
  json_double(w, INFINITY);
  json_end_object(w);
  json_finish(w);
}

int main(void) {
  /* Text values: "%.6f", trailing zeros and '.' removed (winperf.1). */
  value_is(75.0, "75");
  value_is(12.5, "12.5");
  value_is(0.003, "0.003");
  value_is(1.0 / 3.0, "0.333333");
  value_is(2.0 / 3.0, "0.666667");
  value_is(300, "300");
  value_is(750000000, "750000000");
  value_is(0, "0");
  value_is(-0.0000001, "0"); /* rounds to -0.000000: no "-0" */
  value_is(-2.5, "-2.5");
  value_is(1e20, "100000000000000000000");

  /* PerfTime100nSec (100 ns since 1601-01-01 UTC). */
  filetime_is(0, "1601-01-01T00:00:00.0000000Z");
  filetime_is(INT64_C(116444736000000000), "1970-01-01T00:00:00.0000000Z");
  filetime_is(INT64_C(133485408000000000), "2024-01-01T00:00:00.0000000Z");
  filetime_is(INT64_C(125963012967890120), "2000-02-29T12:34:56.7890120Z");
  filetime_is(INT64_C(157520160000000000), "2100-03-01T00:00:00.0000000Z");
  filetime_is(INT64_C(315359990000000), "1601-12-31T23:59:59.0000000Z");
  filetime_is(INT64_C(2650467743999999990), "9999-12-31T23:59:59.9999990Z");
  filetime_is(INT64_C(2650467743999999999), "9999-12-31T23:59:59.9999999Z");
  char buf[64];
  OK(!cli_format_filetime(-1, buf, sizeof buf), "negative filetime refused");

  const uint16_t st[8] = {2024, 1, 1, 1, 13, 5, 9, 7};
  cli_format_systemtime(st, buf, sizeof buf);
  IS_STR(buf, "2024-01-01T13:05:09.007Z", "SYSTEMTIME (day of week ignored)");

  IS_STR(cli_type_name(PD_100NSEC_TIMER, buf, sizeof buf), "PERF_100NSEC_TIMER",
         "known type by name");
  IS_STR(cli_type_name(0x00070000u, buf, sizeof buf), "0x00070000",
         "unknown type in hex");

  /* Shortest round-trip doubles. */
  json_format_double(75.0, buf, sizeof buf);
  IS_STR(buf, "75", "json 75.0 -> 75");
  json_format_double(0.1, buf, sizeof buf);
  IS_STR(buf, "0.1", "json 0.1 stays 0.1");
  json_format_double(1.0 / 3.0, buf, sizeof buf);
  OK(strtod(buf, NULL) == 1.0 / 3.0, "json 1/3 reads back exactly (%s)", buf);
  json_format_double(7.5e8, buf, sizeof buf);
  IS_STR(buf, "750000000", "json 7.5e8");

  /* Escapes: quote, backslash, \n, U+0001, U+001F, DEL, é kept, U+2028
   * escaped, U+1F600 kept, invalid 0xFF and a truncated sequence -> FFFD. */
  char *s = json_of(write_escapes);
  IS_STR(s,
         "\"q\\\"b\\\\n\\n\\u0001\\u001f\\u007f\xc3\xa9\\u2028"
         "\xf0\x9f\x98\x80\\ufffd\\ufffd\"",
         "json string escaping");
  free(s);

  s = json_of(write_doc);
  IS_STR(s,
         "{\n  \"a\": [\n    -1,\n    18446744073709551615,\n    0.1,\n    "
         "0\n  ],\n  \"e\": {},\n  \"n\": null,\n  \"x\": null\n}\n",
         "json document: nesting, commas, empty object, null, inf -> null");
  free(s);

  return tap_done();
}
