#!/bin/bash
# collectd-winperf end to end with Perfmon logs: a real collectd 5.12
# replays the Vista log (tests/data/blg/pal-SampleLog.blg, whole objects)
# with `Replay "....blg"` and real carbon (write_graphite) and InfluxDB 1.6
# (network plugin -> [[collectd]] input) must hold its history at the
# log's own times in 2007, under the logged machine's name; `winperf blg
# --graphite` sends a counter of the same log to carbon and `--influx-udp`
# the Windows 8 log (raw counter records, 2013) to InfluxDB's UDP input,
# where its first values must be what PDH gave LINQPad from that file
# (tests/blg/test_blg.c's sources).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# Carbon keeps 2007 only with a retention of years: for host ZACH-PC a
# 60 s step for 20 years in sparse whisper files (a few KB on disk), one
# slot per sample (the log's samples are a minute apart). The expected
# (UTC time, value) pairs come from `winperf blg --json` of the same log;
# a few are known by hand (79 MB, 82.148113155 %).
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"

e2e_init blg-collectd
need collectd curl ss influxd python3
e2e_plugin_dir logfile write_graphite network
WINPERF=$top_builddir/winperf
PAL=$top_srcdir/tests/data/blg/pal-SampleLog.blg
TX=$top_srcdir/tests/data/blg/tx-BasicPerfCounters.blg
[ -x "$WINPERF" ] || e2e_bail "winperf built"

E2E_CARBON_SCHEMAS='[perfmon_2007]
pattern = ^ZACH-PC\.
retentions = 60s:20y'
E2E_CARBON_EXTRA='WHISPER_SPARSE_CREATE = True'
INFLUX_UDP=$(e2e_free_port udp)
E2E_INFLUX_EXTRA="[[udp]]
  enabled = true
  bind-address = \"127.0.0.1:$INFLUX_UDP\"
  database = \"blg\"
  batch-size = 100
  batch-timeout = \"1s\""
e2e_start_carbon
e2e_start_influx
e2e_wait_for 30 e2e_udp_bound "$INFLUX_UDP" ||
  e2e_bail "influxd's UDP input listens on 127.0.0.1:$INFLUX_UDP"
curl -s -XPOST "http://127.0.0.1:$INFLUX_HTTP/query" \
  --data-urlencode 'q=CREATE DATABASE blg' >/dev/null

cat >"$E2E_DIR/winperf.yaml" <<'EOF'
- '\Processor(_Total)\% Processor Time'
- '\Memory\Available MBytes'
EOF
cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_collectd e2e-collectd)
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  Replay "$PAL"
  ReplaySpeed 2
  SelfMetrics false
</Plugin>
EOF

# The expected history: "UNIX_SECONDS VALUE" per sample with a value.
expect() { # COUNTER-PATH
  "$WINPERF" blg --json --counter "$1" "$PAL" | python3 -c '
import json, sys, datetime
for s in json.load(sys.stdin):
    t = datetime.datetime.strptime(s["time_utc"][:19], "%Y-%m-%dT%H:%M:%S")
    t = int(t.replace(tzinfo=datetime.timezone.utc).timestamp())
    for r in s["results"]:
        if r["value"] is not None:
            print(t, repr(r["value"]))'
}
expect '\Memory\Available MBytes' >"$E2E_DIR/mem.want"
expect '\Processor(_Total)\% Processor Time' >"$E2E_DIR/cpu.want"
expect '\System\Processes' >"$E2E_DIR/proc.want"
check_is_n() { e2e_is "$(wc -l <"$1" | tr -d ' ')" "$2" "$3"; }
check_is_n "$E2E_DIR/mem.want" 11 "the log: 11 samples of Available MBytes"
e2e_is "$(head -1 "$E2E_DIR/mem.want")" "1187120438 79" \
  "... the first at 2007-08-14 19:40:38 UTC (15:40:38 EDT as logged): 79"
check_is_n "$E2E_DIR/cpu.want" 10 "... 10 rates (none at the first sample)"

e2e_spawn "$E2E_DIR/collectd.stdout" /usr/sbin/collectd -f -C "$E2E_DIR/collectd.conf"
COLLECTD_PID=$E2E_LAST_PID
W=$CARBON_DIR/whisper/ZACH-PC/winperf-Memory/gauge-Available_MBytes.wsp
last_t=$(tail -1 "$E2E_DIR/mem.want" | cut -d' ' -f1)
in_influx() {
  e2e_influx_query "SELECT value FROM winperf_value WHERE host = 'ZACH-PC' AND instance = 'Memory' AND type_instance = 'Available MBytes'" |
    grep -q "^$last_t "
}
e2e_wait_for 60 in_influx
e2e_ok $? "the log's last sample reached InfluxDB (collectd, host ZACH-PC)"
grep -q 'replaying machine ZACH-PC as host "ZACH-PC"' "$E2E_DIR/collectd.log"
e2e_ok $? "collectd's log names the machine replayed"
grep -q 'warnings reading the log, the first: offset 0x6d518' "$E2E_DIR/collectd.log"
e2e_ok $? "... and the log's warning, with its offset"
ended() { grep -q 'replay reached the end' "$E2E_DIR/collectd.log"; }
e2e_wait_for 30 ended
e2e_ok $? "the replay ends after the last sample"

# winperf blg itself: a third counter of the same log to carbon, the
# Windows 8 log to InfluxDB's UDP input
"$WINPERF" blg --graphite "127.0.0.1:$CARBON_PORT" --counter '\System\Processes' \
  "$PAL" 2>"$E2E_DIR/send.err"
e2e_ok $? "winperf blg --graphite"
"$WINPERF" blg --influx-udp "127.0.0.1:$INFLUX_UDP" \
  --counter '\Processor(_Total)\% Processor Time' "$TX" 2>>"$E2E_DIR/send.err"
e2e_ok $? "winperf blg --influx-udp"
grep -q '600 values sent' "$E2E_DIR/send.err"
e2e_ok $? "... 600 values sent"
tx_q="SELECT value FROM winperf_value WHERE host = 'GEORGIS3' AND instance = 'Processor-_Total'"
tx_all() {
  curl -sG "http://127.0.0.1:$INFLUX_HTTP/query" --data-urlencode db=blg \
    --data-urlencode epoch=ms --data-urlencode "q=$tx_q" |
    grep -oE '\[[0-9]+,[-0-9.eE+]+\]' | tr -d '[]' | tr ',' ' '
}
tx_all_in() { [ "$(tx_all | wc -l)" -ge 600 ]; }
e2e_wait_for 60 tx_all_in
e2e_is "$(tx_all | wc -l | tr -d ' ')" 600 "influxdb: the Windows 8 log's 600 values of _Total"
# 2013-02-20 02:50:18.844 UTC (18:50:18.844 PST as logged, LINQPad's
# 6:50:18 PM): 9.37826238255423 ...
e2e_is "$(tx_all | head -4 | awk '{printf "%s %.13g\n", $1, $2}' | tr '\n' ' ')" \
  "1361328618844 9.378262382554 1361328619844 5.865413440457 1361328620844 8.204103036508 1361328621844 3.128380819509 " \
  "influxdb: at the log's times, the values PDH gave LINQPad"

e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"

# The Windows 8 log (raw counter records) through collectd too: 600 values
# of _Total, the first the one PDH gave LINQPad, and a base-using counter
# by hand: Avg. Disk Bytes/Write (AVERAGE_BULK) at sample 1 from the raw
# values of samples 0 and 1 (bytes 59518247936 -> 59518740480, writes
# 7028975 -> 7029031): 492544 / 56 = 8795.428571428571.
cat >"$E2E_DIR/winperf-tx.yaml" <<'EOF'
- '\Processor(_Total)\% Processor Time'
- '\PhysicalDisk(*)\Avg. Disk Bytes/Write'
EOF
sed -e "s|$E2E_DIR/winperf.yaml|$E2E_DIR/winperf-tx.yaml|" -e "s|$PAL|$TX|" \
  -e 's|ReplaySpeed 2|ReplaySpeed 50|' \
  -e "s|$E2E_DIR/collectd.pid|$E2E_DIR/collectd-tx.pid|" \
  "$E2E_DIR/collectd.conf" >"$E2E_DIR/collectd-tx.conf"
e2e_spawn "$E2E_DIR/collectd-tx.stdout" /usr/sbin/collectd -f -C "$E2E_DIR/collectd-tx.conf"
COLLECTD_PID=$E2E_LAST_PID
tx_c() { # INSTANCE TYPE_INSTANCE: "time value" lines of database collectd
  e2e_influx_query "SELECT value FROM winperf_value WHERE host = 'GEORGIS3' AND instance = '$1' AND type_instance = '$2'"
}
tx_c_all() { [ "$(tx_c Processor-_Total '% Processor Time' | wc -l)" -ge 600 ]; }
e2e_wait_for 60 tx_c_all
e2e_is "$(tx_c Processor-_Total '% Processor Time' | wc -l | tr -d ' ')" 600 \
  "influxdb: collectd replayed the Windows 8 log's 600 values of _Total"
e2e_is "$(tx_c Processor-_Total '% Processor Time' | head -1 | awk '{printf "%s %.13g", $1, $2}')" \
  "1361328618 9.378262382554" "... the first at its time, PDH's value (LINQPad)"
e2e_is "$(tx_c 'PhysicalDisk-0 C:' 'Avg. Disk Bytes_Write' | head -1 | awk '{printf "%s %.13g", $1, $2}')" \
  "1361328618 8795.428571429" "... Avg. Disk Bytes/Write by hand (a raw record with its base)"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "the second collectd exits 0 on TERM"
# carbon creates a metric's file from its cache in its own time
P=$CARBON_DIR/whisper/ZACH-PC/winperf-System/gauge-Processes.wsp
e2e_wait_for 30 test -f "$P"
e2e_ok $? "carbon created the metric winperf blg --graphite sent"
e2e_stop "$CARBON_PID" 10

# carbon: the 60 s slot of each sample (whisper rounds down to the step)
slots() { # WANT-FILE: "SLOT VALUE" lines
  awk '{printf "%d %.10g\n", $1 - $1 % 60, $2}' "$1"
}
got_slots() { # WSP
  /usr/bin/whisper-fetch --json --from=1187120000 --until=1187121200 "$1" |
    e2e_whisper_json_lines | awk '$2 != "None" && $2 != "null" {printf "%d %.10g\n", $1, $2}'
}
e2e_is "$(got_slots "$W")" "$(slots "$E2E_DIR/mem.want")" \
  "carbon: Available MBytes at the log's 11 minutes of 2007 (collectd)"
e2e_is "$(got_slots "$CARBON_DIR/whisper/ZACH-PC/winperf-Processor-_Total/gauge-%_Processor_Time.wsp")" \
  "$(slots "$E2E_DIR/cpu.want")" \
  "carbon: _Total % Processor Time, 10 rates (collectd)"
e2e_is "$(got_slots "$P")" \
  "$(slots "$E2E_DIR/proc.want")" "carbon: System Processes (winperf blg --graphite)"
e2e_is "$(e2e_influx_query "SELECT value FROM winperf_value WHERE host = 'ZACH-PC' AND instance = 'Processor-_Total'" |
  awk '{printf "%d %.10g\n", $1, $2}')" \
  "$(awk '{printf "%d %.10g\n", $1, $2}' "$E2E_DIR/cpu.want")" \
  "influxdb: _Total % Processor Time at the log's times (collectd)"
e2e_is "$(e2e_influx_query "SELECT value FROM winperf_value WHERE host = 'ZACH-PC' AND instance = 'Processor-_Total'" |
  head -1 | awk '{printf "%.9f", $2}')" 82.148113155 \
  "influxdb: the first rate, 100 (1 - 107031250 / 599551470) by hand"
e2e_done
