#!/bin/sh
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# A stand-in for winperf-remote-helper that speaks the framed protocol
# (src/remote/frame.h) with canned answers, to test src/source/remote.c
# without Samba. FAKE_MODE picks the behaviour:
#   data     answer every request with DATA type 3, bytes "hello"
#   auth     answer with an ERROR of kind 1 (auth)
#   die2     answer the first request, exit 9 on the second
#   hang     never answer
#   garbage  answer with an unknown message type
#   huge     announce a payload above the 64 MiB cap
# Requests are read byte by byte (dd bs=1) so nothing past a frame is lost.
mode=${FAKE_MODE:-data}
n=0
while :; do
  hdr=$(dd bs=1 count=5 2>/dev/null | od -An -tu1)
  [ -n "$hdr" ] || exit 0
  set -- $hdr
  len=$(($1 + $2 * 256 + $3 * 65536 + $4 * 16777216))
  if [ "$len" -gt 0 ]; then
    dd bs=1 count="$len" 2>/dev/null >/dev/null
  fi
  n=$((n + 1))
  case $mode in
  data) printf '\011\000\000\000D\003\000\000\000hello' ;;
  auth)
    msg='authentication failed: test refused user bob'
    printf "\\$(printf %03o $((${#msg} + 1)))\\000\\000\\000E\\001%s" "$msg"
    ;;
  die2)
    [ "$n" -ge 2 ] && exit 9
    printf '\011\000\000\000D\003\000\000\000hello'
    ;;
  hang) sleep 60 ;;
  garbage) printf '\001\000\000\000Zx' ;;
  huge) printf '\010\000\000\005D' ;;
  esac
done
