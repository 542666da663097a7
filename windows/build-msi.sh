#!/bin/bash
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# Build the MSI from windows/build-collectd.sh's dist/ with wixl (msitools):
#
#   windows/build-msi.sh [BUILD_DIR] [VERSION]
#
# BUILD_DIR defaults to build/windows, VERSION to configure.ac's. Writes
# BUILD_DIR/collectd-winperf-VERSION-x64.msi and prints its path.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
B=${1:-$TOP/build/windows}
B=$(cd "$B" && pwd)
VERSION=${2:-$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([0-9.]*\)\].*/\1/p' "$TOP/configure.ac")}
[ -n "$VERSION" ] || { echo "build-msi.sh: no version" >&2; exit 1; }
top_srcdir=$TOP
NEED_FAIL=need_fail_die
# shellcheck source-path=SCRIPTDIR source=../tests/lib/need.sh
. "$TOP/tests/lib/need.sh"
need wixl msibuild
[ -f "$B/dist/collectd.exe" ] || { echo "build-msi.sh: no $B/dist (run windows/build-collectd.sh first)" >&2; exit 1; }

# wixl takes Source paths relative to the working directory only.
S=$B/msi-stage
rm -rf "$S"
mkdir -p "$S/src"
cp -r "$B/dist" "$S/dist"
cp "$HERE/collectd.conf" "$HERE/winperf.yaml" "$S/src/"
cat >"$S/dist/README.txt" <<TXT
collectd $( (cd "$B/collectd" && ./version-gen.sh 2>/dev/null) || echo 5.12.0) for Windows with the winperf plugin (collectd-winperf $VERSION)

Configuration (kept on upgrade and removal):
  C:\\ProgramData\\collectd\\collectd.conf   collectd's configuration
  C:\\ProgramData\\collectd\\winperf.yaml    the performance counters to read
  (collectd.conf.default and winperf.yaml.default here are the originals)

collectd's Windows port does not run as a Windows service (it never talks to
the Service Control Manager). Start it at boot with a scheduled task, from an
elevated prompt:

  schtasks /Create /TN collectd /SC ONSTART /RU SYSTEM /RL HIGHEST ^
    /TR "\\"C:\\Program Files\\collectd\\collectd.exe\\" -f"

  schtasks /Run /TN collectd        start it now
  schtasks /End /TN collectd        stop it

or run "C:\\Program Files\\collectd\\collectd.exe" -f in a console (Ctrl+C
stops it). Without -C it reads C:\\ProgramData\\collectd\\collectd.conf.
The log goes to C:\\ProgramData\\collectd\\collectd.log.

winperf.exe, the command-line tool, lists and queries the same counters:
  winperf query "\\Processor(*)\\% Processor Time"
TXT
MSI=$B/collectd-winperf-$VERSION-x64.msi
(cd "$S" && wixl -a x64 -D DistDir=dist -D SrcDir=src -D Version="$VERSION" \
  -o "$MSI" "$HERE/collectd-winperf.wxs")
# wixl ignores Component/@NeverOverwrite and @Permanent: set the bits
# (0x100 64-bit | 0x10 Permanent | 0x80 NeverOverwrite).
msibuild "$MSI" -q "UPDATE Component SET Attributes = 400 WHERE Component = 'ConfCollectd' OR Component = 'ConfWinperf'"
echo "$MSI"
