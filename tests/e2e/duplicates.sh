#!/bin/bash
# collectd-winperf end to end: one counter in two CountersFile entries, in
# real collectd 5.12. Entries whose output settings differ (formatted and
# raw) each dispatch it; entries whose outputs are alike (\Processor(*)
# and \Processor(_Total)) dispatch it once, and the one that can never
# dispatch anything is logged once, naming both entries. Entries that
# differ only in a setting that keeps the name (scale) would send two
# values for one series: where the list shows it (an earlier entry's path
# takes the later one's values) the CountersFile is refused at start,
# naming both; where only the values show it (a later "(*)" entry) both
# dispatch, under the one name, and that is warned about once.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# The capture is tests/e2e/e2e_capture.c's "exact" (sample k stamped
# T0 + k, Timestamp "sample"; blob 6 malformed and skipped, so interval 7
# pairs sample 7 with 5 over 2 s), the writer collectd's csv plugin, which
# appends every value it is handed: a value dispatched twice is two lines
# with one time. Expected (by hand from e2e_capture.c; "-": no line):
#   Pages/sec formatted, COUNTER_COUNTER dN / dt:
#     - 300 150 - 200 100 - 250 0 40 1200 7   (3: the counter reset)
#   Pages/sec raw, derive, the reading itself, whatever the pair:
#     1000 1300 1450 50 250 350 - 850 850 890 2090 2097
#   Processor(_Total) % Processor Time, 100NSEC_TIMER_INV: 50 each
#     interval but 0 and 6, once each though two entries match it
#   LogicalDisk(C:) Avg. Disk sec/Read, AVERAGE_TIMER, and LogicalDisk(*)
#     (C: alone) x1000, both under one name, the first entry's first:
#     - 0.003|3 0|0 0.0025|2.5 0.0005|0.5 ...
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

K=12
e2e_init dup
need collectd
e2e_plugin_dir logfile csv
GEN=$top_builddir/tests/e2e/e2e_capture
[ -x "$GEN" ] || e2e_bail "capture generator $GEN built"
T0=$(($(date +%s) - 60))
"$GEN" exact "$E2E_DIR/capture" "$T0" || e2e_bail "generate the capture"

Y=$E2E_DIR/winperf.yaml
cat >"$Y" <<'EOF'
- '\Memory\Pages/sec'
- path: '\Memory\Pages/sec'
  raw: true
- '\Processor(*)\% Processor Time'
- '\Processor(_Total)\% Processor Time'
- '\LogicalDisk(C:)\Avg. Disk sec/Read'
- path: '\LogicalDisk(*)\Avg. Disk sec/Read'
  scale: 1000
EOF

# One write thread: the csv plugin gets the values in dispatch order, and
# two threads never race to create one series' file (its header).
cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_globals dup-collectd 0.25)
WriteThreads 1
$(e2e_conf_logfile)
LoadPlugin csv
<Plugin csv>
  DataDir "$E2E_DIR/csv"
  StoreRates false
</Plugin>
LoadPlugin winperf
<Plugin winperf>
  CountersFile "$Y"
  Replay "$E2E_DIR/capture"
  ReplayLoop false
  ValueMode "formatted"
  Timestamp "sample"
  Host "duphost"
  SelfMetrics false
</Plugin>
EOF

C=$E2E_DIR/csv/duphost
# series PLUGIN_INSTANCE TYPE-TYPE_INSTANCE: the csv plugin's lines of one
# series (every day's file), "time value" with the time as a slot
# (T0 + k -> k), in the order written.
series() {
  cat "$C/winperf-$1/$2"-* 2>/dev/null | grep '^[0-9]' |
    awk -F, -v t0="$T0" '{ printf "%d %s\n", $1 - t0, $2 + 0 }'
}
# slots PLUGIN_INSTANCE TYPE-TYPE_INSTANCE: the series as K slots, "-"
# where no line is, "a|b" where two lines share a time.
slots() {
  series "$1" "$2" | awk -v k="$K" '
    { v[$1] = n[$1]++ ? v[$1] "|" $2 : $2 }
    END { for (i = 0; i < k; i++) printf "%s%s", (i ? " " : ""), (i in v) ? v[i] : "-" }'
}
last_written() { series Memory derive-Pages_sec | grep -q '^11 2097$'; }

e2e_spawn "$E2E_DIR/collectd.stdout" /usr/sbin/collectd -f -C "$E2E_DIR/collectd.conf"
COLLECTD_PID=$E2E_LAST_PID
e2e_wait_for 60 last_written
e2e_ok $? "the last interval was written"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"

e2e_is "$(slots Memory gauge-Pages_sec)" \
  '- 300 150 - 200 100 - 250 0 40 1200 7' \
  "the formatted entry: Pages/sec per second, once a slot"
e2e_is "$(slots Memory derive-Pages_sec)" \
  '1000 1300 1450 50 250 350 - 850 850 890 2090 2097' \
  "the raw entry of the same counter: its readings as derive, once a slot"
e2e_is "$(slots Processor-_Total 'gauge-% Processor Time')" \
  '- 50 50 50 50 50 - 50 50 50 50 50' \
  "_Total, matched by two entries alike: dispatched once a slot"
e2e_is "$(slots Processor-0 'gauge-% Processor Time')" \
  '- 30 75 0 10 50 - 25 12.5 40 100 60' \
  "Processor(0) of the (*) entry"
e2e_is "$(slots LogicalDisk-C: 'gauge-Avg. Disk sec_Read' | cut -d' ' -f1-5)" \
  '- 0.003|3 0|0 0.0025|2.5 0.0005|0.5' \
  "a scale apart: each entry dispatches, under the one name"

L=$E2E_DIR/collectd.log
e2e_is "$(grep -c 'dispatches nothing' "$L")" 1 "one entry that dispatches nothing, logged once"
grep -qF "[info] winperf: $Y:5:3: \\Processor(_Total)\\% Processor Time dispatches nothing: $Y:4:3 (\\Processor(*)\\% Processor Time) dispatches every value it matches, with the same output settings (see \"Duplicates\" in collectd-winperf(5))" "$L"
e2e_ok $? "it names both entries, file:line:column"
e2e_is "$(grep -c 'dispatched twice' "$L")" 1 "one warning for the counter dispatched twice under one name"
grep -qF "[warning] winperf: $E2E_DIR/capture/0000.blob: \\LogicalDisk(C:)\\Avg. Disk sec/Read is dispatched twice as winperf-LogicalDisk-C:/gauge-Avg. Disk sec_Read, by $Y:6:3 and $Y:7:3, whose output settings differ: two values for one series (set plugin_instance or type_instance for one of them)" "$L"
e2e_ok $? "it names the counter, the name and both entries"

# The same path again with only a scale: refused at start (collectd -T
# runs the plugin's init), file:line:column of both and the setting named.
Y2=$E2E_DIR/clash.yaml
printf '%s\n' "- '\\Memory\\Pages/sec'" "- path: '\\Memory\\Pages/sec'" \
  '  scale: 0.001' >"$Y2"
sed "s|CountersFile \"$Y\"|CountersFile \"$Y2\"|" "$E2E_DIR/collectd.conf" \
  >"$E2E_DIR/clash.conf"
: >"$L"
/usr/sbin/collectd -T -C "$E2E_DIR/clash.conf" >"$E2E_DIR/clash.stdout" 2>&1
E2E_STATUS=$?
e2e_ok $((E2E_STATUS == 0)) "a scale apart on one path: collectd refuses the configuration (exit $E2E_STATUS)"
grep -qF "[error] winperf: $Y2:2:3: \\Memory\\Pages/sec would dispatch the values of $Y2:1:3 (\\Memory\\Pages/sec) again under the same names with another scale: two values for one series (set plugin_instance or type_instance for one of them; see \"Duplicates\" in collectd-winperf(5))" "$L"
e2e_ok $? "it names both entries and the setting"

e2e_done
