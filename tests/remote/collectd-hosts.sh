#!/bin/bash
# collectd-winperf: the plugin's <Host> blocks end to end (issue 6).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# A real smbd on 127.0.0.1 (tests/remote/smbd-lib.sh: anonymous and guest
# sessions refused, a user with a password) serves perfmon tdb data; a real
# collectd 5.12 with the built winperf.so reads it through two <Host>
# blocks, one with the right password file, one with a wrong one, and
# write_graphite sends the values to a real carbon-cache (tests/e2e/lib.sh).
#
# Expected values by hand (tests/remote/perfmon_tdb.py, perfmon_sample3.py;
# samples 5 s apart): samples 1 -> 2 give % Processor Time 75 and 25,
# Interrupts/sec 500 and 50, Context Switches/sec 1500, Processes 43;
# samples 2 -> 3 give 50 and 75, 200 and 100, 1000, Processes 44. Samba's
# sample clock is in 1601, so collectd stamps the values on arrival: the
# assertions are on which values a whisper file holds, never on when.
#
# A new sample is written aside and renamed into place: smbd opens the tdb
# files for every query, and a sample written in place could be read half
# old, half new (the clock new, a counter old: a rate of 0).
#
# Sequence: sample 1 is served until the first value (Processes 42) is in
# carbon, then sample 2; smbd is stopped (the plugin logs the failure),
# sample 3 is written, smbd restarted (the plugin recovers and the 2 -> 3
# values arrive). The wrong-password host logs an authentication failure
# and nothing of it reaches carbon; a third host whose port accepts TCP but
# never answers (a hung server) times out. collectd runs throughout and
# exits 0.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=smbd-lib.sh disable=SC2154 # top_srcdir: lib.sh sets it
. "$top_srcdir/tests/remote/smbd-lib.sh"

# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$top_builddir/winperf-remote-helper

smbd_e2e_start hosts
e2e_ok 0 "smbd listening on 127.0.0.1:$SMBD_PORT (restrict anonymous = 2)"
e2e_start_carbon

# A hung server: the kernel completes the handshake (listen backlog), the
# program never accepts nor answers.
smbd_hung_server

cat >"$E2E_DIR/winperf.yaml" <<'EOF'
- '\Processor(*)\% Processor Time'
- '\Processor(*)\Interrupts/sec'
- '\System\Processes'
- '\System\Context Switches/sec'
EOF

cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_globals hosts-collectd 1)
ReadThreads 4

$(e2e_conf_logfile_graphite)

LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  SelfMetrics false # exactly goodhost's metrics, below
  <Host "goodhost">
    Address "127.0.0.1"
    Port $SMBD_PORT
    PasswordFile "$SMBD_DIR/creds"
    Timeout 5
  </Host>
  <Host "badhost">
    Address "127.0.0.1"
    Port $SMBD_PORT
    PasswordFile "$SMBD_DIR/badcreds"
    Interval 1
    Timeout 5
  </Host>
  <Host "slowhost">
    Address "127.0.0.1"
    Port $SLOW_PORT
    PasswordFile "$SMBD_DIR/creds"
    Timeout 1
  </Host>
</Plugin>
EOF

smbd_collectd_start

G=$W/goodhost

e2e_wait_for 30 has_value "$G/winperf-System/gauge-Processes.wsp" 42
e2e_ok $? "goodhost: sample 1's Processes (42) arrives in carbon under goodhost"

smbd_write_sample 2 || e2e_bail "perfmon tdb sample 2"
e2e_wait_for 30 has_value "$G/winperf-System/gauge-Context_Switches_sec.wsp" 1500
e2e_ok $? "goodhost: sample 2 reached carbon"
# Give every metric of that interval a moment to be written (bounded wait
# on the last one of the list).
e2e_wait_for 10 has_value "$G/winperf-Processor-1/gauge-Interrupts_sec.wsp" 50
e2e_is "$(wsp_values "$G/winperf-Processor-0/gauge-%_Processor_Time.wsp")" 75 \
  "goodhost: Processor(0) % Processor Time 100 (1 - 12.5e6/50e6) = 75"
e2e_is "$(wsp_values "$G/winperf-Processor-1/gauge-%_Processor_Time.wsp")" 25 \
  "goodhost: Processor(1) % Processor Time 100 (1 - 37.5e6/50e6) = 25"
e2e_is "$(wsp_values "$G/winperf-Processor-0/gauge-Interrupts_sec.wsp")" 500 \
  "goodhost: Processor(0) Interrupts/sec 2500 / 5 s = 500"
e2e_is "$(wsp_values "$G/winperf-Processor-1/gauge-Interrupts_sec.wsp")" 50 \
  "goodhost: Processor(1) Interrupts/sec 250 / 5 s = 50"
e2e_is "$(wsp_values "$G/winperf-System/gauge-Context_Switches_sec.wsp")" 1500 \
  "goodhost: System Context Switches/sec 7500 / 5 s = 1500"
e2e_wait_for 10 has_value "$G/winperf-System/gauge-Processes.wsp" 43
e2e_is "$(wsp_values "$G/winperf-System/gauge-Processes.wsp")" "42 43" \
  "goodhost: System Processes 42 then 43"

e2e_wait_for 20 log_has 'host "badhost"'
line=$(grep 'host "badhost"' "$LOG" | head -1)
echo "$line" | e2e_diag
case $line in
*'host "badhost" (127.0.0.1): authentication failure: '*"authentication failed"*"$SMBD_USER"*) st=0 ;;
*) st=1 ;;
esac
e2e_ok $st "badhost: a clear authentication failure naming the host and the user"
case $line in *"paused: 0 other hosts using it wait; tried again by one host when $SMBD_DIR/badcreds changes or in 3600 s"*) st=0 ;; *) st=1 ;; esac
e2e_ok $st "badhost: a refused logon pauses its credential until its file changes or for an hour"

e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd running after the refused login"

e2e_wait_for 30 log_has 'host "slowhost" (127.0.0.1): '
line=$(grep 'host "slowhost"' "$LOG" | head -1)
echo "$line" | e2e_diag
case $line in
*'host "slowhost" (127.0.0.1): timeout: '*"timed out"*) st=0 ;;
*) st=1 ;;
esac
e2e_ok $st "slowhost: a server that never answers is logged as a timeout"

# Take smbd away under the good host.
smbd_stop
e2e_wait_for 30 log_has 'host "goodhost" (127.0.0.1): '
e2e_ok $? "goodhost: smbd stopped: the failure is logged"
grep 'host "goodhost"' "$LOG" | head -2 | e2e_diag
smbd_write_sample 3 || e2e_bail "perfmon tdb sample 3"
# Let the plugin fail at least twice (the backoff doubles), then restart.
e2e_wait_for 30 log_has 'host "goodhost" (127.0.0.1): .*attempt 2 failed'
e2e_ok $? "goodhost: retried with backoff while smbd is down"
grep 'host "goodhost"' "$LOG" | sed -n 2,4p | e2e_diag
e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd running while smbd is down"
smbd_start || e2e_bail "smbd restarted"

e2e_wait_for 60 has_value "$G/winperf-Processor-0/gauge-%_Processor_Time.wsp" 50
e2e_ok $? "goodhost: after the restart Processor(0) 100 (1 - 25e6/50e6) = 50 arrives"
e2e_wait_for 10 has_value "$G/winperf-System/gauge-Processes.wsp" 44
e2e_is "$(wsp_values "$G/winperf-Processor-1/gauge-%_Processor_Time.wsp")" "25 75" \
  "goodhost: Processor(1) 25, then 100 (1 - 12.5e6/50e6) = 75 after the restart"
e2e_is "$(wsp_values "$G/winperf-Processor-0/gauge-Interrupts_sec.wsp")" "200 500" \
  "goodhost: Processor(0) Interrupts/sec 500, then 1000 / 5 s = 200"
e2e_is "$(wsp_values "$G/winperf-Processor-1/gauge-Interrupts_sec.wsp")" "50 100" \
  "goodhost: Processor(1) Interrupts/sec 50, then 500 / 5 s = 100"
e2e_is "$(wsp_values "$G/winperf-System/gauge-Context_Switches_sec.wsp")" "1000 1500" \
  "goodhost: Context Switches/sec 1500, then 5000 / 5 s = 1000"
e2e_is "$(wsp_values "$G/winperf-System/gauge-Processes.wsp")" "42 43 44" \
  "goodhost: Processes 42, 43, then 44"
log_has 'host "goodhost" (127.0.0.1): collecting again after [0-9]* failed attempts'
e2e_ok $? "goodhost: the recovery is logged"
grep 'collecting again' "$LOG" | e2e_diag

e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd still running after smbd's restart"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
e2e_stop "$CARBON_PID" 10

# (carbon's own statistics, after a minute, go under whisper/carbon.)
e2e_is "$(find "$W" -mindepth 1 -maxdepth 1 ! -name carbon -printf '%f\n')" goodhost \
  "carbon: only goodhost's metrics, nothing from badhost or slowhost"
e2e_is "$(cd "$G" && find . -name '*.wsp' | sort | tr '\n' ' ')" \
  "./winperf-Processor-0/gauge-%_Processor_Time.wsp ./winperf-Processor-0/gauge-Interrupts_sec.wsp ./winperf-Processor-1/gauge-%_Processor_Time.wsp ./winperf-Processor-1/gauge-Interrupts_sec.wsp ./winperf-System/gauge-Context_Switches_sec.wsp ./winperf-System/gauge-Processes.wsp " \
  "carbon: exactly goodhost's six metrics"
if grep -rqs -- "$SMBD_PASS" "$LOG" "$E2E_DIR/collectd.stdout" "$E2E_DIR/collectd.conf" "$SMBD_DIR/log"; then
  e2e_ok 1 "the password is in no log and not in collectd.conf"
else
  e2e_ok 0 "the password is in no log and not in collectd.conf"
fi
if grep -qE 'runtime error|AddressSanitizer|UndefinedBehaviorSanitizer' "$E2E_DIR/collectd.stdout"; then
  e2e_ok 1 "no sanitizer report from the plugin or the helper"
  grep -m5 -E 'runtime error|Sanitizer' "$E2E_DIR/collectd.stdout" | e2e_diag
else
  e2e_ok 0 "no sanitizer report from the plugin or the helper${asan:+ (ASan build)}"
fi
for h in badhost slowhost; do
  grep -c "host \"$h\"" "$LOG" | sed "s/^/$h log lines: /" | e2e_diag
done
e2e_done
