#!/bin/sh
# collectd-winperf: run the libFuzzer targets (make fuzz-long, fuzz-smoke).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   fuzz.sh long  SECONDS JOBS TARGET...
#       each target SECONDS with -fork=JOBS from its committed corpus and
#       fresh seeds; the new inputs are merged, minimized, into
#       $top_srcdir/tests/fuzz/corpus/TARGET and every finding is copied to
#       $top_srcdir/tests/fuzz/regressions/TARGET (never thrown away)
#   fuzz.sh smoke 0 JOBS TARGET...
#       a short run of each from a copy of its committed corpus (CI), JOBS
#       targets at a time; the tree is not modified, findings stay in
#       $FUZZ_WORK/smoke
# One line per target: executions, time, corpus files and bytes, findings.
# Run from the build directory (the fuzzers are tests/fuzz/fuzz_TARGET, the
# seeds $FUZZ_WORK/seeds/TARGET from make fuzz-seeds). Exit 1 on a finding.
mode=$1 time=$2 jobs=$3
shift 3
src=${top_srcdir:-.}/tests/fuzz
work=${FUZZ_WORK:-fuzz-work}

# Longest input per target: the largest valid seed with room to grow, and a
# corpus of at most a few MB.
max_len() {
  case $1 in
  perfdata) echo 8192 ;;
  blg) echo 8192 ;;
  frame) echo 4200 ;;
  text) echo 2048 ;;
  *) echo 4096 ;;
  esac
}

# Smoke seconds per target: about 2 minutes in all.
smoke_time() {
  case $1 in
  perfdata) echo 30 ;;
  *) echo 15 ;;
  esac
}

count_files() { find "$1" -type f ! -name '.*' 2>/dev/null | wc -l; }
count_bytes() { find "$1" -type f ! -name '.*' -exec cat {} + 2>/dev/null | wc -c; }

# Executions from a libFuzzer log: the last "#N:" status line of a fork
# run, else the final stats or the last "#N" line of a plain run.
execs() {
  n=$(grep -aoE '^#[0-9]+:' "$1" | tail -1 | tr -d '#:')
  [ -n "$n" ] || n=$(grep -aoE 'stat::number_of_executed_units: [0-9]+' "$1" |
    tail -1 | awk '{print $2}')
  [ -n "$n" ] || n=$(grep -aoE '^#[0-9]+' "$1" | tail -1 | tr -d '#')
  echo "${n:-0}"
}

# one TARGET: run it, print its line (and its findings), and leave
# "FINDINGS MERGE-FAILED" in $work/$mode/TARGET.result.
one() {
  t=$1
  merge_failed=0
  bin=tests/fuzz/fuzz_$t
  corpus=$src/corpus/$t
  seeds=$work/seeds/$t
  len=$(max_len "$t")
  dict=
  [ -f "$src/$t.dict" ] && dict=-dict=$src/$t.dict
  mkdir -p "$corpus" "$seeds"
  if [ "$mode" = smoke ]; then
    w=$work/smoke/$t
    rm -rf "$w" && mkdir -p "$w/corpus" "$w/artifacts"
    cp "$corpus"/* "$w/corpus/" 2>/dev/null
    secs=$(smoke_time "$t")
    start=$(date +%s)
    "$bin" -max_total_time="$secs" -max_len="$len" $dict -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$w/artifacts/" "$w/corpus" "$seeds" >"$w/log" 2>&1
    rc=$?
    cdir=$w/corpus
  else
    w=$work/long/$t
    rm -rf "$w" && mkdir -p "$w/new" "$w/merged" "$w/artifacts"
    secs=$time
    start=$(date +%s)
    # -fork: the first directory gets the new inputs; crashes, timeouts and
    # out-of-memory inputs are saved as artifacts and the run goes on.
    "$bin" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 \
      -ignore_ooms=1 -max_total_time="$secs" -max_len="$len" $dict \
      -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$w/artifacts/" "$w/new" "$corpus" "$seeds" \
      >"$w/log" 2>&1
    rc=0
    # Minimize the union into the committed corpus.
    if "$bin" -merge=1 -max_len="$len" -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$w/artifacts/" "$w/merged" "$corpus" "$seeds" \
      "$w/new" >"$w/merge.log" 2>&1 && [ "$(count_files "$w/merged")" -gt 0 ]; then
      find "$corpus" -type f ! -name '.*' -delete
      cp "$w/merged"/* "$corpus/"
    else
      echo "fuzz-long: $t: merge failed, corpus left as it was ($w/merge.log)" >&2
      merge_failed=1
    fi
    cdir=$corpus
  fi
  elapsed=$(($(date +%s) - start))
  findings=$(find "$w/artifacts" -type f | wc -l)
  if [ "$mode" = long ] && [ "$findings" -gt 0 ]; then
    mkdir -p "$src/regressions/$t"
    cp "$w/artifacts"/* "$src/regressions/$t/"
  fi
  if [ "$mode" = smoke ] && [ "$rc" -ne 0 ] && [ "$findings" -eq 0 ]; then
    findings=1 # died without an artifact: see the log
  fi
  printf 'fuzz-%s: %-8s %12s execs %6s s  corpus %5s files %9s bytes  %s findings\n' \
    "$mode" "$t" "$(execs "$w/log")" "$elapsed" "$(count_files "$cdir")" \
    "$(count_bytes "$cdir")" "$findings"
  if [ "$findings" -gt 0 ]; then
    find "$w/artifacts" -type f | sed 's/^/    /'
    grep -aE 'ERROR: |runtime error|SUMMARY' "$w/log" | head -5 | sed 's/^/    /'
  fi
  mkdir -p "$work/$mode"
  echo "$findings $merge_failed" >"$work/$mode/$t.result"
}

# Smoke: JOBS targets at a time (a libFuzzer run without -fork is one
# process on one core; each target still runs its seconds), the lines in
# the targets' order. Long: one target after another (each forks JOBS).
targets=$*
for t in $targets; do rm -f "$work/$mode/$t.result"; done
if [ "$mode" = smoke ] && [ "$jobs" -gt 1 ]; then
  mkdir -p "$work/smoke"
  while [ $# -gt 0 ]; do
    wave=
    i=0
    while [ $# -gt 0 ] && [ "$i" -lt "$jobs" ]; do
      one "$1" >"$work/smoke/$1.out" 2>&1 &
      wave="$wave $1"
      i=$((i + 1))
      shift
    done
    wait
    for t in $wave; do cat "$work/smoke/$t.out"; done
  done
else
  for t in $targets; do one "$t"; done
fi
status=0
total_findings=0
for t in $targets; do
  f=1 m=0 # no result: the run died, a finding
  [ -f "$work/$mode/$t.result" ] && read -r f m <"$work/$mode/$t.result"
  [ "$f" -eq 0 ] && [ "$m" -eq 0 ] || status=1
  total_findings=$((total_findings + f))
done
n=0
for t in $targets; do n=$((n + 1)); done
echo "fuzz-$mode: $n targets, $total_findings findings"
exit $status
