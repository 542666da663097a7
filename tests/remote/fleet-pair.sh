#!/bin/bash
# collectd-winperf: the two long fleet tests side by side.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# fleet-faults.sh (90 s at Interval 1) and fleet-lockout.sh (40 s of a
# wrong password, then the fix) spend most of their time waiting for
# intervals to pass, each with its own smbd, user, collectd and (faults)
# network namespace: run together they hold one job of `make check -j`
# for the longer one's time instead of both. Their TAP lines follow, each
# prefixed with its test's name, renumbered; each stays runnable alone.
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/winperf-pair.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
bash "$dir/fleet-faults.sh" >"$tmp/faults" 2>&1 &
faults=$!
bash "$dir/fleet-lockout.sh" >"$tmp/lockout" 2>&1 &
lockout=$!
wait "$faults"
st_faults=$?
wait "$lockout"
st_lockout=$?
n=0
for t in faults lockout; do
  while IFS= read -r line; do
    case $line in
    "ok "* | "not ok "*)
      n=$((n + 1))
      word=ok
      [ "${line%% *}" = not ] && word="not ok"
      echo "$word $n - $t: ${line#* - }"
      ;;
    1..*) ;;
    *) echo "$line" ;;
    esac
  done <"$tmp/$t"
done
echo "1..$n"
[ "$st_faults" = 0 ] && [ "$st_lockout" = 0 ]
