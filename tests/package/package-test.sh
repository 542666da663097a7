#!/bin/bash
# collectd-winperf: build the Debian packages from a clean copy of the tree,
# lint them, and (unless --build-only) install them on this machine, run the
# system's collectd with the installed plugin on the installed demo capture,
# then purge them and check nothing is left behind. Prints TAP.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   tests/package/package-test.sh [--build-only]
#     --build-only   build + content checks + lintian (what CI runs);
#                    no root needed for this part
#   PKG_OUT=DIR      also copy the built .debs (and .buildinfo/.changes) there
#   PKG_KEEP=1       keep the work directory (printed) for inspection
#
# The install part needs root, apt and dpkg: it installs collectd-winperf and
# collectd-winperf-remote system-wide for about a minute and purges them.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
mode=full
case "${1:-}" in
--build-only) mode=build ;;
"") ;;
*)
  echo "usage: $0 [--build-only]" >&2
  exit 2
  ;;
esac

# TAP helpers (e2e_ok STATUS TEXT, e2e_diag, e2e_done) of the e2e tests.
# shellcheck source=tests/e2e/lib.sh
. "$top/tests/e2e/lib.sh"
ok() { e2e_ok "$@"; }
diag() { e2e_diag; }
need dpkg-buildpackage dpkg-parsechangelog dh lintian git
[ "$mode" = build ] || need collectd man

work=$(mktemp -d "${TMPDIR:-/tmp}/collectd-winperf-pkg.XXXXXX")
collectd_pid=""
system_pid_file=$work/system-collectd.pid
cleanup() {
  [ -z "$collectd_pid" ] || kill -TERM "$collectd_pid" 2>/dev/null || true
  [ ! -s "$system_pid_file" ] || kill -TERM "$(cat "$system_pid_file")" 2>/dev/null || true
  [ -z "${created_policy:-}" ] || rm -f /usr/sbin/policy-rc.d
  if [ -n "${PKG_KEEP:-}" ]; then
    echo "# work directory kept: $work"
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

# The version every artifact of this commit carries (scripts/version.sh), so
# these .debs are the ones scripts/release.sh builds from the same commit.
version=$("$top/scripts/version.sh" | sed -n 's/^VERSION=//p')
arch=$(dpkg --print-architecture)
src="$work/collectd-winperf-$version"
deb_base="$work/collectd-winperf_${version}_$arch.deb"
deb_remote="$work/collectd-winperf-remote_${version}_$arch.deb"

# --------------------------------------------------------------- build
# The clean copy (scripts/source-copy.sh): what git tracks plus new files git
# does not ignore, as they are in the working tree; no build directory, no
# generated configure; stamped with the version.
"$top/scripts/source-copy.sh" "$src" >"$work/copy.log" 2>&1 &&
  [ "$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)" = "$version" ] &&
  [ -n "$version" ] && [ -f "$src/configure.ac" ] && [ -f "$src/debian/rules" ] &&
  [ ! -e "$src/configure" ] && [ ! -e "$src/build" ]
status=$?
[ "$status" -eq 0 ] || diag <"$work/copy.log"
ok "$status" "clean copy of the tree ($(find "$src" -type f | wc -l) files) in $src, stamped with version ${version:-?}"

(cd "$src" && dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1
status=$?
[ "$status" -eq 0 ] || tail -40 "$work/build.log" | diag
ok "$status" "dpkg-buildpackage -us -uc -b"

[ -f "$deb_base" ] && [ -f "$deb_remote" ]
ok $? "built $(basename "$deb_base") and $(basename "$deb_remote")"
find "$work" -maxdepth 1 -name '*.deb' -printf '%f\n' | sort | diag

if [ -n "${PKG_OUT:-}" ]; then
  mkdir -p "$PKG_OUT" && cp "$work"/*.deb "$work"/*.buildinfo "$work"/*.changes "$PKG_OUT"/ 2>/dev/null
  echo "# packages copied to $PKG_OUT"
fi

# What each package holds (dpkg-deb -c: "./usr/bin/winperf" etc.).
contents() { dpkg-deb -c "$1" 2>/dev/null | awk '{ print $6 }' | sed 's|^\.||'; }
has_all() { # list file, paths...
  local list=$1 missing=0 p
  shift
  for p in "$@"; do
    grep -qx -- "$p" "$list" || {
      echo "missing: $p" | diag
      missing=1
    }
  done
  return $missing
}
contents "$deb_base" >"$work/base.list"
contents "$deb_remote" >"$work/remote.list"

has_all "$work/base.list" /usr/lib/collectd/winperf.so /usr/bin/winperf \
  /usr/share/man/man1/winperf.1.gz /usr/share/man/man5/collectd-winperf.5.gz \
  /etc/collectd/winperf.yaml \
  /usr/share/doc/collectd-winperf/examples/collectd-winperf.conf \
  /usr/share/doc/collectd-winperf/examples/winperf.yaml \
  /usr/share/doc/collectd-winperf/copyright \
  /usr/share/doc/collectd-winperf/README.md.gz /usr/share/doc/collectd-winperf/sizing.md.gz \
  /usr/share/doc/collectd-winperf/format.md.gz /usr/share/doc/collectd-winperf/release.md.gz \
  /usr/share/collectd-winperf/demo/0000.blob /usr/share/collectd-winperf/demo/0063.blob \
  /usr/share/collectd-winperf/demo/names.multisz /usr/share/collectd-winperf/demo/winperf.yaml \
  /usr/share/collectd-winperf/sample/sample1.blob /usr/share/collectd-winperf/sample/sample2.blob \
  /usr/share/collectd-winperf/sample/names.multisz \
  /usr/share/collectd-winperf/grafana/graphite/winperf-host.json \
  /usr/share/collectd-winperf/grafana/influxdb/winperf-fleet.json \
  /usr/share/collectd-winperf/grafana/prometheus/winperf-self.json \
  /usr/share/collectd-winperf/prometheus/winperf-alerts.rules.yml \
  /usr/share/collectd-winperf/prometheus/winperf-windows-exporter.rules.yml \
  /usr/share/collectd-winperf/victoriametrics/relabel.yml \
  /usr/share/collectd-winperf/telegraf/collectd-to-influxdb2.conf \
  /usr/share/doc/collectd-winperf/backends.md.gz /usr/share/doc/collectd-winperf/blg.md.gz
ok $? "collectd-winperf holds the plugin, winperf, man pages, the documents they point to, examples, demo capture, sample, dashboards, rules"

# write_prometheus' libraries (collectd-core only suggests them).
[ "$(dpkg-deb -f "$deb_base" Recommends 2>/dev/null)" = "libmicrohttpd12, libprotobuf-c1" ]
ok $? "collectd-winperf recommends libmicrohttpd12 and libprotobuf-c1 (write_prometheus)"

! grep -qE '\.la$|winperf-remote-helper|/etc/collectd/collectd\.conf\.d' "$work/base.list"
ok $? "collectd-winperf holds no .la, no remote helper and no collectd.conf.d snippet"

has_all "$work/remote.list" /usr/bin/winperf-remote-helper \
  /usr/share/man/man1/winperf-remote-helper.1.gz \
  /usr/share/doc/collectd-winperf-remote/winperf-remote.md.gz \
  /usr/share/doc/collectd-winperf-remote/copyright
ok $? "collectd-winperf-remote holds winperf-remote-helper, its man page and winperf-remote.md.gz"

# Every installed document the man pages, the README and the example
# snippet name (/usr/share/doc/...) is in one of the packages, under that
# exact name (compressed ones as .gz).
sed 's|/$||' "$work/base.list" "$work/remote.list" >"$work/all.list"
named=$(cat "$top"/doc/*.[15] "$top"/debian/*.1 "$top/README.md" "$top/conf/collectd-winperf.conf" |
  sed 's/\\-/-/g' | grep -o '/usr/share/doc/collectd-winperf[a-z-]*[A-Za-z0-9._/-]*' |
  sed 's|[.]$||; s|/$||' | sort -u)
missing=""
for p in $named; do grep -qxF -- "$p" "$work/all.list" || missing="$missing $p"; done
echo "named: $(echo "$named" | tr '\n' ' ')" | diag
[ -n "$named" ] && [ -z "$missing" ]
ok $? "every document the man pages, README and snippet name is installed there${missing:+ (missing:$missing)}"

# Dependencies: the collectd-core of the collectd-dev the plugin was built
# against (same X.Y), libsmbclient only in the -remote package.
cd_up=$(dpkg-query -W -f='${source:Upstream-Version}' collectd-dev 2>/dev/null)
cd_next=$(echo "$cd_up" | awk -F. '{ print $1 "." $2 + 1 }')
base_dep=$(dpkg-deb -f "$deb_base" Depends 2>/dev/null)
remote_dep=$(dpkg-deb -f "$deb_remote" Depends 2>/dev/null)
echo "collectd-winperf Depends: $base_dep" | diag
echo "collectd-winperf-remote Depends: $remote_dep" | diag
case "$base_dep" in
*"collectd-core (>= $cd_up), collectd-core (<< $cd_next~)"*) echo "$base_dep" | grep -qv smbclient ;;
*) false ;;
esac
ok $? "collectd-winperf depends on collectd-core (>= $cd_up, << $cd_next~) and not on libsmbclient"
echo "$remote_dep" | grep -q 'libsmbclient' && echo "$remote_dep" | grep -q "collectd-winperf (= $version)"
ok $? "collectd-winperf-remote depends on libsmbclient and collectd-winperf (= $version)"

# Conffiles: the counter list only; nothing that makes collectd load the
# plugin by itself (see README, "Debian packages").
conffiles=$(dpkg-deb --ctrl-tarfile "$deb_base" 2>/dev/null | tar -xO ./conffiles 2>/dev/null)
[ "$conffiles" = /etc/collectd/winperf.yaml ]
ok $? "conffiles of collectd-winperf: /etc/collectd/winperf.yaml (got: $(printf '%s' "$conffiles" | tr '\n' ' '))"

# lintian: no error and no warning (info and pedantic tags are shown). Both
# packages at once (lintian is one process, the machine has more cores).
lint_pids=()
for deb in "$deb_base" "$deb_remote"; do
  lintian --display-info --pedantic "$deb" >"$work/lintian-$(basename "$deb").log" 2>&1 &
  lint_pids+=($!)
done
wait "${lint_pids[@]}"
for deb in "$deb_base" "$deb_remote"; do
  name=$(basename "$deb")
  diag <"$work/lintian-$name.log"
  [ -s "$deb" ] && command -v lintian >/dev/null && ! grep -qE '^[EW]: ' "$work/lintian-$name.log"
  ok $? "lintian $name: no errors, no warnings"
done

if [ "$mode" = build ]; then
  e2e_done
  exit
fi

# ---------------------------------------------------- install, run, purge
pkgs=(collectd-winperf collectd-winperf-remote)
installed() { dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null | grep -qvx 'not-installed'; }
snapshot() { # what the purge check compares against
  find /usr/lib/collectd /etc/collectd /usr/share/doc -maxdepth 1 2>/dev/null | sort
  find /usr/share/man -name '*winperf*' 2>/dev/null | sort
  ls -d /usr/bin/winperf* /usr/share/collectd-winperf 2>/dev/null
}

[ "$(id -u)" -eq 0 ]
ok $? "running as root (the install test installs system-wide)"

for p in "${pkgs[@]}"; do
  if installed "$p"; then
    echo "$p was installed before the test: purging it first" | diag
    apt-get purge -y -q "$p" >>"$work/apt.log" 2>&1
  fi
done
! installed collectd-winperf && ! installed collectd-winperf-remote
ok $? "neither package installed before the test"
snapshot >"$work/before.list"

export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends "$deb_base" "$deb_remote" >"$work/apt.log" 2>&1
status=$?
[ "$status" -eq 0 ] || tail -20 "$work/apt.log" | diag
ok "$status" "apt-get install ./collectd-winperf*.deb"

installed collectd-winperf && installed collectd-winperf-remote &&
  dpkg -L collectd-winperf | grep -qx /usr/lib/collectd/winperf.so &&
  [ -f /usr/lib/collectd/winperf.so ] && [ -x /usr/bin/winperf ] &&
  [ -x /usr/bin/winperf-remote-helper ] && [ -f /etc/collectd/winperf.yaml ]
ok $? "installed: /usr/lib/collectd/winperf.so, /usr/bin/winperf, /usr/bin/winperf-remote-helper"

dpkg-query -W -f='${Conffiles}\n' collectd-winperf | grep -q '^ /etc/collectd/winperf.yaml [0-9a-f]\{32\}$'
ok $? "dpkg registers /etc/collectd/winperf.yaml as a conffile"

man -w winperf >/dev/null 2>&1 && man -w 5 collectd-winperf >/dev/null 2>&1 &&
  man -w winperf-remote-helper >/dev/null 2>&1
ok $? "man winperf, man 5 collectd-winperf, man winperf-remote-helper"

# The installed tool on the installed sample: the spec's test vector
# (section 1.8: Processes 42 raw, % Busy Time 75 %).
q=$(winperf query --names /usr/share/collectd-winperf/sample/names.multisz \
  /usr/share/collectd-winperf/sample/sample1.blob \
  /usr/share/collectd-winperf/sample/sample2.blob '\System\*' 2>&1)
echo "$q" | diag
printf '%s\n' "$q" | grep -qxP '\\System\\Processes\t42' &&
  printf '%s\n' "$q" | grep -qxP '\\System\\% Busy Time\t75'
ok $? "installed winperf query on the installed sample: Processes 42, % Busy Time 75"

/usr/bin/winperf-remote-helper --help 2>&1 | grep -q '^usage: winperf-remote-helper' &&
  ! ldd /usr/bin/winperf-remote-helper | grep -q 'not found'
ok $? "installed winperf-remote-helper runs (--help) and its libraries resolve"

# The system's collectd, a private configuration: plugins from the system
# plugin directory, the installed demo capture replayed, csv + logfile.
run="$work/run"
mkdir -p "$run/csv"
cat >"$run/collectd.conf" <<EOF
Hostname "pkgtest"
FQDNLookup false
BaseDir "$run"
PIDFile "$run/collectd.pid"
PluginDir "/usr/lib/collectd"
TypesDB "/usr/share/collectd/types.db"
Interval 1

LoadPlugin logfile
<Plugin logfile>
  LogLevel "info"
  File "$run/collectd.log"
  Timestamp true
  PrintSeverity true
</Plugin>

LoadPlugin csv
<Plugin csv>
  DataDir "$run/csv"
  StoreRates false
</Plugin>

LoadPlugin winperf
<Plugin winperf>
  CountersFile "/usr/share/collectd-winperf/demo/winperf.yaml"
  Replay "/usr/share/collectd-winperf/demo"
  ReplayLoop true
  Timestamp "now"
</Plugin>
EOF
/usr/sbin/collectd -t -C "$run/collectd.conf" >"$run/configtest.log" 2>&1
status=$?
[ "$status" -eq 0 ] || diag <"$run/configtest.log"
ok "$status" "collectd -t accepts a configuration loading the installed plugin"

# Poll until five values of Processor(_Total) are written (or collectd
# stops); the timeout is a safety net, not an assertion.
dir="$run/csv/pkgtest"
total_rows() { cat "$dir"/winperf-Processor-_Total/gauge-%\ Processor\ Time-* 2>/dev/null | grep -c '^[0-9]'; }
timeout 120 /usr/sbin/collectd -f -C "$run/collectd.conf" >"$run/stdout.log" 2>&1 &
collectd_pid=$!
while kill -0 "$collectd_pid" 2>/dev/null && [ "$(total_rows)" -lt 5 ]; do
  sleep 1
done
kill -TERM "$collectd_pid" 2>/dev/null
wait "$collectd_pid"
collectd_pid=""
grep -i 'winperf' "$run/collectd.log" | head -10 | diag
[ "$(total_rows)" -ge 5 ]
ok $? "collectd wrote $(total_rows) values of \\Processor(_Total)\\% Processor Time"

# Every metric the demo's counter list names arrived (instances from
# conf/demo/README: 4 CPUs + _Total, disks C: and D:, two adapters, ...).
expect=(
  "winperf-Processor-0/gauge-% Processor Time"
  "winperf-Processor-3/gauge-% Processor Time"
  "winperf-Processor-_Total/gauge-% Processor Time"
  "winperf-Memory/gauge-Available Bytes"
  "winperf-Memory/gauge-% Committed Bytes In Use"
  "winperf-System/gauge-Processor Queue Length"
  "winperf-System/gauge-Context Switches_sec"
  "winperf-LogicalDisk-C:/gauge-% Free Space"
  "winperf-LogicalDisk-D:/gauge-% Free Space"
  "winperf-LogicalDisk-C:/gauge-Avg. Disk sec_Read"
  "winperf-Process-svchost#1/gauge-% Processor Time"
)
missing=0
for m in "${expect[@]}"; do
  ls "$dir/$m"-* >/dev/null 2>&1 || {
    echo "no values for $m" | diag
    missing=1
  }
done
[ "$missing" -eq 0 ] || (cd "$dir" 2>/dev/null && find . | sort | head -40 | diag)
[ "$missing" -eq 0 ]
ok $? "values for CPUs 0-3 and _Total, Memory, System, LogicalDisk C: and D:, svchost#1"

# Plausible, from the capture's description: percentages within 0..100 (a
# 4-CPU host's Processor instances), Available Bytes within (0, 16 GiB].
range_ok() { # glob, min, max (exclusive min)
  # shellcheck disable=SC2086 # $1 is a glob
  cat $1 2>/dev/null | awk -F, -v lo="$2" -v hi="$3" '
    /^[0-9]/ { n++; if (!($2 > lo && $2 <= hi)) bad++ }
    END { exit !(n > 0 && bad == 0) }'
}
range_ok "$dir/winperf-Processor-*/gauge-%?Processor?Time-*" -0.000001 100 &&
  range_ok "$dir/winperf-Memory/gauge-Available?Bytes-*" 0 17179869184
ok $? "% Processor Time within 0..100, Available Bytes within 0..16 GiB"

! grep -E '\[(error|warning)\]' "$run/collectd.log" | grep -qi winperf
ok $? "no winperf errors or warnings in collectd's log"

# ------------------------------------- the README's steps to enable it
# From collectd-core alone (no /etc/collectd/collectd.conf), the block of
# README.md's "Debian packages" section, run as written: apt-get (answers
# yes through APT_CONFIG, no terminal here), cp, the two edits (editor: the
# scripted edits below) and the restart (systemctl; where systemd does not
# run, a stand-in that starts /usr/sbin/collectd with the system's default
# configuration, as collectd.service does). Then everything it installed
# is purged; collectd-core stays.
steps=$(awk '/package-test.sh runs the next block/ { m = 1; next }
  m && /^```sh$/ { on = 1; next } on && /^```$/ { exit } on' "$top/README.md")
echo "$steps" | diag
echo "$steps" | grep -q 'apt-get install --no-install-recommends collectd$' &&
  echo "$steps" | grep -q '^systemctl restart collectd'
ok $? "README.md: the enabling steps (apt-get install --no-install-recommends collectd ... systemctl restart collectd)"

had_collectd=no
if installed collectd; then
  had_collectd=yes
  echo "Debian's collectd was installed before the test: purging it first (reinstalled at the end)" | diag
  apt-get purge -y -q collectd >>"$work/apt.log" 2>&1
fi
! installed collectd && [ ! -e /etc/collectd/collectd.conf ] && installed collectd-core
ok $? "collectd-core without Debian's collectd: no /etc/collectd/collectd.conf"

pkg_list() { dpkg-query -W -f='${db:Status-Status} ${Package}\n' | awk '$1 == "installed" { print $2 }' | sort; }
pkg_list >"$work/packages-before"
if [ ! -e /usr/sbin/policy-rc.d ]; then # no daemon started by apt itself
  printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
  chmod +x /usr/sbin/policy-rc.d
  created_policy=yes
fi
printf 'APT::Get::Assume-Yes "true";\n' >"$work/apt-yes.conf"
syscsv=$work/system-csv
# shellcheck disable=SC2317 # editor and systemctl: called by the steps
(
  export APT_CONFIG=$work/apt-yes.conf DEBIAN_FRONTEND=noninteractive
  # The administrator's edits: a source for the snippet (the installed demo
  # capture), plus, for this test to see the values, the csv writer; the
  # demo's counter list.
  editor() {
    case $1 in
    /etc/collectd/collectd.conf.d/winperf.conf)
      sed -i 's|^[[:space:]]*#[[:space:]]*Replay .*|  Replay "/usr/share/collectd-winperf/demo"|' "$1"
      grep -q '^  Replay "/usr/share/collectd-winperf/demo"$' "$1"
      printf 'LoadPlugin csv\n<Plugin csv>\n  DataDir "%s"\n  StoreRates false\n</Plugin>\n' "$syscsv" >>"$1"
      ;;
    /etc/collectd/winperf.yaml) cp /usr/share/collectd-winperf/demo/winperf.yaml "$1" ;;
    *)
      echo "editor: no scripted edit for $1" >&2
      return 1
      ;;
    esac
  }
  systemctl() {
    if [ -d /run/systemd/system ]; then
      command systemctl "$@"
      return
    fi
    [ "$*" = "restart collectd" ] || {
      echo "systemctl stand-in: only 'restart collectd'" >&2
      return 1
    }
    [ ! -s "$system_pid_file" ] || kill -TERM "$(cat "$system_pid_file")" 2>/dev/null || true
    /usr/sbin/collectd -f >"$work/system-collectd.log" 2>&1 &
    echo $! >"$system_pid_file"
  }
  eval "set -e
$steps"
) >"$work/steps.log" 2>&1
status=$?
[ "$status" -eq 0 ] || tail -30 "$work/steps.log" | diag
ok "$status" "the README's steps run as written (exit $status)"
pkg_list | comm -13 "$work/packages-before" - >"$work/packages-added"
echo "installed by the steps: $(tr '\n' ' ' <"$work/packages-added")" | diag
installed collectd && [ -f /etc/collectd/collectd.conf ] &&
  grep -q '^[[:space:]]*<Include "/etc/collectd/collectd.conf.d">' /etc/collectd/collectd.conf
ok $? "Debian's collectd installed: /etc/collectd/collectd.conf includes collectd.conf.d"
! grep -qvxE 'collectd|librrd8|libdbi1' "$work/packages-added"
ok $? "--no-install-recommends: nothing but collectd and its dependencies ($(tr '\n' ' ' <"$work/packages-added"))"

sys_rows() { cat "$syscsv"/*/winperf-Processor-_Total/gauge-%\ Processor\ Time-* 2>/dev/null | grep -c '^[0-9]'; }
for _ in $(seq 120); do
  [ "$(sys_rows)" -ge 3 ] && break
  sleep 1
done
[ "$(sys_rows)" -ge 3 ]
ok $? "collectd with the system's configuration loads winperf: $(sys_rows) values of \\Processor(_Total)\\% Processor Time"
if [ -d /run/systemd/system ]; then
  systemctl stop collectd
elif [ -s "$system_pid_file" ]; then
  kill -TERM "$(cat "$system_pid_file")" 2>/dev/null
  for _ in $(seq 100); do kill -0 "$(cat "$system_pid_file")" 2>/dev/null || break; sleep 0.1; done
  : >"$system_pid_file"
fi
grep -i winperf "$work/system-collectd.log" 2>/dev/null | head -5 | diag

# Undo: the administrator's snippet, then what the steps installed.
rm -f /etc/collectd/collectd.conf.d/winperf.conf
# shellcheck disable=SC2046 # one package a word
apt-get purge -y -q $(cat "$work/packages-added") >"$work/purge-steps.log" 2>&1
status=$?
[ "$status" -eq 0 ] || tail -20 "$work/purge-steps.log" | diag
! installed collectd && installed collectd-core && [ -x /usr/sbin/collectd ]
ok $(( status || $? )) "purged what the steps installed ($(tr '\n' ' ' <"$work/packages-added")); collectd-core stays"
if [ "$had_collectd" = yes ]; then
  apt-get install -y -q --no-install-recommends collectd >>"$work/apt.log" 2>&1
fi
[ -z "${created_policy:-}" ] || rm -f /usr/sbin/policy-rc.d
created_policy=

apt-get purge -y -q "${pkgs[@]}" >"$work/purge.log" 2>&1
status=$?
[ "$status" -eq 0 ] || tail -20 "$work/purge.log" | diag
ok "$status" "apt-get purge collectd-winperf collectd-winperf-remote"

! installed collectd-winperf && ! installed collectd-winperf-remote &&
  ! dpkg -L collectd-winperf >/dev/null 2>&1 && ! dpkg -L collectd-winperf-remote >/dev/null 2>&1
ok $? "both packages gone (dpkg -L lists nothing)"

snapshot >"$work/after.list"
diff "$work/before.list" "$work/after.list" | diag
left=""
for g in '/usr/lib/collectd/winperf*' '/etc/collectd/winperf*' '/etc/collectd/collectd.conf.d/winperf*' \
  '/usr/share/doc/collectd-winperf*' '/usr/share/collectd-winperf' '/usr/bin/winperf*'; do
  left="$left $(compgen -G "$g" | tr '\n' ' ')"
done
[ -z "${left// /}" ] || echo "left behind:$left" | diag
cmp -s "$work/before.list" "$work/after.list" && [ -z "${left// /}" ]
ok $? "nothing left in /usr/lib/collectd, /etc/collectd, /usr/share/doc, /usr/share/collectd-winperf, /usr/bin, man"

e2e_done
