#!/bin/bash
# collectd-winperf: install the Debian 12 packages of scripts/programs.txt:
# everything the build, the demo and the tests use, and with --windows also
# what windows/ needs. Idempotent. Run it as root, or as a user who may use
# sudo (it then runs apt-get through sudo).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   scripts/install-deps.sh [--windows] [--list]
#     --windows   also the packages of the "windows" group
#     --list      print the packages (one a line) and exit; installs nothing
#
# Prints what it installs; when apt fails, prints the end of apt's output and
# exits with apt's status.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
list=$top/scripts/programs.txt
groups=" default "
list_only=no
for arg in "$@"; do
  case $arg in
  --windows) groups=" default windows " ;;
  --list) list_only=yes ;;
  -h | --help)
    sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0"
    exit 0
    ;;
  *)
    echo "install-deps: unknown argument $arg (--windows, --list)" >&2
    exit 2
    ;;
  esac
done

# The packages of the chosen groups, each once, in the list's order.
mapfile -t packages < <(awk -F'\t' -v groups="$groups" '
  /^#/ || NF != 3 { next }
  index(groups, " " $3 " ") && !seen[$2]++ { print $2 }' "$list")
if [ ${#packages[@]} -eq 0 ]; then
  echo "install-deps: no packages found in $list" >&2
  exit 1
fi
if [ "$list_only" = yes ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present (groups:$groups)"
  exit 0
fi

# root runs apt-get itself; anyone else through sudo (a bare Debian has no
# sudo: then say so rather than fail on "sudo: command not found").
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "install-deps: needs root to install ${missing[*]}: run it as root (there is no sudo here)" >&2
    exit 1
  fi
  as_root=(sudo)
fi

echo "install-deps: installing ${#missing[@]} packages: ${missing[*]}"
log=$(mktemp "${TMPDIR:-/tmp}/install-deps.XXXXXX")
policy=${INSTALL_DEPS_POLICY_RC:-/usr/sbin/policy-rc.d} # (tests/deps/install-deps.sh)
created_policy=no
cleanup() {
  [ "$created_policy" = no ] || "${as_root[@]}" rm -f "$policy"
  rm -f "$log"
}
trap cleanup EXIT

# apt-get, its output in the log; on failure the end of it, apt's status.
run_apt() {
  local status=0
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "$@" >"$log" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    echo "install-deps: apt-get $* failed (exit status $status); the end of its output:" >&2
    tail -30 "$log" >&2
    exit "$status"
  fi
}

# Packages such as samba and influxdb start their daemons on install where
# an init system runs; the tests start their own, so keep those off.
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | "${as_root[@]}" tee "$policy" >/dev/null
  created_policy=yes
  "${as_root[@]}" chmod +x "$policy"
fi
run_apt update -q
run_apt install -y -q --no-install-recommends "${missing[@]}"

still=()
for p in "${missing[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || still+=("$p")
done
if [ ${#still[@]} -ne 0 ]; then
  echo "install-deps: apt-get succeeded but these are not installed: ${still[*]}" >&2
  exit 1
fi
echo "install-deps: installed ${missing[*]}"
