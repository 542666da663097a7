#!/bin/bash
# collectd-winperf: port 445 unless asked (issue "a fleet polled agentlessly
# without hurting it", 5).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# Inside a network namespace of its own (`unshare -n`: only loopback, so
# the ports 139 and 445 and the firewall rule below touch nothing else on
# the machine): a real smbd on 445, a real carbon, real collectd. A host
# with no Port, Timeout 2, Interval 2:
#   1. a listener on 139 that accepts and never answers (libsmbclient with
#      no port tries 139 first, alone) gets 0 connections, and values
#      arrive;
#   2. with nft dropping SYNs to 139 (counted), a new collectd's first
#      value arrives in the first interval, the first query takes less
#      than the 2 s timeout, and the rule counted no packet; the CLI
#      (`winperf query --remote` with no --port) answers as well.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
if [ -z "${FLEET_PORT_NETNS:-}" ]; then
  [ "$(id -u)" = 0 ] || { e2e_ok 1 "needs root (unshare -n)"; e2e_done; exit 1; }
  FLEET_PORT_NETNS=1 exec unshare -n "$BASH" "$0" "$@"
fi
# shellcheck source=smbd-lib.sh disable=SC2154 # top_srcdir: lib.sh sets it
. "$top_srcdir/tests/remote/smbd-lib.sh"
# shellcheck source=fleet-lib.sh
. "$top_srcdir/tests/remote/fleet-lib.sh"
need ip nft python3 collectd smbd smbpasswd useradd userdel whisper-fetch

# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$(cd "$top_builddir" && pwd)/winperf-remote-helper
winperf=$top_builddir/winperf

e2e_init port
trap 'nft delete table inet wptport 2>/dev/null; smbd_teardown; e2e_cleanup' EXIT
ip link set lo up || e2e_bail "loopback up in the namespace"
e2e_plugin_dir logfile write_graphite
chmod 755 "$E2E_DIR"
smbd_setup "$E2E_DIR/smbd" 445 || e2e_bail "smbd user and config"
/usr/bin/python3 "$top_srcdir/tests/remote/perfmon_tdb.py" "$SMBD_DIR/state/perfmon" 1 ||
  e2e_bail "perfmon tdb sample 1"
smbd_start || e2e_bail "smbd listens on 127.0.0.1:445"
e2e_ok 0 "smbd on 127.0.0.1:445 in a network namespace of its own"
e2e_start_carbon

e2e_spawn "$E2E_DIR/l139.log" /usr/bin/python3 -c '
import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 139))
s.listen(16)
kept = []
while True:
    c, a = s.accept()
    kept.append(c)
    print(time.time(), "accepted from", a, flush=True)
'
L139=$E2E_LAST_PID
e2e_wait_for 10 e2e_tcp_open 139 || e2e_bail "the silent listener on 139"
sleep 1
accepted139() { grep -c accepted "$E2E_DIR/l139.log"; }
base=$(accepted139) # the readiness probe's own connection

cat >"$E2E_DIR/winperf.yaml" <<'EOF2'
- '\System\Processes'
EOF2
conf() { # conf HOSTNAME
  cat <<EOF2
$(e2e_conf_globals "$1" 2)
$(e2e_conf_logfile_graphite)
LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  <Host "$1">
    Address "127.0.0.1"
    PasswordFile "$SMBD_DIR/creds"
    Timeout 2
  </Host>
</Plugin>
EOF2
}
conf win139 >"$E2E_DIR/collectd.conf"
smbd_collectd_start
e2e_wait_for 30 has_value "$W/win139/winperf-System/gauge-Processes.wsp" 42
e2e_ok $? "no Port: values arrive (445)"
sleep 4
cat "$E2E_DIR/l139.log" | e2e_diag
e2e_is "$(($(accepted139) - base))" 0 "the silent listener on 139 got no connection"
e2e_stop "$COLLECTD_PID" 10
e2e_stop "$L139" 3

nft add table inet wptport &&
  nft add chain inet wptport input '{ type filter hook input priority 0; }' &&
  nft add rule inet wptport input tcp dport 139 counter drop ||
  e2e_bail "nft: drop SYNs to 139 in the namespace"
conf win445 >"$E2E_DIR/collectd.conf"
sed -i "s|$E2E_DIR/collectd.log|$E2E_DIR/collectd2.log|" "$E2E_DIR/collectd.conf"
smbd_collectd_start
LOG=$E2E_DIR/collectd2.log
e2e_wait_for 30 has_value "$W/win445/winperf-System/gauge-Processes.wsp" 42
e2e_ok $? "139 dropping SYNs: values arrive"
first=$(/usr/bin/whisper-fetch --json --from="$((T_START - 1))" --until="$(date +%s)" \
  "$W/win445/winperf-System/gauge-Processes.wsp" | e2e_whisper_json_lines |
  awk '$2 != "None" && $2 != "null" { print $1; exit }')
echo "collectd started at $T_START, first value at $first" | e2e_diag
[ -n "$first" ] && [ "$first" -le $((T_START + 2)) ]
e2e_ok $? "the first value arrives in the first interval (Interval 2, Timeout 2)"
q=$(wsp_values "$W/win445/winperf-self/duration-query.wsp" | awk '{ print $NF }')
awk -v q="$q" 'BEGIN { exit !(q > 0 && q < 2) }'
e2e_ok $? "no query waited for 139 (longest duration-query $q s < 2 s)"
e2e_is "$(grep -ci 'error' "$LOG")" 0 "no error in collectd's log"
e2e_stop "$COLLECTD_PID" 10
out=$(timeout 30 "$winperf" query --remote 127.0.0.1 --credentials "$SMBD_DIR/creds" \
  --timeout 2 --helper "$helper" --interval 0 '\System\Processes' 2>&1)
st=$?
echo "$out" | e2e_diag
e2e_is "$st" 0 "winperf query --remote with no --port: exit 0"
case $out in *42*) e2e_ok 0 "winperf query --remote: Processes 42" ;; *) e2e_ok 1 "winperf query --remote: Processes 42" ;; esac
pk=$(nft list chain inet wptport input | sed -n 's/.*counter packets \([0-9]*\).*/\1/p')
e2e_is "$pk" 0 "nft counted no packet to 139: nothing tried it"
e2e_stop "$CARBON_PID" 10
e2e_done
