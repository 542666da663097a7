#!/bin/sh
# collectd-winperf: every fuzz target's function over its committed corpus
# (tests/fuzz/corpus/TARGET), every input a fuzzer ever flagged
# (tests/fuzz/regressions/TARGET) and fresh seeds, each with its prefixes,
# without libFuzzer: in every build, and under ASan/UBSan in the clang
# sanitizer build. TAP.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
b=${top_builddir:-.}
s=${top_srcdir:-.}/tests/fuzz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
targets="perfdata v2 text rpc frame yaml blg"
echo "1..8"
if "$b/tests/fuzz/make_seeds" "$work" "${top_srcdir:-.}"; then
  counts=
  bad=0
  for t in $targets; do
    n=$(ls "$work/$t" 2>/dev/null | wc -l)
    [ "$n" -ge 3 ] || bad=1
    counts="$counts $t $n"
  done
  if [ $bad = 0 ]; then
    echo "ok 1 - seeds written:$counts"
  else
    echo "not ok 1 - seeds written:$counts (3 or more each expected)"
  fi
else
  echo "not ok 1 - make_seeds failed"
fi
i=1
for t in $targets; do
  i=$((i + 1))
  prog=$b/tests/fuzz/corpus_$t
  if [ ! -x "$prog" ]; then
    echo "ok $i - $t # SKIP not built in this configuration"
    continue
  fi
  dirs="$work/$t"
  for d in "$s/corpus/$t" "$s/regressions/$t"; do
    [ -d "$d" ] && dirs="$dirs $d"
  done
  if out=$("$prog" $dirs 2>&1); then
    echo "ok $i - $t: corpus, regressions and seeds with their prefixes: $out"
  else
    echo "not ok $i - $t: corpus, regressions and seeds"
    # Name the input that fails.
    # shellcheck disable=SC2086 # dirs: a list of directories
    find $dirs -type f ! -name '.*' | while IFS= read -r f; do
      if ! "$prog" "$f" >/dev/null 2>&1; then
        echo "# fails on $f"
        break
      fi
    done
    echo "$out" | sed 's/^/# /' | tail -20
  fi
done
