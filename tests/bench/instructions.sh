#!/bin/bash
# collectd-winperf: instruction counts per value, with callgrind.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   tests/bench/instructions.sh BENCH   (make bench runs it)
#
# Counts the instructions of the bench_measured_* functions of `bench
# --instructions CASE` (callgrind's --toggle-collect), which do not depend
# on the machine's load as times do, and prints them per round and per
# value. The blob: the bench's ~2.3 MB host (Memory, Processor x17,
# Process x1,000, Thread x13,000), decoded whole.
set -euo pipefail
bench=${1:?usage: instructions.sh path/to/bench}
top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
NEED_FAIL=need_fail_die
# shellcheck source-path=SCRIPTDIR source=../lib/need.sh
. "$top_srcdir/tests/lib/need.sh"
need valgrind
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# count CASE: sets ir (instructions per round) and values (per round).
count() {
  local out="$tmp/$1.out" cg="$tmp/$1.cg"
  valgrind --tool=callgrind --callgrind-out-file="$cg" \
    --toggle-collect='bench_measured_*' "$bench" --instructions "$1" \
    >"$out" 2>"$tmp/$1.err" || {
    cat "$tmp/$1.err" >&2
    exit 1
  }
  local rounds total
  rounds=$(awk '$1 == "rounds" {print $2}' "$out")
  values=$(awk '$1 == "values" {print $2}' "$out")
  total=$(awk '$1 == "summary:" || $1 == "totals:" {print $2; exit}' "$cg")
  ir=$((total / rounds))
}

baseline="$top_srcdir/tests/bench/baseline.txt"
# before CASE: the recorded figures of CASE, one column per commit.
before() {
  awk -v c="$1" '$1 == c {for (i = 2; i <= NF; i++) printf "  %8s", $i}' "$baseline"
}
heads=$(awk '$1 == "commits" {for (i = 2; i <= NF; i++) printf "  %8s", $i}' "$baseline")

count decode
decode_ir=$ir
raw_values=$values
count decode-read
printf 'instructions (callgrind), per round, 2.3 MB host blob, %d raw values\n' \
  "$raw_values"
printf '  %-31s %12s  %7s%s\n' "case" "per round" "now" "$heads"
awk -v l=decode -v ir="$decode_ir" -v v="$raw_values" \
  'BEGIN {printf "  %-31s %12d  %7.1f  per raw value\n", l, ir, ir / v}'
awk -v l="decode + read every raw value" -v ir="$ir" -v v="$raw_values" \
  -v b="$(before decode-read)" \
  'BEGIN {printf "  %-31s %12d  %7.1f%s  per raw value\n", l, ir, ir / v, b}'
for c in interval-names interval-numeric interval-churn interval-moved; do
  count "$c"
  awk -v l="$c" -v ir="$ir" -v d="$decode_ir" -v v="$values" -v b="$(before "$c")" \
    'BEGIN {printf "  %-31s %12d  %7.1f%s  per matched value beyond the decode (%d values)\n", l, ir, (ir - d) / v, b, v}'
done
