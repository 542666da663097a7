#!/bin/bash
# collectd-winperf end to end: the plugin's self-metrics (winperf/self,
# src/plugin/self_metrics.h) from a replay, in real carbon-cache
# (write_graphite) and real InfluxDB 1.6 (network plugin -> [[collectd]]
# input), with real collectd 5.12.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# The capture is tests/e2e/e2e_capture.c's "self": 6 blobs of one shape,
# blob 3 truncated. Expected, by hand from that shape and the counter file
# below:
#   objects          4 (System, Memory, Process, Print Queue: the whole
#                    answer, selected or not)
#   instances        3 (Process: svchost, svchost#1, explorer; Print Queue
#                    has none; single-instance objects have none)
#   values           7 in the first interval (Available Bytes 1, ID Process
#                    3, Working Set 3; Pages/sec needs two samples), then 8
#   unmatched_paths  3 (Print Queue without instances, the typo Memroy,
#                    Paging File absent from the answer)
#   bytes            the size of each blob file, the truncated one too
#   errors           0 0 0 1 1 1 (blob 3 does not decode)
# so InfluxDB, which keeps every point, holds exactly: 6 points of query
# duration, bytes and errors (a blob arrived every interval), 5 of decode
# duration, objects, instances, values and unmatched_paths (blob 3 never
# decoded). Durations must be plausible: above 0, below 1 s. Carbon keeps
# 1 s slots (several 0.25 s intervals share one, the last wins), so it is
# checked for the metric names and the values each may hold. A second
# block with SelfMetrics false dispatches no self-metric.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

e2e_init selfm
need collectd curl ss influxd
e2e_plugin_dir logfile write_graphite network
GEN=$top_builddir/tests/e2e/e2e_capture
[ -x "$GEN" ] || e2e_bail "capture generator $GEN built"
"$GEN" self "$E2E_DIR/capture" || e2e_bail "generate the capture"
e2e_start_carbon
e2e_start_influx

cat >"$E2E_DIR/winperf.yaml" <<'EOF'
- '\Memory\Available Bytes'
- '\Memory\Pages/sec'
- '\Process(*)\ID Process'
- '\Process(*)\Working Set'
- '\Print Queue(*)\Jobs'
- '\Memroy\Available Bytes'
- '\Paging File(*)\% Usage'
EOF

# write_graphite with its defaults (StoreRates true): every self-metric is
# a gauge, stored as sent (a derive would be stored as a rate: a count
# that rose once would read 0 in every slot after).
cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_servers self-collectd)

LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  Replay "$E2E_DIR/capture"
  ReplayLoop false
  Host "selfhost"
</Plugin>
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  Replay "$E2E_DIR/capture"
  ReplayLoop false
  Host "quiethost"
  SelfMetrics false
</Plugin>
EOF

e2e_spawn "$E2E_DIR/collectd.stdout" /usr/sbin/collectd -f -C "$E2E_DIR/collectd.conf"
COLLECTD_PID=$E2E_LAST_PID

# influx TYPE TYPE_INSTANCE [MEASUREMENT]: the values of selfhost's
# winperf/self TYPE-TYPE_INSTANCE in time order, on one line.
influx() {
  e2e_influx_query "SELECT value FROM ${3:-winperf_value} WHERE host = 'selfhost' AND instance = 'self' AND type = '$1' AND type_instance = '$2'" |
    awk '{ printf "%s%.12g", (NR > 1 ? " " : ""), $2 } END { print "" }'
}
S=$CARBON_DIR/whisper/selfhost/winperf-self
# wsp FILE: the distinct values carbon holds (%.12g, ascending).
wsp() {
  [ -f "$1" ] || return 0
  /usr/bin/whisper-fetch --json --from="$(($(date +%s) - 600))" --until="$(date +%s)" "$1" |
    e2e_whisper_json_lines | awk '$2 != "None" && $2 != "null" && $2 != "" {
      printf "%.12g\n", $2 }' | sort -n -u | tr '\n' ' ' | sed 's/ $//'
}
all_in_influx() { [ "$(influx count errors)" = "0 0 0 1 1 1" ]; }
# Carbon: the last interval's 1 arrived. Its 0s may not survive: 0.25 s
# intervals share 1 s slots, and when the first read falls at the start of
# a second, the three 0s and the first 1 share one slot, which keeps the 1
# (InfluxDB, which keeps every point, is asserted exactly above).
all_in_carbon() {
  case "$(wsp "$S/count-errors.wsp")" in "0 1" | 1) return 0 ;; esac
  return 1
}
ended() { grep -c 'replay reached the end' "$E2E_DIR/collectd.log" | grep -qx 2; }
e2e_wait_for 60 ended
e2e_ok $? "both replays reached their end"
e2e_wait_for 60 all_in_influx
e2e_ok $? "the last interval's errors reached InfluxDB"
e2e_wait_for 60 all_in_carbon
e2e_ok $? "the last interval's errors reached carbon"
e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd still running"

# ---- InfluxDB: every point, in order
sizes=$(for f in "$E2E_DIR"/capture/000?.blob; do stat -c %s "$f"; done | tr '\n' ' ')
e2e_is "$(influx bytes blob)" "${sizes% }" "influxdb: bytes-blob = each blob file's size ($sizes)"
e2e_is "$(influx count objects)" "4 4 4 4 4" "influxdb: count-objects 4 per decoded blob"
e2e_is "$(influx count instances)" "3 3 3 3 3" "influxdb: count-instances 3"
e2e_is "$(influx count values)" "7 8 8 8 8" "influxdb: count-values 7, then 8 (Pages/sec from the second sample)"
e2e_is "$(influx count unmatched_paths)" "3 3 3 3 3" "influxdb: count-unmatched_paths 3"
e2e_is "$(influx count errors)" "0 0 0 1 1 1" "influxdb: count-errors counts the malformed blob"
# plausible NAME COUNT VALUES: COUNT values, each > 0 and < 1.
plausible() {
  echo "$3" | awk -v n="$2" '{ if (NF != n) exit 1
    for (i = 1; i <= NF; i++) if (!($i > 0 && $i < 1)) exit 1 }'
  e2e_ok $? "influxdb: $1: $2 durations in (0 s, 1 s) ($3)"
}
plausible "duration-query (winperf_seconds)" 6 "$(influx duration query winperf_seconds)"
plausible "duration-decode (winperf_seconds)" 5 "$(influx duration decode winperf_seconds)"

# The series InfluxDB made of them: duration in winperf_seconds (its data
# source is "seconds"), the others in winperf_value; no backoff (not a
# <Host>); nothing from quiethost's self.
series=$(curl -sG "http://127.0.0.1:$INFLUX_HTTP/query" --data-urlencode db=collectd \
  --data-urlencode "q=SHOW SERIES WHERE instance = 'self'" |
  grep -oE '\["winperf_[a-z]+,[^"]*"\]' | sed -e 's/^\["//' -e 's/"\]$//' | sort | tr '\n' ' ')
want=$(
  sort <<'EOF' | tr '\n' ' '
winperf_seconds,host=selfhost,instance=self,type=duration,type_instance=decode
winperf_seconds,host=selfhost,instance=self,type=duration,type_instance=query
winperf_value,host=selfhost,instance=self,type=bytes,type_instance=blob
winperf_value,host=selfhost,instance=self,type=count,type_instance=errors
winperf_value,host=selfhost,instance=self,type=count,type_instance=instances
winperf_value,host=selfhost,instance=self,type=count,type_instance=objects
winperf_value,host=selfhost,instance=self,type=count,type_instance=unmatched_paths
winperf_value,host=selfhost,instance=self,type=count,type_instance=values
EOF
)
e2e_is "$series" "$want" "influxdb: exactly the 8 self series, duration in winperf_seconds"

e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
e2e_stop "$CARBON_PID" 10

# ---- carbon: the names (Graphite: selfhost.winperf-self.TYPE-INSTANCE)
e2e_is "$(cd "$S" 2>/dev/null && find . -name '*.wsp' | sort | tr '\n' ' ')" \
  "./bytes-blob.wsp ./count-errors.wsp ./count-instances.wsp ./count-objects.wsp ./count-unmatched_paths.wsp ./count-values.wsp ./duration-decode.wsp ./duration-query.wsp " \
  "carbon: exactly the 8 self metrics under selfhost.winperf-self"
[ -d "$CARBON_DIR/whisper/quiethost/winperf-Memory" ] &&
  [ ! -e "$CARBON_DIR/whisper/quiethost/winperf-self" ]
e2e_ok $? "carbon: quiethost (SelfMetrics false) has its counters and no winperf-self"
e2e_is "$(wsp "$S/count-objects.wsp")" 4 "carbon: count-objects 4"
e2e_is "$(wsp "$S/count-instances.wsp")" 3 "carbon: count-instances 3"
e2e_is "$(wsp "$S/count-unmatched_paths.wsp")" 3 "carbon: count-unmatched_paths 3"
case " $(wsp "$S/count-values.wsp") " in
" 8 " | " 7 8 ") e2e_ok 0 "carbon: count-values 7 and 8, or 8 alone (7's slot shared)" ;;
*) e2e_ok 1 "carbon: count-values 7 and 8 ($(wsp "$S/count-values.wsp"))" ;;
esac
big=$(stat -c %s "$E2E_DIR/capture/0000.blob")
small=$(stat -c %s "$E2E_DIR/capture/0003.blob")
case " $(wsp "$S/bytes-blob.wsp") " in
" $big " | " $small $big ") e2e_ok 0 "carbon: bytes-blob holds the blob sizes ($small, $big)" ;;
*) e2e_ok 1 "carbon: bytes-blob ($(wsp "$S/bytes-blob.wsp"), want $small $big)" ;;
esac
wsp "$S/duration-query.wsp" | awk '{ if (NF < 1) exit 1
  for (i = 1; i <= NF; i++) if (!($i > 0 && $i < 1)) exit 1 }'
e2e_ok $? "carbon: duration-query in (0 s, 1 s) ($(wsp "$S/duration-query.wsp"))"

e2e_stop "$INFLUX_PID" 3
e2e_done
