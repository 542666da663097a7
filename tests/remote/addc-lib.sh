# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# shellcheck shell=bash
# A real Samba AD domain controller for the Kerberos tests (sourced, after
# tests/e2e/lib.sh).
#
# The DC is provisioned fresh in the test's private directory (about 5 s)
# and runs in the foreground on 127.0.0.1 with its KDC, kpasswd and SMB on
# unprivileged ports (`server services = s3fs, kdc, winbindd`), `ntlm auth
# = disabled` (every NTLM logon is refused with NT_STATUS_NTLM_BLOCKED) and
# `log level = 3 auth_audit:5`, so its log says [SMB2,krb5] or
# [SMB2,NTLMSSP] for every session. It serves \pipe\winreg with
# HKEY_PERFORMANCE_DATA from its state directory's perfmon tdb files, as
# the test smbd does (tests/remote/smbd-lib.sh, perfmon_tdb.py).
#
# Two things of a DC are global: winbindd's socket at its compiled-in
# /run/samba/winbindd (another test's smbd beside this one would then fail
# its logons: getpwuid failed, NT_STATUS_LOGON_FAILURE), and the DC's name,
# which Kerberos needs (no SPN for 127.0.0.1). So the test runs in a mount
# namespace of its own (unshare -m --propagation private) with a tmpfs on
# /run/samba and a hosts file of its own bind-mounted on /etc/hosts: nothing
# outside it sees either, and nothing under /etc is written.
#
#   addc_namespace NAME SCRIPT ARGS...
#                 outside: notes the state of /etc and /run/samba, runs
#                 SCRIPT again inside the namespace (its TAP lines pass
#                 through), then checks that nothing is left behind (no
#                 process, no socket under /run/samba, no file under /etc
#                 naming the realm, /etc/hosts unchanged), prints the plan
#                 and exits. Inside: e2e_init NAME, the mounts, ADDC_*
#                 names; returns to the script.
#   addc_provision  the domain (realm ADDC_REALM, DC dc1.<realm>), the test
#                 accounts and their keytabs (below), krb5.conf, sample 1
#   addc_start / addc_stop  the DC (addc_stop: every process of it gone)
#   addc_log_has PATTERN  grep the DC's logs (extended regex)
#   addc_bad_pwd_count USER  the account's badPwdCount
#
# Accounts (ADDC_PASS is every password; keytabs mode 0600 in $ADDC_DIR):
#   svc-perf   keytab svc-perf.keytab (the CLI and most hosts)
#   svc-renew  keytab svc-renew.keytab (tickets renewed under collectd)
#   svc-two    keytab svc-two.keytab (a second principal, the same helper)
#   svc-bad    keytab bad.keytab exported before the password changed: its
#              key is wrong (KDC_ERR_PREAUTH_FAILED)
#   svc-off    disabled (KDC_ERR_CLIENT_REVOKED), keytab svc-off.keytab
#   svc-old    must change its password (KDC_ERR_KEY_EXPIRED), keytab
#              svc-old.keytab
# and a credentials file svc-perf.cred (username, password, domain).

addc_namespace() {
  local name=$1 script=$2
  shift 2
  if [ -n "${ADDC_INNER:-}" ]; then
    addc_inside "$name"
    return 0
  fi
  need samba samba-tool pgrep
  [ "$(id -u)" = 0 ] || e2e_bail "needs root (unshare -m, samba)"
  local dir tally
  dir=$(mktemp -d "${TMPDIR:-/tmp}/winperf-addc.XXXXXX") || e2e_bail "mktemp"
  chmod 755 "$dir"
  tally=$dir/tally
  local realm="WPK$((RANDOM % 90000 + 10000)).EXAMPLE"
  local hosts_sum sockets
  hosts_sum=$(md5sum </etc/hosts)
  sockets=$(find /run/samba -type s 2>/dev/null | sort)
  ADDC_INNER=1 ADDC_DIR=$dir ADDC_REALM=$realm ADDC_TALLY=$tally \
    unshare -m --propagation private bash "$script" "$@"
  local status=$?
  E2E_N=0
  E2E_FAILED=0
  if [ -f "$tally" ]; then
    read -r E2E_N E2E_FAILED <"$tally"
  else
    e2e_ok 1 "the test inside the namespace ran to its end (status $status)"
  fi
  # Nothing left behind, seen from outside the namespace.
  local left
  left=$(pgrep -af -- "$dir" | grep -v pgrep)
  e2e_is "$left" "" "no process of the test is left (none names $dir)"
  e2e_is "$(find /run/samba -type s 2>/dev/null | sort)" "$sockets" \
    "no socket under /run/samba is left (the DC's were in its own tmpfs)"
  e2e_is "$(grep -rlsI -- "${realm%%.*}" /etc 2>/dev/null)" "" \
    "no file under /etc names the realm $realm"
  e2e_is "$(md5sum </etc/hosts)" "$hosts_sum" "/etc/hosts is unchanged"
  e2e_is "$(ls /etc/krb5.conf /etc/krb5.keytab 2>/dev/null)" "" \
    "no /etc/krb5.conf or /etc/krb5.keytab was written"
  if [ "$E2E_FAILED" -eq 0 ] && [ -z "${E2E_KEEP:-}" ]; then
    rm -rf "$dir"
  else
    echo "# kept $dir"
  fi
  e2e_done
  exit $?
}

# Inside the namespace: the test's directory, the mounts, the names.
addc_inside() {
  # the plan is printed outside, after the checks of what is left behind
  e2e_done() { [ "$E2E_FAILED" -eq 0 ]; }
  need samba samba-tool ss
  # shellcheck disable=SC2034 # E2E_DIR: read by tests/e2e/lib.sh's functions
  E2E_DIR=$ADDC_DIR
  trap addc_inside_exit EXIT
  trap 'exit 1' INT TERM HUP
  mount -t tmpfs -o mode=0755 tmpfs /run/samba || e2e_bail "a tmpfs on /run/samba"
  ADDC_DNS=$(echo "$ADDC_REALM" | tr '[:upper:]' '[:lower:]')
  ADDC_HOST=dc1.$ADDC_DNS
  ADDC_NOSPN=nospn.$ADDC_DNS # a name of the DC's address with no SPN
  ADDC_DOMAIN=${ADDC_REALM%%.*}
  {
    cat /etc/hosts
    echo "127.0.0.1 $ADDC_HOST dc1"
    echo "127.0.0.1 $ADDC_NOSPN"
  } >"$ADDC_DIR/hosts"
  mount --bind "$ADDC_DIR/hosts" /etc/hosts || e2e_bail "a hosts file of its own"
  ADDC_PASS="Wp-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')!"
}

addc_inside_exit() {
  addc_stop
  for pid in $E2E_PIDS; do
    e2e_stop "$pid" 3
  done
  echo "$E2E_N $E2E_FAILED" >"$ADDC_TALLY"
}

# A port free for both TCP and UDP (the KDC listens on both).
addc_free_port() {
  local p
  while :; do
    p=$(e2e_free_port tcp)
    ss -Hnua "sport = :$p" | grep -q . || break
  done
  echo "$p"
}

addc_conf() {
  local d=$ADDC_DIR/dc
  cat <<EOF
[global]
  netbios name = DC1
  realm = $ADDC_REALM
  workgroup = $ADDC_DOMAIN
  server role = active directory domain controller
  server services = s3fs, kdc, winbindd
  interfaces = 127.0.0.1
  bind interfaces only = yes
  smb ports = $ADDC_SMB_PORT
  krb5 port = $ADDC_KDC_PORT
  kpasswd port = $ADDC_KPASSWD_PORT
  ntlm auth = disabled
  disable netbios = yes
  private dir = $d/private
  lock directory = $d
  state directory = $d/state
  cache directory = $d/cache
  pid directory = $d/pid
  ncalrpc dir = $d/ncalrpc
  binddns dir = $d/bind-dns
  log file = $d/log/%m.log
  log level = 3 auth_audit:5
  load printers = no
  printing = bsd
  printcap name = /dev/null
  disable spoolss = yes
EOF
}

# A user with a password (ADDC_PASS), and its keytab (KEYTAB, when given).
addc_user() {
  local user=$1 keytab=${2:-}
  samba-tool user create "$user" "$ADDC_PASS" -s "$ADDC_CONF" \
    >>"$ADDC_DIR/provision.log" 2>&1 || return 1
  [ -z "$keytab" ] && return 0
  addc_keytab "$user" "$keytab"
}

# addc_keytab USER FILE: USER's current keys into FILE (mode 0600),
# written aside and renamed into place.
addc_keytab() {
  rm -f "$2.new"
  samba-tool domain exportkeytab "$2.new" --principal="$1@$ADDC_REALM" \
    -s "$ADDC_CONF" >>"$ADDC_DIR/provision.log" 2>&1 &&
    chmod 600 "$2.new" && mv "$2.new" "$2"
}

addc_provision() {
  need samba-tool python3
  local d=$ADDC_DIR/dc
  ADDC_SMB_PORT=$(e2e_free_port tcp)
  ADDC_KDC_PORT=$(addc_free_port)
  ADDC_KPASSWD_PORT=$(addc_free_port)
  samba-tool domain provision --targetdir="$d" --realm="$ADDC_REALM" \
    --domain="$ADDC_DOMAIN" --adminpass="$ADDC_PASS" --server-role=dc \
    --dns-backend=NONE --host-name=dc1 --host-ip=127.0.0.1 \
    --option="interfaces = 127.0.0.1" --option="bind interfaces only = yes" \
    -q >"$ADDC_DIR/provision.log" 2>&1 || {
    tail -20 "$ADDC_DIR/provision.log" | e2e_diag
    return 1
  }
  mkdir -p "$d/pid" "$d/ncalrpc" "$d/log" "$d/cache" "$d/state/perfmon"
  ADDC_CONF=$d/etc/smb.conf
  addc_conf >"$ADDC_CONF"
  # shellcheck disable=SC2154 # top_srcdir: lib.sh sets it
  /usr/bin/python3 "$top_srcdir/tests/remote/perfmon_tdb.py" "$d/state/perfmon" 1 ||
    return 1
  addc_user svc-perf "$ADDC_DIR/svc-perf.keytab" &&
    addc_user svc-renew "$ADDC_DIR/svc-renew.keytab" &&
    addc_user svc-two "$ADDC_DIR/svc-two.keytab" &&
    addc_user svc-bad "$ADDC_DIR/bad.keytab" &&
    addc_user svc-off "$ADDC_DIR/svc-off.keytab" &&
    addc_user svc-old "$ADDC_DIR/svc-old.keytab" || return 1
  # svc-off is disabled; svc-old must change its password (its key is
  # expired for the KDC)
  samba-tool user disable svc-off -s "$ADDC_CONF" >>"$ADDC_DIR/provision.log" 2>&1 &&
    samba-tool user setpassword svc-old --newpassword="$ADDC_PASS" \
      --must-change-at-next-login -s "$ADDC_CONF" >>"$ADDC_DIR/provision.log" 2>&1 &&
    addc_keytab svc-old "$ADDC_DIR/svc-old.keytab" || return 1
  # svc-bad's keytab now holds a key the domain no longer has
  samba-tool user setpassword svc-bad --newpassword="$ADDC_PASS-2" \
    -s "$ADDC_CONF" >>"$ADDC_DIR/provision.log" 2>&1 || return 1
  # A lockout policy, as domains have (without one Samba counts no bad
  # passwords at all): 5 failures lock an account.
  samba-tool domain passwordsettings set --account-lockout-threshold=5 \
    -s "$ADDC_CONF" >>"$ADDC_DIR/provision.log" 2>&1 || return 1
  (
    umask 077
    printf 'username = svc-perf\npassword = %s\ndomain = %s\n' "$ADDC_PASS" \
      "$ADDC_DOMAIN" >"$ADDC_DIR/svc-perf.cred"
  )
  ADDC_KRB5_CONF=$ADDC_DIR/krb5.conf
  cat >"$ADDC_KRB5_CONF" <<EOF
[libdefaults]
  default_realm = $ADDC_REALM
  dns_lookup_realm = false
  dns_lookup_kdc = false
  rdns = false
  dns_canonicalize_hostname = false
[realms]
  $ADDC_REALM = {
    kdc = 127.0.0.1:$ADDC_KDC_PORT
  }
[domain_realm]
  .$ADDC_DNS = $ADDC_REALM
EOF
}

addc_listening() {
  [ -n "$(ss -Hltn "sport = :$ADDC_SMB_PORT")" ] &&
    [ -n "$(ss -Hltn "sport = :$ADDC_KDC_PORT")" ]
}

# The DC in the foreground (setsid: samba signals its process group when
# it exits), until SMB and the KDC listen.
addc_start() {
  setsid samba -i -M single -s "$ADDC_CONF" >>"$ADDC_DIR/dc/log/samba.out" 2>&1 &
  ADDC_PID=$!
  e2e_wait_for 60 addc_listening && return 0
  tail -20 "$ADDC_DIR/dc/log/samba.out" | e2e_diag
  return 1
}

addc_stop() {
  [ -n "${ADDC_PID:-}" ] || return 0
  kill "$ADDC_PID" 2>/dev/null
  wait "$ADDC_PID" 2>/dev/null
  ADDC_PID=
  # samba-dcerpcd and its workers outlive samba (doc/remote-protocol.md 6)
  local f
  for f in "$ADDC_DIR"/dc/pid/*.pid; do
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
  done
  local _
  for _ in $(seq 50); do
    pgrep -f -- "$ADDC_CONF" >/dev/null || return 0
    sleep 0.1
  done
  pgrep -f -- "$ADDC_CONF" | while read -r p; do kill -KILL "$p"; done
}

addc_log_has() { cat "$ADDC_DIR"/dc/log/* 2>/dev/null | grep -qE -- "$1"; }
addc_log_count() { cat "$ADDC_DIR"/dc/log/* 2>/dev/null | grep -cE -- "$1"; }

addc_bad_pwd_count() {
  samba-tool user show "$1" --attributes=badPwdCount -s "$ADDC_CONF" 2>/dev/null |
    sed -n 's/^badPwdCount: //p'
}
