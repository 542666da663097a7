/* collectd-winperf: a fleet's first reads spread over the first interval
 * (wp_first_read_offset, src/config/shard.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The documented offset (doc/sizing.md, "A fleet in one file") is
 * floor(XXH64(lowercase(name), seed 0) x interval / 2^64). The vectors
 * below were computed with an independent XXH64 (python3-xxhash) and
 * Python's integers, for intervals of 10 and 60 s in collectd's unit
 * (2^-30 s). Then what the spread promises: 10,000 names fall evenly over
 * [0, interval), and a host's offset is its own whatever other hosts are.
 */
#include "shard.h"
#include "tap.h"

#include <stdint.h>
#include <stdio.h>

#define S(x) ((uint64_t)(x) << 30) /* seconds in collectd's cdtime_t */
#define NAMES 10000

static void name_of(char *buf, size_t size, int i) {
  snprintf(buf, size, "host%05d.corp.example", i);
}

int main(void) {
  static const struct {
    const char *name;
    uint64_t at10, at60;
  } v[] = {
      {"web01.corp.example", 10345314542ULL, 62071887254ULL},
      {"SQL01", 7294413963ULL, 43766483782ULL},
      {"a-rather-long-host-name-over-32-bytes.corp.example", 5130321257ULL,
       30781927545ULL},
      {"old01", 1089390846ULL, 6536345078ULL},
      {"ok001", 5848605553ULL, 35091633318ULL},
  };
  for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
    uint64_t a = wp_first_read_offset(v[i].name, S(10));
    uint64_t b = wp_first_read_offset(v[i].name, S(60));
    tap_ok(a == v[i].at10 && b == v[i].at60,
           "%s: offset %.3f s of 10 s, %.3f s of 60 s (python3-xxhash: "
           "%llu, %llu)",
           v[i].name, (double)a / S(1), (double)b / S(1),
           (unsigned long long)v[i].at10, (unsigned long long)v[i].at60);
  }
  tap_ok(wp_first_read_offset("sql01", S(10)) ==
             wp_first_read_offset("SQL01", S(10)),
         "names compare case-insensitively (SQL01 = sql01)");
  /* interval 2^64 - 1: floor(h - h / 2^64) = h - 1, every carry of the
   * 64 x 64-bit product counts */
  tap_ok(wp_first_read_offset("web01.corp.example", UINT64_MAX) ==
             0xf6a6c9f8f8700301ULL - 1,
         "the whole 64-bit range: XXH64(web01.corp.example) - 1");
  tap_ok(wp_first_read_offset("web01.corp.example", 0) == 0 &&
             wp_first_read_offset("web01.corp.example", 1) == 0,
         "intervals 0 and 1: offset 0");

  /* 10,000 names over 10 s: each second gets its share, the offsets
   * reach both ends, none reaches the interval */
  static uint64_t first[NAMES];
  unsigned per_second[10] = {0};
  uint64_t lo = UINT64_MAX, hi = 0;
  int outside = 0;
  char name[40];
  for (int i = 0; i < NAMES; i++) {
    name_of(name, sizeof(name), i);
    uint64_t o = wp_first_read_offset(name, S(10));
    first[i] = o;
    if (o >= S(10)) {
      outside++;
      continue;
    }
    per_second[o / S(1)]++;
    lo = o < lo ? o : lo;
    hi = o > hi ? o : hi;
  }
  tap_ok(outside == 0, "10,000 names: every offset in [0, 10 s)");
  unsigned least = NAMES, most = 0;
  for (int s = 0; s < 10; s++) {
    least = per_second[s] < least ? per_second[s] : least;
    most = per_second[s] > most ? per_second[s] : most;
  }
  tap_ok(least >= 900 && most <= 1100,
         "10,000 names: each second of the 10 s interval gets 900-1,100 "
         "first reads (%u-%u; python3-xxhash: 958-1,078)",
         least, most);
  tap_ok(lo < S(1) / 100 && hi > S(10) - S(1) / 100,
         "the spread covers the interval: first %.4f s, last %.4f s",
         (double)lo / S(1), (double)hi / S(1));

  /* a host's offset is a function of its name and interval: the first 100
   * hosts again, alone, after 9,900 others, and in reverse order */
  int moved = 0;
  for (int i = 99; i >= 0; i--) {
    name_of(name, sizeof(name), i);
    moved += wp_first_read_offset(name, S(10)) != first[i];
  }
  tap_ok(moved == 0, "100 hosts keep their offsets beside 9,900 others");
  /* and it scales with the interval (the same fraction of it) */
  name_of(name, sizeof(name), 7);
  uint64_t o10 = wp_first_read_offset(name, S(10));
  uint64_t o60 = wp_first_read_offset(name, S(60));
  tap_ok(o60 / 6 - o10 <= 1 || o10 - o60 / 6 <= 1,
         "host00007: the same share of 10 s and of 60 s (%.4f, %.4f s)",
         (double)o10 / S(1), (double)o60 / S(1));

  /* the shard weights, which share the lowercased key, are unchanged */
  tap_ok(wp_shard_weight("SQL01", 2) == 0x421070478598ebf3ULL,
         "the shard weight of SQL01 for 2 is still 421070478598ebf3");
  return tap_done();
}
