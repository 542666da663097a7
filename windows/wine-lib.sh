# shellcheck shell=bash
# collectd-winperf: Wine helpers for the windows/ tests (sourced after
# tests/e2e/lib.sh and e2e_init). Copyright (c) 2026 the collectd-winperf
# authors. SPDX-License-Identifier: MIT

winpath() { printf 'Z:%s' "$1" | tr / '\\'; }

# wine_prefix_init: a fresh WINEPREFIX in $E2E_DIR/pfx (one TAP line), a
# persistent wineserver, killed at exit with the e2e cleanup.
wine_prefix_init() {
  need wine wineboot wineserver
  export WINEPREFIX="$E2E_DIR/pfx" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
  unset DISPLAY WAYLAND_DISPLAY
  trap 'wineserver -k >/dev/null 2>&1; e2e_cleanup' EXIT
  timeout 300 wine wineboot --init >"$E2E_DIR/boot.log" 2>&1
  e2e_ok $? "fresh WINEPREFIX"
  wineserver -p >/dev/null 2>&1
}

# wine_register_provider DLL: the test V1 performance provider's
# Performance key (Library and the three exports), as tests/windows/wine.sh
# registers it.
wine_register_provider() {
  _lib=$(winpath "$1" | sed 's/\\/\\\\/g')
  printf 'REGEDIT4\r\n\r\n[HKEY_LOCAL_MACHINE\\System\\CurrentControlSet\\Services\\WinperfTest\\Performance]\r\n"Library"="%s"\r\n"Open"="OpenPerfData"\r\n"Collect"="CollectPerfData"\r\n"Close"="ClosePerfData"\r\n' \
    "$_lib" >"$E2E_DIR/provider.reg"
  timeout 120 wine regedit /S "$(winpath "$E2E_DIR/provider.reg")" >/dev/null 2>&1
  timeout 120 wine reg query 'HKLM\System\CurrentControlSet\Services\WinperfTest\Performance' \
    /v Collect 2>/dev/null | grep -q CollectPerfData
}

# ------------------------------------------------ the provider's values
# What collectd dispatches for the test provider's objects (the expectations
# of tests/windows/wine.sh, fixed by the provider's rates), one
# "series want" per line; a series is "winperf-<object>[-<instance>].gauge-
# <counter>" (numeric paths: Wine's name table is a stub). WINE_EXACT: on
# the provider's own object clock, exact in every interval; WINE_NEAR: on
# the clocks Wine stamps, checked by the median within 1 %.
WINE_EXACT='winperf-238-0.gauge-10001 25
winperf-238-1.gauge-10001 50
winperf-238-_Total.gauge-10001 37.5
winperf-2.gauge-10002 3.5
winperf-2.gauge-674 12345
winperf-2.gauge-250 42
winperf-2.gauge-10004 12.5
winperf-230-Idle.gauge-10003 10
winperf-230-svchost.gauge-10003 20
winperf-230-svchost#1.gauge-10003 30
winperf-230-winperf.gauge-10003 40
winperf-230-Idle.gauge-784 0
winperf-230-svchost#1.gauge-784 200'
WINE_NEAR='winperf-238-0.gauge-6 25
winperf-238-1.gauge-6 50
winperf-238-_Total.gauge-6 37.5
winperf-230-winperf.gauge-6 40'
export WINE_EXACT WINE_NEAR

# wine_counters_yaml FILE: the counter list that yields those series.
wine_counters_yaml() {
  cat >"$1" <<'YAML'
# the test provider's objects: Processor 238, System 2, Process 230
- \238(*)\10001
- \238(*)\6
- \2\10002
- \2\674
- \2\250
- \2\10004
- \230(*)\10003
- \230(Idle)\784
- \230(svchost#1)\784
- \230(winperf)\6
YAML
}

# wine_check VALUES WHERE RULE LIST: for each "series want" of LIST, the
# values `VALUES series` prints (oldest first, one per line) after the first
# (the first sample of a process is skewed under Wine): 3 or more, and with
# RULE "exact" all equal want; with RULE a fraction, their median within
# that fraction of want (a sample on Wine's clocks is right within the
# object clock's 10 ms quantum unless the loaded machine stalls the process
# between Wine's time stamp and the provider's clock reading: a 10 s read
# was seen). WHERE names the store in the TAP lines.
wine_check() {
  local series want vals n verdict what
  while read -r series want; do
    vals=$("$1" "$series" | tail -n +2 | grep .)
    n=$(printf '%s\n' "$vals" | grep -c .)
    if [ "$3" = exact ]; then
      verdict=$(printf '%s\n' "$vals" | awk -v w="$want" -v n="$n" '
        NF && $1 + 0 != w + 0 { bad = 1 } END { print (n >= 3 && !bad) ? "ok" : "bad" }')
      what="exact: $2 $series = $want in all $n intervals after the first"
    else
      verdict=$(printf '%s\n' "$vals" | sort -g | awk -v w="$want" -v t="$3" '
        NF { v[++n] = $1 } END {
          if (n < 3) { print "bad"; exit }
          m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
          d = m - w; if (d < 0) d = -d
          print (d <= t * w ? "ok" : "bad") " " m }')
      what="near: $2 $series: median ${verdict#* } of the $n intervals after the first within $3 of $want"
    fi
    if [ "${verdict%% *}" = ok ]; then
      e2e_ok 0 "$what"
    else
      e2e_ok 1 "$what"
      printf 'values: %s\n' "$("$1" "$series" | tr '\n' ' ')" | e2e_diag
    fi
  done <<<"$4"
}

# wine_whisper_points FILE: non-empty whisper slots of the last 10 minutes.
wine_whisper_points() {
  need whisper-fetch jq
  [ -f "$1" ] || {
    echo 0
    return
  }
  /usr/bin/whisper-fetch --json --from=$(($(date +%s) - 600)) "$1" 2>/dev/null |
    jq '[.values[] | select(. != null)] | length'
}

# ------------------------------------------------------------- services
# wine_procs PATTERN: "pid command line" of this prefix's Windows processes
# whose command line matches PATTERN (grep -E), found through /proc: a
# Windows process under Wine is a Linux process with WINEPREFIX in its
# environment and its Windows command line ("C:\...") as its own.
wine_procs() {
  local env p cmd
  for env in $(grep -lszxF "WINEPREFIX=$WINEPREFIX" /proc/[0-9]*/environ); do
    p=${env%/environ}
    cmd=$(tr '\0' ' ' 2>/dev/null <"$p/cmdline" | sed 's/ *$//')
    case $cmd in [A-Za-z]:\\*) ;; *) continue ;; esac
    printf '%s\n' "$cmd" | grep -qE "$1" && printf '%s %s\n' "${p#/proc/}" "$cmd"
  done
  return 0
}

# wine_service_state NAME: RUNNING, STOPPED, START_PENDING, ... as
# `sc query` shows it, or NONE when the service does not exist.
wine_service_state() {
  local out
  out=$(timeout 60 wine sc query "$1" 2>/dev/null | tr -d '\r')
  printf '%s\n' "$out" | awk '$1 == "STATE" { print $4; found = 1 } END { if (!found) print "NONE" }'
}

# wine_service_is NAME STATE: for e2e_wait_for.
wine_service_is() { [ "$(wine_service_state "$1")" = "$2" ]; }

# wine_services_pipe_timeout MS: how long services.exe waits for a service
# process to connect (Windows and Wine read the same value at start; Wine's
# default, 10 s, is too short for a cold prefix on a loaded machine). The
# wineserver is restarted so that services.exe reads it.
wine_services_pipe_timeout() {
  timeout 120 wine reg add 'HKLM\System\CurrentControlSet\Control' /v ServicesPipeTimeout \
    /t REG_DWORD /d "$1" /f >/dev/null 2>&1 || return 1
  wineserver -k >/dev/null 2>&1
  wineserver -w >/dev/null 2>&1
  wineserver -p >/dev/null 2>&1
  timeout 300 wine wineboot >/dev/null 2>&1
}
