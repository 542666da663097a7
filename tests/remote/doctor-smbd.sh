#!/bin/bash
# collectd-winperf: winperf doctor and winperf names against a real smbd.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# smbd (tests/remote/smbd-lib.sh) serves perfmon tdb sample 1
# (tests/remote/perfmon_tdb.py: 2 Processor with instances 0 and 1,
# 8 System, 14 Thread) plus a name 18 "Memory" that is no object: in the
# Counter table, absent from every answer. Samba serves names.tdb's "1" as
# the table's "1" pair and walks the indices 2 .. 2 * that count: it is set
# to 19 so that 18 is served (the pair itself is no Last Counter, doc/
# format.md 4.1; Samba's Perflib "Last Counter", which the helper reads
# over winreg, is 2 * 19 = 38, above every index). Expected lines by hand:
#   \System\Processes               ok, 1 counter
#   \Processor(*)\% Processor Time  ok, 2 counters (instances 0 and 1)
#   \Memory\Available Bytes         object-absent (index 18)
#   \Procesor(*)\Interrupts/sec     unknown-name, Processor (1 edit)
# A wrong password is access-denied for every path (exit 1); a port where
# nothing listens is a failed connection (exit 2). Last, smbd restarted
# without its RPC helpers (rpc start on demand helpers = no, no
# samba-dcerpcd): the server answers SMB but has no \pipe\winreg, as a
# Windows host whose RemoteRegistry service is stopped does (the pipe open
# fails with STATUS_OBJECT_NAME_NOT_FOUND): remote-registry-off, exit 1;
# a collectd <Host> against it warns once with the same verdict.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=smbd-lib.sh disable=SC2154 # top_srcdir: lib.sh sets it
. "$top_srcdir/tests/remote/smbd-lib.sh"

need python3
py=/usr/bin/python3
# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$top_builddir/winperf-remote-helper
winperf=$top_builddir/winperf

e2e_init doctor
trap 'smbd_teardown; e2e_cleanup' EXIT
[ "$(id -u)" = 0 ] || e2e_bail "needs root (useradd, smbd)"
e2e_need ss smbd smbpasswd useradd collectd net
[ -x "$helper" ] || e2e_bail "$helper built (libsmbclient-dev missing?)"
[ -x "$winperf" ] || e2e_bail "$winperf built"
$py -c 'import tdb' 2>/dev/null || e2e_bail "python3-tdb installed"
chmod 755 "$E2E_DIR"

smbd_setup "$E2E_DIR/smbd" "$(e2e_free_port tcp)" || e2e_bail "smbd user and config"
perfmon=$SMBD_DIR/state/perfmon
$py "$top_srcdir/tests/remote/perfmon_tdb.py" "$perfmon" 1 ||
  e2e_bail "perfmon tdb sample 1"
$py - "$perfmon/names.tdb" <<'PYEOF' || e2e_bail "the name Memory added"
import os, sys, tdb
t = tdb.Tdb(sys.argv[1], 0, tdb.DEFAULT, os.O_RDWR, 0o644)
t.store(b"1", b"19", tdb.REPLACE)
t.store(b"18", b"Memory", tdb.REPLACE)
t.store(b"19", b"Memory help", tdb.REPLACE)
t.close()
PYEOF
smbd_start || e2e_bail "smbd listens on 127.0.0.1:$SMBD_PORT"
e2e_ok 0 "smbd listening on 127.0.0.1:$SMBD_PORT"

remote=(--remote 127.0.0.1 --port "$SMBD_PORT" --helper "$helper" --timeout 20)
T=$'\t'
"$winperf" doctor "${remote[@]}" --credentials "$SMBD_DIR/creds" \
  '\System\Processes' '\Processor(*)\% Processor Time' \
  '\Memory\Available Bytes' '\Procesor(*)\Interrupts/sec' \
  >"$E2E_DIR/out" 2>"$E2E_DIR/err"
e2e_is "$?" 1 "doctor: exit 1 (two paths do not resolve)"
e2e_is "$(cat "$E2E_DIR/out")" "\
\\System\\Processes${T}ok${T}1 counter matches
\\Processor(*)\\% Processor Time${T}ok${T}2 counters match
\\Memory\\Available Bytes${T}object-absent${T}\"Memory\" (index 18) is in the name table but not in the answer: its provider is disabled (Disable Performance Counters; lodctr /E:NAME enables it) or failed to load (see the Application event log)
\\Procesor(*)\\Interrupts/sec${T}unknown-name${T}object \"Procesor\" is not in the name table: a typo, or its provider is not registered (lodctr /Q lists them, lodctr /R rebuilds the table); did you mean: Processor?" \
  "doctor: ok, ok, object-absent, unknown-name with the closest name"
e2e_is "$(cat "$E2E_DIR/err")" "" "doctor: nothing on stderr"

"$winperf" names "${remote[@]}" --credentials "$SMBD_DIR/creds" --objects \
  >"$E2E_DIR/out" 2>"$E2E_DIR/err"
e2e_is "$?:$(cat "$E2E_DIR/out")" "0:2${T}Processor${T}
8${T}System${T}
14${T}Thread${T}" "names --objects: the Global answer's objects"
"$winperf" names "${remote[@]}" --credentials "$SMBD_DIR/creds" --grep mem \
  >"$E2E_DIR/out" 2>"$E2E_DIR/err"
e2e_is "$?:$(cat "$E2E_DIR/out")" "0:18${T}Memory${T}" \
  "names --grep mem: the host's Counter table"

# Perflib's Last Counter, read by the helper over winreg (OpenHKLM,
# BaseRegOpenKey, BaseRegQueryValue): Samba's own client asks the same smbd
# for the value (the independent answer), and reg_perfcount.c says it is
# twice names.tdb's "1": 38 here. A capture keeps what the helper read.
lc_key='HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion\Perflib'
samba_last_counter() {
  net rpc registry getvalue "$lc_key" 'Last Counter' -s "$SMBD_DIR/smb.conf" \
    -I 127.0.0.1 -p "$SMBD_PORT" -U "$SMBD_USER%$SMBD_PASS" 2>"$E2E_DIR/net.err" |
    sed -n 's/^[[:space:]]*Value[[:space:]]*=[[:space:]]*//p'
}
expected=$(samba_last_counter)
e2e_is "$expected" 38 "net rpc registry: Samba's Last Counter is 2 * 19" ||
  e2e_diag <"$E2E_DIR/net.err"
"$winperf" capture "${remote[@]}" --credentials "$SMBD_DIR/creds" \
  --dir "$E2E_DIR/cap" --count 1 >"$E2E_DIR/out" 2>"$E2E_DIR/err"
e2e_is "$?:$(cat "$E2E_DIR/cap/last-counter" 2>&1)" "0:$expected" \
  "capture --remote: last-counter is the value smbd reports"

# names.tdb's "1" 5: Samba then serves the table 2 .. 10, answers with the
# objects up to 10 and reports Last Counter 10: the value is the host's,
# read afresh, and a consistent table gets no Last-Counter claim.
set_base() {
  $py - "$perfmon/names.tdb" "$1" <<'PYEOF'
import os, sys, tdb
t = tdb.Tdb(sys.argv[1], 0, tdb.DEFAULT, os.O_RDWR, 0o644)
t.store(b"1", sys.argv[2].encode(), tdb.REPLACE)
t.close()
PYEOF
}
set_base 5 || e2e_bail "names.tdb's 1 set to 5"
e2e_is "$(samba_last_counter)" 10 "net rpc registry: Last Counter 10 now"
"$winperf" capture "${remote[@]}" --credentials "$SMBD_DIR/creds" \
  --dir "$E2E_DIR/cap10" --count 1 >"$E2E_DIR/out" 2>"$E2E_DIR/err"
e2e_is "$?:$(cat "$E2E_DIR/cap10/last-counter" 2>&1)" "0:10" \
  "capture --remote: last-counter 10, as smbd now reports"
"$winperf" doctor "${remote[@]}" --credentials "$SMBD_DIR/creds" \
  '\Procesor(*)\Interrupts/sec' >"$E2E_DIR/out" 2>"$E2E_DIR/err"
e2e_is "$?:$(cut -f2 "$E2E_DIR/out")" "1:unknown-name" \
  "doctor, Last Counter 10: the typo's own verdict, no table claim"
set_base 19 || e2e_bail "names.tdb's 1 set back to 19"

"$winperf" doctor "${remote[@]}" --credentials "$SMBD_DIR/badcreds" --json \
  '\System\Processes' >"$E2E_DIR/out" 2>"$E2E_DIR/err"
e2e_is "$?" 1 "wrong password: exit 1"
$py -c 'import json, sys
j = json.load(open(sys.argv[1]))
assert len(j) == 1 and j[0]["verdict"] == "access-denied", j
assert j[0]["path"] == "\\System\\Processes" and j[0]["suggestions"] == [], j
assert "authentication failed" in j[0]["fix"], j
assert j[0]["fix"].endswith("check the user and password, and that the account may read the registry remotely (Performance Monitor Users, the winreg pipe'"'"'s ACL)"), j
' "$E2E_DIR/out" 2>&1 | e2e_diag
e2e_ok "${PIPESTATUS[0]}" "wrong password: access-denied, the helper's message, the fix"

closed=$(e2e_free_port tcp)
"$winperf" doctor --remote 127.0.0.1 --port "$closed" --helper "$helper" \
  --timeout 5 --credentials "$SMBD_DIR/creds" '\System\Processes' \
  >"$E2E_DIR/out" 2>"$E2E_DIR/err"
e2e_is "$?:$(wc -c <"$E2E_DIR/out")" "2:0" "nothing listening: exit 2, no output"
e2e_is "$(wc -l <"$E2E_DIR/err")" 1 "... one line on stderr"

smbd_stop
# samba-dcerpcd's stale sockets would make the pipe's open "connection
# refused"; without them the pipe does not exist, as on Windows.
rm -rf "$SMBD_DIR/ncalrpc"/*
printf '  rpc start on demand helpers = no\n' >>"$SMBD_DIR/smb.conf"
smbd_start || e2e_bail "smbd without RPC helpers listens on 127.0.0.1:$SMBD_PORT"
"$winperf" doctor "${remote[@]}" --credentials "$SMBD_DIR/creds" \
  '\System\Processes' >"$E2E_DIR/out" 2>"$E2E_DIR/err"
e2e_is "$?" 1 "no \\pipe\\winreg: exit 1"
e2e_is "$(cat "$E2E_DIR/out")" "\
\\System\\Processes${T}remote-registry-off${T}the host has no \\pipe\\winreg: remote 127.0.0.1: 127.0.0.1 has no \\pipe\\winreg: is the RemoteRegistry service running?; start the RemoteRegistry service and set it to start automatically" \
  "no \\pipe\\winreg: remote-registry-off and its fix"
e2e_is "$(cat "$E2E_DIR/err")" "" "no \\pipe\\winreg: nothing on stderr"


# The plugin tells the same from a <Host> block: one warning with the fix
# while the host fails, and it goes on trying (no exit).
e2e_plugin_dir logfile
printf '%s\n' "- '\\System\\Processes'" >"$E2E_DIR/winperf.yaml"
cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_globals doctor-collectd 0.5)
LoadPlugin logfile
<Plugin logfile>
  LogLevel "info"
  File "$E2E_DIR/collectd.log"
  PrintSeverity true
</Plugin>
LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$(cd "$top_builddir" && pwd)/winperf-remote-helper"
  <Host "noreg">
    Address "127.0.0.1"
    Port $SMBD_PORT
    PasswordFile "$SMBD_DIR/creds"
    Timeout 20
  </Host>
</Plugin>
EOF
e2e_spawn "$E2E_DIR/collectd.stdout" /usr/sbin/collectd -f -C "$E2E_DIR/collectd.conf"
COLLECTD_PID=$E2E_LAST_PID
warned() { grep -q 'remote-registry-off' "$E2E_DIR/collectd.log" 2>/dev/null; }
e2e_wait_for 60 warned
e2e_ok $? "collectd: the <Host> without \\pipe\\winreg is diagnosed"
sleep 2 # more failed intervals: still one warning
e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd still running"
e2e_stop "$COLLECTD_PID" 10
grep 'winperf' "$E2E_DIR/collectd.log" | e2e_diag
e2e_is "$(grep -cF "[warning] winperf: <Host \"noreg\">: $E2E_DIR/winperf.yaml: no counter path matches while the source fails: remote-registry-off: the host has no \\pipe\\winreg; start the RemoteRegistry service and set it to start automatically" "$E2E_DIR/collectd.log")" 1 \
  "collectd log: one remote-registry-off warning for the host, with the fix"
attempts=$(grep -c 'error.*noreg' "$E2E_DIR/collectd.log")
[ "$attempts" -ge 2 ]
e2e_ok $? "collectd: the host was tried again ($attempts attempts)"
e2e_is "$(grep -c 'error.*has no \\pipe\\winreg: is the RemoteRegistry service running' "$E2E_DIR/collectd.log")" \
  "$attempts" "collectd log: each failed attempt's error names the missing pipe"

e2e_done
