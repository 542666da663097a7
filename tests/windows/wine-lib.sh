# shellcheck shell=bash
# shellcheck disable=SC2154 # top_srcdir, top_builddir: the sourcing test sets them
# collectd-winperf: what the Wine tests share (sourced by tests/windows/
# wine.sh, wine-cases.sh and capture-renumber.sh; bash).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   wl_build          cross-build the project with mingw-w64 in
#                     $top_builddir/win64 (one build at a time: make check
#                     runs the Wine scripts in parallel); sets W, EXE, DLL
#   wl_prefix         a fresh WINEPREFIX under TMP (removed at exit) and a
#                     wineserver kept up
#   wl_register SERVICE OPEN COLLECT [LINE...]
#                     register the test provider DLL as SERVICE's V1
#                     provider with those exports (Close: ClosePerfData);
#                     each LINE is one more .reg line under its Performance
#                     key, e.g. '"Object List"="5000"'
#   wrun PROG ARG...  wine with the console's CRs stripped; its exit status
#   winpath PATH      the Z: path of a Linux path
#   wl_setup          wl_prefix and wl_build as TAP tests (the end of the
#                     test when one fails), after waiting for any other
#                     Wine test of this build to end (wine.sh's checks of
#                     Wine's clocks suffer from a second Wine test loading
#                     the machine)
#   ok, nok, check STATUS MSG, diag, finish: TAP
# The caller has sourced tests/lib/need.sh; wl_build and wl_prefix return
# non-zero on failure with the log's tail on stdout.

need wine wineboot wineserver x86_64-w64-mingw32-gcc make

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() {
  n=$((n + 1))
  failed=$((failed + 1))
  echo "not ok $n - $*"
}
diag() { sed 's/^/# /'; }
finish() {
  echo "1..$n"
  [ "$failed" -eq 0 ]
  exit $?
}
check() { # check COND-STATUS MESSAGE
  if [ "$1" -eq 0 ]; then ok "$2"; else nok "$2"; fi
}

# Nothing of the Linux build's compiler settings or make flags (CC=clang,
# sanitizer flags, a jobserver) may leak into the cross build.
wl_xenv() {
  env -u CC -u CFLAGS -u CPPFLAGS -u LDFLAGS -u LIBS -u MAKEFLAGS -u MFLAGS \
    -u MAKELEVEL -u PKG_CONFIG_PATH "$@"
}

wl_build() {
  W="$top_builddir/win64"
  mkdir -p "$W"
  (
    flock 9
    if [ ! -f "$W/Makefile" ]; then
      (cd "$W" && wl_xenv "$top_srcdir/configure" --host=x86_64-w64-mingw32 \
        --enable-werror --disable-plugin) >"$W/configure.log" 2>&1 || exit 1
    fi
    (cd "$W" && wl_xenv make -j2) >"$W/build.log" 2>&1
  ) 9>"$top_builddir/win64.lock" || {
    tail -30 "$W/build.log" "$W/configure.log" 2>/dev/null
    return 1
  }
  EXE="$W/.libs/winperf.exe"
  [ -f "$EXE" ] || EXE="$W/winperf.exe"
  DLL="$W/tests/windows/.libs/winperf_test_provider.dll"
  [ -f "$EXE" ] && [ -f "$DLL" ]
}

winpath() { printf 'Z:%s' "$1" | tr / '\\'; }

wrun() {
  local rc
  timeout 300 wine "$@" | tr -d '\r'
  rc=${PIPESTATUS[0]}
  return "$rc"
}

wl_prefix() {
  TMP=$(mktemp -d "${TMPDIR:-/tmp}/winperf-wine.XXXXXX")
  export WINEPREFIX="$TMP/pfx" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
  unset DISPLAY WAYLAND_DISPLAY
  trap wl_cleanup EXIT
  timeout 300 wine wineboot --init >"$TMP/boot.log" 2>&1 || {
    tail -20 "$TMP/boot.log"
    return 1
  }
  wineserver -p >/dev/null 2>&1 # keep the server: each run starts fast
  return 0
}

wl_setup() {
  local log="${TMPDIR:-/tmp}/winperf-wine-setup.$$.log"
  wl_lock
  if wl_prefix >"$log"; then
    ok "fresh WINEPREFIX"
  else
    nok "fresh WINEPREFIX (wineboot --init)"
    diag <"$log"
    rm -f "$log"
    finish
  fi
  if wl_build >"$log"; then
    ok "mingw-w64 cross build (-Werror) in win64/"
  else
    nok "mingw-w64 cross build (-Werror) in win64/"
    diag <"$log"
    rm -f "$log"
    finish
  fi
  rm -f "$log"
}

wl_cleanup() {
  wineserver -k >/dev/null 2>&1
  rm -rf "$TMP"
  [ -z "${WL_LOCKED:-}" ] || rm -rf "$WL_LOCKED"
}

# wl_lock: one Wine test of this build at a time (a directory holding the
# owner's pid; a dead owner's is removed). No file descriptor is held: Wine's
# daemons would inherit it.
wl_lock() {
  local d="$top_builddir/wine.lock.d" pid
  until mkdir "$d" 2>/dev/null; do
    pid=$(cat "$d/pid" 2>/dev/null)
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
      rm -rf "$d"
      continue
    fi
    sleep 1
  done
  echo $$ >"$d/pid"
  WL_LOCKED=$d
}

wl_register() {
  local service=$1 open=$2 collect=$3 lib line reg
  shift 3
  lib=$(winpath "$DLL" | sed 's/\\/\\\\/g')
  reg="$TMP/$service.reg"
  {
    printf 'REGEDIT4\r\n\r\n[HKEY_LOCAL_MACHINE\\System\\CurrentControlSet\\Services\\%s\\Performance]\r\n' \
      "$service"
    printf '"Library"="%s"\r\n"Open"="%s"\r\n"Collect"="%s"\r\n"Close"="ClosePerfData"\r\n' \
      "$lib" "$open" "$collect"
    for line in "$@"; do printf '%s\r\n' "$line"; done
  } >"$reg"
  # Checked, and tried again: under load an import was seen to be lost.
  local try
  for try in 1 2 3; do
    wrun regedit /S "$(winpath "$reg")" >"$TMP/regedit.log" 2>&1
    wrun reg query "HKLM\\System\\CurrentControlSet\\Services\\$service\\Performance" \
      /v Collect >"$TMP/regquery.log" 2>&1
    grep -q "$collect" "$TMP/regquery.log" && return 0
    echo "# wl_register $service, try $try: not registered" >&2
    sed 's/^/#   /' "$TMP/regedit.log" "$TMP/regquery.log" >&2
    sleep 1
  done
  return 1
}

# wl_capture_renumber DIR: register the renumbering provider (provider.c,
# sample counter reset to 0) and `winperf.exe capture` two samples of
# object 230 into DIR (000001.blob, 000002.blob and Wine's name tables).
wl_capture_renumber() {
  wl_register WinperfRenumber OpenPerfData CollectRenumberPerfData \
    '"Object List"="230"' '"Renumber Sample"=dword:00000000' || return 1
  wrun "$EXE" capture --dir "$(winpath "$1")" --count 2 --interval 1 \
    --objects 230
}
