#!/bin/bash
# collectd-winperf: MetricNames and InstanceNames in <Host> blocks
# (issue 13), against a real smbd.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# A real smbd on 127.0.0.1 (tests/remote/smbd-lib.sh) serves sample 1 of
# tests/remote/perfmon_tdb.py with its Process object: w3wp pid 10, w3wp#1
# pid 20, _Total pid 0 (ID Process, RAWCOUNT), and System Processes 42. A
# real collectd 5.12 reads it through two <Host> blocks; write_graphite
# sends the values to a real carbon-cache.
#
# The <Plugin winperf> block sets MetricNames "clean" and InstanceNames
# "pid", the defaults of every <Host> block:
#   inherit  says nothing: clean names, processes as BASENAME:PID
#            (write_graphite turns ':' into '_'), _Total keeps its name;
#   asis     sets both back to "pdh": PDH's names as written.
# Expected names by hand from doc/metric-naming.md (the clean profile).
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=smbd-lib.sh disable=SC2154 # top_srcdir: lib.sh sets it
. "$top_srcdir/tests/remote/smbd-lib.sh"

# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$top_builddir/winperf-remote-helper

smbd_e2e_start hostnaming process
e2e_start_carbon

printf '%s\n' "- '\\System\\Processes'" "- '\\Process(*)\\ID Process'" >"$E2E_DIR/winperf.yaml"

host_block() { # host_block NAME OPTIONS...
  printf '  <Host "%s">\n    Address "127.0.0.1"\n    Port %s\n' "$1" "$SMBD_PORT"
  printf '    PasswordFile "%s"\n    Timeout 5\n' "$SMBD_DIR/creds"
  shift
  for o in "$@"; do printf '    %s\n' "$o"; done
  printf '  </Host>\n'
}

cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_globals hostnaming-collectd 1)

$(e2e_conf_logfile_graphite)

LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  SelfMetrics false # the test asserts the exact set of series
  MetricNames "clean"
  InstanceNames "pid"
$(host_block inherit)
$(host_block asis 'MetricNames "pdh"' 'InstanceNames "pdh"')
</Plugin>
EOF

e2e_spawn "$E2E_DIR/collectd.stdout" /usr/sbin/collectd -f -C "$E2E_DIR/collectd.conf"
COLLECTD_PID=$E2E_LAST_PID
W=$CARBON_DIR/whisper
T_START=$(date +%s)

# values FILE: the distinct values FILE holds since the start.
values() {
  [ -f "$1" ] || return 0
  /usr/bin/whisper-fetch --json --from="$((T_START - 1))" --until="$(date +%s)" "$1" |
    e2e_whisper_json_lines | awk '$2 != "None" && $2 != "null" && $2 != "" {
      printf "%.12g\n", $2 }' | sort -n -u | tr '\n' ' ' | sed 's/ $//'
}
has() { [ -n "$(values "$1")" ]; }
files_of() { # the whisper files under one host, relative, sorted
  (cd "$W/$1" 2>/dev/null && find . -name '*.wsp' | sort | tr '\n' ' ' | sed 's/ $//')
}

I=$W/inherit
A=$W/asis
e2e_wait_for 30 has "$I/winperf-process-w3wp_20/gauge-id_process.wsp" &&
  e2e_wait_for 10 has "$A/winperf-Process-w3wp#1/gauge-ID_Process.wsp" &&
  e2e_wait_for 10 has "$I/winperf-system/gauge-processes.wsp" &&
  e2e_wait_for 10 has "$A/winperf-System/gauge-Processes.wsp"
e2e_ok $? "both hosts' values arrive in carbon"
sleep 2 # another interval: nothing else may appear

e2e_is "$(files_of inherit)" "./winperf-process-_total/gauge-id_process.wsp ./winperf-process-w3wp_10/gauge-id_process.wsp ./winperf-process-w3wp_20/gauge-id_process.wsp ./winperf-system/gauge-processes.wsp" \
  "inherit: the plugin block's clean names and BASENAME:PID instances, exactly"
e2e_is "$(files_of asis)" "./winperf-Process-_Total/gauge-ID_Process.wsp ./winperf-Process-w3wp#1/gauge-ID_Process.wsp ./winperf-Process-w3wp/gauge-ID_Process.wsp ./winperf-System/gauge-Processes.wsp" \
  "asis: its own \"pdh\" settings override the plugin block's, exactly PDH's names"
e2e_is "$(values "$I/winperf-process-w3wp_10/gauge-id_process.wsp")" 10 \
  "inherit: w3wp is pid 10: process-w3wp_10 holds 10"
e2e_is "$(values "$I/winperf-process-w3wp_20/gauge-id_process.wsp")" 20 \
  "inherit: w3wp#1 is pid 20: process-w3wp_20 holds 20 (the name without #1)"
e2e_is "$(values "$I/winperf-process-_total/gauge-id_process.wsp")" 0 \
  "inherit: _Total (pid 0) keeps its PDH name, cleaned"
e2e_is "$(values "$A/winperf-Process-w3wp#1/gauge-ID_Process.wsp")" 20 \
  "asis: Process-w3wp#1 holds 20"
e2e_is "$(values "$I/winperf-system/gauge-processes.wsp") $(values "$A/winperf-System/gauge-Processes.wsp")" \
  "42 42" "both: System Processes 42"

e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd running"
grep 'winperf' "$E2E_DIR/collectd.log" | e2e_diag
e2e_done
