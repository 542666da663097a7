#!/bin/sh
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# winperf blg on the real logs and the hand-built fixture of tests/data/blg:
# --list, relog's CSV (header, local times, blanks, values against what
# Windows showed from the same log: tests/blg/test_blg.c's sources), --json
# (the 15 keys per result), --counter, --begin/--end, the errors, the
# fixture's generator reproducing the committed fixture.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/cli/lib.sh"
need python3
D=$top_srcdir/tests/data/blg
TX=$D/tx-BasicPerfCounters.blg
PAL=$D/pal-SampleLog.blg
FX=$D/fixture-both-kinds.blg
CR=$(printf '\r')

run blg --list "$TX"
check_is "list: exit 0" "$rc" 0
check_is "list: the sample count" "$(grep '^samples' "$TMP/out")" "samples	601"
check_is "list: the time range (local, as logged)" \
  "$(grep -E '^(first|last)' "$TMP/out" | tr '\n' ' ')" \
  "first	2013-02-19 18:50:17.844 last	2013-02-19 19:00:17.840 "
check_is "list: the machine" "$(grep '^machine' "$TMP/out")" "machine	GEORGIS3"
check_is "list: the counters (6 catalog entries)" \
  "$(grep -c '^counter' "$TMP/out")" 6
grep -qF 'counter	\\GEORGIS3\Processor(*)\% Processor Time	PERF_100NSEC_TIMER_INV' "$TMP/out"
ok $? "list: a wildcard entry with its type"

run blg --csv "$TX"
check_is "csv: exit 0" "$rc" 0
head -1 "$TMP/out" | grep -qF '"(PDH-CSV 4.0) (@tzres.dll,-212)(480)","\\GEORGIS3\PhysicalDisk(0 C:)\Avg. Disk Bytes/Read","\\GEORGIS3\PhysicalDisk(0 C:)\Avg. Disk Bytes/Write",'
ok $? "csv: header, relog's PDH-CSV form (zone as logged: indirect)"
head -1 "$TMP/out" | grep -qF ',"\\GEORGIS3\Processor(_Total)\% Processor Time"'"$CR"
ok $? "csv: the wildcard's instances as columns, _Total last as logged"
check_is "csv: a row per sample after the header" "$(wc -l <"$TMP/out" | tr -d ' ')" 602
check_is "csv: every line ends in CRLF" "$(grep -c "$CR\$" "$TMP/out")" 602
check_is "csv: the first row: the local time, blanks for the rates" \
  "$(sed -n 2p "$TMP/out" | cut -d, -f1-3)" '"02/19/2013 18:50:17.844"," "," "'
# LINQPad over PDH from the same file: 9.37826238255423, 5.86541344045712
"$PY" - "$TMP/out" >"$TMP/py" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
i = rows[0].index("\\\\GEORGIS3\\Processor(_Total)\\% Processor Time")
want = [9.37826238255423, 5.86541344045712, 8.20410303650782, 3.1283808195094]
got = [float(rows[k][i]) for k in (2, 3, 4, 5)]
print(all(abs(g - w) <= 1e-9 * w for g, w in zip(got, want)))
vals = [float(r[i]) for r in rows[1:] if r[i] != " "]
print(len(vals), "%.3f %.3f %.3f %.3f" % (vals[-1], sum(vals) / len(vals),
                                          min(vals), max(vals)))
EOF
check_is "csv: _Total equals what PDH gave LINQPad (1e-9 relative)" \
  "$(sed -n 1p "$TMP/py")" True
check_is "csv: 600 values; Perfmon's Last, Average, Minimum, Maximum" \
  "$(sed -n 2p "$TMP/py")" "600 32.816 11.527 1.569 53.908"

run blg --csv --counter '\Processor(_Total)\% Processor Time' \
  --begin '2013-02-19 18:51:00' --end '02/19/2013 18:52:00' "$TX"
check_is "csv --counter --begin --end: one column, the minute's 60 rows" \
  "$(awk -F, 'NR == 2 {print NF} END {print NR}' "$TMP/out" | tr '\n' ' ')" "2 61 "
check_is "csv --begin: the first row in range has its value (the sample before it pairs)" \
  "$(sed -n 2p "$TMP/out" | cut -d, -f1)" '"02/19/2013 18:51:00.846"'
sed -n 2p "$TMP/out" | grep -q '," "'
ok $((1 - $?)) "csv --begin: no blank in the first row in range"

run blg --csv --tz-name 'Eastern Daylight Time' "$PAL"
check_is "csv (Vista, whole objects): 11 rows and the header" \
  "$(wc -l <"$TMP/out" | tr -d ' ')" 12
check_is "csv: --tz-name, and the bias of daylight time" \
  "$(head -1 "$TMP/out" | cut -d, -f1)" '"(PDH-CSV 4.0) (Eastern Daylight Time)(240)"'
check_err_has "the unknown event kind is warned about at its offset" \
  "offset 0x6d518: unknown PDH event type 0x23 skipped"
"$PY" - "$TMP/out" >"$TMP/py" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
h = rows[0]
c = h.index("\\\\ZACH-PC\\Processor(_Total)\\% Processor Time")
m = h.index("\\\\ZACH-PC\\Memory\\Available MBytes")
print(rows[1][c] == " ", rows[1][m], round(float(rows[2][c]), 9))
print(len(h) > 1000, sum(1 for x in h if "Process(svchost#7)" in x) > 20)
EOF
# 100 (1 - 107031250 / 599551470) by hand from the raw values
check_is "csv (whole objects): blank first rate, a count, a rate by hand" \
  "$(sed -n 1p "$TMP/py")" "True 79 82.148113155"
check_is "csv (whole objects): every counter of every instance, #n names" \
  "$(sed -n 2p "$TMP/py")" "True True"

run blg --json "$FX"
check_is "json: exit 0" "$rc" 0
check_json_valid "json: valid"
"$PY" - "$TMP/out" >"$TMP/py" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
keys = {"path", "value", "status", "object", "instance", "counter", "type",
        "object_index", "counter_index", "raw_value", "raw_base", "path_id",
        "time_100ns", "pid", "tid"}
print(len(doc), sorted(doc[0]) == ["machine", "results", "sample", "time",
                                   "time_utc"])
print(all(set(r) == keys for s in doc for r in s["results"]))
v = {r["path"]: r["value"] for r in doc[1]["results"]}
print(v["\\Memory\\Pages/sec"], v["\\LogicalDisk(C:)\\% Free Space"],
      round(v["\\Processor(0)\\% Processor Time"], 9))
print(doc[0]["time"], doc[0]["time_utc"], doc[0]["machine"])
EOF
check_is "json: a sample per entry, its time and machine" "$(sed -n 1p "$TMP/py")" "3 True"
check_is "json: exactly the 15 keys of winperf(1) per result" "$(sed -n 2p "$TMP/py")" True
check_is "json: both record kinds' values (object block 25/s, raw 41 %, 30 %)" \
  "$(sed -n 3p "$TMP/py")" "25 41 30.0"
check_is "json: local and UTC times" "$(sed -n 4p "$TMP/py")" \
  "2024-06-29 00:00:00.000 2024-06-29T04:00:00.0000000Z FIXTURE"

run blg --csv "$top_srcdir/conf/sample/sample1.blob"
check_error "a blob is not a .blg"
check_err_has "... named with the offset and reason" "offset 0x48: not a .blg"
run blg --csv "$TMP/none.blg"
check_error "a missing file"
run blg --csv --json "$FX"
check_error "two modes at once"
run blg --begin yesterday "$FX"
check_error "a malformed --begin"

"$PY" "$top_srcdir/tests/blg/make_fixture.py" "$TMP/fx.blg"
cmp -s "$TMP/fx.blg" "$FX"
ok $? "make_fixture.py writes the committed fixture byte for byte"
done_testing
