#!/bin/sh
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# winperf on encoder-built blob pairs (tests/cli/mkblobs.c): duplicate
# instance names, parents, partial and parent wildcards, a multi timer with
# both formulas, metadata-only and unknown-type objects, big-endian blobs.
# Expected values are computed by hand in mkblobs.c's header comment.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/cli/lib.sh"
TAB=$(printf '\t')
MKBLOBS=$top_builddir/tests/cli/mkblobs
precheck
"$MKBLOBS" "$TMP"
ok $? "mkblobs wrote the fixtures"
R1=$TMP/rich1.blob R2=$TMP/rich2.blob B1=$TMP/rich-be1.blob B2=$TMP/rich-be2.blob

ALL="\\230(svchost)\\6${TAB}50
\\230(svchost#1)\\6${TAB}25
\\230(w3wp)\\6${TAB}100
\\230(w3wp#1)\\6${TAB}15
\\230(Idle)\\6${TAB}0
\\232(svchost/0)\\12${TAB}300
\\232(svchost/0#1)\\12${TAB}300
\\232(w3wp/1)\\12${TAB}300
\\238(_Total)\\20${TAB}75
\\242\\26${TAB}-${TAB}unknown-type"

run query "$R1" "$R2" '\230(*)\6' '\232(*)\*' '\238(*)\*' '\242\*'
check_is "little-endian pair: exit 0" "$rc" 0
check_is "little-endian pair: every value as computed by hand" \
  "$(cat "$TMP/out")" "$ALL"
run query "$B1" "$B2" '\230(*)\6' '\232(*)\*' '\238(*)\*' '\242\*'
check_is "big-endian pair: the same values" "$rc:$(cat "$TMP/out")" "0:$ALL"

run dump "$B1"
check_is "dump of the big-endian blob: exit 0" "$rc" 0
grep -qxF "  byte order:        big-endian" "$TMP/out"
ok $? "dump says big-endian"
check_line "dump: second svchost numbered #1" \
  '    [1] "svchost#1" at 0x138, unique id 200, block at 0x160 (24 bytes)'
grep -qF '"svchost/0#1" at ' "$TMP/out" && grep -qF 'parent 230[1] "svchost#1"' "$TMP/out"
ok $? "dump: thread under svchost#1 is svchost/0#1, parent 230[1] named"
check_line "dump: metadata-only object" \
  "  NumInstances:    -2 (metadata only, multiple instances)"
grep -qF '[0] 26: 0x00070000 (0x00070000), size 4' "$TMP/out"
ok $? "dump: unknown counter type shown in hex"

run dump --json "$R1"
check_json_valid "json dump of the rich blob: valid JSON"
check_json "json dump: Process full names and unique ids" \
  '[(i["full_name"], i["unique_id"]) for i in j["objects"][0]["instances"]] == [("svchost", 100), ("svchost#1", 200), ("w3wp", 300), ("w3wp#1", 400), ("Idle", 0)]'
check_json "json dump: Thread names, parents" \
  '[(i["name"], i["full_name"], i["parent_object"], i["parent_instance"], i["parent"]) for i in j["objects"][1]["instances"]] == [("0", "svchost/0", 230, 0, "svchost"), ("0", "svchost/0#1", 230, 1, "svchost#1"), ("1", "w3wp/1", 230, 2, "w3wp")]'
check_json "json dump: metadata-only object has definitions, no instances" \
  '(j["objects"][3]["num_instances"], len(j["objects"][3]["counters"]), j["objects"][3]["instances"]) == (-2, 1, [])'
check_json "json dump: unknown type in hex" \
  'j["objects"][4]["counters"][0]["type"] == "0x00070000" and j["objects"][4]["instances"][0]["values"] == [5]'

# Wildcards (format.md 4.2): partial, #n, parent, counter.
run query "$R1" "$R2" '\230(w3wp*)\6'
check_is "partial wildcard w3wp* matches w3wp and w3wp#1" "$(cat "$TMP/out")" \
  "\\230(w3wp)\\6${TAB}100
\\230(w3wp#1)\\6${TAB}15"
run query "$R1" "$R2" '\230(svchost#1)\6' '\230(SVCHOST)\784'
check_is "#1 picks the second duplicate; #0 implied, case-insensitive" \
  "$(cat "$TMP/out")" "\\230(svchost#1)\\6${TAB}25
\\230(svchost)\\784${TAB}100"
run query "$R1" "$R2" '\232(svchost/*)\12'
check_is "wildcard under a parent" "$(cat "$TMP/out")" \
  "\\232(svchost/0)\\12${TAB}300
\\232(svchost/0#1)\\12${TAB}300"
run query "$R1" "$R2" '\232(*/1)\12'
check_is "wildcard parent" "$(cat "$TMP/out")" "\\232(w3wp/1)\\12${TAB}300"
run query "$R1" "$R2" '\240(*)\*'
check_is "metadata-only object: no counter, exit 1" "$rc:$(wc -c <"$TMP/out" | tr -d ' ')" "1:0"

# Multi timer formulas (format.md 3.2).
run query "$R1" "$R2" '\238(_Total)\20'
check_is "multi timer, default (reskit): 75" "$(cat "$TMP/out")" "\\238(_Total)\\20${TAB}75"
run query --multi-timer=msdn "$R1" "$R2" '\238(_Total)\20'
check_is "multi timer, msdn: 7.5e8" "$(cat "$TMP/out")" "\\238(_Total)\\20${TAB}750000000"

# One blob: timers and rates have no value yet, raw counts do.
run query --json "$R2" '\230(Idle)\*' '\232(w3wp/1)\12'
check_json_valid "one rich blob: valid JSON"
check_json "one rich blob: first-sample for timer and rate, raw count 0" \
  '[(r["counter"], r["value"], r["status"]) for r in j] == [("6", None, "first-sample"), ("784", 0, "ok"), ("12", None, "first-sample")]'

# Names by name, with a table written here.
"$PY" - "$TMP/rich.multisz" <<'PYEOF'
import sys
pairs = [("1", "785"), ("230", "Process"), ("6", "% Processor Time"),
         ("784", "ID Process"), ("232", "Thread"),
         ("12", "Context Switches/sec"), ("238", "Processor")]
flat = "\0".join(x for p in pairs for x in p) + "\0\0"
open(sys.argv[1], "wb").write(flat.encode("utf-16-le"))
PYEOF
run query --names "$TMP/rich.multisz" "$R1" "$R2" \
  '\Process(w3wp#1)\% Processor Time' '\Thread(*)\Context Switches/sec' '\Processor(_Total)\*'
check_is "by name: values and canonical names" "$rc:$(cat "$TMP/out")" \
  "0:\\Process(w3wp#1)\\% Processor Time${TAB}15
\\Thread(svchost/0)\\Context Switches/sec${TAB}300
\\Thread(svchost/0#1)\\Context Switches/sec${TAB}300
\\Thread(w3wp/1)\\Context Switches/sec${TAB}300
\\Processor(_Total)\\20${TAB}75"

done_testing
