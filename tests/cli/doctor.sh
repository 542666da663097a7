#!/bin/sh
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# winperf doctor offline (--names FILE BLOB): one line per path, the
# verdict and the fix, or JSON; exit 0 when every path resolves, 1 when one
# does not, 2 for usage errors. Expected lines are written by hand from the
# sample pair (conf/sample/README: 2 System single-instance with 6
# Processes and 8 % Busy Time; 10 Queue with "_Total" and 12 Items) and
# from mkblobs' rich1.blob with a table generated here (230 Process,
# 232 Thread, 238 Processor, 240 Meta: definitions only, 242 Single,
# 4 Memory: in no blob). Distances: Sytem/System 1, Itemz/Items 1.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/cli/lib.sh"
precheck
MKBLOBS=$top_builddir/tests/cli/mkblobs
"$MKBLOBS" "$TMP"
ok $? "mkblobs wrote the fixtures"
RICH=$TMP/rich1.blob
T='	'

# table FILE LAST: the rich blobs' names, "1" = LAST
table() {
  "$PY" - "$1" "$2" <<'PYEOF'
import sys
pairs = ["1", sys.argv[2], "4", "Memory", "6", "% Processor Time", "12",
         "Context Switches/sec", "20", "% Busy", "22", "Busy Base", "24",
         "Rawcount", "26", "Odd", "230", "Process", "232", "Thread", "238",
         "Processor", "240", "Meta", "242", "Single", "784", "ID Process"]
open(sys.argv[1], "wb").write(("\0".join(pairs) + "\0\0").encode("utf-16-le"))
PYEOF
}
table "$TMP/rich.multisz" 1000
table "$TMP/real.multisz" 1847
ok $? "generated the tables"

run doctor --names "$NAMES" "$S1" '\System\Processes' '\Sytem\Processes' \
  '\Queue(*)\Itemz' '\Queue(nothing)\Items' '\4\6'
check_is "sample: exit 1 (paths do not resolve)" "$rc" 1
check_is "sample: one line per path" "$(cat "$TMP/out")" "\
\\System\\Processes${T}ok${T}1 counter matches
\\Sytem\\Processes${T}unknown-name${T}object \"Sytem\" is not in the name table: a typo, or its provider is not registered (lodctr /Q lists them, lodctr /R rebuilds the table); did you mean: System?
\\Queue(*)\\Itemz${T}unknown-name${T}counter \"Itemz\" is not in the name table: a typo, or its provider is not registered (lodctr /R rebuilds the table); did you mean: Items?
\\Queue(nothing)\\Items${T}no-instances${T}no instance of \"Queue\" is \"nothing\" now (it has 1): values start when one appears
\\4\\6${T}unknown-name${T}object index 4 is neither in the name table nor in the answer: check the number, or register the provider (lodctr /Q lists them, lodctr /R rebuilds the table)"

run doctor --names "$NAMES" "$S1" '\System\*' '\Queue(nothing)\Items'
check_is "ok and no-instances: exit 0" "$rc" 0
check_is "... the lines" "$(cat "$TMP/out")" "\
\\System\\*${T}ok${T}2 counters match
\\Queue(nothing)\\Items${T}no-instances${T}no instance of \"Queue\" is \"nothing\" now (it has 1): values start when one appears"

run doctor --names "$TMP/rich.multisz" "$RICH" '\Memory\Available Bytes' \
  '\Meta(*)\Rawcount' '\Processor(_Total)\% Busy'
check_is "rich: exit 1" "$rc" 1
check_is "rich: object-absent, no-instances, ok" "$(cat "$TMP/out")" "\
\\Memory\\Available Bytes${T}object-absent${T}\"Memory\" (index 4) is in the name table but not in the answer: its provider is disabled (Disable Performance Counters; lodctr /E:NAME enables it) or failed to load (see the Application event log)
\\Meta(*)\\Rawcount${T}no-instances${T}\"Meta\" has no instances now: nothing to report yet (not an error)
\\Processor(_Total)\\% Busy${T}ok${T}1 counter matches"

# A real table's leading pair ("1", "1847" on Vista and Server tables whose
# indices reach 4658 and 21096) is no Last Counter (format.md 4.1): a typo
# is only a typo.
run doctor --names "$TMP/real.multisz" "$RICH" '\Procesor(*)\% Busy'
check_is "a \"1\", \"1847\" table: the typo alone, exit 1" "$rc: $(cat "$TMP/out")" "\
1: \\Procesor(*)\\% Busy${T}unknown-name${T}object \"Procesor\" is not in the name table: a typo, or its provider is not registered (lodctr /Q lists them, lodctr /R rebuilds the table); did you mean: Processor, Process?"

# Perflib's Last Counter, when given, is checked: 200 below index 784.
run doctor --names "$TMP/real.multisz" --last-counter 200 "$RICH" '\Procesor(*)\% Busy'
check_is "--last-counter 200 below the indices: names-table-corrupt, the typo first" "$(cat "$TMP/out")" "\
\\Procesor(*)\\% Busy${T}names-table-corrupt${T}object \"Procesor\" is not in the name table: a typo, or its provider is not registered (lodctr /Q lists them, lodctr /R rebuilds the table); did you mean: Processor, Process? Also, the name table is inconsistent: Perflib's Last Counter 200 is below index 784 in use; rebuild it with lodctr /R (then winmgmt /resyncperf)"
run doctor --names "$TMP/real.multisz" --last-counter 784 "$RICH" '\Procesor(*)\% Busy'
check_is "--last-counter 784 (the highest index): unknown-name" "$(cut -f2 "$TMP/out")" unknown-name
run doctor --names "$TMP/real.multisz" --last-counter 0 "$RICH" '\Processor(*)\% Busy'
check_error "--last-counter 0"
run doctor --names "$TMP/real.multisz" --last-counter 4294967296 "$RICH" '\Processor(*)\% Busy'
check_error "--last-counter 4294967296"

# Processor 1 and Process 2 edits away, Thread 6: two suggestions.
run doctor --json --names "$TMP/rich.multisz" "$RICH" '\Procesor(*)\% Busy'
check_json "--json: path, verdict, fix, suggestions" \
  'j == [{"path": "\\Procesor(*)\\% Busy", "verdict": "unknown-name", "fix": "object \"Procesor\" is not in the name table: a typo, or its provider is not registered (lodctr /Q lists them, lodctr /R rebuilds the table); did you mean: Processor, Process?", "suggestions": ["Processor", "Process"]}]'
check_is "--json: exit 1" "$rc" 1

# A counters file: the plugin's YAML (or, without the loader, a list).
printf '# the plugin counters file\n- \\System\\Processes\n- \\Queue(*)\\Items\n' \
  >"$TMP/counters.yaml"
run doctor --names "$NAMES" "$S1" --counters "$TMP/counters.yaml"
check_is "--counters FILE: exit 0" "$rc" 0
check_is "--counters FILE: its paths in order" "$(cat "$TMP/out")" "\
\\System\\Processes${T}ok${T}1 counter matches
\\Queue(*)\\Items${T}ok${T}1 counter matches"

run doctor --names "$NAMES" '\System\Processes'
check_error "no blob"
run doctor "$S1" '\System\Processes'
check_error "no table"
run doctor --names "$NAMES" "$S1"
check_error "no path"
run doctor --names "$NAMES" "$S1" '\System'
check_error "a path that does not parse"
run doctor --names "$NAMES" "$S1" "$S2" '\System\Processes'
check_error "two blobs"

done_testing
