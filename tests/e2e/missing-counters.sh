#!/bin/bash
# collectd-winperf end to end: why a counter path matches nothing, told
# apart in the plugin's first line about it (pd_diagnose, src/perfdata/
# diagnose.h), in real collectd 5.12's log.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# The capture is tests/e2e/e2e_capture.c's "self" (System, Memory, Process
# with 3 instances, Print Queue with none; the names table also names
# Paging File, absent from every blob), replayed 6 intervals. Expected,
# once each in the whole run:
#   \Memroy\...              warning, unknown-name, "did you mean: Memory?"
#   \Process(*)\Working Sett warning, unknown-name, "did you mean: Working
#                            Set?"
#   \Paging File(*)\% Usage  warning, object-absent, with lodctr /E:
#   \Print Queue(*)\Jobs     info (not a warning), no-instances
# In a second replay of the same blobs, whose table starts as real ones do
# ("1", "1847": a historical constant, not Last Counter, format.md 4.1)
# and names indices up to 1452, the same lines, nothing about the table;
# in a third, whose capture also says Perflib's Last Counter was 1000
# (the `last-counter` file `winperf capture` writes), the lines of those 3
# paths say names-table-corrupt, the path's own problem first (Print
# Queue's stays no-instances).
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

e2e_init missing
need collectd
e2e_plugin_dir logfile
GEN=$top_builddir/tests/e2e/e2e_capture
[ -x "$GEN" ] || e2e_bail "capture generator $GEN built"
"$GEN" self "$E2E_DIR/capture" || e2e_bail "generate the capture"
mkdir -p "$E2E_DIR/real" "$E2E_DIR/corrupt"
cp "$E2E_DIR"/capture/*.blob "$E2E_DIR/real/"
cp "$E2E_DIR"/capture/*.blob "$E2E_DIR/corrupt/"
# The same pairs after a real table's "1", "1847": UTF-16LE REG_MULTI_SZ
# (format.md 4.1).
{
  printf '%s\n' 1 1847 2 System 4 Memory 40 Pages/sec 180 'Working Set' \
    230 Process 248 Processes 700 'Paging File' 702 '% Usage' \
    784 'ID Process' 1380 'Available Bytes' 1450 'Print Queue' 1452 Jobs
  printf '\n'
} | tr '\n' '\0' | iconv -f ASCII -t UTF-16LE >"$E2E_DIR/real/names.multisz" ||
  e2e_bail "write the real-shaped names table"
cp "$E2E_DIR/real/names.multisz" "$E2E_DIR/corrupt/"
echo 1000 >"$E2E_DIR/corrupt/last-counter"

cat >"$E2E_DIR/winperf.yaml" <<'EOF'
- '\Memory\Available Bytes'
- '\Print Queue(*)\Jobs'
- '\Memroy\Available Bytes'
- '\Paging File(*)\% Usage'
- '\Process(*)\Working Sett'
EOF
cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_globals missing-collectd 0.25)

LoadPlugin logfile
<Plugin logfile>
  LogLevel "info"
  File "$E2E_DIR/collectd.log"
  Timestamp false
  PrintSeverity true
</Plugin>

LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  Replay "$E2E_DIR/capture"
  ReplayLoop false
  SelfMetrics false
</Plugin>
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  Replay "$E2E_DIR/real"
  ReplayLoop false
  SelfMetrics false
</Plugin>
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  Replay "$E2E_DIR/corrupt"
  ReplayLoop false
  SelfMetrics false
</Plugin>
EOF

e2e_spawn "$E2E_DIR/collectd.stdout" /usr/sbin/collectd -f -C "$E2E_DIR/collectd.conf"
COLLECTD_PID=$E2E_LAST_PID
LOG=$E2E_DIR/collectd.log
ended() { [ "$(grep -c 'replay reached the end' "$LOG")" -eq 3 ]; }
e2e_wait_for 60 ended
e2e_ok $? "the three replays reached their end (6 intervals each)"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
grep 'matches nothing' "$LOG" | e2e_diag

F=$E2E_DIR/winperf.yaml
# lines SEVERITY TEXT: how many lines of that severity contain TEXT.
lines() { grep -F -- "[$1] winperf: $2" "$LOG" | grep -c .; }

e2e_is "$(lines warning "$F:3:3: \\Memroy\\Available Bytes matches nothing in this sample (tried again each interval): unknown-name: object \"Memroy\" is not in the name table: a typo, or its provider is not registered (lodctr /Q lists them, lodctr /R rebuilds the table); did you mean: Memory?")" 2 \
  "typo in the object: one warning per replay without Last Counter, unknown-name, the closest name Memory"
e2e_is "$(lines warning "$F:5:3: \\Process(*)\\Working Sett matches nothing in this sample (tried again each interval): unknown-name: counter \"Working Sett\" is not in the name table: a typo, or its provider is not registered (lodctr /R rebuilds the table); did you mean: Working Set?")" 2 \
  "typo in the counter: one warning per replay without Last Counter, unknown-name, the closest name Working Set"
e2e_is "$(lines warning "$F:4:3: \\Paging File(*)\\% Usage matches nothing in this sample (tried again each interval): object-absent: \"Paging File\" (index 700) is in the name table but not in the answer: its provider is disabled (Disable Performance Counters; lodctr /E:NAME enables it) or failed to load (see the Application event log)")" 2 \
  "an absent object: one warning per replay without Last Counter, object-absent, the fix"
e2e_is "$(lines info "$F:2:3: \\Print Queue(*)\\Jobs matches nothing yet: no-instances: \"Print Queue\" has no instances now: nothing to report yet (not an error)")" 3 \
  "an object without instances: one info line per replay, no-instances"
e2e_is "$(grep -c 'warning.*Print Queue' "$LOG")" 0 \
  "an object without instances is no warning"
e2e_is "$(lines warning "$F:3:3: \\Memroy\\Available Bytes matches nothing in this sample (tried again each interval): names-table-corrupt: object \"Memroy\" is not in the name table: a typo, or its provider is not registered (lodctr /Q lists them, lodctr /R rebuilds the table); did you mean: Memory? Also, the name table is inconsistent: Perflib's Last Counter 1000 is below index 1452 in use; rebuild it with lodctr /R")" 1 \
  "the typo, where the capture's Last Counter 1000 is below index 1452: names-table-corrupt, the typo first"
e2e_is "$(grep -c '^\[warning\] winperf: .* names-table-corrupt: ' "$LOG")" 3 \
  "only with that capture, the two typos and the absent object are names-table-corrupt"
e2e_is "$(grep -c 'matches nothing' "$LOG")" 12 \
  "12 lines about paths matching nothing in 18 intervals: each path once per replay"
e2e_is "$(grep -c 'Available Bytes matches\|Available Bytes now matches' "$LOG")" 3 \
  "the good path is never reported (only the typo, once per replay)"
e2e_done
