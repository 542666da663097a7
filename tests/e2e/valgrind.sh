#!/bin/bash
# collectd-winperf under valgrind: real collectd 5.12 with the built plugin,
# replaying a capture whose instances come and go, at Interval 0.05 s.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# Three runs of collectd under memcheck (--leak-check=full
# --errors-for-leak-kinds=definite --error-exitcode=99):
#  A  50 samples of the churn capture, ReplayLoop false;
#  B  200 samples of the same capture (its shape repeats every 10 samples,
#     so sample 49 and sample 199 have the same instances), ReplayLoop false;
#  C  20 samples looping (ReplayLoop true) for at least 200 intervals.
# Each must end without a memcheck error or a definite leak. Steady heap:
# after A's 50th and B's 200th interval the replay has ended and the plugin
# is idle; there memcheck's leak search (asked through vgdb, while collectd
# keeps running) lists every live heap block with the stack that allocated
# it, and the blocks the plugin allocated in its reads must add up to the
# same number of bytes in A and B: 150 more intervals of churn leave
# nothing behind. (What config and init allocated differs by design: the
# replay source lists the capture's 50 or 200 file names at start.) The interval count comes from the csv plugin's lines for
# \Memory\Available Bytes, dispatched once per sample.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

e2e_init valgrind
need collectd valgrind vgdb nm
e2e_plugin_dir logfile csv
GEN=$top_builddir/tests/e2e/e2e_capture
[ -x "$GEN" ] || e2e_bail "capture generator $GEN built"
"$GEN" churn "$E2E_DIR/cap50" 50 &&
  "$GEN" churn "$E2E_DIR/cap200" 200 &&
  "$GEN" churn "$E2E_DIR/cap20" 20 || e2e_bail "generate the captures"

cat >"$E2E_DIR/winperf.yaml" <<'EOF'
- '\Memory\Available Bytes'
- '\Processor(*)\% Processor Time'
- '\Process(*)\% Processor Time'
- '\Process(*)\Working Set'
- '\Process(svchost#2)\ID Process'
- path: '\Process(job-*)\ID Process'
  type_instance: pid
EOF

# Function symbols of the plugin (with the parser and sources linked in):
# a heap block belongs to the plugin when one of them is on its stack.
nm --defined-only "$E2E_PLUGIN_DIR/winperf.so" | awk '$2 ~ /^[tTwWiI]$/ { print $3 }' |
  sort -u >"$E2E_DIR/plugin-symbols"
[ -s "$E2E_DIR/plugin-symbols" ] || e2e_bail "function symbols in winperf.so (nm)"

# write_conf NAME CAPTURE LOOP
write_conf() {
  mkdir -p "$E2E_DIR/$1"
  cat >"$E2E_DIR/$1/collectd.conf" <<EOF
Hostname "vg"
FQDNLookup false
BaseDir "$E2E_DIR/$1"
PIDFile "$E2E_DIR/$1/collectd.pid"
PluginDir "$E2E_PLUGIN_DIR"
TypesDB "/usr/share/collectd/types.db"
Interval 0.05
MaxReadInterval 0.1
WriteThreads 1

LoadPlugin logfile
<Plugin logfile>
  LogLevel "info"
  File "$E2E_DIR/$1/collectd.log"
</Plugin>
LoadPlugin csv
<Plugin csv>
  DataDir "$E2E_DIR/$1/csv"
</Plugin>
LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  Replay "$E2E_DIR/$2"
  ReplayLoop $3
  Timestamp "now"
</Plugin>
EOF
}

# intervals NAME: how many samples have been dispatched so far.
intervals() {
  cat "$E2E_DIR/$1/csv/vg/winperf-Memory/gauge-Available Bytes"-* 2>/dev/null |
    grep -c '^[0-9]'
}
at_least() { [ "$(intervals "$1")" -ge "$2" ]; }

# start NAME: collectd under memcheck, its pid in VG_PID.
start() {
  e2e_spawn "$E2E_DIR/$1/stdout" valgrind --leak-check=full \
    --errors-for-leak-kinds=definite --error-exitcode=99 --num-callers=40 \
    --vgdb=yes --vgdb-prefix="$E2E_DIR/$1/vgdb" --log-file="$E2E_DIR/$1/valgrind.log" \
    /usr/sbin/collectd -f -C "$E2E_DIR/$1/collectd.conf"
  VG_PID=$E2E_LAST_PID
}

# plugin_heap NAME N: bytes in live heap blocks the plugin allocated while
# reading, as "READ ALL" (READ: allocated in a reader thread, i.e. in
# intervals; ALL: also at config and init time, whose size follows the
# configuration and the capture's file list). memcheck's "leak_check full
# reachable any" lists every block, reachable or not, as loss records "N
# bytes in M blocks are ..." (or "N (D direct, I indirect) bytes ...": D
# counted, the indirect blocks have records of their own), each with its
# allocation stack. A block is the plugin's when, going up from the
# allocator, a function of winperf.so comes before any frame of collectd
# itself (so collectd's value cache, filled by plugin_dispatch_values, is
# collectd's); library frames in between (libc, libyaml) count for neither.
plugin_heap() {
  vgdb --vgdb-prefix="$E2E_DIR/$1/vgdb" --pid="$VG_PID" \
    leak_check full reachable any >"$E2E_DIR/$1/leak-$2.txt" 2>&1 || return 1
  awk -v syms="$E2E_DIR/plugin-symbols" '
    BEGIN { while ((getline s < syms) > 0) plugin[s] = 1 }
    function flush() {
      if (inrec && mine == 1) {
        all += bytes
        if (reader) read += bytes
      }
      inrec = 0
    }
    / bytes in [0-9,]+ blocks are / {
      flush()
      line = $0
      sub(/^(==[0-9]+== *)?/, "", line)
      gsub(/,/, "", line)
      if (match(line, /\([0-9]+ direct/)) {
        bytes = substr(line, RSTART + 1, RLENGTH - 8) + 0
      } else {
        split(line, w, " ")
        bytes = w[1] + 0
      }
      inrec = 1; mine = -1; reader = 0
      next
    }
    inrec && /(at|by) 0x[0-9A-Fa-f]+: / {
      fn = $0
      sub(/^.*(at|by) 0x[0-9A-Fa-f]+: /, "", fn)
      sub(/ .*$/, "", fn)
      if (mine == -1 && (fn in plugin)) mine = 1
      else if (mine == -1 && $0 ~ /\(in \/usr\/sbin\/collectd\)/) mine = 0
      if (fn == "start_thread") reader = 1
      next
    }
    END { flush(); print read + 0, all + 0 }
  ' "$E2E_DIR/$1/leak-$2.txt"
}

# steady_heap NAME: plugin_heap once the replay has ended (the smallest of
# three looks, 0.3 s apart, so a read in flight cannot inflate it).
steady_heap() {
  _best=""
  for _n in 1 2 3; do
    sleep 0.3
    _h=$(plugin_heap "$1" "$_n") || continue
    if [ -z "$_best" ] || [ "${_h% *}" -lt "${_best% *}" ]; then _best=$_h; fi
  done
  echo "${_best:-none none}"
}

# finish NAME WHAT: TERM collectd, then memcheck's verdict.
finish() {
  e2e_stop "$VG_PID" 60
  e2e_is "$E2E_STATUS" 0 "$2: collectd under valgrind exits 0 (99 = memcheck error or definite leak)"
  _log=$E2E_DIR/$1/valgrind.log
  grep -q 'ERROR SUMMARY: 0 errors' "$_log"
  e2e_ok $? "$2: memcheck reports 0 errors"
  grep -q 'definitely lost: [1-9]' "$_log"
  [ $? -ne 0 ]
  e2e_ok $? "$2: no definite leak"
  if [ "$E2E_STATUS" -ne 0 ] || [ "$E2E_FAILED" -ne 0 ]; then
    grep -A30 -E 'definitely lost in|Invalid|uninitialised|Mismatched' "$_log" | head -80 | e2e_diag
    grep -E 'winperf|error' "$E2E_DIR/$1/collectd.log" | tail -20 | e2e_diag
  fi
}

# run NAME CAPTURE LOOP INTERVALS WHAT
run() {
  write_conf "$1" "$2" "$3"
  start "$1"
  e2e_wait_for 120 at_least "$1" "$4"
  e2e_ok $? "$5: $4 intervals dispatched (got $(intervals "$1"))"
}

run A cap50 false 50 "A (50 samples)"
HEAP_A=$(steady_heap A)
e2e_is "$(intervals A)" 50 "A: the replay ended after exactly 50 intervals"
finish A "A"

run B cap200 false 200 "B (200 samples)"
HEAP_B=$(steady_heap B)
e2e_is "$(intervals B)" 200 "B: the replay ended after exactly 200 intervals"
finish B "B"

echo "# plugin heap allocated in reads / in all (config and init too):"
echo "#   after interval 50: ${HEAP_A% *} / ${HEAP_A#* } bytes;" \
  "after interval 200: ${HEAP_B% *} / ${HEAP_B#* } bytes"
[ "${HEAP_A% *}" != none ] && [ "${HEAP_A% *}" -gt 0 ]
e2e_ok $? "the plugin's heap was measured (${HEAP_A% *} bytes allocated in reads, after interval 50)"
e2e_is "${HEAP_B% *}" "${HEAP_A% *}" \
  "the plugin's heap allocated in reads: the same after interval 200 as after 50"

run C cap20 true 220 "C (20 samples, looping)"
finish C "C"

e2e_done
