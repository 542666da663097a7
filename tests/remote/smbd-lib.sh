# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# shellcheck shell=bash
# A real smbd on loopback for the remote tests (sourced).
#
# The same server tests/remote/smbd.sh sets up, as functions: a private
# directory, an unprivileged port, a throwaway Unix user with a Samba
# password, anonymous and guest sessions refused (restrict anonymous = 2,
# map to guest = never), HKEY_PERFORMANCE_DATA served from the perfmon tdb
# files tests/remote/perfmon_tdb.py writes under $SMBD_DIR/state/perfmon.
# Needs root (useradd, smbd), samba and python3-tdb.
#
#   smbd_setup DIR PORT  write smb.conf, add the user; sets SMBD_DIR,
#                        SMBD_PORT, SMBD_USER, SMBD_PASS, and writes the
#                        credential files DIR/creds (right password) and
#                        DIR/badcreds (wrong one), mode 0600
#   smbd_start           start smbd, wait until it listens (status 1 if not,
#                        with smbd's last words on stderr)
#   smbd_stop            stop smbd and samba-dcerpcd, wait for the port
#   smbd_teardown        smbd_stop, remove the user
#   smbd_e2e_start NAME [process]
#                        the start of every test of a collectd against this
#                        smbd (after tests/e2e/lib.sh): e2e_init NAME with
#                        teardown on exit, root, the programs, the remote
#                        helper $helper, python3-tdb, collectd's logfile and
#                        write_graphite; then smbd on a free port serving
#                        tests/remote/perfmon_tdb.py's sample 1 (with its
#                        Process object when given "process")

SMBD_PID=

smbd_setup() {
  need smbd smbpasswd useradd userdel ss
  SMBD_DIR=$1
  SMBD_PORT=$2
  # A name no account has: a run killed before its cleanup leaves its
  # user behind, and a later run may get the same PID.
  SMBD_USER=wpt$$
  while id "$SMBD_USER" >/dev/null 2>&1; do
    SMBD_USER=wpt$$$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
  done
  SMBD_PASS=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
  mkdir -p "$SMBD_DIR"/lock "$SMBD_DIR"/state "$SMBD_DIR"/cache \
    "$SMBD_DIR"/private "$SMBD_DIR"/pid "$SMBD_DIR"/ncalrpc "$SMBD_DIR"/log
  chmod 755 "$SMBD_DIR"
  cat >"$SMBD_DIR/smb.conf" <<EOF
[global]
  server role = standalone server
  workgroup = WPTEST
  netbios name = WPTESTHOST
  interfaces = 127.0.0.1
  bind interfaces only = yes
  smb ports = $SMBD_PORT
  lock directory = $SMBD_DIR/lock
  state directory = $SMBD_DIR/state
  cache directory = $SMBD_DIR/cache
  private dir = $SMBD_DIR/private
  pid directory = $SMBD_DIR/pid
  ncalrpc dir = $SMBD_DIR/ncalrpc
  log file = $SMBD_DIR/log/%m.log
  passdb backend = tdbsam:$SMBD_DIR/private/passdb.tdb
  load printers = no
  printing = bsd
  printcap name = /dev/null
  disable spoolss = yes
  disable netbios = yes
  server min protocol = SMB2_02
  restrict anonymous = 2
  map to guest = never
EOF
  useradd -M -N -s /usr/sbin/nologin "$SMBD_USER" || return 1
  printf '%s\n%s\n' "$SMBD_PASS" "$SMBD_PASS" |
    smbpasswd -c "$SMBD_DIR/smb.conf" -s -a "$SMBD_USER" >/dev/null || return 1
  (
    umask 077
    printf 'username = %s\npassword = %s\n' "$SMBD_USER" "$SMBD_PASS" >"$SMBD_DIR/creds"
    printf 'username = %s\npassword = wrong-%s\n' "$SMBD_USER" "$SMBD_PASS" >"$SMBD_DIR/badcreds"
  )
}

smbd_listening() { [ -n "$(ss -Hltn "sport = :$SMBD_PORT")" ]; }

# smbd_start: start smbd and wait until it listens. On a loaded machine
# smbd's first start (it creates its registry, passdb and lock tdbs) has
# taken more than 10 s, so the wait is up to 60 s while smbd lives; an smbd
# that exits before it listens is started again (twice at most). When it
# never listens, what smbd said and who holds the port go to stderr (the
# test's log) and the status is 1.
smbd_start() {
  local attempt waited
  for attempt in 1 2 3; do
    setsid smbd --foreground --no-process-group --configfile="$SMBD_DIR/smb.conf" \
      >>"$SMBD_DIR/log/smbd.out" 2>&1 &
    SMBD_PID=$!
    for waited in $(seq 600); do
      smbd_listening && return 0
      kill -0 "$SMBD_PID" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$SMBD_PID" 2>/dev/null; then
      break # alive for 60 s and still not listening: give up
    fi
    wait "$SMBD_PID" 2>/dev/null
    echo "# smbd start $attempt: exited after ~$((waited / 10)) s without listening" >&2
    sleep 1
  done
  {
    echo "# smbd never listened on 127.0.0.1:$SMBD_PORT; port holders:"
    ss -Hltnp "sport = :$SMBD_PORT" | sed 's/^/#   /'
    for f in "$SMBD_DIR"/log/* "$SMBD_DIR"/log/.*.log; do
      if [ ! -f "$f" ] || [ ! -s "$f" ]; then continue; fi
      echo "# last lines of $f:"
      tail -n 20 "$f" | sed 's/^/#   /'
    done
  } >&2
  return 1
}

smbd_stop() {
  if [ -n "$SMBD_PID" ]; then
    kill "$SMBD_PID" 2>/dev/null
    kill -- -"$SMBD_PID" 2>/dev/null
    wait "$SMBD_PID" 2>/dev/null
  fi
  SMBD_PID=
  # samba-dcerpcd outlives smbd (doc/remote-protocol.md 6): its pid file.
  if [ -f "$SMBD_DIR/pid/samba-dcerpcd.pid" ]; then
    kill "$(cat "$SMBD_DIR/pid/samba-dcerpcd.pid")" 2>/dev/null
  fi
  for _ in $(seq 50); do
    smbd_listening || return 0
    sleep 0.1
  done
}

smbd_teardown() {
  [ -n "${SMBD_DIR:-}" ] || return 0
  smbd_stop
  [ -n "${SMBD_USER:-}" ] && userdel "$SMBD_USER" 2>/dev/null
  return 0
}

# shellcheck disable=SC2154 # helper: the test sets it
smbd_e2e_start() {
  e2e_init "$1"
  trap 'smbd_teardown; e2e_cleanup' EXIT
  [ "$(id -u)" = 0 ] || e2e_bail "needs root (useradd, smbd)"
  need collectd ss smbd smbpasswd useradd userdel python3 whisper-fetch
  [ -x "$helper" ] || e2e_bail "$helper built (libsmbclient-dev missing?)"
  /usr/bin/python3 -c 'import tdb' 2>/dev/null || e2e_bail "python3-tdb installed"
  e2e_plugin_dir logfile write_graphite
  chmod 755 "$E2E_DIR"
  smbd_setup "$E2E_DIR/smbd" "$(e2e_free_port tcp)" || e2e_bail "smbd user and config"
  # shellcheck disable=SC2154 # top_srcdir: lib.sh sets it
  /usr/bin/python3 "$top_srcdir/tests/remote/perfmon_tdb.py" "$SMBD_DIR/state/perfmon" 1 ${2:+"$2"} ||
    e2e_bail "perfmon tdb sample 1 ${2:-}"
  smbd_start || e2e_bail "smbd listens on 127.0.0.1:$SMBD_PORT"
}

# The rest serves the tests of a collectd against this smbd
# (tests/remote/collectd-hosts*.sh), after smbd_e2e_start and
# e2e_start_carbon.
#
#   smbd_write_sample 2|3  the perfmon sample (perfmon_tdb.py's 2, or
#                        perfmon_sample3.py), written aside and renamed into
#                        place: smbd opens the tdb files for every query
#   smbd_hung_server     a port whose kernel completes the handshake and no
#                        program answers: sets SLOW_PORT
#   smbd_collectd_start  collectd -f -C $E2E_DIR/collectd.conf (a sanitizer
#                        build's runtime preloaded); sets T_START,
#                        COLLECTD_PID, LOG (its log file), W (carbon's
#                        whisper directory), asan
#   wsp_values FILE      the distinct values a whisper file holds since
#                        T_START (%.12g, ascending, space-separated)
#   has_value FILE VALUE, log_has PATTERN

smbd_write_sample() {
  rm -rf "$E2E_DIR/stage"
  if [ "$1" = 3 ]; then
    /usr/bin/python3 "$top_srcdir/tests/remote/perfmon_sample3.py" "$E2E_DIR/stage"
  else
    /usr/bin/python3 "$top_srcdir/tests/remote/perfmon_tdb.py" "$E2E_DIR/stage" "$1"
  fi || return 1
  mv "$E2E_DIR/stage/names.tdb" "$E2E_DIR/stage/data.tdb" "$SMBD_DIR/state/perfmon/"
}

smbd_hung_server() {
  SLOW_PORT=$(e2e_free_port tcp)
  e2e_spawn "$E2E_DIR/slow.log" /usr/bin/python3 -c 'import socket, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", '"$SLOW_PORT"'))
s.listen(16)
time.sleep(600)'
  e2e_wait_for 10 e2e_tcp_open "$SLOW_PORT" || e2e_bail "the hung server listens on $SLOW_PORT"
}

smbd_collectd_start() {
  # A sanitizer build (gcc): collectd is not instrumented, so the runtime
  # comes first; the helper inherits it. Leaks are valgrind's job.
  local san_env=
  asan=$(ldd "$E2E_WINPERF_SO" 2>/dev/null | awk '/libasan/ { print $3 }')
  [ -n "$asan" ] && san_env="LD_PRELOAD=$asan ASAN_OPTIONS=detect_leaks=0"
  T_START=$(date +%s)
  # shellcheck disable=SC2086
  e2e_spawn "$E2E_DIR/collectd.stdout" env $san_env /usr/sbin/collectd -f -C "$E2E_DIR/collectd.conf"
  # shellcheck disable=SC2034 # for the test that sources this
  COLLECTD_PID=$E2E_LAST_PID
  LOG=$E2E_DIR/collectd.log
  # shellcheck disable=SC2034
  W=$CARBON_DIR/whisper
}

wsp_values() {
  [ -f "$1" ] || return 0
  /usr/bin/whisper-fetch --json --from="$((T_START - 1))" --until="$(date +%s)" "$1" |
    e2e_whisper_json_lines | awk '$2 != "None" && $2 != "null" && $2 != "" {
      printf "%.12g\n", $2 }' | sort -n -u | tr '\n' ' ' | sed 's/ $//'
}
has_value() {
  case " $(wsp_values "$1") " in *" $2 "*) return 0 ;; esac
  return 1
}
log_has() { grep -q -- "$1" "$LOG"; }
