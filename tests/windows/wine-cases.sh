#!/bin/bash
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# More of the Windows path under Wine (TAP), with the test provider's other
# modes (tests/windows/provider.c):
#   - the renumbering capture again: the same values as the committed
#     tests/data/wine-renumber (by id 20 and 30, by name 1130);
#   - a provider whose Open fails: Wine skips it, its object 5000 is absent,
#     and `winperf doctor` says object-absent and names the provider;
#   - "Disable Performance Counters": stored by Wine's registry, read and
#     reported by the doctor, not honoured by Wine;
#   - `winperf names` on Wine's own name tables, --grep, --objects and
#     --counters OBJECT on the live answer.
set -u

: "${top_srcdir:?}" "${top_builddir:?}"
# shellcheck source-path=SCRIPTDIR source=../lib/need.sh
. "$top_srcdir/tests/lib/need.sh"
# shellcheck source-path=SCRIPTDIR source=wine-lib.sh
. "$top_srcdir/tests/windows/wine-lib.sh"
need python3
LINUX_WINPERF="$top_builddir/winperf"
DATA="$top_srcdir/tests/data/wine-renumber"

wl_setup

# is GOT WANT MESSAGE
is() {
  if [ "$1" = "$2" ]; then
    ok "$3"
  else
    nok "$3"
    printf 'got:  %s\nwant: %s\n' "$1" "$2" | diag
  fi
}
SERVICES='HKLM\System\CurrentControlSet\Services'

# ------------------------------------------------ the renumbering capture
C="$TMP/renumber"
wl_capture_renumber "$C" >/dev/null 2>"$TMP/cap.err"
check $? "winperf.exe capture of the renumbering provider"
for by in id name; do
  for d in "$C" "$DATA"; do
    "$LINUX_WINPERF" query --pair-by "$by" "$d/000001.blob" "$d/000002.blob" \
      '\230(*)\6' '\230(*)\784' >"$TMP/$by-${d##*/}.txt" 2>&1
  done
  is "$(cat "$TMP/$by-renumber.txt")" "$(cat "$TMP/$by-wine-renumber.txt")" \
    "--pair-by $by: the new capture gives the committed fixture's values"
done
is "$(cat "$TMP/id-renumber.txt")" "$(printf '\\230(w3wp)\\6\t20\n\\230(w3wp#1)\\6\t30\n\\230(w3wp)\\784\t1100\n\\230(w3wp#1)\\784\t3300')" \
  "by id: w3wp#1 (pid 3300) 30, its own rate"
is "$(sed -n 2p "$TMP/name-renumber.txt")" "$(printf '\\230(w3wp#1)\\6\t1130')" \
  "by name: w3wp#1 1130 (PDH's pairing of pid 2200 with pid 3300)"
wrun reg delete "$SERVICES\\WinperfRenumber" /f >/dev/null 2>&1
check $? "renumbering provider unregistered"

# ------------------------------------ a working and a failing provider
wl_register WinperfTest OpenPerfData CollectPerfData '"Object List"="238 2 230"'
check $? "working provider registered (objects 238 2 230)"
wl_register WinperfFail OpenFailPerfData CollectFailPerfData '"Object List"="5000"'
check $? "failing provider registered (object 5000, Open fails)"

wrun "$EXE" capture --dir "$(winpath "$TMP/global")" --count 1 \
  --objects Global >/dev/null 2>"$TMP/global.err"
check $? "a Global query succeeds with the failing provider registered"
got=$("$LINUX_WINPERF" dump "$TMP/global/000001.blob" |
  awk '/^object / { printf "%s%s", s, $2; s = " " }')
is "$got" "238 2 230" "Wine skipped the provider whose Open failed: no object 5000"

# An English table as lodctr would have registered it (Wine's is a stub).
python3 - "$TMP/names.multisz" <<'PYEOF'
import sys
names = ["1", "10010", "2", "System", "6", "% Processor Time", "230", "Process",
         "238", "Processor", "784", "ID Process", "5000", "Failing Object",
         "5002", "Failing Value"]
with open(sys.argv[1], "wb") as f:
    f.write(("\0".join(names) + "\0\0").encode("utf-16-le"))
PYEOF
NAMES=$(winpath "$TMP/names.multisz")
LIB=$(winpath "$DLL")

# doctor_run ARG...: winperf.exe doctor; stdout in $TMP/doc.txt, status in rc
doctor_run() {
  wrun "$EXE" doctor "$@" >"$TMP/doc.txt" 2>"$TMP/doc.err"
  rc=$?
}
verdict_of() { # verdict_of PATH: the verdict column of PATH's line
  P="$1" awk -F'\t' '$1 == ENVIRON["P"] { print $2 }' "$TMP/doc.txt"
}
fix_of() { P="$1" awk -F'\t' '$1 == ENVIRON["P"] { print $3 }' "$TMP/doc.txt"; }

# ------------------------------------------- doctor: the failing provider
doctor_run --names "$NAMES" '\5000\5002' '\Failing Object\Failing Value' \
  '\238(*)\6' '\Process(*)\ID Process'
is "$rc" 1 "doctor: exit 1 (a path does not resolve)"
is "$(verdict_of '\5000\5002')" object-absent \
  "doctor: \\5000\\5002 is object-absent (its provider's Open failed)"
is "$(verdict_of '\Failing Object\Failing Value')" object-absent \
  "doctor: \\Failing Object\\Failing Value, by name: object-absent"
fix=$(fix_of '\5000\5002')
case "$fix" in
*"provider WinperfFail ($LIB): Disable Performance Counters not set, so it is enabled and its Open or Collect failed"*)
  ok "doctor names the provider, its DLL and 'Disable Performance Counters not set'" ;;
*)
  nok "doctor names the provider, its DLL and 'Disable Performance Counters not set'"
  echo "$fix" | diag
  ;;
esac
is "$(verdict_of '\238(*)\6'):$(fix_of '\238(*)\6')" "ok:3 counters match" \
  "doctor: \\238(*)\\6 ok, 3 counters, no note"
is "$(verdict_of '\Process(*)\ID Process')" ok "doctor: \\Process(*)\\ID Process ok"

doctor_run --json --names "$NAMES" '\5000\5002'
is "$(python3 -c 'import json,sys; r=json.load(sys.stdin)[0]; print(r["verdict"], "WinperfFail" in r["fix"])' <"$TMP/doc.txt")" \
  "object-absent True" "doctor --json: the same verdict and provider"

# -------------------------------------- Disable Performance Counters = 1
for s in WinperfFail WinperfTest; do
  wrun reg add "$SERVICES\\$s\\Performance" /v 'Disable Performance Counters' \
    /t REG_DWORD /d 1 /f >/dev/null 2>&1
done
wrun reg query "$SERVICES\\WinperfTest\\Performance" \
  /v 'Disable Performance Counters' >"$TMP/disable.txt" 2>&1
grep -q 'REG_DWORD *0x1' "$TMP/disable.txt"
check $? "Wine's registry stores Disable Performance Counters = 1"
doctor_run --names "$NAMES" '\5000\5002' '\238(*)\6'
case "$(fix_of '\5000\5002')" in
*"provider WinperfFail ($LIB): Disable Performance Counters = 1, so it is disabled: set the value to 0 (lodctr /E:WinperfFail)"*)
  ok "doctor reads Disable Performance Counters = 1 of the absent object's provider" ;;
*)
  nok "doctor reads Disable Performance Counters = 1 of the absent object's provider"
  fix_of '\5000\5002' | diag
  ;;
esac
is "$(verdict_of '\238(*)\6'):$(fix_of '\238(*)\6')" \
  "ok:3 counters match; note: provider WinperfTest has Disable Performance Counters = 1 and answered anyway (Windows skips a disabled provider; Wine does not)" \
  "doctor: \\238(*)\\6 still ok, with a note that its provider is disabled"
wrun "$EXE" query --interval 0.5 --count 1 '\238(_Total)\10001' >"$TMP/q.txt" 2>&1
is "$(cut -f2 "$TMP/q.txt")" 37.5 \
  "the disabled provider still answers under Wine (\\238(_Total)\\10001 = 37.5)"
echo "Wine stores 'Disable Performance Counters' but does not honour it:" \
  "WinperfTest (value 1) still answered; Windows would skip it" | diag

# --------------------------------------- doctor on Wine's own name table
doctor_run '\5000\5002' '\238(*)\6'
is "$(verdict_of '\238(*)\6')" ok "doctor without --names: \\238(*)\\6 ok (numeric)"
is "$(verdict_of '\5000\5002')" names-table-corrupt \
  "doctor without --names: \\5000\\5002 names-table-corrupt (Wine's stub names no object)"
grep -q 'object index 238 of the answer has no name in the table' "$TMP/doc.txt"
check $? "... because object 238 of the answer has no name in Wine's table"

# ------------------------------------------------ names on Wine's tables
# Wine answers "Counter" (HKEY_PERFORMANCE_TEXT and _NLSTEXT) with a fixed
# table (dlls/kernelbase/registry.c, query_perf_names); its registry keeps
# the same under Perflib\009, read here with Wine's reg.exe. The leading "1"
# pair is a historical constant (format.md 4.1), not a name: winperf names
# lists the others.
wrun reg query 'HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion\Perflib\009' \
  /v Counter >"$TMP/reg009.txt" 2>&1
check $? "reg query Perflib\\009 /v Counter"
want=$(sed -n 's/^ *Counter *REG_MULTI_SZ *//p' "$TMP/reg009.txt" |
  awk '{ n = split($0, a, /\\0/)
         for (i = 3; i + 1 <= n; i += 2) printf "%s\t%s\n", a[i], a[i + 1] }')
is "$want" "$(printf '1846\tEnd Marker')" \
  "Wine's Perflib\\009 Counter: the leading \"1\" pair, then 1846 End Marker"
names_run() {
  wrun "$EXE" names "$@" >"$TMP/names.txt" 2>"$TMP/names.err"
  rc=$?
}
names_run
is "$rc:$(cut -f1,2 "$TMP/names.txt")" "0:$want" \
  "names: the English column is Wine's Perflib\\009 table"
is "$(cat "$TMP/names.txt")" "$(printf '1846\tEnd Marker\tEnd Marker')" \
  "names: the local column is Wine's localized table (the same stub)"
names_run --grep 'end MARKER'
is "$rc:$(cat "$TMP/names.txt")" "0:$(printf '1846\tEnd Marker\tEnd Marker')" \
  "names --grep 'end MARKER': case-insensitive"
names_run --grep Processor
is "$rc:$(wc -c <"$TMP/names.txt" | tr -d ' ')" "1:0" \
  "names --grep Processor: not in Wine's table, exit 1"
names_run --objects
is "$rc:$(cat "$TMP/names.txt")" "0:$(printf '2\t\t\n230\t\t\n238\t\t')" \
  "names --objects: the live answer's objects, unnamed by Wine's table"
names_run --counters 230
is "$rc:$(cat "$TMP/names.txt")" "0:$(printf '6\t\t\n784\t\t\n10003\t\t\n10006\t\t\n10007\t\t')" \
  "names --counters 230: the test provider's Process counters in definition order"
names_run --names "$NAMES" --objects
is "$rc:$(cat "$TMP/names.txt")" "0:$(printf '2\tSystem\t\n230\tProcess\t\n238\tProcessor\t')" \
  "names --names FILE --objects: the live answer named by the file"
names_run --names "$NAMES" --counters Process
is "$rc:$(cat "$TMP/names.txt")" "0:$(printf '6\t%% Processor Time\t\n784\tID Process\t\n10003\t\t\n10006\t\t\n10007\t\t')" \
  "names --names FILE --counters Process: by name, on the live answer"
names_run --counters 5000
is "$rc" 1 "names --counters 5000: the failing provider's object is not in the answer"
grep -q 'the answer has no object "5000"' "$TMP/names.err"
check $? "... and says so"

finish
