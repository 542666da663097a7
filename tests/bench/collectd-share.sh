#!/bin/bash
# collectd-winperf: the plugin's share of a real collectd's instructions.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   tests/bench/collectd-share.sh [INTERVALS]   (make bench-collectd;
#                                                default 8 intervals)
#
# A benchmark, not a test: it prints figures and asserts nothing about
# them. A real collectd 5.12 runs under callgrind and replays the bench
# host (`bench --write-capture`: the ~2.3 MB blob of make bench's
# instruction cases, 1,000 processes and 13,000 threads, one sample a
# second) with the interval-names case's paths (20 typical paths and
# \Thread(*) twice: 28,227 values an interval); the network plugin sends
# every value to a UDP port (collectd's write queue and a writer, as in
# production). Printed, in instructions (callgrind, independent of the
# machine's load):
#   collectd total        every thread of collectd, start-up included
#   winperf read          the plugin's read callback (wp_read), inclusive
#   dispatch              plugin_dispatch_values called from it, inclusive
#   plugin's own          winperf read minus dispatch, and its share of
#                         collectd's total (issue "per-value cost": at most
#                         15 %), per interval and per value
# KEEP_CALLGRIND=FILE keeps callgrind's output for callgrind_annotate.
set -o pipefail
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
need collectd valgrind callgrind_annotate ss
intervals=${1:-8}
# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
bench=$top_builddir/tests/bench/bench
[ -x "$bench" ] || e2e_bail "$bench built (make tests/bench/bench)"

e2e_init collectd-share
e2e_plugin_dir logfile network
CAP=$E2E_DIR/capture
mkdir -p "$CAP"
# One more sample than intervals: the first has no older one to pair with.
"$bench" --write-capture "$CAP" $((intervals + 1)) || e2e_bail "bench --write-capture"
cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_globals share-collectd 2)
WriteThreads 1

LoadPlugin logfile
<Plugin logfile>
  LogLevel "info"
  File "$E2E_DIR/collectd.log"
</Plugin>
LoadPlugin network
<Plugin network>
  Server "127.0.0.1" "$(e2e_free_port udp)"
</Plugin>
LoadPlugin winperf
<Plugin winperf>
  CountersFile "$CAP/paths.yaml"
  Replay "$CAP"
  ReplayLoop false
  Timestamp "sample"
  SelfMetrics false
</Plugin>
EOF

CG=$E2E_DIR/callgrind.out
e2e_spawn "$E2E_DIR/valgrind.log" valgrind --tool=callgrind \
  --callgrind-out-file="$CG" /usr/sbin/collectd -f -C "$E2E_DIR/collectd.conf"
ended() { grep -q 'replay reached the end' "$E2E_DIR/collectd.log" 2>/dev/null; }
# Under callgrind an interval takes seconds: up to a minute each.
e2e_wait_for $((60 * (intervals + 2))) ended || {
  tail -5 "$E2E_DIR/collectd.log" "$E2E_DIR/valgrind.log" >&2
  e2e_bail "collectd replayed the capture to its end"
}
sleep 3 # the writer's last values
e2e_stop "$E2E_LAST_PID" 120
[ -s "$CG" ] && [ -n "${KEEP_CALLGRIND:-}" ] && cp "$CG" "$KEEP_CALLGRIND"
[ -s "$CG" ] || e2e_bail "callgrind wrote $CG"

total=$(awk '$1 == "summary:" || $1 == "totals:" { print $2; exit }' "$CG")
# inclusive FUNCTION: the inclusive count callgrind_annotate gives it.
inclusive() {
  callgrind_annotate --inclusive=yes --threshold=100 "$CG" 2>/dev/null |
    awk -v f=":$1 " '
      index($0, f) { gsub(",", "", $1); print $1; exit }'
}
read_ir=$(inclusive wp_read)
dispatch_ir=$(inclusive plugin_dispatch_values)
values=$(awk '/^- / { n++ } END { print n }' "$CAP/paths.yaml")
mapfile -t paths < <(sed -n "s/^- '\(.*\)'$/\1/p" "$CAP/paths.yaml")
per_interval=$("$top_builddir/winperf" query --names "$CAP/names.multisz" \
  "$CAP/0000.blob" "$CAP/0001.blob" "${paths[@]}" | wc -l)
[ -n "$total" ] && [ -n "$read_ir" ] && [ -n "$dispatch_ir" ] ||
  e2e_bail "callgrind figures (total '$total', wp_read '$read_ir', dispatch '$dispatch_ir')"
own=$((read_ir - dispatch_ir))
awk -v t="$total" -v r="$read_ir" -v d="$dispatch_ir" -v o="$own" \
  -v n="$intervals" -v v="$per_interval" -v p="$values" 'BEGIN {
  printf "collectd replaying the bench host: %d intervals, %d paths, %d values an interval\n", n, p, v
  printf "  %-22s %14.0f\n", "collectd total", t
  printf "  %-22s %14.0f  %5.1f %%\n", "winperf read", r, 100 * r / t
  printf "  %-22s %14.0f  %5.1f %%\n", "dispatch (from it)", d, 100 * d / t
  printf "  %-22s %14.0f  %5.1f %%  (%.0f an interval, %.0f a value)\n", "plugin'"'"'s own", o, 100 * o / t, o / n, o / (n * v)
}'
