#!/bin/bash
# collectd-winperf: MaxConcurrentConnects caps the connection attempts in
# flight (issue "a fleet polled agentlessly without hurting it", 7).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# A real smbd (smbd-lib.sh) behind two relays (tests/remote/relay.py) that
# accept a connection, hold it DELAY (2) s before they connect it to smbd,
# and write when each connection came and when it was passed on: the
# server's side of a slow first connect. A real collectd (Interval 1,
# ReadThreads 16, HostsPerHelper 1) with two <Plugin winperf> blocks, each
# host with a password file of its own (a credential of its own: no host
# waits for another's first logon):
#   capped   MaxConcurrentConnects 2, 6 inventory hosts via relay A
#   control  the default cap (32), 4 inventory hosts via relay B
# Expected, from the configuration alone: at no moment does relay A hold
# more than 2 connections not yet passed on (a host takes its place before
# its helper starts and gives it back once its first read is over, after
# its connection was passed on); relay B, whose 4 hosts all start in the
# fleet's first looks (Interval 1), holds more than 2 at once: the relay
# sees it when the cap allows it. Each host connects once (a host over the
# cap skips its interval before its helper starts), every host samples
# (Processes 42 in the csv), and nothing is logged as an error or warning.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=smbd-lib.sh disable=SC2154 # top_srcdir: lib.sh sets it
. "$top_srcdir/tests/remote/smbd-lib.sh"
# shellcheck source=fleet-lib.sh
. "$top_srcdir/tests/remote/fleet-lib.sh"
need python3 pgrep

# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$top_builddir/winperf-remote-helper
winperf=$top_builddir/winperf
export PERFMON_THREADS=0 # \System only: a cheaper sample (fleet-faults.sh)
DELAY=2
CAP=2
CAPPED="cA1 cA2 cA3 cA4 cA5"
CONTROL="cB1 cB2 cB3"

smbd_e2e_start connects
cp "$helper" "$E2E_DIR/winperf-remote-helper" || e2e_bail "a copy of the helper"
helper=$E2E_DIR/winperf-remote-helper # its processes are this test's
e2e_plugin_dir logfile csv

listening() { [ -n "$(ss -Hltn "sport = :$1")" ]; }
relay() { # relay NAME: sets RELAY_PORT; its log is $E2E_DIR/NAME.events
  RELAY_PORT=$(e2e_free_port tcp)
  e2e_spawn "$E2E_DIR/$1.out" /usr/bin/python3 "$top_srcdir/tests/remote/relay.py" \
    "$RELAY_PORT" "$SMBD_PORT" --pass-delay "$DELAY" --log "$E2E_DIR/$1.events"
  # listening, seen with ss: a test connection would be one more to count
  e2e_wait_for 10 listening "$RELAY_PORT" || e2e_bail "relay $1 listens on $RELAY_PORT"
}
relay a
PORT_A=$RELAY_PORT
relay b
PORT_B=$RELAY_PORT

inventory() { # inventory FILE PORT NAME...: each host its own password file
  local file=$1 port=$2 h
  shift 2
  {
    printf 'defaults:\n  address: 127.0.0.1\n  port: %s\nhosts:\n' "$port"
    for h in "$@"; do
      cp "$SMBD_DIR/creds" "$E2E_DIR/creds-$h"
      printf '  - name: %s\n    password_file: %s\n' "$h" "$E2E_DIR/creds-$h"
    done
  } >"$file"
}
# shellcheck disable=SC2086 # the names, one word each
inventory "$E2E_DIR/capped.yaml" "$PORT_A" $CAPPED
# shellcheck disable=SC2086
inventory "$E2E_DIR/control.yaml" "$PORT_B" $CONTROL
cat >"$E2E_DIR/winperf.yaml" <<'EOF'
- '\System\Processes'
EOF
cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_globals connects-collectd 1)
ReadThreads 16
$(fleet_conf_csv)
LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  Timeout 10
  MaxConcurrentConnects $CAP
  HostsFile "$E2E_DIR/capped.yaml"
</Plugin>
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  Timeout 10
  HostsFile "$E2E_DIR/control.yaml"
</Plugin>
EOF

# One query first, straight to smbd: a fresh smbd starts samba-dcerpcd
# (its winreg server) at the first pipe open, and first connections that
# come at once while it starts may wait for their whole timeout (here 10
# hosts at once with no relay delay: 5 timed out after 15 s, then all
# read). The test is of the cap, not of Samba's start.
"$winperf" doctor --remote 127.0.0.1 --port "$SMBD_PORT" --helper "$helper" --timeout 20 \
  --credentials "$SMBD_DIR/creds" '\System\Processes' >"$E2E_DIR/warm.out" 2>&1 ||
  e2e_bail "winperf doctor straight to smbd ($(tail -1 "$E2E_DIR/warm.out"))"

sampled() { # sampled NAME...: every one's Processes (42) in the csv
  local h
  for h in "$@"; do fleet_csv_has "$h" 42 || return 1; done
}
smbd_collectd_start
# shellcheck disable=SC2086
e2e_wait_for 60 sampled $CAPPED $CONTROL
e2e_ok $? "every host samples (Processes 42 in the csv)"

# The most connections a relay held at once before passing them on: +1 at
# an accept, -1 at its pass, in time order (a pass before an accept of the
# same microsecond).
most_held() {
  awk '{ print $2, ($1 == "accept" ? 1 : 0), ($1 == "accept" ? 1 : -1) }' "$E2E_DIR/$1.events" |
    sort -k1,1n -k2,2n | awk '{ n += $3; if (n > m) m = n } END { print m + 0 }'
}
connections() { grep -c '^accept ' "$E2E_DIR/$1.events"; }
held_a=$(most_held a)
held_b=$(most_held b)
for r in a b; do
  echo "relay $r: $(connections "$r") connections, at most $(most_held "$r") held at once" | e2e_diag
done
[ "$held_a" -le "$CAP" ]
e2e_ok $? "capped: at most MaxConcurrentConnects $CAP connections in flight at once ($held_a)"
[ "$held_b" -gt "$CAP" ]
e2e_ok $? "control (default cap 32): more than $CAP at once ($held_b): the relay sees what the cap prevents"
e2e_is "$(connections a)" 5 "capped: each of the 5 hosts connected once"
e2e_is "$(connections b)" 3 "control: each of the 3 hosts connected once"
e2e_is "$(pgrep -fc "^$helper")" 8 "one helper a host"
e2e_is "$(grep -c -E '\[(error|warning)\]' "$E2E_DIR/collectd.log")" 0 \
  "no error or warning logged (a host over the cap skips quietly)"
e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd running"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
e2e_done
