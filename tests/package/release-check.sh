#!/bin/bash
# collectd-winperf: the whole release, checked end to end (TAP; make
# release-check, named in the README, not part of tests/run):
#   - scripts/release.sh with the Windows part, a throwaway GPG key and a
#     code-signing certificate of a throwaway CA: every artifact there,
#     SHA256SUMS and its signature verify, the MSI, every program and DLL
#     in it and winperf.exe in the zip verify with osslsigncode;
#   - reproducible, and buildable from the tarball: a second run, by the
#     release tarball's own scripts/release.sh (no .git there), gives the
#     same tarball and .debs byte for byte; the MSI is not (wixl writes a random
#     package code and the build time), so two MSIs of the same files are
#     compared by what they hold (msiextract);
#   - the apt repository in a Debian chroot made by debootstrap (nothing of
#     this machine's apt is used or changed): the README's sources entry,
#     `apt-get install collectd-winperf collectd-winperf-remote`, the
#     installed tool and plugin work, `apt-get purge` leaves nothing;
#   - under Wine: windows/test-msi-settings.sh with the release's signed MSI
#     (the MSI's settings, the service's log and Event Log) and
#     windows/test-msi.sh (the service, values in carbon and InfluxDB).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   tests/package/release-check.sh [BUILD_DIR]   (default build/windows: the
#                                                collectd cross build, made
#                                                or reused)
# As root (debootstrap, chroot). About an hour the first time (the collectd
# cross build), then about 20 minutes.

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
top=$top_srcdir
B=${1:-$top/build/windows}
mkdir -p "$B"
B=$(cd "$B" && pwd)
# shellcheck source=tests/e2e/lib.sh
. "$top/tests/e2e/lib.sh"
need gpg gpgv osslsigncode openssl msiextract msiinfo unzip debootstrap wine
e2e_init release-check
W=$E2E_DIR
export GNUPGHOME=$W/gnupg
mkdir -m 700 "$GNUPGHOME"
trap 'gpgconf --kill all >/dev/null 2>&1; e2e_cleanup' EXIT
[ "$(id -u)" -eq 0 ]
e2e_ok $? "running as root (debootstrap, chroot)"
eval "$("$top/scripts/version.sh")"
V=$VERSION
arch=$(dpkg --print-architecture)
T0=$SECONDS

# ----------------------------------------------------- keys, certificates
gpg --batch --pinentry-mode loopback --passphrase '' \
  --quick-gen-key "collectd-winperf release check <release-check@invalid>" ed25519 sign never >/dev/null 2>&1
fpr=$(gpg --batch --with-colons --list-keys release-check@invalid 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }')
cs=$W/codesign
mkdir -p "$cs"
openssl req -x509 -newkey rsa:3072 -nodes -keyout "$cs/ca.key" -out "$cs/ca.pem" -days 2 \
  -subj "/CN=collectd-winperf release check CA" -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign,cRLSign" >/dev/null 2>&1 &&
  openssl req -newkey rsa:3072 -nodes -keyout "$cs/signer.key" -out "$cs/signer.csr" \
    -subj "/CN=collectd-winperf release check signer" >/dev/null 2>&1 &&
  printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=codeSigning\n' >"$cs/ext.cnf" &&
  openssl x509 -req -in "$cs/signer.csr" -CA "$cs/ca.pem" -CAkey "$cs/ca.key" -CAcreateserial \
    -out "$cs/signer.pem" -days 2 -extfile "$cs/ext.cnf" >/dev/null 2>&1
status=$?
[ -n "$fpr" ]
e2e_ok $((status || $?)) "throwaway GPG key ($fpr) and code-signing certificate of a throwaway CA"

# ------------------------------------------------------------ the release
out=$W/out
"$top/scripts/release.sh" --allow-dirty --gpg-key "$fpr" --codesign-cert "$cs/signer.pem" \
  --codesign-key "$cs/signer.key" --codesign-ca "$cs/ca.pem" --windows-build "$B" "$out" \
  >"$W/release.log" 2>&1
status=$?
[ "$status" -eq 0 ] || tail -30 "$W/release.log" | e2e_diag
e2e_ok "$status" "scripts/release.sh with the MSI, signed ($((SECONDS - T0)) s)"
grep -E '^release:|^ +[0-9]+  ' "$W/release.log" | e2e_diag
msi=collectd-winperf-$V-x64.msi
zipf=winperf-$V-x64.zip
tarball=collectd-winperf-$V.tar.gz
debs="collectd-winperf_${V}_$arch.deb collectd-winperf-remote_${V}_$arch.deb"
got=$(cd "$out" 2>/dev/null && find . -maxdepth 1 -type f -printf '%f\n' | sort | tr '\n' ' ')
want=$(printf '%s\n' SHA256SUMS SHA256SUMS.asc $debs "$msi" "$tarball" "$zipf" | sort | tr '\n' ' ')
e2e_is "$got" "$want" "the artifacts: tarball, .debs, MSI, winperf zip, SHA256SUMS, SHA256SUMS.asc"
(cd "$out" && sha256sum -c SHA256SUMS) >"$W/sums.log" 2>&1 && [ "$(grep -c ': OK$' "$W/sums.log")" -eq 5 ]
e2e_ok $? "sha256sum -c SHA256SUMS: 5 files OK"
gpgv --keyring "$out/apt/KEY.gpg" "$out/SHA256SUMS.asc" "$out/SHA256SUMS" >/dev/null 2>&1
e2e_ok $? "gpgv with apt/KEY.gpg: SHA256SUMS.asc is good"

# ---------------------------------------------------------- Authenticode
verify() { osslsigncode verify -CAfile "$cs/ca.pem" -in "$1" 2>&1 | grep -q '^Signature verification: ok'; }
verify "$out/$msi"
e2e_ok $? "osslsigncode verify -CAfile: the MSI"
mkdir -p "$W/msi-x" "$W/zip-x"
msiextract -C "$W/msi-x" "$out/$msi" >/dev/null 2>&1
mapfile -t pe < <(find "$W/msi-x" -type f \( -name '*.exe' -o -name '*.dll' \) | sort)
bad=""
for f in "${pe[@]}"; do verify "$f" || bad="$bad $(basename "$f")"; done
[ "${#pe[@]}" -ge 10 ] && [ -z "$bad" ]
e2e_ok $? "every program and DLL in the MSI verifies: ${#pe[@]} files${bad:+ (failed:$bad)}"
printf '%s\n' "${pe[@]}" | sed "s|$W/msi-x/||" | e2e_diag
unzip -q -d "$W/zip-x" "$out/$zipf" && verify "$W/zip-x/winperf-$V/winperf.exe"
e2e_ok $? "winperf.exe in $zipf verifies"
(cd "$W/zip-x" && find . -type f | sort) | e2e_diag

# ------------------------------------------------------- reproducibility
# The second run is the release's own tarball's release.sh: a tree without
# .git, its version from scripts/release-info.
out2=$W/out2
mkdir -p "$W/tarball"
tar -xzf "$out/$tarball" -C "$W/tarball" &&
  "$W/tarball/collectd-winperf-$V/scripts/release.sh" --skip-windows "$out2" >"$W/release2.log" 2>&1
status=$?
[ "$status" -eq 0 ] || tail -20 "$W/release2.log" | e2e_diag
e2e_ok "$status" "a second run, from the release's tarball (no .git): scripts/release.sh --skip-windows"
for f in "$tarball" $debs; do
  cmp -s "$out/$f" "$out2/$f"
  e2e_ok $? "reproducible: $f is byte for byte the same ($(stat -c %s "$out/$f") bytes)"
done
built=0
for m in m1 m2; do
  "$top/windows/build-msi.sh" --out "$W/$m.msi" --version "$V" --msi-version "$MSI_VERSION" "$B" \
    >"$W/$m.log" 2>&1 && built=$((built + 1))
  sleep 2 # another build time
done
e2e_is "$built" 2 "the same MSI built twice from the same files"
differ=$(cmp -l "$W/m1.msi" "$W/m2.msi" 2>/dev/null | wc -l)
mkdir -p "$W/m1" "$W/m2"
msiextract -C "$W/m1" "$W/m1.msi" >/dev/null 2>&1 && msiextract -C "$W/m2" "$W/m2.msi" >/dev/null 2>&1 &&
  diff -r "$W/m1" "$W/m2" >/dev/null && [ -n "$(find "$W/m1" -type f)" ]
e2e_ok $? "the MSI is not byte-reproducible ($differ bytes differ: wixl's package code and times) but its $(find "$W/m1" -type f | wc -l) files are identical"
codes=$(for m in m1 m2; do msiinfo suminfo "$W/$m.msi" | sed -n 's/^Revision number (UUID): //p'; done | sort -u | wc -l)
e2e_is "$codes" 2 "each MSI build has its own package code"

# --------------------------------------------- apt install in a Debian chroot
R=$W/chroot
mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
t=$SECONDS
timeout 1800 debootstrap --variant=minbase "$suite" "$R" "$mirror" >"$W/debootstrap.log" 2>&1
status=$?
[ "$status" -eq 0 ] || tail -20 "$W/debootstrap.log" | e2e_diag
e2e_ok "$status" "debootstrap --variant=minbase $suite from $mirror ($((SECONDS - t)) s): a Debian without the packages"
mkdir -p "$R/srv/collectd-winperf"
cp -r "$out/apt" "$R/srv/collectd-winperf/"
printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d" # no daemon started in the chroot
chmod +x "$R/usr/sbin/policy-rc.d"
# The README's steps, with the repository at file:/srv/... instead of the
# project's web server.
cat >"$R/root/steps.sh" <<EOF
set -e
export DEBIAN_FRONTEND=noninteractive
cp /srv/collectd-winperf/apt/KEY.gpg /usr/share/keyrings/collectd-winperf.gpg
cat >/etc/apt/sources.list.d/collectd-winperf.sources <<SRC
Types: deb
URIs: file:/srv/collectd-winperf/apt
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/collectd-winperf.gpg
SRC
apt-get update
apt-get install -y --no-install-recommends collectd-winperf collectd-winperf-remote
dpkg-query -W -f='installed \${Package} \${Version}\n' collectd-winperf collectd-winperf-remote
winperf query --names /usr/share/collectd-winperf/sample/names.multisz \
  /usr/share/collectd-winperf/sample/sample1.blob /usr/share/collectd-winperf/sample/sample2.blob '\System\*'
printf 'PluginDir "/usr/lib/collectd"\nTypesDB "/usr/share/collectd/types.db"\nLoadPlugin winperf\n<Plugin winperf>\n  CountersFile "/usr/share/collectd-winperf/demo/winperf.yaml"\n  Replay "/usr/share/collectd-winperf/demo"\n</Plugin>\n' >/root/test.conf
/usr/sbin/collectd -t -C /root/test.conf && echo "collectd -t: ok"
winperf-remote-helper --help 2>&1 | head -1
apt-get purge -y collectd-winperf collectd-winperf-remote
echo "left: \$(ls -d /usr/lib/collectd/winperf* /usr/bin/winperf* /etc/collectd/winperf* /usr/share/collectd-winperf 2>/dev/null | tr '\n' ' ')"
EOF
in_chroot() {
  unshare -m sh -c "mount -t proc proc '$R/proc' && mount --bind /dev '$R/dev' &&
    mount --bind /dev/pts '$R/dev/pts' && chroot '$R' /bin/sh $*"
}
in_chroot /root/steps.sh >"$W/chroot.log" 2>&1
status=$?
grep -E '^(installed|collectd -t|\\System|usage|left|E:)' "$W/chroot.log" | e2e_diag
[ "$status" -eq 0 ] || tail -20 "$W/chroot.log" | e2e_diag
e2e_ok "$status" "in the chroot: the README's sources entry, apt-get update, install, purge"
grep -q "^installed collectd-winperf $V$" "$W/chroot.log" && grep -q "^installed collectd-winperf-remote $V$" "$W/chroot.log"
e2e_ok $? "apt-get install collectd-winperf collectd-winperf-remote $V from the signed repository"
grep -qP '^\\System\\Processes\t42$' "$W/chroot.log" && grep -q '^collectd -t: ok$' "$W/chroot.log" &&
  grep -q '^usage: winperf-remote-helper' "$W/chroot.log"
e2e_ok $? "the installed winperf (Processes 42), collectd -t with the installed plugin, winperf-remote-helper --help"
grep -qx 'left: ' "$W/chroot.log"
e2e_ok $? "apt-get purge leaves no winperf file"
[ -z "$(find "$R/proc" -mindepth 1 -maxdepth 1 2>/dev/null | head -1)" ]
e2e_ok $? "the chroot's mounts ended with it (private mount namespace)"

# ----------------------------------------------------------------- Wine
wine_test() { # wine_test LOG NAME CMD...: one TAP line for a whole Wine test
  local log=$W/$1.log name=$2 t=$SECONDS p f
  shift 2
  "$@" >"$log" 2>&1
  local status=$?
  p=$(grep -c '^ok ' "$log")
  f=$(grep -c '^not ok ' "$log")
  grep -A4 '^not ok' "$log" | head -40 | e2e_diag
  [ "$status" -eq 0 ] && [ "$f" -eq 0 ] && [ "$p" -gt 0 ]
  e2e_ok $? "$name: $p ok, $f not ok ($((SECONDS - t)) s)"
}
wine_test msi-settings "windows/test-msi-settings.sh with the release's signed MSI" \
  "$top/windows/test-msi-settings.sh" --msi "$out/$msi" "$B"
wine_test msi "windows/test-msi.sh" "$top/windows/test-msi.sh" "$B"

echo "# release check: $((SECONDS - T0)) s" | e2e_diag
e2e_done
