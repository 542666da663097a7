/* collectd-winperf tests: the plugin's metric naming rule.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The rule (doc/collectd-winperf.5): plugin_instance = object, "-" and the
 * full instance name when there is one; type_instance = counter; '/', '\'
 * and control characters become '_', the rest passes through; names are cut
 * to DATA_MAX_NAME_LEN - 1 = 127 bytes on a UTF-8 character boundary.
 */
#include <string.h>

#include "naming.h"
#include "perfdata.h"
#include "tap.h"

#define N 128 /* collectd's DATA_MAX_NAME_LEN */

static char *repeat(char *buf, char c, size_t n) {
  memset(buf, c, n);
  buf[n] = '\0';
  return buf;
}

static void test_sanitize(void) {
  static const struct {
    const char *in, *want, *what;
  } cases[] = {
      {"explorer/0", "explorer_0", "'/' becomes '_'"},
      {"C:\\Windows", "C:_Windows", "'\\' becomes '_'"},
      {"a\tb\nc\x7f", "a_b_c_", "C0 controls and DEL become '_'"},
      {"a\xc2\x85z", "a_z", "a C1 control (U+0085) becomes one '_'"},
      {"% Processor Time", "% Processor Time", "spaces and % unchanged"},
      {"# of Exceps Thrown", "# of Exceps Thrown", "# unchanged"},
      {"Intel(R) PRO.1000 svchost#1", "Intel(R) PRO.1000 svchost#1",
       "parentheses, dots, # unchanged"},
      {"Prozessorzeit (%) \xc3\xa4\xe2\x82\xac",
       "Prozessorzeit (%) \xc3\xa4\xe2\x82\xac", "UTF-8 unchanged"},
      {"Avg. Disk sec/Read", "Avg. Disk sec_Read", "counter name with '/'"},
      {"a\x80z", "a\x80z", "a stray continuation byte passes as one byte"},
  };
  char out[N];
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    wp_name_sanitize(out, N, cases[i].in);
    IS_STR(out, cases[i].want, "%s", cases[i].what);
  }

  char in[300], want[300];
  repeat(in, 'a', 200);
  wp_name_sanitize(out, N, in);
  IS_INT(strlen(out), 127, "cut to 127 bytes");
  /* 126 ASCII + a 2-byte character = 128 bytes: the character goes. */
  repeat(in, 'a', 126);
  strcat(in, "\xc3\xa9");
  wp_name_sanitize(out, N, in);
  IS_STR(out, repeat(want, 'a', 126), "2-byte character not split");
  repeat(in, 'a', 125);
  strcat(in, "\xc3\xa9");
  wp_name_sanitize(out, N, in);
  IS_INT(strlen(out), 127, "2-byte character that fits is kept");
  repeat(in, 'a', 125);
  strcat(in, "\xe2\x82\xac");
  wp_name_sanitize(out, N, in);
  IS_STR(out, repeat(want, 'a', 125), "3-byte character not split");
  repeat(in, 'a', 124);
  strcat(in, "\xf0\x9f\x98\x80x");
  wp_name_sanitize(out, N, in);
  IS_STR(out, repeat(want, 'a', 124), "4-byte character not split");
  wp_name_sanitize(out, 1, "abc");
  IS_STR(out, "", "size 1: empty string");
}

static void test_plugin_instance(void) {
  char out[N];
  wp_name_plugin_instance(out, N, "Processor", "0", NULL, true);
  IS_STR(out, "Processor-0", "object-instance");
  wp_name_plugin_instance(out, N, "Processor", "_Total", NULL, false);
  IS_STR(out, "Processor-_Total", "named instance");
  wp_name_plugin_instance(out, N, "Memory", NULL, NULL, false);
  IS_STR(out, "Memory", "single-instance object: object only");
  wp_name_plugin_instance(out, N, "Thread", "explorer/0", NULL, true);
  IS_STR(out, "Thread-explorer_0", "parent/name: '/' becomes '_'");
  wp_name_plugin_instance(out, N, "Process", "svchost#1", NULL, true);
  IS_STR(out, "Process-svchost#1", "duplicate suffix kept");
  wp_name_plugin_instance(out, N, "Network Interface",
                          "Intel[R] Ethernet 10G 2P X520 Adapter", NULL, true);
  IS_STR(out, "Network Interface-Intel[R] Ethernet 10G 2P X520 Adapter",
         "spaces kept");
  wp_name_plugin_instance(out, N, "Processor", "0", "cpu", true);
  IS_STR(out, "cpu-0", "override + wildcard: instance appended");
  wp_name_plugin_instance(out, N, "Processor", "_Total", "cpu_total", false);
  IS_STR(out, "cpu_total", "override without wildcard: exactly the override");
  wp_name_plugin_instance(out, N, "Memory", NULL, "mem", true);
  IS_STR(out, "mem", "override on a single-instance object");
  wp_name_plugin_instance(out, N, "Processor", "0", "a/b", false);
  IS_STR(out, "a_b", "override sanitized");

  char obj[200], want[200];
  repeat(obj, 'o', 120);
  wp_name_plugin_instance(out, N, obj, "bcdefghij", NULL, true);
  repeat(want, 'o', 120);
  strcat(want, "-bcdefg");
  IS_STR(out, want, "object + instance cut at 127 bytes");
  repeat(obj, 'o', 125);
  wp_name_plugin_instance(out, N, obj, "\xc3\xa4x", NULL, true);
  repeat(want, 'o', 125);
  strcat(want, "-");
  IS_STR(out, want, "cut before a 2-byte character of the instance");
}

static void test_type_instance(void) {
  char out[N];
  wp_name_type_instance(out, N, "% Processor Time", NULL, false);
  IS_STR(out, "% Processor Time", "counter name");
  wp_name_type_instance(out, N, "Avg. Disk sec/Read", NULL, true);
  IS_STR(out, "Avg. Disk sec_Read", "counter name sanitized");
  wp_name_type_instance(out, N, "% Processor Time", "busy", false);
  IS_STR(out, "busy", "override");
  wp_name_type_instance(out, N, "% Processor Time", "busy", true);
  IS_STR(out, "busy-% Processor Time", "override + counter wildcard");
}

static void test_types(void) {
  IS_STR(wp_name_default_type(false, PD_COUNTER_COUNTER), "gauge",
         "formatted rate: gauge");
  IS_STR(wp_name_default_type(false, PD_100NSEC_TIMER), "gauge",
         "formatted percentage: gauge (U:U, can exceed 100)");
  IS_STR(wp_name_default_type(true, PD_COUNTER_COUNTER), "derive",
         "raw COUNTER_COUNTER: derive");
  IS_STR(wp_name_default_type(true, PD_COUNTER_BULK_COUNT), "derive",
         "raw BULK_COUNT: derive");
  IS_STR(wp_name_default_type(true, PD_100NSEC_TIMER), "derive",
         "raw 100NSEC_TIMER: derive");
  IS_STR(wp_name_default_type(true, PD_COUNTER_RAWCOUNT), "gauge",
         "raw RAWCOUNT: gauge");
  IS_STR(wp_name_default_type(true, PD_COUNTER_LARGE_RAWCOUNT), "gauge",
         "raw LARGE_RAWCOUNT: gauge");
  IS_STR(wp_name_default_type(true, PD_RAW_FRACTION), "gauge",
         "raw RAW_FRACTION: gauge");
}

/* InstanceNames "pid": BASE:PID, threads BASE:PID:TID, Process V2's
 * "name:pid" as it is; instances without id_base keep the PDH name. */
static void test_instance_names(void) {
  char out[N];
  pd_result r;
  memset(&r, 0, sizeof r);
  r.instance = "w3wp#1";
  r.id_base = "w3wp";
  r.has_pid = true;
  r.pid = 4242;
  IS_STR(wp_name_instance(out, N, &r, WP_INSTANCE_NAMES_PID), "w3wp:4242",
         "pid: w3wp#1 with pid 4242 is w3wp:4242");
  OK(wp_name_instance(out, N, &r, WP_INSTANCE_NAMES_PDH) == r.instance,
     "pdh: the PDH name itself");
  r.instance = "w3wp/3#1";
  r.has_tid = true;
  r.tid = 17;
  IS_STR(wp_name_instance(out, N, &r, WP_INSTANCE_NAMES_PID), "w3wp:4242:17",
         "pid: a thread is process:pid:tid");
  r.has_tid = false;
  r.instance = r.id_base = "w3wp:4242";
  IS_STR(wp_name_instance(out, N, &r, WP_INSTANCE_NAMES_PID), "w3wp:4242",
         "pid: Process V2's w3wp:4242 stays w3wp:4242");
  r.instance = r.id_base = "svc:42";
  IS_STR(wp_name_instance(out, N, &r, WP_INSTANCE_NAMES_PID), "svc:42:4242",
         "pid: a name ending in another number gets the pid");
  r.instance = r.id_base = "x:4242";
  r.has_tid = true;
  IS_STR(wp_name_instance(out, N, &r, WP_INSTANCE_NAMES_PID), "x:4242:4242:17",
         "pid: a thread always gets both ids");
  r.has_tid = false;
  r.instance = "_Total";
  r.id_base = NULL;
  OK(wp_name_instance(out, N, &r, WP_INSTANCE_NAMES_PID) == r.instance,
     "pid: no id_base (_Total, pid 0, a duplicate pid): the PDH name");
  r.instance = NULL;
  OK(wp_name_instance(out, N, &r, WP_INSTANCE_NAMES_PID) == NULL,
     "pid: single instance: NULL");

  char base[200], want[200];
  r.instance = "long";
  r.id_base = repeat(base, 'b', 150);
  wp_name_instance(out, N, &r, WP_INSTANCE_NAMES_PID);
  repeat(want, 'b', 122);
  strcat(want, ":4242");
  IS_STR(out, want, "pid: a long name is cut so the pid fits in 127 bytes");
  repeat(base, 'b', 121);
  strcat(base, "\xc3\xa4");
  wp_name_instance(out, N, &r, WP_INSTANCE_NAMES_PID);
  repeat(want, 'b', 121);
  strcat(want, ":4242");
  IS_STR(out, want, "pid: cut before a 2-byte character");
}

static void test_profiles(void) {
  char buf[N];
  const char *name = "% Processor Time";
  OK(wp_name_part(buf, N, name, WP_METRIC_NAMES_PDH) == name,
     "pdh: the name itself");
  IS_STR(wp_name_part(buf, N, name, WP_METRIC_NAMES_CLEAN),
         "pct_processor_time", "clean: wp_name_clean");
  OK(wp_name_part(buf, N, NULL, WP_METRIC_NAMES_CLEAN) == NULL,
     "clean: NULL (no instance) stays NULL");
  IS_INT(wp_name_choice(wp_metric_names_text, "CLEAN"), WP_METRIC_NAMES_CLEAN,
         "\"CLEAN\": clean");
  IS_INT(wp_name_choice(wp_metric_names_text, "pdh"), WP_METRIC_NAMES_PDH,
         "\"pdh\": pdh");
  IS_INT(wp_name_choice(wp_instance_names_text, "Pid"), WP_INSTANCE_NAMES_PID,
         "\"Pid\": pid");
  IS_INT(wp_name_choice(wp_instance_names_text, "clean"), -1,
         "\"clean\" is no InstanceNames value");
  IS_INT(wp_name_choice(wp_metric_names_text, ""), -1, "\"\": none");
}

int main(void) {
  test_sanitize();
  test_instance_names();
  test_profiles();
  test_plugin_instance();
  test_type_instance();
  test_types();
  return tap_done();
}
