#!/bin/bash
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# Build the MSI from windows/build-collectd.sh's dist/ with wixl (msitools):
#
#   windows/build-msi.sh [--dist DIR] [--out FILE] [--version V]
#                        [--msi-version M] [BUILD_DIR] [VERSION]
#
# BUILD_DIR defaults to build/windows; the programs come from BUILD_DIR/dist
# or --dist DIR (scripts/release.sh passes a signed copy). VERSION (or
# --version) defaults to scripts/version.sh's, the MSI's ProductVersion
# (--msi-version) to its MSI_VERSION, or to VERSION when that is X.Y.Z.
# Writes FILE, by default BUILD_DIR/collectd-winperf-VERSION-x64.msi, and
# prints its path.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
DIST="" MSI="" VERSION="" MSI_VERSION="" pos=()
while [ $# -gt 0 ]; do
  case $1 in
  --dist) DIST=$2 && shift 2 ;;
  --out) MSI=$2 && shift 2 ;;
  --version) VERSION=$2 && shift 2 ;;
  --msi-version) MSI_VERSION=$2 && shift 2 ;;
  *) pos+=("$1") && shift ;;
  esac
done
B=${pos[0]:-$TOP/build/windows}
B=$(cd "$B" && pwd)
[ -z "${pos[1]:-}" ] || VERSION=${pos[1]}
if [ -z "$VERSION" ]; then
  eval "$("$TOP/scripts/version.sh")"
elif [ -z "$MSI_VERSION" ] && [[ $VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  MSI_VERSION=$VERSION
fi
[ -n "$VERSION" ] && [[ $MSI_VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+(\.[0-9]+)?$ ]] || {
  echo "build-msi.sh: no usable version ('$VERSION', MSI version '$MSI_VERSION')" >&2
  exit 1
}
DIST=${DIST:-$B/dist}
MSI=${MSI:-$B/collectd-winperf-$VERSION-x64.msi}
top_srcdir=$TOP
NEED_FAIL=need_fail_die
# shellcheck source-path=SCRIPTDIR source=../tests/lib/need.sh
. "$TOP/tests/lib/need.sh"
need wixl msibuild msiinfo
[ -f "$DIST/collectd.exe" ] || { echo "build-msi.sh: no $DIST/collectd.exe (run windows/build-collectd.sh first)" >&2; exit 1; }

# wixl takes Source paths relative to the working directory only.
S=$B/msi-stage
rm -rf "$S"
mkdir -p "$S/src"
cp -r "$DIST" "$S/dist"
cp "$HERE/collectd.conf.template" "$HERE/winperf.yaml" "$S/src/"
cat >"$S/dist/README.txt" <<TXT
collectd $( (cd "$B/collectd" && ./version-gen.sh 2>/dev/null) || echo 5.12.0) for Windows with the winperf plugin (collectd-winperf $VERSION)

collectd runs as the Windows service "collectd" (automatic start, LocalSystem,
restarted after a failure). At each start it generates
C:\\ProgramData\\collectd\\collectd.conf from collectd.conf.template here and the
installer's settings, stored under HKLM\\SOFTWARE\\collectd-winperf:
GRAPHITE_HOST (none: no Graphite), GRAPHITE_PORT, GRAPHITE_PREFIX,
INFLUXDB_HOST, INFLUXDB_PORT, PROMETHEUS_PORT (set: write_prometheus serves
http://THIS-HOST:PORT/metrics for Prometheus to scrape; off unless set, none
turns it off again; open the port in Windows Firewall for the Prometheus
server), INTERVAL, HOSTNAME. Change them with msiexec (a setting not given
keeps its value):

  msiexec /i collectd-winperf-$VERSION-x64.msi /qn REINSTALL=ALL REINSTALLMODE=omus GRAPHITE_HOST=graphite.example.com

To edit collectd.conf by hand instead, delete its first line (the mark of a
generated file): the service then uses it as it is. CONFIG_FILE=PATH at
install copies your own collectd.conf, COUNTERS_FILE=PATH your counter list
(C:\\ProgramData\\collectd\\winperf.yaml, which is read again when it changes).

Logs: C:\\ProgramData\\collectd\\collectd.log (rotated at 10 MiB, three old
files kept); start, stop, configuration problems and collectd's errors also
in the Application Event Log, source "collectd".

Removal keeps C:\\ProgramData\\collectd and the settings;
msiexec /x ... PURGE=1 deletes them too.

"C:\\Program Files\\collectd\\collectd.exe" -f runs it in a console instead
(stop the service first; Ctrl+C stops it).

winperf.exe, the command-line tool, lists and queries the same counters:
  winperf query "\\Processor(*)\\% Processor Time"
TXT
mkdir -p "$(dirname "$MSI")"
MSI=$(cd "$(dirname "$MSI")" && pwd)/$(basename "$MSI")
rm -f "$MSI"
(cd "$S" && wixl -a x64 -D DistDir=dist -D SrcDir=src -D Version="$MSI_VERSION" \
  -o "$MSI" "$HERE/collectd-winperf.wxs")
# wixl ignores Component/@NeverOverwrite and @Permanent: set the bits
# (0x100 64-bit | 0x10 Permanent | 0x80 NeverOverwrite).
msibuild "$MSI" -q "UPDATE Component SET Attributes = 400 WHERE Component = 'ConfWinperf'"
# The stored settings stay at removal (Permanent, 0x10), with the
# configuration; PURGE=1 deletes both (svc_setup.c).
attrs=$(msiinfo export "$MSI" Component | awk -F'\t' '$1 == "Settings" { print $4 }')
msibuild "$MSI" -q "UPDATE Component SET Attributes = $((attrs | 16)) WHERE Component = 'Settings'"
# AllowSameVersionUpgrades: the upgrade row's maximum is inclusive
# (msidbUpgradeAttributesVersionMaxInclusive 0x200), so another package of
# the same X.Y.Z (a snapshot: only the ignored fourth field differs)
# replaces the installed one instead of installing beside it.
# Attributes is part of the Upgrade table's key, which an UPDATE cannot
# change: the row is written anew.
upcode=$(msiinfo export "$MSI" Property | awk -F'\t' '$1 == "UpgradeCode" { print $2 }' | tr -d '\r')
msibuild "$MSI" -q "DELETE FROM Upgrade WHERE ActionProperty = 'WIX_UPGRADE_DETECTED'"
msibuild "$MSI" -q "INSERT INTO Upgrade (UpgradeCode, VersionMax, Attributes, ActionProperty) VALUES ('$upcode', '$MSI_VERSION', 513, 'WIX_UPGRADE_DETECTED')"
# The full version in Apps & features ("comments"), since ProductVersion
# holds numbers only.
msibuild "$MSI" -q "INSERT INTO Property (Property, Value) VALUES ('ARPCOMMENTS', 'collectd-winperf $VERSION')"
# wixl drops Property/@Secure: the public properties must be in
# SecureCustomProperties, or a per-machine install
# run by a user who is not an administrator drops them before the execute
# sequence.
secure=$(msiinfo export "$MSI" Property | awk -F'\t' '$1 == "SecureCustomProperties" { print $2 }' | tr -d '\r')
msibuild "$MSI" -q "UPDATE Property SET Value = '${secure:+$secure;}GRAPHITE_HOST;GRAPHITE_PORT;GRAPHITE_PREFIX;INFLUXDB_HOST;INFLUXDB_PORT;PROMETHEUS_PORT;INTERVAL;HOSTNAME;COUNTERS_FILE;CONFIG_FILE;PURGE' WHERE Property = 'SecureCustomProperties'"
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
