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
# under Wine (shared/notes/wine-mingw.md), so the first value is not checked.
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

need wine wineboot wineserver jq ss
[ -d "$B" ] || e2e_bail "build dir $B exists (run windows/build-collectd.sh first)"
B=$(cd "$B" && pwd)
D=$B/dist
PROVIDER=$B/project/tests/windows/.libs/winperf_test_provider.dll
for f in "$D/collectd.exe" "$D/plugins/winperf.dll" "$D/plugins/write_graphite.dll" \
  "$D/plugins/logfile.dll" "$D/types.db" "$PROVIDER"; do
  [ -f "$f" ] || e2e_bail "$f exists (run windows/build-collectd.sh first)"
done
e2e_ok 0 "collectd.exe, winperf.dll, write_graphite.dll and the test provider are built"

e2e_init collectd-wine
# shellcheck source=wine-lib.sh
. "$HERE/wine-lib.sh"
fwdpath() { printf 'Z:%s' "$1"; } # for collectd.conf: '/' needs no escaping
wine_prefix_init
wine_register_provider "$PROVIDER"
e2e_ok $? "test performance provider registered"

e2e_start_carbon
e2e_ok 0 "carbon-cache accepts on 127.0.0.1:$CARBON_PORT"

# ------------------------------------------------------------ expectations
# graphite metric (after the "wine.winetest." prefix), wanted value.
# Numeric paths name objects and counters by index: plugin instance
# "<object>-<instance>", type instance "<counter>".
EXACT='winperf-238-0.gauge-10001 25
winperf-238-1.gauge-10001 50
winperf-238-_Total.gauge-10001 37.5
winperf-2.gauge-10002 3.5
winperf-2.gauge-674 12345
winperf-2.gauge-250 42
winperf-2.gauge-10004 12.5
winperf-230-Idle.gauge-10003 10
winperf-230-svchost.gauge-10003 20
winperf-230-svchost#1.gauge-10003 30
winperf-230-winperf.gauge-10003 40
winperf-230-Idle.gauge-784 0
winperf-230-svchost#1.gauge-784 200'
NEAR='winperf-238-0.gauge-6 25
winperf-238-1.gauge-6 50
winperf-238-_Total.gauge-6 37.5
winperf-230-winperf.gauge-6 40'

cat >"$E2E_DIR/counters.yaml" <<'EOF'
# the test provider's objects: Processor 238, System 2, Process 230
- \238(*)\10001
- \238(*)\6
- \2\10002
- \2\674
- \2\250
- \2\10004
- \230(*)\10003
- \230(Idle)\784
- \230(svchost#1)\784
- \230(winperf)\6
EOF
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
EOF

# ----------------------------------------------------------- collectd.exe
W=$CARBON_DIR/whisper/wine/winetest
e2e_spawn "$E2E_DIR/collectd.out" wine "$D/collectd.exe" -f -C "$(winpath "$E2E_DIR/collectd.conf")"
COLLECTD_PID=$E2E_LAST_PID
# Wait until the last-created series has 6 points (at most 120 s: only so a
# broken build cannot hang; nothing below depends on speed).
points() { # points FILE: non-empty whisper slots of the last 10 minutes
  [ -f "$1" ] || {
    echo 0
    return
  }
  /usr/bin/whisper-fetch --json --from=$(($(date +%s) - 600)) "$1" 2>/dev/null |
    jq '[.values[] | select(. != null)] | length'
}
enough() { [ "$(points "$W/winperf-230-winperf/gauge-6.wsp")" -ge 6 ] && [ "$(points "$W/winperf-238-0/gauge-10001.wsp")" -ge 6 ]; }
e2e_wait_for 120 enough
e2e_ok $? "carbon stores 6 or more values of the winperf series"
e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd.exe is running under Wine"
e2e_stop "$COLLECTD_PID" 10
tr -d '\r' <"$E2E_DIR/collectd.log" >"$E2E_DIR/collectd.txt" 2>/dev/null
grep -q 'plugin "winperf" successfully loaded' "$E2E_DIR/collectd.txt"
e2e_ok $? "collectd.exe loaded winperf.dll"
grep -q 'plugin "write_graphite" successfully loaded' "$E2E_DIR/collectd.txt"
e2e_ok $? "collectd.exe loaded write_graphite.dll"
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
check_series() { # check_series WHAT TOLERANCE LIST
  local metric want vals n bad
  while read -r metric want; do
    vals=$(values "$metric" | tail -n +2) # the first sample is skewed
    n=$(printf '%s\n' "$vals" | grep -c .)
    bad=$(printf '%s\n' "$vals" | awk -v w="$want" -v t="$2" 'NF {
      d = $1 - w; if (d < 0) d = -d
      if (t == 0 ? $1 + 0 != w + 0 : d > t * (w < 0 ? -w : w)) print $1 }')
    if [ "$n" -ge 3 ] && [ -z "$bad" ]; then
      e2e_ok 0 "$1: wine.winetest.$metric = $want in all $n intervals after the first"
    else
      e2e_ok 1 "$1: wine.winetest.$metric = $want (tolerance $2) in 3+ intervals"
      printf 'values: %s\n' "$(values "$metric" | tr '\n' ' ')" | e2e_diag
    fi
  done <<<"$3"
}
check_median() { # check_median TOLERANCE LIST
  local metric want vals med
  while read -r metric want; do
    vals=$(values "$metric" | tail -n +2)
    med=$(printf '%s\n' "$vals" | grep . | sort -g | awk '{ v[NR] = $1 } END {
      if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
    if [ "$(printf '%s\n' "$vals" | grep -c .)" -ge 3 ] && awk -v m="$med" -v w="$want" -v t="$1" \
      'BEGIN { d = m - w; if (d < 0) d = -d; exit !(m != "" && d <= t * w) }'; then
      e2e_ok 0 "near: wine.winetest.$metric: median $med of the intervals after the first within $1 of $want"
    else
      e2e_ok 1 "near: wine.winetest.$metric: median '$med' within $1 of $want"
      printf 'values: %s\n' "$(values "$metric" | tr '\n' ' ')" | e2e_diag
    fi
  done <<<"$2"
}
check_series exact 0 "$EXACT"
# Counters on the clocks Wine stamps: a sample is right within the object
# clock's 10 ms quantum (1 % of a 1 s interval) unless the process stalls
# between Wine's time stamp and the provider's clock reading, which a
# loaded machine does (a 10 s read was seen): the median must be within 1 %.
check_median 0.01 "$NEAR"
e2e_done
