#!/bin/bash
# collectd-winperf: the remote helper's sandbox (issue 29), with collectd
# started as root against a real smbd.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# A real smbd on 127.0.0.1 (tests/remote/smbd-lib.sh), a real collectd 5.12
# as root with the built winperf.so, a real carbon-cache. Expected values by
# hand as in collectd-hosts.sh: sample 1 gives Processes 42; samples 1 -> 2
# give Context Switches/sec 1500 and Processes 43; sample 3 Processes 44.
# The helpers are the test build (tests/remote/winperf-remote-helper-test:
# SIGUSR1 makes it attempt execve once its sandbox is up), one copy per
# <Plugin winperf> block so each block's helpers can be told apart:
#   A  HostsPerHelper 1, HelperUser a throwaway user with a supplementary
#      group: a1 (127.0.0.1), a2 (localhost: a name resolved in the
#      sandbox), a3 (its own password file, wrong at first)
#   B  HostsPerHelper 2, the default HelperUser (winperf-helper, else
#      nobody): b1, b2 on one helper, their password file (0600 root)
#      passed open with each OPEN
#   C  HelperSandbox false: c1, a helper as root, no filter, a warning
#   D  HelperUser a user that does not exist: d1, a clear refusal
#   E  a hostile fake helper that sends an open descriptor with each answer
#   F  HostsPerHelper 2: f1 (its own password file, wrong at first)
# collectd starts with a descriptor of its own above 1023 (the plugin's
# child closes only 3..1023): no helper may keep it. Checked: each
# sandboxed helper's /proc/PID/status (Uid, Gid non-zero, Groups its
# user's own, NoNewPrivs 1, Seccomp 2, no capability), its descriptors,
# its private directory; values flow in A and B; a3's and f1's password
# files replaced by the right ones (renamed over): both recover, a3 on a
# new helper; SIGUSR1 to a2's helper: the filter kills it at execve
# (SIGSYS), the plugin reports a helper that ended, a2 gets a new
# sandboxed helper and sample 3 (and tests/remote/remote_driver, which
# keeps its children's status, names SIGSYS); the remote source started by
# a user other than root (collectd unprivileged): its helper stays that
# user, sandboxed; collectd never holds the fake's descriptor.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=smbd-lib.sh disable=SC2154 # top_srcdir: lib.sh sets it
. "$top_srcdir/tests/remote/smbd-lib.sh"
need pgrep ps useradd userdel groupadd groupdel python3

# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$top_builddir/tests/remote/winperf-remote-helper-test
smbd_e2e_start sandbox
e2e_ok 0 "smbd listening on 127.0.0.1:$SMBD_PORT (restrict anonymous = 2)"
[ -x "$helper" ] || e2e_bail "$helper built (make check builds it)"

# A throwaway HelperUser with a supplementary group of its own.
SBX_USER=wpsbx$$
SBX_GROUP=wpsbxg$$
cleanup_users() {
  userdel "$SBX_USER" 2>/dev/null
  groupdel "$SBX_GROUP" 2>/dev/null
  return 0
}
trap 'smbd_teardown; e2e_cleanup; cleanup_users' EXIT
groupadd -r "$SBX_GROUP" && useradd -r -M -U -G "$SBX_GROUP" \
  -s /usr/sbin/nologin "$SBX_USER" || e2e_bail "a throwaway HelperUser"
SBX_UID=$(id -u "$SBX_USER")
SBX_GID=$(id -g "$SBX_USER")
SBX_GROUPS=$(id -G "$SBX_USER" | tr ' ' '\n' | sort -n | tr '\n' ' ' | sed 's/ $//')
# The default HelperUser: the .deb's winperf-helper, else nobody.
DEF_USER=winperf-helper
getent passwd "$DEF_USER" >/dev/null || DEF_USER=nobody
DEF_UID=$(id -u "$DEF_USER")

for b in A B C D F; do
  mkdir -p "$E2E_DIR/h$b"
  cp "$helper" "$E2E_DIR/h$b/winperf-remote-helper-test" || e2e_bail "helper copies"
done
cp "$top_srcdir/tests/remote/fake_helper_fd.py" "$E2E_DIR/hE" &&
  chmod 755 "$E2E_DIR/hE" || e2e_bail "the hostile fake helper"
echo "smuggled" >"$E2E_DIR/smuggled.txt"
e2e_start_carbon

cat >"$E2E_DIR/winperf.yaml" <<'EOF'
- '\System\Processes'
- '\System\Context Switches/sec'
EOF
host() { # host NAME ADDRESS [PASSWORD-FILE]
  printf '  <Host "%s">\n    Address "%s"\n    Port %s\n    PasswordFile "%s"\n  </Host>\n' \
    "$1" "$2" "$SMBD_PORT" "${3:-$SMBD_DIR/creds}"
}
# Two password files, wrong at first, then replaced by the right one
# renamed over them (as an editor or a deployment tool does): the helpers
# hold the old files open and may not open the new ones; the plugin gives
# a3 a new helper and f1 a new session, which read the new file.
for f in a3 f1; do
  cp "$SMBD_DIR/badcreds" "$E2E_DIR/$f.cred" && chmod 600 "$E2E_DIR/$f.cred" ||
    e2e_bail "a wrong password file for $f"
done
block() { # block LETTER OPTIONS HOSTS...
  printf '<Plugin winperf>\n  CountersFile "%s"\n  SelfMetrics false\n' "$E2E_DIR/winperf.yaml"
  printf '  RemoteHelper "%s/h%s/winperf-remote-helper-test"\n%s\n' "$E2E_DIR" "$1" "$2"
  shift 2
  printf '%s\n' "$@"
  printf '</Plugin>\n'
}
cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_globals sandbox-collectd 1)
ReadThreads 6

$(e2e_conf_logfile_graphite)

LoadPlugin winperf
$(block A "  HelperUser \"$SBX_USER\"" "$(host a1 127.0.0.1)" "$(host a2 localhost)" \
  "$(host a3 127.0.0.1 "$E2E_DIR/a3.cred")")
$(block B "  HostsPerHelper 2" "$(host b1 127.0.0.1)" "$(host b2 127.0.0.1)")
$(block C "  HelperSandbox false" "$(host c1 127.0.0.1)")
$(block D "  HelperUser \"no-such-user-$$\"" "$(host d1 127.0.0.1)")
$(block F "  HostsPerHelper 2" "$(host f1 127.0.0.1 "$E2E_DIR/f1.cred")")
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  SelfMetrics false
  RemoteHelper "$E2E_DIR/hE"
$(host e1 127.0.0.1)
</Plugin>
EOF

# collectd inherits a descriptor no helper may keep: above 1023, which the
# plugin's child does not close itself (the helper must).
ulimit -n 4096
exec 1500<"$E2E_DIR/collectd.conf"
export FAKE_SMUGGLE=$E2E_DIR/smuggled.txt FAKE_SENT=$E2E_DIR/fake.sent
smbd_collectd_start
exec 1500<&-
e2e_ok "$([ "$(readlink "/proc/$COLLECTD_PID/fd/1500")" = "$E2E_DIR/collectd.conf" ] && echo 0 || echo 1)" \
  "collectd holds descriptor 1500 (the helpers inherit it from the plugin)"

all_have() { # all_have RELPATH VALUE HOST...
  local rel=$1 v=$2
  shift 2
  for h in "$@"; do has_value "$W/$h/$rel" "$v" || return 1; done
}
helpers_of() { pgrep -f "^$E2E_DIR/h$1/" | sort -n; }
usr1() { # usr1 PID: SIGUSR1 to that one process (never -1 nor a group)
  [[ ${1:-} =~ ^[1-9][0-9]*$ ]] && kill -USR1 "$1"
}
status_of() { # status_of PID FIELD: the field's value, tabs as spaces
  sed -n "s/^$2:[[:space:]]*//p" "/proc/$1/status" | tr '\t' ' ' | sed 's/ *$//'
}

e2e_wait_for 40 all_have winperf-System/gauge-Processes.wsp 42 a1 a2 b1 b2 c1
e2e_ok $? "a1, a2 (HostsPerHelper 1), b1, b2 (HostsPerHelper 2), c1: Processes 42 arrives"
smbd_write_sample 2 || e2e_bail "perfmon tdb sample 2"
e2e_wait_for 30 all_have winperf-System/gauge-Context_Switches_sec.wsp 1500 a1 a2 b1 b2
e2e_ok $? "a1, a2, b1, b2: sample 2's Context Switches/sec 7500 / 5 s = 1500"
for h in a1 a2 b1 b2; do
  e2e_wait_for 10 has_value "$W/$h/winperf-System/gauge-Processes.wsp" 43
  e2e_is "$(wsp_values "$W/$h/winperf-System/gauge-Processes.wsp")" "42 43" \
    "$h: Processes 42 then 43, through a sandboxed helper"
done

A=$(helpers_of A | tr '\n' ' ' | sed 's/ $//')
B=$(helpers_of B)
e2e_is "$(echo "$A" | wc -w) $(echo "$B" | wc -w)" "3 1" \
  "block A: a helper per host (3); block B: one helper for both hosts"
# sandboxed PID UID GID GROUPS: the status of a helper in its sandbox
sandboxed() {
  local p=$1
  e2e_is "$(status_of "$p" Uid)" "$2 $2 $2 $2" "helper $p: Uid $2 (real, effective, saved, fs)"
  e2e_is "$(status_of "$p" Gid)" "$3 $3 $3 $3" "helper $p: Gid $3"
  e2e_is "$(status_of "$p" Groups | tr ' ' '\n' | sort -n | tr '\n' ' ' | sed 's/ $//')" \
    "$4" "helper $p: Groups its user's own ($4), none of root's"
  e2e_is "$(status_of "$p" NoNewPrivs) $(status_of "$p" Seccomp)" "1 2" \
    "helper $p: NoNewPrivs 1, Seccomp 2 (filter)"
  e2e_is "$(status_of "$p" CapEff) $(status_of "$p" CapPrm) $(status_of "$p" CapAmb)" \
    "0000000000000000 0000000000000000 0000000000000000" "helper $p: no capability"
  local fds
  fds=$(for f in /proc/"$p"/fd/*; do readlink "$f"; done)
  echo "$fds" | e2e_diag
  case $fds in *"$E2E_DIR/collectd.conf"*) st=1 ;; *) st=0 ;; esac
  e2e_ok $st "helper $p: collectd's descriptor 1500 is not among its own"
}
for p in $A; do
  sandboxed "$p" "$SBX_UID" "$SBX_GID" "$SBX_GROUPS"
done
# shellcheck disable=SC2086 # $B: one pid
sandboxed $B "$DEF_UID" "$(id -g "$DEF_USER")" "$(id -G "$DEF_USER" | tr ' ' '\n' | sort -n | tr '\n' ' ' | sed 's/ $//')"
e2e_ok "$([ "$SBX_UID" -ne 0 ] && [ "$DEF_UID" -ne 0 ] && [ "$SBX_GID" -ne 0 ] && echo 0 || echo 1)" \
  "HelperUser $SBX_USER ($SBX_UID) and $DEF_USER ($DEF_UID): neither is root"
e2e_is "$(stat -c '%U %a' "$SMBD_DIR/creds")" "root 600" \
  "the password file is root's, mode 600: b1 and b2 read it through the descriptors OPEN passed"

# The private directories: the helper's user's, 0700, libsmbclient's
# state there (its own smb.conf), the operator's settings included.
adir=$(tr '\0' '\n' <"/proc/${A%% *}/cmdline" | sed -n '/^--private-dir$/{n;p}')
e2e_is "$(stat -c '%U %a' "$adir" 2>&1)" "$SBX_USER 700" \
  "a1's private directory $adir: $SBX_USER's, mode 700"
grep -q '^[[:space:]]*lock directory = /proc/self/fd/[0-9]*$' "$adir/smb.conf" &&
  grep -q '^[[:space:]]*state directory = /proc/self/fd/[0-9]*$' "$adir/smb.conf" &&
  grep -q '^[[:space:]]*cache directory = /proc/self/fd/[0-9]*$' "$adir/smb.conf"
e2e_ok $? "its smb.conf points libsmbclient's lock, state and cache directories at it"
sed 's/^/  /' "$adir/smb.conf" | e2e_diag

# The password files replaced (renamed over): a3 and f1 log on with the
# new one, through a new helper (a3) and a new session (f1).
e2e_wait_for 20 log_has 'host "a3" (127.0.0.1): authentication failure'
e2e_ok $? "a3: its wrong password is refused (and its credential paused)"
e2e_wait_for 20 log_has 'host "f1" (127.0.0.1): authentication failure'
a3_before=$(pgrep -f "^$E2E_DIR/hA/.* --credentials $E2E_DIR/a3.cred ")
for f in a3 f1; do
  cp "$SMBD_DIR/creds" "$E2E_DIR/$f.new" && chmod 600 "$E2E_DIR/$f.new" &&
    mv "$E2E_DIR/$f.new" "$E2E_DIR/$f.cred"
done
e2e_wait_for 30 all_have winperf-System/gauge-Processes.wsp 43 a3 f1
e2e_ok $? "a3 (a helper of its own) and f1 (a shared helper's session): the renamed file's password is used, values arrive"
a3_after=$(pgrep -f "^$E2E_DIR/hA/.* --credentials $E2E_DIR/a3.cred ")
e2e_ok "$([ -n "$a3_before" ] && [ -n "$a3_after" ] && [ "$a3_before" != "$a3_after" ] && echo 0 || echo 1)" \
  "a3's helper, which held the old file, was replaced ($a3_before -> $a3_after)"

# C: no sandbox, as asked, and said.
C=$(helpers_of C)
# shellcheck disable=SC2086
e2e_is "$(status_of $C Uid | cut -d' ' -f1) $(status_of $C Seccomp)" "0 0" \
  "HelperSandbox false: c1's helper runs as root, without a filter"
log_has 'HelperSandbox false: the remote helpers of this <Plugin winperf> block run without their sandbox'
e2e_ok $? "HelperSandbox false is logged at warning level"

# D: a helper that cannot apply its sandbox stops, and says why.
e2e_wait_for 10 log_has "host \"d1\".*cannot apply its sandbox.*no user no-such-user-$$"
e2e_ok $? "HelperUser that does not exist: d1's helper stops with a clear message"
grep 'host "d1"' "$LOG" | head -2 | e2e_diag
e2e_ok "$([ ! -d "$W/d1" ] && echo 0 || echo 1)" "d1: nothing in carbon"

# The filter kills a helper that calls execve. collectd reaps its children
# itself (SIGCHLD ignored), so the plugin there reports a helper that
# ended, and a2 gets a new, sandboxed helper.
a2=$(pgrep -f "^$E2E_DIR/hA/.* localhost$")
a1=$(pgrep -f "^$E2E_DIR/hA/.* --credentials $SMBD_DIR/creds .* 127.0.0.1$")
usr1 "$a2" || e2e_bail "SIGUSR1 to a2's helper ($a2)"
e2e_wait_for 15 log_has 'host "a2" (localhost): helper failure: remote localhost: the helper ended'
e2e_ok $? "a2's helper attempts execve and dies: the plugin reports it"
grep 'host "a2"' "$LOG" | grep -v 'collecting again' | head -2 | e2e_diag
new_a2() { p=$(pgrep -f "^$E2E_DIR/hA/.* localhost$") && [ -n "$p" ] && [ "$p" != "$a2" ]; }
e2e_wait_for 10 new_a2
e2e_ok $? "a2: a new helper ($a2 -> $(pgrep -f "^$E2E_DIR/hA/.* localhost$"))"
# The same through the remote source in a process that keeps its
# children's exit status (tests/remote/remote_driver): SIGSYS, the
# filter's kill, named as such.
driver=$top_builddir/tests/remote/remote_driver
coproc DRV { "$driver" --helper "$E2E_DIR/hA/winperf-remote-helper-test" \
  --port "$SMBD_PORT" --credentials "$SMBD_DIR/creds" 127.0.0.1 2>"$E2E_DIR/driver.err"; }
cmd() { # one command to the driver, its one-line answer
  local line
  echo "$1" >&"${DRV[1]}"
  read -r -t 60 line <&"${DRV[0]}" && echo "$line"
}
# (the coprocess's descriptors exist in command substitutions, not pipes)
out=$(cmd "collect $E2E_DIR/d1.bin Global")
e2e_is "${out%% *}" ok "remote_driver: a blob through the test helper"
d1=$(cmd pid)
usr1 "$d1" || e2e_bail "SIGUSR1 to the driver's helper ($d1)"
out=$(cmd "collect $E2E_DIR/d2.bin Global")
case $out in
"error 100 remote 127.0.0.1: the helper was killed by its sandbox (signal 31, SIGSYS: a system call its seccomp filter forbids) while waiting for an answer; started again") st=0 ;;
*) st=1 ;;
esac
e2e_ok $st "remote_driver: the helper's execve is killed by the filter (SIGSYS): $out"
out=$(cmd "collect $E2E_DIR/d3.bin Global")
e2e_is "${out%% *}" ok "remote_driver: the next request is answered"
d2=$(cmd pid)
e2e_is "$([ "$d2" != "$d1" ] && status_of "$d2" Seccomp)" 2 "remote_driver: by a new sandboxed helper ($d1 -> $d2)"
echo quit >&"${DRV[1]}"
wait "$DRV_PID" 2>/dev/null

# collectd itself unprivileged (doc/winperf-remote.md, the systemd
# drop-in): a helper started by a user other than root stays that user and
# applies the rest of its sandbox. The remote source (remote_driver) run as
# the throwaway user, with a password file and a TMPDIR of its own.
U=$E2E_DIR/unpriv
chmod 711 "$E2E_DIR" && mkdir -m 700 "$U" && cp "$SMBD_DIR/creds" "$U/creds" &&
  chown -R "$SBX_USER:" "$U" || e2e_bail "a directory and password file of $SBX_USER's"
coproc DRV { runuser -u "$SBX_USER" -- env TMPDIR="$U" "$driver" \
  --helper "$E2E_DIR/hA/winperf-remote-helper-test" --port "$SMBD_PORT" \
  --credentials "$U/creds" 127.0.0.1 2>"$E2E_DIR/driver-unpriv.err"; }
out=$(cmd "collect $U/u1.bin Global")
e2e_is "${out%% *}" ok "started by $SBX_USER (not root): a blob through its helper"
u=$(cmd pid)
e2e_is "$(status_of "$u" Uid) / $(status_of "$u" NoNewPrivs) $(status_of "$u" Seccomp) $(status_of "$u" CapEff)" \
  "$SBX_UID $SBX_UID $SBX_UID $SBX_UID / 1 2 0000000000000000" \
  "started by $SBX_USER: the helper ($u) stays $SBX_USER, NoNewPrivs 1, Seccomp 2, no capability"
echo quit >&"${DRV[1]}"
wait "$DRV_PID" 2>/dev/null
smbd_write_sample 3 || e2e_bail "perfmon tdb sample 3"
e2e_wait_for 30 all_have winperf-System/gauge-Processes.wsp 44 a1 a2 b1 b2
e2e_ok $? "after the kill: a2 (and a1, b1, b2) get sample 3 (Processes 44)"
p=$(pgrep -f "^$E2E_DIR/hA/.* localhost$")
e2e_is "$(status_of "$p" NoNewPrivs) $(status_of "$p" Seccomp) $(status_of "$p" Uid | cut -d' ' -f1)" \
  "1 2 $SBX_UID" "a2's new helper is sandboxed too"
e2e_is "$(pgrep -f "^$E2E_DIR/hA/.* --credentials $SMBD_DIR/creds .* 127.0.0.1$")" "$a1" "a1's helper untouched ($a1)"

# E: the plugin gains nothing from a helper but frames.
e2e_wait_for 10 test -s "$E2E_DIR/fake.sent"
sent=$(cat "$E2E_DIR/fake.sent" 2>/dev/null)
held=$(for f in /proc/"$COLLECTD_PID"/fd/*; do readlink "$f"; done | grep -c "smuggled.txt")
e2e_is "${sent:-0} ${held}" "$([ "${sent:-0}" -gt 0 ] && echo "$sent" || echo 1) 0" \
  "the hostile helper sent ${sent:-0} descriptors with its answers: collectd holds none"

e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd running"
kill "$COLLECTD_PID"
e2e_wait_for 15 eval '! e2e_alive "$COLLECTD_PID"'
e2e_is "$(pgrep -f "^$E2E_DIR/h" | wc -l)" 0 "no helper left after collectd's exit"
e2e_is "$(find "$E2E_DIR" -maxdepth 1 -name 'winperf-helper.*' | wc -l)" 0 \
  "no private directory left under BaseDir"
e2e_done
