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
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=smbd-lib.sh disable=SC2154 # top_srcdir: lib.sh sets it
. "$top_srcdir/tests/remote/smbd-lib.sh"
# shellcheck source=fleet-lib.sh
. "$top_srcdir/tests/remote/fleet-lib.sh"
need python3

# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$top_builddir/winperf-remote-helper
export PERFMON_THREADS=0 # \System only: a cheaper sample (fleet-faults.sh)
IV=8

smbd_e2e_start stagger
/usr/bin/python3 -c 'import xxhash' 2>/dev/null || e2e_bail "python3-xxhash installed"
e2e_plugin_dir logfile csv

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
sed -i "s/^defaults:$/defaults:\n  interval: $IV/" "$E2E_DIR/hosts.yaml"
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
  Timeout 5
  HostsFile "$E2E_DIR/hosts.yaml"
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
