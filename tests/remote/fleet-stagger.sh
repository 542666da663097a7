#!/bin/bash
# collectd-winperf: a fleet's first reads spread over the first interval by
# host hash (issue "a fleet polled agentlessly without hurting it", 7).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# A real smbd (smbd-lib.sh) and a real collectd with ReadThreads 1 (so its
# reads run one after the other, in the order they are due) and eight
# inventory hosts with an interval of 8 s, listed in the reverse of their
# offsets' order. Each host's offset, floor(XXH64(lowercase(name), seed 0)
# x interval / 2^64) (doc/sizing.md), is computed here with python3-xxhash;
# the time of each host's first read is the first self-metric the csv
# writer records for it (count-errors, dispatched at the end of every
# read). Expected: the first reads come in the order of the offsets, not in
# the inventory's (hosts due within one fleet tick too), and every host's
# values arrive. No assertion on how long anything takes.
#
# The hosts' interval (8 s), timeouts, user, domain and encryption are
# host defaults given in <Plugin winperf> (issue 22, 1; its port, a closed
# one, and password file, the wrong one, lose to the inventory's
# defaults), and the same block replays a capture of
# its own (tests/e2e/e2e_capture.c's "self", its well-formed blobs 0-2:
# \System\Processes 100, 101, 102) as host "replay": none of those
# defaults may touch the block's own source. collectd's Interval is 1, so
# the replay reads every second: expected, its first value before the
# first host's first read (no offset by host hash, no credential turn, no
# connect place under MaxConcurrentConnects 1), at least 3 of its values
# between the first host's first read and the last one's (the offsets
# above put those about 7 s apart: 1 s reads give about 7, 8 s reads at
# most 1), its own values (100-102: the capture, not the hosts' 42), and
# no helper for it (helpers = hosts).
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=smbd-lib.sh disable=SC2154 # top_srcdir: lib.sh sets it
. "$top_srcdir/tests/remote/smbd-lib.sh"
# shellcheck source=fleet-lib.sh
. "$top_srcdir/tests/remote/fleet-lib.sh"
need python3 pgrep ps

# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$top_builddir/winperf-remote-helper
export PERFMON_THREADS=0 # \System only: a cheaper sample (fleet-faults.sh)
IV=8

smbd_e2e_start stagger
cp "$helper" "$E2E_DIR/winperf-remote-helper" || e2e_bail "a copy of the helper"
helper=$E2E_DIR/winperf-remote-helper # its processes are this test's
/usr/bin/python3 -c 'import xxhash' 2>/dev/null || e2e_bail "python3-xxhash installed"
e2e_plugin_dir logfile csv
GEN=$top_builddir/tests/e2e/e2e_capture
[ -x "$GEN" ] || e2e_bail "capture generator $GEN built"
"$GEN" self "$E2E_DIR/capture" || e2e_bail "generate the capture"
rm -f "$E2E_DIR"/capture/*3.blob "$E2E_DIR"/capture/*4.blob "$E2E_DIR"/capture/*5.blob
[ "$(find "$E2E_DIR/capture" -name '*.blob' | wc -l)" = 3 ] ||
  e2e_bail "the capture's blobs 0-2 alone"

# NAME OFFSET lines, the earliest first (offsets in 2^-30 s, as collectd's
# cdtime_t).
/usr/bin/python3 -c 'import sys, xxhash
iv = int(sys.argv[1]) << 30
for n in sys.argv[2:]:
    print(n, xxhash.xxh64_intdigest(n.lower().encode()) * iv >> 64)' \
  "$IV" St-A St-B St-C St-D St-E St-F St-G St-H | sort -k2,2n >"$E2E_DIR/offsets"
awk '{ printf "%s at %.3f s\n", $1, $2 / 2^30 }' "$E2E_DIR/offsets" | e2e_diag
by_offset=$(cut -d' ' -f1 "$E2E_DIR/offsets" | tr '\n' ' ')
# shellcheck disable=SC2046 # the names, one word each
fleet_inventory "$E2E_DIR/hosts.yaml" "$SMBD_DIR/creds" $(cut -d' ' -f1 "$E2E_DIR/offsets" | tac)
listed=$(sed -n 's/^  - //p' "$E2E_DIR/hosts.yaml" | tr '\n' ' ')
[ "$listed" != "$by_offset" ]
e2e_ok $? "the inventory lists the hosts in another order than their offsets' ($listed)"

cat >"$E2E_DIR/winperf.yaml" <<'EOF'
- '\System\Processes'
EOF
cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_globals stagger-collectd 1)
ReadThreads 1
$(fleet_conf_csv)
LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  Interval $IV
  Timeout 5
  ConnectTimeout 4
  QueryTimeout 6
  User "$SMBD_USER"
  Domain "WPTEST"
  Encrypt false
  Port $(e2e_free_port tcp)
  PasswordFile "$SMBD_DIR/badcreds"
  MaxConcurrentConnects 1
  HostsFile "$E2E_DIR/hosts.yaml"
  Replay "$E2E_DIR/capture"
  ReplayLoop true
  Host "replay"
</Plugin>
EOF

first_read() { fleet_csv_first "$1" winperf-self/count-errors; }
all_read() {
  for h in $by_offset; do [ -n "$(first_read "$h")" ] || return 1; done
}
smbd_collectd_start
e2e_wait_for 60 all_read
e2e_ok $? "every host read at least once"
order=$(for h in $by_offset; do echo "$(first_read "$h") $h"; done)
echo "$order" | e2e_diag
# In the offsets' order, the first reads' times never go back (equal
# times, to the csv's millisecond, would be no inversion).
echo "$order" | awk 'NR > 1 && $1 < t { bad = 1 } { t = $1 } END { exit bad }'
e2e_ok $? "the first reads come in the order of the hosts' offsets ($by_offset)"

# The block's Interval reached the hosts: their first reads spread over
# it (the offsets put the first and last apart by more than 2 s; at
# collectd's Interval 1 all would come within 2 s).
t_first=$(echo "$order" | head -1 | cut -d' ' -f1)
t_last=$(echo "$order" | tail -1 | cut -d' ' -f1)
spread=$(awk 'NR == 1 { a = $2 } { b = $2 } END { printf "%.3f", (b - a) / 2^30 }' "$E2E_DIR/offsets")
awk -v s="$spread" -v a="$t_first" -v b="$t_last" 'BEGIN { exit !(s > 2 && b - a > 2) }'
e2e_ok $? "the hosts' first reads spread over the block's Interval $IV ($t_first .. $t_last; offsets $spread s apart)"
# The block's own replay beside them.
r_first=$(fleet_csv_first replay)
awk -v r="$r_first" -v t="$t_first" 'BEGIN { exit !(r != "" && r < t) }'
e2e_ok $? "the replay's first value ($r_first) comes before the first host's first read ($t_first)"
between=$(_fleet_csv replay | awk -F, -v a="$t_first" -v b="$t_last" '$1 > a && $1 < b' | grep -c .)
[ "$between" -ge 3 ]
e2e_ok $? "the replay reads at collectd's interval, not the block's Interval $IV: $between values between the hosts' first and last first reads"
e2e_is "$(_fleet_csv replay | awk -F, '{ printf "%g\n", $2 }' | sort -un | tr '\n' ' ')" "100 101 102 " \
  "the replay's values are its capture's"
e2e_is "$(pgrep -fc "^$helper")" 8 "one helper a host, none for the replay"
want="--port $SMBD_PORT --user $SMBD_USER --domain WPTEST --credentials $SMBD_DIR/creds --connect-timeout 4000 --query-timeout 6000"
e2e_is "$(pgrep -f "^$helper" | while read -r p; do ps -o args= -p "$p"; done | grep -cF -- "$want")" 8 \
  "every host's helper: the block's user, domain and timeouts, the inventory's port and password file"

missing=
for h in $by_offset; do e2e_wait_for 20 fleet_csv_has "$h" 42 || missing="$missing $h"; done
e2e_is "$missing" "" "every host's Processes (42) in the csv"
e2e_is "$(grep -c -E '\[(error|warning)\]' "$E2E_DIR/collectd.log")" 0 \
  "no error or warning logged"
e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd running"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
e2e_done
