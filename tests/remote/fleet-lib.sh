# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# shellcheck shell=bash
# The fleet tests' plumbing (sourced after tests/e2e/lib.sh and
# smbd-lib.sh, after smbd_e2e_start): many host names on one real smbd,
# its authentication log, and what carbon holds per host.
#
#   fleet_audit_on       restart smbd with `log level = 1 auth_audit:3`: one
#                        "Auth: ..." line per logon, with its status
#   fleet_failed_logons  the logons of $SMBD_USER smbd refused so far
#   fleet_inventory FILE PASSWORD_FILE NAME...
#                        a HostsFile: every NAME on 127.0.0.1:$SMBD_PORT
#                        with that password file (in defaults:)
#   fleet_first_blob HOST
#                        the first second carbon holds HOST's bytes-blob
#                        self-metric (a sample taken), empty if none
#   fleet_hosts_with METRIC HOST...
#                        how many of the HOSTs have METRIC's whisper file
#   fleet_conf_csv       collectd.conf's logfile ($E2E_DIR/collectd.log,
#                        info) and csv ($E2E_DIR/csv, every dispatch) lines
#   fleet_csv_lines HOST [SERIES]
#                        the dispatches the csv writer recorded for HOST's
#                        SERIES (default winperf-System/gauge-Processes)
#   fleet_csv_first HOST [SERIES]
#                        the time of the first of them, empty if none
#   fleet_csv_has HOST VALUE
#                        HOST's Processes was VALUE (an integer) once

need whisper-fetch
fleet_audit_on() {
  smbd_stop
  sed -i 's/^\[global\]$/[global]\n  log level = 1 auth_audit:3/' "$SMBD_DIR/smb.conf"
  smbd_start
}

fleet_failed_logons() {
  cat "$SMBD_DIR"/log/*.log 2>/dev/null |
    grep -F "Auth: " | grep -F "\\[$SMBD_USER]" | grep -c -v 'status \[NT_STATUS_OK\]'
}

fleet_inventory() {
  _file=$1
  _cred=$2
  shift 2
  {
    printf 'defaults:\n  address: 127.0.0.1\n  port: %s\n  password_file: %s\n' \
      "$SMBD_PORT" "$_cred"
    printf 'hosts:\n'
    for _h in "$@"; do printf '  - %s\n' "$_h"; done
  } >"$_file.tmp" && mv "$_file.tmp" "$_file"
}

fleet_first_blob() {
  _f=$W/$1/winperf-self/bytes-blob.wsp
  [ -f "$_f" ] || return 0
  /usr/bin/whisper-fetch --json --from="$((T_START - 1))" --until="$(date +%s)" "$_f" |
    e2e_whisper_json_lines | awk '$2 != "None" && $2 != "null" && $2 != "" { print $1; exit }'
}

fleet_hosts_with() {
  _m=$1
  shift
  _n=0
  for _h in "$@"; do [ -f "$W/$_h/$_m" ] && _n=$((_n + 1)); done
  echo "$_n"
}

fleet_conf_csv() {
  cat <<EOF
LoadPlugin logfile
<Plugin logfile>
  LogLevel "info"
  File "$E2E_DIR/collectd.log"
  Timestamp true
</Plugin>
LoadPlugin csv
<Plugin csv>
  DataDir "$E2E_DIR/csv"
  StoreRates false
</Plugin>
EOF
}

# The lines of one series' csv files (one a day), whole lines only: with
# more than one write thread, collectd's csv writer can write a file's first
# value while another thread creates the file ("w": truncate, header), and
# the header then overwrites the first 12 bytes of that value
# ("epoch,value\n55,42.000000"); such a torn line is no dispatch to count.
_fleet_csv() {
  cat "$E2E_DIR/csv/$1/${2:-winperf-System/gauge-Processes}"-* 2>/dev/null |
    grep -E '^[0-9]+\.[0-9]+,'
}
fleet_csv_lines() { _fleet_csv "$@" | grep -c .; }
fleet_csv_first() { _fleet_csv "$@" | head -1 | cut -d, -f1; }
fleet_csv_has() { _fleet_csv "$1" | grep -q "^[0-9.]*,$2\\(\\.0*\\)\\?\$"; }
