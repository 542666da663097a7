# shellcheck shell=sh
# collectd-winperf: `need PROG...`, how every test and script declares the
# programs it runs (sourced; POSIX sh and bash).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   need PROG...   every PROG must be on scripts/programs.txt and installed
#                  (found in PATH, /usr/sbin or /sbin)
#
# A missing program is a failure, never a skip: need reports each one with
# the Debian package to install and stops the script through the hook named
# by NEED_FAIL, called with one message per problem:
#   need_fail_tap  (default) "not ok N - MESSAGE" lines and the TAP plan,
#                  for a test that has printed nothing yet; exit 1
#   need_fail_die  the messages on stderr; exit 1 (scripts/, windows/)
#   anything else  the caller's own (tests/e2e/lib.sh, tests/cli/lib.sh:
#                  their TAP counters), which must not return
# A program that is not on the list fails the same way: the list is where
# scripts/install-deps.sh learns what to install.
#
# The list is ${NEED_LIST:-$top_srcdir/scripts/programs.txt}.

need_fail_tap() {
  _need_i=0
  for _need_m in "$@"; do
    _need_i=$((_need_i + 1))
    echo "not ok $_need_i - $_need_m"
  done
  echo "1..$_need_i"
  exit 1
}

need_fail_die() {
  for _need_m in "$@"; do
    echo "${0##*/}: $_need_m" >&2
  done
  exit 1
}

# need_package PROG: its Debian package from the list (nothing if unlisted)
need_package() {
  awk -F'\t' -v p="$1" '!/^#/ && $1 == p { print $2; exit }' \
    "${NEED_LIST:-${top_srcdir:-.}/scripts/programs.txt}" 2>/dev/null
}

need_found() {
  command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/sbin/$1" ]
}

need() {
  _need_list=${NEED_LIST:-${top_srcdir:-.}/scripts/programs.txt}
  if [ ! -r "$_need_list" ]; then
    "${NEED_FAIL:-need_fail_tap}" "the program list $_need_list is readable"
    return 1
  fi
  _need_msgs=""
  _need_pkgs=""
  for _need_p in "$@"; do
    _need_pkg=$(need_package "$_need_p")
    if [ -z "$_need_pkg" ]; then
      _need_msgs="$_need_msgs
$_need_p is on $_need_list (add it with the Debian package that provides it)"
    elif ! need_found "$_need_p"; then
      _need_msgs="$_need_msgs
$_need_p installed (apt-get install $_need_pkg)"
      case " $_need_pkgs " in *" $_need_pkg "*) ;; *) _need_pkgs="$_need_pkgs $_need_pkg" ;; esac
    fi
  done
  [ -n "$_need_msgs" ] || return 0
  [ -z "$_need_pkgs" ] ||
    echo "${0##*/}: missing programs: apt-get install$_need_pkgs (or scripts/install-deps.sh)" >&2
  # one argument per message: split on the newlines only
  _need_ifs=$IFS
  IFS='
'
  # shellcheck disable=SC2086 # the split is the point
  set -- ${_need_msgs#?}
  IFS=$_need_ifs
  "${NEED_FAIL:-need_fail_tap}" "$@"
  return 1
}
