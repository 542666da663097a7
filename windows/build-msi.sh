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
need wixl msibuild msiinfo
[ -f "$B/dist/collectd.exe" ] || { echo "build-msi.sh: no $B/dist (run windows/build-collectd.sh first)" >&2; exit 1; }

# wixl takes Source paths relative to the working directory only.
S=$B/msi-stage
rm -rf "$S"
mkdir -p "$S/src"
cp -r "$B/dist" "$S/dist"
cp "$HERE/collectd.conf.template" "$HERE/winperf.yaml" "$S/src/"
cat >"$S/dist/README.txt" <<TXT
collectd $( (cd "$B/collectd" && ./version-gen.sh 2>/dev/null) || echo 5.12.0) for Windows with the winperf plugin (collectd-winperf $VERSION)

Configuration (kept on upgrade and removal):
  C:\\ProgramData\\collectd\\collectd.conf   collectd's configuration
  C:\\ProgramData\\collectd\\winperf.yaml    the performance counters to read
  (collectd.conf.template and winperf.yaml.default here are the originals)

collectd runs as the Windows service "collectd" (automatic start, LocalSystem,
restarted after a failure). The first time it starts, it writes
C:\\ProgramData\\collectd\\collectd.conf from collectd.conf.template here and the
installer's properties (GRAPHITE_HOST, GRAPHITE_PORT, INFLUXDB_HOST,
INFLUXDB_PORT, INTERVAL, COUNTERS_FILE); after that the file is yours:

  edit C:\\ProgramData\\collectd\\collectd.conf or winperf.yaml, then
  net stop collectd && net start collectd

The log: C:\\ProgramData\\collectd\\collectd.log (collectd's own messages and,
when the configuration has an error, the reason it did not start).
"C:\\Program Files\\collectd\\collectd.exe" -f runs it in a console instead
(stop the service first; Ctrl+C stops it).

winperf.exe, the command-line tool, lists and queries the same counters:
  winperf query "\\Processor(*)\\% Processor Time"
TXT
MSI=$B/collectd-winperf-$VERSION-x64.msi
(cd "$S" && wixl -a x64 -D DistDir=dist -D SrcDir=src -D Version="$VERSION" \
  -o "$MSI" "$HERE/collectd-winperf.wxs")
# wixl ignores Component/@NeverOverwrite and @Permanent: set the bits
# (0x100 64-bit | 0x10 Permanent | 0x80 NeverOverwrite).
msibuild "$MSI" -q "UPDATE Component SET Attributes = 400 WHERE Component = 'ConfWinperf'"
# wixl drops Property/@Secure: the public properties of the first
# configuration must be in SecureCustomProperties, or a per-machine install
# run by a user who is not an administrator drops them before the execute
# sequence.
secure=$(msiinfo export "$MSI" Property | awk -F'\t' '$1 == "SecureCustomProperties" { print $2 }' | tr -d '\r')
msibuild "$MSI" -q "UPDATE Property SET Value = '${secure:+$secure;}GRAPHITE_HOST;GRAPHITE_PORT;INFLUXDB_HOST;INFLUXDB_PORT;INTERVAL;COUNTERS_FILE' WHERE Property = 'SecureCustomProperties'"
# Recovery actions, which wixl cannot express (ServiceConfigFailureActions):
# restart the service 10 s, 30 s and 60 s after a failure, counters reset
# after a day; applied by the standard action MsiConfigureServices (Windows
# Installer 5, between InstallServices and StartServices). Event 1|4:
# install and reinstall.
{
  printf 'MsiServiceConfigFailureActions\tName\tEvent\tResetPeriod\tRebootMessage\tCommand\tActions\tDelayActions\tComponent_\r\n'
  printf 's72\tl255\ti2\tI4\tL255\tL255\tS255\tS255\ts72\r\n'
  printf 'MsiServiceConfigFailureActions\tMsiServiceConfigFailureActions\r\n'
  printf 'CollectdRecovery\tcollectd\t5\t86400\t\t\t1[~]1[~]1\t10000[~]30000[~]60000\tCollectdExe\r\n'
} >"$S/MsiServiceConfigFailureActions.idt"
(cd "$S" && msibuild "$MSI" -i MsiServiceConfigFailureActions.idt)
msibuild "$MSI" -q "INSERT INTO InstallExecuteSequence (Action, Condition, Sequence) VALUES ('MsiConfigureServices', 'VersionNT >= 600', 5850)"
echo "$MSI"
