#!/bin/bash
# collectd-winperf quick start: install the dependencies, build, run a short
# demo that stops by itself. As root, or as a user who may use sudo (the
# package installation then goes through sudo).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build/gcc"

bash "$top/scripts/install-deps.sh"
top_srcdir=$top
NEED_FAIL=need_fail_die
# shellcheck source-path=SCRIPTDIR source=../tests/lib/need.sh
. "$top/tests/lib/need.sh"
need autoreconf automake libtoolize pkg-config make gcc
[ -x "$top/configure" ] || (cd "$top" && ./autogen.sh >/dev/null)
mkdir -p "$build"
if [ ! -f "$build/Makefile" ]; then
  (cd "$build" && "$top/configure" --enable-werror >/dev/null)
fi
make -C "$build" -j"$(nproc)" >/dev/null
echo "quickstart: built in $build"

winperf="$build/winperf"
sample="$top/conf/sample"
echo
echo "== winperf dump: the spec's test vector (conf/sample/sample1.blob)"
"$winperf" dump --names "$sample/names.multisz" "$sample/sample1.blob"
echo
echo "== winperf query: two samples, every counter of two objects"
"$winperf" query --names "$sample/names.multisz" \
  "$sample/sample1.blob" "$sample/sample2.blob" '\2\*' '\10(*)\*'

if [ -x "$top/scripts/demo.sh" ] && [ -f "$build/.libs/winperf.so" ]; then
  echo
  echo "== collectd with the winperf plugin on the demo capture (conf/demo)"
  "$top/scripts/demo.sh" "$build"
fi
