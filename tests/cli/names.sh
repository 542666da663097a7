#!/bin/sh
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# winperf names on a real-size table pair generated here: 10,000 pairs,
# index 2k (k = 1..10000), English "Counter k", local "Zähler k" for odd k
# and "Счётчик k" for even k (UTF-16LE, after a leading "1", "20000" pair), except
# 6 "% Processor Time" / "Prozessorzeit (%)", 230 Process / Prozess,
# 232 Thread / Thread, 238 Processor / Prozessor. Expected lines are
# written by hand from that rule; --objects and --counters use mkblobs'
# rich1.blob (objects 230, 232, 238, 240, 242; 238 has counters 20, 22).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/cli/lib.sh"
precheck
MKBLOBS=$top_builddir/tests/cli/mkblobs
"$MKBLOBS" "$TMP"
ok $? "mkblobs wrote the fixtures"
RICH=$TMP/rich1.blob

"$PY" - "$TMP/en.multisz" "$TMP/de.multisz" <<'PYEOF'
import sys
special = {6: ("% Processor Time", "Prozessorzeit (%)"), 230: ("Process", "Prozess"),
           232: ("Thread", "Thread"), 238: ("Processor", "Prozessor")}
en, de = ["1", "20000"], ["1", "20000"]
for k in range(1, 10001):
    i = 2 * k
    e, l = special.get(i, ("Counter %d" % k, ("Zähler %d" if k % 2 else "Счётчик %d") % k))
    en += [str(i), e]
    de += [str(i), l]
for path, strings in ((sys.argv[1], en), (sys.argv[2], de)):
    with open(path, "wb") as f:
        f.write(("\0".join(strings) + "\0\0").encode("utf-16-le"))
PYEOF
ok $? "generated the 10,000-pair tables"
EN=$TMP/en.multisz
DE=$TMP/de.multisz

run names --names "$EN" --local-names "$DE"
check_is "all: exit 0, nothing on stderr" "$rc:$(wc -c <"$TMP/err" | tr -d ' ')" "0:0"
check_is "all: 10,000 lines" "$(wc -l <"$TMP/out" | tr -d ' ')" 10000
check_is "all: the first line" "$(head -n 1 "$TMP/out")" "$(printf '2\tCounter 1\tZähler 1')"
check_is "all: the last line" "$(tail -n 1 "$TMP/out")" \
  "$(printf '20000\tCounter 10000\tСчётчик 10000')"
check_line "all: 238" "$(printf '238\tProcessor\tProzessor')"
check_line "all: 6" "$(printf '6\t%% Processor Time\tProzessorzeit (%%)')"
check_line "all: 240 (k = 120, even)" "$(printf '240\tCounter 120\tСчётчик 120')"

# "zähler 77" in any case: k = 77, odd 771..779 (5), odd 7701..7799 (50).
run names --names "$EN" --local-names "$DE" --grep 'ZÄHLER 77'
check_is "grep ZÄHLER 77: exit 0" "$rc" 0
check_is "grep ZÄHLER 77: 56 lines" "$(wc -l <"$TMP/out" | tr -d ' ')" 56
check_is "grep ZÄHLER 77: the first" "$(head -n 1 "$TMP/out")" \
  "$(printf '154\tCounter 77\tZähler 77')"
check_is "grep ZÄHLER 77: the last" "$(tail -n 1 "$TMP/out")" \
  "$(printf '15598\tCounter 7799\tZähler 7799')"

run names --names "$EN" --local-names "$DE" --grep 'СЧЁТЧИК 1000'
check_is "grep in Cyrillic capitals" "$(cat "$TMP/out")" \
  "$(printf '2000\tCounter 1000\tСчётчик 1000\n20000\tCounter 10000\tСчётчик 10000')"

run names --names "$EN" --local-names "$DE" --grep processor --json
check_json "grep processor --json: exactly 6 and 238" \
  'j == [{"index": 6, "name": "% Processor Time", "local": "Prozessorzeit (%)"}, {"index": 238, "name": "Processor", "local": "Prozessor"}]'

run names --names "$EN" --local-names "$DE" --objects --blob "$RICH"
check_is "--objects: the blob's five objects" "$(cat "$TMP/out")" \
  "$(printf '230\tProcess\tProzess\n232\tThread\tThread\n238\tProcessor\tProzessor\n240\tCounter 120\tСчётчик 120\n242\tCounter 121\tZähler 121')"

run names --names "$EN" --local-names "$DE" --counters Prozessor --blob "$RICH"
check_is "--counters by the local name" "$(cat "$TMP/out")" \
  "$(printf '20\tCounter 10\tСчётчик 10\n22\tCounter 11\tZähler 11')"
run names --names "$EN" --counters 238 --blob "$RICH"
check_is "--counters by index, no local table: an empty third field" \
  "$(cat "$TMP/out")" "$(printf '20\tCounter 10\t\n22\tCounter 11\t')"

run names --names "$NAMES"
check_is "the sample table" "$(cat "$TMP/out")" \
  "$(printf '2\tSystem\t\n6\tProcesses\t\n8\t%% Busy Time\t\n10\tQueue\t\n12\tItems\t')"
run names --names "$NAMES" --grep nothing-like-this
check_is "no line: exit 1, nothing printed" "$rc:$(wc -c <"$TMP/out" | tr -d ' ')" "1:0"
run names --names "$EN" --counters Memory --blob "$RICH"
check_is "--counters of an object the blob lacks: exit 1" "$rc" 1
check_err_has "... says so" 'the answer has no object "Memory"'

run names --grep x
check_error "no table"
run names --names "$NAMES" --objects
check_error "--objects without an answer"
run names --names "$NAMES" --objects --counters 2 --blob "$S1"
check_error "--objects and --counters together"
run names --names "$NAMES" extra
check_error "an unexpected argument"

done_testing
