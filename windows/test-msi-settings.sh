#!/bin/bash
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# The MSI's settings follow the admin, and the service logs the Windows way,
# under Wine (TAP):
#
#   windows/test-msi-settings.sh [--msi FILE] [BUILD_DIR]   (default build/windows)
#
# FILE is the package installed first (make release-check passes the
# release's signed MSI; by default one is built from BUILD_DIR/dist); the
# upgrades are built from BUILD_DIR/dist with versions 99.0.0 and 99.0.1.
# A fresh WINEPREFIX, a real carbon, and in order:
#   1. install with properties A (GRAPHITE_PORT, GRAPHITE_PREFIX alpha.,
#      HOSTNAME hosta, INTERVAL 1, COUNTERS_FILE): the configuration is
#      generated from them (marker line first), carbon gets alpha.hosta.*;
#   2. upgrade with B (GRAPHITE_PREFIX beta., HOSTNAME hostb): B in use
#      (beta.hostb.* in carbon), the rest of A kept;
#   3. upgrade with no property: B kept;
#   4. maintenance reinstall (the same package, REINSTALL=ALL
#      REINSTALLMODE=omus HOSTNAME=hostc): applied, the service restarted;
#   5. an admin's edit (the marker line deleted): kept through a restart and
#      a reinstall with properties, one Event Log warning per start;
#   6. CONFIG_FILE: copied at install byte for byte and used as it is;
#   7. GRAPHITE_HOST=none with INFLUXDB_HOST: no write_graphite loaded and no
#      Graphite line in the log, the network plugin loaded;
#   8. collectd's errors in the Event Log at most once an hour: a
#      write_graphite towards a closed port fails every interval, the Event
#      Log gets the message once, and at the stop the count of repeats;
#   9. a broken configuration: the service stops (exit code 1) and the Event
#      Log says why;
#  10. collectd.log rotated at 10 MiB: .1 -> .2 -> .3, the oldest dropped;
#  11. removal keeps the configuration, the logs and the settings (and says
#      so in the Event Log); a fresh install after it uses them;
#  12. removal with PURGE=1 deletes them;
#  13. collectd-events.dll formats the Event Log's text (FormatMessage).
# Wine keeps no event log: ReportEvent is a stub that writes each record
# to the +eventlog debug channel (trace/warn/err by type); the test reads
# that trace from services.exe (the service) and from msiexec (the custom
# actions), so it sees the calls the service makes, not a stored log.

HERE=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "$HERE/.." && pwd)
MSI1=""
if [ "${1:-}" = --msi ]; then
  MSI1=$2
  shift 2
fi
B=${1:-$top_srcdir/build/windows}
# shellcheck source=../tests/e2e/lib.sh
. "$top_srcdir/tests/e2e/lib.sh"
need wine wineboot wineserver wixl msiinfo msibuild whisper-fetch jq python3 x86_64-w64-mingw32-gcc
[ -f "$B/dist/collectd.exe" ] || e2e_bail "$B/dist/collectd.exe exists (run windows/build-collectd.sh first)"
B=$(cd "$B" && pwd)
e2e_init msi-settings
W=$E2E_DIR

# ---------------------------------------------------------------- packages
if [ -z "$MSI1" ]; then
  MSI1=$("$HERE/build-msi.sh" --out "$W/v1.msi" "$B" 2>"$W/wixl.log" | tail -1)
fi
"$HERE/build-msi.sh" --out "$W/v2.msi" "$B" 99.0.0 >>"$W/wixl.log" 2>&1 &&
  "$HERE/build-msi.sh" --out "$W/v3.msi" "$B" 99.0.1 >>"$W/wixl.log" 2>&1
status=$?
[ -f "$MSI1" ] && [ "$status" -eq 0 ]
e2e_ok $? "packages: $(basename "$MSI1") first, upgrades 99.0.0 and 99.0.1 built from $B/dist"

# ------------------------------------------------------------------ prefix
# shellcheck source=wine-lib.sh
. "$HERE/wine-lib.sh"
wine_prefix_init
PD=$WINEPREFIX/drive_c/ProgramData/collectd
CONF=$PD/collectd.conf
LOG=$PD/collectd.log
TRACE=$W/eventlog.trace
wine_services_pipe_timeout 120000
e2e_ok $? "ServicesPipeTimeout 120 s"
# services.exe (and the service it starts) report through the +eventlog
# channel on their stderr: restart the server with the channel on and that
# stderr in the trace file.
wineserver -k >/dev/null 2>&1
wineserver -w >/dev/null 2>&1
wineserver -p >/dev/null 2>&1
WINEDEBUG=-all,+eventlog timeout 300 wine wineboot >/dev/null 2>>"$TRACE"
e2e_start_carbon
e2e_ok 0 "carbon on 127.0.0.1:$CARBON_PORT"

log() { [ ! -f "$LOG" ] || tr -d '\r' <"$LOG"; }
# log_since PATTERN: the log from the last line matching PATTERN on
log_since() { log | awk -v p="$1" '$0 ~ p { buf = "" } { buf = buf $0 "\n" } END { printf "%s", buf }'; }
starts() { log | grep -c 'collectd service: starting'; }
events() { grep -a 'eventlog:ReportEventW' "$TRACE" 2>/dev/null; } # every record so far
# msi LOGNAME ARGS...: wine msiexec ARGS /qn, its custom actions traced
msi() {
  local name=$1
  shift
  WINEDEBUG=-all,+eventlog timeout 600 wine msiexec "$@" /qn /l*v "$(winpath "$W/$name.log")" \
    >/dev/null 2>>"$TRACE"
}
setting() { # setting NAME: the stored value
  timeout 60 wine reg query 'HKLM\SOFTWARE\collectd-winperf' /v "$1" 2>/dev/null | tr -d '\r' |
    awk -v n="$1" '$1 == n { $1 = ""; $2 = ""; sub(/^ +/, ""); print }'
}
conf_has() { tr -d '\r' <"$CONF" 2>/dev/null | grep -qxF -- "$1"; }
# running_since N: the service is RUNNING and collectd read a configuration
# after start number N
running_since() {
  wine_service_is collectd RUNNING &&
    [ "$(log | grep -c 'collectd service: configuration read, running')" -gt "$1" ]
}
# in_carbon PREFIX HOST: the self-metrics of collectd's host HOST under the
# Graphite prefix PREFIX have reached carbon (whisper files of that path)
in_carbon() {
  local d=$CARBON_DIR/whisper/${1%.}/$2/winperf-self
  [ -n "$(find "$d" -name '*.wsp' 2>/dev/null | head -1)" ]
}
stop_service() {
  timeout 120 wine net stop collectd >/dev/null 2>&1
  e2e_wait_for 30 wine_service_is collectd STOPPED
}

# --------------------------------------------------------------- 1. A
printf -- '- \\238(*)\\6\n# the counters of the test\n' >"$W/counters.yaml"
n=$(starts)
msi install-a /i "$(winpath "$MSI1")" GRAPHITE_HOST=127.0.0.1 GRAPHITE_PORT="$CARBON_PORT" \
  GRAPHITE_PREFIX=alpha. HOSTNAME=hosta INTERVAL=1 COUNTERS_FILE="$(winpath "$W/counters.yaml")"
e2e_ok $? "install A: msiexec /i GRAPHITE_HOST=127.0.0.1 GRAPHITE_PORT=$CARBON_PORT GRAPHITE_PREFIX=alpha. HOSTNAME=hosta INTERVAL=1 COUNTERS_FILE=..."
e2e_wait_for 120 running_since "$n"
e2e_ok $? "the service runs"
head -1 "$CONF" | grep -q '^# Generated by the collectd service' &&
  conf_has 'Hostname "hosta"' && conf_has 'Interval 1' && conf_has '    Prefix "alpha."' &&
  conf_has "    Port \"$CARBON_PORT\"" && conf_has '<LoadPlugin write_graphite>' && ! conf_has 'LoadPlugin logfile'
e2e_ok $? "collectd.conf generated from A: marker line, Hostname hosta, Interval 1, Prefix alpha., Port $CARBON_PORT, no logfile plugin"
conf_has '#LoadPlugin write_prometheus' && ! conf_has 'LoadPlugin write_prometheus' &&
  ! log | grep -q 'write_prometheus'
e2e_ok $? "no PROMETHEUS_PORT given: write_prometheus commented out, not loaded (off by default)"
cmp -s "$PD/winperf.yaml" "$W/counters.yaml"
e2e_ok $? "COUNTERS_FILE copied to winperf.yaml at install"
e2e_is "$(setting GRAPHITE_PREFIX) $(setting HOSTNAME) $(setting INTERVAL)" "alpha. hosta 1" \
  "settings stored: GRAPHITE_PREFIX alpha., HOSTNAME hosta, INTERVAL 1"
e2e_wait_for 60 in_carbon alpha. hosta
e2e_ok $? "carbon gets alpha.hosta.winperf-self.* (A in use)"
events | grep -q 'trace:eventlog:ReportEventW L"collectd service: starting' &&
  events | grep -q 'trace:eventlog:ReportEventW L"collectd service: generated .*HOSTNAME=hosta' &&
  events | grep -q 'trace:eventlog:ReportEventW L"collectd setup: copied COUNTERS_FILE'
e2e_ok $? "Event Log (information): the start, the generated configuration, the COUNTERS_FILE copied at install"

# --------------------------------------------------------------- 2. B
n=$(starts)
msi upgrade-b /i "$(winpath "$W/v2.msi")" GRAPHITE_PREFIX=beta. HOSTNAME=hostb
e2e_ok $? "upgrade with B: msiexec /i 99.0.0 GRAPHITE_PREFIX=beta. HOSTNAME=hostb"
e2e_wait_for 120 running_since "$n"
e2e_ok $? "the service runs again"
conf_has 'Hostname "hostb"' && conf_has '    Prefix "beta."' && conf_has 'Interval 1' &&
  conf_has "    Port \"$CARBON_PORT\""
e2e_ok $? "collectd.conf from B (hostb, beta.), the properties not given kept from A (Interval 1, Port $CARBON_PORT)"
e2e_wait_for 60 in_carbon beta. hostb
e2e_ok $? "carbon gets beta.hostb.winperf-self.* (B in use)"
n=$(timeout 60 wine reg query 'HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall' /s 2>/dev/null |
  tr -d '\r' | grep -c 'DisplayName.*collectd with winperf')
e2e_is "$n" 1 "one 'collectd with winperf' installed after the upgrade"

# ------------------------------------------------------- 3. none given
n=$(starts)
msi upgrade-none /i "$(winpath "$W/v3.msi")"
e2e_ok $? "upgrade with no property: msiexec /i 99.0.1"
e2e_wait_for 120 running_since "$n"
e2e_ok $? "the service runs again"
conf_has 'Hostname "hostb"' && conf_has '    Prefix "beta."' && conf_has 'Interval 1'
e2e_ok $? "B kept: hostb, beta., Interval 1"
e2e_is "$(setting GRAPHITE_PREFIX) $(setting HOSTNAME)" "beta. hostb" "settings still B"
# SERVICE_ACCOUNT is stored like the others (its default, LocalSystem, here:
# Wine has no virtual accounts to set; test-msi-account.sh checks the tables).
e2e_is "$(setting SERVICE_ACCOUNT)" LocalSystem "SERVICE_ACCOUNT stored (LocalSystem, the default) for the next upgrade"

# --------------------------------------------------- 4. maintenance reinstall
n=$(starts)
msi reinstall-c /i "$(winpath "$W/v3.msi")" REINSTALL=ALL REINSTALLMODE=omus HOSTNAME=hostc
e2e_ok $? "maintenance reinstall: msiexec /i 99.0.1 REINSTALL=ALL REINSTALLMODE=omus HOSTNAME=hostc"
e2e_wait_for 120 running_since "$n"
e2e_ok $? "the reinstall restarted the service"
conf_has 'Hostname "hostc"' && conf_has '    Prefix "beta."'
e2e_ok $? "collectd.conf: hostc applied, beta. kept"
e2e_wait_for 60 in_carbon beta. hostc
e2e_ok $? "carbon gets beta.hostc.winperf-self.*"

# --------------------------------------------------------- 5. admin's edit
stop_service
sed -i -e '1d' -e 's/^Hostname ".*"/Hostname "edited"/' "$CONF"
cp "$CONF" "$W/edited.conf"
n=$(starts)
w0=$(events | grep -c 'warn:eventlog:ReportEventW L"collectd service: .*does not start with the line')
timeout 120 wine net start collectd >/dev/null 2>&1
e2e_wait_for 60 running_since "$n"
e2e_ok $? "edited collectd.conf (marker line deleted, Hostname edited): the service starts on it"
cmp -s "$CONF" "$W/edited.conf"
e2e_ok $? "the edit is kept across the restart"
e2e_wait_for 60 in_carbon beta. edited
e2e_ok $? "carbon gets beta.edited.winperf-self.* (the edited file in use)"
w1=$(events | grep -c 'warn:eventlog:ReportEventW L"collectd service: .*does not start with the line')
e2e_is "$((w1 - w0))" 1 "one Event Log warning for the start: the administrator's file is used as it is"
n=$(starts)
msi reinstall-edited /i "$(winpath "$W/v3.msi")" REINSTALL=ALL REINSTALLMODE=omus GRAPHITE_PREFIX=gamma.
e2e_wait_for 120 running_since "$n"
cmp -s "$CONF" "$W/edited.conf" && [ "$(setting GRAPHITE_PREFIX)" = gamma. ]
e2e_ok $? "a reinstall with GRAPHITE_PREFIX=gamma. stores it but keeps the edited file"

# --------------------------------------------------------- 6. CONFIG_FILE
tail -n +2 "$W/edited.conf" | sed 's/^Hostname ".*"/Hostname "fromfile"/' >"$W/own.conf"
printf '# %s\n' "the site's own configuration" >>"$W/own.conf"
n=$(starts)
msi config-file /i "$(winpath "$W/v3.msi")" REINSTALL=ALL REINSTALLMODE=omus CONFIG_FILE="$(winpath "$W/own.conf")"
e2e_ok $? "msiexec ... CONFIG_FILE=own.conf"
e2e_wait_for 120 running_since "$n"
e2e_ok $? "the service runs"
cmp -s "$CONF" "$W/own.conf"
e2e_ok $? "collectd.conf is CONFIG_FILE byte for byte"
e2e_wait_for 60 in_carbon beta. fromfile
e2e_ok $? "carbon gets beta.fromfile.winperf-self.* (CONFIG_FILE in use as it is)"
events | grep -q 'trace:eventlog:ReportEventW L"collectd setup: copied CONFIG_FILE'
e2e_ok $? "Event Log: CONFIG_FILE copied at install"
! msi config-missing /i "$(winpath "$W/v3.msi")" REINSTALL=ALL REINSTALLMODE=omus CONFIG_FILE='C:\no\such\file.conf' &&
  events | grep -q 'err:eventlog:ReportEventW L"collectd setup: cannot read CONFIG_FILE'
e2e_ok $? "a CONFIG_FILE that cannot be read fails the install, with an Event Log error"
cmp -s "$CONF" "$W/own.conf"
e2e_ok $? "and leaves collectd.conf as it was"

# ------------------------------------------------ 7. GRAPHITE_HOST=none
stop_service
rm -f "$CONF"
n=$(starts)
msi graphite-none /i "$(winpath "$W/v3.msi")" REINSTALL=ALL REINSTALLMODE=omus \
  GRAPHITE_HOST=none INFLUXDB_HOST=127.0.0.1 INFLUXDB_PORT="$(e2e_free_port udp)"
e2e_ok $? "collectd.conf deleted; msiexec ... GRAPHITE_HOST=none INFLUXDB_HOST=127.0.0.1"
e2e_wait_for 120 running_since "$n"
e2e_ok $? "the service runs with a generated configuration again"
sleep 3
! conf_has '<LoadPlugin write_graphite>' && conf_has '#<LoadPlugin write_graphite>' && conf_has 'LoadPlugin network'
e2e_ok $? "collectd.conf: write_graphite commented out, the network plugin on"
! log_since 'collectd service: starting' | grep -q 'write_graphite' &&
  log_since 'collectd service: starting' | grep -q 'plugin "network" successfully loaded'
e2e_ok $? "no Graphite (write_graphite) line in the log since that start; network loaded"
log_since 'collectd service: starting' | grep 'write_graphite' | head -3 | e2e_diag

# ------------------------------------------ 8. errors once an hour, counted
stop_service
closed=$(e2e_free_port tcp)
n=$(starts)
msi closed-port /i "$(winpath "$W/v3.msi")" REINSTALL=ALL REINSTALLMODE=omus \
  GRAPHITE_HOST=127.0.0.1 GRAPHITE_PORT="$closed" INFLUXDB_HOST=none
e2e_wait_for 120 running_since "$n"
stop_service
failures() { log_since 'collectd service: starting' | grep -c "write_graphite plugin: Connecting to 127.0.0.1:$closed .*failed"; }
three_failures() { [ "$(failures)" -ge 3 ]; }
# Each interval's values make write_graphite try to connect, and fail. A
# read thread blocked in a Wine server call (windows/README.md) dispatches
# nothing, so nothing fails: then this start is stopped and one more made.
for attempt in 1 2; do
  mark=$(wc -l <"$TRACE") # the Event Log records of this start come after
  n=$(starts)
  timeout 120 wine net start collectd >/dev/null 2>&1
  e2e_wait_for 60 running_since "$n" && e2e_wait_for 60 three_failures && break
  echo "attempt $attempt: $(failures) failures in a minute (a blocked read thread?): once more" | e2e_diag
  stop_service
done
e2e_ok $? "write_graphite towards closed port $closed fails: $(failures) errors in collectd.log"
stop_service
f=$(failures)
recorded=$(tail -n +"$((mark + 1))" "$TRACE" |
  grep -ac "err:eventlog:ReportEventW L\"write_graphite plugin: Connecting to 127.0.0.1:$closed .*failed")
e2e_is "$recorded" 2 "the Event Log got that error twice: once at once, once at the stop with the count"
tail -n +"$((mark + 1))" "$TRACE" | grep -a "err:eventlog:ReportEventW L\"write_graphite plugin: Connecting to 127.0.0.1:$closed" |
  tail -1 | grep -q "this message came $((f - 1)) more times"
e2e_ok $? "the record at the stop counts the $((f - 1)) repeats not recorded one by one"
# (Under Wine a read thread sometimes stays blocked in a Wine server call,
# windows/README.md: then the watchdog ends the stop, and says so.)
tail -n +"$((mark + 1))" "$TRACE" |
  grep -a -E -q 'trace:eventlog:ReportEventW L"collectd service: stopped|err:eventlog:ReportEventW L"collectd service: shutdown not finished'
e2e_ok $? "Event Log: the stop ($(events | grep -c 'shutdown not finished') by the watchdog so far)"

# ------------------------------------------------ 9. a broken configuration
tail -n +2 "$CONF" >"$W/broken.conf"
printf '<Plugin winperf\n' >>"$W/broken.conf"
cp "$W/broken.conf" "$CONF"
timeout 120 wine net start collectd >/dev/null 2>&1
e2e_wait_for 60 wine_service_is collectd STOPPED
code=$(timeout 60 wine sc query collectd 2>/dev/null | tr -d '\r' | awk '$1 == "SERVICE_EXIT_CODE" { print $3 }')
e2e_is "$code" 1 "a broken collectd.conf: the service stops with exit code 1"
# (Wine's trace shortens long strings: the whole text is in collectd.log.)
events | grep -q 'err:eventlog:ReportEventW L"collectd service: collectd did not start: the configuration' &&
  log | grep -q '\[error\] collectd service: collectd did not start: .*Last messages: .*Parsing the config file failed'
e2e_ok $? "Event Log error: collectd did not start, with collectd's own last messages (Parsing the config file failed)"

# ------------------------------------------------------ 10. rotation at 10 MiB
rm -f "$CONF" # generated again from the settings
python3 -c 'import sys
line = b"[2000-01-01 00:00:00] [info] filler\r\n"
n = (10 * 1024 * 1024 - 200) // len(line)
open(sys.argv[1], "wb").write(line * n)' "$LOG"
filled=$(stat -c %s "$LOG")
for i in 1 2 3; do printf 'old log %s\n' "$i" >"$LOG.$i"; done
n=0
timeout 120 wine net start collectd >/dev/null 2>&1
e2e_wait_for 60 running_since 0
sizes() { stat -c %s "$LOG" "$LOG.1" "$LOG.2" "$LOG.3" 2>/dev/null | tr '\n' ' '; }
rotated() { [ -f "$LOG.1" ] && [ "$(stat -c %s "$LOG.1")" -ge "$filled" ]; }
e2e_wait_for 30 rotated
e2e_ok $? "collectd.log ($filled bytes, 200 short of 10 MiB) rotated once the next lines did not fit (sizes: $(sizes))"
[ "$(stat -c %s "$LOG.1")" -le $((10 * 1024 * 1024)) ] && head -c 40 "$LOG.1" | grep -q filler &&
  grep -qx 'old log 1' "$LOG.2" && grep -qx 'old log 2' "$LOG.3" && [ ! -e "$LOG.4" ] &&
  ! grep -rqx 'old log 3' "$PD"
e2e_ok $? "collectd.log.1 is the full log (<= 10 MiB), .1 -> .2, .2 -> .3, the oldest dropped, no .4"
tr -d '\r' <"$LOG.1" | tail -n 3 | grep -q 'collectd service: ' && [ -s "$LOG" ] &&
  [ "$(stat -c %s "$LOG")" -lt 1048576 ] && log | grep -qv filler
e2e_ok $? "the first lines of this start ended collectd.log.1, the next ones began a new collectd.log ($(stat -c %s "$LOG") bytes)"
stop_service

# --------------------------------------------------------------- 11. removal
msi remove /x "$(winpath "$W/v3.msi")"
e2e_ok $? "msiexec /x (no PURGE)"
[ "$(wine_service_state collectd)" = NONE ] && [ -f "$CONF" ] && [ -f "$LOG" ] && [ -f "$PD/winperf.yaml" ] &&
  [ "$(setting HOSTNAME)" = hostc ]
e2e_ok $? "the service is gone; collectd.conf, collectd.log, winperf.yaml and the settings are kept"
events | grep -q 'trace:eventlog:ReportEventW L"collectd-winperf removed. Kept: '
e2e_ok $? "Event Log: the removal record says what is kept and how to purge"
rm -f "$CONF"
n=$(starts)
msi reinstall-after-removal /i "$(winpath "$W/v3.msi")"
e2e_wait_for 120 running_since "$n"
conf_has 'Hostname "hostc"' && conf_has "    Port \"$closed\""
e2e_ok $? "installed again with no property: the kept settings are used (hostc, port $closed)"
stop_service

# ------------------------------------------------------------ 12. PURGE=1
msi purge /x "$(winpath "$W/v3.msi")" PURGE=1
e2e_ok $? "msiexec /x PURGE=1"
[ ! -e "$PD" ] && ! timeout 60 wine reg query 'HKLM\SOFTWARE\collectd-winperf' >/dev/null 2>&1
e2e_ok $? "C:\\ProgramData\\collectd and HKLM\\SOFTWARE\\collectd-winperf deleted"
events | grep -q 'trace:eventlog:ReportEventW L"collectd-winperf removed with PURGE=1'
e2e_ok $? "Event Log: the removal with PURGE=1"

# ----------------------------------------------- 13. the message resource
cat >"$W/fmt.c" <<'C'
#include <stdio.h>
#include <windows.h>
/* The text Event Viewer shows for a record of the source: the message of
 * its ID in collectd-events.dll with the record's string as %1. */
int main(int argc, char **argv) {
  HMODULE m = LoadLibraryExA(argv[1], NULL, LOAD_LIBRARY_AS_DATAFILE);
  DWORD ids[3] = {0x40000001, 0x80000002, 0xC0000003};
  for (int i = 0; m != NULL && i < 3; i++) {
    char out[256];
    DWORD_PTR args[1] = {(DWORD_PTR)argv[2]};
    if (FormatMessageA(FORMAT_MESSAGE_FROM_HMODULE | FORMAT_MESSAGE_ARGUMENT_ARRAY, m, ids[i], 0,
                       out, sizeof(out), (va_list *)args) == 0)
      return 1;
    printf("%08lx %s\n", (unsigned long)ids[i], out);
  }
  return m == NULL ? 2 : argc - 3;
}
C
x86_64-w64-mingw32-gcc -o "$W/fmt.exe" "$W/fmt.c" &&
  timeout 60 wine "$(winpath "$W/fmt.exe")" "$(winpath "$B/dist/collectd-events.dll")" 'the record text' \
    2>/dev/null | tr -d '\r' >"$W/fmt.out"
e2e_ok $? "FormatMessage with collectd-events.dll"
grep . "$W/fmt.out" | e2e_diag
[ "$(grep -c ' the record text$' "$W/fmt.out")" -eq 3 ]
e2e_ok $? "information, warning and error (IDs 1, 2, 3) each show the record's own text"
e2e_done
