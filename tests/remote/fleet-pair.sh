#!/bin/bash
# collectd-winperf: the fleet's 90-second fault test beside the light fleet
# tests.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# fleet-faults.sh spends 90 s waiting for intervals to pass (20 hosts at
# Interval 1, about 15 reads a second). Beside it, one after the other,
# run the fleet tests that ask little of the machine: fleet-inventory.sh
# (a handful of hosts), fleet-clock.sh (one), fleet-connects.sh (eight,
# mostly waiting on two relays) and tests/doc/examples.sh (collectd -T, no
# host). Each has its own smbd, user, collectd and
# directories (fleet-faults.sh its own network namespace), so together they
# hold one job of `make check -j` for the fault test's time instead of all
# of theirs. Their TAP lines follow, each prefixed with its test's name,
# renumbered; each test stays runnable alone.
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/winperf-pair.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
bash "$dir/fleet-faults.sh" >"$tmp/faults" 2>&1 &
faults=$!
status=0
for t in fleet-inventory fleet-clock fleet-connects ../doc/examples; do
  bash "$dir/$t.sh" >"$tmp/$(basename "$t")" 2>&1 || status=1
done
wait "$faults" || status=1
n=0
for t in faults fleet-inventory fleet-clock fleet-connects examples; do
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
exit "$status"
