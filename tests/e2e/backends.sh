#!/bin/bash
# collectd-winperf end to end: one replay, through real collectd 5.12, into
# every backend at once: Prometheus 2.42 (write_prometheus, scraped),
# VictoriaMetrics (write_graphite and write_influxdb_udp), carbon with
# graphite-web's render API (write_graphite) and InfluxDB 1.6 (network ->
# collectd input); plus a <Host> that fails (a closed loopback port) so the
# fleet's panels have data. Then: exact values through each query
# language, rate() of the raw counters, the recording and alerting rules
# (promtool and the real Prometheus), every dashboard's every query
# (tests/e2e/dashboards.py), and which names each query language takes as
# they are (the table in doc/backends.md).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# Times: the capture's sample k is stamped T0 + k (Timestamp "sample",
# tests/e2e/backends_capture.c), T0 a few seconds before collectd starts;
# collectd replays one sample a second and Prometheus scrapes every 200 ms
# (each value is scraped about 5 times, so a slow scrape loses none), so
# every sample is stored at its own second everywhere. Every
# query is evaluated at E = T0 + 11, the last sample, over the 300 s before
# it: no result depends on how fast anything ran. Expected values are by
# hand from the capture's raw values (its header).
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=backends-lib.sh disable=SC2154 # top_srcdir: lib.sh
. "$top_srcdir/tests/e2e/backends-lib.sh"

K=12
top_srcdir=$(cd "$top_srcdir" && pwd) # the servers get absolute paths
e2e_init backends
need collectd curl ss influxd prometheus promtool victoria-metrics python3
e2e_plugin_dir logfile write_graphite network write_prometheus write_influxdb_udp
# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
GEN=$top_builddir/tests/e2e/backends_capture
helper=$(cd "$top_builddir" && pwd)/winperf-remote-helper # collectd chdirs
[ -x "$GEN" ] || e2e_bail "capture generator $GEN built"
[ -x "$helper" ] || e2e_bail "remote helper $helper built"
PROMRULES="$top_srcdir/conf/prometheus/winperf-windows-exporter.rules.yml $top_srcdir/conf/prometheus/winperf-alerts.rules.yml"

# ------------------------------------------------- offline: rules, JSON
# shellcheck disable=SC2086 # PROMRULES: two paths without spaces
promtool check rules $PROMRULES >"$E2E_DIR/promtool-check.out" 2>&1
e2e_ok $? "promtool check rules conf/prometheus/*.rules.yml"
e2e_diag <"$E2E_DIR/promtool-check.out"
(cd "$top_srcdir/tests/prometheus" && promtool test rules rules.test.yml) \
  >"$E2E_DIR/promtool-test.out" 2>&1
e2e_ok $? "promtool test rules tests/prometheus/rules.test.yml (recording and alerting rules)"
grep -v '^ *$' "$E2E_DIR/promtool-test.out" | e2e_diag
/usr/bin/python3 "$top_srcdir/conf/grafana/make-dashboards.py" --check 2>&1 | e2e_diag
e2e_ok "${PIPESTATUS[0]}" "conf/grafana/*/*.json are what conf/grafana/make-dashboards.py writes"

# ---------------------------------------------------------------- servers
# Prometheus first: it scrapes only once its target discovery has run
# (up to 5 s after start), meanwhile the others start.
SCRAPE=$(e2e_free_port tcp)
# shellcheck disable=SC2086
e2e_start_prometheus "$SCRAPE" $PROMRULES
e2e_start_carbon
e2e_start_influx
e2e_start_victoria "$top_srcdir/conf/victoriametrics/relabel.yml"
e2e_start_graphite_web
scraping() { [ "$(e2e_promql_values "http://127.0.0.1:$PROM_HTTP" 'count(up{job="winperf"})')" = 1 ]; }
e2e_wait_for 60 scraping || e2e_bail "prometheus scrapes its target (up{job=\"winperf\"})"
DOWN_PORT=$(e2e_free_port tcp) # nothing listens there: the failing host
PROM=http://127.0.0.1:$PROM_HTTP
VM=http://127.0.0.1:$VM_HTTP
GW=http://127.0.0.1:$GRAPHITE_HTTP
INFLUX=http://127.0.0.1:$INFLUX_HTTP

T0=$(($(date +%s) - 5))
E=$((T0 + K - 1))
"$GEN" "$E2E_DIR/capture" "$T0" || e2e_bail "generate the capture"

# The shipped counter list as it is (the dashboards must work with it),
# then what windows_exporter's names need and the name probe.
{
  cat "$top_srcdir/conf/winperf.yaml"
  cat <<'EOF'
# tests/e2e/backends.sh
- '\Memory\Commit Limit'
- '\System\Threads'
- path: '\LogicalDisk(*)\Disk Read Bytes/sec'
  raw: true
- '\Name Probe(*)\Value'
EOF
} >"$E2E_DIR/winperf.yaml"
printf '%s\n' "- '\\Name Probe(*)\\Value'" >"$E2E_DIR/probe.yaml"
printf 'username = nobody\npassword = nothing\n' >"$E2E_DIR/down.cred"
chmod 600 "$E2E_DIR/down.cred"

cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_globals backends-collectd 1)
MaxReadInterval 1

LoadPlugin logfile
<Plugin logfile>
  LogLevel "info"
  File "$E2E_DIR/collectd.log"
  Timestamp true
  PrintSeverity true
</Plugin>

# Graphite: carbon and VictoriaMetrics, StoreRates as shipped (true).
<LoadPlugin write_graphite>
  FlushInterval 1
</LoadPlugin>
<Plugin write_graphite>
  <Node "carbon">
    Host "127.0.0.1"
    Port "$CARBON_PORT"
    Protocol "tcp"
    EscapeCharacter "_"
  </Node>
  <Node "victoria">
    Host "127.0.0.1"
    Port "$VM_GRAPHITE"
    Protocol "tcp"
    EscapeCharacter "_"
  </Node>
</Plugin>

# InfluxDB 1.x's collectd input.
<LoadPlugin network>
  FlushInterval 1
</LoadPlugin>
<Plugin network>
  Server "127.0.0.1" "$INFLUX_COLLECTD"
</Plugin>

# Influx line protocol to VictoriaMetrics (conf/victoriametrics/relabel.yml).
<LoadPlugin write_influxdb_udp>
  FlushInterval 1
</LoadPlugin>
<Plugin write_influxdb_udp>
  Server "127.0.0.1" "$VM_INFLUX"
  StoreRates false
</Plugin>

# Prometheus scrapes this (honor_labels: true).
LoadPlugin write_prometheus
<Plugin write_prometheus>
  Host "127.0.0.1"
  Port "$SCRAPE"
</Plugin>

LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  Replay "$E2E_DIR/capture"
  ReplayLoop false
  Timestamp "sample"
  Host "e2ehost"
  InstanceNames "pid"
</Plugin>
<Plugin winperf>
  CountersFile "$E2E_DIR/probe.yaml"
  Replay "$E2E_DIR/capture"
  ReplayLoop false
  Timestamp "sample"
  Host "e2eclean"
  MetricNames "clean"
  SelfMetrics false
</Plugin>
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  <Host "downhost">
    Address "127.0.0.1"
    Port $DOWN_PORT
    PasswordFile "$E2E_DIR/down.cred"
    Timeout 2
  </Host>
</Plugin>
EOF

e2e_spawn "$E2E_DIR/collectd.stdout" /usr/sbin/collectd -f -C "$E2E_DIR/collectd.conf"
COLLECTD_PID=$E2E_LAST_PID

# ------------------------------------------------- wait for the last sample
AVAIL_LAST=$((4294967296 + 11 * 1048576))
AVAIL_P='collectd_winperf_gauge{instance="e2ehost", winperf="Memory", type="Available Bytes"}'
prom_last() { [ "$(e2e_promql_values "$PROM" "$AVAIL_P" "$E")" = "$AVAIL_LAST" ]; }
vm_last() {
  [ "$(e2e_promql_values "$VM" "$AVAIL_P" "$E")" = "$AVAIL_LAST" ] &&
    [ "$(e2e_promql_values "$VM" '{__name__="e2ehost.winperf-Memory.gauge-Available_Bytes"}' "$E")" = "$AVAIL_LAST" ]
}
carbon_last() {
  e2e_whisper_series "$CARBON_DIR/whisper/e2ehost/winperf-Memory/gauge-Available_Bytes.wsp" "$E" 1 |
    grep -qx "$AVAIL_LAST"
}
influx_last() {
  e2e_influx_query "SELECT value FROM winperf_value WHERE host = 'e2ehost' AND instance = 'Memory' AND type_instance = 'Available Bytes'" |
    grep -qx "$E $AVAIL_LAST"
}
# downhost's errors counter and backoff, in each backend.
down_everywhere() {
  [ -n "$(e2e_promql_values "$PROM" 'collectd_winperf_duration_seconds{instance="downhost", type="backoff"}')" ] &&
    [ -n "$(e2e_promql_values "$VM" 'collectd_winperf_duration_seconds{instance="downhost", type="backoff"}')" ] &&
    [ -f "$CARBON_DIR/whisper/downhost/winperf-self/duration-backoff.wsp" ] &&
    [ -n "$(e2e_influx_query "SELECT value FROM winperf_seconds WHERE host = 'downhost' AND type_instance = 'backoff'")" ]
}
e2e_wait_for 60 prom_last
e2e_ok $? "Prometheus holds the last sample (scraped from write_prometheus)"
e2e_wait_for 60 vm_last
e2e_ok $? "VictoriaMetrics holds the last sample (write_influxdb_udp and write_graphite)"
e2e_wait_for 60 carbon_last
e2e_ok $? "carbon holds the last sample"
e2e_wait_for 60 influx_last
e2e_ok $? "InfluxDB holds the last sample"
e2e_wait_for 60 down_everywhere
e2e_ok $? "the failing <Host> downhost's self-metrics reached every backend"
# VictoriaMetrics answers with data older than -search.latencyOffset only.
past() { [ "$(date +%s)" -gt "$1" ]; }
e2e_wait_for 10 past $((E + 2))

# ---------------------------------------------- exact values, rate()
# promql_is BASE WHAT QUERY WANT: the instant query's values at E.
promql_is() {
  e2e_is "$(e2e_promql_values "$1" "$3" "$E")" "$4" "$2"
}
# Gauges, each from its own counter type (by hand: backends_capture.c).
for base in "$PROM" "$VM"; do
  name=Prometheus
  [ "$base" = "$VM" ] && name="VictoriaMetrics (Influx line protocol, relabeled)"
  promql_is "$base" "$name: 100NSEC_TIMER_INV Processor(_Total) 40 %" \
    'collectd_winperf_gauge{instance="e2ehost", winperf="Processor-_Total", type="% Processor Time"}' 40
  promql_is "$base" "$name: RAW_FRACTION LogicalDisk % Free Space C: 25, D: 50, _Total 37.5" \
    'collectd_winperf_gauge{instance="e2ehost", winperf=~"LogicalDisk-.*", type="% Free Space"}' "25 37.5 50"
  promql_is "$base" "$name: COUNTER_COUNTER System Context Switches/sec 5000" \
    'collectd_winperf_gauge{instance="e2ehost", winperf="System", type="Context Switches_sec"}' 5000
  promql_is "$base" "$name: 100NSEC_TIMER Process(w3wp) named w3wp:4242 (InstanceNames pid) 60 %" \
    'collectd_winperf_gauge{instance="e2ehost", winperf="Process-w3wp:4242", type="% Processor Time"}' 60
  promql_is "$base" "$name: a non-ASCII process name, Process-Ærøskøbing:77, 20 %" \
    'collectd_winperf_gauge{instance="e2ehost", winperf="Process-Ærøskøbing:77", type="% Processor Time"}' 20
  promql_is "$base" "$name: Working Set as type bytes / working_set: w3wp 300 MiB" \
    'collectd_winperf_bytes{instance="e2ehost", winperf="Process-w3wp:4242", type="working_set"}' 314572800
  # Raw counters (DERIVE): rate() over 8 s ending at the last sample.
  promql_is "$base" "$name: rate() of raw Bytes Received/sec: 125000 and 1000 B/s" \
    'rate(collectd_winperf_derive_total{instance="e2ehost", winperf=~"Network Interface-.*", type="Bytes Received_sec"}[8s])' "1000 125000"
  promql_is "$base" "$name: rate() of raw Disk Read Bytes/sec: C: 1 MiB/s, D: 0, _Total 1 MiB/s" \
    'rate(collectd_winperf_derive_total{instance="e2ehost", winperf=~"LogicalDisk-.*", type="Disk Read Bytes_sec"}[8s])' "0 1048576 1048576"
  promql_is "$base" "$name: windows_exporter's name by hand: free bytes of C: 51200 MiB" \
    '1048576 * collectd_winperf_gauge{instance="e2ehost", winperf="LogicalDisk-C:", type="Free Megabytes"}' 53687091200
done
# Every sample, at its own time, in both Prometheus and VictoriaMetrics.
want_avail=$(for k in $(seq 0 $((K - 1))); do echo "$((T0 + k)) $((4294967296 + k * 1048576))"; done)
e2e_is "$(e2e_promql_samples "$PROM" "${AVAIL_P}[20s]" "$E" | tr '\n' ' ')" "$(echo "$want_avail" | tr '\n' ' ')" \
  "Prometheus: LARGE_RAWCOUNT Available Bytes 4 GiB + k MiB, all 12 samples at T0 + k"
e2e_is "$(e2e_promql_samples "$VM" "${AVAIL_P}[20s]" "$E" | tr '\n' ' ')" "$(echo "$want_avail" | tr '\n' ' ')" \
  "VictoriaMetrics: the same 12 samples through the Influx line protocol"
e2e_is "$(e2e_promql_samples "$VM" '{__name__="e2ehost.winperf-Memory.gauge-Available_Bytes"}[20s]' "$E" | tr '\n' ' ')" \
  "$(echo "$want_avail" | tr '\n' ' ')" \
  "VictoriaMetrics: the same 12 samples through write_graphite, under the Graphite name"
# The recording rules, evaluated by the real Prometheus (at its now).
e2e_is "$(e2e_promql_values "$PROM" 'windows_memory_available_bytes{instance="e2ehost"}')" "$AVAIL_LAST" \
  "Prometheus rule windows_memory_available_bytes = \\Memory\\Available Bytes"
e2e_is "$(e2e_promql_values "$PROM" 'windows_logical_disk_free_bytes{instance="e2ehost", volume="D:"}')" 107374182400 \
  "Prometheus rule windows_logical_disk_free_bytes{volume=\"D:\"} = 102400 MiB"
e2e_is "$(e2e_promql_values "$PROM" 'count(windows_logical_disk_free_bytes{instance="e2ehost"})')" 2 \
  "Prometheus rule windows_logical_disk_free_bytes: C: and D:, not _Total"
e2e_is "$(e2e_promql_values "$PROM" 'windows_logical_disk_read_bytes_total{instance="e2ehost", volume="C:"}')" 11534336 \
  "Prometheus rule windows_logical_disk_read_bytes_total: the raw counter, 11 MiB at the last sample"
e2e_is "$(e2e_promql_values "$PROM" 'windows_system_threads{instance="e2ehost"}')" 1500 \
  "Prometheus rule windows_system_threads = \\System\\Threads"
# Graphite (the render API) and InfluxDB, the same gauges.
render() {
  curl -sG "$GW/render" --data-urlencode "target=$1" --data-urlencode format=json \
    --data-urlencode from=$((E - 1)) --data-urlencode until=$((E + 1)) |
    /usr/bin/python3 -c '
import json, sys
print(" ".join(sorted("%.12g" % v for s in json.load(sys.stdin)
                      for v, t in s["datapoints"] if v is not None)))'
}
e2e_is "$(render 'e2ehost.winperf-Processor-_Total.gauge-%_Processor_Time')" 40 \
  "graphite-web: Processor(_Total) 40 % at E"
e2e_is "$(render 'e2ehost.winperf-Network_Interface-Intel_R__Ethernet_Connection_I219-V.derive-Bytes_Received_sec')" 125000 \
  "graphite-web: raw Bytes Received/sec stored as a rate by write_graphite (StoreRates): 125000"
e2e_is "$(render 'e2ehost.winperf-Process-w3wp_4242.bytes-working_set')" 314572800 \
  "graphite-web: Process w3wp:4242 as w3wp_4242 (write_graphite's ':' -> '_')"
e2e_is "$(e2e_influx_query "SELECT value FROM winperf_value WHERE host = 'e2ehost' AND instance = 'Process-w3wp:4242' AND type_instance = '% Processor Time' AND time = ${E}s")" "$E 60" \
  "InfluxDB: Process-w3wp:4242 % Processor Time 60 at E"

# -------------------------------------------------------------- dashboards
/usr/bin/python3 "$top_srcdir/tests/e2e/dashboards.py" --time "$E" --range 300 \
  --host e2ehost --graphite "$GW" --influxdb "$INFLUX" \
  --prometheus "$PROM#prometheus" --prometheus "$VM#victoriametrics" \
  "$top_srcdir"/conf/grafana/*/winperf-*.json >"$E2E_DIR/dashboards.out" 2>&1
grep -v '^\(ok\|not ok\|#\) ' "$E2E_DIR/dashboards.out" | e2e_diag # a crash
dashboards_n=$(grep -c '^\(ok\|not ok\) ' "$E2E_DIR/dashboards.out")
[ "$dashboards_n" -gt 100 ]
e2e_ok $? "dashboards.py ran $dashboards_n checks"
while IFS= read -r line; do
  case $line in
  "ok - "*) e2e_ok 0 "${line#ok - }" ;;
  "not ok - "*) e2e_ok 1 "${line#not ok - }" ;;
  "# "*) echo "$line" ;;
  esac
done <"$E2E_DIR/dashboards.out"

# ------------------------------------------------- issue 22's self-metrics
# count-auth_paused and gauge-clock_skew come with the fleet work (issue
# 22): the fleet page and the alerts use them, and here each backend must
# return them for downhost. Without issue 22 they fail: by design, so the
# integrator sees it, never a skip.
issue22() { # WHAT CHECK...
  _what=$1
  shift
  "$@"
  e2e_ok $? "issue 22 metric: $_what returns data"
}
for m in 'count auth_paused' 'gauge clock_skew'; do
  # shellcheck disable=SC2086 # two words: type, type instance
  set -- $m
  issue22 "Prometheus collectd_winperf_$1{type=\"$2\"}" \
    test -n "$(e2e_promql_values "$PROM" "collectd_winperf_$1{winperf=\"self\", type=\"$2\"}" "$E")"
  issue22 "VictoriaMetrics collectd_winperf_$1{type=\"$2\"}" \
    test -n "$(e2e_promql_values "$VM" "collectd_winperf_$1{winperf=\"self\", type=\"$2\"}" "$E")"
  issue22 "carbon HOST.winperf-self.$1-$2" \
    test -n "$(find "$CARBON_DIR/whisper" -path "*/winperf-self/$1-$2.wsp")"
  issue22 "InfluxDB winperf_value type=$1 type_instance=$2" \
    test -n "$(e2e_influx_query "SELECT value FROM winperf_value WHERE instance = 'self' AND type = '$1' AND type_instance = '$2'")"
done

# ------------------------------------------------------- name measurements
/usr/bin/python3 "$top_srcdir/tests/e2e/name-probe.py" --time "$E" \
  --graphite "$GW" --influxdb "$INFLUX" --prometheus "$PROM" --victoria "$VM" \
  --table "$top_srcdir/doc/backends.md" >"$E2E_DIR/names.out" 2>&1
e2e_ok $? "which default and clean names each query language takes as they are: the table in doc/backends.md"
e2e_diag <"$E2E_DIR/names.out"

e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd still running"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
grep -E '\[(error|warning)\]' "$E2E_DIR/collectd.log" | grep -v downhost | e2e_diag
e2e_done
