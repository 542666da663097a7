#!/bin/bash
# collectd-winperf: scripts/install-deps.sh against stand-ins for id, sudo,
# dpkg-query and apt-get (TAP): as root it runs apt-get itself, as a user
# through sudo (never "sudo -E", never a bare "-E"), without sudo it says
# to run it as root; it installs exactly the missing packages of
# scripts/programs.txt (smbclient among them; with --windows also gnulib,
# flex, bison, jq, wixl, msitools), prints them, keeps init scripts from
# starting daemons while apt runs, and when apt fails it shows apt's error
# and exits with apt's status. Nothing is installed for real.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
script=$top_srcdir/scripts/install-deps.sh
list=$top_srcdir/scripts/programs.txt
tmp=$(mktemp -d "${TMPDIR:-/tmp}/winperf-install-deps.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../lib/tap.sh
. "$top_srcdir/tests/lib/tap.sh"

# A PATH of its own: the stand-ins and the few real programs the script
# uses, so that "no sudo" holds even where sudo is installed.
bin=$tmp/bin
mkdir -p "$bin"
for p in bash sh env awk grep mktemp tail tee chmod rm cat dirname sed tr; do
  real=$(command -v "$p") || {
    echo "not ok 1 - $p is available"
    echo "1..1"
    exit 1
  }
  ln -s "$real" "$bin/$p"
done
cat >"$bin/id" <<'STUB'
#!/bin/sh
[ "$1" = -u ] && echo "$FAKE_UID"
STUB
cat >"$bin/sudo" <<'STUB'
#!/bin/sh
echo "sudo $*" >>"$FAKE/calls"
exec "$@"
STUB
cat >"$bin/dpkg-query" <<'STUB'
#!/bin/sh
# dpkg-query -W -f='${Status}' PKG
for a; do pkg=$a; done
grep -qx "$pkg" "$FAKE/installed" || exit 1
printf 'install ok installed'
STUB
cat >"$bin/apt-get" <<'STUB'
#!/bin/sh
echo "apt-get $* [DEBIAN_FRONTEND=$DEBIAN_FRONTEND policy=$(cat "$INSTALL_DEPS_POLICY_RC" 2>/dev/null | tr '\n' ' ')]" >>"$FAKE/calls"
case $1 in
update) echo "Reading package lists..." ;;
install)
  if [ -n "${FAKE_APT_FAIL:-}" ]; then
    echo "Reading package lists..."
    echo "E: Unable to locate package $FAKE_APT_FAIL"
    exit 100
  fi
  for a; do case $a in -*|install) ;; *) echo "$a" >>"$FAKE/installed" ;; esac; done
  echo "Setting up ..."
  ;;
esac
STUB
chmod +x "$bin/id" "$bin/sudo" "$bin/dpkg-query" "$bin/apt-get"

# run UID [ARGS...]: the script with the stand-ins; its stdout+stderr in
# $tmp/out, status in $rc, the calls in $FAKE/calls.
FAKE=$tmp/state
run() {
  local uid=$1
  shift
  env -i PATH="$bin" FAKE="$FAKE" FAKE_UID="$uid" FAKE_APT_FAIL="${FAKE_APT_FAIL:-}" \
    INSTALL_DEPS_POLICY_RC="$tmp/policy-rc.d" TMPDIR="$tmp" \
    "$bin/bash" "$script" "$@" >"$tmp/out" 2>&1
  rc=$?
}
fresh() { # fresh PKG...: a machine with everything installed but PKG...
  rm -rf "$FAKE"
  mkdir -p "$FAKE"
  : >"$FAKE/calls"
  awk -F'\t' '!/^#/ && NF == 3 { print $2 }' "$list" | sort -u | grep -vxF -f <(printf '%s\n' "$@") >"$FAKE/installed"
}
default_pkgs=$(awk -F'\t' '!/^#/ && NF == 3 && $3 == "default" { print $2 }' "$list" | awk '!s[$0]++')
all_pkgs=$(awk -F'\t' '!/^#/ && NF == 3 { print $2 }' "$list" | awk '!s[$0]++')

# --list: the packages, from the list
run 0 --list
[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "$default_pkgs" ]
ok $? "--list prints the default group's packages of scripts/programs.txt"
for p in smbclient samba python3-tdb python3-samba graphite-carbon influxdb lintian collectd-core wine; do
  grep -qx "$p" "$tmp/out" || echo "$p" >>"$tmp/absent"
done
[ ! -s "$tmp/absent" ]
ok $? "the default group has smbclient, samba, carbon, InfluxDB, lintian, collectd-core, wine$([ -s "$tmp/absent" ] && echo ": missing $(cat "$tmp/absent")")"
run 0 --list --windows
[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "$all_pkgs" ]
ok $? "--windows --list adds the windows group"
missing=""
for p in gnulib flex bison jq wixl msitools gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64 patch; do
  grep -qx "$p" "$tmp/out" || missing="$missing $p"
done
[ -z "$missing" ]
ok $? "--windows has gnulib flex bison jq wixl msitools mingw-w64 patch${missing:+: missing$missing}"

# everything present: no apt at all
fresh
run 0
[ "$rc" -eq 0 ] && grep -q '^install-deps: all [0-9]* packages present' "$tmp/out" && [ ! -s "$FAKE/calls" ]
ok $? "all present: says so, exit 0, apt-get not run"
diag <"$tmp/out"

# root, two missing: apt-get without sudo
fresh smbclient lintian
run 0
calls=$(cat "$FAKE/calls")
[ "$rc" -eq 0 ] &&
  grep -qx 'install-deps: installing 2 packages: smbclient lintian' "$tmp/out" &&
  [ "$(grep -c '^apt-get ' "$FAKE/calls")" -eq 2 ] && ! grep -q '^sudo' "$FAKE/calls" &&
  grep -q '^apt-get update ' "$FAKE/calls" &&
  grep -q '^apt-get install -y -q --no-install-recommends smbclient lintian \[DEBIAN_FRONTEND=noninteractive ' "$FAKE/calls"
ok $? "root, smbclient and lintian missing: prints them; apt-get update and install of exactly those, no sudo"
echo "$calls" | diag
grep -q '^apt-get install .*policy=#!/bin/sh exit 101 \]' "$FAKE/calls" && [ ! -e "$tmp/policy-rc.d" ]
ok $? "policy-rc.d (exit 101) present while apt runs, removed afterwards"
grep -qx smbclient "$FAKE/installed"
ok $? "... and smbclient is installed afterwards"

# a user with sudo
fresh smbclient
run 1000
[ "$rc" -eq 0 ] &&
  grep -q '^sudo env DEBIAN_FRONTEND=noninteractive apt-get update' "$FAKE/calls" &&
  grep -q '^sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends smbclient' "$FAKE/calls" &&
  ! grep -qE '(^| )-E( |$)' "$FAKE/calls"
ok $? "a user with sudo: apt-get through sudo (env, no -E)"
diag <"$FAKE/calls"

# a user without sudo
fresh smbclient
rm "$bin/sudo"
run 1000
[ "$rc" -ne 0 ] && grep -q 'run it as root' "$tmp/out" && ! grep -q 'command not found' "$tmp/out" &&
  ! grep -q '^apt-get' "$FAKE/calls"
ok $? "a user without sudo: exit $rc, 'run it as root', no apt-get"
diag <"$tmp/out"

# apt fails: its error shown, its status returned
fresh smbclient
FAKE_APT_FAIL=smbclient run 0
[ "$rc" -eq 100 ] && grep -qx 'E: Unable to locate package smbclient' "$tmp/out" &&
  grep -q 'apt-get install .* failed (exit status 100)' "$tmp/out" && [ ! -e "$tmp/policy-rc.d" ]
ok $? "apt-get fails: exit 100, apt's error printed, policy-rc.d removed"
diag <"$tmp/out"

# a policy-rc.d that was there stays
fresh smbclient
printf '#!/bin/sh\nexit 0\n' >"$tmp/policy-rc.d"
run 0
[ "$rc" -eq 0 ] && [ "$(cat "$tmp/policy-rc.d")" = "$(printf '#!/bin/sh\nexit 0')" ]
ok $? "an existing policy-rc.d is left as it was"
rm -f "$tmp/policy-rc.d"

tap_done
