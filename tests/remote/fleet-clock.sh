#!/bin/bash
# collectd-winperf: a host whose clock is a year off (issue "a fleet polled
# agentlessly without hurting it", 6).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# A real smbd (smbd-lib.sh) serves a sample whose PerfTime100nSec is now +
# 365 days (tests/remote/perfmon_clock.py); a real collectd reads it with
# Timestamp "sample" (the default for hosts) and the default MaxClockSkew
# (60 s), writing to a real carbon and a real InfluxDB. Its values must
# land at the poller's time: in carbon's last minute and in InfluxDB's
# "last hour" query; gauge-clock_skew reports the offset (31,536,000 s, to
# a few seconds); one warning names the host and the offset.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=smbd-lib.sh disable=SC2154 # top_srcdir: lib.sh sets it
. "$top_srcdir/tests/remote/smbd-lib.sh"

# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$(cd "$top_builddir" && pwd)/winperf-remote-helper

smbd_e2e_start clock
e2e_plugin_dir logfile write_graphite network
YEAR=31536000
t_write=$(date +%s)
/usr/bin/python3 "$top_srcdir/tests/remote/perfmon_clock.py" "$SMBD_DIR/state/perfmon" "$YEAR" ||
  e2e_bail "a perfmon sample a year ahead"
e2e_start_carbon
e2e_start_influx
cat >"$E2E_DIR/winperf.yaml" <<'EOF2'
- '\System\Processes'
EOF2
cat >"$E2E_DIR/collectd.conf" <<EOF2
$(e2e_conf_servers clock-collectd)

LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  <Host "ahead">
    Address "127.0.0.1"
    Port $SMBD_PORT
    PasswordFile "$SMBD_DIR/creds"
    Interval 1
    Timeout 10
  </Host>
</Plugin>
EOF2
smbd_collectd_start
e2e_wait_for 30 has_value "$W/ahead/winperf-System/gauge-Processes.wsp" 42
e2e_ok $? "carbon: the host's Processes (42) lands in the last minute (the poller's time)"
influx_points() {
  e2e_influx_query "SELECT value FROM winperf_value WHERE host = 'ahead' AND type_instance = 'Processes' AND time > now() - 1h" | wc -l
}
some_points() { [ "$(influx_points)" -ge 1 ]; }
e2e_wait_for 30 some_points
e2e_ok $? "InfluxDB: its points are in the last hour ($(influx_points))"
future=$(e2e_influx_query "SELECT value FROM winperf_value WHERE host = 'ahead' AND time > now() + 1d" | wc -l)
e2e_is "$future" 0 "InfluxDB: none at the host's own time (a year ahead)"
e2e_wait_for 20 test -f "$W/ahead/winperf-self/gauge-clock_skew.wsp"
# The sample's time is fixed when written: the offset shrinks by the time
# gone since, so: a year less (now - t_write), within 5 s.
skew=$(wsp_values "$W/ahead/winperf-self/gauge-clock_skew.wsp" | awk '{ print $1 }')
gone=$(($(date +%s) - t_write))
echo "clock_skew: $skew (written $gone s ago)" | e2e_diag
awk -v s="$skew" -v y="$YEAR" -v g="$gone" 'BEGIN { exit !(s > y - g - 5 && s < y + 5) }'
e2e_ok $? "clock_skew reports the offset ($skew s; a year less $gone s)"
e2e_is "$(grep -c 'host "ahead": its clock is 315[0-9]* s ahead of collectd'"'"'s (MaxClockSkew 60 s)' "$LOG")" 1 \
  "one warning names the host and the offset"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
e2e_stop "$CARBON_PID" 10
e2e_stop "$INFLUX_PID" 3
e2e_done
