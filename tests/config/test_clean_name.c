/* collectd-winperf tests: the "clean" metric-name profile.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Every expectation is written by hand from the five rules in
 * clean_name.h; the first nine are the documented examples. */
#include "clean_name.h"
#include "tap.h"

static const struct {
  const char *pdh, *clean;
} cases[] = {
    /* the examples of doc/collectd-winperf.5 */
    {"% Processor Time", "pct_processor_time"},
    {"Avg. Disk sec/Read", "avg_disk_sec_read"},
    {"Bytes Received/sec", "bytes_received_per_sec"},
    {"_Total", "_total"},
    {"C:", "c"},
    {"svchost#1", "svchost_1"},
    {"Intel(R) Ethernet Connection (7) I219-V",
     "intel_r_ethernet_connection_7_i219_v"},
    {"\xc3\x86r\xc3\xb8sk\xc3\xb8"
     "bing",
     "aeroskobing"}, /* Ærøskøbing */
    {"% anv\xc3\xa4nda dedikerade byte", "pct_anvanda_dedikerade_byte"},
    /* more */
    {"_Global_", "_global"},
    {"__x__", "_x"},
    {"", "_"},
    {"%", "pct"},
    {"///", "_"},
    {"Stra\xc3\x9f"
     "e",
     "strasse"}, /* ß */
    {"Caf\xc3\xa9 cr\xc3\xa8"
     "me",
     "cafe_creme"}, /* é è */
    {"Fran\xc3\xa7ois Nu\xc3\xb1"
     "ez",
     "francois_nunez"}, /* ç ñ */
    {"\xc5\x81\xc3\xb3"
     "d\xc5\xba",
     "lodz"},                                   /* Łódź */
    {"\xc5\x92uvre \xc3\x97 2", "oeuvre_2"},    /* Œ, × removed */
    {"\xc4\xb0stanbul \xc4\x9e", "istanbul_g"}, /* İ, Ğ */
    {"\xe6\x97\xa5\xe6\x9c\xac w3wp", "w3wp"},  /* CJK removed */
    {"\xce\xa3\xcf\x85\xcf\x83", "_"},          /* Greek only: removed, empty */
    {"bad \xff\xfe byte", "bad_byte"},          /* invalid UTF-8 removed */
    {"Pages/sec/sec", "pages_sec_per_sec"},
    {"/sec", "per_sec"},
    {"Disk Reads/Sec", "disk_reads_per_sec"},
    {"secs/second", "secs_second"},
    {"w3wp:4242", "w3wp_4242"},
    {"svchost/0#2", "svchost_0_2"},
    {"  spaced  out  ", "spaced_out"},
    {"\xc3\xbf\xc5\xbf", "ys"}, /* ÿ, long s */
    /* the Latin-1 Supplement's letters before U+00C0: ª µ º */
    {"Latency (\xc2\xb5s)", "latency_us"},
    {"N\xc2\xba 1\xc2\xaa", "no_1a"},
    {"m\xc2\xb2 \xc2\xa9 \xc2\xbd", "m"}, /* ², ©, ½: not letters */
    {"Processor Information", "processor_information"},
    {"0,_Total", "0_total"},
    {"ID Process", "id_process"},
    {"Pages/sec", "pages_per_sec"},
    {"% Idle Time", "pct_idle_time"},
    {"Disk Write Bytes/sec", "disk_write_bytes_per_sec"},
    {"Avg. Disk Queue Length", "avg_disk_queue_length"},
    {"# of Exceps Thrown / sec",
     "of_exceps_thrown_sec"}, /* "/ sec" is not "/sec" */
    {"HarddiskVolume1", "harddiskvolume1"},
    {"Idle", "idle"},
    {"_", "_"},
    {"\xc4\xb2ssel \xc4\x90\xc3\xb0", "ijssel_dd"}, /* Ĳ, Đ, ð */
    {"\xc3\x9e\xc3\xb3r \xc3\x85s", "thor_as"},     /* Þ, ó, Å */
};

int main(void) {
  char out[128];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    wp_name_clean(out, sizeof out, cases[i].pdh);
    IS_STR(out, cases[i].clean, "clean(\"%s\")", cases[i].pdh);
  }
  /* Cut to fit, never past the buffer. */
  char small[6];
  wp_name_clean(small, sizeof small, "% Processor Time");
  IS_STR(small, "pct_p", "cut to 5 bytes and the NUL");
  char cut[4];
  wp_name_clean(cut, sizeof cut, "ab cd");
  IS_STR(cut, "ab", "cut: no '_' without the character after it");
  char one[1] = {'x'};
  wp_name_clean(one, sizeof one, "abc");
  IS_STR(one, "", "size 1: just the NUL");
  /* A long name does not overflow the working buffer. */
  char longname[3000], big[2048];
  memset(longname, '%', sizeof longname - 1);
  longname[sizeof longname - 1] = '\0';
  wp_name_clean(big, sizeof big, longname);
  OK(strncmp(big, "pct_pct_pct", 11) == 0 && strlen(big) < sizeof big,
     "3,000 '%%' signs: cut, no overflow (%zu bytes)", strlen(big));
  return tap_done();
}
