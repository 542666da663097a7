/* collectd-winperf: which poller of N polls a host (Shard "K/N"), and
 * when in its first interval a host is first read.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Rendezvous (highest random weight) hashing: the weight of a host for
 * shard k is XXH64 (seed 0) of lowercase(name), one NUL byte and k in
 * decimal ASCII ("web01\0" "3"); the shard with the highest weight polls
 * it, the lowest k on a tie. Going from N to N+1 pollers moves only the
 * hosts the new shard wins (about 1/(N+1) of them), never one between two
 * old shards.
 *
 * This is a frozen interface: pollers of different versions must agree on
 * every host, so neither the hash, nor its seed, nor the key's bytes may
 * ever change (doc/sizing.md gives test vectors, tests/config checks
 * them). Lowercasing is ASCII only (A-Z); other bytes are kept as they
 * are. It is not the project's general byte hash (pd_hash_bytes), which
 * may change between versions.
 *
 * A fleet's start is spread by the same hash of the lowercased name alone
 * (no NUL, no k): a host's first read comes floor(XXH64(lowercase(name),
 * seed 0) x interval / 2^64) after the fleet's start, the hash taken as a
 * fraction of the interval. It depends on the name and the interval only,
 * so hosts added or removed never move another host's offset. This one is
 * not frozen (pollers need not agree on it), but doc/sizing.md documents
 * it and tests/config checks it against an independent XXH64.
 */
#ifndef WP_CONFIG_SHARD_H
#define WP_CONFIG_SHARD_H

#include <stddef.h>
#include <stdint.h>

/* The most shards (N of "K/N"). */
#define WP_SHARD_MAX 1000000u

/* XXH64 of len bytes with that seed (the xxHash specification). */
uint64_t wp_xxh64(const void *data, size_t len, uint64_t seed);

/* The weight of host `name` for shard k (1 <= k). */
uint64_t wp_shard_weight(const char *name, unsigned k);

/* The shard (1..n) that polls `name`; n >= 1. */
unsigned wp_shard_of(const char *name, unsigned n);

/* The offset of host `name`'s first read in [0, interval), in the unit of
 * `interval` (0 when interval is 0). */
uint64_t wp_first_read_offset(const char *name, uint64_t interval);

/* "K/N" into *k and *n (1 <= K <= N <= WP_SHARD_MAX, decimal, nothing
 * else). 0, or -1. */
int wp_shard_parse(const char *text, unsigned *k, unsigned *n);

#endif
