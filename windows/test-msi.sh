#!/bin/bash
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# The MSI, checked with msitools and installed under Wine (TAP):
#
#   windows/test-msi.sh [BUILD_DIR]      (default: build/windows)
#
# Builds the MSI twice (configure.ac's version and a higher one) from
# windows/build-collectd.sh's dist/, then:
#   - msiinfo/msiextract: the summary, the File table, the configuration
#     components' Permanent|NeverOverwrite bits, extracted files identical
#     to the built ones;
#   - `wine msiexec /i ... /qn` in a fresh prefix: programs under
#     C:\Program Files\collectd, configuration under C:\ProgramData\collectd;
#   - the installed collectd.exe, started without -C (its compiled-in
#     C:/ProgramData/collectd/collectd.conf), with the test performance
#     provider registered and a numeric counter list (Wine's name table is a
#     stub) in place of the default one: it loads winperf and writes values
#     through write_graphite to a real carbon (Host/Port edited);
#   - the higher version installed over it (MajorUpgrade): the user's edited
#     configuration is kept, the program files are the new package's;
#   - `wine msiexec /x`: Program Files\collectd is gone, the configuration
#     stays (Permanent).

HERE=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "$HERE/.." && pwd)
B=${1:-$top_srcdir/build/windows}
# shellcheck source=../tests/e2e/lib.sh
. "$top_srcdir/tests/e2e/lib.sh"

need wine wineboot wineserver wixl msiinfo msiextract msibuild jq
[ -f "$B/dist/collectd.exe" ] || e2e_bail "$B/dist/collectd.exe exists (run windows/build-collectd.sh first)"
B=$(cd "$B" && pwd)
PROVIDER=$B/project/tests/windows/.libs/winperf_test_provider.dll
[ -f "$PROVIDER" ] || e2e_bail "$PROVIDER exists (run windows/build-collectd.sh first)"
e2e_init msi

VERSION=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([0-9.]*\)\].*/\1/p' "$top_srcdir/configure.ac")
MSI=$("$HERE/build-msi.sh" "$B" "$VERSION" 2>"$E2E_DIR/wixl.log" | tail -1)
[ -f "$MSI" ]
e2e_ok $? "wixl builds $(basename "$MSI")"
e2e_diag <"$E2E_DIR/wixl.log"
cp "$MSI" "$E2E_DIR/v1.msi"
MSI2=$("$HERE/build-msi.sh" "$B" 99.0.0 2>>"$E2E_DIR/wixl.log" | tail -1)
[ -f "$MSI2" ]
e2e_ok $? "wixl builds the upgrade $(basename "$MSI2")"
mv "$MSI2" "$E2E_DIR/v2.msi"
MSI=$E2E_DIR/v1.msi
MSI2=$E2E_DIR/v2.msi

# ----------------------------------------------------------------- msitools
msiinfo suminfo "$MSI" >"$E2E_DIR/suminfo.txt" 2>&1
grep -q '^Template: x64;1033' "$E2E_DIR/suminfo.txt"
e2e_ok $? "summary: x64 package, English"
e2e_diag <"$E2E_DIR/suminfo.txt"

msiinfo export "$MSI" File >"$E2E_DIR/file.idt"
files=$(awk -F'\t' 'NR > 3 { print $3 }' "$E2E_DIR/file.idt" | sed 's/.*|//' | sort | tr '\n' ' ')
want=""
for f in collectd.exe libgnu.dll libwinpthread-1.dll types.db winperf.exe README.txt \
  collectd.conf.default winperf.yaml.default winperf.dll logfile.dll \
  write_graphite.dll collectd.conf winperf.yaml; do
  case " $files " in *" $f "*) ;; *) want="$want $f" ;; esac
done
e2e_is "$want" "" "File table has every program, plugin and config file"
echo "files: $files" | e2e_diag

msiinfo export "$MSI" Component >"$E2E_DIR/component.idt"
attrs=$(awk -F'\t' '$1 == "ConfCollectd" || $1 == "ConfWinperf" { print $1 "=" $4 }' "$E2E_DIR/component.idt" | sort | tr '\n' ' ')
e2e_is "$attrs" "ConfCollectd=400 ConfWinperf=400 " \
  "config components: 64-bit | Permanent | NeverOverwrite (0x190)"
msiinfo export "$MSI" Upgrade >"$E2E_DIR/upgrade.idt" 2>&1
grep -q '6F0E5C1A-3C5B-4B7E-9E8B-2B8C2E6D7A10' "$E2E_DIR/upgrade.idt"
e2e_ok $? "Upgrade table carries the UpgradeCode (MajorUpgrade)"

mkdir -p "$E2E_DIR/x"
msiextract -C "$E2E_DIR/x" "$MSI" >"$E2E_DIR/extract.txt" 2>&1
e2e_ok $? "msiextract"
X=$(find "$E2E_DIR/x" -name collectd.exe | head -1)
cmp -s "$X" "$B/dist/collectd.exe" &&
  cmp -s "$(dirname "$X")/plugins/winperf.dll" "$B/dist/plugins/winperf.dll"
e2e_ok $? "extracted collectd.exe and plugins/winperf.dll are the built ones"
e2e_diag <"$E2E_DIR/extract.txt"

# ------------------------------------------------------------ wine msiexec
# shellcheck source=wine-lib.sh
. "$HERE/wine-lib.sh"
wine_prefix_init
PF="$WINEPREFIX/drive_c/Program Files/collectd"
PD="$WINEPREFIX/drive_c/ProgramData/collectd"

timeout 300 wine msiexec /i "$(winpath "$MSI")" /qn /l*v "$(winpath "$E2E_DIR/install.log")" >/dev/null 2>&1
e2e_ok $? "wine msiexec /i v1.msi /qn"
missing=""
for f in collectd.exe libgnu.dll types.db winperf.exe plugins/winperf.dll \
  plugins/write_graphite.dll plugins/logfile.dll; do
  [ -f "$PF/$f" ] || missing="$missing $f"
done
e2e_is "$missing" "" "programs and plugins under C:\\Program Files\\collectd"
cmp -s "$PD/collectd.conf" "$HERE/collectd.conf" && cmp -s "$PD/winperf.yaml" "$HERE/winperf.yaml"
e2e_ok $? "default collectd.conf and winperf.yaml under C:\\ProgramData\\collectd"

# -------------------------------------------------- the installed collectd
# The test provider, and a numeric counter list in place of the default
# (English names do not resolve under Wine): the user's edit.
wine_register_provider "$PROVIDER"
e2e_ok $? "test performance provider registered"
printf '# edited by the user\n- \\2\\250\n- \\238(*)\\10001\n' >"$PD/winperf.yaml"
cp "$PD/winperf.yaml" "$E2E_DIR/user.yaml"
e2e_start_carbon
sed -i -e 's/^Interval 10$/Interval 1/' -e 's/^#Hostname "web01"$/Hostname "msitest"/' \
  -e 's/^  FlushInterval 10$/  FlushInterval 1/' -e 's/^    Host "localhost"$/    Host "127.0.0.1"/' \
  -e "s/^    Port \"2003\"\$/    Port \"$CARBON_PORT\"/" "$PD/collectd.conf"
cp "$PD/collectd.conf" "$E2E_DIR/user.conf"

# Started the way README.txt says (no -C), from another directory.
(cd "$E2E_DIR" && exec wine "$PF/collectd.exe" -f) >"$E2E_DIR/collectd.out" 2>&1 &
CPID=$!
E2E_PIDS="$E2E_PIDS $CPID"
WSP=$CARBON_DIR/whisper/collectd/msitest/winperf-2/gauge-250.wsp
vals() { [ -f "$WSP" ] && /usr/bin/whisper-fetch --json --from=$(($(date +%s) - 600)) "$WSP" 2>/dev/null |
  jq -r '.values[] | select(. != null)'; }
got42() { [ "$(vals | grep -c '^42$')" -ge 3 ]; }
e2e_wait_for 120 got42
e2e_ok $? "installed collectd.exe (default config path, user's edits) sends \\2\\250 = 42 to carbon"
echo "values: $(vals | tr '\n' ' ')" | e2e_diag
e2e_stop "$CPID" 10
tr -d '\r' <"$PD/collectd.log" 2>/dev/null | grep -q 'plugin "winperf" successfully loaded'
e2e_ok $? "its log C:\\ProgramData\\collectd\\collectd.log shows winperf loaded"
tr -d '\r' <"$PD/collectd.log" 2>/dev/null | tail -8 | e2e_diag

# ----------------------------------------------------------------- upgrade
timeout 300 wine msiexec /i "$(winpath "$MSI2")" /qn /l*v "$(winpath "$E2E_DIR/upgrade.log")" >/dev/null 2>&1
e2e_ok $? "wine msiexec /i v2.msi /qn (major upgrade)"
cmp -s "$PD/collectd.conf" "$E2E_DIR/user.conf" && cmp -s "$PD/winperf.yaml" "$E2E_DIR/user.yaml"
e2e_ok $? "upgrade keeps the user's collectd.conf and winperf.yaml"
tr -d '\0' <"$E2E_DIR/upgrade.log" 2>/dev/null | grep -a -q 'RemoveExistingProducts'
e2e_ok $? "upgrade ran RemoveExistingProducts (the old version is removed)"
[ -f "$PF/collectd.exe" ] && [ -f "$PF/plugins/winperf.dll" ]
e2e_ok $? "program files present after the upgrade"
n=$(timeout 60 wine reg query 'HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall' /s 2>/dev/null |
  tr -d '\r' | grep -c 'DisplayName.*collectd with winperf')
e2e_is "$n" 1 "one 'collectd with winperf' in the uninstall list after the upgrade"

# ----------------------------------------------------------------- removal
timeout 300 wine msiexec /x "$(winpath "$MSI2")" /qn >/dev/null 2>&1
e2e_ok $? "wine msiexec /x /qn"
[ ! -e "$PF/collectd.exe" ] && [ ! -e "$PF/plugins/winperf.dll" ] && [ ! -e "$PF/winperf.exe" ]
e2e_ok $? "programs removed from C:\\Program Files\\collectd"
[ ! -d "$PF" ]
e2e_ok $? "C:\\Program Files\\collectd itself removed"
cmp -s "$PD/collectd.conf" "$E2E_DIR/user.conf" && cmp -s "$PD/winperf.yaml" "$E2E_DIR/user.yaml"
e2e_ok $? "the user's configuration stays after removal (Permanent)"
n=$(timeout 60 wine reg query 'HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall' /s 2>/dev/null |
  tr -d '\r' | grep -c 'DisplayName.*collectd with winperf')
e2e_is "$n" 0 "no 'collectd with winperf' in the uninstall list after removal"
e2e_done
