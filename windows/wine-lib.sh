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
