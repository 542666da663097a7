#!/bin/sh
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# TAP: src/source/remote.c against a fake helper (tests/remote/fake_helper.sh):
# data, an authentication error passed through, a helper that dies, hangs,
# answers garbage or oversized frames, and one that cannot be started.
: "${top_srcdir:=.}" "${top_builddir:=.}"
driver=$top_builddir/tests/remote/remote_driver
fake=$top_srcdir/tests/remote/fake_helper.sh
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { # check DESCRIPTION EXPECTED-GLOB ACTUAL
  # shellcheck disable=SC2254 # EXPECTED is a glob
  case $3 in
  $2) ok "$1" ;;
  *) nok "$1"; echo "#   got: $3"; echo "#   want: $2" ;;
  esac
}
run() { # run MODE COMMANDS...
  mode=$1
  shift
  printf '%s\n' "$@" | FAKE_MODE=$mode "$driver" --helper "$fake" \
    --connect-timeout 500 --query-timeout 500 testhost 2>"$tmp/stderr"
}

if [ ! -x "$driver" ]; then
  echo "not ok 1 - $driver not built"
  echo "1..1"
  exit 0
fi

out=$(run data "collect $tmp/a Global" "names $tmp/b")
check "data: collect and names answered" "ok 5
ok 5" "$out"
check "data: the blob bytes arrive unchanged" "hello" "$(cat "$tmp/a")"

# Last Counter, asked with the names: a REG_DWORD is the host's value; a
# denial or a malformed answer is unknown (0), and neither the names nor
# the helper suffer (same pid, the next collect answered).
export FAKE_LAST=47
out=$(run data "names $tmp/b" last pid "collect $tmp/a Global" pid)
check "last counter: the REG_DWORD the helper read" "ok 5
47" "$(echo "$out" | sed -n 1,2p)"
check "last counter: the same helper answers the next collect" "ok 5" \
  "$(echo "$out" | sed -n 4p)"
[ "$(echo "$out" | sed -n 3p)" = "$(echo "$out" | sed -n 5p)" ]
check "last counter: the same helper ($(echo "$out" | sed -n 3p))" 0 "$?"
FAKE_LAST=denied
out=$(run data "names $tmp/b" last "collect $tmp/a Global")
check "last counter denied: names ok, unknown, collect ok" "ok 5
0
ok 5" "$out"
FAKE_LAST=short
out=$(run data "names $tmp/b" last "collect $tmp/a Global")
check "last counter of 2 bytes: unknown, no error" "ok 5
0
ok 5" "$out"
unset FAKE_LAST
out=$(run data "names $tmp/b" last)
check "last counter answered as REG_BINARY: unknown" "ok 5
0" "$out"

# winperf doctor --remote uses the host's value: conf/sample's table (its
# indices 2 .. 12) served by the fake helper; a typo's own verdict, plus
# the table's claim only when the host's Last Counter (2) is below 12.
doctor_fake() { # doctor_fake LAST: the typo's verdict and fix
  FAKE_LAST=$1 FAKE_MODE=files FAKE_NAMES=$top_srcdir/conf/sample/names.multisz \
    FAKE_BLOB=$top_srcdir/conf/sample/sample1.blob WINPERF_REMOTE_USER=u \
    WINPERF_REMOTE_PASSWORD=p "$top_builddir/winperf" doctor --remote testhost \
    --helper "$fake" '\Procesor(*)\Interrupts/sec' 2>"$tmp/stderr" | cut -f2-
}
check "doctor --remote, Last Counter 2: the typo first, then the claim" \
  'names-table-corrupt	object "Procesor" is not in the name table*. Also, the name table is inconsistent: Perflib'"'"'s Last Counter 2 is below index 12 in use; rebuild it with lodctr /R*' \
  "$(doctor_fake 2)"
check "doctor --remote, Last Counter 12: the typo alone" \
  'unknown-name	object "Procesor" is not in the name table*)' \
  "$(doctor_fake 12)"
check "doctor --remote, Last Counter denied: the typo alone, no claim" \
  'unknown-name	object "Procesor" is not in the name table*)' \
  "$(doctor_fake denied)"

out=$(run auth "collect $tmp/a Global")
check "auth: error kind 1 and the helper's message" \
  "error 1 remote testhost: authentication failed: test refused user bob" "$out"

out=$(run die2 "collect $tmp/a Global" pid "collect $tmp/a Global" \
  "collect $tmp/a Global" pid)
first_pid=$(echo "$out" | sed -n 2p)
second_pid=$(echo "$out" | sed -n 5p)
check "die: first answer" "ok 5" "$(echo "$out" | sed -n 1p)"
check "die: the helper's exit status is reported" \
  "error 100 remote testhost: the helper exited with status 9 while*" \
  "$(echo "$out" | sed -n 3p)"
check "die: the next call restarts it and succeeds" "ok 5" \
  "$(echo "$out" | sed -n 4p)"
if [ -n "$first_pid" ] && [ "$first_pid" != "$second_pid" ] &&
  [ "$second_pid" -gt 0 ] 2>/dev/null; then
  ok "die: a new helper process ($first_pid -> $second_pid)"
else
  nok "die: a new helper process ($first_pid -> $second_pid)"
fi

out=$(run data "collect $tmp/a Global" pid kill "collect $tmp/a Global" pid)
check "killed while idle: noticed on send, restarted, answered" "ok 5" \
  "$(echo "$out" | sed -n 4p)"
if [ "$(echo "$out" | sed -n 2p)" != "$(echo "$out" | sed -n 5p)" ]; then
  ok "killed while idle: new pid"
else
  nok "killed while idle: new pid"
fi

out=$(run hang pid "collect $tmp/a Global" pid)
check "hang: the deadline kills the helper" \
  "error 3 remote testhost: no answer from the helper within 3500 ms (waiting for an answer); helper killed and started again" \
  "$(echo "$out" | sed -n 2p)"
# (the first pid is -1: a helper starts on the first request)
hung=$(echo "$out" | sed -n 3p)
if [ "$hung" -gt 0 ] 2>/dev/null && ! kill -0 "$hung" 2>/dev/null; then
  ok "hang: the hung helper is gone, a new one runs in its place ($hung)"
else
  nok "hang: the hung helper is gone, a new one runs in its place ($hung)"
fi

out=$(run garbage "collect $tmp/a Global")
check "garbage: unknown message type refused" \
  "error 4 remote testhost: bad answer from the helper (frame: unknown message type 0x5a)*" \
  "$out"

out=$(run huge "collect $tmp/a Global")
check "huge: a payload above the 64 MiB cap is refused before allocating" \
  "error 4 remote testhost: bad answer from the helper (frame: 'D' payload of 83886088 bytes exceeds*" \
  "$out"

out=$(printf 'collect %s Global\n' "$tmp/a" |
  "$driver" --helper "$tmp/no-such-helper" testhost 2>&1)
check "missing helper: a clear error" \
  "error 100 remote testhost: cannot run $tmp/no-such-helper: No such file or directory" \
  "$out"

# A shared helper (HostsPerHelper): two sources, one helper process.
shared() { # shared COMMANDS...: hosts ha and hb on one fake helper
  printf '%s\n' "$@" | FAKE_MODE=sessions "$driver" --helper "$fake" \
    --shared 2 --connect-timeout 500 --query-timeout 500 ha hb 2>"$tmp/stderr"
}
out=$(shared "@0 collect $tmp/a Global" "@1 collect $tmp/b Global" "@0 pid" \
  "@1 pid")
check "shared: both hosts answered" "ok 5
ok 5*" "$out"
p0=$(echo "$out" | sed -n 3p)
p1=$(echo "$out" | sed -n 4p)
if [ "$p0" -gt 0 ] 2>/dev/null && [ "$p0" = "$p1" ]; then
  ok "shared: one helper process for both ($p0)"
else
  nok "shared: one helper process for both ($p0, $p1)"
fi
out=$(FAKE_AUTH_SESSION=1 shared "@0 collect $tmp/a Global" \
  "@1 collect $tmp/b Global" "@1 collect $tmp/b Global" \
  "@0 collect $tmp/a Global")
check "shared: one session's auth error is that host's alone" \
  "error 1 remote ha: authentication failed: test refused user bob
ok 5
ok 5" "$(echo "$out" | sed -n 1,3p)"
check "shared: a refused session is closed; the next try opens a new one (credentials read again)" \
  "ok 5" "$(echo "$out" | sed -n 4p)"
out=$(FAKE_TIMEOUT_SESSION=1 shared "@0 collect $tmp/a Global" "@0 pid" \
  "@1 collect $tmp/b Global" "@1 pid")
check "shared: libsmbclient's timeout fails that host alone" \
  "error 3 remote ha: connecting to h timed out" "$(echo "$out" | sed -n 1p)"
check "shared: ... and its helper-mate is answered by the same helper" \
  "ok 5 $(echo "$out" | sed -n 2p)" "$(echo "$out" | sed -n 3,4p | tr '\n' ' ' | sed 's/ $//')"
out=$(FAKE_WATCHDOG_ONCE=$tmp/watchdog shared "@0 collect $tmp/a Global" "@0 pid" \
  "@1 collect $tmp/b Global" "@1 pid")
check "shared: the watchdog's timeout is reported" \
  "error 3 remote ha: query to h timed out after 2000 ms" \
  "$(echo "$out" | sed -n 1p)"
check "shared: the helper that exited after it is reaped, not left to fail the next host" \
  "-1" "$(echo "$out" | sed -n 2p)"
check "shared: after the watchdog its helper-mate gets a new helper and its data" "ok 5" \
  "$(echo "$out" | sed -n 3p)"
out=$(FAKE_HANG_ONCE=$tmp/hang shared "@0 collect $tmp/a Global" "@0 pid" \
  "@1 collect $tmp/b Global" "@1 pid" "@0 collect $tmp/a Global")
check "shared: a hung helper is killed at the host's deadline" \
  "error 3 remote ha: no answer from the helper within 3500 ms*" \
  "$(echo "$out" | sed -n 1p)"
check "shared: ... and reaped" "-1" "$(echo "$out" | sed -n 2p)"
check "shared: after the hang its helper-mate gets a new helper and its data" "ok 5" \
  "$(echo "$out" | sed -n 3p)"
check "shared: the host that timed out reopens its session there too" \
  "ok 5" "$(echo "$out" | sed -n 5p)"
out=$(shared "@0 collect $tmp/a Global" "@0 pid" "@0 kill" \
  "@1 collect $tmp/b Global" "@1 pid" "@0 collect $tmp/a Global")
check "shared: a helper killed while idle: the next host restarts it" \
  "ok 5" "$(echo "$out" | sed -n 4p)"
check "shared: the other host opens its session on the new helper" \
  "ok 5" "$(echo "$out" | sed -n 6p)"
if [ "$(echo "$out" | sed -n 2p)" != "$(echo "$out" | sed -n 5p)" ]; then
  ok "shared: a new helper process after the kill"
else
  nok "shared: a new helper process after the kill"
fi
# The deadline is 1500 + 1500 + 500 ms (the shared watchdogs of 500 ms
# steps and the margin); each answer takes 2 s: two hosts at once take 4 s,
# and the second host's deadline starts when its turn comes.
out=$(FAKE_SLEEP=2 shared "parallel $tmp/p Global")
check "shared: two hosts at once both answered" "0 ok 5 *
1 ok 5 *" "$out"
slow=$(echo "$out" | awk '{print $4}' | sort -n | tail -1)
if [ "${slow:-0}" -ge 3500 ] 2>/dev/null; then
  ok "shared: the second waited its turn ($slow ms > the 3500 ms deadline) and was not timed out"
else
  nok "shared: the second waited its turn (slowest $slow ms; expected >= 3500)"
fi

# The real helper's own checks, no server needed.
helper=$top_builddir/winperf-remote-helper
if [ -x "$helper" ]; then
  real() { # real COMMAND-LINE-ARGS... (one collect)
    printf 'collect %s Global\n' "$tmp/a" |
      "$driver" --helper "$helper" --connect-timeout 3000 "$@" 2>/dev/null
  }
  out=$(
    unset WINPERF_REMOTE_USER
    real 127.0.0.1
  )
  check "helper: no user anywhere is a config error, never anonymous" \
    "error 6 remote 127.0.0.1: no user name*" "$out"
  printf 'username = u\npassword = p\n' >"$tmp/cred"
  chmod 644 "$tmp/cred"
  out=$(real --credentials "$tmp/cred" 127.0.0.1)
  check "helper: a world-readable credentials file is refused" \
    "error 6 remote 127.0.0.1: credentials file * is readable by everyone*" \
    "$out"
  out=$(WINPERF_REMOTE_USER=u WINPERF_REMOTE_PASSWORD=p real --port 1 127.0.0.1)
  check "helper: credentials from the environment; closed port is a connect error" \
    "error 2 remote 127.0.0.1: *" "$out"
  # --sessions: each host's OPEN brings its own credentials file.
  cp "$tmp/cred" "$tmp/cred600"
  chmod 600 "$tmp/cred600"
  out=$(printf '@0 collect %s Global\n@1 collect %s Global\n@0 pid\n@1 pid\n' \
    "$tmp/a" "$tmp/b" | "$driver" --helper "$helper" --shared 2 \
    --connect-timeout 3000 --port 1 --credentials "$tmp/cred" 127.0.0.1 \
    --credentials "$tmp/cred600" 127.0.0.2 2>/dev/null)
  check "helper --sessions: one host's unreadable credentials are its error alone" \
    "error 6 remote 127.0.0.1: credentials file * is readable by everyone*
error 2 remote 127.0.0.2: *" "$(echo "$out" | sed -n 1,2p)"
  p0=$(echo "$out" | sed -n 3p)
  if [ "$p0" -gt 0 ] 2>/dev/null && [ "$p0" = "$(echo "$out" | sed -n 4p)" ]; then
    ok "helper --sessions: both hosts on one helper, still running"
  else
    nok "helper --sessions: both hosts on one helper, still running ($out)"
  fi
else
  nok "$helper not built (libsmbclient-dev missing?)"
fi

echo "1..$n"
