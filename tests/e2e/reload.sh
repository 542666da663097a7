#!/bin/bash
# collectd-winperf end to end: the CountersFile changed under a running
# collectd 5.12 (issue 14, live reload): an entry added, one removed, one
# whose keys change, the file broken, then fixed with one more entry; real
# carbon-cache (write_graphite) must hold exactly the values computed by
# hand from tests/e2e/reload_capture.c, slot by slot.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# Exact per-interval assertions, as in graphite-influx.sh: sample k is
# stamped T0 + k (Timestamp "sample"), carbon keeps 1 s slots, so slot k
# holds interval k's value or nothing.
#
# Changing the file "between intervals k - 1 and k", exactly: blobs 3 and
# later are named pipes, so the replay's read of blob k - 1 waits for the
# test. The test opens pipe k - 1 (which returns once collectd's interval
# k - 1 is reading it: past its start, where the file is looked at), puts
# the new CountersFile in place (written aside, renamed), then writes the
# blob. Interval k is the first to see the new file. Blobs 0-2 are plain
# files when collectd lists the capture (the replay lists regular files
# only); the test turns 3-11 into pipes right after collectd's
# "Initialization complete", three intervals (3 s) before interval 3.
#
# Timeline (list in use per interval):
#   0-3   A: Pages/sec, Processes, Available Bytes (type_instance avail),
#            Threads
#   4-6   B: Context Switches/sec (added), Pages/sec, Available Bytes
#            (type_instance free: another entry), Threads; Processes gone
#   7-8   B still: the file is broken (an unknown key on line 4)
#   9-11  D: B + System Calls/sec (added), the file fixed
# An added entry has no value in the interval it appears (its first
# sample), even though the previous blob holds its object (every blob
# holds every object); the unchanged ones have one in every interval.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

K=12
e2e_init reload
need collectd
e2e_plugin_dir logfile write_graphite
GEN=$top_builddir/tests/e2e/reload_capture
[ -x "$GEN" ] || e2e_bail "capture generator $GEN built"

T0=$(($(date +%s) - 60))
CAP=$E2E_DIR/capture
"$GEN" "$CAP" "$T0" || e2e_bail "generate the capture"
mkdir -p "$E2E_DIR/blobs"
cp "$CAP"/*.blob "$E2E_DIR/blobs/"
e2e_start_carbon

YAML=$E2E_DIR/winperf.yaml
# put_list NAME: the list NAME (below) in place, written aside and renamed
# (what an editor or a configuration tool does; never a half-written file).
put_list() {
  cp "$E2E_DIR/list-$1.yaml" "$YAML.new" && mv "$YAML.new" "$YAML"
}
cat >"$E2E_DIR/list-A.yaml" <<'EOF'
- '\Memory\Pages/sec'
- '\System\Processes'
- path: '\Memory\Available Bytes'
  type_instance: avail
- '\System\Threads'
EOF
cat >"$E2E_DIR/list-B.yaml" <<'EOF'
- '\System\Context Switches/sec'
- '\Memory\Pages/sec'
- path: '\Memory\Available Bytes'
  type_instance: free
- '\System\Threads'
EOF
cat >"$E2E_DIR/list-C.yaml" <<'EOF'
- '\Memory\Pages/sec'
- '\System\Threads'
- path: '\System\System Calls/sec'
  no_such_key: 1
EOF
cat >"$E2E_DIR/list-D.yaml" <<'EOF'
- '\System\Context Switches/sec'
- '\Memory\Pages/sec'
- path: '\Memory\Available Bytes'
  type_instance: free
- '\System\Threads'
- '\System\System Calls/sec'
EOF
put_list A

cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_globals reload-collectd 1)

$(e2e_conf_logfile_graphite)

LoadPlugin winperf
<Plugin winperf>
  CountersFile "$YAML"
  Replay "$CAP"
  ReplayLoop false
  Timestamp "sample"
  Host "rl"
  SelfMetrics false # the test asserts the exact set of series
</Plugin>
EOF

LOG=$E2E_DIR/collectd.log
log_has() { grep -q -- "$1" "$LOG"; }
e2e_spawn "$E2E_DIR/collectd.stdout" /usr/sbin/collectd -f -C "$E2E_DIR/collectd.conf"
COLLECTD_PID=$E2E_LAST_PID
e2e_wait_for 30 log_has 'Initialization complete' ||
  e2e_bail "collectd starts (Initialization complete in its log)"
for k in $(seq 3 $((K - 1))); do
  b=$(printf '%04d.blob' "$k")
  mkfifo "$E2E_DIR/pipe" && mv "$E2E_DIR/pipe" "$CAP/$b" ||
    e2e_bail "blob $b made a named pipe"
done

# feed K [LIST]: blob K into its pipe; LIST put in place once interval K
# reads it. The timeout only keeps a broken run from hanging.
feed() {
  timeout 30 bash -c '
    exec 3>"$1/capture/$2" || exit 1
    if [ -n "$3" ]; then
      cp "$1/list-$3.yaml" "$1/winperf.yaml.new" &&
        mv "$1/winperf.yaml.new" "$1/winperf.yaml" || exit 1
    fi
    cat "$1/blobs/$2" >&3' feed "$E2E_DIR" "$(printf '%04d.blob' "$1")" "${2:-}"
}
fed=0
for k in $(seq 3 $((K - 1))); do
  case $k in
  3) list=B ;; # interval 4 on: B
  6) list=C ;; # interval 7 on: broken
  8) list=D ;; # interval 9 on: D
  *) list= ;;
  esac
  feed "$k" "$list" || break
  fed=$((fed + 1))
done
e2e_is "$fed" $((K - 3)) \
  "collectd read blobs 3-11 from their pipes (not before the test made them pipes)"

W=$CARBON_DIR/whisper/rl/winperf-System
last_in_whisper() {
  e2e_whisper_series "$W/gauge-System_Calls_sec.wsp" "$T0" "$K" | grep -q ' 147$'
}
e2e_wait_for 60 last_in_whisper
e2e_ok $? "the last interval reached carbon"
e2e_wait_for 20 log_has 'replay reached the end'
e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd running after the whole capture (broken file included)"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
e2e_stop "$CARBON_PID" 10
e2e_whisper_fetch_all "$CARBON_DIR/whisper" "$((T0 - 1))" "$((T0 + K - 1))"

grep 'winperf' "$LOG" | grep -v 'matches nothing' | e2e_diag

got_files=$(cd "$CARBON_DIR/whisper" && find . -name '*.wsp' | sort | tr '\n' ' ')
want_files=$(
  sort <<'EOF' | tr '\n' ' '
./rl/winperf-Memory/gauge-Pages_sec.wsp
./rl/winperf-Memory/gauge-avail.wsp
./rl/winperf-Memory/gauge-free.wsp
./rl/winperf-System/gauge-Context_Switches_sec.wsp
./rl/winperf-System/gauge-Processes.wsp
./rl/winperf-System/gauge-System_Calls_sec.wsp
./rl/winperf-System/gauge-Threads.wsp
EOF
)
e2e_is "$got_files" "$want_files" "carbon: exactly the metrics of lists A, B and D (none of C)"

# check WHAT FILE EXPECTED: slots 0-11 of rl/winperf-FILE.wsp.
check() {
  e2e_is "$(e2e_whisper_series "$CARBON_DIR/whisper/rl/winperf-$2.wsp" "$T0" "$K")" \
    "$3" "carbon: $1"
}
# Slot:  0 1 2 3 | 4 5 6 | 7 8 | 9 10 11
check "unchanged Pages/sec (10 k per s): a value every interval, no gap, no spike" \
  Memory/gauge-Pages_sec '- 10 20 30 40 50 60 70 80 90 100 110'
check "unchanged Threads (500 + 2 k): every interval" \
  System/gauge-Threads '500 502 504 506 508 510 512 514 516 518 520 522'
check "removed Processes (40 + k): 0-3, nothing from 4 on" \
  System/gauge-Processes '40 41 42 43 - - - - - - - -'
check "Available Bytes as 'avail' (its keys changed at 4): 0-3" \
  Memory/gauge-avail '1000000000 1000001000 1000002000 1000003000 - - - - - - - -'
check "Available Bytes as 'free' (an added entry, one-sample type): none at 4, from 5" \
  Memory/gauge-free '- - - - - 1000005000 1000006000 1000007000 1000008000 1000009000 1000010000 1000011000'
check "added Context Switches/sec (10 (2k - 1) per s): none at 4 though blob 3 holds it, from 5" \
  System/gauge-Context_Switches_sec '- - - - - 90 110 130 150 170 190 210'
check "System Calls/sec, added by the fixed file at 9 (7 (2k - 1) per s): from 10" \
  System/gauge-System_Calls_sec '- - - - - - - - - - 133 147'

# The log: two reloads, the broken file once with FILE:LINE:COLUMN.
e2e_is "$(grep -c 'winperf: CountersFile .* reloaded' "$LOG")" 2 "log: two reloads"
grep -q "winperf: CountersFile $YAML reloaded: 4 entries (2 unchanged, 2 added, 2 removed)" "$LOG"
e2e_ok $? "log: A -> B: 4 entries, 2 unchanged, 2 added, 2 removed"
grep -q "winperf: CountersFile $YAML reloaded: 5 entries (4 unchanged, 1 added, 0 removed)" "$LOG"
e2e_ok $? "log: (broken) -> D: 5 entries, 4 unchanged, 1 added, 0 removed"
e2e_is "$(grep -c "winperf: CountersFile $YAML:4:3: " "$LOG")" 1 \
  "log: the broken file, once, at $YAML:4:3 (the unknown key)"
grep "$YAML:4:3: " "$LOG" | e2e_diag
e2e_is "$(grep -c 'changed but does not load: the 4 entries in use stay' "$LOG")" 1 \
  "log: once, that the 4 entries in use stay"
e2e_done
