#!/bin/bash
# collectd-winperf: fleet capacity, N <Host> blocks against one real smbd.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   tests/bench/fleet.sh [N ...]     (as root; make bench-fleet; default
#                                     N = 10 50 200)
#
# A benchmark, not a test: it prints figures and asserts nothing about
# them. One smbd on 127.0.0.1 (tests/remote/smbd-lib.sh) serves Samba's
# perfmon data; a real collectd reads it through N <Host> blocks (host
# names h001 ... hNNN, the same address), 4 counter paths, Interval
# $FLEET_INTERVAL (default 2 s), for $FLEET_INTERVALS intervals (default
# 20) after every host answered once, with HostsPerHelper H for each H of
# $FLEET_HPH (default 1: a helper process per host; 10: one per ten).
# The csv plugin writes the self-metrics (doc/collectd-winperf.5), from
# which the read start times are taken.
#
# Per H and N, one line:
#   hph, helpers       HostsPerHelper; helper processes running
#   cpu/host-interval  collectd + helpers user+system CPU over the window,
#                      divided by the host reads that started in it (smbd's
#                      own CPU excluded)
#   priv/host          private memory (Private_Clean + Private_Dirty of
#                      /proc/PID/smaps_rollup) of collectd and the helpers,
#                      divided by N; collectd's alone and one helper's too
#   fds                open descriptors of collectd, and of one helper
#   jitter p50/p99     per host, each read's start (its self-metric's stamp
#                      minus its duration-query and duration-decode) minus
#                      its nominal time (the host's first start plus k
#                      intervals), less the host's smallest such offset
#                      (collectd's grid is the host's own: only delay
#                      beyond its best read counts); over all hosts, reads
#   query p50/p99      the self-metric duration-query over all reads: the
#                      collect call, with the wait for a shared helper
#   hosts per core     interval / (cpu per host-interval)
#   reads              host reads in the window (N x intervals when every
#                      host kept its interval)
#   hosts per GiB      1 GiB / (private memory per host)
# Times depend on the machine's load (this one is shared); CPU seconds,
# memory and descriptors much less.
set -o pipefail
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=../remote/smbd-lib.sh disable=SC2154 # lib.sh: top_srcdir
. "$top_srcdir/tests/remote/smbd-lib.sh"
need collectd ss smbd smbpasswd useradd userdel python3 pgrep
[ "$(id -u)" = 0 ] || {
  echo "fleet.sh: run as root (smbd, useradd)" >&2
  exit 2
}

sizes=${*:-10 50 200}
hphs=${FLEET_HPH:-1}
interval=${FLEET_INTERVAL:-2}
intervals=${FLEET_INTERVALS:-20}
# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$top_builddir/winperf-remote-helper
[ -x "$helper" ] || e2e_bail "$helper built (libsmbclient-dev missing?)"
hz=$(getconf CLK_TCK)

e2e_init fleet
trap 'smbd_teardown; e2e_cleanup' EXIT
e2e_plugin_dir logfile csv
chmod 755 "$E2E_DIR"
smbd_setup "$E2E_DIR/smbd" "$(e2e_free_port tcp)" || e2e_bail "smbd setup"
/usr/bin/python3 "$top_srcdir/tests/remote/perfmon_tdb.py" "$SMBD_DIR/state/perfmon" 1 ||
  e2e_bail "perfmon tdb sample"
smbd_start || e2e_bail "smbd listens"

cat >"$E2E_DIR/winperf.yaml" <<'EOF'
- '\Processor(*)\% Processor Time'
- '\Processor(*)\Interrupts/sec'
- '\System\Processes'
- '\System\Context Switches/sec'
EOF

# ticks PID...: utime + stime of the processes, in clock ticks.
ticks() {
  local p sum=0 t
  for p in "$@"; do
    t=$(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null) || continue
    sum=$((sum + ${t:-0}))
  done
  echo "$sum"
}
# private_kb PID: Private_Clean + Private_Dirty in kB.
private_kb() {
  awk '/^Private_(Clean|Dirty):/ {s += $2} END {print s + 0}' \
    "/proc/$1/smaps_rollup" 2>/dev/null || echo 0
}
fds() { find "/proc/$1/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }
helpers_of() { pgrep -P "$1" -f winperf-remote-helper | tr '\n' ' '; }

printf 'interval %s s, %s intervals measured, ReadThreads N/4 + 5 unless FLEET_READ_THREADS\n' \
  "$interval" "$intervals"
fmt='%-4s %4s %-5s %10s %10s %10s %10s %6s %6s %9s %9s %7s %7s %9s %9s %6s\n'
# shellcheck disable=SC2059 # the format is the variable
printf "$fmt" hph hlp N "cpu/h-int" "priv/host" "collectd" "helper" "fds" \
  "h.fds" "jit p50" "jit p99" "q p50" "q p99" "hosts/cpu" "hosts/GiB" "reads"
# shellcheck disable=SC2059
printf "$fmt" "" "" "" "ms" "KiB" "priv KiB" "priv KiB" "" "" "ms" "ms" "ms" \
  "ms" "" "" ""

# pct P: the P-quantile of the numbers on stdin (one a line), "-" for none.
pct() {
  sort -g | awk -v p="$1" '{a[NR] = $1} END {
    if (NR == 0) {print "-"; exit}
    i = int(NR * p + 0.5); if (i < 1) i = 1; printf "%.1f\n", a[i]}'
}

for hph in $hphs; do
for n in $sizes; do
  run=$E2E_DIR/h$hph-n$n
  # Each <Host> read blocks on its query: enough threads that N queries of
  # about 0.3 s fit in one interval (collectd's default is 5).
  threads=${FLEET_READ_THREADS:-$((n / 4 + 5))}
  mkdir -p "$run/csv"
  {
    cat <<EOF
PluginDir "$E2E_PLUGIN_DIR"
BaseDir "$run"
TypesDB "/usr/share/collectd/types.db"
Interval $interval
ReadThreads $threads
LoadPlugin logfile
<Plugin logfile>
  LogLevel "info"
  File "$run/collectd.log"
</Plugin>
LoadPlugin csv
<Plugin csv>
  DataDir "$run/csv"
  StoreRates false
</Plugin>
LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  HostsPerHelper $hph
EOF
    for i in $(seq 1 "$n"); do
      printf '  <Host "h%03d">\n    Address "127.0.0.1"\n    Port %s\n' "$i" "$SMBD_PORT"
      printf '    PasswordFile "%s"\n    Timeout 10\n  </Host>\n' "$SMBD_DIR/creds"
    done
    echo "</Plugin>"
  } >"$run/collectd.conf"
  e2e_spawn "$run/collectd.stdout" /usr/sbin/collectd -f -C "$run/collectd.conf"
  cpid=$E2E_LAST_PID
  # Every host answered once: one duration-query file per host.
  answered() {
    [ "$(find "$run/csv" -name 'duration-query-*' 2>/dev/null | wc -l)" -ge "$n" ]
  }
  if ! e2e_wait_for $((60 + n)) answered; then
    echo "N=$n: not every host answered within $((60 + n)) s" >&2
    e2e_stop "$cpid" 20
    continue
  fi
  hp=$(helpers_of "$cpid")
  # shellcheck disable=SC2086 # word splitting of the pid list is meant
  t0=$(ticks "$cpid" $hp)
  s0=$(date +%s.%N)
  sleep $((interval * intervals))
  hp=$(helpers_of "$cpid")
  nhelpers=$(echo "$hp" | wc -w)
  # shellcheck disable=SC2086
  t1=$(ticks "$cpid" $hp)
  s1=$(date +%s.%N)
  cpriv=$(private_kb "$cpid")
  hsum=0
  one=
  for p in $hp; do
    k=$(private_kb "$p")
    hsum=$((hsum + k))
    [ -n "$one" ] || one=$p
  done
  cfd=$(fds "$cpid")
  hfd=$(fds "${one:-0}")
  hpriv=$(private_kb "${one:-0}")
  e2e_stop "$cpid" 20
  # Read starts per host from the self-metrics: stamp - query - decode.
  for d in "$run"/csv/h*/winperf-self; do
    cat "$d"/duration-query-* | awk -F, '$1 ~ /^[0-9]/ {print $1, $2}' >"$run/q"
    cat "$d"/duration-decode-* | awk -F, '$1 ~ /^[0-9]/ {print $1, $2}' >"$run/d"
    join <(sort "$run/q") <(sort "$run/d") |
      awk -v iv="$interval" '{s = $1 - $2 - $3; if (NR == 1) f = s;
        k = int((s - f) / iv + 0.5); off[NR] = s - (f + k * iv);
        if (NR == 1 || off[NR] < m) m = off[NR]}
        END {for (i = 1; i <= NR; i++) printf "%.6f\n", (off[i] - m) * 1000}'
  done >"$run/jitter"
  jit="$(pct 0.50 <"$run/jitter") $(pct 0.99 <"$run/jitter")"
  # duration-query in ms, every read of every host
  cat "$run"/csv/h*/winperf-self/duration-query-* |
    awk -F, '$1 ~ /^[0-9]/ {printf "%.3f\n", $2 * 1000}' >"$run/query"
  qry="$(pct 0.50 <"$run/query") $(pct 0.99 <"$run/query")"
  # Reads that started in the window: every host's query self-metric
  # stamped between s0 and s1 (a late host reads less often than N x
  # intervals).
  reads=$(cat "$run"/csv/h*/winperf-self/duration-query-* |
    awk -F, -v s0="$s0" -v s1="$s1" '$1 ~ /^[0-9]/ && $1 >= s0 && $1 < s1 {n++}
      END {print n + 0}')
  awk -v n="$n" -v t0="$t0" -v t1="$t1" -v reads="$reads" -v hz="$hz" \
    -v iv="$interval" -v cp="$cpriv" -v hs="$hsum" -v hp="$hpriv" \
    -v cfd="$cfd" -v hfd="$hfd" -v jit="$jit" -v qry="$qry" -v hph="$hph" \
    -v nh="$nhelpers" -v fmt="$fmt" 'BEGIN {
      split(jit, j, " ");
      split(qry, q, " ");
      cpu = reads > 0 ? (t1 - t0) / hz / reads : 0; # seconds per host read
      priv = (cp + hs) / n;
      printf fmt, hph, nh, n, sprintf("%.2f", cpu * 1000),
        sprintf("%.0f", priv), cp, hp, cfd, hfd, j[1], j[2], q[1], q[2],
        sprintf("%.0f", cpu > 0 ? iv / cpu : 0),
        sprintf("%.0f", priv > 0 ? 1048576 / priv : 0), reads }'
done
done
