/* Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 * collectd-winperf: tests for counter paths, wildcards and name comparison
 * (path.c, format.md 4.2).
 *
 * Expected fields and error columns are worked out by hand from the grammar
 * in format.md 4.2 (columns are 0-based byte offsets into the C string).
 */
#include "perfdata.h"
#include "tap.h"

#include <stdlib.h>

typedef struct want {
  const char *machine, *object, *parent, *instance;
  uint32_t dup;
  const char *counter;
  /* o: object_is_index, c: counter_is_index, i: instance_has_wildcard,
   * w: counter_has_wildcard */
  const char *flags;
} want;

static void check(const char *text, want w) {
  pd_path p;
  pd_error err = {0};
  pd_status st = pd_path_parse(text, &p, &err);
  if (!OK(st == PD_OK, "parse %s", text)) {
    tap_diag("  %s: %s", pd_status_name(st), err.message);
    return;
  }
  IS_STR(p.machine, w.machine, "  %s: machine", text);
  IS_STR(p.object, w.object, "  %s: object", text);
  IS_STR(p.parent, w.parent, "  %s: parent", text);
  IS_STR(p.instance, w.instance, "  %s: instance", text);
  IS_INT(p.dup_index, w.dup, "  %s: dup_index", text);
  IS_STR(p.counter, w.counter, "  %s: counter", text);
  IS_INT(p.object_is_index, strchr(w.flags, 'o') != NULL,
         "  %s: object_is_index", text);
  IS_INT(p.counter_is_index, strchr(w.flags, 'c') != NULL,
         "  %s: counter_is_index", text);
  IS_INT(p.instance_has_wildcard, strchr(w.flags, 'i') != NULL,
         "  %s: instance_has_wildcard", text);
  IS_INT(p.counter_has_wildcard, strchr(w.flags, 'w') != NULL,
         "  %s: counter_has_wildcard", text);
  pd_path_clear(&p);
  OK(p.object == NULL && p.counter == NULL, "  %s: clear resets", text);
}

static void check_error(const char *text, size_t column, const char *words) {
  pd_path p;
  pd_error err = {0};
  pd_status st = pd_path_parse(text, &p, &err);
  IS_INT(st, PD_E_PATH, "reject %s", text);
  IS_INT(err.offset, column, "  %s: error column", text);
  char prefix[32];
  snprintf(prefix, sizeof prefix, "column %zu: ", column);
  if (!OK(strncmp(err.message, prefix, strlen(prefix)) == 0 &&
              strstr(err.message, words) != NULL,
          "  %s: message names the column and says \"%s\"", text, words))
    tap_diag("  message: %s", err.message);
  OK(p.object == NULL && p.machine == NULL, "  %s: nothing allocated", text);
}

static void test_parse(void) {
  check("\\Processor(_Total)\\% Processor Time",
        (want){NULL, "Processor", NULL, "_Total", 0, "% Processor Time", ""});
  check("\\\\HOST\\Process(svchost#2)\\ID Process",
        (want){"HOST", "Process", NULL, "svchost", 2, "ID Process", ""});
  check("\\\\192.168.1.5\\Memory\\Available Bytes",
        (want){"192.168.1.5", "Memory", NULL, NULL, 0, "Available Bytes", ""});
  check("\\Thread(explorer/0)\\% Processor Time",
        (want){NULL, "Thread", "explorer", "0", 0, "% Processor Time", ""});
  check("\\Thread(explorer/0#1)\\Context Switches/sec",
        (want){NULL, "Thread", "explorer", "0", 1, "Context Switches/sec", ""});
  check("\\Process(w3wp*)\\% Processor Time",
        (want){NULL, "Process", NULL, "w3wp*", 0, "% Processor Time", "i"});
  check(
      "\\PhysicalDisk(0 C:)\\Avg. Disk sec/Read",
      (want){NULL, "PhysicalDisk", NULL, "0 C:", 0, "Avg. Disk sec/Read", ""});
  check("\\Process(*)\\*", (want){NULL, "Process", NULL, "*", 0, "*", "iw"});
  check("\\Thread(*/*)\\% Processor Time",
        (want){NULL, "Thread", "*", "*", 0, "% Processor Time", "i"});
  check("\\Thread(svc*/3)\\ID Thread",
        (want){NULL, "Thread", "svc*", "3", 0, "ID Thread", "i"});
  check("\\238(_Total)\\6", (want){NULL, "238", NULL, "_Total", 0, "6", "oc"});
  check("\\4\\1380", (want){NULL, "4", NULL, NULL, 0, "1380", "oc"});
  check("\\Process(chrome (2))\\Working Set",
        (want){NULL, "Process", NULL, "chrome (2)", 0, "Working Set", ""});
  check("\\Process(a (b) c#3)\\x",
        (want){NULL, "Process", NULL, "a (b) c", 3, "x", ""});
  check("\\.NET CLR Exceptions(_Global_)\\# of Exceps Thrown",
        (want){NULL, ".NET CLR Exceptions", NULL, "_Global_", 0,
               "# of Exceps Thrown", ""});
  check("\\Memory\\% Committed Bytes In Use",
        (want){NULL, "Memory", NULL, NULL, 0, "% Committed Bytes In Use", ""});
  check("\\Processor Information(0,1)\\% of Maximum Frequency (x)",
        (want){NULL, "Processor Information", NULL, "0,1", 0,
               "% of Maximum Frequency (x)", ""});
  check("\\Process(svchost#0)\\ID Process",
        (want){NULL, "Process", NULL, "svchost", 0, "ID Process", ""});
  check("\\Process(svc#host)\\ID Process",
        (want){NULL, "Process", NULL, "svc#host", 0, "ID Process", ""});
  check("\\Process(a#1#2)\\c",
        (want){NULL, "Process", NULL, "a#1", 2, "c", ""});
  check("\\Process(w3wp#)\\c",
        (want){NULL, "Process", NULL, "w3wp#", 0, "c", ""});
  check(
      "\\Network Interface(a/b/c)\\Bytes Total/sec",
      (want){NULL, "Network Interface", "a", "b/c", 0, "Bytes Total/sec", ""});
  check("\\Process(_Total)\\Pri*",
        (want){NULL, "Process", NULL, "_Total", 0, "Pri*", "w"});
  check("\\Processor(\xC3\x84)\\\xC3\x9C",
        (want){NULL, "Processor", NULL, "\xC3\x84", 0, "\xC3\x9C", ""});
  check("\\12a\\6b", (want){NULL, "12a", NULL, NULL, 0, "6b", ""});
  check("\\99999999999\\6",
        (want){NULL, "99999999999", NULL, NULL, 0, "6", "c"});
}

static void test_errors(void) {
  check_error("", 0, "starts with '\\'");
  check_error("Processor\\% Processor Time", 0, "starts with '\\'");
  check_error(" \\Processor\\X", 0, "starts with '\\'");
  check_error("\\Processor", 10, "counter name");
  check_error("\\", 1, "counter name");
  check_error("\\Processor\\", 11, "missing counter name after the last '\\'");
  check_error("\\Processor(_Total)\\", 19, "missing counter name");
  check_error("\\\\HOST", 6, "object");
  check_error("\\\\\\Processor\\X", 2, "empty machine name");
  check_error("\\\\HOST\\\\X", 7, "empty object name");
  check_error("\\\\X", 3, "object");
  check_error("\\(_Total)\\X", 1, "empty object name");
  check_error("\\\\X", 3, "object");
  check_error("\\\\H\\(i)\\X", 4, "empty object name");
  check_error("\\Processor(_Total\\X", 17, "unbalanced parenthesis");
  check_error("\\Processor_Total)\\X", 16, "unbalanced parenthesis");
  check_error("\\Processor)x(\\X", 10, "unbalanced parenthesis");
  check_error("\\Processor(_Total)x\\X", 18, "expected '\\'");
  check_error("\\Processor()\\X", 11, "empty instance name");
  check_error("\\Thread(/0)\\X", 8, "empty parent");
  check_error("\\Thread(explorer/)\\X", 17, "empty instance name");
  check_error("\\Process(#2)\\X", 9, "empty instance name");
  check_error("\\Thread(a/#2)\\X", 10, "empty instance name");
  check_error("\\Pro*\\X", 4, "wildcards are not allowed in the object");
  check_error("\\Process(a#4294967296)\\X", 11, "above 4294967295");
  pd_error err;
  IS_INT(pd_path_parse(NULL, NULL, &err), PD_E_ARGUMENT, "NULL arguments");
  pd_path_clear(NULL);
  OK(1, "pd_path_clear(NULL) is harmless");
}

static void test_index_bounds(void) {
  pd_path p;
  OK(pd_path_parse("\\Process(a#4294967295)\\c", &p, NULL) == PD_OK &&
         p.dup_index == 4294967295u,
     "#4294967295 is the largest index");
  pd_path_clear(&p);
  OK(pd_path_parse("\\4294967295\\4294967296", &p, NULL) == PD_OK &&
         p.object_is_index && !p.counter_is_index,
     "numeric object/counter must fit 32 bits");
  pd_path_clear(&p);
}

static void test_wildcard(void) {
  OK(pd_wildcard_match("*", ""), "* matches empty");
  OK(pd_wildcard_match("*", "anything/at all#3"), "* matches / and #");
  OK(pd_wildcard_match("", ""), "empty matches empty");
  OK(!pd_wildcard_match("", "x"), "empty does not match x");
  OK(pd_wildcard_match("w3wp*", "w3wp"), "w3wp* matches w3wp");
  OK(pd_wildcard_match("w3wp*", "W3WP#2"), "w3wp* matches W3WP#2");
  OK(!pd_wildcard_match("w3wp*", "xw3wp"), "w3wp* does not match xw3wp");
  OK(pd_wildcard_match("*host", "svchost"), "*host matches svchost");
  OK(!pd_wildcard_match("*host", "svchost#1"), "*host: not svchost#1");
  OK(pd_wildcard_match("s*c*t", "svchost"), "s*c*t matches svchost");
  OK(pd_wildcard_match("*a*b", "aaaabaab"), "*a*b backtracks");
  OK(!pd_wildcard_match("*a*b", "aaaabaa"), "*a*b rejects aaaabaa");
  OK(pd_wildcard_match("a**b", "ab"), "a**b matches ab");
  OK(pd_wildcard_match("% processor time", "% Processor Time"),
     "literal, case-insensitive");
  OK(!pd_wildcard_match("% processor time", "% Processor Time2"),
     "no implicit trailing *");
  OK(pd_wildcard_match("*/0", "explorer/0"), "*/0 matches explorer/0");
  OK(pd_wildcard_match("\xC3\xA4*", "\xC3\x84rger"), "folded non-ASCII");
  OK(pd_wildcard_match("?", "?") && !pd_wildcard_match("?", "a"),
     "? is literal");
  OK(!pd_wildcard_match(NULL, "a") && !pd_wildcard_match("a", NULL),
     "NULL never matches");
  /* Pathological for naive recursion: 40 stars against a long near miss. */
  char pat[128], txt[4096];
  size_t n = 0;
  for (int i = 0; i < 40; i++) {
    pat[n++] = '*';
    pat[n++] = 'a';
  }
  pat[n++] = 'b';
  pat[n] = '\0';
  memset(txt, 'a', sizeof txt - 1);
  txt[sizeof txt - 1] = '\0';
  OK(!pd_wildcard_match(pat, txt), "(*a)^40 b vs a^4095 fails (no blowup)");
  txt[sizeof txt - 2] = 'b';
  OK(pd_wildcard_match(pat, txt), "(*a)^40 b vs a^4094 b matches");
}

static void test_casecmp(void) {
  IS_INT(pd_name_casecmp("Processor", "PROCESSOR"), 0, "ASCII fold");
  IS_INT(pd_name_casecmp("_Total", "_total"), 0, "_Total");
  OK(pd_name_casecmp("a", "b") < 0, "a < b");
  OK(pd_name_casecmp("B", "a") > 0, "B > a (folded)");
  OK(pd_name_casecmp("abc", "ab") > 0, "longer is greater");
  OK(pd_name_casecmp("ab", "abc") < 0, "shorter is less");
  IS_INT(pd_name_casecmp("\xC3\x84rger", "\xC3\xA4RGER"), 0, "U+00C4/U+00E4");
  IS_INT(pd_name_casecmp("\xD0\x9F\xD0\xA0\xD0\x9E\xD0\xA6",
                         "\xD0\xBF\xD1\x80\xD0\xBE\xD1\x86"),
         0, "Cyrillic PROC/proc");
  IS_INT(
      pd_name_casecmp("\xCE\xA3\xCE\xA5\xCE\xA3", "\xCF\x83\xCF\x85\xCF\x82"),
      0, "Greek SYS/sys incl. final sigma");
  IS_INT(pd_name_casecmp("\xC5\x81\xC3\xB3"
                         "d\xC5\xBA",
                         "\xC5\x82\xC3\x93"
                         "D\xC5\xB9"),
         0, "Latin Extended-A");
  OK(pd_name_casecmp("\xC3\x84", "A") != 0, "no accent stripping");
  IS_INT(pd_name_casecmp("", ""), 0, "empty strings");
  OK(pd_name_casecmp(NULL, "a") < 0 && pd_name_casecmp("a", NULL) > 0 &&
         pd_name_casecmp(NULL, NULL) == 0,
     "NULL sorts first");
}

int main(void) {
  test_parse();
  test_errors();
  test_index_bounds();
  test_wildcard();
  test_casecmp();
  return tap_done();
}
