#!/bin/bash
# collectd-winperf end to end: the CountersFile's path alternatives and
# cardinality keys (include, exclude, total, aggregate, max_instances) in
# real collectd 5.12, with exact metric names and values in real
# carbon-cache and InfluxDB 1.6; and the bad values collectd must refuse
# at start-up, naming file:line:column and what was expected.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# The capture (tests/e2e/card_capture.c) has sample k stamped T0 + k, and
# the plugin runs with Timestamp "sample", so slot T0 + k of every series
# holds interval k's value (see graphite-influx.sh). The per-instance rates
# and raw values are in card_capture.c; the aggregates below are computed
# from them by hand. "-" means the slot must be empty.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

K=5
e2e_init card
need collectd curl ss influxd
e2e_plugin_dir logfile write_graphite network
GEN=$top_builddir/tests/e2e/card_capture
[ -x "$GEN" ] || e2e_bail "capture generator $GEN built"

T0=$(($(date +%s) - 60))
"$GEN" "$E2E_DIR/capture" "$T0" || e2e_bail "generate the capture"
e2e_start_carbon
e2e_start_influx

Y=$E2E_DIR/winperf.yaml
cat >"$Y" <<'EOF2'
- path: '\Process(*)\% Processor Time'
  include: ^SVC
  exclude: '#2$'
- path: '\Process(*)\% User Time'
  aggregate: avg
- path: '\Process(*)\Working Set'
  aggregate: sum
  max_instances: 2
- path: '\Process(*)\Private Bytes'
  aggregate: min
- path: '\Process(*)\Virtual Bytes'
  aggregate: max
  total: exclude
- path: '\Process(*)\Handle Count'
  max_instances: 3
- path: '\Processor(*)\% Processor Time'
  total: only
- path: '\Processor(*)\% Idle Time'
  total: exclude
- path: ['\Paging File(_Total)\% Usage', '\Memory\Available Bytes']
- path: ['\Paging File(_Total)\% Usage', '\NoSuchObject\X']
EOF2

# write_conf FILE YAML: collectd.conf replaying the capture with YAML.
write_conf() {
  cat >"$1" <<EOF2
$(e2e_conf_servers card-collectd)

LoadPlugin winperf
<Plugin winperf>
  CountersFile "$2"
  Replay "$E2E_DIR/capture"
  ReplayLoop false
  Timestamp "sample"
  Host "cardhost"
  SelfMetrics false # the test asserts the exact set of series
</Plugin>
EOF2
}

write_conf "$E2E_DIR/collectd.conf" "$Y"
e2e_spawn "$E2E_DIR/collectd.stdout" /usr/sbin/collectd -f -C "$E2E_DIR/collectd.conf"
COLLECTD_PID=$E2E_LAST_PID

W=$CARBON_DIR/whisper/cardhost
Q="SELECT value FROM winperf_value WHERE host = 'cardhost' AND type = 'gauge'"
last_in_whisper() {
  e2e_whisper_series "$W/winperf-Memory/gauge-Available_Bytes.wsp" "$T0" "$K" |
    grep -q ' 6000000004$'
}
last_in_influx() {
  e2e_influx_query "$Q AND instance = 'Memory' AND type_instance = 'Available Bytes'" |
    grep -q "^$((T0 + K - 1)) 6000000004$"
}
e2e_wait_for 60 last_in_whisper
e2e_ok $? "the last interval reached carbon"
e2e_wait_for 60 last_in_influx
e2e_ok $? "the last interval reached InfluxDB"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
e2e_stop "$CARBON_PID" 10
e2e_whisper_fetch_all "$CARBON_DIR/whisper" "$((T0 - 1))" "$((T0 + K - 1))"

got_files=$(cd "$CARBON_DIR/whisper" && find . -name '*.wsp' | sort | tr '\n' ' ')
want_files=$(
  sort <<'EOF2' | tr '\n' ' '
./cardhost/winperf-Memory/gauge-Available_Bytes.wsp
./cardhost/winperf-Process-_Total/gauge-%_Processor_Time.wsp
./cardhost/winperf-Process-_Total/gauge-%_User_Time.wsp
./cardhost/winperf-Process-_Total/gauge-Handle_Count.wsp
./cardhost/winperf-Process-_Total/gauge-Private_Bytes.wsp
./cardhost/winperf-Process-_Total/gauge-Working_Set.wsp
./cardhost/winperf-Process-svchost#1/gauge-%_Processor_Time.wsp
./cardhost/winperf-Process-svchost#1/gauge-Handle_Count.wsp
./cardhost/winperf-Process-svchost#2/gauge-Handle_Count.wsp
./cardhost/winperf-Process-svchost/gauge-%_Processor_Time.wsp
./cardhost/winperf-Process-svchost/gauge-%_User_Time.wsp
./cardhost/winperf-Process-svchost/gauge-Handle_Count.wsp
./cardhost/winperf-Process-svchost/gauge-Private_Bytes.wsp
./cardhost/winperf-Process-svchost/gauge-Virtual_Bytes.wsp
./cardhost/winperf-Process-svchost/gauge-Working_Set.wsp
./cardhost/winperf-Process-w3wp/gauge-%_User_Time.wsp
./cardhost/winperf-Process-w3wp/gauge-Private_Bytes.wsp
./cardhost/winperf-Process-w3wp/gauge-Virtual_Bytes.wsp
./cardhost/winperf-Process-w3wp/gauge-Working_Set.wsp
./cardhost/winperf-Processor-0/gauge-%_Idle_Time.wsp
./cardhost/winperf-Processor-1/gauge-%_Idle_Time.wsp
./cardhost/winperf-Processor-_Total/gauge-%_Processor_Time.wsp
EOF2
)
e2e_is "$got_files" "$want_files" "carbon: exactly the expected metrics (22)"

# check WHAT INSTANCE TYPE_INSTANCE EXPECTED: the carbon file
# winperf-INSTANCE/gauge-TYPE_INSTANCE.wsp (' ' -> '_') and InfluxDB's
# series with those tags hold EXPECTED, slot by slot.
check() {
  e2e_is "$(e2e_whisper_series "$W/winperf-$2/gauge-$(echo "$3" | tr ' ' _).wsp" \
    "$T0" "$K")" "$4" "carbon: $1"
  e2e_is "$(e2e_influx_query "$Q AND instance = '$2' AND type_instance = '$3'" |
    e2e_series "$T0" "$K")" "$4" "influxdb: $1"
}

# include ^SVC (case folded), exclude '#2$': svchost, svchost#1; _Total is
# decided by total (default include); w3wp and svchost#2 are left out.
check "include/exclude: svchost 10 20 30 40 %" Process-svchost '% Processor Time' \
  '- 10 20 30 40'
check "include/exclude: svchost#1 5 %" 'Process-svchost#1' '% Processor Time' \
  '- 5 5 5 5'
check "include/exclude: _Total kept by total: include" Process-_Total \
  '% Processor Time' '- 70 80 90 100'
# aggregate avg of the rates: (10+20+30)/3, (10+30+50)/3, (10+40+10)/3,
# (10+50+0)/3; nothing at slot 0 (no instance has a value yet).
check "aggregate avg: svchost, svchost#1, svchost#2 -> svchost" Process-svchost \
  '% User Time' '- 20 30 20 20'
check "aggregate avg: w3wp alone, until it exits" Process-w3wp '% User Time' \
  '- 7 9 - -'
check "aggregate avg: _Total never folded, dispatched as itself" Process-_Total \
  '% User Time' '- 100 100 100 100'
# sum: (1000+k) + (2000+10k) + (300+100k) = 3300 + 111k; max_instances 2
# counts the aggregated names (svchost, w3wp): nothing dropped.
check "aggregate sum: 3300 + 111k" Process-svchost 'Working Set' \
  '3300 3411 3522 3633 3744'
check "aggregate sum + max_instances 2: w3wp is the 2nd aggregated name" \
  Process-w3wp 'Working Set' '50000 50000 50000 - -'
check "aggregate sum: _Total as itself" Process-_Total 'Working Set' \
  '999999 999999 999999 999999 999999'
# min(700 - 100k, 500, 650)
check "aggregate min" Process-svchost 'Private Bytes' '500 500 500 400 300'
check "aggregate min: w3wp" Process-w3wp 'Private Bytes' '8000 8000 8000 - -'
check "aggregate min: _Total" Process-_Total 'Private Bytes' \
  '4242 4242 4242 4242 4242'
# max(100 + 10k, 125, 50); total: exclude leaves _Total out.
check "aggregate max" Process-svchost 'Virtual Bytes' '125 125 125 130 140'
check "aggregate max: w3wp" Process-w3wp 'Virtual Bytes' '77 77 77 - -'
# max_instances 3: the first 3 names in byte order (svchost < svchost#1 <
# svchost#2 < w3wp); _Total not counted.
check "max_instances 3: svchost" Process-svchost 'Handle Count' '11 11 11 11 11'
check "max_instances 3: svchost#1" 'Process-svchost#1' 'Handle Count' \
  '22 22 22 22 22'
check "max_instances 3: svchost#2" 'Process-svchost#2' 'Handle Count' \
  '33 33 33 33 33'
check "max_instances 3: _Total not counted" Process-_Total 'Handle Count' \
  '110 110 110 110 110'
check "total only: Processor(_Total)" Processor-_Total '% Processor Time' \
  '- 20 20 20 20'
check "total exclude: Processor(0)" Processor-0 '% Idle Time' '- 90 90 90 90'
check "total exclude: Processor(1)" Processor-1 '% Idle Time' '- 70 70 70 70'
check "alternatives: Paging File absent from the answer, Memory used" Memory \
  'Available Bytes' '6000000000 6000000001 6000000002 6000000003 6000000004'

got_series=$(e2e_influx_series_keys | wc -l)
e2e_is "$got_series" 22 "influxdb: exactly 22 series, as in carbon"

L=$E2E_DIR/collectd.log
cp "$L" "$E2E_DIR/replay.log" # kept: the bad-input runs below rewrite $L
e2e_is "$(grep -c 'max_instances' "$L")" 2 \
  "max_instances: two log lines (starts, stops biting), none for the sum"
grep -q "winperf: $Y:14:3: max_instances 3: 4 instances, the last 1 in byte order not dispatched (until they are 3 or fewer)" "$L"
e2e_ok $? "max_instances: the cap starts biting at sample 0 (4 names)"
grep -q "winperf: $Y:14:3: max_instances 3: 3 instances, all dispatched again" "$L"
e2e_ok $? "max_instances: it stops biting when w3wp exits"
grep -q "winperf: $Y:20:3: using path 2 of 2, \\\\Memory\\\\Available Bytes" "$L"
e2e_ok $? "alternatives: the path in use is logged with file:line:column"
e2e_is "$(grep -c 'match' "$L")" 1 \
  "one line about an entry matching nothing, none about the others"
e2e_is "$(grep -cF "winperf: $Y:21:3: none of the 2 paths (the first: \\Paging File(_Total)\\% Usage) matches anything in this sample (tried again each interval)" "$L")" 1 \
  "alternatives none of which is in the answer: one warning for the entry"

# --- bad input: collectd -T refuses to start ---------------------------
# refused NAME YAML WANT: WANT (after "winperf: CountersFile FILE:") logged.
refused() {
  printf '%s' "$2" >"$E2E_DIR/$1.yaml"
  rm -f "$L"
  write_conf "$E2E_DIR/$1.conf" "$E2E_DIR/$1.yaml"
  /usr/sbin/collectd -T -C "$E2E_DIR/$1.conf" >"$E2E_DIR/$1.out" 2>&1
  _rc=$?
  e2e_ok $((_rc == 0)) "$1: collectd refuses to start (exit $_rc)"
  grep -qF "winperf: CountersFile $E2E_DIR/$1.yaml:$3" "$L" "$E2E_DIR/$1.out"
  e2e_ok $? "$1: logs $3"
}
P="- path: '\\Process(*)\\Working Set'"
refused invalid-regex "$P
  include: 'svc(host'
" "2:12: expected a POSIX extended regular expression for 'include', got 'svc(host' (Unmatched ( or \\()"
refused max-negative "$P
  max_instances: -1
" "2:18: expected a whole number from 1 to 1000000000 for 'max_instances', got '-1'"
refused max-zero "$P
  max_instances: 0
" "2:18: expected a whole number from 1 to 1000000000 for 'max_instances', got '0'"
refused total-unknown "$P
  total: sometimes
" "2:10: expected include, exclude or only for 'total', got 'sometimes'"
refused aggregate-unknown "$P
  aggregate: median
" "2:14: expected sum, avg, min or max for 'aggregate', got 'median'"
refused aggregate-raw "$P
  raw: true
  aggregate: sum
" "3:14: expected either 'aggregate' or 'raw: true', got both (an aggregate combines computed values)"
refused empty-path-list "- path: []
" "1:9: expected at least one counter path in the 'path' list, got an empty list"

e2e_stop "$INFLUX_PID" 3
e2e_done
