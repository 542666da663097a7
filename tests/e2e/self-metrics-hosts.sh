#!/bin/bash
# collectd-winperf end to end: the self-metrics of <Host> blocks, healthy
# and failing, and the access-denied line of a host whose login is refused.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# A real smbd on 127.0.0.1 (tests/remote/smbd-lib.sh) serves perfmon tdb
# data (tests/remote/perfmon_tdb.py, sample 1); a real collectd 5.12 reads
# it through two <Host> blocks, "goodhost" with the right password file and
# "badhost" with a wrong one, interval 1 s, and write_graphite (StoreRates
# false) sends the values to a real carbon-cache. Expected:
#   goodhost  all 10 self-metrics; auth_paused, duration-backoff and errors
#             0 (healthy);
#             count-unmatched_paths 1 (the counter file's \NoSuchObject);
#             bytes-blob > 0, durations in (0 s, 5 s) (a local smbd)
#   badhost   only count-auth_paused (1), count-errors and
#             duration-backoff: no blob ever arrives; errors >= 1; the wait
#             counts down to its paused credential's retry (AuthRetryInterval,
#             3600 s: src/plugin/credentials.h), never 0
#   the log   one access-denied warning for badhost, with the fix, however
#             many intervals it waits
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=../remote/smbd-lib.sh disable=SC2154 # top_srcdir: lib.sh
. "$top_srcdir/tests/remote/smbd-lib.sh"

# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$(cd "$top_builddir" && pwd)/winperf-remote-helper # collectd chdirs

smbd_e2e_start selfhosts
e2e_start_carbon

cat >"$E2E_DIR/winperf.yaml" <<'EOF'
- '\Processor(*)\% Processor Time'
- '\System\Processes'
- '\NoSuchObject\Items'
EOF

cat >"$E2E_DIR/collectd.conf" <<EOF
$(e2e_conf_globals selfhosts-collectd 1)
ReadThreads 2

$(e2e_conf_logfile_graphite)

LoadPlugin winperf
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  <Host "goodhost">
    Address "127.0.0.1"
    Port $SMBD_PORT
    PasswordFile "$SMBD_DIR/creds"
    Timeout 30 # a loaded machine: a healthy host must not time out
  </Host>
  <Host "badhost">
    Address "127.0.0.1"
    Port $SMBD_PORT
    PasswordFile "$SMBD_DIR/badcreds"
    Timeout 5
  </Host>
</Plugin>
EOF

smbd_collectd_start # COLLECTD_PID, LOG, W, T_START (smbd-lib.sh)

# wsp FILE: the distinct values FILE holds since the start (%.12g).
wsp() { wsp_values "$1"; }
# points FILE: how many slots of FILE hold a value.
points() { wsp_all "$1" | grep -c .; }
wsp_all() {
  [ -f "$1" ] || return 0
  /usr/bin/whisper-fetch --json --from="$((T_START - 1))" --until="$(date +%s)" "$1" |
    e2e_whisper_json_lines | awk '$2 != "None" && $2 != "null" && $2 != "" { print $2 }'
}
G=$W/goodhost/winperf-self
B=$W/badhost/winperf-self
# Enough: 3 backoff values of each host (badhost waits its 60 s meanwhile).
enough() { [ "$(points "$G/duration-backoff.wsp")" -ge 3 ] &&
  [ "$(points "$B/duration-backoff.wsp")" -ge 3 ]; }
e2e_wait_for 60 enough
e2e_ok $? "3 intervals of both hosts' self-metrics reached carbon"
e2e_alive "$COLLECTD_PID"
e2e_ok $? "collectd still running"
e2e_stop "$COLLECTD_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd exits 0 on TERM"
e2e_stop "$CARBON_PID" 10

e2e_is "$(cd "$G" 2>/dev/null && find . -name '*.wsp' | sort | tr '\n' ' ')" \
  "./bytes-blob.wsp ./count-auth_paused.wsp ./count-errors.wsp ./count-instances.wsp ./count-objects.wsp ./count-unmatched_paths.wsp ./count-values.wsp ./duration-backoff.wsp ./duration-decode.wsp ./duration-query.wsp " \
  "carbon: goodhost.winperf-self holds the 10 self-metrics of a <Host> (no clock_skew: the fixture's time is 1601)"
e2e_is "$(wsp "$G/count-auth_paused.wsp")" 0 "carbon: goodhost's auth_paused 0"
e2e_is "$(wsp "$G/duration-backoff.wsp")" 0 "carbon: goodhost's backoff is 0 (healthy)"
e2e_is "$(wsp "$G/count-errors.wsp")" 0 "carbon: goodhost's errors 0"
e2e_is "$(wsp "$G/count-unmatched_paths.wsp")" 1 "carbon: goodhost's unmatched paths 1 (\\NoSuchObject)"
# within FILE LOW HIGH: FILE holds values, each in (LOW, HIGH].
within() {
  wsp "$1" | awk -v lo="$2" -v hi="$3" '{ n += NF
    for (i = 1; i <= NF; i++) if (!($i > lo && $i <= hi)) bad = 1 }
    END { exit !(n > 0 && !bad) }'
}
within "$G/duration-query.wsp" 0 4.999
e2e_ok $? "carbon: goodhost's duration-query in (0 s, 5 s) ($(wsp "$G/duration-query.wsp"))"
within "$G/bytes-blob.wsp" 0 1e9
e2e_ok $? "carbon: goodhost's bytes-blob > 0 ($(wsp "$G/bytes-blob.wsp"))"

e2e_is "$(cd "$B" 2>/dev/null && find . -name '*.wsp' | sort | tr '\n' ' ')" \
  "./count-auth_paused.wsp ./count-errors.wsp ./duration-backoff.wsp " \
  "carbon: badhost (login refused) has only auth_paused, errors and backoff"
e2e_is "$(wsp "$B/count-auth_paused.wsp")" 1 "carbon: badhost's auth_paused 1 (its credential is paused)"
within "$B/duration-backoff.wsp" 3000 3600 && [ "$(wsp "$B/duration-backoff.wsp" | wc -w)" -ge 2 ]
e2e_ok $? "carbon: badhost's wait counts down to its credential's retry, within (3000 s, 3600 s] ($(wsp "$B/duration-backoff.wsp"))"
within "$B/count-errors.wsp" 0.5 1e9
e2e_ok $? "carbon: badhost's errors >= 1 ($(wsp "$B/count-errors.wsp"))"

grep 'access-denied' "$LOG" | e2e_diag
e2e_is "$(grep -cF "[warning] winperf: <Host \"badhost\">: $E2E_DIR/winperf.yaml: no counter path matches while the source fails: access-denied: access denied; check the user and password, and that the account may read the registry remotely (Performance Monitor Users, the winreg pipe's ACL)" "$LOG")" 1 \
  "log: one access-denied warning for badhost, with the fix"
e2e_is "$(grep -c 'access-denied' "$LOG")" 1 "log: nothing access-denied about goodhost"
e2e_is "$(grep -c 'error.*goodhost' "$LOG")" 0 "log: no error about goodhost"
e2e_done
