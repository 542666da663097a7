#!/bin/bash
# collectd-winperf: instruction counts per value, with callgrind.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   tests/bench/instructions.sh BENCH            (make bench runs it)
#   tests/bench/instructions.sh --check BENCH    (make bench-check)
#
# Counts the instructions of the bench_measured_* functions of `bench
# --instructions CASE` (callgrind's --toggle-collect), which do not depend
# on the machine's load as times do, and prints them per round and per
# value. Two hosts: the bench's ~2.3 MB host (Memory, Processor x17,
# Process x1,000, Thread x13,000), decoded whole, for decode-read and the
# interval-names/-numeric/-churn/-moved cases; and the threads host
# (bench.c: Windows' counter sets, ID Process and ID Thread, 34,060
# values) for interval-threads(-numeric). An interval case's figure is
# per matched value beyond its own host's decode.
#
# --check compares each figure with its ceiling in tests/bench/ceilings.txt
# (one TAP line a case) and exits 1 when one is above. The figures are
# those of a release build (gcc -O2, NDEBUG: no debug-build checks), as
# `./configure` makes by default. The runs go nproc at a time.
set -euo pipefail
check=false
if [ "${1:-}" = --check ]; then
  check=true
  shift
fi
bench=${1:?usage: instructions.sh [--check] path/to/bench}
top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
NEED_FAIL=need_fail_die
# shellcheck source-path=SCRIPTDIR source=../lib/need.sh
. "$top_srcdir/tests/lib/need.sh"
need valgrind
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cases="decode decode-read interval-names interval-numeric interval-churn
interval-moved decode-threads interval-threads interval-threads-numeric"

# Every case under callgrind, nproc at a time: $tmp/CASE.out (values,
# rounds) and $tmp/CASE.cg (callgrind's totals).
run_case() {
  valgrind --tool=callgrind --callgrind-out-file="$2/$1.cg" \
    --instr-atstart=no --toggle-collect='bench_measured_*' \
    "$3" --instructions "$1" \
    >"$2/$1.out" 2>"$2/$1.err" || {
    cat "$2/$1.err" >&2
    exit 1
  }
}
export -f run_case
# shellcheck disable=SC2086 # the case names are words
printf '%s\n' $cases |
  xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} bash -c \
    'run_case "$1" "$2" "$3"' _ {} "$tmp" "$bench"

# per CASE: sets ir (instructions per round) and values (per round).
per() {
  local rounds total
  rounds=$(awk '$1 == "rounds" {print $2}' "$tmp/$1.out")
  values=$(awk '$1 == "values" {print $2}' "$tmp/$1.out")
  # totals: (summary: is 0 when instrumentation starts late)
  total=$(awk '$1 == "totals:" {t = $2} $1 == "summary:" && s == "" {s = $2}
               END {print (t != "" ? t : s) + 0}' "$tmp/$1.cg")
  ir=$((total / rounds))
}

baseline="$top_srcdir/tests/bench/baseline.txt"
ceilings="$top_srcdir/tests/bench/ceilings.txt"
# before CASE: the recorded figures of CASE, one column per commit.
before() {
  awk -v c="$1" '$1 == c {for (i = 2; i <= NF; i++) printf "  %8s", $i}' "$baseline"
}
heads=$(awk '$1 == "commits" {for (i = 2; i <= NF; i++) printf "  %8s", $i}' "$baseline")

per decode
decode_ir=$ir
raw_values=$values
per decode-threads
threads_decode_ir=$ir
figures="$tmp/figures"
: >"$figures"
printf 'instructions (callgrind), per round, 2.3 MB host blob, %d raw values\n' \
  "$raw_values"
printf '  %-31s %12s  %7s%s\n' "case" "per round" "now" "$heads"
awk -v l=decode -v ir="$decode_ir" -v v="$raw_values" \
  'BEGIN {printf "  %-31s %12d  %7.1f  per raw value\n", l, ir, ir / v}'
per decode-read
awk -v l="decode + read every raw value" -v ir="$ir" -v v="$raw_values" \
  -v b="$(before decode-read)" \
  'BEGIN {printf "  %-31s %12d  %7.1f%s  per raw value\n", l, ir, ir / v, b}'
awk -v ir="$ir" -v v="$raw_values" 'BEGIN {printf "decode-read %.1f\n", ir / v}' >>"$figures"
for c in interval-names interval-numeric interval-churn interval-moved \
  interval-threads interval-threads-numeric; do
  per "$c"
  d=$decode_ir
  case $c in *threads*) d=$threads_decode_ir ;; esac
  awk -v l="$c" -v ir="$ir" -v d="$d" -v v="$values" -v b="$(before "$c")" \
    'BEGIN {printf "  %-31s %12d  %7.1f%s  per matched value beyond the decode (%d values)\n", l, ir, (ir - d) / v, b, v}'
  awk -v c="$c" -v ir="$ir" -v d="$d" -v v="$values" \
    'BEGIN {printf "%s %.1f\n", c, (ir - d) / v}' >>"$figures"
done

$check || exit 0
# One TAP line a case: its figure against its ceiling.
echo "1..$(grep -c '^[a-z]' "$ceilings")"
awk 'NR == FNR {got[$1] = $2; next}
     /^[a-z]/ {
       n++
       if (!($1 in got)) {
         printf "not ok %d - %s: no figure\n", n, $1; bad = 1; next
       }
       ok = got[$1] > 0 && got[$1] <= $2 # 0: nothing was counted
       printf "%s %d - %s: %.1f instructions a value (ceiling %s)\n",
         ok ? "ok" : "not ok", n, $1, got[$1], $2
       if (!ok) bad = 1
     }
     END {exit bad}' "$figures" "$ceilings"
