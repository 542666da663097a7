#!/bin/bash
# collectd-winperf: a <Host> block's own CountersFile changed under a
# running collectd (issue 14, live reload), against a real smbd.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# A real smbd on 127.0.0.1 (tests/remote/smbd-lib.sh) serves sample 1 of
# tests/remote/perfmon_tdb.py throughout: System Processes (RAWCOUNT) 42,
# Thread(t<n>) ID Thread (RAWCOUNT) n. A real collectd 5.12 reads it
# through one <Host> block with a CountersFile of its own (the <Plugin
# winperf> block names another, which must not matter), write_graphite
# sends the values to a real carbon-cache.
#
# Samba's sample clock is in 1601, so collectd stamps the values on
# arrival: the assertions are on which values arrive and on their times
# relative to the reload's log line (whole seconds), never on exact slots;
# tests/e2e/reload.sh asserts every slot exactly with a replay.
#
# Sequence: Processes only; then Processes + Thread(t7)\ID Thread (added:
# its first value an interval after the reload, though a one-sample
# counter); then a broken file (logged once, with the <Host> and
# FILE:LINE:COLUMN; both values go on); then Thread(t7) alone (Processes
# stops).
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=smbd-lib.sh disable=SC2154 # top_srcdir: lib.sh sets it
. "$top_srcdir/tests/remote/smbd-lib.sh"

# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$top_builddir/winperf-remote-helper

smbd_e2e_start hostsreload
e2e_start_carbon

HY=$E2E_DIR/host.yaml
put() { # put LINES...: the host's CountersFile, written aside and renamed
  printf '%s\n' "$@" >"$HY.new" && mv "$HY.new" "$HY"
}
put "- '\\System\\Processes'"
printf '%s\n' "- '\\Processor(*)\\% Processor Time'" >"$E2E_DIR/top.yaml"

cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_globals reload-collectd 1)

$(e2e_conf_logfile_graphite)

LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/top.yaml"
  RemoteHelper "$helper"
  SelfMetrics false # the test asserts the exact set of series
  <Host "rhost">
    Address "127.0.0.1"
    Port $SMBD_PORT
    PasswordFile "$SMBD_DIR/creds"
    CountersFile "$HY"
    Timeout 5
  </Host>
</Plugin>
EOF

e2e_spawn "$E2E_DIR/collectd.stdout" /usr/sbin/collectd -f -C "$E2E_DIR/collectd.conf"
COLLECTD_PID=$E2E_LAST_PID
LOG=$E2E_DIR/collectd.log
G=$CARBON_DIR/whisper/rhost
PROCS=$G/winperf-System/gauge-Processes.wsp
TID=$G/winperf-Thread-t7/gauge-ID_Thread.wsp
T_START=$(date +%s)

# wsp_points FILE: "time value" of every slot with a value since the start.
wsp_points() {
  [ -f "$1" ] || return 0
  /usr/bin/whisper-fetch --json --from="$((T_START - 1))" --until="$(date +%s)" "$1" |
    e2e_whisper_json_lines | awk '$2 != "None" && $2 != "null" && $2 != "" {
      printf "%d %.12g\n", $1, $2 }'
}
values() { wsp_points "$1" | awk '{ print $2 }' | sort -n -u | tr '\n' ' ' | sed 's/ $//'; }
count() { wsp_points "$1" | wc -l; }
first_time() { wsp_points "$1" | awk 'NR == 1 { print $1 }'; }
last_time() { wsp_points "$1" | awk 'END { print $1 + 0 }'; }
at_least() { [ "$(count "$1")" -ge "$2" ]; } # at_least FILE N
log_has() { grep -q -- "$1" "$LOG"; }
# log_time PATTERN: the Unix time (whole seconds) of the first log line
# matching PATTERN (logfile's "[YYYY-MM-DD HH:MM:SS]", local time).
log_time() {
  date -d "$(grep -m1 -- "$1" "$LOG" | sed 's/^\[\([^]]*\)\].*/\1/')" +%s
}
RL="<Host \"rhost\">: CountersFile $HY"

e2e_wait_for 30 at_least "$PROCS" 2
e2e_ok $? "Processes arrives under rhost (first list)"

put "- '\\System\\Processes'" "- '\\Thread(t7)\\ID Thread'"
e2e_wait_for 30 log_has "$RL reloaded: 2 entries (1 unchanged, 1 added, 0 removed)"
e2e_ok $? "log: the host's file reloaded, 1 unchanged, 1 added"
t_add=$(log_time "$RL reloaded: 2 entries")
n_procs=$(count "$PROCS")
e2e_wait_for 30 at_least "$TID" 2
e2e_ok $? "the added Thread(t7) ID Thread arrives"
e2e_is "$(values "$TID")" 7 "Thread(t7) ID Thread is 7"
first=$(first_time "$TID")
[ -n "$first" ] && [ "$first" -gt "$t_add" ]
e2e_ok $? "its first value ($first) comes after the reload's second ($t_add): none in the interval it appears"
e2e_wait_for 10 at_least "$PROCS" $((n_procs + 2))
e2e_ok $? "the unchanged Processes goes on after the reload"

put "- '\\System\\Processes'" "- path: '\\Thread(t7)\\ID Thread'" "  tpye: gauge"
e2e_wait_for 30 log_has "$RL changed but does not load: the 2 entries in use stay"
e2e_ok $? "log: the broken file keeps the 2 entries in use"
grep -- "$RL:3:3: unknown key 'tpye'" "$LOG" | e2e_diag
n_procs=$(count "$PROCS")
n_tid=$(count "$TID")
e2e_wait_for 10 at_least "$TID" $((n_tid + 3))
e2e_ok $? "Thread(t7) goes on while the file is broken"
e2e_wait_for 10 at_least "$PROCS" $((n_procs + 3))
e2e_ok $? "Processes goes on while the file is broken"
e2e_is "$(grep -c -- "$RL:3:3: unknown key 'tpye'" "$LOG")" 1 \
  "log: the broken file once, naming the host and $HY:3:3, though read intervals went by"

put "- '\\Thread(t7)\\ID Thread'"
e2e_wait_for 30 log_has "$RL reloaded: 1 entry (1 unchanged, 0 added, 1 removed)"
e2e_ok $? "log: the fixed file reloaded, Processes removed"
t_rm=$(log_time "$RL reloaded: 1 entry ")
n_tid=$(count "$TID")
e2e_wait_for 10 at_least "$TID" $((n_tid + 3))
e2e_ok $? "Thread(t7) goes on after Processes is removed"
last=$(last_time "$PROCS")
[ "$last" -le "$t_rm" ]
e2e_ok $? "Processes' last value ($last) is no later than the reload ($t_rm)"
e2e_is "$(values "$PROCS")" 42 "Processes was 42 throughout"

e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd still running"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
e2e_stop "$CARBON_PID" 10
e2e_is "$(cd "$G" && find . -name '*.wsp' | sort | tr '\n' ' ')" \
  "./winperf-System/gauge-Processes.wsp ./winperf-Thread-t7/gauge-ID_Thread.wsp " \
  "carbon: rhost's metrics are those of its own file (nothing of top.yaml's list)"
grep 'winperf' "$LOG" | grep -v 'matches nothing' | e2e_diag
e2e_done
