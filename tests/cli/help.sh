#!/bin/sh
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# winperf's help comes from its command table: `winperf --help` lists every
# command this build accepts (and no other), `winperf COMMAND --help` every
# option the command takes. The expected lists are written here by hand from
# winperf(1) and the commands' option parsing, not read from winperf; a
# build with the remote helper (configure found libsmbclient) also has
# `query --remote` and `capture --remote`. WINPERF_HELP_PLATFORM=windows
# checks a Windows build instead (WINPERF: a wrapper that runs winperf.exe,
# e.g. under Wine): capture, the live query and query-v2.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/cli/lib.sh"
precheck

if [ "${WINPERF_HELP_PLATFORM:-}" = windows ]; then
  remote=windows
  COMMANDS="dump query blg names doctor capture query-v2"
elif grep -qx 'S\["BUILD_REMOTE_TRUE"\]=""' "$top_builddir/config.status"; then
  remote=yes
  COMMANDS="dump query blg names doctor capture"
else
  remote=no
  COMMANDS="dump query blg names doctor"
fi
# shard and hosts --check read a HostsFile: builds with libyaml (the plugin's)
if [ "$remote" != windows ] && grep -qx 'S\["BUILD_PLUGIN_TRUE"\]=""' "$top_builddir/config.status"; then
  COMMANDS=$(echo "$COMMANDS" | sed 's/doctor/doctor shard hosts/')
fi
diag "build: $remote (yes: Linux with the remote helper, no: without, windows)"

DUMP_OPTS="--json --names -n --help -h"
QUERY_OPTS="--json --names -n --multi-timer=reskit|msdn --cap100 --pair-by --instance-names --metric-names --help -h"
REMOTE_OPTS="--remote --port --user --domain --encrypt --credentials --timeout --buffer-size --helper"
CAPTURE_OPTS="--dir --objects --count --interval"
REGISTRY_OPTS="--interval --count --buffer-size --max-buffer --verbose"
V2_OPTS="--set --counter --instance"
NAMES_OPTS="--json --names -n --local-names --grep --objects --counters --blob --help -h"
DOCTOR_OPTS="--json --names -n --counters --help -h"

# has_word FILE WORD: WORD appears in FILE delimited by space, comma, '['
# or the line's start/end (so --names does not match --names-x).
has_word() {
  grep -qE -- "(^|[ ,[])$(printf '%s' "$2" | sed 's/[][\.|*^$]/\\&/g')([ ,]|$)" "$1"
}

run --help
check_is "--help: exit 0" "$rc" 0
cp "$TMP/out" "$TMP/help"
# The "Commands:" block: two spaces, the name, the summary.
listed=$(sed -n '/^Commands:$/,/^$/s/^  \([^ ]*\) .*/\1/p' "$TMP/help" | tr '\n' ' ')
check_is "--help lists exactly the commands of this build" "$listed" "$COMMANDS "
for cmd in $COMMANDS; do
  grep -q "^winperf $cmd " "$TMP/help"
  ok $? "--help shows the synopsis of $cmd"
done
if [ "$remote" = windows ]; then
  grep -q '^winperf query \[--interval S\]' "$TMP/help"
  ok $? "--help shows the live query"
elif [ "$remote" = yes ]; then
  grep -q '^winperf query --remote HOST' "$TMP/help" &&
    grep -q '^winperf capture --remote HOST' "$TMP/help"
  ok $? "--help shows query --remote and capture --remote"
else
  ! grep -q -- '--remote' "$TMP/help"
  ok $? "--help does not offer --remote without the helper"
fi

# opts_of COMMAND: the options its --help must name
opts_of() {
  case "$1:$remote" in
  dump:*) echo "$DUMP_OPTS" ;;
  names:yes) echo "$NAMES_OPTS $REMOTE_OPTS" ;;
  names:*) echo "$NAMES_OPTS" ;;
  doctor:yes) echo "$DOCTOR_OPTS $REMOTE_OPTS" ;;
  doctor:*) echo "$DOCTOR_OPTS" ;;
  query:yes) echo "$QUERY_OPTS $REMOTE_OPTS --interval" ;;
  query:no) echo "$QUERY_OPTS" ;;
  capture:yes) echo "$REMOTE_OPTS $CAPTURE_OPTS --help -h" ;;
  query:windows) echo "$QUERY_OPTS $REGISTRY_OPTS" ;;
  capture:windows) echo "$CAPTURE_OPTS $REGISTRY_OPTS --help -h" ;;
  query-v2:windows) echo "$V2_OPTS $REGISTRY_OPTS --help -h" ;;
  esac
}

for cmd in $COMMANDS; do
  run "$cmd" --help
  check_is "$cmd --help: exit 0, nothing on stderr" \
    "$rc:$(wc -c <"$TMP/err" | tr -d ' ')" "0:0"
  grep -q "^Usage: winperf $cmd " "$TMP/out"
  ok $? "$cmd --help starts with its usage"
  sed -n '/^Options:$/,$p' "$TMP/out" >"$TMP/opts"
  for opt in $(opts_of "$cmd"); do
    has_word "$TMP/opts" "$opt"
    ok $? "$cmd --help names $opt"
  done
done

# -h works like --help, and the help stays on stdout.
run query -h
check_is "query -h: exit 0" "$rc" 0
grep -q '^Usage: winperf query ' "$TMP/out"
ok $? "query -h prints the query usage"
if [ "$remote" = windows ]; then
  run query --remote HOST '\2\6'
  check_error "query --remote on Windows"
elif [ "$remote" = yes ]; then
  run query --remote HOST --help
  check_is "query --remote HOST --help: help, no connection attempt" \
    "$rc:$(head -n 1 "$TMP/out" | cut -c1-20)" "0:Usage: winperf query"
  run capture --dir "$TMP/cap"
  check_error "capture without --remote"
  check_err_has "... says --remote is needed" "--remote HOST is required"
else
  run capture --help
  check_error "capture without the remote helper is unknown"
fi

done_testing
