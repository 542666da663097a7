# shellcheck shell=bash
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# Shared by the winperf CLI tests (sourced): TAP output, the binary, the
# sample pair, JSON validation with Debian's python3.
# Expected values come from the format reference (doc/format.md 1.8,
# 3.3) and conf/sample/README, never from running winperf.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
WINPERF=${WINPERF:-$top_builddir/winperf}
SAMPLE=$top_srcdir/conf/sample
S1=$SAMPLE/sample1.blob
S2=$SAMPLE/sample2.blob
NAMES=$SAMPLE/names.multisz
PY=/usr/bin/python3
TMP=$(mktemp -d "${TMPDIR:-/tmp}/winperf-cli.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

tap_n=0
tap_failed=0
ok() { # ok CONDITION-STATUS DESCRIPTION
  tap_n=$((tap_n + 1))
  if [ "$1" -eq 0 ]; then
    printf 'ok %d - %s\n' "$tap_n" "$2"
  else
    printf 'not ok %d - %s\n' "$tap_n" "$2"
    tap_failed=$((tap_failed + 1))
  fi
}
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }
done_testing() {
  echo "1..$tap_n"
  [ "$tap_failed" -eq 0 ]
}

# run ARGS...: winperf's stdout in $TMP/out, stderr in $TMP/err, status in $rc
run() {
  "$WINPERF" "$@" >"$TMP/out" 2>"$TMP/err"
  rc=$?
}

# check_is DESCRIPTION GOT WANT
check_is() {
  if [ "$2" = "$3" ]; then
    ok 0 "$1"
  else
    ok 1 "$1"
    diag "got:  $2" "want: $3"
  fi
}

# Exactly one line on stderr, nothing on stdout, exit 2.
check_error() { # DESCRIPTION
  check_is "$1: exit 2" "$rc" 2
  check_is "$1: one stderr line" "$(wc -l <"$TMP/err" | tr -d ' ')" 1
  check_is "$1: nothing on stdout" "$(wc -c <"$TMP/out" | tr -d ' ')" 0
  diag "stderr: $(cat "$TMP/err")"
}

# stderr contains a fixed string
check_err_has() { # DESCRIPTION STRING
  if grep -qF -- "$2" "$TMP/err"; then ok 0 "$1"; else
    ok 1 "$1"
    diag "stderr lacks: $2" "stderr: $(cat "$TMP/err")"
  fi
}

# stdout is valid JSON per Debian's python3 json module
check_json_valid() { # DESCRIPTION
  if [ ! -x "$PY" ]; then
    ok 1 "$1 (needs $PY)"
    return
  fi
  if "$PY" -c 'import json,sys; json.load(sys.stdin)' <"$TMP/out" 2>"$TMP/pyerr"; then
    ok 0 "$1"
  else
    ok 1 "$1"
    diag "$(cat "$TMP/pyerr")"
  fi
}

# check_json DESCRIPTION PYTHON-EXPR: evaluate EXPR with j = the parsed
# stdout; passes when it is True.
check_json() {
  if [ ! -x "$PY" ]; then
    ok 1 "$1 (needs $PY)"
    return
  fi
  if "$PY" -c '
import json, sys
j = json.load(open(sys.argv[1], encoding="utf-8"))
r = eval(sys.argv[2])
if r is not True:
    print("expression gave %r" % (r,))
    sys.exit(1)
' "$TMP/out" "$2" >"$TMP/pyerr" 2>&1; then
    ok 0 "$1"
  else
    ok 1 "$1"
    diag "check: $2" "$(cat "$TMP/pyerr")"
  fi
}

# stdout has a line equal to the given text
check_line() { # DESCRIPTION LINE
  if grep -qxF -- "$2" "$TMP/out"; then ok 0 "$1"; else
    ok 1 "$1"
    diag "missing line: $2" "stdout:" "$(cat "$TMP/out")"
  fi
}

# need PROG... (tests/lib/need.sh): a missing program is a failure here.
# shellcheck source-path=SCRIPTDIR source=../lib/need.sh
. "$top_srcdir/tests/lib/need.sh"
NEED_FAIL=cli_need_fail
cli_need_fail() {
  for _m in "$@"; do ok 1 "$_m"; done
  done_testing
  exit 1
}

# Preconditions every test needs: reported as failures, never skipped.
# write_names FILE INDEX NAME [INDEX NAME...]: a Counter name table
# (REG_MULTI_SZ, UTF-16LE) of those pairs, as format.md 4.1 has it.
write_names() {
  "$PY" -c '
import sys
flat = "\0".join(sys.argv[2:]) + "\0\0"
open(sys.argv[1], "wb").write(flat.encode("utf-16-le"))' "$@"
}

precheck() {
  need python3
  [ -x "$WINPERF" ]
  ok $? "winperf binary is built ($WINPERF)"
  [ -r "$S1" ] && [ -r "$S2" ] && [ -r "$NAMES" ]
  ok $? "sample pair present in $SAMPLE"
}
