#!/bin/sh
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# winperf query on the sample pair. Expected values (format.md 1.8, 3.3):
# RAWCOUNT 42 and 7 from either blob; PERF_100NSEC_TIMER
# 100 * (12.5e6 - 5e6) / 1e7 = 75 with both blobs, no value
# ("first-sample") with one.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/cli/lib.sh"
TAB=$(printf '\t')
precheck

# ---- two blobs, numeric path with a counter wildcard
run query "$S1" "$S2" '\2\*'
check_is "two blobs: exit 0" "$rc" 0
check_is "two blobs: \\2\\* gives both counters of object 2, in blob order" \
  "$(cat "$TMP/out")" "\\2\\6${TAB}42
\\2\\8${TAB}75"

# ---- one blob: the timer has no value yet
run query "$S2" '\2\*' '\10(*)\12'
check_is "one blob: exit 0" "$rc" 0
check_is "one blob: raw counts, timer first-sample, instance wildcard" \
  "$(cat "$TMP/out")" "\\2\\6${TAB}42
\\2\\8${TAB}-${TAB}first-sample
\\10(_Total)\\12${TAB}7"

# ---- JSON, two blobs
run query --json "$S1" "$S2" '\2\*' '\10(*)\*'
check_is "json two blobs: exit 0" "$rc" 0
check_json_valid "json two blobs: valid JSON"
check_json "json: one array, three results" 'isinstance(j, list) and len(j) == 3'
check_json "json: 100NSEC_TIMER is 75.0" \
  '[r for r in j if r["path"] == "\\2\\8"][0]["value"] == 75.0'
check_json "json: every result has path, value, status, object, instance, counter, type" \
  'all(all(k in r for k in ("path", "value", "status", "object", "instance", "counter", "type")) for r in j)'
check_json "json: raw counts 42 and 7 with status ok" \
  '[(r["path"], r["value"], r["status"]) for r in j if r["counter"] != "8"] == [("\\2\\6", 42, "ok"), ("\\10(_Total)\\12", 7, "ok")]'
check_json "json: object/instance/counter/type fields" \
  '[(r["object"], r["instance"], r["counter"], r["type"]) for r in j] == [("2", None, "6", "PERF_COUNTER_RAWCOUNT"), ("2", None, "8", "PERF_100NSEC_TIMER"), ("10", "_Total", "12", "PERF_COUNTER_RAWCOUNT")]'

# ---- JSON, one blob: null + first-sample
run query --json "$S1" '\2\8'
check_json_valid "json one blob: valid JSON"
check_json "json one blob: timer value null, status first-sample" \
  'j == [dict(j[0], path="\\2\\8", value=None, status="first-sample")]'

# ---- wildcards
run query "$S1" "$S2" '\10(_T*)\12' '\10(*al)\*'
check_is "partial instance wildcards match _Total once" "$(cat "$TMP/out")" \
  "\\10(_Total)\\12${TAB}7"
run query "$S1" "$S2" '\10(x*)\12'
check_is "a wildcard matching no instance: exit 1" "$rc" 1
check_is "... and no output" "$(wc -c <"$TMP/out" | tr -d ' ')" 0
check_err_has "... and stderr names the path" '\10(x*)\12: matched no counter'

# ---- names: by name, case-insensitive, numeric with names, mixed
run query --names "$NAMES" "$S1" "$S2" '\System\% Busy Time'
check_is "by name: exit 0" "$rc" 0
check_is "by name: \\System\\% Busy Time is 75" "$(cat "$TMP/out")" \
  "\\System\\% Busy Time${TAB}75"
run query --names "$NAMES" "$S1" "$S2" '\system\% BUSY time'
check_is "by name, other case: canonical name in the table's spelling" \
  "$(cat "$TMP/out")" "\\System\\% Busy Time${TAB}75"
run query --names "$NAMES" "$S1" "$S2" '\2\8' '\10(_Total)\12'
check_is "numeric paths with names print names" "$(cat "$TMP/out")" \
  "\\System\\% Busy Time${TAB}75
\\Queue(_Total)\\Items${TAB}7"
run query --names "$NAMES" "$S1" "$S2" '\Queue(_total)\12' '\10(*)\Items'
check_is "mixed name/index paths, duplicate match shown once, exit 0" \
  "$rc:$(cat "$TMP/out")" "0:\\Queue(_Total)\\Items${TAB}7"
run query "$S1" "$S2" '\System\% Busy Time'
check_is "name without a names table: exit 1 (no match)" "$rc" 1
run query --json --names "$NAMES" "$S1" "$S2" '\System\*' '\Queue(*)\Items'
check_json_valid "json with names: valid JSON"
check_json "json with names: names in path/object/counter" \
  '[(r["path"], r["object"], r["counter"], r["value"]) for r in j] == [("\\System\\Processes", "System", "Processes", 42), ("\\System\\% Busy Time", "System", "% Busy Time", 75), ("\\Queue(_Total)\\Items", "Queue", "Items", 7)]'

# ---- options: --cap100, --multi-timer
# A variant whose timer runs 2e7 in 1e7: 100 * 2e7 / 1e7 = 200 %, 100 capped.
"$PY" - "$S2" "$TMP/s200.blob" <<'PYEOF'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
struct.pack_into("<Q", b, 0x100, 25_000_000)  # timer value (format.md 1.8 layout)
open(sys.argv[2], "wb").write(b)
PYEOF
run query "$S1" "$TMP/s200.blob" '\2\8'
check_is "timer at 200 % is not capped by default" "$(cat "$TMP/out")" \
  "\\2\\8${TAB}200"
run query --cap100 "$S1" "$TMP/s200.blob" '\2\8'
check_is "--cap100 clamps it at 100" "$(cat "$TMP/out")" "\\2\\8${TAB}100"
run query --multi-timer=msdn "$S1" "$S2" '\2\8'
check_is "--multi-timer=msdn accepted (no multi timer here: 75)" \
  "$rc:$(cat "$TMP/out")" "0:\\2\\8${TAB}75"
run query --multi-timer reskit "$S1" "$S2" '\2\8'
check_is "--multi-timer reskit accepted" "$rc" 0

done_testing
