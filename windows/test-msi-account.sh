#!/bin/bash
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# The MSI's service account (issue 29), checked with msitools (TAP):
#
#   windows/test-msi-account.sh [BUILD_DIR]      (default: build/windows)
#
# Builds the MSI from windows/build-collectd.sh's dist/ and reads its tables:
# LocalSystem stays the default (Property SERVICE_ACCOUNT, the ServiceInstall
# row's StartName); SERVICE_ACCOUNT="NT SERVICE\collectd" runs one deferred
# action as LocalSystem (no impersonation, failure fails the install) after
# InstallServices and before StartServices: the service's account set to its
# virtual account, that account added to Performance Monitor Users by SID
# (S-1-5-32-558, any language), the data directory made modifiable by it;
# nothing of it at removal. Wine has no service accounts, groups or ACLs,
# and no PowerShell: what the action does on Windows is not run here
# (windows/README.md says so).

HERE=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "$HERE/.." && pwd)
B=${1:-$top_srcdir/build/windows}
# shellcheck source=../tests/e2e/lib.sh
. "$top_srcdir/tests/e2e/lib.sh"

need wixl msiinfo msibuild
[ -f "$B/dist/collectd.exe" ] || e2e_bail "$B/dist/collectd.exe exists (run windows/build-collectd.sh first)"
e2e_init msi-account

VERSION=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([0-9.]*\)\].*/\1/p' "$top_srcdir/configure.ac")
MSI=$("$HERE/build-msi.sh" "$B" "$VERSION" 2>"$E2E_DIR/wixl.log" | tail -1)
[ -f "$MSI" ]
e2e_ok $? "wixl builds $(basename "$MSI")"
cp "$MSI" "$E2E_DIR/v1.msi"
MSI=$E2E_DIR/v1.msi
table() { msiinfo export "$MSI" "$1" | tail -n +4 | tr -d '\r'; }

# SERVICE_ACCOUNT is remembered like the other settings (test-msi.sh checks
# the pattern for all of them): no value in the Property table, LocalSystem
# by a Default action, stored under HKLM\SOFTWARE\collectd-winperf and read
# back by AppSearch, so an upgrade that does not give it keeps the account.
e2e_is "$(table Property | awk -F'\t' '$1 == "SERVICE_ACCOUNT" { print $2 }')" "" \
  "Property SERVICE_ACCOUNT: no value there (a given one must be told from none)"
e2e_is "$(table CustomAction | awk -F'\t' '$1 == "DefaultSERVICE_ACCOUNT" { print $3 "=" $4 }')" \
  SERVICE_ACCOUNT=LocalSystem "DefaultSERVICE_ACCOUNT: LocalSystem when neither given nor stored"
e2e_is "$(table Registry | awk -F'\t' '$3 == "SOFTWARE\\collectd-winperf" && $4 == "SERVICE_ACCOUNT" { print $5 }')" \
  "[SERVICE_ACCOUNT]" "Registry: SERVICE_ACCOUNT stored for the next upgrade"
e2e_is "$(table RegLocator | awk -F'\t' '$3 == "SOFTWARE\\collectd-winperf" && $4 == "SERVICE_ACCOUNT" { print $1 }')" \
  SavedSERVICE_ACCOUNT "RegLocator: an upgrade reads the stored SERVICE_ACCOUNT back"
seq0=$(table InstallExecuteSequence)
e2e_is "$(echo "$seq0" | awk -F'\t' '$1 == "StoredSERVICE_ACCOUNT" { print $2 }')" \
  "SAVED_SERVICE_ACCOUNT AND NOT CMDLINE_SERVICE_ACCOUNT" \
  "StoredSERVICE_ACCOUNT: the stored account applies unless one is given"
e2e_is "$(table ServiceInstall | awk -F'\t' '$2 == "collectd" { print $9 }')" LocalSystem \
  "ServiceInstall collectd: StartName LocalSystem (the virtual account is set after it)"

ca=$(table CustomAction)
shell=$(echo "$ca" | awk -F'\t' '$1 == "VirtualAccountShell" { print $2 "|" $3 "|" $4 }')
e2e_is "$shell" '2099|VirtualAccount|[System64Folder]WindowsPowerShell\v1.0\powershell.exe' \
  "VirtualAccountShell: type 51, the 64-bit PowerShell into the action's property"
act=$(echo "$ca" | awk -F'\t' '$1 == "VirtualAccount" { print $2 "|" $3 }')
# 3122 = 50 (the program a property names) + 1024 deferred + 2048 no
# impersonation; Return="check" leaves 64 (ignore the exit code) unset.
e2e_is "$act" "3122|VirtualAccount" \
  "VirtualAccount: deferred, as LocalSystem, its exit code checked (type 3122)"
cmd=$(echo "$ca" | awk -F'\t' '$1 == "VirtualAccount" { print $4 }')
echo "$cmd" | e2e_diag
st=0
for want in "sc.exe config collectd obj= 'NT SERVICE\\collectd'" \
  "Add-LocalGroupMember -SID S-1-5-32-558 -Member 'NT SERVICE\\collectd'" \
  "icacls.exe '[DATADIR].' /grant 'NT SERVICE\\collectd:(OI)(CI)M'" \
  '$sc = $LASTEXITCODE' '$ic = $LASTEXITCODE' \
  "exit (\$sc -ne 0 -or \$ic -ne 0 -or -not ((Get-LocalGroupMember -SID S-1-5-32-558).Name -contains 'NT SERVICE\\collectd'))"; do
  case $cmd in *"$want"*) ;; *)
    echo "missing: $want" | e2e_diag
    st=1
    ;;
  esac
done
e2e_ok $st "its command: the service's account, Performance Monitor Users by SID, the data directory, every step's failure an exit code"

seq=$(table InstallExecuteSequence)
at() { echo "$seq" | awk -F'\t' -v a="$1" '$1 == a { print $3 }'; }
cond() { echo "$seq" | awk -F'\t' -v a="$1" '$1 == a { print $2 }'; }
ok_order=1
[ "$(at InstallServices)" -lt "$(at VirtualAccountShell)" ] &&
  [ "$(at VirtualAccountShell)" -lt "$(at VirtualAccount)" ] &&
  [ "$(at VirtualAccount)" -lt "$(at StartServices)" ] && ok_order=0
e2e_ok $ok_order "sequence: InstallServices $(at InstallServices) < VirtualAccountShell $(at VirtualAccountShell) < VirtualAccount $(at VirtualAccount) < StartServices $(at StartServices)"
e2e_is "$(cond VirtualAccount)|$(cond VirtualAccountShell)" \
  'SERVICE_ACCOUNT="NT SERVICE\collectd" AND NOT REMOVE="ALL"|SERVICE_ACCOUNT="NT SERVICE\collectd" AND NOT REMOVE="ALL"' \
  "both only with SERVICE_ACCOUNT=\"NT SERVICE\\collectd\", never at removal"
e2e_done
