#!/bin/bash
# collectd-winperf: credentials that never lock an account (issue "a fleet
# polled agentlessly without hurting it", 3).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# A real smbd on 127.0.0.1 (smbd-lib.sh) with its authentication log on
# (`log level = 1 auth_audit:3`: one line per logon with its status); a
# real collectd, Interval 1, HostsPerHelper 1, 20 inventory hosts (h01 ..
# h20, one address) sharing one password file that holds a wrong password.
# For 40 s (40 intervals, 800 host-intervals) smbd must log exactly one
# refused logon of that user: the credential pauses after it, the other 19
# hosts skip their intervals. Then the right password is written into the
# file (no restart): every host takes its first sample within 3 intervals
# (its bytes-blob self-metric in carbon), and smbd still counts one
# failure. A 21st host, "denied", shares the credential but its helper
# (tests/remote/fake_helper.sh, mode access) answers what Windows answers
# an account without Performance Monitor Users: OpenHKPD ERROR_ACCESS_DENIED
# after a good logon. That is the host's own error: the 20 others keep
# their credential (auth_paused 0) and their values.
# Why a fake helper there: a real smbd cannot refuse the helper's OpenHKPD.
# Samba checks OpenHKPD's samDesired against HKPD's security descriptor
# (by default Everyone may read), and the helper asks for 0, as MS-RRP
# 3.1.5.4 says it SHOULD, which no descriptor refuses; Samba's query of
# HKPD checks nothing more. Measured with Samba 4.17: with a descriptor
# granting only Administrators and SYSTEM (set by root with
# SetKeySecurity), smbd refused this test's account OpenHKPD with KEY_READ
# (0x20019) but granted samDesired 0 and answered its query.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=smbd-lib.sh disable=SC2154 # top_srcdir: lib.sh sets it
. "$top_srcdir/tests/remote/smbd-lib.sh"
# shellcheck source=fleet-lib.sh
. "$top_srcdir/tests/remote/fleet-lib.sh"

# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$(cd "$top_builddir" && pwd)/winperf-remote-helper

smbd_e2e_start lockout
cp /usr/lib/collectd/csv.so "$E2E_PLUGIN_DIR/" || e2e_bail "collectd's csv plugin"
fleet_audit_on || e2e_bail "smbd with its authentication log"
e2e_start_carbon

cat >"$E2E_DIR/winperf.yaml" <<'EOF2'
- '\System\Processes'
EOF2
cp "$SMBD_DIR/badcreds" "$E2E_DIR/fleet.cred" && chmod 600 "$E2E_DIR/fleet.cred"
hosts=$(seq -f 'h%02g' 1 20)
# shellcheck disable=SC2086
fleet_inventory "$E2E_DIR/hosts.yaml" "$E2E_DIR/fleet.cred" $hosts
printf '#!/bin/sh\nFAKE_MODE=access exec /bin/sh %s "$@"\n' \
  "$top_srcdir/tests/remote/fake_helper.sh" >"$E2E_DIR/denied-helper"
chmod 755 "$E2E_DIR/denied-helper"
cat >>"$E2E_DIR/hosts.yaml" <<EOF2
  - name: denied
    remote_helper: $E2E_DIR/denied-helper
EOF2

cat >"$E2E_DIR/collectd.conf" <<EOF2
$(e2e_conf_globals lockout-collectd 1)
ReadThreads 20

$(e2e_conf_logfile_graphite)
LoadPlugin csv
<Plugin csv>
  DataDir "$E2E_DIR/csv"
</Plugin>

LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  Timeout 5
  HostsFile "$E2E_DIR/hosts.yaml"
</Plugin>
EOF2

before=$(fleet_failed_logons)
smbd_collectd_start
sleep 40
e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd runs with 20 hosts on a wrong password"
failed=$(($(fleet_failed_logons) - before))
echo "refused logons of $SMBD_USER in 40 s: $failed" | e2e_diag
e2e_is "$failed" 1 "smbd's auth log: exactly one refused logon in 40 intervals of 20 hosts"
e2e_is "$(grep -c 'authentication failure' "$LOG")" 1 "the refusal is logged once"
grep 'authentication failure' "$LOG" | e2e_diag
grep -q 'paused: 20 other hosts using it wait' "$LOG"
e2e_ok $? "the log says how many hosts wait (20: the others and denied)"
# shellcheck disable=SC2086
e2e_is "$(fleet_hosts_with winperf-System/gauge-Processes.wsp $hosts)" 0 \
  "no host has a value while the password is wrong"
# shellcheck disable=SC2086
e2e_is "$(fleet_hosts_with winperf-self/count-auth_paused.wsp $hosts)" 20 \
  "every host reports auth_paused"
has_value "$W/h01/winperf-self/count-auth_paused.wsp" 1
e2e_ok $? "h01's auth_paused is 1 while paused"

# The right password into the same file (cp keeps its inode and mode).
cp "$SMBD_DIR/creds" "$E2E_DIR/fleet.cred"
t_fix=$(date +%s.%N)
all_sampled() {
  # shellcheck disable=SC2086
  [ "$(fleet_hosts_with winperf-self/bytes-blob.wsp $hosts)" = 20 ]
}
e2e_wait_for 30 all_sampled
e2e_ok $? "after the fix every host takes samples, no restart"
# Intervals are counted as the host's own reads after the fix (each
# dispatches its count-auth_paused self-metric; the csv writer keeps them
# to the millisecond), up to the one whose blob arrived (bytes-blob): on a
# loaded machine a read may take longer than the interval, which then
# starts late, and seconds would count the machine, not the plugin.
late=
most=0
for h in $hosts; do
  d=$E2E_DIR/csv/$h/winperf-self
  first=$(cat "$d"/bytes-blob-* 2>/dev/null | grep -m1 '^[0-9]' | cut -d, -f1)
  reads=$(cat "$d"/count-auth_paused-* 2>/dev/null | grep '^[0-9]' |
    awk -F, -v f="$t_fix" -v b="${first:-0}" '$1 > f && $1 <= b + 0.001' | wc -l)
  [ "$reads" -gt "$most" ] && most=$reads
  if [ -z "$first" ] || [ "$reads" -gt 3 ]; then late="$late $h:$reads"; fi
done
secs=$(for h in $hosts; do cat "$E2E_DIR"/csv/"$h"/winperf-self/bytes-blob-* | grep -m1 '^[0-9]' | cut -d, -f1; done |
  sort -n | tail -1 | awk -v f="$t_fix" '{ printf "%.1f", $1 - f }')
echo "fixed at $t_fix; the last first sample +$secs s; most reads to it: $most; late:${late:- none}" | e2e_diag
e2e_is "$late" "" "every host's first sample within 3 intervals of the fix"
e2e_wait_for 20 has_value "$W/h20/winperf-System/gauge-Processes.wsp" 42
e2e_ok $? "values follow (h20's Processes 42)"
e2e_is "$(($(fleet_failed_logons) - before))" 1 "still one refused logon in all"
grep -q 'credential .* accepted again' "$LOG"
e2e_ok $? "the credential's recovery is logged"

# denied: access denied after the logon is its own error.
grep 'host "denied"' "$LOG" | head -2 | e2e_diag
grep -q 'host "denied" (127.0.0.1): access denied: .*OpenHKPD failed: Win32 error 5' "$LOG"
e2e_ok $? "denied: logged as its own access error (OpenHKPD ERROR_ACCESS_DENIED)"
sleep 3
has_value "$W/h05/winperf-self/count-auth_paused.wsp" 0
e2e_ok $? "denied pauses no other host (h05's auth_paused back to 0)"
e2e_is "$(($(fleet_failed_logons) - before))" 1 "denied adds no refused logon"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
e2e_stop "$CARBON_PID" 10
e2e_done
