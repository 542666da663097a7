/* collectd-winperf: the shard hash, a frozen interface (src/config/shard.h).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The five test vectors of doc/sizing.md ("Shards"), computed with an
 * independent XXH64 (python3-xxhash): every poller version must give these
 * weights. Then what rendezvous hashing promises over 300 names: each of
 * N shards gets a share, and going from 3 to 4 moves only hosts to the new
 * shard, about a quarter of them.
 */
#include "shard.h"
#include "tap.h"

#include <stdint.h>

int main(void) {
  /* doc/sizing.md, Shards: test vectors */
  tap_ok(wp_xxh64("", 0, 0) == 0xef46db3751d8e999ULL,
         "vector 1: XXH64(\"\", seed 0) = ef46db3751d8e999");
  tap_ok(wp_shard_weight("web01.corp.example", 1) == 0xf2410e4ba630703bULL,
         "vector 2: weight(web01.corp.example, 1) = f2410e4ba630703b");
  tap_ok(wp_shard_weight("SQL01", 2) == 0x421070478598ebf3ULL,
         "vector 3: weight(SQL01, 2) = 421070478598ebf3 (lowercased: sql01)");
  tap_ok(wp_shard_weight("a-rather-long-host-name-over-32-bytes.corp.example",
                         3) == 0x78011c40c98cb6faULL,
         "vector 4: weight of a 50-byte name for shard 3 = 78011c40c98cb6fa "
         "(the 32-byte stripes)");
  tap_ok(wp_shard_weight("old01", 10) == 0x93c2546ea8f7a915ULL,
         "vector 5: weight(old01, 10) = 93c2546ea8f7a915");
  tap_ok(wp_shard_weight("Web01.CORP.example", 1) ==
             wp_shard_weight("web01.corp.example", 1),
         "names compare case-insensitively");
  tap_ok(wp_shard_of("old01", 3) == 3 && wp_shard_of("h001", 4) == 4 &&
             wp_shard_of("h001", 3) == 2 && wp_shard_of("web01", 1) == 1,
         "shards of old01 (3 of 3), h001 (2 of 3, 4 of 4)");

  unsigned count[5] = {0}, moved = 0, moved_elsewhere = 0;
  char name[32];
  for (int i = 1; i <= 300; i++) {
    snprintf(name, sizeof name, "host%03d.corp.example", i);
    unsigned a = wp_shard_of(name, 3), b = wp_shard_of(name, 4);
    count[a]++;
    if (a != b) {
      moved++;
      if (b != 4)
        moved_elsewhere++;
    }
  }
  tap_ok(count[1] >= 70 && count[2] >= 70 && count[3] >= 70,
         "300 names over 3 shards: %u, %u, %u", count[1], count[2], count[3]);
  tap_ok(moved_elsewhere == 0, "3 -> 4 shards: a host moves only to shard 4");
  tap_ok(moved * 100 <= 300 * 30,
         "3 -> 4 shards: %u of 300 move (<= 1/4 + 5 %%)", moved);

  unsigned k = 0, n = 0;
  tap_ok(wp_shard_parse("2/3", &k, &n) == 0 && k == 2 && n == 3, "\"2/3\"");
  tap_ok(wp_shard_parse("0/3", &k, &n) != 0 &&
             wp_shard_parse("4/3", &k, &n) != 0 &&
             wp_shard_parse("1/", &k, &n) != 0 &&
             wp_shard_parse("1/2x", &k, &n) != 0 &&
             wp_shard_parse(" 1/2", &k, &n) != 0,
         "0/3, 4/3, 1/, 1/2x and \" 1/2\" are refused");
  return tap_done();
}
