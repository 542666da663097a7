#!/bin/sh
# collectd-winperf: the fuzz seed corpus (and every prefix of each input)
# through both fuzz targets' functions, without libFuzzer. TAP.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
b=${top_builddir:-.}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/perfdata" "$work/text"
echo "1..3"
if "$b/tests/fuzz/make_seeds" "$work/perfdata" "$work/text" &&
  [ "$(ls "$work/perfdata" | wc -l)" -ge 5 ] && [ "$(ls "$work/text" | wc -l)" -ge 5 ]; then
  echo "ok 1 - seed corpus written ($(ls "$work/perfdata" | wc -l) blob pairs, $(ls "$work/text" | wc -l) texts)"
else
  echo "not ok 1 - seed corpus written"
fi
if out=$("$b/tests/fuzz/corpus_perfdata" "$work/perfdata" 2>&1); then
  echo "ok 2 - decode + selection over the seeds and their prefixes: $out"
else
  echo "not ok 2 - decode + selection over the seeds"
  echo "$out" | sed 's/^/# /' | head -20
fi
if out=$("$b/tests/fuzz/corpus_text" "$work/text" 2>&1); then
  echo "ok 3 - names and paths over the seeds and their prefixes: $out"
else
  echo "not ok 3 - names and paths over the seeds"
  echo "$out" | sed 's/^/# /' | head -20
fi
