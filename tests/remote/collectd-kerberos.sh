#!/bin/bash
# collectd-winperf: Kerberos against a real Samba AD DC that refuses NTLM.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# A fresh AD DC (tests/remote/addc-lib.sh: provisioned in this test's
# directory, `ntlm auth = disabled`, in a mount namespace of its own with a
# tmpfs on /run/samba and its own hosts file) serves the perfmon tdb data of
# tests/remote/perfmon_tdb.py. Expected values by hand, as in
# collectd-hosts.sh: sample 1 gives Processes 42; samples 1 -> 2 give
# % Processor Time 75 and 25, Interrupts/sec 500 and 50, Context
# Switches/sec 1500, Processes 43; Thread(t7)'s ID Thread is 7 in both.
#
# collectd A (Interval 2, HostsPerHelper 2, Port, Krb5Config and Timeout
# as plugin-level defaults): renew1 (svc-renew) and renew2 (svc-two) share
# a helper, enc1 (svc-perf, Encrypt true) has the second; every service
# ticket is requested with a 60 s lifetime (WINPERF_KRB5_TICKET_LIFETIME,
# the helper's test knob), so for about two minutes the helpers obtain new
# tickets and log on again while values flow; the shared helper is killed
# once (its private directory under BaseDir goes with it).
# Meanwhile: the winperf tool (NTLM refused with NT_STATUS_NTLM_BLOCKED;
# keytab, password, the operator's ticket cache, negotiate, --encrypt; an
# IP address; doctor's Kerberos lines), and collectd B (Interval 1): a
# helper run under faketime 10 minutes ahead (RemoteHelper), a name without
# SPN, an NTLM host, and five inventory hosts sharing a keytab whose key
# the domain no longer has: the DC sees exactly one failed
# pre-authentication (badPwdCount 1). An inventory reloaded with a host by
# IP address is refused and the hosts in use stay; a configuration with
# one does not start. The DC's log proves each session was krb5.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=addc-lib.sh disable=SC2154 # top_srcdir: lib.sh sets it
. "$top_srcdir/tests/remote/addc-lib.sh"
# shellcheck source=smbd-lib.sh
. "$top_srcdir/tests/remote/smbd-lib.sh"
need collectd kinit faketime python3 whisper-fetch pgrep

addc_namespace kerberos "$0" "$@"

# shellcheck disable=SC2154 # top_builddir: lib.sh sets it
helper=$top_builddir/winperf-remote-helper
winperf=$top_builddir/winperf
[ -x "$helper" ] && [ -x "$winperf" ] || e2e_bail "$helper and $winperf built"
/usr/bin/python3 -c 'import tdb' 2>/dev/null || e2e_bail "python3-tdb installed"
e2e_plugin_dir logfile write_graphite

addc_provision || e2e_bail "an AD DC provisioned in $ADDC_DIR"
e2e_ok 0 "AD DC $ADDC_HOST provisioned, realm $ADDC_REALM, ntlm auth = disabled"
addc_start || e2e_bail "the DC listens (SMB $ADDC_SMB_PORT, KDC $ADDC_KDC_PORT)"
e2e_start_carbon
# shellcheck disable=SC2034 # SMBD_DIR: read by smbd_write_sample
SMBD_DIR=$ADDC_DIR/dc
W=$CARBON_DIR/whisper

cat >"$E2E_DIR/winperf.yaml" <<'EOF'
- '\Processor(*)\% Processor Time'
- '\Processor(*)\Interrupts/sec'
- '\System\Processes'
- '\System\Context Switches/sec'
EOF

# collectd_conf NAME INTERVAL: tests/e2e/lib.sh's globals, log and
# write_graphite, with BaseDir $E2E_DIR/NAME (the helpers' private
# directories go there) and the log in $E2E_DIR/NAME.log.
collectd_conf() {
  mkdir -p "$E2E_DIR/$1"
  {
    e2e_conf_globals "$1" "$2"
    echo "ReadThreads 4"
    e2e_conf_logfile_graphite
    echo "LoadPlugin winperf"
  } | sed -e "s|^BaseDir .*|BaseDir \"$E2E_DIR/$1\"|" \
    -e "s|^PIDFile .*|PIDFile \"$E2E_DIR/$1/collectd.pid\"|" \
    -e "s|$E2E_DIR/collectd.log|$E2E_DIR/$1.log|"
}

collectd_start() { # NAME: collectd -f with $E2E_DIR/NAME.conf
  e2e_spawn "$E2E_DIR/$1.stdout" /usr/sbin/collectd -f -C "$E2E_DIR/$1.conf"
}

krb_host() { # NAME ADDRESS USER [MORE]: a <Host> with USER's keytab
  printf '  <Host "%s">\n    Address "%s"\n    Principal "%s@%s"\n' "$1" "$2" \
    "$3" "$ADDC_REALM"
  printf '    Keytab "%s/%s.keytab"\n%s  </Host>\n' "$ADDC_DIR" "$3" "${4:-}"
}

{
  collectd_conf krb-a 2
  cat <<EOF
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  SelfMetrics false
  HostsPerHelper 2
  Port $ADDC_SMB_PORT
  Krb5Config "$ADDC_KRB5_CONF"
  Timeout 10
$(krb_host renew1 "$ADDC_HOST" svc-renew)
$(krb_host renew2 "$ADDC_HOST" svc-two)
$(krb_host enc1 "$ADDC_HOST" svc-perf '    Auth "kerberos"
    Encrypt true
')
</Plugin>
EOF
} >"$E2E_DIR/krb-a.conf"

WINPERF_KRB5_TICKET_LIFETIME=60 collectd_start krb-a
A_PID=$E2E_LAST_PID
T_START=$(date +%s)
A_LOG=$E2E_DIR/krb-a.log

for h in renew1 renew2 enc1; do
  e2e_wait_for 60 has_value "$W/$h/winperf-System/gauge-Processes.wsp" 42
  e2e_ok $? "$h: sample 1's Processes (42) arrives through collectd with Kerberos"
done
smbd_write_sample 2 || e2e_bail "perfmon tdb sample 2"
for h in renew1 renew2 enc1; do
  e2e_wait_for 60 has_value "$W/$h/winperf-System/gauge-Context_Switches_sec.wsp" 1500
done
e2e_wait_for 10 has_value "$W/enc1/winperf-Processor-1/gauge-Interrupts_sec.wsp" 50
for h in renew1 renew2 enc1; do
  got=
  for m in Processor-0/gauge-%_Processor_Time Processor-1/gauge-%_Processor_Time \
    Processor-0/gauge-Interrupts_sec Processor-1/gauge-Interrupts_sec \
    System/gauge-Context_Switches_sec; do
    got="$got $(wsp_values "$W/$h/winperf-$m.wsp")"
  done
  e2e_is "$got" " 75 25 500 50 1500" \
    "$h: % Processor Time 75, 25; Interrupts/sec 500, 50; Context Switches/sec 1500"
done

# The shared helper (renew1, renew2) and its private directory.
krb_dirs() { find "$E2E_DIR/krb-a" -maxdepth 1 -name 'winperf-krb5.*' -perm 700 | sort; }
e2e_is "$(krb_dirs | wc -l)" 2 \
  "two helpers, two private 0700 directories under krb-a's BaseDir"
mates=$(pgrep -f -- "$helper --sessions 2 --krb5-dir $E2E_DIR/krb-a/" | head -1)
mates_dir=$(tr '\0' '\n' <"/proc/$mates/cmdline" 2>/dev/null | sed -n '/^--krb5-dir$/{n;p}')
e2e_ok "$([ -n "$mates_dir" ] && [ -f "$mates_dir/cc.1" ] && echo 0 || echo 1)" \
  "the shared helper keeps its caches in $mates_dir"

# ------------------------------------------------------- the winperf tool
mkdir -p "$E2E_DIR/clitmp"
q() { # winperf query --remote ... PATH, with the DC's port and krb5.conf
  TMPDIR=$E2E_DIR/clitmp "$winperf" query --remote "${QHOST:-$ADDC_HOST}" \
    --port "$ADDC_SMB_PORT" --krb5-config "$ADDC_KRB5_CONF" --helper "$helper" \
    "$@" 2>&1
}
PRC='\System\Processes'
THR='\Thread(t7)\ID Thread'
keytab=(--principal "svc-perf@$ADDC_REALM" --keytab "$ADDC_DIR/svc-perf.keytab")

out=$(q --credentials "$ADDC_DIR/svc-perf.cred" "$PRC")
echo "$out" | e2e_diag
case $out in *"refused the NTLM logon of user $ADDC_DOMAIN\\svc-perf (NT_STATUS_NTLM_BLOCKED"*'use Auth "kerberos"'*) st=0 ;; *) st=1 ;; esac
e2e_ok $st "winperf, NTLM (the default): the DC's NT_STATUS_NTLM_BLOCKED, and the hint"
addc_log_has "\[SMB2,NTLMSSP\] user \[$ADDC_DOMAIN\]\\\\\[svc-perf\].*NT_STATUS_NTLM_BLOCKED"
e2e_ok $? "the DC's log: that NTLMSSP session refused with NT_STATUS_NTLM_BLOCKED"

e2e_is "$(q "${keytab[@]}" "$PRC" "$THR")" "$PRC	43
$THR	7" "winperf query --remote, Auth kerberos with the keytab: Processes 43, ID Thread 7"
e2e_is "$(q "${keytab[@]}" --encrypt "$PRC")" "$PRC	43" "... with --encrypt (SMB3 encryption)"
e2e_is "$(q --auth kerberos --credentials "$ADDC_DIR/svc-perf.cred" "$PRC")" "$PRC	43" \
  "... with the password (principal svc-perf@REALM from User and Domain)"
e2e_is "$(q --auth negotiate --credentials "$ADDC_DIR/svc-perf.cred" "$PRC")" "$PRC	43" \
  "Auth negotiate with the password: Kerberos first, which the DC takes"

cc=$E2E_DIR/operator.cc
KRB5_CONFIG=$ADDC_KRB5_CONF kinit -c "FILE:$cc" -k -t "$ADDC_DIR/svc-perf.keytab" \
  "svc-perf@$ADDC_REALM" || e2e_bail "kinit into the operator's cache"
chmod 600 "$cc"
sum=$(md5sum <"$cc")
e2e_is "$(q --ccache "FILE:$cc" "$PRC")" "$PRC	43" \
  "CCache FILE:... (the operator's kinit): Processes 43"
e2e_is "$(md5sum <"$cc")" "$sum" "the operator's cache is never written"
chmod 644 "$cc"
out=$(q --ccache "FILE:$cc" "$PRC")
case $out in *"cache $cc is readable by group or others (mode 0644): refused"*) st=0 ;; *) st=1 ;; esac
e2e_ok $st "a cache that others can read is refused: $out"

out=$(QHOST=127.0.0.1 q "${keytab[@]}" "$PRC")
case $out in *"127.0.0.1 is an IP address"*"Kerberos needs the host's DNS name"*) st=0 ;; *) st=1 ;; esac
e2e_ok $st "an IP address with Kerberos: $out"
out=$(QHOST=127.0.0.1 q --auth negotiate --credentials "$ADDC_DIR/svc-perf.cred" "$PRC")
case $out in *"NT_STATUS_NTLM_BLOCKED"*) st=0 ;; *) st=1 ;; esac
e2e_ok $st "negotiate to an IP address goes to NTLM (refused here): $out"

# The other refusals and failures, each with its message: from the DC
# (a disabled account, a password to change, an unknown principal), or
# found here (no key in the keytab, no KDC answering).
expect() { # expect WHAT PATTERN ARGS...: q ARGS fails with PATTERN
  local what=$1 want=$2
  shift 2
  out=$(q "$@" "$PRC")
  case $out in *$want*) st=0 ;; *) st=1 ;; esac
  e2e_ok $st "$what: $out"
}
expect "a disabled account (the DC)" \
  "the account is disabled, locked out or expired (KDC_ERR_CLIENT_REVOKED)" \
  --principal "svc-off@$ADDC_REALM" --keytab "$ADDC_DIR/svc-off.keytab"
expect "a password to change (the DC)" \
  "the password (key) of svc-old@$ADDC_REALM has expired (KDC_ERR_KEY_EXPIRED): set a new one and export the keytab again" \
  --principal "svc-old@$ADDC_REALM" --keytab "$ADDC_DIR/svc-old.keytab"
( umask 077 && printf 'username = nobody\npassword = x\ndomain = %s\n' \
  "$ADDC_DNS" >"$E2E_DIR/nobody.cred" )
expect "an unknown principal (the DC)" \
  "knows no principal nobody@$ADDC_REALM (KDC_ERR_C_PRINCIPAL_UNKNOWN)" \
  --auth kerberos --credentials "$E2E_DIR/nobody.cred"
expect "a principal the keytab has no key for" \
  "keytab $ADDC_DIR/svc-perf.keytab has no key for svc-two@$ADDC_REALM" \
  --principal "svc-two@$ADDC_REALM" --keytab "$ADDC_DIR/svc-perf.keytab"
sed "s/127.0.0.1:$ADDC_KDC_PORT/127.0.0.1:$(addc_free_port)/" "$ADDC_KRB5_CONF" \
  >"$E2E_DIR/nokdc.conf"
expect "no KDC answering" \
  "cannot reach a KDC of $ADDC_REALM (KRB5_KDC_UNREACH)" \
  "${keytab[@]}" --krb5-config "$E2E_DIR/nokdc.conf"

doc=$(TMPDIR=$E2E_DIR/clitmp "$winperf" doctor --remote "$ADDC_HOST" --port "$ADDC_SMB_PORT" \
  --krb5-config "$ADDC_KRB5_CONF" --helper "$helper" --auth kerberos "${keytab[@]}" "$PRC" 2>&1)
echo "$doc" | e2e_diag
ok=0
for want in "kerberos: logon: kerberos" "kerberos: realm: $ADDC_REALM" \
  "kerberos: SPN: cifs/$ADDC_HOST@$ADDC_REALM" "kerberos: SPN found: yes" \
  "kerberos: clock offset to the KDC (s, KDC minus here): " "kerberos: TGT valid until: 20" \
  "kerberos: service ticket valid from: 20" "$PRC	ok	1 counter matches"; do
  case $doc in *"$want"*) ;; *) ok=1 && echo "missing: $want" | e2e_diag ;; esac
done
e2e_ok $ok "winperf doctor --remote --auth kerberos: realm, SPN found, clock offset, ticket times"
off=$(echo "$doc" | sed -n 's/^kerberos: clock offset to the KDC (s, KDC minus here): //p')
case $off in +0 | +1 | -1) st=0 ;; *) st=1 ;; esac
e2e_ok $st "the clock offset to the KDC on one machine is 0 (+-1 s): $off"
doc=$(TMPDIR=$E2E_DIR/clitmp QHOST=$ADDC_NOSPN "$winperf" doctor --remote "$ADDC_NOSPN" \
  --port "$ADDC_SMB_PORT" --krb5-config "$ADDC_KRB5_CONF" --helper "$helper" "${keytab[@]}" "$PRC" 2>&1)
case $doc in *"kerberos: SPN found: no"*"knows no service principal cifs/$ADDC_NOSPN"*) st=0 ;; *) st=1 ;; esac
e2e_ok $st "doctor for a name without SPN: SPN found: no, and the setspn hint"
e2e_is "$(ls -A "$E2E_DIR/clitmp")" "" "winperf leaves no private directory in TMPDIR"

# ---------------------------------------------- collectd B: the failures
printf '#!/bin/sh\nexec env FAKETIME_DONT_FAKE_MONOTONIC=1 faketime -f +10m %s "$@"\n' \
  "$helper" >"$E2E_DIR/skewed-helper"
chmod 755 "$E2E_DIR/skewed-helper"
{
  echo "defaults:"
  echo "  address: $ADDC_HOST"
  echo "  principal: svc-bad@$ADDC_REALM"
  echo "  keytab: $ADDC_DIR/bad.keytab"
  echo "hosts:"
  for i in 1 2 3 4 5; do echo "  - bad$i"; done
  echo "  - name: invgood"
  echo "    principal: svc-perf@$ADDC_REALM"
  echo "    keytab: $ADDC_DIR/svc-perf.keytab"
} >"$E2E_DIR/inventory.yaml"
{
  collectd_conf krb-b 1
  cat <<EOF
<Plugin winperf>
  CountersFile "$E2E_DIR/winperf.yaml"
  RemoteHelper "$helper"
  SelfMetrics false
  Port $ADDC_SMB_PORT
  Krb5Config "$ADDC_KRB5_CONF"
  Timeout 5
  HostsFile "$E2E_DIR/inventory.yaml"
$(krb_host skewed "$ADDC_HOST" svc-perf "    RemoteHelper \"$E2E_DIR/skewed-helper\"
")
$(krb_host nospn "$ADDC_NOSPN" svc-perf)
  <Host "ntlmhost">
    Address "$ADDC_HOST"
    PasswordFile "$ADDC_DIR/svc-perf.cred"
  </Host>
</Plugin>
EOF
} >"$E2E_DIR/krb-b.conf"
collectd_start krb-b
B_PID=$E2E_LAST_PID
B_LOG=$E2E_DIR/krb-b.log
LOG=$B_LOG
log_has() { grep -qE -- "$1" "$LOG"; } # extended expressions here
e2e_wait_for 60 has_value "$W/invgood/winperf-System/gauge-Processes.wsp" 43
e2e_ok $? "invgood (inventory, svc-perf's keytab) collects beside the failing hosts"
e2e_wait_for 30 log_has 'host "skewed".*clock skew'
grep 'host "skewed"' "$B_LOG" | head -1 | e2e_diag
log_has 'host "skewed".*Kerberos: clock skew: this machine.s clock is (599|600|601) s ahead of the KDC of '"$ADDC_REALM"'.*KRB_AP_ERR_SKEW.*NTP'
e2e_ok $? "faketime +10 min around the helper: clock skew, the offset, the fix"
e2e_wait_for 30 log_has 'host "nospn"'
log_has "host \"nospn\".*knows no service principal cifs/$ADDC_NOSPN.*KDC_ERR_S_PRINCIPAL_UNKNOWN.*setspn -S cifs/$ADDC_NOSPN"
e2e_ok $? "a name without SPN: KDC_ERR_S_PRINCIPAL_UNKNOWN with the setspn hint"
e2e_wait_for 30 log_has 'host "ntlmhost"'
log_has 'host "ntlmhost".*NT_STATUS_NTLM_BLOCKED.*use Auth "kerberos"'
e2e_ok $? "an NTLM host under collectd: NT_STATUS_NTLM_BLOCKED"

# Five hosts, one wrong key: one failed pre-authentication, however long.
e2e_wait_for 30 log_has 'KDC_ERR_PREAUTH_FAILED'
sleep 8 # eight more intervals of five hosts that could each log on
grep 'KDC_ERR_PREAUTH_FAILED' "$B_LOG" | head -2 | e2e_diag
e2e_is "$(grep -c 'KDC_ERR_PREAUTH_FAILED' "$B_LOG")" 1 \
  "the wrong keytab is logged once (the credential paused), naming it"
log_has "authentication failure: .*KDC of $ADDC_REALM refused the keytab $ADDC_DIR/bad.keytab for svc-bad@$ADDC_REALM \(pre-authentication failed.*export it again.*4 other hosts using it wait"
e2e_ok $? "... the refusal's message and the four waiting hosts"
e2e_is "$(addc_bad_pwd_count svc-bad)" 1 \
  "the DC counted one bad password for svc-bad (badPwdCount; lockout at 5)"
e2e_is "$(addc_log_count "Kerberos KDC.*svc-bad@$ADDC_REALM.*NT_STATUS_WRONG_PASSWORD")" 1 \
  "the DC's log: one failed Kerberos pre-authentication for svc-bad"
# The right keys written into the keytab: every host resumes, no restart.
addc_keytab svc-bad "$ADDC_DIR/bad.keytab" || e2e_bail "svc-bad's keytab again"
st=0
for i in 1 2 3 4 5; do
  e2e_wait_for 15 has_value "$W/bad$i/winperf-System/gauge-Processes.wsp" 43 || st=1
done
e2e_ok $st "the keytab fixed: bad1..bad5 collect (Processes 43), collectd not restarted"
log_has 'credential kerberos svc-bad@[^ ]*, [^ ]*bad.keytab accepted again; the 4 other hosts using it resume'
e2e_ok $? "the credential's resumption is logged once"

out=$("$winperf" hosts --check "$E2E_DIR/inventory.yaml" 2>&1)
st=$?
case $out in *"host bad1 "*"principal: svc-bad@$ADDC_REALM (defaults)"*"keytab: $ADDC_DIR/bad.keytab (defaults)"*) ;; *) st=1 ;; esac
e2e_ok $st "winperf hosts --check shows each host's principal and keytab and where they come from"

# An inventory reloaded with a host by IP address: refused, the hosts stay.
before=$(date +%s)
printf '  - name: ipbad\n    address: 127.0.0.1\n' >>"$E2E_DIR/inventory.yaml"
e2e_wait_for 30 log_has 'ipbad'
grep 'ipbad' "$B_LOG" | head -2 | e2e_diag
log_has "inventory.yaml:[0-9]+:[0-9]+: host \"ipbad\": 127.0.0.1 is an IP address"
e2e_ok $? "the reloaded inventory is refused at the host's line and column"
sample_after() { # a value of invgood stamped after $before
  /usr/bin/whisper-fetch --json --from="$before" --until="$(date +%s)" \
    "$W/invgood/winperf-System/gauge-Processes.wsp" | e2e_whisper_json_lines |
    awk '$2 == 43 { f = 1 } END { exit !f }'
}
e2e_wait_for 20 sample_after
e2e_ok $? "the hosts in use stay: invgood collects after the refused reload"
out=$("$winperf" hosts --check "$E2E_DIR/inventory.yaml" 2>&1)
st=$?
echo "$out" | grep ipbad | e2e_diag
case $out in *'inventory.yaml:14:11: host "ipbad": 127.0.0.1 is an IP address'*) ;; *) st=0 ;; esac
e2e_ok "$([ "$st" = 1 ] && echo 0 || echo 1)" "winperf hosts --check says so too, and exits 1"
e2e_stop "$B_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd B ran with the failing hosts and exits 0"

# A configuration with a host by IP address and Kerberos does not start.
{
  collectd_conf krb-c 1
  printf '<Plugin winperf>\n  CountersFile "%s"\n' "$E2E_DIR/winperf.yaml"
  krb_host ipk 127.0.0.1 svc-perf
  echo '</Plugin>'
} >"$E2E_DIR/krb-c.conf"
out=$(/usr/sbin/collectd -T -C "$E2E_DIR/krb-c.conf" 2>&1)
st=$?
out="$out $(cat "$E2E_DIR/krb-c.log" 2>/dev/null)"
case $out in *'host "ipk": 127.0.0.1 is an IP address'*) ;; *) st=0 ;; esac
e2e_ok "$([ "$st" -ne 0 ] && echo 0 || echo 1)" "collectd -T refuses a host by IP address with Kerberos"

# ------------------------------------- collectd A: two minutes of renewals
e2e_ok "$([ -n "$mates" ] && kill -KILL "$mates" && echo 0 || echo 1)" \
  "the shared helper killed (pid $mates)"
gone() { [ ! -e "$mates_dir" ]; }
e2e_wait_for 30 gone
e2e_ok $? "its private directory is removed after it ends"
while [ $(($(date +%s) - T_START)) -lt 125 ]; do sleep 2; done
count_values() { # HOST: values of Processes in whisper since T_START
  /usr/bin/whisper-fetch --json --from="$T_START" --until="$(date +%s)" \
    "$W/$1/winperf-System/gauge-Processes.wsp" | e2e_whisper_json_lines |
    awk '$2 != "None" && $2 != "null" && $2 != "" { n++ } END { print n + 0 }'
}
for h in renew1 renew2 enc1; do
  n=$(count_values "$h")
  e2e_ok "$([ "$n" -ge 40 ] && echo 0 || echo 1)" \
    "$h: values flow for two minutes of 60 s tickets ($n of ~62 intervals)"
done
for u in svc-renew svc-two; do
  n=$(addc_log_count "Successful AuthZ: \[SMB2,krb5\] user \[$ADDC_DOMAIN\]\\\\\[$u\]")
  e2e_ok "$([ "$n" -ge 3 ] && echo 0 || echo 1)" \
    "$u: $n Kerberos SMB sessions in the DC's log (a new ticket and logon every 45 s)"
done
addc_log_has "\[SMB2,krb5\] user \[$ADDC_DOMAIN\]\\\\\[svc-perf\]"
e2e_ok $? "the DC's log shows krb5 for the keytab, password and cache sessions"
e2e_is "$(addc_log_count "\[SMB2,NTLMSSP\].*status \[NT_STATUS_OK\]")" 0 \
  "and no NTLM session succeeded"
grep -E 'host "(renew1|renew2|enc1)"' "$A_LOG" | e2e_diag
e2e_is "$(grep -cE 'host "(renew1|renew2|enc1)"' "$A_LOG")" 0 \
  "collectd A logged no failure (the killed helper was started again at once)"
e2e_stop "$A_PID" 10
e2e_is "$E2E_STATUS" 0 "collectd A exits 0"
e2e_is "$(krb_dirs)" "" "no private directory is left under BaseDir"
addc_stop
e2e_done
