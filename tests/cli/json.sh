#!/bin/sh
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# winperf's JSON stays valid with hostile names: quotes, backslashes,
# control characters, non-ASCII (UTF-8 passes through), astral characters
# (UTF-16 surrogate pairs in the blob and the names table), U+2028. Text
# output keeps one line per result. Also: the bundled sample pair is what
# conf/sample/make-sample.py generates.
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

# The bundled sample pair is reproducible from its generator.
mkdir "$TMP/regen"
"$PY" "$SAMPLE/make-sample.py" "$TMP/regen"
ok $? "make-sample.py runs"
for f in sample1.blob sample2.blob names.multisz; do
  cmp -s "$SAMPLE/$f" "$TMP/regen/$f"
  ok $? "conf/sample/$f matches make-sample.py's output"
done
check_is "sample1.blob is 416 bytes (spec 1.8)" "$(wc -c <"$S1" | tr -d ' ')" 416

done_testing
