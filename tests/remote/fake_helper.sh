#!/bin/sh
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# A stand-in for winperf-remote-helper that speaks the framed protocol
# (src/remote/frame.h) with canned answers, to test src/source/remote.c
# without Samba. FAKE_MODE picks the behaviour:
#   data     answer every request with DATA type 3, bytes "hello"
#   auth     answer with an ERROR of kind 1 (auth)
#   access   answer with an ERROR of kind 8 (access): OpenHKPD denied
#            after a good logon, as Windows answers an account without
#            Performance Monitor Users
#   die2     answer the first request, exit 9 on the second
#   files    answer NAMES with DATA type 7 and the bytes of $FAKE_NAMES,
#            QUERY with DATA type 3 and the bytes of $FAKE_BLOB
#   hang     never answer
#   garbage  answer with an unknown message type
#   huge     announce a payload above the 64 MiB cap
#   sessions a helper of several hosts (--sessions N): OPEN answered with
#            SESSION ids 1, 2, ... in turn, CLOSE with its id; SQUERY and
#            SNAMES, after FAKE_SLEEP seconds (default 0), with DATA
#            "hello", or for session FAKE_AUTH_SESSION with an auth ERROR,
#            for FAKE_TIMEOUT_SESSION with a timeout ERROR (libsmbclient's:
#            the helper carries on); with FAKE_WATCHDOG_ONCE=FILE the
#            first one while FILE does not exist (it is then created) with a
#            timeout ERROR and exit 3 (the watchdog's); with
#            FAKE_HANG_ONCE=FILE the first one while FILE does not exist
#            (it is then created) never answers
# FAKE_LAST (one-host modes) answers LAST_COUNTER ('L') itself: a number
# as a REG_DWORD, "denied" with an access ERROR (kind 8), "short" with a
# REG_DWORD of 2 bytes (hostile); unset, the mode answers it as any request.
# Requests are read byte by byte (dd bs=1) so nothing past a frame is lost.
mode=${FAKE_MODE:-data}
n=0
sessions=0
error_frame() { # error_frame KIND-OCTAL MESSAGE
  printf "\\$(printf %03o $((${#2} + 1)))\\000\\000\\000E\\$1%s" "$2"
}
auth_error() { error_frame 001 'authentication failed: test refused user bob'; }
data_file() { # data_file TYPE-OCTAL FILE: DATA of that type, the file's bytes
  size=$(($(stat -c %s "$2") + 4))
  # shellcheck disable=SC2059 # the length's octal escapes
  printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((size % 256)) \
    $((size / 256 % 256)) $((size / 65536 % 256)) $((size / 16777216)))D\\$1\\000\\000\\000"
  cat "$2"
}
while :; do
  hdr=$(dd bs=1 count=5 2>/dev/null | od -An -tu1)
  [ -n "$hdr" ] || exit 0
  set -- $hdr
  len=$(($1 + $2 * 256 + $3 * 65536 + $4 * 16777216))
  type=$5
  payload=
  if [ "$len" -gt 0 ]; then
    payload=$(dd bs=1 count="$len" 2>/dev/null | od -An -tu1)
  fi
  n=$((n + 1))
  if [ "$mode" = sessions ]; then
    # shellcheck disable=SC2086 # the bytes, one a word
    set -- $payload
    # shellcheck disable=SC2059 # the id's octal escape is in the format
    case $type in
    79) # O: a new session
      sessions=$((sessions + 1))
      printf "\\004\\000\\000\\000S\\$(printf %03o "$sessions")\\000\\000\\000" ;;
    67) printf "\\004\\000\\000\\000S\\$(printf %03o "$1")\\000\\000\\000" ;;
    *)
      sleep "${FAKE_SLEEP:-0}"
      if [ "$1" = "${FAKE_AUTH_SESSION:-}" ]; then
        auth_error
      elif [ "$1" = "${FAKE_TIMEOUT_SESSION:-}" ]; then
        error_frame 003 'connecting to h timed out'
      elif [ -n "${FAKE_HANG_ONCE:-}" ] && [ ! -e "$FAKE_HANG_ONCE" ]; then
        : >"$FAKE_HANG_ONCE"
        sleep 60
      elif [ -n "${FAKE_WATCHDOG_ONCE:-}" ] && [ ! -e "$FAKE_WATCHDOG_ONCE" ]; then
        : >"$FAKE_WATCHDOG_ONCE"
        error_frame 003 'query to h timed out after 2000 ms'
        exit 3
      else
        printf '\011\000\000\000D\003\000\000\000hello'
      fi
      ;;
    esac
    continue
  fi
  if [ "$type" = 76 ] && [ -n "${FAKE_LAST:-}" ]; then
    case $FAKE_LAST in
    denied) error_frame 010 'h: BaseRegOpenKey(Perflib) failed: Win32 error 5 (access denied)' ;;
    short) printf '\006\000\000\000D\004\000\000\000\012\000' ;;
    *)
      # shellcheck disable=SC2059 # the value's octal escapes
      printf "\\010\\000\\000\\000D\\004\\000\\000\\000$(printf '\\%03o\\%03o\\%03o\\%03o' \
        $((FAKE_LAST % 256)) $((FAKE_LAST / 256 % 256)) \
        $((FAKE_LAST / 65536 % 256)) $((FAKE_LAST / 16777216)))"
      ;;
    esac
    continue
  fi
  case $mode in
  files)
    if [ "$type" = 78 ]; then data_file 007 "$FAKE_NAMES"; else data_file 003 "$FAKE_BLOB"; fi ;;
  data) printf '\011\000\000\000D\003\000\000\000hello' ;;
  auth) auth_error ;;
  access) error_frame 010 'h: OpenHKPD failed: Win32 error 5 (ERROR_ACCESS_DENIED): the account needs Performance Monitor Users or administrator rights' ;;
  die2)
    [ "$n" -ge 2 ] && exit 9
    printf '\011\000\000\000D\003\000\000\000hello'
    ;;
  hang) sleep 60 ;;
  garbage) printf '\001\000\000\000Zx' ;;
  huge) printf '\010\000\000\005D' ;;
  esac
done
