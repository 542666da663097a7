#!/bin/bash
# collectd-winperf: regenerate tests/data/wine-renumber (the Process object
# whose w3wp#1 exits between two samples, captured under Wine from the
# test provider, tests/windows/provider.c).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   tests/windows/capture-renumber.sh BUILDDIR [OUTDIR]
#
# BUILDDIR is a configured Linux build directory (the cross build goes to
# BUILDDIR/win64); OUTDIR defaults to tests/data/wine-renumber. A fresh
# WINEPREFIX is made and removed. The blobs' values do not depend on the
# time (the provider's object clock counts samples), only their headers'
# system time and clocks do.
set -u
top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
top_builddir=$(cd "${1:?usage: capture-renumber.sh BUILDDIR [OUTDIR]}" && pwd)
out=${2:-$top_srcdir/tests/data/wine-renumber}
NEED_FAIL=need_fail_die
# shellcheck source-path=SCRIPTDIR source=../lib/need.sh
. "$top_srcdir/tests/lib/need.sh"
# shellcheck source-path=SCRIPTDIR source=wine-lib.sh
. "$top_srcdir/tests/windows/wine-lib.sh"

die() {
  echo "capture-renumber.sh: $*" >&2
  exit 1
}
wl_prefix || die "wineboot --init failed"
wl_build || die "the mingw-w64 cross build failed"
wl_capture_renumber "$TMP/capture" || die "winperf.exe capture failed"
mkdir -p "$out"
for f in 000001.blob 000002.blob names.multisz names-local.multisz; do
  cp "$TMP/capture/$f" "$out/$f" || die "no $f in the capture"
done
echo "capture-renumber.sh: wrote $out"
