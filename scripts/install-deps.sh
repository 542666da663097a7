#!/bin/bash
# collectd-winperf: install everything the build, the demo and the tests use,
# from Debian 12's packages. Idempotent; needs root (or sudo).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
set -euo pipefail

packages=(
  # build
  build-essential autoconf automake libtool pkg-config clang
  collectd-core collectd-dev libyaml-dev
  # tests: real servers and checkers
  graphite-carbon influxdb valgrind python3 curl procps iproute2
  # remote source (MS-RRP over SMB): the helper and a real smbd to test against
  libsmbclient-dev samba python3-tdb python3-samba
  # Windows code path: cross compiler, Wine, MSI tools
  gcc-mingw-w64-x86-64 wine wine64 msitools wixl
  # Debian packages (tests/package): build and lint them
  debhelper dpkg-dev lintian fakeroot
)

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${#missing[@]} packages: ${missing[*]}"
# Packages such as samba and influxdb start their daemons on install where
# an init system runs; the tests start their own, so keep those off.
policy=/usr/sbin/policy-rc.d
created_policy=no
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
  $SUDO chmod +x "$policy"
  created_policy=yes
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >/dev/null
${SUDO:+$SUDO -E} apt-get install -y -q --no-install-recommends "${missing[@]}" >/tmp/install-deps.log 2>&1 || {
  tail -30 /tmp/install-deps.log
  exit 1
}
[ "$created_policy" = no ] || $SUDO rm -f "$policy"
echo "install-deps: done"
