#!/bin/bash
# collectd-winperf end to end: one replay, through real collectd 5.12, into
# every backend at once: Prometheus 2.42 (write_prometheus, scraped),
# VictoriaMetrics (write_graphite and write_influxdb_udp), carbon with
# graphite-web's render API (write_graphite) and InfluxDB 1.6 (network ->
# collectd input); plus a fleet of three <Host>s so the fleet's panels and
# alerts have data: downhost fails (a closed loopback port), and against a
# real smbd (tests/remote/smbd-lib.sh) skewhost answers with a clock 600 s
# ahead (tests/remote/perfmon_clock.py) and pausedhost's wrong password
# pauses its credential. Then: exact values through each query language,
# rate() of the raw counters, the recording and alerting rules (promtool
# and the real Prometheus), every dashboard's every query
# (tests/e2e/dashboards.py; the fleet page's show which host fails, waits,
# is paused, is off by how much), and which names each query language
# takes as they are (the table in doc/backends.md). Needs root (smbd and
# its throwaway user).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# Times: the capture's sample k is stamped T0 + k (Timestamp "sample",
# tests/e2e/backends_capture.c), T0 a few seconds before collectd starts;
# collectd replays one sample a second and Prometheus scrapes every 200 ms
# (each value is scraped about 5 times, so a slow scrape loses none), so
# every sample is stored at its own second everywhere. Every
# query of the replay's values is evaluated at E = T0 + 11, the last
# sample, over the 300 s before it: no result depends on how fast anything
# ran. Expected values are by hand from the capture's raw values (its
# header). The fleet's self-metrics are stamped when dispatched, at the
# poller's time (skewhost's values too: 600 s is past MaxClockSkew), so
# the self and fleet pages are looked at when every backend has them (F).
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=backends-lib.sh disable=SC2154 # top_srcdir: lib.sh
. "$top_srcdir/tests/e2e/backends-lib.sh"
# shellcheck source=../remote/smbd-lib.sh
. "$top_srcdir/tests/remote/smbd-lib.sh"

K=12
SKEW=600 # skewhost's clock ahead of the poller's, seconds
top_srcdir=$(cd "$top_srcdir" && pwd) # the servers get absolute paths
e2e_init backends
trap 'smbd_teardown; e2e_cleanup' EXIT
need collectd curl ss influxd prometheus promtool victoria-metrics python3
[ "$(id -u)" = 0 ] || e2e_bail "needs root (smbd and its throwaway user, for the fleet's hosts)"
/usr/bin/python3 -c 'import tdb' 2>/dev/null || e2e_bail "python3-tdb installed"
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
# The fleet's smbd: one perfmon sample whose time is SKEW s ahead.
chmod 755 "$E2E_DIR"
smbd_setup "$E2E_DIR/smbd" "$(e2e_free_port tcp)" || e2e_bail "smbd user and config"
/usr/bin/python3 "$top_srcdir/tests/remote/perfmon_clock.py" "$SMBD_DIR/state/perfmon" "$SKEW" ||
  e2e_bail "a perfmon sample $SKEW s ahead"
T_SKEW=$(date +%s) # the sample's time less SKEW, to a second
smbd_start || e2e_bail "smbd listens on 127.0.0.1:$SMBD_PORT"
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
# What smbd's sample has (\System\Processes 42), and one path that
# matches nothing (the fleet page's unmatched paths).
printf '%s\n' "- '\\System\\Processes'" "- '\\NoSuchObject\\Items'" >"$E2E_DIR/fleet.yaml"
printf 'username = nobody\npassword = nothing\n' >"$E2E_DIR/down.cred"
chmod 600 "$E2E_DIR/down.cred"

cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_globals backends-collectd 1)
MaxReadInterval 1
ReadThreads 6 # the two replays and three <Host>s each at once

$(e2e_conf_logfile)

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
# The MSI's default counter list (windows/winperf.yaml) as it is, with the
# MSI's naming (no InstanceNames: pdh) and self-metrics (on, as in the
# MSI: the PromQL pages find their hosts by them): the host page must
# show it too.
<Plugin winperf>
  CountersFile "$top_srcdir/windows/winperf.yaml"
  Replay "$E2E_DIR/capture"
  ReplayLoop false
  Timestamp "sample"
  Host "msihost"
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
  <Host "skewhost">
    Address "127.0.0.1"
    Port $SMBD_PORT
    PasswordFile "$SMBD_DIR/creds"
    CountersFile "$E2E_DIR/fleet.yaml"
    Timeout 30 # a loaded machine: a healthy host must not time out
  </Host>
  <Host "pausedhost">
    Address "127.0.0.1"
    Port $SMBD_PORT
    PasswordFile "$SMBD_DIR/badcreds"
    CountersFile "$E2E_DIR/fleet.yaml"
    Timeout 5
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
e2e_wait_for 60 prom_last
e2e_ok $? "Prometheus holds the last sample (scraped from write_prometheus)"
e2e_wait_for 60 vm_last
e2e_ok $? "VictoriaMetrics holds the last sample (write_influxdb_udp and write_graphite)"
e2e_wait_for 60 carbon_last
e2e_ok $? "carbon holds the last sample"
e2e_wait_for 60 influx_last
e2e_ok $? "InfluxDB holds the last sample"
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

# ------------------------------------------------------- name measurements
/usr/bin/python3 "$top_srcdir/tests/e2e/name-probe.py" --time "$E" \
  --graphite "$GW" --influxdb "$INFLUX" --prometheus "$PROM" --victoria "$VM" \
  --table "$top_srcdir/doc/backends.md" >"$E2E_DIR/names.out" 2>&1
e2e_ok $? "which default and clean names each query language takes as they are: the table in doc/backends.md"
e2e_diag <"$E2E_DIR/names.out"

# -------------------------------------------------------------- dashboards
# dashboards TIME OUT ARGS...: tests/e2e/dashboards.py at TIME over the
# 300 s before it, its lines as this test's.
dashboards() {
  _time=$1
  _out=$2
  shift 2
  /usr/bin/python3 "$top_srcdir/tests/e2e/dashboards.py" --time "$_time" --range 300 \
    --host e2ehost --graphite "$GW" --influxdb "$INFLUX" \
    --prometheus "$PROM#prometheus" --prometheus "$VM#victoriametrics" \
    "$@" >"$_out" 2>&1
  grep -v '^\(ok\|not ok\|#\) ' "$_out" | e2e_diag # a crash
  _n=$(grep -c '^\(ok\|not ok\) ' "$_out")
  [ "$_n" -gt 30 ]
  e2e_ok $? "dashboards.py ran $_n checks ($(basename "$_out" .out))"
  while IFS= read -r line; do
    case $line in
    "ok - "*) e2e_ok 0 "${line#ok - }" ;;
    "not ok - "*) e2e_ok 1 "${line#not ok - }" ;;
    "# "*) echo "$line" ;;
    esac
  done <"$_out"
}
# The host overview: the replay's values at E.
dashboards "$E" "$E2E_DIR/dashboards-host.out" "$top_srcdir"/conf/grafana/*/winperf-host.json
# The same page for the host read with the MSI's default list: every panel
# has data (the list has every counter the page reads); its top processes
# by program name (svchost and svchost#1 summed: 10 + 5 %, 10 + 20 MiB),
# without _Total (95 %, 335 MiB) or Idle.
dashboards "$E" "$E2E_DIR/dashboards-msihost.out" --host msihost \
  "$top_srcdir"/conf/grafana/*/winperf-host.json
promql_is "$PROM" "Prometheus: the MSI's list, \\Process(*)\\% Processor Time per program: svchost 15, Ærøskøbing 20, w3wp 60, no _Total or Idle" \
  'collectd_winperf_gauge{instance="msihost", winperf=~"Process-.*", type="% Processor Time"}' "15 20 60"
promql_is "$PROM" "Prometheus: the MSI's list, Working Set of Process-svchost summed: 30 MiB" \
  'collectd_winperf_bytes{instance="msihost", winperf="Process-svchost", type="working_set"}' 31457280

# ---------------------------------------------------------------- the fleet
# Wait until every backend has what the fleet page shows: skewhost's clock
# skew, pausedhost's paused credential, downhost's backoff and a rise of
# its count-errors (a second failure).
prom_has() { [ -n "$(e2e_promql_values "$1" "$2")" ]; }
gw_values() { # TARGET [UNTIL]: its non-null values of the last 300 s
  curl -sG "$GW/render" --data-urlencode "target=$1" --data-urlencode format=json \
    --data-urlencode "from=$((${2:-$(date +%s)} - 300))" --data-urlencode "until=${2:-now}" |
    /usr/bin/python3 -c '
import json, sys
print(" ".join("%.12g" % v for s in json.load(sys.stdin)
               for v, t in s["datapoints"] if v is not None))'
}
fleet_everywhere() {
  for base in "$PROM" "$VM"; do
    prom_has "$base" 'collectd_winperf_gauge{instance="skewhost", winperf="self", type="clock_skew"}' &&
      prom_has "$base" 'collectd_winperf_count{instance="pausedhost", winperf="self", type="auth_paused"} == 1' &&
      prom_has "$base" 'collectd_winperf_duration_seconds{instance="downhost", winperf="self", type="backoff"}' &&
      prom_has "$base" 'changes(collectd_winperf_count{instance="downhost", winperf="self", type="errors"}[5m]) > 0' ||
      return 1
  done
  [ -n "$(gw_values skewhost.winperf-self.gauge-clock_skew)" ] &&
    case " $(gw_values pausedhost.winperf-self.count-auth_paused) " in *" 1 "*) ;; *) false ;; esac &&
    [ -n "$(gw_values downhost.winperf-self.duration-backoff)" ] &&
    [ "$(gw_values 'removeBelowValue(nonNegativeDerivative(downhost.winperf-self.count-errors), 1)')" != "" ] &&
    [ -n "$(e2e_influx_query "SELECT last(value) FROM winperf_value WHERE host = 'skewhost' AND type_instance = 'clock_skew'")" ] &&
    [ -n "$(e2e_influx_query "SELECT last(value) FROM winperf_value WHERE host = 'pausedhost' AND type_instance = 'auth_paused' AND value = 1")" ] &&
    [ -n "$(e2e_influx_query "SELECT last(value) FROM winperf_seconds WHERE host = 'downhost' AND type_instance = 'backoff'")" ] &&
    [ -n "$(e2e_influx_query "SELECT spread(value) FROM winperf_value WHERE host = 'downhost' AND type_instance = 'errors'" | awk '$2 > 0')" ]
}
e2e_wait_for 60 fleet_everywhere
e2e_ok $? "every backend holds the fleet's self-metrics (skewhost's clock skew, pausedhost's paused credential, downhost's backoff and rising errors)"
F=$(date +%s) # the self and fleet pages are looked at F
e2e_wait_for 10 past $((F + 2))
# skewhost's clock skew at F: SKEW less the time since its sample was
# written, to within 10 s (python's time against T_SKEW; the last value
# before F, a second or more before it on a loaded machine).
SKEW_LO=$((SKEW - (F - T_SKEW) - 10))
SKEW_HI=$((SKEW - (F - T_SKEW) + 10))

# The two fleet self-metrics the fleet page and the alerts rest on, in each
# backend, per host.
# by_host: "host=value" pairs, sorted.
by_host() { /usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(" ".join(sorted("%s=%.12g" % (s["metric"]["instance"], float(s["value"][1])) for s in r)))'; }
within() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x != "" && x >= lo && x <= hi) }'; }
for base in "$PROM" "$VM"; do
  name=Prometheus
  [ "$base" = "$VM" ] && name=VictoriaMetrics
  e2e_is "$(e2e_promql "$base" 'collectd_winperf_count{winperf="self", type="auth_paused"}' "$F" | by_host)" \
    "downhost=0 pausedhost=1 skewhost=0" \
    "$name: count-auth_paused: 1 for pausedhost (its password refused), 0 for the others with a password file"
  skew=$(e2e_promql "$base" 'collectd_winperf_gauge{winperf="self", type="clock_skew"}' "$F" | by_host)
  within "${skew#skewhost=}" "$SKEW_LO" "$SKEW_HI" && [ "${skew%%=*}" = skewhost ]
  e2e_ok $? "$name: gauge-clock_skew only for skewhost (the one that answers), in [$SKEW_LO, $SKEW_HI] s: $skew"
done
last_of() { awk '{ v = $NF } END { print v }'; }
e2e_is "$(for h in downhost pausedhost skewhost; do printf '%s=%s ' $h "$(gw_values "$h.winperf-self.count-auth_paused" "$F" | last_of)"; done)" \
  "downhost=0 pausedhost=1 skewhost=0 " "carbon (graphite-web): HOST.winperf-self.count-auth_paused: 1 for pausedhost, 0 for the others"
skew=$(gw_values skewhost.winperf-self.gauge-clock_skew "$F" | last_of)
within "$skew" "$SKEW_LO" "$SKEW_HI" &&
  [ "$(cd "$CARBON_DIR/whisper" && find . -path '*/winperf-self/gauge-clock_skew.wsp')" = ./skewhost/winperf-self/gauge-clock_skew.wsp ]
e2e_ok $? "carbon (graphite-web): gauge-clock_skew only for skewhost, in [$SKEW_LO, $SKEW_HI] s: $skew"
influx_last_by_host() { # TYPE_INSTANCE: "host=value" pairs at F
  curl -sG "$INFLUX/query" --data-urlencode db=collectd --data-urlencode epoch=s \
    --data-urlencode "q=SELECT last(value) FROM winperf_value WHERE instance = 'self' AND type_instance = '$1' AND time <= ${F}s GROUP BY host" |
    /usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin)["results"][0].get("series", [])
print(" ".join(sorted("%s=%.12g" % (s["tags"]["host"], s["values"][-1][1]) for s in r)))'
}
e2e_is "$(influx_last_by_host auth_paused)" "downhost=0 pausedhost=1 skewhost=0" \
  "InfluxDB: count-auth_paused: 1 for pausedhost, 0 for the others"
skew=$(influx_last_by_host clock_skew)
within "${skew#skewhost=}" "$SKEW_LO" "$SKEW_HI" && [ "${skew%%=*}" = skewhost ]
e2e_ok $? "InfluxDB: gauge-clock_skew only for skewhost, in [$SKEW_LO, $SKEW_HI] s: $skew"

# The collector's and the fleet's pages at F: every query returns data,
# and the fleet page shows each host as it is (largest value in the range).
dashboards "$F" "$E2E_DIR/dashboards-fleet.out" \
  --expect 'fleet|Hosts with errors|A|downhost>0 !skewhost !e2ehost' \
  --expect 'fleet|Backoff per host|A|downhost>0 pausedhost>3000 pausedhost<=3600 skewhost==0' \
  --expect 'fleet|Paused credentials|A|pausedhost==1 skewhost==0 downhost==0' \
  --expect "fleet|Clock skew|A|skewhost>=$SKEW_LO skewhost<=$((SKEW + 2)) !downhost !pausedhost !e2ehost" \
  --expect 'fleet|Query duration against the interval|A|skewhost>0 skewhost<30 e2ehost !downhost !pausedhost' \
  --expect 'fleet|Query duration against the interval|B|skewhost downhost pausedhost' \
  --expect 'fleet|Query duration as a share of the interval|A|skewhost>0 !downhost' \
  --expect 'fleet|Unmatched paths per host|A|skewhost==1' \
  --expect 'self|Errors per minute|A|downhost>0 skewhost==0' \
  --expect 'self|Backoff|A|downhost>0 skewhost==0' \
  "$top_srcdir"/conf/grafana/*/winperf-self.json "$top_srcdir"/conf/grafana/*/winperf-fleet.json

# The alerting rules, evaluated by the real Prometheus on these hosts.
alerts() {
  curl -s "$PROM/api/v1/alerts" | /usr/bin/python3 -c '
import json, sys
for a in json.load(sys.stdin)["data"]["alerts"]:
    print(a["labels"]["alertname"], a["labels"].get("instance", "-"), a["state"])' | sort
}
alerts_have() { # an extended regex per alert line
  _a=$(alerts)
  for _want in "$@"; do
    printf '%s\n' "$_a" | grep -qxE "$_want" || return 1
  done
}
# Those with a `for:` are pending at first (WinperfClockSkewKerberos
# fires after a minute: a slow run gets there).
e2e_wait_for 30 alerts_have "WinperfCredentialPaused pausedhost firing" \
  "WinperfClockSkew skewhost pending" "WinperfClockSkewKerberos skewhost (pending|firing)" \
  "WinperfHostBackoff downhost pending" "WinperfHostBackoff pausedhost pending"
e2e_ok $? "Prometheus: WinperfCredentialPaused fires for pausedhost; WinperfClockSkew(Kerberos) pending for skewhost (600 s); WinperfHostBackoff pending for downhost and pausedhost"
alerts | e2e_diag
e2e_is "$(alerts | grep -v '^WinperfErrors ' | awk '{ print $2 }' | sort -u | tr '\n' ' ')" "downhost pausedhost skewhost " \
  "Prometheus: no other host alerts (e2ehost, the replay, is healthy)"

e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd still running"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
grep -E '\[(error|warning)\]' "$E2E_DIR/collectd.log" | grep -v -e downhost -e pausedhost -e skewhost | e2e_diag
e2e_done
