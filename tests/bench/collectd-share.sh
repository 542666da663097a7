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
# KEEP_CALLGRIND=FILE keeps callgrind's outputs (FILE-N) for
# callgrind_annotate.
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
UDP_PORT=$(e2e_free_port udp)

# run N: collectd under callgrind replaying N intervals (N + 1 samples: the
# first has no older one to pair with); sets total, read_ir, dispatch_ir.
run() {
  local n=$1 cap=$E2E_DIR/capture-$1 cg=$E2E_DIR/callgrind-$1.out
  mkdir -p "$cap"
  "$bench" --write-capture "$cap" $((n + 1)) || e2e_bail "bench --write-capture"
  CAP=$cap
  cat >"$E2E_DIR/collectd-$n.conf" <<EOF
$(e2e_conf_globals share-collectd 2)
WriteThreads 1

LoadPlugin logfile
<Plugin logfile>
  LogLevel "info"
  File "$E2E_DIR/collectd-$n.log"
</Plugin>
LoadPlugin network
<Plugin network>
  Server "127.0.0.1" "$UDP_PORT"
</Plugin>
LoadPlugin winperf
<Plugin winperf>
  CountersFile "$cap/paths.yaml"
  Replay "$cap"
  ReplayLoop false
  Timestamp "sample"
  SelfMetrics false
</Plugin>
EOF
  e2e_spawn "$E2E_DIR/valgrind-$n.log" valgrind --tool=callgrind \
    --callgrind-out-file="$cg" /usr/sbin/collectd -f -C "$E2E_DIR/collectd-$n.conf"
  ended() { grep -q 'replay reached the end' "$E2E_DIR/collectd-$n.log" 2>/dev/null; }
  # Under callgrind an interval takes seconds: up to a minute each.
  e2e_wait_for $((60 * (n + 2))) ended || {
    tail -5 "$E2E_DIR/collectd-$n.log" "$E2E_DIR/valgrind-$n.log" >&2
    e2e_bail "collectd replayed the capture to its end"
  }
  sleep 3 # the writer's last values
  e2e_stop "$E2E_LAST_PID" 120
  [ -s "$cg" ] || e2e_bail "callgrind wrote $cg"
  [ -n "${KEEP_CALLGRIND:-}" ] && cp "$cg" "$KEEP_CALLGRIND-$n"
  total=$(awk '$1 == "summary:" || $1 == "totals:" { print $2; exit }' "$cg")
  read_ir=$(inclusive "$cg" wp_read)
  dispatch_ir=$(inclusive "$cg" plugin_dispatch_values)
  [ -n "$total" ] && [ -n "$read_ir" ] && [ -n "$dispatch_ir" ] ||
    e2e_bail "callgrind figures (total '$total', wp_read '$read_ir', dispatch '$dispatch_ir')"
}

# inclusive FILE FUNCTION: the inclusive count callgrind_annotate gives it.
inclusive() {
  callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
    awk -v f=":$2 " 'index($0, f) { gsub(",", "", $1); print $1; exit }'
}

run "$intervals"
t1=$total r1=$read_ir d1=$dispatch_ir
run $((2 * intervals))
t2=$total r2=$read_ir d2=$dispatch_ir
values=$(awk '/^- / { n++ } END { print n }' "$CAP/paths.yaml")
mapfile -t paths < <(sed -n "s/^- '\(.*\)'$/\1/p" "$CAP/paths.yaml")
per_interval=$("$top_builddir/winperf" query --names "$CAP/names.multisz" \
  "$CAP/0000.blob" "$CAP/0001.blob" "${paths[@]}" | wc -l)
awk -v t1="$t1" -v r1="$r1" -v d1="$d1" -v t2="$t2" -v r2="$r2" -v d2="$d2" \
  -v n="$intervals" -v v="$per_interval" -v p="$values" 'BEGIN {
  printf "collectd replaying the bench host: %d paths, %d values an interval\n", p, v
  printf "  %-26s %14s %14s %14s\n", "", n " intervals", 2 * n " intervals", "steady (diff)"
  row("collectd total", t1, t2, t1, t2)
  row("winperf read", r1, r2, t1, t2)
  row("dispatch (from it)", d1, d2, t1, t2)
  row("plugin'"'"'s own", r1 - d1, r2 - d2, t1, t2)
  o = (r2 - d2) - (r1 - d1)
  printf "  plugin'"'"'s own, steady: %.0f an interval, %.0f a value, %.1f %% of collectd\n",
    o / n, o / (n * v), 100 * o / (t2 - t1)
}
function row(label, a, b, ta, tb) {
  printf "  %-26s %14.0f %14.0f %14.0f", label, a, b, b - a
  if (label != "collectd total")
    printf "   %5.1f %% %5.1f %% %5.1f %%", 100 * a / ta, 100 * b / tb, 100 * (b - a) / (tb - ta)
  printf "\n"
}'
