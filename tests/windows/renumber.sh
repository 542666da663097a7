#!/bin/bash
# collectd-winperf: the Wine capture of a renumbered process
# (tests/data/wine-renumber, made by tests/windows/capture-renumber.sh from
# the test provider's renumbering mode, tests/windows/provider.c).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# Sample 1 has w3wp (pid 1100), w3wp#1 (pid 2200) and w3wp#2 (pid 3300);
# pid 2200 exits and in sample 2 pid 3300 is w3wp#1. The provider's object
# clock reads 1000 s and 1010 s; raw % Processor Time (PERF_OBJ_TIME_TIMER,
# 100 ns units) is busy * (clock - start): pid 1100 20 % since 100 s, pid
# 2200 50 % since 800 s, pid 3300 30 % since 300 s. By hand:
#   pid 1100: 0.20 * 900 s = 1.8e9, then 0.20 * 910 s = 1.82e9:
#             100 * 2e7 / 1e8 = 20
#   pid 3300: 2.1e9, then 2.13e9: 100 * 3e7 / 1e8 = 30
#   by name, w3wp#1 pairs pid 2200's 1e9 with pid 3300's 2.13e9:
#             100 * 1.13e9 / 1e8 = 1130 (the old, wrong value)
# Checked with `winperf query --pair-by id|name` and end to end: real
# collectd replaying the capture with PairBy "id" and PairBy "name", real
# carbon-cache and InfluxDB holding exactly those values.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"

DATA=$top_srcdir/tests/data/wine-renumber
e2e_init renumber
need collectd curl ss influxd python3
WINPERF=$top_builddir/winperf
R1=$DATA/000001.blob
R2=$DATA/000002.blob

# ------------------------------------------------------ winperf query
# Wine's name tables are a stub (doc/wine.md): numeric paths; "ID Process"
# is found by its standard index 784.
"$WINPERF" query --pair-by id "$R1" "$R2" '\230(*)\6' >"$E2E_DIR/id.txt" 2>&1
e2e_is "$?:$(cat "$E2E_DIR/id.txt")" "0:$(printf '\\230(w3wp)\\6\t20\n\\230(w3wp#1)\\6\t30')" \
  "query --pair-by id: w3wp 20, w3wp#1 30 (pid 3300's own rate)"
"$WINPERF" query "$R1" "$R2" '\230(*)\6' >"$E2E_DIR/default.txt" 2>&1
e2e_is "$(cat "$E2E_DIR/default.txt")" "$(cat "$E2E_DIR/id.txt")" \
  "query without --pair-by pairs by id"
"$WINPERF" query --pair-by name "$R1" "$R2" '\230(*)\6' >"$E2E_DIR/name.txt" 2>&1
e2e_is "$?:$(cat "$E2E_DIR/name.txt")" "0:$(printf '\\230(w3wp)\\6\t20\n\\230(w3wp#1)\\6\t1130')" \
  "query --pair-by name: w3wp#1 1130 (pid 2200's sample against pid 3300's, as PDH)"
"$WINPERF" query --json "$R1" "$R2" '\230(w3wp#1)\6' >"$E2E_DIR/id.json" 2>&1
e2e_is "$(python3 -c 'import json,sys; r=json.load(sys.stdin)[0]; print(r["pid"], r["value"])' <"$E2E_DIR/id.json")" \
  "3300 30" "query --json: w3wp#1 is pid 3300"
"$WINPERF" query "$R2" '\230(*)\784' >"$E2E_DIR/pids.txt" 2>&1
e2e_is "$(cat "$E2E_DIR/pids.txt")" "$(printf '\\230(w3wp)\\784\t1100\n\\230(w3wp#1)\\784\t3300')" \
  "sample 2: w3wp#1 is pid 3300 (renumbered)"

# --------------------------------------------- collectd, carbon, InfluxDB
e2e_plugin_dir logfile write_graphite network
e2e_start_carbon
e2e_start_influx

# The replay directory: the Wine blobs and an English name table (Wine's
# own is a stub), as lodctr would have registered it.
mkdir -p "$E2E_DIR/replay"
cp "$R1" "$R2" "$E2E_DIR/replay/"
python3 - "$E2E_DIR/replay/names.multisz" <<'PYEOF'
import sys
names = ["1", "784", "6", "% Processor Time", "230", "Process", "784", "ID Process"]
with open(sys.argv[1], "wb") as f:
    f.write(("\0".join(names) + "\0\0").encode("utf-16-le"))
PYEOF
cat >"$E2E_DIR/winperf.yaml" <<'EOF'
- '\Process(*)\% Processor Time'
- '\Process(*)\ID Process'
EOF

START=$(($(date +%s) - 2))
# run_collectd HOST PAIRBY: replay the two blobs once, Interval 1 s.
run_collectd() {
  cat >"$E2E_DIR/collectd-$1.conf" <<EOF
Interval 1
Hostname "renumber-collectd"
PluginDir "$E2E_PLUGIN_DIR"
BaseDir "$E2E_DIR"
PIDFile "$E2E_DIR/collectd-$1.pid"
TypesDB "/usr/share/collectd/types.db"

LoadPlugin winperf
<Plugin winperf>
  Host "$1"
  PairBy "$2"
  Replay "$E2E_DIR/replay"
  ReplayLoop false
  ValueMode "formatted"
  CountersFile "$E2E_DIR/winperf.yaml"
</Plugin>

<LoadPlugin network>
  FlushInterval 1
</LoadPlugin>
<Plugin network>
  <Server "127.0.0.1" "$INFLUX_COLLECTD"> # InfluxDB's collectd input
  </Server>
</Plugin>
$(e2e_conf_logfile_graphite)
EOF
  e2e_spawn "$E2E_DIR/collectd-$1.stdout" /usr/sbin/collectd -f -C "$E2E_DIR/collectd-$1.conf"
  local pid=$E2E_LAST_PID
  local q="SELECT value FROM winperf_value WHERE host = '$1' AND instance = 'Process-w3wp#1'"
  e2e_wait_for 60 in_influx "$q AND type_instance = '% Processor Time'"
  e2e_ok $? "collectd (PairBy \"$2\", host $1): w3wp#1's rate reached InfluxDB"
  e2e_wait_for 60 in_whisper "$CARBON_DIR/whisper/$1/winperf-Process-w3wp#1/gauge-%_Processor_Time.wsp"
  e2e_ok $? "collectd (PairBy \"$2\", host $1): w3wp#1's rate reached carbon"
  e2e_stop "$pid" 10
  e2e_is "$E2E_STATUS" 0 "collectd (PairBy \"$2\") exits 0 on TERM"
}
in_influx() { [ -n "$(e2e_influx_query "$1")" ]; }
# whisper_values FILE: its non-empty slots since START, one value a line
whisper_values() {
  [ -f "$1" ] || return 1
  /usr/bin/whisper-fetch --json --from="$START" --until="$(($(date +%s) + 2))" "$1" |
    e2e_whisper_json_lines | awk '$2 != "None" && $2 != "null" { printf "%.12g\n", $2 }'
}
in_whisper() { [ -n "$(whisper_values "$1")" ]; }
influx_values() { e2e_influx_query "$1" | awk '{ printf "%.12g\n", $2 }'; }

run_collectd renumid id
run_collectd renumname name

# check HOST INSTANCE TYPE_INSTANCE GRAPHITE_TYPE_INSTANCE WANT WHAT
check() {
  local q="SELECT value FROM winperf_value WHERE host = '$1' AND instance = '$2' AND type_instance = '$3'"
  e2e_is "$(influx_values "$q" | tr '\n' ' ')" "$5" "influxdb: $6"
  e2e_is "$(whisper_values "$CARBON_DIR/whisper/$1/winperf-$2/gauge-$4.wsp" | tr '\n' ' ')" \
    "$5" "carbon: $6"
}
check renumid 'Process-w3wp#1' '% Processor Time' '%_Processor_Time' '30 ' \
  'PairBy "id": w3wp#1 = 30, pid 3300 own rate (one value: the first sample has none)'
check renumname 'Process-w3wp#1' '% Processor Time' '%_Processor_Time' '1130 ' \
  'PairBy "name": w3wp#1 = 1130, the old, wrong value (pid 2200 against pid 3300)'
check renumid 'Process-w3wp' '% Processor Time' '%_Processor_Time' '20 ' \
  'PairBy "id": w3wp = 20'
check renumname 'Process-w3wp' '% Processor Time' '%_Processor_Time' '20 ' \
  'PairBy "name": w3wp = 20 (not renumbered)'
IDQ="SELECT value FROM winperf_value WHERE host = 'renumid' AND type_instance = 'ID Process'"
e2e_is "$(influx_values "$IDQ AND instance = 'Process-w3wp#1'" | tr '\n' ' ')" \
  '2200 3300 ' "influxdb: w3wp#1's ID Process is 2200, then 3300 (renumbered)"
e2e_is "$(influx_values "$IDQ AND instance = 'Process-w3wp#2'" | tr '\n' ' ')" \
  '3300 ' "influxdb: w3wp#2 is only in sample 1 (pid 3300)"
e2e_is "$(influx_values "SELECT value FROM winperf_value WHERE host = 'renumid' AND instance = 'Process-w3wp#2' AND type_instance = '% Processor Time'" | tr '\n' ' ')" \
  '' "influxdb: w3wp#2 has no rate (one sample)"
e2e_stop "$CARBON_PID" 10
e2e_stop "$INFLUX_PID" 3
e2e_done
