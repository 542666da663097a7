#!/bin/bash
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# winperf query --instance-names pdh|pid and --metric-names pdh|clean: the
# names printed in text and JSON. Fixtures: tests/cli/mkblobs.c's ids.blob
# (one sample; RAWCOUNT values, so one sample gives them) and the renumber
# pair; a names table written below. Expected names by hand from the rules
# in doc/collectd-winperf.5 ("Instance names", "Metric names"):
#   pid:   an instance paired by id is BASENAME:PID, a thread (its
#          process's name) BASENAME:PID:TID; pid 0, tid 0 and _Total keep
#          their PDH name; by-name pairing keeps every PDH name
#   clean: lower case, % -> pct_, a trailing /sec -> _per_sec, [a-z0-9_]
#          only, one '_' in a row, none at the ends but a leading one kept
. "${top_srcdir:-$(dirname "$0")/../..}/tests/cli/lib.sh"
precheck
need python3

MKBLOBS=$top_builddir/tests/cli/mkblobs
"$MKBLOBS" "$TMP"
ok $? "mkblobs wrote the fixtures"
IDS=$TMP/ids.blob
write_names "$TMP/names.multisz" 1 1847 230 Process 232 Thread \
  6 "% använda dedikerade byte" 12 "Context Switches/sec" 784 "ID Process" \
  804 "ID Thread"
ok $? "names table written (a Swedish counter name, UTF-16)"

lines() { printf '%s\n' "$@"; }

run query "$IDS" '\230(*)\6' '\232(*)\12'
check_is "default: PDH names" "$(cat "$TMP/out")" "$(lines \
  '\230(Idle)\6	1' '\230(svchost)\6	2' '\230(svchost#1)\6	3' \
  '\230(_Total)\6	6' '\232(svchost/0)\12	10' '\232(svchost/0#1)\12	20' \
  '\232(Idle/0)\12	30')"

run query --instance-names pid "$IDS" '\230(*)\6' '\232(*)\12'
check_is "--instance-names pid: exit 0" "$rc" 0
check_is "--instance-names pid: svchost:812, svchost:1024, threads svchost:PID:TID; Idle, _Total, Idle/0 (id 0) as PDH names them" \
  "$(cat "$TMP/out")" "$(lines \
  '\230(Idle)\6	1' '\230(svchost:812)\6	2' '\230(svchost:1024)\6	3' \
  '\230(_Total)\6	6' '\232(svchost:812:4100)\12	10' \
  '\232(svchost:1024:5200)\12	20' '\232(Idle/0)\12	30')"

run query --instance-names pid "$IDS" '\230(svchost#1)\6'
check_is "--instance-names pid: the path still selects by PDH name and #n" \
  "$(cat "$TMP/out")" '\230(svchost:1024)\6	3'
run query --instance-names pid "$IDS" '\230(svchost:1024)\6'
check_is "--instance-names pid: the pid name selects nothing (exit 1)" "$rc" 1

run query --metric-names clean --names "$TMP/names.multisz" "$IDS" \
  '\Process(*)\% använda dedikerade byte' '\Thread(*)\Context Switches/sec'
check_is "--metric-names clean: exit 0" "$rc" 0
check_is "--metric-names clean: object, instance, counter each cleaned" \
  "$(cat "$TMP/out")" "$(lines \
  '\process(idle)\pct_anvanda_dedikerade_byte	1' \
  '\process(svchost)\pct_anvanda_dedikerade_byte	2' \
  '\process(svchost_1)\pct_anvanda_dedikerade_byte	3' \
  '\process(_total)\pct_anvanda_dedikerade_byte	6' \
  '\thread(svchost_0)\context_switches_per_sec	10' \
  '\thread(svchost_0_1)\context_switches_per_sec	20' \
  '\thread(idle_0)\context_switches_per_sec	30')"

run query --metric-names CLEAN --instance-names PID --names "$TMP/names.multisz" \
  "$IDS" '\Process(svchost#1)\% använda dedikerade byte' '\Thread(*)\Context Switches/sec'
check_is "both (any case): the pid name, then cleaned" "$(cat "$TMP/out")" "$(lines \
  '\process(svchost_1024)\pct_anvanda_dedikerade_byte	3' \
  '\thread(svchost_812_4100)\context_switches_per_sec	10' \
  '\thread(svchost_1024_5200)\context_switches_per_sec	20' \
  '\thread(idle_0)\context_switches_per_sec	30')"

run query --json --instance-names pid --metric-names clean --names "$TMP/names.multisz" \
  "$IDS" '\Process(svchost)\% använda dedikerade byte' '\Process(_Total)\% använda dedikerade byte'
check_json "--json: path, object, instance, counter under both; pid and tid as numbers or null" \
  '[(r["path"], r["object"], r["instance"], r["counter"], r["pid"], r["tid"], r["value"]) for r in j] == [("\\process(svchost_812)\\pct_anvanda_dedikerade_byte", "process", "svchost_812", "pct_anvanda_dedikerade_byte", 812, None, 2), ("\\process(_total)\\pct_anvanda_dedikerade_byte", "process", "_total", "pct_anvanda_dedikerade_byte", 0, None, 6)]'
run query --json --instance-names pid "$IDS" '\232(svchost/0#1)\12'
check_json "--json --instance-names pid: a thread's instance is svchost:1024:5200" \
  '[(r["path"], r["instance"], r["pid"], r["tid"]) for r in j] == [("\\232(svchost:1024:5200)\\12", "svchost:1024:5200", 1024, 5200)]'

# The renumber pair: w3wp#1 (pid 20) exits, w3wp#2 (pid 30) becomes w3wp#1.
R1=$TMP/renumber1.blob
R2=$TMP/renumber2.blob
run query --instance-names pid "$R1" "$R2" '\230(*)\6'
check_is "renumbered, --instance-names pid: w3wp:10 50, w3wp:30 25 (its own rate under its own name)" \
  "$(cat "$TMP/out")" "$(lines '\230(w3wp:10)\6	50' '\230(w3wp:30)\6	25')"
run query --instance-names pid --pair-by name "$R1" "$R2" '\230(*)\6'
check_is "--pair-by name: nothing pairs by id, PDH names (and PDH's 35)" \
  "$(cat "$TMP/out")" "$(lines '\230(w3wp)\6	50' '\230(w3wp#1)\6	35')"

run query --metric-names foo "$IDS" '\230(*)\6'
check_error "--metric-names foo"
check_err_has "--metric-names foo: says what is expected" "--metric-names: 'foo' is not 'pdh' or 'clean'"
run query --instance-names clean "$IDS" '\230(*)\6'
check_error "--instance-names clean"
check_err_has "--instance-names clean: says what is expected" "--instance-names: 'clean' is not 'pdh' or 'pid'"

done_testing
