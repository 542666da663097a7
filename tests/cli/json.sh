#!/bin/sh
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# winperf's JSON stays valid with hostile names: quotes, backslashes,
# control characters, non-ASCII (UTF-8 passes through), astral characters
# (UTF-16 surrogate pairs in the blob and the names table), U+2028. Text
# output keeps one line per result. `query --json` has one schema: exactly
# the 15 keys of winperf(1), pid/tid from identity counters (encoder-built
# blobs, values by hand in tests/cli/mkblobs.c). Also: the bundled sample
# pair is what conf/sample/make-sample.py generates.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/cli/lib.sh"
TAB=$(printf '\t')
precheck
[ -x "$PY" ]
ok $? "Debian's python3 is available for fixtures and validation"

# Fixtures: the sample's instance "_Total" (6 UTF-16 units at 0x188, spec
# 1.8) renamed in place to 6 other units, and a names table with odd names.
"$PY" - "$S1" "$S2" "$TMP" <<'PYEOF'
import sys
s1, s2, tmp = sys.argv[1:4]
INST = 'a"\\\u00e9\x01\u2028'          # a " \ é U+0001 U+2028
assert len(INST.encode("utf-16-le")) == 12
for src, dst in ((s1, "odd1.blob"), (s2, "odd2.blob")):
    b = bytearray(open(src, "rb").read())
    assert b[0x188:0x194] == "_Total".encode("utf-16-le")
    b[0x188:0x194] = INST.encode("utf-16-le")
    open(tmp + "/" + dst, "wb").write(b)
names = [("1", "12"), ("2", "Sys\"tem\\"), ("6", "Tab\there"),
         ("8", "Temps occup\u00e9 \U0001F600"), ("10", "Line\nbreak"),
         ("12", "Ctl\x1f\x7f")]
flat = "\0".join(x for pair in names for x in pair) + "\0\0"
open(tmp + "/odd.multisz", "wb").write(flat.encode("utf-16-le"))
PYEOF
ok $? "fixtures written"

run query --json "$TMP/odd1.blob" "$TMP/odd2.blob" '\10(*)\12'
check_is "odd instance name: exit 0" "$rc" 0
check_json_valid "odd instance name: valid JSON"
check_json "instance name decoded exactly (quote, backslash, é, U+0001, U+2028)" \
  '[(r["instance"], r["path"], r["value"]) for r in j] == [("a\"\\\u00e9\x01\u2028", "\\10(a\"\\\u00e9\x01\u2028)\\12", 7)]'
if grep -q "$(printf '\001')" "$TMP/out"; then ok 1 "no raw control byte in JSON"; else ok 0 "no raw control byte in JSON"; fi
grep -qF '\u0001' "$TMP/out"
ok $? "U+0001 written as \\u0001"
grep -qF "$(printf '\303\251')" "$TMP/out"
ok $? "é passes through as UTF-8"

run query --json --names "$TMP/odd.multisz" "$TMP/odd1.blob" "$TMP/odd2.blob" '\2\*' '\10(*)\*'
check_is "odd names: exit 0" "$rc" 0
check_json_valid "odd names: valid JSON"
check_json "object and counter names decoded exactly, values right" \
  '[(r["object"], r["counter"], r["value"]) for r in j] == [("Sys\"tem\\", "Tab\there", 42), ("Sys\"tem\\", "Temps occup\u00e9 \U0001F600", 75), ("Line\nbreak", "Ctl\x1f\x7f", 7)]'

run dump --json --names "$TMP/odd.multisz" "$TMP/odd1.blob"
check_is "dump with odd names: exit 0" "$rc" 0
check_json_valid "dump with odd names: valid JSON"
check_json "dump: names and instance decoded exactly" \
  '(j["objects"][0]["name"], j["objects"][1]["name"], j["objects"][0]["counters"][1]["name"], j["objects"][1]["instances"][0]["full_name"]) == ("Sys\"tem\\", "Line\nbreak", "Temps occup\u00e9 \U0001F600", "a\"\\\u00e9\x01\u2028")'

# Text: control characters replaced, one line per result.
run query --names "$TMP/odd.multisz" "$TMP/odd1.blob" "$TMP/odd2.blob" '\10(*)\*'
check_is "text: one line per result, control characters shown as ?" \
  "$(cat "$TMP/out")" "\\Line?break(a\"\\é?$(printf '\342\200\250'))\\Ctl??${TAB}7"

# A file name that is not valid UTF-8 still gives valid JSON.
cp "$S1" "$TMP/bad$(printf '\377').blob"
run dump --json "$TMP/bad$(printf '\377').blob"
check_json_valid "file name with an invalid UTF-8 byte: valid JSON"
check_json "... the byte becomes U+FFFD" 'j["file"].endswith("bad\ufffd.blob")'

# ---- query --json: one schema, exact keys (winperf(1) OUTPUT)
KEYS='["path", "value", "status", "object", "instance", "counter", "type", "object_index", "counter_index", "raw_value", "raw_base", "path_id", "time_100ns", "pid", "tid"]'
run query --json "$S1" "$S2" '\2\*' '\10(*)\12'
check_is "sample pair: exit 0" "$rc" 0
check_json "sample pair: every result has exactly the 15 keys, in order" \
  "all(list(r) == $KEYS for r in j) and len(j) == 3"
# format.md 1.8: no identity counters; RAWCOUNT and 100NSEC_TIMER have no base;
# newer PerfTime100nSec 133485408000000000 + 1e7.
check_json "sample pair: pid, tid, raw_base null; time_100ns of the newer blob" \
  '[(r["pid"], r["tid"], r["raw_base"], r["time_100ns"], r["path_id"]) for r in j] == [(None, None, None, 133485408010000000, 0)] * 2 + [(None, None, None, 133485408010000000, 1)]'
check_json "sample pair: raw values 42, 12500000, 7 and their indices" \
  '[(r["raw_value"], r["object_index"], r["counter_index"]) for r in j] == [(42, 2, 6), (12500000, 2, 8), (7, 10, 12)]'

# Identity counters (tests/cli/mkblobs.c, ids.blob): pid from the
# instance's ID Process (784), tid from its ID Thread (804), null where the
# object has none.
MKBLOBS=$top_builddir/tests/cli/mkblobs
"$MKBLOBS" "$TMP"
ok $? "mkblobs wrote the fixtures"
IDS_PATHS='\230(*)\6 \232(*)\12 \238(*)\6 \500\902'
IDS_WANT='[("\\230(Idle)\\6", 1, 0, None), ("\\230(svchost)\\6", 2, 812, None), ("\\230(svchost#1)\\6", 3, 1024, None), ("\\230(_Total)\\6", 6, 0, None), ("\\232(svchost/0)\\12", 10, 812, 4100), ("\\232(svchost/0#1)\\12", 20, 1024, 5200), ("\\232(Idle/0)\\12", 30, 0, 0), ("\\238(_Total)\\6", 50, None, None), ("\\500\\902", 7, None, None)]'
for blob in ids ids-be; do
  # shellcheck disable=SC2086 # the paths are single words
  run query --json "$TMP/$blob.blob" $IDS_PATHS
  check_is "$blob.blob: exit 0" "$rc" 0
  check_json "$blob.blob: exactly the 15 keys in every result" \
    "all(list(r) == $KEYS for r in j) and len(j) == 9"
  check_json "$blob.blob: pid and tid per instance, by the standard indices" \
    "[(r['path'], r['value'], r['pid'], r['tid']) for r in j] == $IDS_WANT"
done
check_json "ids.blob: the single-instance object has instance null" \
  'j[8]["instance"] is None and j[8]["object"] == "500"'

# With a names table, "ID Process" is every index the table gives that name:
# 784 and 900 here, so the single-instance object 500's 8-byte 900 counts.
"$PY" - "$TMP/ids.multisz" "$TMP/stub.multisz" <<'PYEOF'
import sys
def table(path, pairs):
    flat = "\0".join(x for p in pairs for x in p) + "\0\0"
    open(path, "wb").write(flat.encode("utf-16-le"))
table(sys.argv[1], [("1", "1847"), ("230", "Process"), ("232", "Thread"),
                    ("6", "Count"), ("12", "Switches"), ("784", "ID Process"),
                    ("804", "ID Thread"), ("500", "Job"), ("900", "ID Process"),
                    ("902", "Processes")])
table(sys.argv[2], [("1", "1847"), ("230", "Process")])
PYEOF
ok $? "names tables written"
run query --json --names "$TMP/ids.multisz" "$TMP/ids.blob" '\Job\Processes' '\Thread(svchost/0#1)\Switches'
check_json "names: ID Process found by name (index 900, 8 bytes: 2^32 + 5)" \
  '[(r["path"], r["value"], r["pid"], r["tid"]) for r in j] == [("\\Job\\Processes", 7, 4294967301, None), ("\\Thread(svchost/0#1)\\Switches", 20, 1024, 5200)]'
run query --json --names "$TMP/stub.multisz" "$TMP/ids.blob" '\Process(svchost#1)\6'
check_json "names without ID Process: the standard index 784 still gives the pid" \
  '[(r["path"], r["pid"], r["tid"]) for r in j] == [("\\Process(svchost#1)\\6", 1024, None)]'

# raw_base: a number where the type divides by a base (MULTI_TIMER over
# MULTI_BASE 2, mkblobs.c), else null (COUNTER_COUNTER).
run query --json "$TMP/rich1.blob" "$TMP/rich2.blob" '\238(_Total)\20' '\232(w3wp/1)\12'
check_json "raw_base: 2 for the multi timer, null for a rate" \
  '[(r["value"], r["raw_value"], r["raw_base"], r["pid"]) for r in j] == [(75, 30000000, 2, None), (300, 1600, None, None)]'

# The bundled sample pair is reproducible from its generator.
mkdir "$TMP/regen"
"$PY" "$SAMPLE/make-sample.py" "$TMP/regen"
ok $? "make-sample.py runs"
for f in sample1.blob sample2.blob names.multisz; do
  cmp -s "$SAMPLE/$f" "$TMP/regen/$f"
  ok $? "conf/sample/$f matches make-sample.py's output"
done
check_is "sample1.blob is 416 bytes (format.md 1.8)" "$(wc -c <"$S1" | tr -d ' ')" 416

done_testing
