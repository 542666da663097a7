#!/bin/bash
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# TAP: remote collection against a real smbd on 127.0.0.1 (issue 6).
# smbd serves HKEY_PERFORMANCE_DATA from perfmon tdb files this test writes
# (tests/remote/perfmon_tdb.py, two samples 5 s apart). The remote source
# (src/source/remote.c, driven by tests/remote/remote_driver) runs
# winperf-remote-helper, the shared parser decodes the blobs and the values
# must be the hand-computed ones. Also: a wrong password gives a clear
# authentication error (with smbd refusing anonymous and guest sessions, and
# again with anonymous sessions allowed, where libsmbclient's silent
# anonymous fallback would succeed), smbd stopped and restarted is
# survived, and one blob is cross-checked against python3-samba's answer.
# Needs root (useradd, smbd), samba, smbclient, python3-tdb and python3-samba.
: "${top_srcdir:=.}" "${top_builddir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib/need.sh
. "$top_srcdir/tests/lib/need.sh"
need smbd smbpasswd useradd userdel ss smbclient python3
driver=$top_builddir/tests/remote/remote_driver
helper=$top_builddir/winperf-remote-helper
py=/usr/bin/python3
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { # check DESCRIPTION EXPECTED-GLOB ACTUAL
  # shellcheck disable=SC2053
  if [[ $3 == $2 ]]; then ok "$1"; else
    nok "$1"
    echo "#   got: $3" | head -5
    echo "#   want: $2"
  fi
}
same() { # same DESCRIPTION EXPECTED ACTUAL, compared literally
  if [ "$3" = "$2" ]; then ok "$1"; else
    nok "$1"
    echo "#   got: $3" | head -5
    echo "#   want: $2"
  fi
}
bail() {
  nok "$1"
  echo "1..$n"
  exit 0
}

[ "$(id -u)" = 0 ] || bail "needs root (useradd, smbd)"
for f in "$driver" "$helper"; do
  [ -x "$f" ] || bail "$f not built (libsmbclient-dev missing?)"
done
$py -c 'import tdb' 2>/dev/null || bail "python3-tdb missing"
$py -c 'import samba.dcerpc.winreg' 2>/dev/null || bail "python3-samba missing"

# shellcheck source=smbd-lib.sh
. "$top_srcdir/tests/remote/smbd-lib.sh"
D=$(mktemp -d /tmp/winperf-smbd.XXXXXX) || exit 1
port=
for try in 0 1 2 3 4 5 6 7 8 9; do
  p=$((20000 + ($$ * 7 + try * 101) % 12000)) # below the ephemeral range (32768)
  if [ -z "$(ss -Htan "sport = :$p")" ]; then
    port=$p
    break
  fi
done
[ -n "$port" ] || bail "no free port"

smbd_pid=
start_smbd() { smbd_start && smbd_pid=$SMBD_PID; }
stop_smbd() {
  smbd_stop
  smbd_pid=
}
cleanup() {
  [ -n "${DRV_PID:-}" ] && { echo quit >&"${DRV[1]}"; wait "$DRV_PID"; } 2>/dev/null
  smbd_teardown
  rm -rf "$D"
}
trap cleanup EXIT

smbd_setup "$D" "$port" || bail "smbd user and config (useradd, smbpasswd)"
user=$SMBD_USER
pass=$SMBD_PASS

$py "$top_srcdir/tests/remote/perfmon_tdb.py" "$D/state/perfmon" 1 ||
  bail "writing perfmon tdb files"
start_smbd || bail "smbd did not listen on 127.0.0.1:$port"
ok "smbd listening on 127.0.0.1:$port"

# A first buffer of 8 KiB: the ~20 KB blob only arrives whole if the helper
# grows the buffer when Samba silently truncates; it also spans several
# DCE/RPC fragments.
coproc DRV { "$driver" --helper "$helper" --port "$port" --buffer-size 8192 \
  --credentials "$D/creds" 127.0.0.1 2>"$D/driver.err"; }
DRV_PID=$DRV_PID
cmd() { # one command, answer until a line that is not "value ..."
  echo "$1" >&"${DRV[1]}"
  local line out=
  while read -r -t 60 line <&"${DRV[0]}"; do
    out+="${out:+ }$line"
    [[ $line == value* ]] || break
  done
  echo "$out"
}

check "names: Counter 009 fetched" "ok *" "$(cmd "names $D/names.bin")"
# Perflib's Last Counter, read over winreg with the names: Samba reports
# twice names.tdb's "1" (reg_perfcount.c), read here from the tdb itself.
want_last=$($py -c 'import sys, tdb
print(2 * int(tdb.Tdb(sys.argv[1]).get(b"1")))' "$D/state/perfmon/names.tdb")
check "Last Counter: smbd's value, 2 * names.tdb's 1 ($want_last)" \
  "$want_last" "$(cmd last)"
# The same through a shared helper's session (the l frame).
check "Last Counter through a shared helper's session" "ok * $want_last" \
  "$(printf 'names %s\nlast\n' "$D/names2.bin" |
    "$driver" --helper "$helper" --shared 2 --port "$port" \
      --credentials "$D/creds" 127.0.0.1 2>"$D/shared.err" | tr '\n' ' ' |
    sed 's/ $//')"
check "sample 1 fetched (Global)" "ok *" "$(cmd "collect $D/s1.bin Global")"
$py "$top_srcdir/tests/remote/perfmon_tdb.py" "$D/state/perfmon" 2
check "sample 2 fetched (Global)" "ok *" "$(cmd "collect $D/s2.bin Global")"
check "index-list query fetched" "ok *" "$(cmd "collect $D/idx.bin 2 8")"

# Expected values by hand (perfmon_tdb.py): dT = 5 s.
ev() { cmd "eval $D/s1.bin $D/s2.bin $D/names.bin $1"; }
check "% Processor Time: 100 (1 - dN/dT) = 75 and 25" \
  "value 0 75 value 1 25 end 2" "$(ev '\Processor(*)\% Processor Time')"
check "Interrupts/sec: dN / (dT / F) = 500 and 50" \
  "value 0 500 value 1 50 end 2" "$(ev '\Processor(*)\Interrupts/sec')"
check "System: Processes 43, Context Switches/sec 1500" \
  "value - 43 value - 1500 end 2" "$(ev '\System\*')"
check "a 20 KB blob over many fragments, grown from 8 KiB: last instance" \
  "value t299 299 end 1" "$(ev '\Thread(t299)\ID Thread')"
blob_size=$(stat -c %s "$D/s2.bin")
if [ "$blob_size" -gt 16384 ]; then
  ok "the blob ($blob_size bytes) needed two buffer growths and 5+ fragments"
else
  nok "the blob ($blob_size bytes) should exceed 16 KiB"
fi
check "index-list answer decodes like Global (Samba ignores the list)" \
  "same *" "$(cmd "compare $D/s2.bin $D/idx.bin")"

# Cross-check against Samba's own winreg client.
if SQ_USER=$user SQ_PASSWORD=$pass $py "$top_srcdir/tests/remote/samba_query.py" \
  127.0.0.1 "$port" Global "$D/py.bin" 2>"$D/py.err"; then
  check "python3-samba's blob decodes to the same raw values" \
    "same 306" "$(cmd "compare $D/s2.bin $D/py.bin")"
else
  nok "python3-samba query: $(tail -1 "$D/py.err")"
fi

# The winperf tool: query --remote and capture --remote (same helper).
winperf=$top_builddir/winperf
if [ -x "$winperf" ]; then
  out=$("$winperf" query --remote 127.0.0.1 --port "$port" --helper "$helper" \
    --credentials "$D/creds" --interval 0 '\System\Processes' 2>>"$D/winperf.err")
  same "winperf query --remote: the raw count" "$(printf '\\System\\Processes\t43')" "$out"
  "$winperf" capture --remote 127.0.0.1 --port "$port" --helper "$helper" \
    --credentials "$D/creds" --interval 0 --count 2 --dir "$D/cap" 2>>"$D/winperf.err"
  out=$("$winperf" query --names "$D/cap/names.multisz" "$D/cap/000001.blob" \
    "$D/cap/000002.blob" '\Thread(t299)\ID Thread' 2>>"$D/winperf.err")
  same "winperf capture --remote: a replay directory the query reads" \
    "$(printf '\\Thread(t299)\\ID Thread\t299')" "$out"
else
  nok "winperf not built"
fi

# Wrong password: a clear authentication error, no anonymous fallback.
bad=$(echo "collect $D/bad.bin Global" | "$driver" --helper "$helper" \
  --port "$port" --credentials "$D/badcreds" 127.0.0.1 2>/dev/null)
check "wrong password: authentication error (kind 1)" \
  "error 1 remote 127.0.0.1: authentication failed: *$user*" "$bad"
[ -e "$D/bad.bin" ] && nok "wrong password: no blob written" ||
  ok "wrong password: no blob written"

# Now let smbd serve anonymous sessions (its default): libsmbclient would
# silently retry the refused login anonymously and read the data; the
# helper must still say "authentication failed".
sed -i 's/restrict anonymous = 2/restrict anonymous = 0/' "$D/smb.conf"
kill -HUP "$smbd_pid"
sleep 0.5
if command -v smbclient >/dev/null; then
  if smbclient -N -p "$port" //127.0.0.1/IPC\$ -c exit >/dev/null 2>&1; then
    ok "smbd now serves anonymous sessions"
  else
    nok "smbd now serves anonymous sessions"
  fi
else
  nok "smbclient missing (apt-get install smbclient)"
fi
bad=$(echo "collect $D/anon.bin Global" | "$driver" --helper "$helper" \
  --port "$port" --credentials "$D/badcreds" 127.0.0.1 2>/dev/null)
check "wrong password with anonymous allowed: still an authentication error" \
  "error 1 remote 127.0.0.1: authentication failed: *$user*" "$bad"
sed -i 's/restrict anonymous = 0/restrict anonymous = 2/' "$D/smb.conf"
kill -HUP "$smbd_pid"

# The good driver's helper is still connected; take smbd away under it.
pid1=$(cmd pid)
stop_smbd
check "smbd stopped: a connection error, not a hang" \
  "error 2 remote 127.0.0.1: *" "$(cmd "collect $D/down.bin Global")"
start_smbd || bail "smbd restart"
check "smbd restarted: the same source recovers" "ok *" \
  "$(cmd "collect $D/s3.bin Global")"
check "after the restart the values are still exact" \
  "value 0 75 value 1 25 end 2" \
  "$(cmd "eval $D/s1.bin $D/s3.bin $D/names.bin \Processor(*)\% Processor Time")"
check "recovered without restarting the helper (pid $pid1)" "$pid1" "$(cmd pid)"

# The password never reaches argv (ps) nor the logs.
if grep -rqs -- "$pass" "$D/log" "$D/driver.err" "$D/winperf.err"; then
  nok "password absent from smbd logs and helper stderr"
else
  ok "password absent from smbd logs and helper stderr"
fi

echo "1..$n"
