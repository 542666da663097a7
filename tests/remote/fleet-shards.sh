#!/bin/bash
# collectd-winperf: Shard "K/N", rendezvous hashing across pollers (issue
# "a fleet polled agentlessly without hurting it", 4).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# One real smbd (smbd-lib.sh), one inventory of 30 hosts (s01 .. s30, one
# address), three real collectd instances with Shard "1/3", "2/3" and
# "3/3", each writing to one real carbon under a prefix of its own
# (pollerK.HOST...). Every host's values must appear under exactly one
# poller, the one `winperf shard --hosts FILE --of 3` names. Then over 300
# names `winperf shard` for N = 3 and 4: at most 1/4 + 5 % of the hosts
# move, and only to the new shard.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=smbd-lib.sh disable=SC2154 # top_srcdir: lib.sh sets it
. "$top_srcdir/tests/remote/smbd-lib.sh"
# shellcheck source=fleet-lib.sh
. "$top_srcdir/tests/remote/fleet-lib.sh"

# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$(cd "$top_builddir" && pwd)/winperf-remote-helper
winperf=$top_builddir/winperf

smbd_e2e_start shards
e2e_start_carbon
cat >"$E2E_DIR/winperf.yaml" <<'EOF2'
- '\System\Processes'
EOF2
hosts=$(seq -f 's%02g' 1 30)
# shellcheck disable=SC2086
fleet_inventory "$E2E_DIR/hosts.yaml" "$SMBD_DIR/creds" $hosts
"$winperf" shard --hosts "$E2E_DIR/hosts.yaml" --of 3 >"$E2E_DIR/shards" ||
  e2e_bail "winperf shard --of 3"
e2e_is "$(wc -l <"$E2E_DIR/shards")" 30 "winperf shard: one line per host"

pids=
for k in 1 2 3; do
  cat >"$E2E_DIR/collectd-$k.conf" <<EOF2
Hostname "poller$k"
FQDNLookup false
BaseDir "$E2E_DIR"
PIDFile "$E2E_DIR/collectd-$k.pid"
PluginDir "$E2E_PLUGIN_DIR"
TypesDB "/usr/share/collectd/types.db"
Interval 2
ReadThreads 4
LoadPlugin logfile
<Plugin logfile>
  LogLevel "info"
  File "$E2E_DIR/collectd-$k.log"
</Plugin>
<LoadPlugin write_graphite>
  FlushInterval 1
</LoadPlugin>
<Plugin write_graphite>
  <Node "carbon">
    Host "127.0.0.1"
    Port "$CARBON_PORT"
    Protocol "tcp"
    Prefix "poller$k."
    EscapeCharacter "_"
  </Node>
</Plugin>
LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  SelfMetrics false
  Timeout 10
  Shard "$k/3"
  HostsFile "$E2E_DIR/hosts.yaml"
</Plugin>
EOF2
  e2e_spawn "$E2E_DIR/collectd-$k.stdout" /usr/sbin/collectd -f -C "$E2E_DIR/collectd-$k.conf"
  pids="$pids $E2E_LAST_PID"
done
W=$CARBON_DIR/whisper
T_START=$(date +%s)
# pollers_of HOST: the pollers whose carbon tree has HOST's Processes
pollers_of() {
  for k in 1 2 3; do
    [ -f "$W/poller$k/$1/winperf-System/gauge-Processes.wsp" ] && printf '%s ' "$k"
  done
}
all_seen() {
  for h in $hosts; do [ -n "$(pollers_of "$h")" ] || return 1; done
}
e2e_wait_for 90 all_seen
e2e_ok $? "every one of the 30 hosts reached carbon through some poller"
sleep 4 # more intervals: a host polled twice would show by now
wrong=
for h in $hosts; do
  want=$(awk -v h="$h" -F '\t' '$1 == h { print $2 }' "$E2E_DIR/shards")
  got=$(pollers_of "$h")
  [ "$got" = "$want " ] || wrong="$wrong $h:[$got]want:$want"
done
e2e_is "$wrong" "" "every host under exactly one poller, the one winperf shard names"
for k in 1 2 3; do
  n=$(awk -F '\t' -v k="$k" '$2 == k' "$E2E_DIR/shards" | wc -l)
  echo "poller $k: $n hosts" | e2e_diag
  grep -q "Shard $k/3: $n of the block's 30 enabled hosts are this poller's" "$E2E_DIR/collectd-$k.log"
  e2e_ok $? "poller $k logs its share ($n of 30)"
done
for p in $pids; do
  e2e_stop "$p" 10
  e2e_is "$E2E_STATUS" 0 "a poller exits 0 on TERM"
done

# 300 names, 3 then 4 pollers.
{
  printf 'hosts:\n'
  for i in $(seq 1 300); do printf '  - srv%03d.corp.example\n' "$i"; done
} >"$E2E_DIR/300.yaml"
"$winperf" shard --hosts "$E2E_DIR/300.yaml" --of 3 >"$E2E_DIR/of3"
"$winperf" shard --hosts "$E2E_DIR/300.yaml" --of 4 >"$E2E_DIR/of4"
moved=$(paste "$E2E_DIR/of3" "$E2E_DIR/of4" | awk -F '\t' '$2 != $4' | wc -l)
elsewhere=$(paste "$E2E_DIR/of3" "$E2E_DIR/of4" | awk -F '\t' '$2 != $4 && $4 != 4' | wc -l)
echo "3 -> 4 pollers: $moved of 300 hosts move" | e2e_diag
[ "$moved" -le 90 ] && [ "$moved" -ge 1 ]
e2e_ok $? "3 -> 4 pollers: $moved of 300 move (at most 1/4 + 5 %: 90)"
e2e_is "$elsewhere" 0 "a host moves only to the new poller"
e2e_done
