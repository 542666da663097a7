#!/bin/bash
# collectd-winperf: HostsPerHelper, several <Host> blocks on one helper
# process (issue 12).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# A real smbd on 127.0.0.1 (tests/remote/smbd-lib.sh), a real collectd 5.12
# with the built winperf.so and HostsPerHelper 2, a real carbon-cache
# (tests/e2e/lib.sh). Six <Host> blocks, paired onto three helpers in
# configuration order:
#   helper 1: good1 (right password), badpw (wrong password)
#   helper 2: good2, slow (a port that accepts TCP and never answers)
#   helper 3: good3, closed (a port nobody listens on)
# Expected: exactly 3 winperf-remote-helper processes under collectd; every
# good host's exact values in carbon (by hand, tests/remote/collectd-hosts.sh:
# samples 1 -> 2 give % Processor Time 75 and 25, Interrupts/sec 500 and 50,
# Context Switches/sec 1500, Processes 42 then 43); badpw's authentication
# failure, slow's timeout and closed's connect failure logged and nothing
# of theirs in carbon, while their helper-mates keep sending. badpw's file
# is then corrected: after its backoff it comes back without a restart.
# Then helper 2 is killed (SIGKILL) and sample 3 written: good2 comes back
# on a new helper (Processes 44, Processor(0) 50), three helpers again, the
# others untouched.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=smbd-lib.sh disable=SC2154 # top_srcdir: lib.sh sets it
. "$top_srcdir/tests/remote/smbd-lib.sh"
need pgrep ps

# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$top_builddir/winperf-remote-helper

smbd_e2e_start hosts-shared
e2e_ok 0 "smbd listening on 127.0.0.1:$SMBD_PORT (restrict anonymous = 2)"
# The helpers counted below run a copy of their own: make check -j runs
# the other <Host> tests beside this one, on the build's helper.
cp "$helper" "$E2E_DIR/winperf-remote-helper" || e2e_bail "a copy of $helper"
helper=$E2E_DIR/winperf-remote-helper
e2e_start_carbon

smbd_hung_server
CLOSED_PORT=$(e2e_free_port tcp)

cat >"$E2E_DIR/winperf.yaml" <<'EOF'
- '\Processor(*)\% Processor Time'
- '\Processor(*)\Interrupts/sec'
- '\System\Processes'
- '\System\Context Switches/sec'
EOF

host_block() { # host_block NAME PORT CREDS [EXTRA]
  printf '  <Host "%s">\n    Address "127.0.0.1"\n    Port %s\n' "$1" "$2"
  printf '    PasswordFile "%s"\n    Timeout %s\n  </Host>\n' "$3" "${4:-5}"
}
cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_globals shared-collectd 1)
ReadThreads 6

$(e2e_conf_logfile_graphite)

LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  SelfMetrics false
  HostsPerHelper 2
$(host_block good1 "$SMBD_PORT" "$SMBD_DIR/creds")
$(host_block badpw "$SMBD_PORT" "$SMBD_DIR/badcreds")
$(host_block good2 "$SMBD_PORT" "$SMBD_DIR/creds")
$(host_block slow "$SLOW_PORT" "$SMBD_DIR/creds" 1)
$(host_block good3 "$SMBD_PORT" "$SMBD_DIR/creds")
$(host_block closed "$CLOSED_PORT" "$SMBD_DIR/creds")
</Plugin>
EOF

smbd_collectd_start

# collectd's helpers, pids sorted (env may sit between: its children too).
helpers() {
  pgrep -f "^$helper --sessions" | while read -r p; do
    pp=$(ps -o ppid= -p "$p" | tr -d ' ')
    [ "$pp" = "$COLLECTD_PID" ] && echo "$p"
    [ -n "$pp" ] && [ "$(ps -o ppid= -p "$pp" | tr -d ' ')" = "$COLLECTD_PID" ] && echo "$p"
  done | sort -n | tr '\n' ' ' | sed 's/ $//'
}
helper_count() { helpers | wc -w; }
all_have() { # all_have RELPATH VALUE: every good host has it
  for g in good1 good2 good3; do has_value "$W/$g/$1" "$2" || return 1; done
}

e2e_wait_for 40 all_have winperf-System/gauge-Processes.wsp 42
e2e_ok $? "good1, good2, good3: sample 1's Processes (42) arrives in carbon"
e2e_is "$(helper_count)" 3 "6 <Host> blocks, HostsPerHelper 2: exactly 3 helper processes"
first=$(helpers)
echo "helpers: $first" | e2e_diag
e2e_is "$(pgrep -f "^$helper" | wc -l)" 3 "no other helper process (none per host)"
ps -o pid,args -p "$(helpers | tr ' ' ,)" | e2e_diag

smbd_write_sample 2 || e2e_bail "perfmon tdb sample 2"
e2e_wait_for 30 all_have winperf-System/gauge-Context_Switches_sec.wsp 1500
e2e_ok $? "every good host: sample 2 reached carbon"
e2e_wait_for 10 all_have winperf-Processor-1/gauge-Interrupts_sec.wsp 50
e2e_wait_for 10 all_have winperf-System/gauge-Processes.wsp 43
for g in good1 good2 good3; do
  G=$W/$g
  e2e_is "$(wsp_values "$G/winperf-Processor-0/gauge-%_Processor_Time.wsp") $(wsp_values "$G/winperf-Processor-1/gauge-%_Processor_Time.wsp")" "75 25" \
    "$g: % Processor Time 75 (Processor 0) and 25 (Processor 1)"
  e2e_is "$(wsp_values "$G/winperf-Processor-0/gauge-Interrupts_sec.wsp") $(wsp_values "$G/winperf-Processor-1/gauge-Interrupts_sec.wsp")" "500 50" \
    "$g: Interrupts/sec 2500 / 5 s = 500 and 250 / 5 s = 50"
  e2e_is "$(wsp_values "$G/winperf-System/gauge-Context_Switches_sec.wsp")" 1500 \
    "$g: Context Switches/sec 7500 / 5 s = 1500"
  e2e_is "$(wsp_values "$G/winperf-System/gauge-Processes.wsp")" "42 43" \
    "$g: Processes 42 then 43"
done

e2e_wait_for 20 log_has 'host "badpw"'
line=$(grep 'host "badpw"' "$LOG" | head -1)
echo "$line" | e2e_diag
case $line in
*'host "badpw" (127.0.0.1): authentication failure: '*"authentication failed"*"$SMBD_USER"*"paused: 0 other hosts using it wait"*) st=0 ;;
*) st=1 ;;
esac
e2e_ok $st "badpw: its authentication failure is logged (and its credential paused)"
e2e_is "$(find "$W" -mindepth 1 -maxdepth 1 ! -name carbon -printf '%f\n' | sort | tr '\n' ' ')" \
  "good1 good2 good3 " "carbon: nothing from badpw while its password is wrong"
# The password corrected in its file (cp keeps the file's mode 0600): the
# changed file ends its credential's pause; badpw reads the file again in a
# new session and comes back.
cp "$SMBD_DIR/creds" "$SMBD_DIR/badcreds"
e2e_wait_for 30 log_has 'host "slow" (127.0.0.1): '
line=$(grep 'host "slow"' "$LOG" | head -1)
echo "$line" | e2e_diag
case $line in *'host "slow" (127.0.0.1): timeout: '*"timed out"*) st=0 ;; *) st=1 ;; esac
e2e_ok $st "slow: a server that never answers is logged as a timeout"
e2e_wait_for 30 log_has 'host "closed" (127.0.0.1): '
line=$(grep 'host "closed"' "$LOG" | head -1)
echo "$line" | e2e_diag
case $line in *'host "closed" (127.0.0.1): connection failure: '*) st=0 ;; *) st=1 ;; esac
e2e_ok $st "closed: a closed port is logged as a connect failure"
e2e_is "$(grep -E 'host "good[123]"' "$LOG" | head -3)" "" \
  "no failure logged for good1, good2, good3 beside their failing helper-mates"

# slow's timeouts are its own (libsmbclient's timeout answers before the
# helper's watchdog): its helper, shared with good2, keeps running.
e2e_wait_for 30 log_has 'host "slow" (127.0.0.1): .*attempt 3 failed'
e2e_ok $? "slow: three attempts timed out"
e2e_is "$(helpers)" "$first" "the same three helpers after slow's timeouts"

# Kill the helper good2 shares with slow: good2 (and slow) get a new one.
before=$(helpers)
p2=$(pgrep -f "^$helper --sessions" | while read -r p; do
  # the helper with a connection to smbd that is not helper 1's nor 3's:
  # the one whose sessions include the hung server's port
  ss -Htnp "dport = :$SLOW_PORT" 2>/dev/null | grep -q "pid=$p," && echo "$p"
done | head -1)
if [ -z "$p2" ]; then
  # slow may be between attempts: the middle helper by start order
  p2=$(echo "$before" | awk '{print $2}')
fi
echo "killing helper $p2 (helpers: $before)" | e2e_diag
kill -KILL "$p2"
smbd_write_sample 3 || e2e_bail "perfmon tdb sample 3"
e2e_wait_for 40 all_have winperf-System/gauge-Processes.wsp 44
e2e_ok $? "after the kill: every good host gets sample 3 (Processes 44)"
e2e_wait_for 10 all_have winperf-Processor-0/gauge-%_Processor_Time.wsp 50
for g in good1 good2 good3; do
  e2e_is "$(wsp_values "$W/$g/winperf-Processor-0/gauge-%_Processor_Time.wsp")" "50 75" \
    "$g: Processor(0) 75, then 100 (1 - 25e6/50e6) = 50"
done
e2e_wait_for 10 test "$(helper_count)" = 3
after=$(helpers)
e2e_is "$(helper_count)" 3 "three helpers again after the kill"
case " $after " in *" $p2 "*) st=1 ;; *) st=0 ;; esac
e2e_ok $st "the killed helper ($p2) was replaced ($before -> $after)"
e2e_wait_for 90 has_value "$W/badpw/winperf-System/gauge-Processes.wsp" 44
e2e_ok $? "badpw: with the corrected file it sends again (Processes 44), no restart"
log_has 'host "badpw" (127.0.0.1): credential .* accepted again'
e2e_ok $? "badpw: its recovery is logged (its credential accepted again)"
e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd running"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
e2e_is "$(pgrep -f "^$helper" | wc -l)" 0 "no helper left after collectd's exit"
e2e_stop "$CARBON_PID" 10

e2e_is "$(find "$W" -mindepth 1 -maxdepth 1 ! -name carbon -printf '%f\n' | sort | tr '\n' ' ')" \
  "badpw good1 good2 good3 " "carbon: the good hosts' metrics and badpw's after its fix, nothing of slow or closed"
if grep -rqs -- "$SMBD_PASS" "$LOG" "$E2E_DIR/collectd.stdout" "$E2E_DIR/collectd.conf"; then
  e2e_ok 1 "the password is in no log and not in collectd.conf"
else
  e2e_ok 0 "the password is in no log and not in collectd.conf"
fi
# An out-of-range HostsPerHelper: collectd refuses the configuration.
cat >"$E2E_DIR/bad.conf" <<EOF
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
  HostsPerHelper 0
  <Host "h">
    Port $SMBD_PORT
  </Host>
</Plugin>
EOF
timeout 20 /usr/sbin/collectd -f -C "$E2E_DIR/bad.conf" >"$E2E_DIR/bad.stdout" 2>&1
st=$?
grep -q 'HostsPerHelper 0: expected 1 to 1024' "$E2E_DIR/bad.log" "$E2E_DIR/bad.stdout"
e2e_ok $? "HostsPerHelper 0 is refused with the allowed range"
case $st in 0 | 124) e2e_ok 1 "collectd does not start with it (status $st)" ;;
*) e2e_ok 0 "collectd does not start with it (status $st)" ;; esac

for h in badpw slow closed good2; do
  grep -c "host \"$h\"" "$LOG" | sed "s/^/$h log lines: /" | e2e_diag
done
e2e_done
