#!/bin/sh
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# Smoke test: the built winperf.so inside a real collectd (5.12, Debian's)
# with the csv writer, replaying tests/plugin/mkcapture's capture (format.md 1.8's
# vector, its second sample, a malformed blob, a fourth sample) with
# Interval 1, ReplayLoop false and Timestamp "sample", then asserting the csv
# files hold exactly the values the spec's arithmetic gives. Also: an invalid
# YAML file makes collectd refuse to start, naming file:line:column.
# Speaks TAP.

top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
# shellcheck source-path=SCRIPTDIR source=../lib/need.sh
. "$top_srcdir/tests/lib/need.sh"
need collectd
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { # check DESCRIPTION COMMAND...
  d=$1
  shift
  if "$@"; then ok "$d"; else notok "$d"; fi
}
finish() {
  echo "1..$n"
  exit 0
}

COLLECTD=${COLLECTD:-/usr/sbin/collectd}
SYSPLUGINS=${SYSPLUGINS:-/usr/lib/collectd}
PLUGIN=$top_builddir/.libs/winperf.so
MKCAPTURE=$top_builddir/tests/plugin/mkcapture

for f in "$COLLECTD" "$SYSPLUGINS/logfile.so" "$SYSPLUGINS/csv.so" \
  "$PLUGIN" "$MKCAPTURE"; do
  if [ ! -e "$f" ]; then
    notok "needs $f (install collectd-core; build the plugin)"
    finish
  fi
done

# A sanitizer build: collectd itself is not instrumented, so the runtime
# must come first (leaks are valgrind's job, in tests/e2e).
asan=$(ldd "$PLUGIN" 2>/dev/null | awk '/libasan/ { print $3 }')
if [ -n "$asan" ]; then
  LD_PRELOAD=$asan
  ASAN_OPTIONS=detect_leaks=0
  export LD_PRELOAD ASAN_OPTIONS
fi

tmp=$(mktemp -d /tmp/wp-smoke-XXXXXX)
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

mkdir "$tmp/plugins" "$tmp/capture" "$tmp/csv"
# collectd refuses symlinked plugins: copies.
cp "$SYSPLUGINS/logfile.so" "$SYSPLUGINS/csv.so" "$PLUGIN" "$tmp/plugins/"
"$MKCAPTURE" "$tmp/capture"
check "capture written" test -s "$tmp/capture/4.blob"
if [ -f "$top_srcdir/conf/sample/sample1.blob" ]; then
  check "1.blob is format.md 1.8's vector byte for byte" \
    cmp -s "$top_srcdir/conf/sample/sample1.blob" "$tmp/capture/1.blob"
  check "2.blob is the spec's second sample byte for byte" \
    cmp -s "$top_srcdir/conf/sample/sample2.blob" "$tmp/capture/2.blob"
fi

cat >"$tmp/counters.yaml" <<'EOF'
# every counter of System (a single-instance object), Items of every Queue
- \System\*
- path: \Queue(*)\Items
EOF

# write_conf FILE COUNTERS_FILE [extra winperf options...] (replaying
# $capture, by default $tmp/capture)
capture=$tmp/capture
write_conf() {
  conf=$1
  counters=$2
  shift 2
  {
    cat <<EOF
Hostname "ignored-by-Host"
FQDNLookup false
Interval 1
MaxReadInterval 2
BaseDir "$tmp"
PIDFile "$tmp/collectd.pid"
PluginDir "$tmp/plugins"
TypesDB "/usr/share/collectd/types.db"
LoadPlugin logfile
<Plugin logfile>
  LogLevel info
  File "$tmp/collectd.log"
  Timestamp false
</Plugin>
LoadPlugin csv
<Plugin csv>
  DataDir "$tmp/csv"
  StoreRates false
</Plugin>
LoadPlugin winperf
<Plugin winperf>
  CountersFile "$counters"
  Replay "$capture"
EOF
    for opt in "$@"; do echo "  $opt"; done
    echo "</Plugin>"
  } >"$conf"
}

# --- 1. four intervals in the foreground ---------------------------------
write_conf "$tmp/collectd.conf" "$tmp/counters.yaml" \
  'ReplayLoop false' 'Timestamp "sample"' 'Host "smoke"' \
  'ValueMode "formatted"' 'MultiTimerFormula "reskit"' 'Cap100 false' \
  'SelfMetrics false' # "nothing else written" below
# run_fg CONF: collectd in the foreground until the replay's end is logged
# (bounded wait, not an assertion), then TERM; rc = its exit status.
# (-T would race: its shutdown may drop values still queued for writers.)
run_fg() {
  "$COLLECTD" -f -C "$1" >"$tmp/stdout" 2>&1 &
  pid=$!
  i=0
  while [ $i -lt 120 ] && ! grep -q 'end of the capture' "$tmp/collectd.log" \
    2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then break; fi
    sleep 0.5
    i=$((i + 1))
  done
  check "replay end logged" grep -q \
    "winperf: $capture: replay reached the end of the capture" \
    "$tmp/collectd.log"
  check "collectd still running at the end of the replay" kill -0 "$pid"
  kill "$pid" 2>/dev/null
  wait "$pid"
  rc=$?
  pid=
}
run_fg "$tmp/collectd.conf"
check "collectd exits 0 on TERM (got $rc)" test "$rc" -eq 0
check "malformed blob logged with its file, interval skipped" grep -q \
  "winperf: $tmp/capture/3.blob: .*interval skipped" "$tmp/collectd.log"
if ! grep -q 'winperf' "$tmp/collectd.log"; then
  sed 's/^/# /' "$tmp/stdout" "$tmp/collectd.log"
fi
check "no errors but the malformed blob" sh -c \
  "! grep -i 'error' '$tmp/collectd.log' | grep -v '3.blob'"

# Expected values (format.md 1.8, 3.3): times are the samples' PerfTime100nSec
# (2024-01-01T00:00:00Z = 1704067200, +1 s, +3 s; 3.blob skipped).
d="$tmp/csv/smoke"
# csv names its files by the day they are written, not by the value's time.
expect() { # expect DIR/TYPE-INSTANCE LINE...
  f=$(ls -d "$1"-????-??-?? 2>/dev/null | head -1)
  [ -n "$f" ] || f="$1-(missing)"
  shift
  printf 'epoch,value\n' >"$tmp/want"
  for l in "$@"; do printf '%s\n' "$l" >>"$tmp/want"; done
  if cmp -s "$tmp/want" "$f"; then
    ok "csv $(basename "$(dirname "$f")")/$(basename "$f")"
  else
    notok "csv $(basename "$(dirname "$f")")/$(basename "$f")"
    echo "# want:"
    sed 's/^/#   /' "$tmp/want"
    echo "# got:"
    sed 's/^/#   /' "$f" 2>/dev/null || echo "#   (missing)"
    echo "# files:"
    (cd "$tmp/csv" && find . -type f | sed 's/^/#   /')
  fi
}
expect "$d/winperf-System/gauge-Processes" \
  1704067200.000,42.000000 1704067201.000,42.000000 1704067203.000,43.000000
expect "$d/winperf-System/gauge-% Busy Time" \
  1704067201.000,75.000000 1704067203.000,90.000000
expect "$d/winperf-Queue-_Total/gauge-Items" \
  1704067200.000,7.000000 1704067201.000,7.000000 1704067203.000,7.000000
expect "$d/winperf-Queue-a_b/gauge-Items" 1704067203.000,3.000000
check "nothing else written" test \
  "$(find "$tmp/csv" -type f | wc -l)" -eq 4

# --- 2. Timestamp default (now), overrides, raw mode -----------------------
cat >"$tmp/over.yaml" <<'EOF'
- path: \System\Processes
  plugin_instance: sys
  type_instance: procs
  type: count
  scale: 0.5
- path: \System\% Busy Time
  raw: true
- \Queue(nosuch)\Items
- \NoSuchObject\Items
EOF
rm -rf "$tmp/csv" "$tmp/collectd.log"
write_conf "$tmp/t.conf" "$tmp/over.yaml" 'Host "t"' 'ReplayLoop false'
run_fg "$tmp/t.conf"
check "second run exits 0 (got $rc)" test "$rc" -eq 0
f=$(find "$tmp/csv/t/winperf-sys" -name 'count-procs-*' 2>/dev/null | head -1)
check "overrides: winperf-sys/count-procs, 0.5 * (42 42 43)" sh -c \
  "test -n '$f' && test \"\$(cut -d, -f2 '$f' | tr '\n' ' ')\" = \
  'value 21.000000 21.000000 21.500000 '"
f=$(find "$tmp/csv/t/winperf-System" -name 'derive-% Busy Time-*' 2>/dev/null | head -1)
check "raw 100NSEC_TIMER: derive, raw values 5000000 12500000 30500000" \
  sh -c "test -n '$f' && test \"\$(cut -d, -f2 '$f' | tr '\n' ' ')\" = \
  'value 5000000 12500000 30500000 '"
check "an unmatched instance: warned once, with file:line:column" test \
  "$(grep -c "winperf: $tmp/over.yaml:8:3: \\\\Queue(nosuch)\\\\Items matches nothing" \
    "$tmp/collectd.log")" -eq 1
check "an unknown object: warned once, with file:line:column" test \
  "$(grep -c "winperf: $tmp/over.yaml:9:3: \\\\NoSuchObject\\\\Items matches nothing" \
    "$tmp/collectd.log")" -eq 1
check "Timestamp now (default for replay): not the sample's time" sh -c \
  "test -n '$f' && ! grep -q '^17040672' '$f'"

# --- 3. configuration errors ---------------------------------------------
printf -- '- path: \\System\\Processes\n  colour: red\n' >"$tmp/bad.yaml"
rm -f "$tmp/collectd.log"
write_conf "$tmp/bad.conf" "$tmp/bad.yaml"
"$COLLECTD" -T -C "$tmp/bad.conf" >"$tmp/stdout" 2>&1
rc=$?
check "invalid YAML: collectd refuses to start (exit $rc)" test "$rc" -ne 0
check "invalid YAML: file:line:column and the expectation logged" grep -q \
  "winperf: CountersFile $tmp/bad.yaml:2:3: unknown key 'colour' (expected" \
  "$tmp/collectd.log" "$tmp/stdout"

printf -- '- \\System\\Processes\n- path: \\Queue(*)\\Items\n  type: no_such_type\n' \
  >"$tmp/type.yaml"
rm -f "$tmp/collectd.log"
write_conf "$tmp/type.conf" "$tmp/type.yaml"
"$COLLECTD" -T -C "$tmp/type.conf" >"$tmp/stdout" 2>&1
check "unknown type: file:line:column logged at init" grep -q \
  "winperf: $tmp/type.yaml:3:9: unknown type \"no_such_type\"" \
  "$tmp/collectd.log"

rm -f "$tmp/collectd.log"
write_conf "$tmp/opt.conf" "$tmp/counters.yaml" 'ValueMode "cooked"'
"$COLLECTD" -T -C "$tmp/opt.conf" >"$tmp/stdout" 2>&1
rc=$?
check "bad ValueMode: collectd refuses to start (exit $rc)" test "$rc" -ne 0
check "bad ValueMode: says what is expected" grep -q \
  'ValueMode "cooked": expected "formatted" or "raw"' \
  "$tmp/collectd.log" "$tmp/stdout"

# --- 4. PairBy: w3wp#1 exits, Windows renumbers w3wp#2 to w3wp#1 ----------
# tests/cli/mkblobs' renumber pair (values by hand in mkblobs.c): by process
# id (the default) w3wp#1 is pid 30's own 25 %; PairBy "name" (PDH) mixes
# pid 20 and pid 30: 35 %.
capture=$tmp/renumber
mkdir "$capture"
mkdir "$tmp/blobs"
"$top_builddir/tests/cli/mkblobs" "$tmp/blobs"
cp "$tmp/blobs/renumber1.blob" "$capture/1.blob"
cp "$tmp/blobs/renumber2.blob" "$capture/2.blob"
printf -- '- \\230(*)\\6\n' >"$tmp/pair.yaml"
for mode in default id name; do
  rm -rf "$tmp/csv" "$tmp/collectd.log"
  extra='Timestamp "sample"'
  [ "$mode" = default ] || extra="$extra
  PairBy \"$mode\""
  write_conf "$tmp/pair.conf" "$tmp/pair.yaml" 'Host "pair"' \
    'ReplayLoop false' "$extra"
  run_fg "$tmp/pair.conf"
  want=25.000000
  [ "$mode" = name ] && want=35.000000
  d="$tmp/csv/pair"
  expect "$d/winperf-230-w3wp/gauge-6" 1704067201.000,50.000000
  expect "$d/winperf-230-w3wp#1/gauge-6" "1704067201.000,$want"
done
rm -f "$tmp/collectd.log"
write_conf "$tmp/pair.conf" "$tmp/pair.yaml" 'PairBy "pid"'
"$COLLECTD" -T -C "$tmp/pair.conf" >"$tmp/stdout" 2>&1
rc=$?
check "bad PairBy: collectd refuses to start (exit $rc)" test "$rc" -ne 0
check "bad PairBy: says what is expected" grep -q \
  'PairBy "pid": expected "id" or "name"' "$tmp/collectd.log" "$tmp/stdout"
finish
