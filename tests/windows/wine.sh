#!/bin/bash
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# The Windows path under Wine (TAP). Cross-builds the project with mingw-w64
# in $top_builddir/win64, creates a fresh WINEPREFIX, registers the test
# performance provider (tests/windows/provider.c) and runs winperf.exe
# against the live HKEY_PERFORMANCE_DATA:
#   - live `winperf query`: values against the provider's known rates
#     (exact where the counter uses the object clock the provider stamps);
#   - the buffer-growth path (WINPERF_INITIAL_BUFFER=16);
#   - index-list queries return only the objects asked for;
#   - `winperf capture` replayed through the Linux winperf: exact values,
#     rates on Wine's clocks within 5 %, and output identical to winperf.exe
#     replaying the same blobs.
# Wine's name tables are a stub, so every path is numeric.
set -u

: "${top_srcdir:?}" "${top_builddir:?}"
# shellcheck source-path=SCRIPTDIR source=../lib/need.sh
. "$top_srcdir/tests/lib/need.sh"
# shellcheck source-path=SCRIPTDIR source=wine-lib.sh
. "$top_srcdir/tests/windows/wine-lib.sh"

ok "wine and mingw-w64 are installed"

# ------------------------------------------- the prefix, the cross build
wl_setup
LINUX_WINPERF="$top_builddir/winperf"
if [ -x "$LINUX_WINPERF" ]; then
  ok "winperf.exe, the provider DLL and the Linux winperf exist"
else
  nok "the Linux winperf ($LINUX_WINPERF)"
  finish
fi

wl_register WinperfTest OpenPerfData CollectPerfData
check $? "test provider registered"

# ------------------------------------------------------- the expectations
# path, value: counters on the object clock the provider stamps (exact),
# one-sample counters and averages (exact).
EXACT='\238(0)\10001 25
\238(1)\10001 50
\238(_Total)\10001 37.5
\2\10002 3.5
\2\674 12345
\2\250 42
\2\10004 12.5
\230(Idle)\10003 10
\230(svchost)\10003 20
\230(svchost#1)\10003 30
\230(winperf)\10003 40
\230(Idle)\784 0
\230(svchost#1)\784 200
\230(Idle)\10006 3
\230(winperf)\10006 12'
# counters on the clocks Wine stamps (PerfTime, PerfTime100nSec): 5 %.
# Wine stamps PerfTime before it loads the provider, which reads its QPC
# when loaded; on this shared machine that delay varies by up to about
# 0.2 s from query to query (measured: 1.2 to 2.5 % off over 8 s), which
# a wrong clock or frequency would exceed many times over.
NEAR='\238(0)\6 25
\238(1)\6 50
\238(_Total)\6 37.5
\238(0)\148 1000
\238(_Total)\148 3000
\2\146 5000
\230(Idle)\6 10
\230(winperf)\6 40'
PATHS=('\238(*)\*' '\2\*' '\230(*)\*')

value_of() { # value_of FILE PATH
  # ENVIRON, not -v: awk -v would read "\238" as an octal escape
  P="$2" awk -F'\t' '$1 == ENVIRON["P"] { print $2; exit }' "$1"
}
check_values() { # check_values FILE WHAT TOLERANCE LIST
  local file=$1 what=$2 tol=$3 path want got
  while read -r path want; do
    got=$(value_of "$file" "$path")
    if awk -v g="$got" -v w="$want" -v t="$tol" 'BEGIN {
         if (g == "" || g == "-") exit 1
         d = g - w; if (d < 0) d = -d
         exit !(t == 0 ? g + 0 == w + 0 : d <= t * w) }'; then
      ok "$what: $path = $got (want $want${tol:+, tolerance $tol})"
    else
      nok "$what: $path = '$got' (want $want, tolerance $tol)"
    fi
  done <<<"$4"
}

# ------------------------------------------------------------- live query
# Three reports a second apart; the first sample of a process is skewed
# (doc/wine.md), so only the last report is checked.
if wrun "$EXE" query --interval 1 --count 3 "${PATHS[@]}" \
  >"$TMP/live.txt" 2>"$TMP/live.err"; then
  ok "live winperf query (3 reports)"
else
  nok "live winperf query (3 reports)"
  diag <"$TMP/live.err"
fi
awk 'BEGIN { RS = "" } { last = $0 } END { print last }' "$TMP/live.txt" \
  >"$TMP/live-last.txt"
check_values "$TMP/live-last.txt" "live" 0 "$EXACT"
[ "$(wc -l <"$TMP/live-last.txt")" -eq 30 ]
check $? "live: 30 counters in the last report (3x3 + 5 + 4x4: bases hidden)"

# ------------------------------------------------------- buffer growth
WINPERF_INITIAL_BUFFER=16 wrun "$EXE" query --verbose --interval 0.5 \
  --count 1 '\2\250' '\238(_Total)\10001' >"$TMP/grow.txt" 2>"$TMP/grow.err"
check $? "query starting from a 16-byte buffer"
grows=$(sed -n 's/.* \([0-9]*\) buffer grows.*/\1/p' "$TMP/grow.err")
high=$(sed -n 's/.*high water \([0-9]*\) bytes.*/\1/p' "$TMP/grow.err")
[ "${grows:-0}" -ge 4 ] && [ "${high:-0}" -ge 1024 ]
check $? "buffer grown on ERROR_MORE_DATA ($grows grows, high water $high)"
grep -q 'high water' "$TMP/grow.err" || diag <"$TMP/grow.err"
check_values "$TMP/grow.txt" "grown buffer" 0 '\2\250 42
\238(_Total)\10001 37.5'

# ------------------------------------------------- counter-table reload
# Perflib "Last Counter" changes while a live query runs (as lodctr does):
# the source closes and reopens HKEY_PERFORMANCE_DATA, values continue.
PERFLIB='HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion\Perflib'
# (not wrun: its tr would hold the output back until the end)
timeout 300 wine "$EXE" query --verbose --interval 0.5 --count 16 '\2\250' \
  >"$TMP/reload.txt" 2>"$TMP/reload.err" &
reload_pid=$!
for _ in $(seq 1 600); do # wait for the first report (at most 60 s)
  grep -q 42 "$TMP/reload.txt" 2>/dev/null && break
  sleep 0.1
done
wrun reg add "$PERFLIB" /v 'Last Counter' /t REG_DWORD /d 9999 /f >/dev/null 2>&1
wait "$reload_pid"
check $? "live query across a counter-table change"
grep -q ' 1 reloads' "$TMP/reload.err"
check $? "the source reloaded once ($(grep -o '[0-9]* reloads' "$TMP/reload.err"))"
[ "$(grep -c '42' "$TMP/reload.txt")" -eq 16 ]
check $? "all 16 reports have the value, before and after the reload"

# ------------------------------------------------------- index lists
objects_in() { # the ObjectNameTitleIndex list of a blob, via the Linux tool
  "$LINUX_WINPERF" dump "$1" | awk '/^object / { printf "%s%s", s, $2; s = " " }'
}
for q in "2" "238 230" "230 238" "Global" "Costly" "999"; do
  case "$q" in
  Global) want="238 2 230" ;; Costly | 999) want="" ;; "230 238") want="238 230" ;;
  *) want=$q ;;
  esac
  d="$TMP/q-${q// /-}"
  if wrun "$EXE" capture --dir "$(winpath "$d")" --objects "$q" --count 1 \
    >/dev/null 2>"$TMP/q.err"; then
    got=$(objects_in "$d/000001.blob")
    [ "$got" = "$want" ]
    check $? "query \"$q\" returns objects [$want] (got [$got])"
  else
    nok "capture --objects \"$q\""
    diag <"$TMP/q.err"
  fi
done

# ------------------------------------------- capture, replayed on Linux
C="$TMP/capture"
# A process's first queries are the slowest (doc/wine.md): the replay uses
# samples 3 and 5.
wrun "$EXE" capture --dir "$(winpath "$C")" --count 5 --interval 4 \
  --objects "238 2 230" >/dev/null 2>"$TMP/cap.err"
check $? "winperf capture: 5 samples 4 s apart"
missing=""
for f in 000001.blob 000002.blob 000003.blob 000004.blob 000005.blob names.multisz \
  names-local.multisz; do
  [ -s "$C/$f" ] || missing="$missing $f"
done
[ -z "$missing" ]
check $? "capture wrote the blobs and both name tables${missing:+ (missing:$missing)}"
"$LINUX_WINPERF" query --names "$C/names.multisz" "$C/000003.blob" \
  "$C/000005.blob" "${PATHS[@]}" >"$TMP/replay.txt" 2>"$TMP/replay.err"
check $? "Linux winperf replays the capture (sample 3 -> 5, 8 s)"
diag <"$TMP/replay.err"
check_values "$TMP/replay.txt" "replay" 0 "$EXACT"
check_values "$TMP/replay.txt" "replay" 0.05 "$NEAR"
wrun "$EXE" query --names "$(winpath "$C/names.multisz")" \
  "$(winpath "$C/000003.blob")" "$(winpath "$C/000005.blob")" \
  "${PATHS[@]}" >"$TMP/replay-win.txt" 2>&1
if cmp -s "$TMP/replay.txt" "$TMP/replay-win.txt"; then
  ok "winperf.exe and the Linux winperf print the same values for the capture"
else
  nok "winperf.exe and the Linux winperf print the same values for the capture"
  diff "$TMP/replay.txt" "$TMP/replay-win.txt" | head -20 | diag
fi

finish
