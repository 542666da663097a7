# shellcheck shell=sh
# collectd-winperf: minimal TAP for shell tests (sourced).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   ok STATUS DESCRIPTION   "ok N - ..." when STATUS is 0, else "not ok N - ..."
#   diag                    stdin as "# " lines (empty lines dropped)
#   tap_done                the plan; status 1 if anything failed
tap_n=0
tap_failed=0
ok() {
  tap_n=$((tap_n + 1))
  if [ "$1" -eq 0 ]; then echo "ok $tap_n - $2"; else
    echo "not ok $tap_n - $2"
    tap_failed=$((tap_failed + 1))
  fi
}
diag() { sed '/^$/d; s/^/# /'; }
tap_done() {
  echo "1..$tap_n"
  [ "$tap_failed" -eq 0 ]
}
