#!/bin/bash
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# collectd for Windows with winperf.dll, end to end under Wine (TAP):
#
#   windows/test-collectd-wine.sh [BUILD_DIR]     (default: build/windows)
#
# BUILD_DIR is windows/build-collectd.sh's (run it first). In a fresh
# WINEPREFIX with the project's test V1 performance provider registered
# (tests/windows/provider.c, built by build-collectd.sh's mingw build of the
# project), collectd.exe loads winperf.dll with a YAML list of numeric
# counter paths (Wine's name table is a stub), reads the live
# HKEY_PERFORMANCE_DATA every second and sends the values through
# write_graphite to a real carbon-cache on Linux loopback. The test then
# reads the whisper files: counters on the provider's own object clock must
# equal the provider's rates exactly in every interval, counters on the
# clocks Wine stamps within 1 % in the median of the intervals (the
# expectations of tests/windows/wine.sh,
# fixed by the provider's rates). The first sample of a process is skewed
# under Wine (doc/wine.md), so the first value is not checked. One entry
# filters instances with include/exclude regexes (gnulib's regex in the
# DLL), and the local source's self-metrics are checked exactly.
#
# The same collectd.exe also loads write_prometheus.dll (the MSI's
# Prometheus writer): a real Prometheus scrapes it (honor_labels: true, as
# doc/backends.md documents) over loopback, and the same values are checked
# in Prometheus' samples under the names doc/backends.md gives
# (collectd_winperf_gauge{instance, winperf, type}); curl checks the
# exposition itself (its types, and that it answers over IPv4 and IPv6).
#
# Not part of `make check` (it needs the cross-built collectd, minutes to
# build): run it by hand or with `make windows-test-collectd`... see
# windows/README.md.

HERE=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "$HERE/.." && pwd)
B=${1:-$top_srcdir/build/windows}
# TAP, process and carbon helpers shared with the Linux end-to-end tests.
# shellcheck source=../tests/e2e/lib.sh
. "$top_srcdir/tests/e2e/lib.sh"

need wine wineboot wineserver jq ss curl prometheus python3
[ -d "$B" ] || e2e_bail "build dir $B exists (run windows/build-collectd.sh first)"
B=$(cd "$B" && pwd)
D=$B/dist
PROVIDER=$B/project/tests/windows/.libs/winperf_test_provider.dll
for f in "$D/collectd.exe" "$D/plugins/winperf.dll" "$D/plugins/write_graphite.dll" \
  "$D/plugins/write_prometheus.dll" "$D/plugins/logfile.dll" "$D/types.db" "$PROVIDER"; do
  [ -f "$f" ] || e2e_bail "$f exists (run windows/build-collectd.sh first)"
done
e2e_ok 0 "collectd.exe, winperf.dll, write_graphite.dll, write_prometheus.dll and the test provider are built"

e2e_init collectd-wine
# shellcheck source=../tests/e2e/backends-lib.sh
. "$top_srcdir/tests/e2e/backends-lib.sh"
# shellcheck source=wine-lib.sh
. "$HERE/wine-lib.sh"
fwdpath() { printf 'Z:%s' "$1"; } # for collectd.conf: '/' needs no escaping
wine_prefix_init
wine_register_provider "$PROVIDER"
e2e_ok $? "test performance provider registered"

e2e_start_carbon
e2e_ok 0 "carbon-cache accepts on 127.0.0.1:$CARBON_PORT"
# write_prometheus' port, scraped by a real Prometheus every 200 ms.
PROM_PORT=$(e2e_free_port tcp)
e2e_start_prometheus "$PROM_PORT"
PROM=http://127.0.0.1:$PROM_HTTP
e2e_ok 0 "prometheus is ready on 127.0.0.1:$PROM_HTTP, scraping 127.0.0.1:$PROM_PORT"

# ------------------------------------------------------------ expectations
# WINE_EXACT and WINE_NEAR (wine-lib.sh): the provider's series under the
# "wine.winetest." prefix.
wine_counters_yaml "$E2E_DIR/counters.yaml"
# One entry with an instance filter: the regexes go through the gnulib
# regex winperf.dll is linked with (POSIX extended, ASCII case folding):
# SVCHOST matches svchost and svchost#1, '#1$' drops svchost#1. Process's
# AVERAGE_BULK 10006 is 3 (i + 1) on the provider's object clock: exact.
cat >>"$E2E_DIR/counters.yaml" <<'YAML'
- path: \230(*)\10006
  include: SVCHOST
  exclude: '#1$'
YAML
mkdir -p "$E2E_DIR/run"
cat >"$E2E_DIR/collectd.conf" <<EOF
Hostname "winetest"
FQDNLookup false
Interval 1
MaxReadInterval 2
BaseDir "$(fwdpath "$E2E_DIR/run")"
PluginDir "$(fwdpath "$D/plugins")"
TypesDB "$(fwdpath "$D/types.db")"
LoadPlugin logfile
<Plugin logfile>
  LogLevel info
  File "$(fwdpath "$E2E_DIR/collectd.log")"
  Timestamp true
</Plugin>
LoadPlugin winperf
<Plugin winperf>
  CountersFile "$(fwdpath "$E2E_DIR/counters.yaml")"
</Plugin>
<LoadPlugin write_graphite>
  FlushInterval 1
</LoadPlugin>
<Plugin write_graphite>
  <Node "carbon">
    Host "127.0.0.1"
    Port "$CARBON_PORT"
    Protocol "tcp"
    Prefix "wine."
  </Node>
</Plugin>
# No Host: every address, IPv4 and IPv6 (windows/patches/0007).
LoadPlugin write_prometheus
<Plugin write_prometheus>
  Port "$PROM_PORT"
</Plugin>
EOF

# ----------------------------------------------------------- collectd.exe
W=$CARBON_DIR/whisper/wine/winetest
e2e_spawn "$E2E_DIR/collectd.out" wine "$D/collectd.exe" -f -C "$(winpath "$E2E_DIR/collectd.conf")"
COLLECTD_PID=$E2E_LAST_PID
# Wait until the last-created series has 6 points (at most 120 s: only so a
# broken build cannot hang; nothing below depends on speed).
enough() { [ "$(wine_whisper_points "$W/winperf-230-winperf/gauge-6.wsp")" -ge 6 ] && [ "$(wine_whisper_points "$W/winperf-238-0/gauge-10001.wsp")" -ge 6 ]; }
e2e_wait_for 120 enough
e2e_ok $? "carbon stores 6 or more values of the winperf series"
e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd.exe is running under Wine"
# The exposition itself, while collectd.exe serves it: over IPv4 and IPv6
# (the listener is dual-stack, patch 0007), in the text format with the
# types doc/backends.md names.
curl -sf -o "$E2E_DIR/metrics.txt" "http://127.0.0.1:$PROM_PORT/metrics"
e2e_ok $? "GET http://127.0.0.1:$PROM_PORT/metrics answers (IPv4)"
curl -sf -o "$E2E_DIR/metrics6.txt" -g "http://[::1]:$PROM_PORT/metrics"
e2e_ok $? "GET http://[::1]:$PROM_PORT/metrics answers (IPv6)"
grep -qx '# TYPE collectd_winperf_gauge gauge' "$E2E_DIR/metrics.txt" &&
  grep -qx '# TYPE collectd_winperf_count gauge' "$E2E_DIR/metrics.txt"
e2e_ok $? "/metrics: the families collectd_winperf_gauge and collectd_winperf_count (self-metrics)"
grep -q '^collectd_winperf_gauge{winperf="238-0",type="10001",instance="winetest"} 25 [0-9]*$' "$E2E_DIR/metrics.txt"
e2e_ok $? "/metrics: collectd_winperf_gauge{winperf=\"238-0\",type=\"10001\",instance=\"winetest\"} 25 with its timestamp"
e2e_stop "$COLLECTD_PID" 10
tr -d '\r' <"$E2E_DIR/collectd.log" >"$E2E_DIR/collectd.txt" 2>/dev/null
grep -q 'plugin "winperf" successfully loaded' "$E2E_DIR/collectd.txt"
e2e_ok $? "collectd.exe loaded winperf.dll"
grep -q 'plugin "write_graphite" successfully loaded' "$E2E_DIR/collectd.txt"
e2e_ok $? "collectd.exe loaded write_graphite.dll"
grep -q 'plugin "write_prometheus" successfully loaded' "$E2E_DIR/collectd.txt"
e2e_ok $? "collectd.exe loaded write_prometheus.dll"
! grep -i 'winperf.*\(error\|fail\)' "$E2E_DIR/collectd.txt" | grep -q .
e2e_ok $? "no winperf errors in collectd's log"
e2e_diag <"$E2E_DIR/collectd.txt" | head -40

# --------------------------------------------------------------- whisper
now=$(date +%s)
values() { # values METRIC: the stored values, oldest first, one per line
  local f="$W/${1//.//}.wsp"
  [ -f "$f" ] || return 0
  /usr/bin/whisper-fetch --json --from=$((now - 600)) --until="$now" "$f" |
    jq -r '.values[] | select(. != null)'
}
wine_check values wine.winetest. exact "$WINE_EXACT"
wine_check values wine.winetest. 0.01 "$WINE_NEAR"

# ------------------------------------------------------------ Prometheus
# The same series in Prometheus: "winperf-OBJ[-INST].TYPE-COUNTER" is
# collectd_winperf_TYPE{instance="winetest", winperf="OBJ[-INST]",
# type="COUNTER"}; every sample of the last 10 minutes at its own time
# (write_prometheus sends collectd's time stamps, Prometheus keeps them),
# oldest first.
prom_values() {
  local obj=${1%%.*} tc=${1#*.}
  e2e_promql_samples "$PROM" "collectd_winperf_${tc%%-*}{instance=\"winetest\", winperf=\"${obj#winperf-}\", type=\"${tc#*-}\"}[10m]" "$(date +%s)" |
    sort -n | awk '{ print $2 }'
}
wine_check prom_values Prometheus exact "$WINE_EXACT"
wine_check prom_values Prometheus 0.01 "$WINE_NEAR"
e2e_is "$(e2e_promql_values "$PROM" 'count(collectd_winperf_gauge{instance="winetest", winperf=~"230-.*", type="10006"})')" \
  "1" "Prometheus: the filtered entry has one 10006 series (svchost)"
e2e_is "$(e2e_promql_values "$PROM" 'max_over_time(collectd_winperf_count{instance="winetest", winperf="self", type="errors"}[10m])')" \
  "0" "Prometheus: self-metrics count-errors 0"

# The filtered entry: svchost alone (instance 1: 3 x 2 = 6).
wine_check values wine.winetest. exact "winperf-230-svchost.gauge-10006 6"
e2e_is "$(cd "$W" && find . -name gauge-10006.wsp | sort | tr '\n' ' ')" \
  "./winperf-230-svchost/gauge-10006.wsp " \
  "include/exclude: Idle, svchost#1 and winperf have no 10006 series"

# Self-metrics of the local registry source (on by default): the answer to
# "238 2 230" holds 3 objects with 3 + 4 instances; every path matches;
# 18 values an interval once rates have two samples (3 + 3 + 4 + 4 + 2 +
# 1 + 1); no error.
distinct() { values "winperf-self.$1" | tail -n +3 | sort -u | tr '\n' ' '; }
e2e_is "$(distinct count-objects)" "3 " "self-metrics: count-objects 3"
e2e_is "$(distinct count-instances)" "7 " "self-metrics: count-instances 7"
e2e_is "$(distinct count-values)" "18 " "self-metrics: count-values 18"
e2e_is "$(distinct count-unmatched_paths)" "0 " "self-metrics: count-unmatched_paths 0"
e2e_is "$(values winperf-self.count-errors | sort -u | tr '\n' ' ')" "0 " \
  "self-metrics: count-errors 0"
e2e_done
