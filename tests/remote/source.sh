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

out=$(run hang "collect $tmp/a Global" pid)
check "hang: the deadline kills the helper" \
  "error 3 remote testhost: no answer from the helper within 1500 ms*" "$out"
check "hang: no helper left running" "-1" "$(echo "$out" | sed -n 2p)"

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
else
  nok "$helper not built (libsmbclient-dev missing?)"
fi

echo "1..$n"
