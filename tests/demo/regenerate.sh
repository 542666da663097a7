#!/bin/bash
# collectd-winperf: the committed demo capture (conf/demo) is exactly what
# its generator writes, so it can be rebuilt and reviewed from source.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
gen=$top_builddir/tests/demo/demo_capture
demo=$top_srcdir/conf/demo
n=0
failed=0
ok() {
  n=$((n + 1))
  if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else
    echo "not ok $n - $2"
    failed=1
  fi
}
if [ ! -x "$gen" ]; then
  ok 1 "generator $gen built"
  echo "1..$n"
  exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/winperf-demo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$gen" "$tmp/capture"
ok $? "the generator runs"
count=$(find "$tmp/capture" -name '*.blob' | wc -l)
[ "$count" -ge 60 ]
ok $? "at least 60 intervals ($count blobs)"
for f in "$tmp"/capture/*; do
  name=$(basename "$f")
  cmp -s "$f" "$demo/$name"
  ok $? "conf/demo/$name is what the generator writes"
done
committed=$(cd "$demo" && ls -- *.blob names.multisz | sort | tr '\n' ' ')
generated=$(cd "$tmp/capture" && ls | sort | tr '\n' ' ')
[ "$committed" = "$generated" ]
ok $? "conf/demo holds no blob the generator does not write"
echo "1..$n"
exit $failed
