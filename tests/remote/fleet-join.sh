#!/bin/bash
# collectd-winperf: hosts added to an inventory join a shared helper with a
# free session, else a new one (issue "a fleet polled agentlessly without
# hurting it", 2: live reload with HostsPerHelper).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# A real smbd (smbd-lib.sh) and a real collectd, Interval 1, HostsPerHelper
# 3, one HostsFile, the csv writer recording every dispatch. The helpers
# counted are collectd's children running a private copy of the helper
# (as in collectd-hosts-shared.sh); a helper's sessions are its TCP
# connections to smbd (one libsmbclient context, one connection, each).
# The inventory is rewritten under collectd, no restart:
#   j1 j2          one helper (A) with 2 sessions
#   + j3           A's free session: still one helper, A has 3
#   + j4           A is full: a second helper (B) with 1
#   - j2           j2's session in A closes (A has 2), its values stop
#                  after at most one more read while j1, j3 (its
#                  helper-mates) and j4 go on
#   + j5           A's session freed by j2: still two helpers, A has 3
# Every present host's values (Processes 42, perfmon_tdb.py's sample 1)
# arrive.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=smbd-lib.sh disable=SC2154 # top_srcdir: lib.sh sets it
. "$top_srcdir/tests/remote/smbd-lib.sh"
# shellcheck source=fleet-lib.sh
. "$top_srcdir/tests/remote/fleet-lib.sh"
need pgrep ps ss

# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$top_builddir/winperf-remote-helper
export PERFMON_THREADS=0 # \System only: a cheaper sample (fleet-faults.sh)

smbd_e2e_start join
e2e_plugin_dir logfile csv
# The helpers counted below are this test's: a copy of its own (make check
# -j runs other remote tests beside it on the build's helper).
cp "$helper" "$E2E_DIR/winperf-remote-helper" || e2e_bail "a copy of $helper"
helper=$E2E_DIR/winperf-remote-helper

cat >"$E2E_DIR/winperf.yaml" <<'EOF'
- '\System\Processes'
EOF
HOSTS=$E2E_DIR/hosts.yaml
fleet_inventory "$HOSTS" "$SMBD_DIR/creds" j1 j2
cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_globals join-collectd 1)
ReadThreads 4
$(fleet_conf_csv)
LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  SelfMetrics false
  HostsPerHelper 3
  Timeout 5
  HostsFile "$HOSTS"
</Plugin>
EOF

# collectd's helpers, pids ascending (their start order).
helpers() {
  pgrep -f "^$helper --sessions 3" | while read -r p; do
    [ "$(ps -o ppid= -p "$p" | tr -d ' ')" = "$COLLECTD_PID" ] && echo "$p"
  done | sort -n | tr '\n' ' ' | sed 's/ $//'
}
helper_count() { helpers | wc -w; }
# sessions PID: the helper's established connections to smbd.
sessions() {
  ss -Htnp state established "dport = :$SMBD_PORT" | grep -c "pid=$1,"
}
# dispatches HOST: the csv lines of its Processes (one a read).
dispatches() { fleet_csv_lines "$1"; }
has_42() { fleet_csv_has "$1" 42; }
# reloaded ADDED REMOVED TOTAL: the reload's log line.
reloads=0
reloaded() {
  [ "$(grep -c 'HostsFile reloaded: ' "$E2E_DIR/collectd.log")" -gt "$reloads" ] || return 1
  grep 'HostsFile reloaded: ' "$E2E_DIR/collectd.log" | tail -1 |
    grep -q "reloaded: $3 hosts for this poller (.* $1 added, $2 removed)"
}
change() { # change ADDED REMOVED TOTAL HOST...: rewrite, wait for the reload
  local a=$1 r=$2 t=$3
  shift 3
  fleet_inventory "$HOSTS" "$SMBD_DIR/creds" "$@"
  e2e_wait_for 20 reloaded "$a" "$r" "$t"
  e2e_ok $? "inventory now $*: reloaded ($a added, $r removed)"
  reloads=$((reloads + 1))
}

smbd_collectd_start
e2e_wait_for 40 has_42 j1 && e2e_wait_for 20 has_42 j2
e2e_ok $? "j1, j2: Processes 42 in the csv"
e2e_wait_for 10 test "$(sessions "$(helpers)")" = 2
e2e_is "$(helper_count)" 1 "2 hosts, HostsPerHelper 3: one helper"
A=$(helpers)
e2e_is "$(sessions "$A")" 2 "helper A ($A): 2 sessions (j1, j2)"

change 1 0 3 j1 j2 j3
e2e_wait_for 20 has_42 j3
e2e_ok $? "j3 (added): its values arrive"
e2e_wait_for 10 test "$(sessions "$A")" = 3
e2e_is "$(helpers)" "$A" "j3 joined helper A (a free session): still one helper"
e2e_is "$(sessions "$A")" 3 "helper A: 3 sessions"

change 1 0 4 j1 j2 j3 j4
e2e_wait_for 20 has_42 j4
e2e_ok $? "j4 (added): its values arrive"
e2e_wait_for 10 test "$(helper_count)" = 2
# shellcheck disable=SC2046 # the pids, one word each
set -- $(helpers)
e2e_is "$1 $#" "$A 2" "A full: j4 started a second helper (A $A, then ${2:-none})"
B=${2:-none}
e2e_is "$(sessions "$A") $(sessions "$B")" "3 1" "sessions: A 3, B 1 (j4)"

change 0 1 3 j1 j3 j4
gone=$(dispatches j2)
mates="$(dispatches j1) $(dispatches j3) $(dispatches j4)"
e2e_wait_for 10 test "$(sessions "$A")" = 2
e2e_is "$(sessions "$A")" 2 "j2 (removed): its session in helper A closed"
# Three more reads of each host that stays: j2's would have come by now.
three_more() {
  # shellcheck disable=SC2086 # three counts
  set -- $mates
  [ "$(dispatches j1)" -ge $(($1 + 3)) ] && [ "$(dispatches j3)" -ge $(($2 + 3)) ] &&
    [ "$(dispatches j4)" -ge $(($3 + 3)) ]
}
e2e_wait_for 20 three_more
e2e_ok $? "j1, j3 (j2's helper-mates) and j4 dispatch on (before: $mates; now: $(dispatches j1) $(dispatches j3) $(dispatches j4))"
after=$(dispatches j2)
[ "$after" -le $((gone + 1)) ]
e2e_ok $? "j2: at most one read after the reload ($gone dispatches then, $after after 3 more of the others')"
e2e_is "$(helpers)" "$A $B" "still helpers A and B"

change 1 0 4 j1 j3 j4 j5
e2e_wait_for 20 has_42 j5
e2e_ok $? "j5 (added): its values arrive"
e2e_wait_for 10 test "$(sessions "$A")" = 3
e2e_is "$(helpers)" "$A $B" "j5 joined a running helper: still A and B"
e2e_is "$(sessions "$A") $(sessions "$B")" "3 1" "j5 took the session j2 freed in A (A 3, B 1)"
[ "$(dispatches j2)" = "$after" ]
e2e_ok $? "j2: no read since ($after dispatches)"

e2e_is "$(grep -c -E '\[(error|warning)\]' "$E2E_DIR/collectd.log")" 0 \
  "no error or warning logged"
e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd running"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
e2e_is "$(pgrep -fc "^$helper")" 0 "no helper left"
e2e_done
