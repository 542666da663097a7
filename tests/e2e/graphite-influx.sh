#!/bin/bash
# collectd-winperf end to end: real collectd 5.12 with the built winperf.so
# replays a capture whose every value is known by hand, and real carbon-cache
# (write_graphite) and real InfluxDB 1.6 (network plugin -> [[collectd]]
# input) must hold exactly those values.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# How exact per-interval assertions are possible: the capture's sample k
# carries PerfTime100nSec = T0 + k seconds (T0 a minute ago, whole seconds)
# and the plugin runs with Timestamp "sample", so interval k's values are
# stamped T0 + k whatever collectd's own pace. Carbon keeps 1 s slots
# (retention 1s:1h), so slot T0 + k of every whisper file holds interval k's
# value or nothing; InfluxDB keeps the timestamps as sent. collectd's
# Interval (0.25 s) only decides how fast the 12 blobs are replayed
# (ReplayLoop false), never what is asserted. The expected values below are
# computed by hand from the raw values in tests/e2e/e2e_capture.c (format.md 3);
# "-" means the slot must be empty: first sample of a two-sample counter,
# the malformed blob 6, the counter reset at 3, an instance not present.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

K=12
e2e_init e2e
need collectd curl ss influxd
e2e_plugin_dir logfile write_graphite network
GEN=$top_builddir/tests/e2e/e2e_capture
[ -x "$GEN" ] || e2e_bail "capture generator $GEN built"

T0=$(($(date +%s) - 60))
"$GEN" exact "$E2E_DIR/capture" "$T0" || e2e_bail "generate the capture"
e2e_start_carbon
e2e_start_influx
/usr/bin/influxd version | grep -q '^InfluxDB v1\.6\.'
e2e_ok $? "the real InfluxDB is 1.6 ($(/usr/bin/influxd version))"
/usr/sbin/collectd -h | grep -q '^collectd 5\.12\.'
e2e_ok $? "the real collectd is 5.12 ($(/usr/sbin/collectd -h | grep '^collectd [0-9]'))"

# Paths in single quotes: YAML keeps the backslashes as they are.
cat >"$E2E_DIR/winperf.yaml" <<'EOF'
# Counters for the end-to-end test (tests/e2e/graphite-influx.sh).
- '\Processor(*)\% Processor Time'
- '\Memory\Available Bytes'
- '\Memory\Pages/sec'
- path: '\Memory\% Committed Bytes In Use'
- '\LogicalDisk(C:)\Avg. Disk sec/Read'
- '\Process(*)\% Processor Time'
- '\Process(*)\Working Set'
- '\Process(svchost#1)\ID Process'
EOF

cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_collectd e2e-collectd)
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  Replay "$E2E_DIR/capture"
  ReplayLoop false
  ValueMode "formatted"
  Timestamp "sample"
  Host "e2ehost"
  SelfMetrics false # the exact set of series below (self-metrics.sh)
</Plugin>
EOF

e2e_spawn "$E2E_DIR/collectd.stdout" /usr/sbin/collectd -f -C "$E2E_DIR/collectd.conf"
COLLECTD_PID=$E2E_LAST_PID

W=$CARBON_DIR/whisper/e2ehost
Q="SELECT value FROM winperf_value WHERE host = 'e2ehost' AND type = 'gauge'"
last_in_whisper() {
  e2e_whisper_series "$W/winperf-Process-newproc/gauge-%_Processor_Time.wsp" "$T0" "$K" |
    grep -q ' 90$'
}
last_in_influx() {
  e2e_influx_query "$Q AND instance = 'Process-newproc' AND type_instance = '% Processor Time'" |
    grep -q "^$((T0 + K - 1)) 90$"
}
# Wait (bounded) until the last interval's value has reached both servers.
e2e_wait_for 60 last_in_whisper
e2e_ok $? "the last interval reached carbon"
e2e_wait_for 60 last_in_influx
e2e_ok $? "the last interval reached InfluxDB"

e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd still running after the whole capture (malformed blob included)"
grep -i 'winperf' "$E2E_DIR/collectd.log" | grep -q '0006'
e2e_ok $? "the malformed blob 0006 is named in collectd's log"
grep -i 'winperf' "$E2E_DIR/collectd.log" | grep '0006' | e2e_diag
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
# Carbon writes what it has cached before it stops (WHISPER_AUTOFLUSH
# makes every write reach the file).
e2e_stop "$CARBON_PID" 10
e2e_whisper_fetch_all "$CARBON_DIR/whisper" "$((T0 - 1))" "$((T0 + K - 1))"

# The metric files carbon created: the naming rule end to end (plugin:
# '/' -> '_'; write_graphite: ' ', '.' and ':' -> '_').
got_files=$(cd "$CARBON_DIR/whisper" && find . -name '*.wsp' | sort | tr '\n' ' ')
want_files=$(
  sort <<'EOF' | tr '\n' ' '
./e2ehost/winperf-LogicalDisk-C_/gauge-Avg__Disk_sec_Read.wsp
./e2ehost/winperf-Memory/gauge-%_Committed_Bytes_In_Use.wsp
./e2ehost/winperf-Memory/gauge-Available_Bytes.wsp
./e2ehost/winperf-Memory/gauge-Pages_sec.wsp
./e2ehost/winperf-Process-newproc/gauge-%_Processor_Time.wsp
./e2ehost/winperf-Process-newproc/gauge-Working_Set.wsp
./e2ehost/winperf-Process-oldproc/gauge-%_Processor_Time.wsp
./e2ehost/winperf-Process-oldproc/gauge-Working_Set.wsp
./e2ehost/winperf-Process-svchost#1/gauge-%_Processor_Time.wsp
./e2ehost/winperf-Process-svchost#1/gauge-ID_Process.wsp
./e2ehost/winperf-Process-svchost#1/gauge-Working_Set.wsp
./e2ehost/winperf-Process-svchost/gauge-%_Processor_Time.wsp
./e2ehost/winperf-Process-svchost/gauge-Working_Set.wsp
./e2ehost/winperf-Processor-0/gauge-%_Processor_Time.wsp
./e2ehost/winperf-Processor-_Total/gauge-%_Processor_Time.wsp
EOF
)
e2e_is "$got_files" "$want_files" "carbon: exactly the expected metrics"

# check WHAT PLUGIN_INSTANCE TYPE_INSTANCE GRAPHITE_NAME EXPECTED
# GRAPHITE_NAME: "plugin_instance/type_instance" as write_graphite escapes
# them (file winperf-PLUGIN_INSTANCE/gauge-TYPE_INSTANCE.wsp).
check() {
  e2e_is "$(e2e_whisper_series "$W/winperf-${4%%/*}/gauge-${4#*/}.wsp" "$T0" "$K")" "$5" \
    "carbon: $1"
  e2e_is "$(e2e_influx_query "$Q AND instance = '$2' AND type_instance = '$3'" |
    e2e_series "$T0" "$K")" "$5" "influxdb: $1"
}

# Slot:  0 1 2 ... 11 (sample k at T0 + k). Blob 6 is malformed: slot 6 is
# empty everywhere, and interval 7 pairs sample 7 with sample 5 (2 s).
check "100NSEC_TIMER_INV Processor(0): idle 7e6/1e7 -> 30 %, ..., 7: 1.5e7/2e7 -> 25 %" \
  Processor-0 '% Processor Time' 'Processor-0/%_Processor_Time' \
  '- 30 75 0 10 50 - 25 12.5 40 100 60'
check "100NSEC_TIMER_INV Processor(_Total): 50 %" \
  Processor-_Total '% Processor Time' 'Processor-_Total/%_Processor_Time' \
  '- 50 50 50 50 50 - 50 50 50 50 50'
check "LARGE_RAWCOUNT Memory Available Bytes: 6 GiB + k MiB (above 2^32)" \
  Memory 'Available Bytes' 'Memory/Available_Bytes' \
  '6442450944 6443499520 6444548096 6445596672 6446645248 6447693824 - 6449790976 6450839552 6451888128 6452936704 6453985280'
check "COUNTER_COUNTER Memory Pages/sec: reset at 3 gives no value (no spike); 7: 500/2 s" \
  Memory 'Pages_sec' 'Memory/Pages_sec' \
  '- 300 150 - 200 100 - 250 0 40 1200 7'
check "RAW_FRACTION Memory % Committed Bytes In Use: 100 (25 + 5k) / 200" \
  Memory '% Committed Bytes In Use' 'Memory/%_Committed_Bytes_In_Use' \
  '12.5 15 17.5 20 22.5 25 - 30 32.5 35 37.5 40'
check "AVERAGE_TIMER LogicalDisk(C:) Avg. Disk sec/Read: 3e6/1e7/100 -> 0.003; 0 reads -> 0" \
  LogicalDisk-C: 'Avg. Disk sec_Read' 'LogicalDisk-C_/Avg__Disk_sec_Read' \
  '- 0.003 0 0.0025 0.0005 0.05 - 0.0008 0.004 0.01 0 0.00025'
check "100NSEC_TIMER Process(svchost): above 100 % not capped" \
  Process-svchost '% Processor Time' 'Process-svchost/%_Processor_Time' \
  '- 10 20 5 0 30 - 20 150 10 2.5 100'
check "100NSEC_TIMER Process(svchost#1): the duplicate, paired by full name" \
  'Process-svchost#1' '% Processor Time' 'Process-svchost#1/%_Processor_Time' \
  '- 5 10 15 20 25 - 30 35 40 45 50'
check "Process(oldproc) vanishes at sample 5: nothing after" \
  Process-oldproc '% Processor Time' 'Process-oldproc/%_Processor_Time' \
  '- 70 60 50 40 - - - - - - -'
check "Process(newproc) appears at sample 8: first value at 9" \
  Process-newproc '% Processor Time' 'Process-newproc/%_Processor_Time' \
  '- - - - - - - - - 30 60 90'
check "LARGE_RAWCOUNT Process(svchost) Working Set" \
  Process-svchost 'Working Set' 'Process-svchost/Working_Set' \
  '10485760 10489856 10493952 10498048 10502144 10506240 - 10514432 10518528 10522624 10526720 10530816'
check "LARGE_RAWCOUNT Process(svchost#1) Working Set" \
  'Process-svchost#1' 'Working Set' 'Process-svchost#1/Working_Set' \
  '20971520 20963328 20955136 20946944 20938752 20930560 - 20914176 20905984 20897792 20889600 20881408'
check "Process(oldproc) Working Set: samples 0-4" \
  Process-oldproc 'Working Set' 'Process-oldproc/Working_Set' \
  '5000000 5000001 5000002 5000003 5000004 - - - - - - -'
check "Process(newproc) Working Set: one-sample type, from sample 8" \
  Process-newproc 'Working Set' 'Process-newproc/Working_Set' \
  '- - - - - - - - 123456789020 123456789021 123456789022 123456789023'
check "RAWCOUNT Process(svchost#1) ID Process" \
  'Process-svchost#1' 'ID Process' 'Process-svchost#1/ID_Process' \
  '1200 1200 1200 1200 1200 1200 - 1200 1200 1200 1200 1200'

# InfluxDB: exactly the expected series (tags instance / type_instance).
got_series=$(e2e_influx_series_keys | sort | tr '\n' '|')
want_series=$(
  sort <<'EOF' | tr '\n' '|'
winperf_value,host=e2ehost,instance=LogicalDisk-C:,type=gauge,type_instance=Avg.\ Disk\ sec_Read
winperf_value,host=e2ehost,instance=Memory,type=gauge,type_instance=%\ Committed\ Bytes\ In\ Use
winperf_value,host=e2ehost,instance=Memory,type=gauge,type_instance=Available\ Bytes
winperf_value,host=e2ehost,instance=Memory,type=gauge,type_instance=Pages_sec
winperf_value,host=e2ehost,instance=Process-newproc,type=gauge,type_instance=%\ Processor\ Time
winperf_value,host=e2ehost,instance=Process-newproc,type=gauge,type_instance=Working\ Set
winperf_value,host=e2ehost,instance=Process-oldproc,type=gauge,type_instance=%\ Processor\ Time
winperf_value,host=e2ehost,instance=Process-oldproc,type=gauge,type_instance=Working\ Set
winperf_value,host=e2ehost,instance=Process-svchost#1,type=gauge,type_instance=%\ Processor\ Time
winperf_value,host=e2ehost,instance=Process-svchost#1,type=gauge,type_instance=ID\ Process
winperf_value,host=e2ehost,instance=Process-svchost#1,type=gauge,type_instance=Working\ Set
winperf_value,host=e2ehost,instance=Process-svchost,type=gauge,type_instance=%\ Processor\ Time
winperf_value,host=e2ehost,instance=Process-svchost,type=gauge,type_instance=Working\ Set
winperf_value,host=e2ehost,instance=Processor-0,type=gauge,type_instance=%\ Processor\ Time
winperf_value,host=e2ehost,instance=Processor-_Total,type=gauge,type_instance=%\ Processor\ Time
EOF
)
e2e_is "$got_series" "$want_series" "influxdb: exactly the expected series"

e2e_stop "$INFLUX_PID" 3
e2e_done
