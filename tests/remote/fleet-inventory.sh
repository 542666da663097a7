#!/bin/bash
# collectd-winperf: plugin-level defaults and the host inventory (HostsFile),
# live (issue "a fleet polled agentlessly without hurting it", 1 and 2).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# A real smbd (smbd-lib.sh) and a real collectd, Interval 1, HostsPerHelper
# 1. The <Plugin winperf> block says Port (a closed one), PasswordFile (the
# wrong password) and Timeout; the inventory's defaults say the right port;
# hosts:
#   a, b    the inventory's defaults over the block's port, the block's
#           (wrong) password file: refused, nothing in carbon... until
#   good    its own password_file (the right one): values in carbon
#   blk     a <Host> block with its own PasswordFile and Port: values
#   off     enabled: false: never polled, no helper
# Precedence seen: host > inventory defaults > block > built-in. Then live:
# the inventory changes under collectd (no restart): "added" appears and
# samples within 2 intervals, "a" is removed (its helper stops), "good"
# changes its timeout (a new context: a new helper), "blk" and "b" stay
# (the same helper). A broken inventory keeps the hosts in use, with the
# FILE:LINE:COLUMN once. winperf hosts --check says each host's resolved
# settings and where they come from, and exits 1 on a duplicate with the
# <Host> block. Configuration errors refuse collectd's start.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=smbd-lib.sh disable=SC2154 # top_srcdir: lib.sh sets it
. "$top_srcdir/tests/remote/smbd-lib.sh"
# shellcheck source=fleet-lib.sh
. "$top_srcdir/tests/remote/fleet-lib.sh"
need pgrep ps

# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$top_builddir/winperf-remote-helper
winperf=$top_builddir/winperf

smbd_e2e_start inventory
cp "$helper" "$E2E_DIR/winperf-remote-helper" || e2e_bail "a copy of the helper"
helper=$E2E_DIR/winperf-remote-helper # its processes are this test's
e2e_start_carbon
CLOSED=$(e2e_free_port tcp)

cat >"$E2E_DIR/winperf.yaml" <<'EOF2'
- '\System\Processes'
EOF2
inventory() { # inventory GOOD_TIMEOUT [EXTRA HOST LINES]
  cat >"$E2E_DIR/hosts.yaml.tmp" <<EOF2
defaults:
  address: 127.0.0.1
  port: $SMBD_PORT
hosts:
$(printf '%s\n' "${@:2}")
  - name: good
    password_file: $SMBD_DIR/creds
    timeout: $1
  - name: off
    enabled: false
    password_file: $SMBD_DIR/creds
EOF2
  mv "$E2E_DIR/hosts.yaml.tmp" "$E2E_DIR/hosts.yaml"
}
inventory 5 "  - a" "  - name: b
    password_file: $SMBD_DIR/creds
    timeout: 3"
cat >"$E2E_DIR/collectd.conf" <<EOF2
$(e2e_conf_globals inventory-collectd 1)
ReadThreads 4

$(e2e_conf_logfile_graphite)

LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  Port $CLOSED
  PasswordFile "$SMBD_DIR/badcreds"
  Timeout 5
  HostsFile "$E2E_DIR/hosts.yaml"
  <Host "blk">
    Address "127.0.0.1"
    Port $SMBD_PORT
    PasswordFile "$SMBD_DIR/creds"
    Timeout 9
  </Host>
</Plugin>
EOF2

# The offline check first: resolved settings and where each comes from.
out=$("$winperf" hosts --check "$E2E_DIR/hosts.yaml" --config "$E2E_DIR/collectd.conf")
st=$?
echo "$out" | sed -n '1,12p' | e2e_diag
e2e_is "$st" 0 "winperf hosts --check: exit 0"
case $out in *"host a ("*"port: $SMBD_PORT (defaults)"*"password_file: $SMBD_DIR/badcreds (plugin)"*) st=0 ;; *) st=1 ;; esac
e2e_ok $st "hosts --check: a's port from the inventory's defaults, its password file from the block"
case $out in *"host good ("*"connect_timeout: 5 (host)"*"password_file: $SMBD_DIR/creds (host)"*) st=0 ;; *) st=1 ;; esac
e2e_ok $st "hosts --check: good's own timeout and password file"
case $out in *"host off ("*"enabled: no (not polled)"*) st=0 ;; *) st=1 ;; esac
e2e_ok $st "hosts --check: off is not polled"
case $out in *"$SMBD_PASS"*) st=1 ;; *) st=0 ;; esac
e2e_ok $st "hosts --check never shows the password"
sed 's/  - a$/  - BLK/' "$E2E_DIR/hosts.yaml" >"$E2E_DIR/dup.yaml"
sed "s|$E2E_DIR/hosts.yaml|$E2E_DIR/dup.yaml|" "$E2E_DIR/collectd.conf" >"$E2E_DIR/dup.conf"
err=$("$winperf" hosts --check "$E2E_DIR/dup.yaml" --config "$E2E_DIR/dup.conf" 2>&1 >/dev/null)
st=$?
echo "$err" | e2e_diag
e2e_is "$st" 1 "hosts --check: a host also in a <Host> block: exit 1"
case $err in *'host "'*'" is given twice: '*"dup.yaml:5:5"*) st=0 ;; *) st=1 ;; esac
e2e_ok $st "hosts --check: the duplicate named with its file:line:column"

smbd_collectd_start
helpers() { pgrep -f "^$helper" | while read -r p; do ps -o args= -p "$p"; done; }
badcreds_helpers() { helpers | grep -c -- "--credentials $SMBD_DIR/badcreds"; }
helper_of() { # the pid of the helper whose credentials and timeout say so
  pgrep -f "^$helper .*--credentials $1 --connect-timeout $2" | head -1
}
e2e_wait_for 30 has_value "$W/good/winperf-System/gauge-Processes.wsp" 42
e2e_ok $? "good: its own password file, the inventory's port: values arrive"
e2e_wait_for 20 has_value "$W/blk/winperf-System/gauge-Processes.wsp" 42
e2e_ok $? "blk (a <Host> block beside the inventory): values arrive"
e2e_wait_for 20 grep -q 'host "a" (127.0.0.1): authentication failure' "$LOG"
e2e_ok $? "a: the block's (wrong) password file, the inventory's port: refused, not a closed port"
e2e_is "$(find "$W" -maxdepth 1 -name off | wc -l)" 0 "off (enabled: false): nothing in carbon"
e2e_is "$(helpers | grep -c -- "--port $CLOSED")" 0 "no host used the block's port (every host had a closer one)"

# Live: a removed, added added, good's timeout changed, b and blk kept.
good_before=$(helper_of "$SMBD_DIR/creds" 5000)
blk_before=$(helper_of "$SMBD_DIR/creds" 9000)
b_before=$(helper_of "$SMBD_DIR/creds" 3000)
e2e_is "$(badcreds_helpers)" 1 "a (refused) has its helper before the change"
echo "good's helper $good_before, blk's $blk_before" | e2e_diag
inventory 7 "  - name: b
    password_file: $SMBD_DIR/creds
    timeout: 3" "  - name: added
    password_file: $SMBD_DIR/creds
    interval: 2"
t_change=$(date +%s)
e2e_wait_for 20 grep -q 'HostsFile reloaded: 4 hosts for this poller (2 unchanged, 1 changed, 1 added, 1 removed)' "$LOG"
e2e_ok $? "log: the reload's counts (blk, b unchanged; good changed; added; a removed)"
e2e_wait_for 20 test -n "$(fleet_first_blob added)"
t_added=$(fleet_first_blob added)
echo "changed at $t_change, added's first sample at $t_added" | e2e_diag
[ -n "$t_added" ] && [ "$t_added" -le $((t_change + 4)) ]
e2e_ok $? "added (interval 2): its first sample within 2 intervals of the change"
e2e_wait_for 20 has_value "$W/added/winperf-System/gauge-Processes.wsp" 42
e2e_ok $? "added: values arrive"
e2e_wait_for 10 test "$(badcreds_helpers)" = 0
e2e_is "$(badcreds_helpers)" 0 "a (removed): its helper stopped"
e2e_is "$(helper_of "$SMBD_DIR/creds" 3000)" "$b_before" "b: unchanged, its helper kept"
e2e_wait_for 10 test -n "$(helper_of "$SMBD_DIR/creds" 7000)"
good_after=$(helper_of "$SMBD_DIR/creds" 7000)
[ -n "$good_after" ] && [ "$good_after" != "$good_before" ]
e2e_ok $? "good: a changed timeout gives it a new context (helper $good_before -> $good_after)"
blk_after=$(helper_of "$SMBD_DIR/creds" 9000)
[ -n "$blk_after" ] && [ "$blk_after" = "$blk_before" ]
e2e_ok $? "blk: unchanged, its helper kept ($blk_before, $blk_after)"

# A broken inventory: the hosts in use stay; logged once.
printf 'hosts:\n  - name: x\n    prot: 1\n' >"$E2E_DIR/hosts.yaml"
e2e_wait_for 10 grep -q "hosts.yaml:3:5: unknown key \"prot\"" "$LOG"
e2e_ok $? "a broken inventory is logged with its file:line:column"
sleep 3
e2e_is "$(grep -c 'unknown key "prot"' "$LOG")" 1 "logged once, though intervals went by"
t=$(date +%s)
newer() { # a bytes-blob slot of "added" after t
  /usr/bin/whisper-fetch --json --from="$t" --until="$(date +%s)" "$W/added/winperf-self/bytes-blob.wsp" |
    e2e_whisper_json_lines | awk '$2 != "None" && $2 != "null" { n++ } END { exit !(n > 0) }'
}
e2e_wait_for 20 newer
e2e_ok $? "the hosts in use go on while the inventory is broken"
e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd running"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
e2e_is "$(pgrep -fc "^$helper")" 0 "no helper left"

# Configuration errors: collectd refuses to start, saying where.
refuse() { # refuse WHAT PATTERN: collectd -T with bad.conf
  timeout 30 /usr/sbin/collectd -T -C "$E2E_DIR/bad.conf" >"$E2E_DIR/bad.out" 2>&1
  st=$?
  grep -q -- "$2" "$E2E_DIR/bad.out" "$E2E_DIR/bad.log" 2>/dev/null
  e2e_ok $? "$1: refused with \"$2\""
  [ "$st" != 0 ]
  e2e_ok $? "$1: collectd does not start (status $st)"
}
bad_conf() {
  cat >"$E2E_DIR/bad.conf" <<EOF2
PluginDir "$E2E_PLUGIN_DIR"
BaseDir "$E2E_DIR"
TypesDB "/usr/share/collectd/types.db"
LoadPlugin logfile
<Plugin logfile>
  File "$E2E_DIR/bad.log"
</Plugin>
LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  HostsFile "$E2E_DIR/bad.yaml"
$1
</Plugin>
EOF2
}
printf 'hosts:\n  - a\n  - name: b\n    porto: 445\n' >"$E2E_DIR/bad.yaml"
bad_conf ""
refuse "an unknown inventory key" "bad.yaml:4:5: unknown key \"porto\""
printf 'hosts:\n  - a\n  - web\n' >"$E2E_DIR/bad.yaml"
bad_conf '  <Host "WEB">
    Port 445
  </Host>'
refuse "a name in the inventory and a <Host> block" 'host "[Ww][Ee][Bb]" is given twice'
printf 'hosts:\n  - a\n' >"$E2E_DIR/bad.yaml"
bad_conf '  Shard "4/3"'
refuse "Shard 4/3" 'Shard "4/3": expected "K/N"'
bad_conf '  Auth "kerberos"'
refuse "Auth kerberos without a keytab, cache or password file" \
  'bad.yaml:2:5: host "a": Auth "kerberos" needs exactly one credential source'
e2e_done
