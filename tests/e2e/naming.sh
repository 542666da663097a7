#!/bin/bash
# collectd-winperf end to end: naming profiles and pairing by process id in
# real carbon-cache (write_graphite) and real InfluxDB 1.6 (network plugin
# -> [[collectd]] input), from real collectd 5.12 replaying
# tests/e2e/naming_capture's three samples (every value by hand in
# naming_capture.c) in three <Plugin winperf> blocks, one per Host:
#   pdh     the defaults: PDH names, PairBy "id"
#   clean   MetricNames "clean", InstanceNames "pid"; entries that set
#           metric_names/instance_names back to pdh, and overrides used as
#           written
#   byname  PairBy "name" (PDH's rule, the wrong 45 for the renumbered
#           w3wp#1); an entry with pair_by: id and instance_names: pid
# Each value is stamped with its sample's time (Timestamp "sample"), so
# slot T0 + k of a 1 s whisper file and InfluxDB's point at T0 + k hold
# interval k's value; "-" is an empty slot (first sample, process gone).
# Then bad input: collectd refuses to start on a bad metric_names value
# (file:line:column) and a bad MetricNames/InstanceNames option.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

e2e_init naming
need collectd curl ss influxd
GEN=$top_builddir/tests/e2e/naming_capture
[ -x "$GEN" ] || e2e_bail "capture generator $GEN built"
K=3 T0=$(($(date +%s) - 60))
"$GEN" "$E2E_DIR/capture" "$T0" || e2e_bail "generate the capture"
e2e_plugin_dir logfile write_graphite network

cat >"$E2E_DIR/pdh.yaml" <<'EOF2'
- '\Process(*)\% Processor Time'
- '\Thread(*)\% Processor Time'
- '\LogicalDisk(*)\Free Megabytes'
- '\Process V2(*)\Handle Count'
EOF2
cat >"$E2E_DIR/clean.yaml" <<'EOF2'
- '\Process(*)\% Processor Time'
- '\Thread(*)\% Processor Time'
- '\LogicalDisk(*)\Free Megabytes'
- '\Process V2(*)\Handle Count'
- '\Paging File(*)\% Usage'
- path: '\Process(*)\% User Time'
  metric_names: pdh
  instance_names: pdh
- path: '\Process(Idle)\ID Process'
  plugin_instance: Idle Process
  type_instance: PID
- path: '\Process V2(*)\ID Process'
  plugin_instance: Process V2
EOF2
cat >"$E2E_DIR/byname.yaml" <<'EOF2'
- '\Process(w3wp*)\% Processor Time'
- path: '\Process(w3wp*)\% User Time'
  pair_by: id
  instance_names: pid
EOF2

# block HOST YAML OPTIONS...: one <Plugin winperf> block replaying the
# capture once.
block() {
  echo "<Plugin winperf>"
  echo "  Host \"$1\""
  echo "  CountersFile \"$E2E_DIR/$2\""
  shift 2
  echo "  Replay \"$E2E_DIR/capture\""
  echo "  ReplayLoop false"
  echo "  Timestamp \"sample\""
  echo "  SelfMetrics false # the test asserts the exact set of series"
  for o in "$@"; do echo "  $o"; done
  echo "</Plugin>"
}

write_conf() { # write_conf FILE BLOCKS...
  _f=$1
  shift
  cat >"$_f" <<EOF2
$(e2e_conf_collectd naming-collectd)
$(printf '%s\n' "$@")
EOF2
}

e2e_start_carbon
e2e_start_influx
write_conf "$E2E_DIR/collectd.conf" \
  "$(block pdh pdh.yaml)" \
  "$(block clean clean.yaml 'MetricNames "clean"' 'InstanceNames "pid"')" \
  "$(block byname byname.yaml 'PairBy "name"')"
e2e_spawn "$E2E_DIR/collectd.stdout" /usr/sbin/collectd -f -C "$E2E_DIR/collectd.conf"
COLLECTD_PID=$E2E_LAST_PID

W=$CARBON_DIR/whisper
last_in_whisper() { # the last value of one metric of each host
  for _m in pdh/winperf-Process-w3wp/gauge-%_Processor_Time \
    clean/winperf-process-w3wp_10/gauge-pct_processor_time \
    byname/winperf-Process-w3wp/gauge-%_Processor_Time; do
    e2e_whisper_series "$W/$_m.wsp" "$T0" "$K" | grep -q ' 20$' || return 1
  done
}
last_in_influx() {
  [ "$(e2e_influx_query "SELECT value FROM winperf_value WHERE time >= $((T0 + K - 1))s" |
    wc -l)" -ge 30 ]
}
# Wait (bounded) for the last interval in both servers (it is written
# last by each block; the three blocks run side by side).
e2e_wait_for 60 last_in_whisper
e2e_ok $? "the last interval reached carbon"
e2e_wait_for 60 last_in_influx
e2e_ok $? "the last interval reached InfluxDB"
sleep 2 # the other blocks' last values, flushed each second
e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd still running after the replays"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
e2e_stop "$CARBON_PID" 10
e2e_whisper_fetch_all "$W" "$((T0 - 1))" "$((T0 + K - 1))"

# check HOST GRAPHITE_NAME INFLUX_INSTANCE INFLUX_TYPE_INSTANCE EXPECTED WHAT
# GRAPHITE_NAME: "plugin_instance/type-type_instance" as write_graphite
# writes it (the file winperf-PLUGIN_INSTANCE/TYPE-TYPE_INSTANCE.wsp).
check() {
  e2e_is "$(e2e_whisper_series "$W/$1/winperf-$2.wsp" "$T0" "$K")" "$5" \
    "carbon: $1: winperf-$2: $6"
  e2e_is "$(e2e_influx_query "SELECT value FROM winperf_value WHERE host = '$1' AND instance = '$3' AND type_instance = '$4'" |
    e2e_series "$T0" "$K")" "$5" "influxdb: $1: instance=$3 type_instance=$4: $6"
}

# --- pdh: PDH names, pairing by id ------------------------------------
P='gauge-%_Processor_Time'
check pdh "Process-w3wp#1/$P" 'Process-w3wp#1' '% Processor Time' '- 30 25' \
  "renumbered: interval 2 is pid 30's own 25 (by id)"
check pdh "Process-w3wp#2/$P" 'Process-w3wp#2' '% Processor Time' '- 40 -' \
  "w3wp#2 (pid 30) until it is renumbered"
check pdh "Process-w3wp/$P" 'Process-w3wp' '% Processor Time' '- 10 20' "pid 10"
check pdh "Process-Idle/$P" 'Process-Idle' '% Processor Time' '- 50 50' "Idle, pid 0"
check pdh "Process-Ærøskøbing/$P" 'Process-Ærøskøbing' '% Processor Time' '- 70 70' \
  "a UTF-16 accented name, as is"
check pdh "Thread-w3wp_0/$P" 'Thread-w3wp_0' '% Processor Time' '- 10 10' \
  "a thread: '/' -> '_'"
check pdh "LogicalDisk-Dépôt/gauge-Free_Megabytes" 'LogicalDisk-Dépôt' 'Free Megabytes' \
  '200 201 202' "a CodePage 1252 accented name, as UTF-8"
check pdh "LogicalDisk-C_/gauge-Free_Megabytes" 'LogicalDisk-C:' 'Free Megabytes' \
  '100 101 102' "write_graphite turns ':' into '_'; InfluxDB keeps it"
check pdh "Process_V2-w3wp_10/gauge-Handle_Count" 'Process V2-w3wp:10' 'Handle Count' \
  '500 501 502' "Process V2's name:pid instance"

# --- clean: MetricNames "clean", InstanceNames "pid" ------------------
C='gauge-pct_processor_time'
check clean "process-w3wp_30/$C" 'process-w3wp_30' 'pct_processor_time' '- 40 25' \
  "pid 30 keeps one series through the renumbering"
check clean "process-w3wp_20/$C" 'process-w3wp_20' 'pct_processor_time' '- 30 -' \
  "pid 20 until it exits"
check clean "process-w3wp_10/$C" 'process-w3wp_10' 'pct_processor_time' '- 10 20' "pid 10"
check clean "process-idle/$C" 'process-idle' 'pct_processor_time' '- 50 50' \
  "Idle has pid 0: its PDH name, cleaned"
check clean "process-_total/$C" 'process-_total' 'pct_processor_time' '- 100 100' \
  "_Total keeps its PDH name and its leading '_'"
check clean "process-aeroskobing_77/$C" 'process-aeroskobing_77' 'pct_processor_time' \
  '- 70 70' "Ærøskøbing (UTF-16) transliterated"
check clean "thread-w3wp_10_100/$C" 'thread-w3wp_10_100' 'pct_processor_time' \
  '- 10 10' "a thread: process:pid:tid"
check clean "thread-idle_0/$C" 'thread-idle_0' 'pct_processor_time' '- 50 50' \
  "Idle/0 (tid 0) keeps its PDH name"
check clean "logicaldisk-depot/gauge-free_megabytes" 'logicaldisk-depot' 'free_megabytes' \
  '200 201 202' "Dépôt (CodePage 1252) transliterated"
check clean "logicaldisk-c/gauge-free_megabytes" 'logicaldisk-c' 'free_megabytes' \
  '100 101 102' "C: is c"
check clean "process_v2-w3wp_10/gauge-handle_count" 'process_v2-w3wp_10' 'handle_count' \
  '500 501 502' "Process V2's w3wp:10 stays one name (no second :10)"
check clean "process_v2-_total/gauge-handle_count" 'process_v2-_total' 'handle_count' \
  '1100 1102 1104' "Process V2's _Total (pid 0)"
check clean "Process-w3wp#1/gauge-%_User_Time" 'Process-w3wp#1' '% User Time' '- 30 25' \
  "the entry's metric_names/instance_names pdh over the block's"
check clean "Idle_Process/gauge-PID" 'Idle Process' 'PID' '0 0 0' \
  "plugin_instance/type_instance overrides as written"
check clean "Process_V2-w3wp_30/gauge-id_process" 'Process V2-w3wp_30' 'id_process' \
  '30 30 30' "an override as written, the wildcard's instance cleaned"

# --- byname: PairBy "name" (PDH) ----------------------------------------
check byname "Process-w3wp#1/$P" 'Process-w3wp#1' '% Processor Time' '- 30 45' \
  "PDH's wrong value: pid 30 at sample 2 against pid 20 at sample 1"
check byname "Process-w3wp_30/gauge-%_User_Time" 'Process-w3wp:30' '% User Time' \
  '- 40 25' "the entry's pair_by: id and instance_names: pid"
check byname "Process-w3wp_20/gauge-%_User_Time" 'Process-w3wp:20' '% User Time' \
  '- 30 -' "the entry's instance_names: pid, pid 20"

# Exactly the metrics of the clean and byname hosts.
files_of() { (cd "$W/$1" && find . -name '*.wsp' | sort | tr '\n' ' '); }
e2e_is "$(files_of byname)" "$(sort <<'EOF2' | tr '\n' ' '
./winperf-Process-w3wp#1/gauge-%_Processor_Time.wsp
./winperf-Process-w3wp#2/gauge-%_Processor_Time.wsp
./winperf-Process-w3wp/gauge-%_Processor_Time.wsp
./winperf-Process-w3wp_10/gauge-%_User_Time.wsp
./winperf-Process-w3wp_20/gauge-%_User_Time.wsp
./winperf-Process-w3wp_30/gauge-%_User_Time.wsp
EOF2
)" "carbon: byname: exactly the expected metrics"
e2e_is "$(files_of clean)" "$(sort <<'EOF2' | tr '\n' ' '
./winperf-Idle_Process/gauge-PID.wsp
./winperf-Process-Idle/gauge-%_User_Time.wsp
./winperf-Process-_Total/gauge-%_User_Time.wsp
./winperf-Process-w3wp#1/gauge-%_User_Time.wsp
./winperf-Process-w3wp#2/gauge-%_User_Time.wsp
./winperf-Process-w3wp/gauge-%_User_Time.wsp
./winperf-Process-Ærøskøbing/gauge-%_User_Time.wsp
./winperf-Process_V2-_total/gauge-id_process.wsp
./winperf-Process_V2-w3wp_10/gauge-id_process.wsp
./winperf-Process_V2-w3wp_30/gauge-id_process.wsp
./winperf-logicaldisk-_total/gauge-free_megabytes.wsp
./winperf-logicaldisk-c/gauge-free_megabytes.wsp
./winperf-logicaldisk-depot/gauge-free_megabytes.wsp
./winperf-paging_file-c_pagefile_sys/gauge-pct_usage.wsp
./winperf-process-_total/gauge-pct_processor_time.wsp
./winperf-process-aeroskobing_77/gauge-pct_processor_time.wsp
./winperf-process-idle/gauge-pct_processor_time.wsp
./winperf-process-w3wp_10/gauge-pct_processor_time.wsp
./winperf-process-w3wp_20/gauge-pct_processor_time.wsp
./winperf-process-w3wp_30/gauge-pct_processor_time.wsp
./winperf-process_v2-_total/gauge-handle_count.wsp
./winperf-process_v2-w3wp_10/gauge-handle_count.wsp
./winperf-process_v2-w3wp_30/gauge-handle_count.wsp
./winperf-thread-idle_0/gauge-pct_processor_time.wsp
./winperf-thread-w3wp_10_100/gauge-pct_processor_time.wsp
EOF2
)" "carbon: clean: exactly the expected metrics"

# InfluxDB's series of the byname host: the tags as collectd sent them.
got_series=$(e2e_influx_series_keys | grep ',host=byname,' | sort | tr '\n' '|')
want_series=$(
  sort <<'EOF2' | tr '\n' '|'
winperf_value,host=byname,instance=Process-w3wp#1,type=gauge,type_instance=%\ Processor\ Time
winperf_value,host=byname,instance=Process-w3wp#2,type=gauge,type_instance=%\ Processor\ Time
winperf_value,host=byname,instance=Process-w3wp,type=gauge,type_instance=%\ Processor\ Time
winperf_value,host=byname,instance=Process-w3wp:10,type=gauge,type_instance=%\ User\ Time
winperf_value,host=byname,instance=Process-w3wp:20,type=gauge,type_instance=%\ User\ Time
winperf_value,host=byname,instance=Process-w3wp:30,type=gauge,type_instance=%\ User\ Time
EOF2
)
e2e_is "$got_series" "$want_series" "influxdb: byname: exactly the expected series"

# The clash: two counters with one clean name, logged once, naming both.
clash='\Paging File(C:\pagefile.sys)\% Usage and \Paging File(c:_pagefile.sys)\% Usage are both dispatched as winperf-paging_file-c_pagefile_sys/gauge-pct_usage'
e2e_is "$(grep -cF "$clash" "$E2E_DIR/collectd.log")" 1 \
  "the clean-name clash is logged once, naming both counters"
grep -F 'are both dispatched' "$E2E_DIR/collectd.log" | e2e_diag
e2e_is "$(grep -c 'are both dispatched' "$E2E_DIR/collectd.log")" 1 \
  "no other clash logged (the pdh and byname hosts have none)"

e2e_stop "$INFLUX_PID" 3

# --- bad input: collectd refuses to start -------------------------------
printf -- "- path: '\\\\Process(*)\\\\%% Processor Time'\n  metric_names: foo\n" \
  >"$E2E_DIR/bad.yaml"
write_conf "$E2E_DIR/bad.conf" "$(block bad bad.yaml)"
: >"$E2E_DIR/collectd.log"
/usr/sbin/collectd -T -C "$E2E_DIR/bad.conf" >"$E2E_DIR/bad.stdout" 2>&1
rc=$?
e2e_ok $((rc == 0)) "metric_names: foo: collectd refuses to start (exit $rc)"
grep -qF "winperf: CountersFile $E2E_DIR/bad.yaml:2:17: expected pdh or clean for 'metric_names', got 'foo'" \
  "$E2E_DIR/collectd.log" "$E2E_DIR/bad.stdout"
e2e_ok $? "metric_names: foo: file:line:column and what was expected"
for opt in 'MetricNames "pid"|MetricNames "pid": expected "pdh" or "clean"' \
  'InstanceNames "clean"|InstanceNames "clean": expected "pdh" or "pid"'; do
  write_conf "$E2E_DIR/bad.conf" "$(block bad pdh.yaml "${opt%%|*}")"
  : >"$E2E_DIR/collectd.log"
  /usr/sbin/collectd -T -C "$E2E_DIR/bad.conf" >"$E2E_DIR/bad.stdout" 2>&1
  rc=$?
  e2e_ok $((rc == 0)) "${opt%%|*}: collectd refuses to start (exit $rc)"
  grep -qF "${opt#*|}" "$E2E_DIR/collectd.log" "$E2E_DIR/bad.stdout"
  e2e_ok $? "${opt%%|*}: says what is expected"
done

e2e_done
