# shellcheck shell=bash
# collectd-winperf end-to-end test library (sourced, POSIX sh + bash).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# Starts real servers on loopback with free ports and private directories:
# carbon-cache (Debian graphite-carbon), InfluxDB 1.6 (Debian influxdb) and
# collectd 5.12 with the built winperf.so. Every process started here is
# recorded and stopped by its pid when the test exits; the private directory
# is removed unless the test failed or E2E_KEEP is set.
#
# Facts this relies on: doc/collectd-runtime.md (carbon and
# whisper-fetch need Debian's /usr/bin/python3: call them by full path;
# plugins must be regular files in one PluginDir; influxd may hang on TERM).

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"

# need PROG...: the programs a test runs (tests/lib/need.sh); a missing one
# is one TAP failure and the end of the test, through e2e_bail.
# shellcheck source-path=SCRIPTDIR source=../lib/need.sh
. "$top_srcdir/tests/lib/need.sh"
NEED_FAIL=e2e_need_fail
e2e_need_fail() {
  while [ $# -gt 1 ]; do
    e2e_ok 1 "$1"
    shift
  done
  e2e_bail "$1"
}

E2E_N=0
E2E_FAILED=0
E2E_PIDS=""

# ------------------------------------------------------------------- TAP

e2e_ok() { # e2e_ok STATUS DESCRIPTION  (STATUS 0 = pass)
  E2E_N=$((E2E_N + 1))
  if [ "$1" -eq 0 ]; then
    echo "ok $E2E_N - $2"
  else
    echo "not ok $E2E_N - $2"
    E2E_FAILED=$((E2E_FAILED + 1))
  fi
}

e2e_diag() { sed 's/^/# /'; }

# e2e_is GOT WANT DESCRIPTION: exact string comparison.
e2e_is() {
  if [ "x$1" = "x$2" ]; then
    e2e_ok 0 "$3"
  else
    e2e_ok 1 "$3"
    printf 'got:  %s\nwant: %s\n' "$1" "$2" | e2e_diag
  fi
}

e2e_done() {
  echo "1..$E2E_N"
  [ "$E2E_FAILED" -eq 0 ]
}

# Fail the whole test (one TAP failure, then the plan) when something it
# needs is missing: a missing server or plugin is a failure, never a skip.
e2e_bail() {
  e2e_ok 1 "$1"
  e2e_done
  exit 1
}

# ----------------------------------------------------------- processes

e2e_init() { # e2e_init NAME: private directory in $E2E_DIR, cleanup trap
  need ps ss # e2e_alive, e2e_free_port
  E2E_DIR=$(mktemp -d "${TMPDIR:-/tmp}/winperf-$1.XXXXXX") ||
    e2e_bail "mktemp"
  trap e2e_cleanup EXIT
  trap 'exit 1' INT TERM HUP
}

e2e_cleanup() {
  for pid in $E2E_PIDS; do
    e2e_stop "$pid" 3
  done
  if [ "$E2E_FAILED" -eq 0 ] && [ -z "${E2E_KEEP:-}" ]; then
    rm -rf "$E2E_DIR"
  else
    echo "# kept $E2E_DIR"
  fi
}

# e2e_spawn LOGFILE CMD...: start CMD in the background, record its pid.
e2e_spawn() {
  _log=$1
  shift
  "$@" >"$_log" 2>&1 &
  E2E_LAST_PID=$!
  E2E_PIDS="$E2E_PIDS $E2E_LAST_PID"
}

# e2e_alive PID: running (not a zombie waiting to be reaped).
e2e_alive() {
  _st=$(ps -p "$1" -o stat= 2>/dev/null) || return 1
  case $_st in Z*) return 1 ;; esac
  return 0
}

# e2e_stop PID [GRACE]: TERM, wait up to GRACE seconds (default 10), then
# KILL. Sets E2E_STATUS to the exit status (143 for an ordinary TERM).
e2e_stop() {
  _pid=$1
  _grace=${2:-10}
  if e2e_alive "$_pid"; then
    kill -TERM "$_pid" 2>/dev/null
    _i=0
    while e2e_alive "$_pid" && [ "$_i" -lt $((_grace * 10)) ]; do
      sleep 0.1
      _i=$((_i + 1))
    done
    e2e_alive "$_pid" && kill -KILL "$_pid" 2>/dev/null
  fi
  wait "$_pid" 2>/dev/null
  # shellcheck disable=SC2034 # read by the tests that source this
  E2E_STATUS=$?
  E2E_PIDS=$(echo "$E2E_PIDS" | tr ' ' '\n' | grep -vx "$_pid" | tr '\n' ' ')
}

# e2e_wait_for SECONDS CMD...: run CMD every 0.2 s until it succeeds.
# A time limit only so a broken server cannot hang the suite; no result
# depends on how fast anything is.
e2e_wait_for() {
  _limit=$(($1 * 5))
  shift
  _i=0
  while [ "$_i" -lt "$_limit" ]; do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.2
    _i=$((_i + 1))
  done
  return 1
}

# ---------------------------------------------------------------- ports

# e2e_free_port tcp|udp: a port no socket of that protocol uses, random
# below the kernel's ephemeral range (ip_local_port_range: 32768 on Debian),
# so that no outgoing connection of a test running beside this one can take
# it between this check and the server's bind.
e2e_free_port() {
  _proto=$1
  _flag=-tan
  [ "$_proto" = udp ] && _flag=-uan
  _low=32768
  read -r _low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null
  [ "$_low" -gt 22000 ] 2>/dev/null || _low=60000 # no such range: as before
  while :; do
    _p=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % (_low - 20000)))
    case " $E2E_PORTS " in *" $_p "*) continue ;; esac
    if ! ss -Hn $_flag "sport = :$_p" 2>/dev/null | grep -q .; then
      E2E_PORTS="${E2E_PORTS:-} $_p"
      echo "$_p"
      return 0
    fi
  done
}

e2e_tcp_open() { # e2e_tcp_open PORT: something accepts on 127.0.0.1:PORT
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# ---------------------------------------------------------------- carbon

# e2e_start_carbon: carbon-cache with a 1 s retention for an hour, line
# receiver on CARBON_PORT, whisper files under $E2E_DIR/carbon/whisper.
e2e_start_carbon() {
  need carbon-cache whisper-fetch
  CARBON_DIR=$E2E_DIR/carbon
  CARBON_PORT=$(e2e_free_port tcp)
  _pickle=$(e2e_free_port tcp)
  _query=$(e2e_free_port tcp)
  mkdir -p "$CARBON_DIR/whisper" "$CARBON_DIR/log"
  # E2E_CARBON_SCHEMAS: sections before the catch-all (a test's own
  # retentions); E2E_CARBON_EXTRA: more [cache] settings.
  cat >"$CARBON_DIR/storage-schemas.conf" <<EOF
${E2E_CARBON_SCHEMAS:-}
[everything]
pattern = .*
retentions = 1s:1h
EOF
  cat >"$CARBON_DIR/carbon.conf" <<EOF
[cache]
STORAGE_DIR = $CARBON_DIR/
LOCAL_DATA_DIR = $CARBON_DIR/whisper/
CONF_DIR = $CARBON_DIR/
LOG_DIR = $CARBON_DIR/log/
PID_DIR = $CARBON_DIR/
USER =
DATABASE = whisper
ENABLE_LOGROTATION = False
MAX_CACHE_SIZE = inf
MAX_UPDATES_PER_SECOND = inf
MAX_CREATES_PER_MINUTE = inf
LINE_RECEIVER_INTERFACE = 127.0.0.1
LINE_RECEIVER_PORT = $CARBON_PORT
ENABLE_UDP_LISTENER = False
PICKLE_RECEIVER_INTERFACE = 127.0.0.1
PICKLE_RECEIVER_PORT = $_pickle
CACHE_QUERY_INTERFACE = 127.0.0.1
CACHE_QUERY_PORT = $_query
WHISPER_AUTOFLUSH = True
WHISPER_FALLOCATE_CREATE = False
LOG_LISTENER_CONN_SUCCESS = False
${E2E_CARBON_EXTRA:-}
EOF
  e2e_spawn "$CARBON_DIR/stdout.log" /usr/bin/carbon-cache \
    --config="$CARBON_DIR/carbon.conf" --pidfile="$CARBON_DIR/carbon.pid" \
    --nodaemon start
  # shellcheck disable=SC2034 # read by the tests that source this
  CARBON_PID=$E2E_LAST_PID
  e2e_wait_for 30 e2e_tcp_open "$CARBON_PORT" ||
    e2e_bail "carbon-cache accepts on 127.0.0.1:$CARBON_PORT"
}

# e2e_whisper_fetch FILE FROM UNTIL: "time value" lines (value "None" when
# the slot is empty), via Debian's python3.
# collectd.conf lines the tests share: the log in $E2E_DIR/collectd.log
# and write_graphite to the carbon-cache e2e_start_carbon started. An
# argument "false" adds StoreRates false (derives sent as they are, not as
# rates).
e2e_conf_logfile_graphite() {
  _store_rates=
  [ "${1:-}" = false ] && _store_rates='    StoreRates false'
  e2e_conf_logfile
  cat <<EOF

<LoadPlugin write_graphite>
  FlushInterval 1
</LoadPlugin>
<Plugin write_graphite>
  <Node "carbon">
    Host "127.0.0.1"
    Port "$CARBON_PORT"
    Protocol "tcp"
    EscapeCharacter "_"
$_store_rates
  </Node>
</Plugin>
EOF
}

# e2e_conf_logfile: collectd.conf's log, info and up with times and
# severities, in $E2E_DIR/collectd.log.
e2e_conf_logfile() {
  cat <<EOF
LoadPlugin logfile
<Plugin logfile>
  LogLevel "info"
  File "$E2E_DIR/collectd.log"
  Timestamp true
  PrintSeverity true
</Plugin>
EOF
}

# e2e_conf_globals HOSTNAME INTERVAL: collectd.conf's global lines every
# test's daemon shares (its files under $E2E_DIR, the plugins of
# e2e_plugin_dir, Debian's types.db).
e2e_conf_globals() {
  cat <<EOF
Hostname "$1"
FQDNLookup false
BaseDir "$E2E_DIR"
PIDFile "$E2E_DIR/collectd.pid"
PluginDir "$E2E_PLUGIN_DIR"
TypesDB "/usr/share/collectd/types.db"
Interval $2
EOF
}

# e2e_conf_servers HOSTNAME [false]: collectd.conf's global lines (1 s
# flushes, a 0.25 s interval), the log and write_graphite
# (e2e_conf_logfile_graphite, given the second argument) and the network
# plugin to InfluxDB's collectd input (e2e_start_influx).
e2e_conf_servers() {
  e2e_conf_globals "$1" 0.25
  cat <<EOF
MaxReadInterval 1

$(e2e_conf_logfile_graphite "${2:-}")

<LoadPlugin network>
  FlushInterval 1
</LoadPlugin>
<Plugin network>
  Server "127.0.0.1" "$INFLUX_COLLECTD"
</Plugin>
EOF
}

# e2e_conf_collectd HOSTNAME: e2e_conf_servers, then "LoadPlugin winperf".
e2e_conf_collectd() {
  e2e_conf_servers "$1"
  printf '\nLoadPlugin winperf\n'
}

e2e_whisper_fetch() {
  /usr/bin/whisper-fetch --from="$2" --until="$3" "$1"
}

# -------------------------------------------------------------- InfluxDB

# e2e_start_influx: influxd with HTTP on INFLUX_HTTP and the collectd input
# (UDP) on INFLUX_COLLECTD, database "collectd"; E2E_INFLUX_EXTRA: more
# configuration (another input).
e2e_start_influx() {
  need influxd curl
  INFLUX_DIR=$E2E_DIR/influx
  INFLUX_HTTP=$(e2e_free_port tcp)
  INFLUX_COLLECTD=$(e2e_free_port udp)
  _rpc=$(e2e_free_port tcp)
  mkdir -p "$INFLUX_DIR"
  cat >"$INFLUX_DIR/influxdb.conf" <<EOF
reporting-disabled = true
bind-address = "127.0.0.1:$_rpc"
[meta]
  dir = "$INFLUX_DIR/meta"
[data]
  dir = "$INFLUX_DIR/data"
  wal-dir = "$INFLUX_DIR/wal"
  query-log-enabled = false
[monitor]
  store-enabled = false
[http]
  bind-address = "127.0.0.1:$INFLUX_HTTP"
  log-enabled = false
[logging]
  level = "warn"
[[collectd]]
  enabled = true
  bind-address = "127.0.0.1:$INFLUX_COLLECTD"
  database = "collectd"
  typesdb = "/usr/share/collectd/types.db"
  batch-size = 100
  batch-timeout = "1s"
${E2E_INFLUX_EXTRA:-}
EOF
  e2e_spawn "$INFLUX_DIR/influxd.log" /usr/bin/influxd -config "$INFLUX_DIR/influxdb.conf"
  # shellcheck disable=SC2034 # read by the tests that source this
  INFLUX_PID=$E2E_LAST_PID
  e2e_wait_for 30 e2e_influx_ping || e2e_bail "influxd answers /ping on 127.0.0.1:$INFLUX_HTTP"
  # UDP has no handshake: values sent before the collectd input is bound
  # are lost, so wait for the socket too.
  e2e_wait_for 30 e2e_udp_bound "$INFLUX_COLLECTD" ||
    e2e_bail "influxd's collectd input listens on 127.0.0.1:$INFLUX_COLLECTD/udp"
}

e2e_udp_bound() { ss -Hnul "sport = :$1" | grep -q .; }

e2e_influx_ping() {
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$INFLUX_HTTP/ping")" = 204 ]
}

# e2e_influx_query QUERY: one "time value" line per point (epoch seconds).
# The answer of a one-series SELECT is {"results":[{..."values":[[t,v],
# [t,v]...]}]}: the pairs are the only bracketed number pairs in it.
e2e_influx_query() {
  curl -sG "http://127.0.0.1:$INFLUX_HTTP/query" --data-urlencode db=collectd \
    --data-urlencode epoch=s --data-urlencode "q=$1" |
    grep -oE '\[[0-9]+,[-0-9.eE+]+\]' | tr -d '[]' | tr ',' ' '
}

# e2e_influx_series_keys: every series key of measurement winperf_value,
# one per line, as InfluxDB writes them (JSON's \\ undone).
e2e_influx_series_keys() {
  curl -sG "http://127.0.0.1:$INFLUX_HTTP/query" --data-urlencode db=collectd \
    --data-urlencode "q=SHOW SERIES FROM winperf_value" |
    grep -oE '\["winperf_value,[^"]*"\]' | sed -e 's/^\["//' -e 's/"\]$//' -e 's/\\\\/\\/g'
}

# -------------------------------------------------------------- collectd

# e2e_plugin_dir PLUGIN...: $E2E_DIR/plugins with copies (collectd refuses
# symlinks) of collectd's own PLUGIN.so and the built winperf.so.
e2e_plugin_dir() {
  E2E_PLUGIN_DIR=$E2E_DIR/plugins
  mkdir -p "$E2E_PLUGIN_DIR"
  E2E_WINPERF_SO=$top_builddir/.libs/winperf.so
  [ -f "$E2E_WINPERF_SO" ] ||
    e2e_bail "built plugin $E2E_WINPERF_SO exists (run make first)"
  cp "$E2E_WINPERF_SO" "$E2E_PLUGIN_DIR/winperf.so"
  for _p in "$@"; do
    cp "/usr/lib/collectd/$_p.so" "$E2E_PLUGIN_DIR/" ||
      e2e_bail "collectd plugin $_p.so (apt-get install collectd-core)"
  done
}

# e2e_need TOOL...: the older name of need (tests/lib/need.sh).
e2e_need() { need "$@"; }

# e2e_need_collectd: the collectd binary itself.
e2e_need_collectd() { need collectd; }

# ------------------------------------------------------------ assertions

# e2e_series T0 K: read "time value" lines on stdin, print the values of
# the slots T0 .. T0+K-1 on one line ("-" where a slot has no value), each
# printed with %.12g so 0.0030000000000000001 and 0.003 compare equal.
e2e_series() {
  awk -v t0="$1" -v k="$2" '
    $2 != "None" && $2 != "null" && $2 != "" { v[$1] = $2 }
    END {
      out = ""
      for (i = 0; i < k; i++) {
        t = t0 + i
        s = (t in v) ? sprintf("%.12g", v[t]) : "-"
        out = out (i ? " " : "") s
      }
      print out
    }'
}

# e2e_whisper_fetch_all DIR FROM UNTIL: whisper-fetch --json every *.wsp
# under DIR into FILE.json, all at once (each whisper-fetch is a python
# start-up, about half a second).
e2e_whisper_fetch_all() {
  find "$1" -name '*.wsp' | {
    while IFS= read -r _f; do
      /usr/bin/whisper-fetch --json --from="$2" --until="$3" "$_f" >"$_f.json" &
    done
    wait # in the pipeline's subshell: only these fetches
  }
}

# whisper-fetch --json prints {"start" : S, "end" : E, "step" : P,
# "values" : [v, null, ...]} (Python's repr of each float): "time value"
# lines from it.
e2e_whisper_json_lines() {
  tr -d '\n' | awk '{
    s = $0; sub(/.*"start" *: */, "", s); sub(/[^0-9].*/, "", s)
    p = $0; sub(/.*"step" *: */, "", p); sub(/[^0-9].*/, "", p)
    v = $0; sub(/.*"values" *: *\[/, "", v); sub(/\].*/, "", v)
    n = split(v, a, /, */)
    for (i = 1; i <= n; i++) print s + (i - 1) * p, a[i]
  }'
}

# e2e_whisper_series FILE T0 K: e2e_series of a whisper file (full
# precision through --json, one slot per second); reads FILE.json when
# e2e_whisper_fetch_all made one.
e2e_whisper_series() {
  [ -f "$1" ] || { echo "(no file $1)"; return; }
  if [ -f "$1.json" ]; then
    cat "$1.json"
  else
    /usr/bin/whisper-fetch --json --from="$(($2 - 1))" --until="$(($2 + $3 - 1))" "$1"
  fi | e2e_whisper_json_lines | e2e_series "$2" "$3"
}
