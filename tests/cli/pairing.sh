#!/bin/bash
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# winperf query --pair-by: w3wp#1 exits between two samples and Windows
# renumbers w3wp#2 to w3wp#1 (tests/cli/mkblobs.c, renumber1/2.blob).
# Expected values by hand in mkblobs.c: by id (the default) w3wp#1 is pid
# 30's own 25 %; by name, as PDH, it mixes pid 20 and pid 30: 35 %.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/cli/lib.sh"

MKBLOBS=$top_builddir/tests/cli/mkblobs
"$MKBLOBS" "$TMP"
ok $? "mkblobs wrote the fixtures"
R1=$TMP/renumber1.blob
R2=$TMP/renumber2.blob

run query "$R1" "$R2" '\230(*)\6'
check_is "default (by id): exit 0" "$rc" 0
check_is "default (by id): w3wp 50, w3wp#1 25 (pid 30 with itself)" \
  "$(cat "$TMP/out")" "$(printf '\\230(w3wp)\\6\t50\n\\230(w3wp#1)\\6\t25')"

run query --pair-by id "$R1" "$R2" '\230(*)\6'
check_is "--pair-by id: the same" \
  "$(cat "$TMP/out")" "$(printf '\\230(w3wp)\\6\t50\n\\230(w3wp#1)\\6\t25')"

run query --pair-by name "$R1" "$R2" '\230(*)\6'
check_is "--pair-by name: PDH's value for w3wp#1, 35 (pid 30 against pid 20)" \
  "$(cat "$TMP/out")" "$(printf '\\230(w3wp)\\6\t50\n\\230(w3wp#1)\\6\t35')"

run query --json "$R1" "$R2" '\230(w3wp#1)\6'
check_is "--json: w3wp#1 carries pid 30" \
  "$("$PY" -c 'import json,sys; r=json.load(sys.stdin)[0]; print(r["pid"], r["tid"], r["value"])' <"$TMP/out")" \
  "30 None 25"

run query --pair-by pid "$R1" "$R2" '\230(*)\6'
check_is "--pair-by pid: usage error" "$rc" 2
grep -q "not 'id' or 'name'" "$TMP/err"
ok $? "--pair-by pid: the error says what is expected"

done_testing
