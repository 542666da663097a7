#!/bin/bash
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# The MSI and the collectd service it installs, checked with msitools and
# under Wine (TAP):
#
#   windows/test-msi.sh [BUILD_DIR]      (default: build/windows)
#
# Builds the MSI twice (configure.ac's version and a higher one) from
# windows/build-collectd.sh's dist/, then:
#   - msiinfo/msiextract: the summary, the File table, the counter list's
#     Permanent|NeverOverwrite bits, the service (ServiceInstall: automatic,
#     LocalSystem; ServiceControl), the recovery actions Wine cannot show
#     (MsiServiceConfigFailureActions, MsiConfigureServices between
#     InstallServices and StartServices), the public properties' defaults
#     (custom actions, so that a given property can be told from a default)
#     and their registry values, SecureCustomProperties, the Event Log
#     source; extracted files identical to the built ones;
#   - a fresh prefix with the test performance provider, a real carbon and
#     a real InfluxDB: `wine msiexec /i ... /qn GRAPHITE_HOST=127.0.0.1
#     GRAPHITE_PORT=P INFLUXDB_HOST=127.0.0.1 INFLUXDB_PORT=Q INTERVAL=1
#     PROMETHEUS_PORT=R COUNTERS_FILE=<numeric list>`; the service is
#     RUNNING without this test starting any collectd.exe, generated
#     collectd.conf from the properties (first line: the service's marker),
#     and the provider's values arrive in carbon and InfluxDB (exact on the
#     provider's clock, median within 1 % on Wine's clocks) and are served
#     by write_prometheus on port R (scraped with curl);
#   - `wine net stop collectd`: STOPPED, collectd's shutdown in the log, no
#     collectd.exe left;
#   - the user edits collectd.conf (its first line deleted, so it is the
#     user's; Interval 10, Hostname, write_graphite flushed only every hour)
#     and winperf.yaml; the higher version is installed over it: both files
#     kept, the service RUNNING again on the edited configuration; `net stop` at Interval 10 takes under 5 s and the
#     values queued before it reach carbon and InfluxDB (flushed at stop);
#   - a configuration error: the service stops with exit code 1 and the
#     reason is in collectd.log;
#   - `wine msiexec /x`: the service is gone, no collectd.exe, Program
#     Files\collectd removed, collectd.conf, winperf.yaml and the log kept.

HERE=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "$HERE/.." && pwd)
B=${1:-$top_srcdir/build/windows}
# shellcheck source=../tests/e2e/lib.sh
. "$top_srcdir/tests/e2e/lib.sh"

need wine wineboot wineserver wixl msiinfo msiextract msibuild jq ss curl
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

table() { # table NAME: the rows of an exported table (no header lines)
  msiinfo export "$MSI" "$1" 2>/dev/null | tr -d '\r' | tail -n +4
}
files=$(table File | awk -F'\t' '{ print $3 }' | sed 's/.*|//' | sort | tr '\n' ' ')
want=""
for f in collectd.exe libgnu.dll libwinpthread-1.dll types.db winperf.exe README.txt \
  collectd-events.dll collectd.conf.template winperf.yaml.default winperf.dll logfile.dll \
  write_graphite.dll network.dll csv.dll write_prometheus.dll winperf.yaml; do
  case " $files " in *" $f "*) ;; *) want="$want $f" ;; esac
done
e2e_is "$want" "" "File table has every program, plugin (network, csv and write_prometheus too), the template and winperf.yaml"
case " $files " in *" collectd.conf "*) found=1 ;; *) found=0 ;; esac
e2e_is "$found" 0 "collectd.conf is not installed (the service writes it when missing)"
echo "files: $files" | e2e_diag

attrs=$(table Component | awk -F'\t' '$1 == "ConfWinperf" { print $1 "=" $4 }')
e2e_is "$attrs" "ConfWinperf=400" "counter list component: 64-bit | Permanent | NeverOverwrite (0x190)"
table Upgrade | grep -q '6F0E5C1A-3C5B-4B7E-9E8B-2B8C2E6D7A10'
e2e_ok $? "Upgrade table carries the UpgradeCode (MajorUpgrade)"

# ServiceInstall: Name DisplayName ServiceType StartType ErrorControl
# LoadOrderGroup Dependencies StartName Password Arguments Component_
svc=$(table ServiceInstall | awk -F'\t' '$2 == "collectd" { print $4, $5, $9, $12 }')
e2e_is "$svc" "16 2 LocalSystem CollectdExe" \
  "ServiceInstall: collectd, own process (16), automatic (2), StartName LocalSystem, with collectd.exe"
table ServiceInstall | awk -F'\t' '$2 == "collectd" { print $11 }' | grep -qF -- '--service -C "[DATADIR]collectd.conf"'
e2e_ok $? "ServiceInstall: collectd.exe --service -C \"[DATADIR]collectd.conf\""
# Event 163 = start at install 0x1 | stop at install 0x2 | stop at removal
# 0x20 | delete at removal 0x80; Wait 1.
ctl=$(table ServiceControl | awk -F'\t' '$2 == "collectd" { print $3, $5 }')
e2e_is "$ctl" "163 1" "ServiceControl: started at install, stopped at install and removal, deleted at removal, waited for"
# Recovery: Wine neither runs MsiConfigureServices nor has sc qfailure, so
# the tables are the evidence.
fa=$(table MsiServiceConfigFailureActions | awk -F'\t' '{ print $2, $3, $4, $7, $8, $9 }')
e2e_is "$fa" "collectd 5 86400 1[~]1[~]1 10000[~]30000[~]60000 CollectdExe" \
  "MsiServiceConfigFailureActions: restart after 10, 30, 60 s, reset after a day (install, reinstall)"
seq=$(table InstallExecuteSequence | awk -F'\t' '$1 ~ /^(InstallServices|MsiConfigureServices|StartServices)$/ { print $3, $1 }' |
  sort -n | awk '{ print $2 }' | tr '\n' ' ')
e2e_is "$seq" "InstallServices MsiConfigureServices StartServices " \
  "InstallExecuteSequence: MsiConfigureServices between InstallServices and StartServices"
props=$(table Property | awk -F'\t' '$1 ~ /^(GRAPHITE_|INFLUXDB_|PROMETHEUS_|INTERVAL|HOSTNAME|SERVICE_ACCOUNT|COUNTERS_FILE|CONFIG_FILE)/ { print $1 }' | tr '\n' ' ')
e2e_is "$props" "" "Property: no setting has a value there (a given property must be told from a default)"
defaults=$(table CustomAction | awk -F'\t' '$1 ~ /^Default/ { print $3 "=" $4 }' | sort | tr '\n' ' ')
e2e_is "$defaults" "GRAPHITE_HOST=localhost GRAPHITE_PORT=2003 GRAPHITE_PREFIX=collectd. INFLUXDB_PORT=25826 INTERVAL=10 SERVICE_ACCOUNT=LocalSystem " \
  "defaults set by custom actions: GRAPHITE_HOST localhost, GRAPHITE_PORT 2003, GRAPHITE_PREFIX collectd., INFLUXDB_PORT 25826, INTERVAL 10, SERVICE_ACCOUNT LocalSystem (none for PROMETHEUS_PORT: write_prometheus off unless asked for)"
order=$(table InstallExecuteSequence | awk -F'\t' '$1 ~ /^(GivenINTERVAL|AppSearch|StoredINTERVAL|DefaultINTERVAL)$/ { print $3, $1 }' |
  sort -n | awk '{ print $2 }' | tr '\n' ' ')
e2e_is "$order" "GivenINTERVAL AppSearch StoredINTERVAL DefaultINTERVAL " \
  "a given property is saved before AppSearch reads the stored one, which applies only when none was given, then the default"
secure=$(table Property | awk -F'\t' '$1 == "SecureCustomProperties" { print $2 }')
missing=""
for p in GRAPHITE_HOST GRAPHITE_PORT GRAPHITE_PREFIX INFLUXDB_HOST INFLUXDB_PORT PROMETHEUS_PORT \
  INTERVAL HOSTNAME COUNTERS_FILE CONFIG_FILE PURGE; do
  case ";$secure;" in *";$p;"*) ;; *) missing="$missing $p" ;; esac
done
e2e_is "$missing" "" "SecureCustomProperties lists the eleven public properties"
regs=$(table Registry | awk -F'\t' '$2 == 2 && $3 == "SOFTWARE\\collectd-winperf" && $5 == "[" $4 "]" { print $4 }' | sort | tr '\n' ' ')
e2e_is "$regs" "GRAPHITE_HOST GRAPHITE_PORT GRAPHITE_PREFIX HOSTNAME INFLUXDB_HOST INFLUXDB_PORT INTERVAL PROMETHEUS_PORT SERVICE_ACCOUNT " \
  "Registry: each setting stored under HKLM\\SOFTWARE\\collectd-winperf for the service"
search=$(table RegLocator | awk -F'\t' '$3 == "SOFTWARE\\collectd-winperf" { print $4 }' | sort | tr '\n' ' ')
e2e_is "$search" "$regs" "RegLocator: each stored setting is read back by AppSearch"
attrs=$(table Component | awk -F'\t' '$1 == "Settings" { print $4 }')
[ -n "$attrs" ] && [ $((attrs & 16)) -eq 16 ]
e2e_ok $? "the stored settings' component is Permanent (Attributes $attrs): removal keeps them"
ev=$(table Registry | awk -F'\t' '$3 == "SYSTEM\\CurrentControlSet\\Services\\EventLog\\Application\\collectd" { print $4 "=" $5 }' | sort | tr '\n' ' ')
e2e_is "$ev" "EventMessageFile=[INSTALLDIR]collectd-events.dll TypesSupported=#7 " \
  "the Event Log source collectd with collectd-events.dll as its message file"
up=$(table Upgrade | awk -F'\t' '$7 == "WIX_UPGRADE_DETECTED" { print $5 }')
e2e_is "$up" 513 "upgrade row: same version included (0x200) and features migrated (0x1)"

mkdir -p "$E2E_DIR/x"
msiextract -C "$E2E_DIR/x" "$MSI" >"$E2E_DIR/extract.txt" 2>&1
e2e_ok $? "msiextract"
X=$(dirname "$(find "$E2E_DIR/x" -name collectd.exe | head -1)")
cmp -s "$X/collectd.exe" "$B/dist/collectd.exe" &&
  cmp -s "$X/plugins/winperf.dll" "$B/dist/plugins/winperf.dll" &&
  cmp -s "$X/plugins/network.dll" "$B/dist/plugins/network.dll" &&
  cmp -s "$X/plugins/write_prometheus.dll" "$B/dist/plugins/write_prometheus.dll" &&
  cmp -s "$X/collectd.conf.template" "$HERE/collectd.conf.template"
e2e_ok $? "extracted collectd.exe, winperf.dll, network.dll, write_prometheus.dll and the template are the built ones"

# ------------------------------------------------------------ wine msiexec
# shellcheck source=wine-lib.sh
. "$HERE/wine-lib.sh"
wine_prefix_init
PF="$WINEPREFIX/drive_c/Program Files/collectd"
PD="$WINEPREFIX/drive_c/ProgramData/collectd"
LOG=$PD/collectd.log
wine_services_pipe_timeout 120000
e2e_ok $? "ServicesPipeTimeout 120 s (a cold prefix on a loaded machine)"
wine_register_provider "$PROVIDER"
e2e_ok $? "test performance provider registered"
e2e_start_carbon
e2e_start_influx
e2e_ok 0 "carbon on 127.0.0.1:$CARBON_PORT, InfluxDB's collectd input on 127.0.0.1:$INFLUX_COLLECTD/udp"
PROM_PORT=$(e2e_free_port tcp)
wine_counters_yaml "$E2E_DIR/counters.yaml"
log() { tr -d '\r' <"$LOG" 2>/dev/null; }
log_since() { # log_since PATTERN: the log from the last line matching PATTERN
  log | awk -v p="$1" '$0 ~ p { buf = "" } { buf = buf $0 "\n" } END { printf "%s", buf }'
}
collectd_procs() { wine_procs 'collectd\.exe'; }
no_collectd() { [ -z "$(collectd_procs)" ]; }

[ -z "$(collectd_procs)" ]
e2e_ok $? "no collectd.exe before the install"
timeout 600 wine msiexec /i "$(winpath "$MSI")" /qn /l*v "$(winpath "$E2E_DIR/install.log")" \
  GRAPHITE_HOST=127.0.0.1 GRAPHITE_PORT="$CARBON_PORT" INFLUXDB_HOST=127.0.0.1 \
  INFLUXDB_PORT="$INFLUX_COLLECTD" PROMETHEUS_PORT="$PROM_PORT" INTERVAL=1 \
  COUNTERS_FILE="$(winpath "$E2E_DIR/counters.yaml")" >/dev/null 2>&1
e2e_ok $? "wine msiexec /i v1.msi /qn GRAPHITE_HOST=127.0.0.1 GRAPHITE_PORT=$CARBON_PORT INFLUXDB_HOST=127.0.0.1 INFLUXDB_PORT=$INFLUX_COLLECTD PROMETHEUS_PORT=$PROM_PORT INTERVAL=1 COUNTERS_FILE=..."
tr -d '\0\r' <"$E2E_DIR/install.log" | grep -E 'Action ended .*(Services|MsiConfigureServices)' | e2e_diag
missing=""
for f in collectd.exe libgnu.dll types.db winperf.exe collectd.conf.template plugins/winperf.dll \
  plugins/write_graphite.dll plugins/logfile.dll plugins/network.dll plugins/csv.dll \
  plugins/write_prometheus.dll; do
  [ -f "$PF/$f" ] || missing="$missing $f"
done
e2e_is "$missing" "" "programs and plugins under C:\\Program Files\\collectd"

e2e_wait_for 120 wine_service_is collectd RUNNING
e2e_ok $? "wine sc query collectd: RUNNING"
timeout 60 wine sc query collectd 2>&1 | tr -d '\r' | e2e_diag
n=$(collectd_procs | grep -c -- '--service')
e2e_is "$n" 1 "one collectd.exe, the service's (collectd.exe --service), none started by this test"
collectd_procs | e2e_diag

conf=$(tr -d '\r' <"$PD/collectd.conf" 2>/dev/null)
ok=0
for line in 'Interval 1' '    Host "127.0.0.1"' "    Port \"$CARBON_PORT\"" 'LoadPlugin network' \
  "  Server \"127.0.0.1\" \"$INFLUX_COLLECTD\"" '  CountersFile "C:/ProgramData/collectd/winperf.yaml"' \
  'LoadPlugin write_prometheus' "  Port \"$PROM_PORT\"" 'PluginDir "C:/Program Files/collectd/plugins"'; do
  printf '%s\n' "$conf" | grep -qxF -- "$line" || {
    ok=1
    echo "missing: $line" | e2e_diag
  }
done
head -1 "$PD/collectd.conf" | grep -q '^# Generated by the collectd service'
e2e_ok $(( ok || $? )) "the service generated collectd.conf from the properties (marker line, write_graphite, network towards InfluxDB, write_prometheus on $PROM_PORT)"
cmp -s "$PD/winperf.yaml" "$E2E_DIR/counters.yaml"
e2e_ok $? "COUNTERS_FILE copied to C:\\ProgramData\\collectd\\winperf.yaml"
log | grep -q 'collectd service: generated ' &&
  log | grep -q 'plugin "network" successfully loaded' &&
  log | grep -q 'plugin "write_prometheus" successfully loaded' &&
  log | grep -q 'collectd service: configuration read, running'
e2e_ok $? "collectd.log: configuration generated, network and write_prometheus loaded, running"

# --------------------------------------------- values in carbon and InfluxDB
# collectd's host name under Wine is the machine's: the one directory under
# the "collectd." prefix.
W=""
carbon_enough() {
  W=$(find "$CARBON_DIR/whisper/collectd" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | head -1)
  [ -n "$W" ] && [ "$(wine_whisper_points "$W/winperf-230-winperf/gauge-6.wsp")" -ge 6 ] &&
    [ "$(wine_whisper_points "$W/winperf-238-0/gauge-10001.wsp")" -ge 6 ]
}
IHOST_WHERE=""
influx_values() { # influx_values SERIES: its values in InfluxDB, oldest first
  local s=${1#winperf-} inst ti
  inst=${s%%.gauge-*}
  ti=${s#*.gauge-}
  e2e_influx_query "SELECT value FROM winperf_value WHERE instance = '$inst' AND type = 'gauge' AND type_instance = '$ti'$IHOST_WHERE" |
    awk '{ print $2 }'
}
influx_enough() { [ "$(influx_values winperf-230-winperf.gauge-6 | grep -c .)" -ge 6 ]; }
e2e_wait_for 180 carbon_enough
e2e_ok $? "carbon stores 6 or more values of the winperf series (collectd.$(basename "${W:-?}"))"
e2e_wait_for 60 influx_enough
e2e_ok $? "InfluxDB stores 6 or more values of the winperf series (network plugin)"
now=$(date +%s)
carbon_values() { # carbon_values SERIES: its values in whisper, oldest first
  local f="$W/${1//.//}.wsp"
  [ -f "$f" ] || return 0
  /usr/bin/whisper-fetch --json --from=$((now - 600)) --until="$now" "$f" |
    jq -r '.values[] | select(. != null)'
}
wine_check carbon_values carbon exact "$WINE_EXACT"
wine_check carbon_values carbon 0.01 "$WINE_NEAR"
wine_check influx_values InfluxDB exact "$WINE_EXACT"
wine_check influx_values InfluxDB 0.01 "$WINE_NEAR"

# PROMETHEUS_PORT: the service's write_prometheus, scraped over HTTP. The
# exact series of the provider are in it with their values, under the
# names of doc/backends.md (the host is the label "instance").
HOST=$(basename "${W:-?}")
curl -sf -o "$E2E_DIR/metrics.txt" "http://127.0.0.1:$PROM_PORT/metrics"
e2e_ok $? "GET http://127.0.0.1:$PROM_PORT/metrics from the service (PROMETHEUS_PORT)"
bad=""
while read -r series want; do
  obj=${series%%.*} tc=${series#*.}
  got=$(awk -v m="collectd_winperf_${tc%%-*}{winperf=\"${obj#winperf-}\",type=\"${tc#*-}\",instance=\"$HOST\"}" \
    '$1 == m { print $2 }' "$E2E_DIR/metrics.txt")
  awk -v g="$got" -v w="$want" 'BEGIN { exit !(g != "" && g + 0 == w + 0) }' || bad="$bad $series=${got:-missing}"
done <<<"$WINE_EXACT"
e2e_is "$bad" "" "/metrics: the $(echo "$WINE_EXACT" | wc -l) series on the provider's clock, exact (collectd_winperf_gauge{winperf, type, instance=\"$HOST\"})"

# ------------------------------------------------------------------- stop
# stop_timed: `wine net stop collectd`; STOP_WALL its wall time (ms),
# STOP_LOG the seconds between the service's "stopping" and "stopped" lines.
stop_timed() {
  local t0 t1 a b
  t0=$(date +%s%N)
  timeout 120 wine net stop collectd >"$E2E_DIR/netstop.out" 2>&1
  STOP_RC=$?
  t1=$(date +%s%N)
  STOP_WALL=$(((t1 - t0) / 1000000))
  a=$(log | grep 'collectd service: stop requested' | tail -1 | sed 's/^\[\([^]]*\)\].*/\1/')
  b=$(log | grep 'collectd service: stopped' | tail -1 | sed 's/^\[\([^]]*\)\].*/\1/')
  STOP_LOG=$(($(date -d "$b" +%s 2>/dev/null || echo 999) - $(date -d "$a" +%s 2>/dev/null || echo 0)))
}
stop_timed
e2e_ok $STOP_RC "wine net stop collectd"
e2e_is "$(wine_service_state collectd)" STOPPED "sc query collectd: STOPPED"
e2e_wait_for 10 no_collectd
e2e_ok $? "no collectd.exe left"
log_since 'collectd service: stop requested' | grep -q 'Exiting normally'
e2e_ok $? "collectd.log: collectd's own shutdown ran (Exiting normally)"
[ "$STOP_LOG" -le 4 ]
e2e_ok $? "stopped ${STOP_LOG}s after the stop request (log), net stop took ${STOP_WALL} ms"
log_since 'collectd service: stop requested' | e2e_diag

# ---------------------------------------------------------------- upgrade
# The user's edits: the first line (the service's marker) deleted, so the
# file is the user's; Interval 10, a host name, write_graphite flushed only
# every hour (so what reaches carbon after the stop below was flushed by
# it), and a comment in the counter list.
sed -i -e '1d' -e 's/^Interval 1\r\?$/Interval 10/' -e 's/^Hostname ".*"/Hostname "edited"/' \
  -e 's/^  FlushInterval 1\r\?$/  FlushInterval 3600/' "$PD/collectd.conf"
printf '# edited by the user\n' >>"$PD/winperf.yaml"
cp "$PD/collectd.conf" "$E2E_DIR/user.conf"
cp "$PD/winperf.yaml" "$E2E_DIR/user.yaml"
grep -q '^Hostname "edited"' "$E2E_DIR/user.conf" && grep -q '^Interval 10' "$E2E_DIR/user.conf" &&
  grep -q '^  FlushInterval 3600' "$E2E_DIR/user.conf"
e2e_ok $? "collectd.conf edited: marker line deleted, Interval 10, Hostname \"edited\", FlushInterval 3600"
starts=$(log | grep -c 'collectd service: configuration read, running')

timeout 600 wine msiexec /i "$(winpath "$MSI2")" /qn /l*v "$(winpath "$E2E_DIR/upgrade.log")" >/dev/null 2>&1
e2e_ok $? "wine msiexec /i v2.msi /qn (major upgrade)"
cmp -s "$PD/collectd.conf" "$E2E_DIR/user.conf" && cmp -s "$PD/winperf.yaml" "$E2E_DIR/user.yaml"
e2e_ok $? "upgrade keeps the edited collectd.conf and winperf.yaml"
tr -d '\0' <"$E2E_DIR/upgrade.log" 2>/dev/null | grep -a -q 'RemoveExistingProducts'
e2e_ok $? "upgrade ran RemoveExistingProducts (the old version is removed)"
n=$(timeout 60 wine reg query 'HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall' /s 2>/dev/null |
  tr -d '\r' | grep -c 'DisplayName.*collectd with winperf')
e2e_is "$n" 1 "one 'collectd with winperf' in the uninstall list after the upgrade"
e2e_wait_for 120 wine_service_is collectd RUNNING
e2e_ok $? "sc query collectd: RUNNING after the upgrade"
running_again() { [ "$(log | grep -c 'collectd service: configuration read, running')" -gt "$starts" ]; }
e2e_wait_for 60 running_again
e2e_ok $? "the upgrade started the service again"
e2e_is "$(log | grep -c 'collectd service: generated ')" 1 \
  "the user's configuration won: nothing generated on the upgrade"
log_since 'collectd service: starting' | grep -q 'does not start with the line the service writes: .* used as it is'
e2e_ok $? "collectd.log (and the Event Log) say the user's configuration is used as it is"
n=$(collectd_procs | grep -c -- '--service')
e2e_is "$n" 1 "one collectd.exe (the service's)"

# At Interval 10: let the first read dispatch (one-sample counters such as
# \2\250 have a value at once), then stop: within 5 s, and the queued values
# reach carbon and InfluxDB although write_graphite would flush only in an
# hour and the network plugin's packet is not full.
read_loop_entered() { [ "$(log | grep -c 'entering read-loop')" -gt "$starts" ]; }
e2e_wait_for 60 read_loop_entered
sleep 5
stop_timed
e2e_ok $STOP_RC "wine net stop collectd at Interval 10"
[ "$STOP_LOG" -le 4 ]
e2e_ok $? "stopped within 5 s at Interval 10: ${STOP_LOG}s by the log, net stop took ${STOP_WALL} ms"
e2e_is "$(wine_service_state collectd)" STOPPED "sc query collectd: STOPPED"
e2e_wait_for 10 no_collectd
e2e_ok $? "no collectd.exe left"
edited42() { [ -f "$CARBON_DIR/whisper/collectd/edited/winperf-2/gauge-250.wsp" ] &&
  /usr/bin/whisper-fetch --json --from=$(($(date +%s) - 600)) "$CARBON_DIR/whisper/collectd/edited/winperf-2/gauge-250.wsp" |
  jq -r '.values[] | select(. != null)' | grep -qx 42; }
e2e_wait_for 60 edited42
e2e_ok $? "carbon got collectd.edited.winperf-2.gauge-250 = 42 (flushed at the stop)"
IHOST_WHERE=" AND host = 'edited'"
influx_edited42() { influx_values winperf-2.gauge-250 | grep -qx 42; }
e2e_wait_for 30 influx_edited42
e2e_ok $? "InfluxDB got host=edited winperf-2 250 = 42 (network's packet sent at the stop)"
log_since 'collectd service: stop requested' | e2e_diag

# ------------------------------------------------------ configuration error
cp "$PD/collectd.conf" "$E2E_DIR/good.conf"
printf '<Plugin winperf\n' >>"$PD/collectd.conf"
timeout 120 wine net start collectd >/dev/null 2>&1
e2e_wait_for 60 wine_service_is collectd STOPPED
e2e_ok $? "with a broken collectd.conf the service does not run (STOPPED)"
code=$(timeout 60 wine sc query collectd 2>/dev/null | tr -d '\r' | awk '$1 == "SERVICE_EXIT_CODE" { print $3 }')
e2e_is "$code" 1 "sc query: SERVICE_EXIT_CODE 1 (configuration error)"
log_since 'collectd service: starting' | grep -q 'Parsing the config file failed' &&
  log_since 'collectd service: starting' | grep -q 'collectd service: collectd did not start'
e2e_ok $? "collectd.log says why (collectd's stderr: Parsing the config file failed)"
log_since 'collectd service: starting' | e2e_diag
e2e_wait_for 10 no_collectd
e2e_ok $? "no collectd.exe left"
cp "$E2E_DIR/good.conf" "$PD/collectd.conf"

# ----------------------------------------------------------------- removal
timeout 600 wine msiexec /x "$(winpath "$MSI2")" /qn >/dev/null 2>&1
e2e_ok $? "wine msiexec /x /qn"
e2e_is "$(wine_service_state collectd)" NONE "the collectd service is removed (sc query: does not exist)"
e2e_wait_for 10 no_collectd
e2e_ok $? "no collectd.exe left"
[ ! -e "$PF/collectd.exe" ] && [ ! -e "$PF/plugins/winperf.dll" ] && [ ! -d "$PF" ]
e2e_ok $? "C:\\Program Files\\collectd removed"
cmp -s "$PD/collectd.conf" "$E2E_DIR/good.conf" && cmp -s "$PD/winperf.yaml" "$E2E_DIR/user.yaml" && [ -s "$LOG" ]
e2e_ok $? "collectd.conf, winperf.yaml and collectd.log stay in C:\\ProgramData\\collectd"
timeout 60 wine reg query 'HKLM\SOFTWARE\collectd-winperf' /v INTERVAL 2>/dev/null | tr -d '\r' | grep -q 'INTERVAL.*REG_SZ.*1$'
e2e_ok $? "the stored settings stay too (HKLM\\SOFTWARE\\collectd-winperf INTERVAL 1)"
n=$(timeout 60 wine reg query 'HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall' /s 2>/dev/null |
  tr -d '\r' | grep -c 'DisplayName.*collectd with winperf')
e2e_is "$n" 0 "no 'collectd with winperf' in the uninstall list after removal"
e2e_done
