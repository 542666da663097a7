#!/bin/bash
# collectd-winperf: every collectd configuration example in the documents
# passes `collectd -T` (issue "a fleet polled agentlessly without hurting
# it": the fleet example of doc/sizing.md did not start).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# tests/doc/examples.py takes each example (README.md, doc/*, debian/*.1,
# conf/collectd-winperf.conf) into a file of its own, its paths mapped to
# fixtures (what it changes is said there). Each runs as `collectd -T` (init,
# every read once, shutdown; `collectd -t` checks no plugin option in 5.12)
# inside `unshare -n`: a network namespace with only loopback, so an
# example's addresses (10.0.0.12, graphite.example.net) send nothing
# anywhere. One TAP line per example, naming its file and line. A control:
# the fleet example as doc/sizing.md had it (Include inside <Plugin
# winperf>) must fail.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
need collectd ip python3 # unshare: util-linux (Essential)
e2e_init examples
[ "$(id -u)" = 0 ] || e2e_bail "needs root (unshare -n)"
e2e_plugin_dir logfile csv write_graphite network write_prometheus write_influxdb_udp
FIX=$E2E_DIR/fix
mkdir -p "$FIX"
mv "$E2E_PLUGIN_DIR" "$FIX/plugins"
# shellcheck disable=SC2154 # top_srcdir: lib.sh sets it
/usr/bin/python3 "$top_srcdir/tests/doc/examples.py" "$top_srcdir" "$E2E_DIR/out" "$FIX" ||
  e2e_bail "examples.py extracts the examples"
n=$(wc -l <"$E2E_DIR/out/list")
[ "$n" -ge 9 ]
e2e_ok $? "$n collectd configuration examples found (README, the man page, sizing.md, winperf-remote.md, conf/)"

# The namespace's loopback also gets 192.0.2.1 (TEST-NET-1, in there
# only): write_prometheus resolves its listening address with
# AI_ADDRCONFIG, which finds nothing where 127.0.0.1 is the only IPv4
# address ("Opening a listening socket for [0.0.0.0]:9103 failed").
run_t() { # run_t CONF: collectd -T in a namespace of its own; its status
  # shellcheck disable=SC2016 # $1: the inner shell's
  timeout 60 unshare -n sh -c \
    'ip link set lo up; ip addr add 192.0.2.1/32 dev lo; exec /usr/sbin/collectd -T -C "$1"' \
    sh "$1" >"$1.out" 2>&1
}
while IFS="$(printf '\t')" read -r i where; do
  run_t "$E2E_DIR/out/$i.conf"
  st=$?
  e2e_ok "$st" "$where: collectd -T passes"
  if [ "$st" != 0 ]; then
    sed 's/^/  /' "$E2E_DIR/out/$i.conf" | e2e_diag
    tail -5 "$E2E_DIR/out/$i.conf.out" | e2e_diag
  fi
done <"$E2E_DIR/out/list"

# The control: doc/sizing.md's fleet example before (Include inside the
# block): collectd refuses it, -T says so.
cat >"$E2E_DIR/include.conf" <<EOF
PluginDir "$FIX/plugins"
BaseDir "$FIX"
TypesDB "/usr/share/collectd/types.db"
LoadPlugin winperf
<Plugin winperf>
  CountersFile "$FIX/etc/collectd/winperf.yaml"
  Include "$FIX/etc/collectd/winperf-hosts-1.conf"
</Plugin>
EOF
printf '<Host "h1">\n  Address "10.0.0.1"\n</Host>\n' >"$FIX/etc/collectd/winperf-hosts-1.conf"
run_t "$E2E_DIR/include.conf"
st=$?
grep -q 'unknown option "Include"' "$E2E_DIR/include.conf.out"
e2e_ok $? "the control: Include inside <Plugin winperf> is refused (unknown option \"Include\")"
[ "$st" != 0 ]
e2e_ok $? "the control: collectd -T fails with it (status $st)"
e2e_done
