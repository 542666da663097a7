#!/bin/bash
# collectd-winperf: scripts/release.sh --skip-windows with a throwaway GPG
# key, and what a user checks of its artifacts (TAP):
#   - SHA256SUMS verifies (sha256sum -c), and its signature with the
#     published key alone (gpgv); a changed SHA256SUMS does not;
#   - the tarball holds every file of the tree, sorted, owned by 0/0, with
#     the commit's time, gzip without name or time;
#   - the .debs are byte for byte those the package phase built from the
#     same commit (PKG_DEBS=DIR; without it tests/package/package-test.sh
#     --build-only builds them here);
#   - the apt repository, served over HTTP on a private port and read
#     through a private apt configuration (sources, lists, cache, keys:
#     nothing of the machine's apt is read or changed): `apt-get update` and
#     `apt-get download collectd-winperf` succeed with a signed-by entry;
#     a tampered InRelease, a key other than the repository's, and a
#     tampered .deb are refused;
#   - Authenticode (scripts/codesign.sh, osslsigncode): a mingw-w64 PE and a
#     tiny wixl MSI signed with a certificate of a throwaway CA verify with
#     `osslsigncode verify -CAfile`; one changed byte, or another CA, fails.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   tests/package/release-test.sh       (make release-test; tests/run runs
#                                       it after the package phase)

: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
top=$top_srcdir
# shellcheck source=tests/e2e/lib.sh
. "$top/tests/e2e/lib.sh"
need gpg gpgv apt-ftparchive osslsigncode openssl wixl python3 git x86_64-w64-mingw32-gcc \
  dpkg-buildpackage
e2e_init release
W=$E2E_DIR
export GNUPGHOME=$W/gnupg
mkdir -m 700 "$GNUPGHOME"
# gpg starts an agent for this GNUPGHOME: stop it with the rest.
trap 'gpgconf --kill all >/dev/null 2>&1; e2e_cleanup' EXIT

eval "$("$top/scripts/version.sh")"
V=$VERSION
arch=$(dpkg --print-architecture)

# ------------------------------------------------------------ the release
gen_key() { # gen_key NAME: a new ed25519 signing key, prints its fingerprint
  gpg --batch --pinentry-mode loopback --passphrase '' \
    --quick-gen-key "$1 <release-test@invalid>" ed25519 sign never >/dev/null 2>&1 &&
    gpg --batch --with-colons --list-keys "$1" 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }'
}
fpr=$(gen_key "collectd-winperf release test")
[ -n "$fpr" ]
e2e_ok $? "throwaway GPG key $fpr"

out=$W/out
"$top/scripts/release.sh" --skip-windows --allow-dirty --gpg-key "$fpr" "$out" >"$W/release.log" 2>&1
status=$?
[ "$status" -eq 0 ] || tail -30 "$W/release.log" | e2e_diag
e2e_ok "$status" "scripts/release.sh --skip-windows --gpg-key ... (version $V)"
grep '^release:' "$W/release.log" | e2e_diag
tarball=collectd-winperf-$V.tar.gz
debs="collectd-winperf_${V}_$arch.deb collectd-winperf-remote_${V}_$arch.deb"
want="SHA256SUMS SHA256SUMS.asc $debs $tarball"
got=$(cd "$out" 2>/dev/null && find . -maxdepth 1 -type f -printf '%f\n' | sort | tr '\n' ' ')
e2e_is "$got" "$(echo "$want" | tr ' ' '\n' | sort | tr '\n' ' ')" \
  "OUTDIR: the tarball, both .debs, SHA256SUMS and SHA256SUMS.asc"

# ------------------------------------------------------------- checksums
(cd "$out" && sha256sum -c SHA256SUMS) >"$W/sums.log" 2>&1
e2e_ok $? "sha256sum -c SHA256SUMS: $(grep -c ': OK$' "$W/sums.log") files OK"
n=$(wc -l <"$out/SHA256SUMS")
e2e_is "$n" 3 "SHA256SUMS lists the tarball and the two .debs"
gpgv --keyring "$out/apt/KEY.gpg" "$out/SHA256SUMS.asc" "$out/SHA256SUMS" >"$W/gpgv.log" 2>&1
e2e_ok $? "gpgv with the published key (apt/KEY.gpg) alone: SHA256SUMS.asc is a good signature of SHA256SUMS"
sed 's/^./0/' "$out/SHA256SUMS" >"$W/SHA256SUMS.changed"
! gpgv --keyring "$out/apt/KEY.gpg" "$out/SHA256SUMS.asc" "$W/SHA256SUMS.changed" >/dev/null 2>&1
e2e_ok $? "gpgv: a SHA256SUMS with one changed character does not verify"

# --------------------------------------------------------------- tarball
# Every file of the tree (the dotfiles of git aside), entries in name order,
# owner 0/0, the time of the commit; gzip's header without name or time.
listing=$(tar -tvzf "$out/$tarball" --full-time --numeric-owner 2>/dev/null)
names=$(tar -tzf "$out/$tarball" 2>/dev/null | grep -v '/$' | sed "s|^collectd-winperf-$V/||" | sort)
missing=$(cd "$top" && git ls-files | grep -vE '(^|/)\.(gitignore|gitattributes|keep)$' | sort | comm -23 - <(printf '%s\n' "$names"))
[ -n "$names" ] && [ -z "$missing" ]
e2e_ok $? "the tarball holds every file of the tree ($(printf '%s\n' "$names" | grep -c .) files)"
[ -z "$missing" ] || printf 'missing: %s\n' $missing | head -20 | e2e_diag
owners=$(printf '%s\n' "$listing" | awk '{ print $2 }' | sort -u | tr '\n' ' ')
e2e_is "$owners" "0/0 " "tarball entries owned by 0/0"
stamp=$(date -u -d "@$SOURCE_DATE_EPOCH" '+%Y-%m-%d %H:%M:%S')
times=$(printf '%s\n' "$listing" | awk '{ print $4, $5 }' | sort -u | tr '\n' ' ')
e2e_is "$times" "$stamp " "every tarball entry has the commit's time ($stamp UTC)"
# tar --sort=name: each directory's entries in byte order of their names
tar -tzf "$out/$tarball" 2>/dev/null | python3 -c '
import sys
last = {}
n = 0
for line in sys.stdin:
    path = line.rstrip("\n").rstrip("/")
    parent, _, name = path.rpartition("/")
    if parent in last and last[parent] >= name.encode():
        sys.exit("out of order: %s after %s" % (path, last[parent]))
    last[parent] = name.encode()
    n += 1
sys.exit(0 if n > 0 else "empty")' 2>&1 | e2e_diag
e2e_ok "${PIPESTATUS[1]}" "tarball entries in name order, directory by directory"
# gzip header: FLG (byte 3) without FNAME (8), MTIME (bytes 4-7) zero
hdr=$(od -An -tx1 -N8 "$out/$tarball" | tr -d ' \n')
case $hdr in 1f8b08[0-9a-f][0-7]00000000) r=0 ;; *) r=1 ;; esac
e2e_ok $r "gzip header without file name or time ($hdr)"
tar -xzOf "$out/$tarball" "collectd-winperf-$V/configure.ac" 2>/dev/null |
  grep -q "^AC_INIT(\[collectd-winperf\], \[$V\]"
e2e_ok $? "the tarball's configure.ac carries version $V"

# ------------------------------------------------ .debs as the package phase
pkg=${PKG_DEBS:-}
if [ -z "$pkg" ]; then
  pkg=$W/packages
  PKG_OUT=$pkg bash "$top/tests/package/package-test.sh" --build-only >"$W/package.log" 2>&1 ||
    grep '^not ok' "$W/package.log" | e2e_diag
fi
for d in $debs; do
  cmp "$out/$d" "$pkg/$d" >"$W/cmp.log" 2>&1
  status=$?
  e2e_diag <"$W/cmp.log"
  e2e_ok "$status" "$d is byte for byte the package phase's ($pkg)"
done
dpkg-deb -f "$out/collectd-winperf_${V}_$arch.deb" Version 2>/dev/null | grep -qx "$V"
e2e_ok $? "the .deb's version is $V"

# --------------------------------------------------------- apt repository
# Three copies of the repository side by side behind one HTTP server: as
# released, with one changed line in InRelease, with one changed byte in
# the .deb. Each is read through its own private apt configuration.
web=$W/web
mkdir -p "$web"
cp -r "$out/apt" "$web/good"
cp -r "$out/apt" "$web/badrelease"
cp -r "$out/apt" "$web/baddeb"
suite=$(sed -n 's/^Suite: //p' "$out/apt/dists/"*/Release | head -1)
sed -i 's/^Label: collectd-winperf$/Label: collectd-winperX/' "$web/badrelease/dists/$suite/InRelease"
grep -q '^Label: collectd-winperX$' "$web/badrelease/dists/$suite/InRelease"
e2e_ok $? "tampered copy: InRelease's Label changed (suite $suite)"
pooldeb=$web/baddeb/pool/main/c/collectd-winperf/collectd-winperf_${V}_$arch.deb
# the byte's complement: a fixed value is already there in one build of 256
byte=$(od -An -tu1 -j4000 -N1 "$pooldeb" | tr -d ' ')
# shellcheck disable=SC2059 # the format is the octal escape of that byte
printf "\\$(printf %03o $((255 - byte)))" | dd of="$pooldeb" bs=1 seek=4000 conv=notrunc 2>/dev/null
! cmp -s "$pooldeb" "$out/collectd-winperf_${V}_$arch.deb"
e2e_ok $? "tampered copy: one byte of the pool's collectd-winperf .deb changed (size kept)"
other=$(gen_key "not the release key")
gpg --batch --export "$other" >"$W/other.gpg"

port=$(e2e_free_port tcp)
e2e_spawn "$W/http.log" python3 -m http.server --bind 127.0.0.1 --directory "$web" "$port"
e2e_wait_for 30 e2e_tcp_open "$port"
e2e_ok $? "HTTP server for the repositories on 127.0.0.1:$port"

# apt_env NAME REPO KEYFILE: a private apt configuration in $W/apt-NAME with
# one deb822 source, http://127.0.0.1:PORT/REPO signed-by KEYFILE; prints
# the APT_CONFIG file.
apt_env() {
  local d=$W/apt-$1
  mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/sources.list.d" \
    "$d/preferences.d" "$d/trusted.gpg.d" "$d/log" "$d/dl"
  : >"$d/sources.list"
  : >"$d/status"
  cp "$3" "$d/key.gpg"
  cat >"$d/sources.list.d/collectd-winperf.sources" <<EOF
Types: deb
URIs: http://127.0.0.1:$port/$2/
Suites: $suite
Components: main
Signed-By: $d/key.gpg
EOF
  cat >"$d/apt.conf" <<EOF
Dir::Etc::SourceList "$d/sources.list";
Dir::Etc::SourceParts "$d/sources.list.d";
Dir::Etc::Preferences "$d/preferences";
Dir::Etc::PreferencesParts "$d/preferences.d";
Dir::Etc::Trusted "$d/trusted.gpg";
Dir::Etc::TrustedParts "$d/trusted.gpg.d";
Dir::State::Lists "$d/lists";
Dir::State::status "$d/status";
Dir::Cache "$d/cache";
Dir::Log "$d/log";
APT::Sandbox::User "root";
Acquire::Languages "none";
Acquire::http::Proxy "DIRECT";
EOF
  echo "$d/apt.conf"
}
apt_run() { # apt_run CONF LOG ARGS...: apt-get with that configuration
  local conf=$1 log=$2
  shift 2
  APT_CONFIG=$conf apt-get -q "$@" >"$log" 2>&1
}

conf=$(apt_env good good "$out/apt/KEY.gpg")
apt_run "$conf" "$W/update-good.log" update
status=$?
grep -E '^(E|W):' "$W/update-good.log" | e2e_diag
! grep -q '^[EW]:' "$W/update-good.log"
e2e_ok $((status || $?)) "apt-get update through a signed-by source: no error, no warning"
(cd "$W/apt-good/dl" && APT_CONFIG=$conf apt-get -q download collectd-winperf collectd-winperf-remote) >"$W/download.log" 2>&1
status=$?
[ "$status" -eq 0 ] || e2e_diag <"$W/download.log"
cmp -s "$W/apt-good/dl/collectd-winperf_$(printf '%s' "$V" | sed 's/:/%3a/')_$arch.deb" "$out/collectd-winperf_${V}_$arch.deb"
e2e_ok $((status || $?)) "apt-get download collectd-winperf collectd-winperf-remote: the released .deb arrives"
APT_CONFIG=$conf apt-cache policy collectd-winperf 2>/dev/null | grep -q "Candidate: $V"
e2e_ok $? "apt-cache policy: candidate $V from the repository"

conf=$(apt_env badrelease badrelease "$out/apt/KEY.gpg")
apt_run "$conf" "$W/update-badrelease.log" update
status=$?
grep -E '^(E|W):' "$W/update-badrelease.log" | e2e_diag
[ "$status" -ne 0 ] && grep -qiE 'BADSIG|signatures were invalid|not signed' "$W/update-badrelease.log" &&
  ! APT_CONFIG=$conf apt-cache show collectd-winperf >/dev/null 2>&1
e2e_ok $? "a tampered InRelease is refused (apt-get update fails, no package known)"

conf=$(apt_env otherkey good "$W/other.gpg")
apt_run "$conf" "$W/update-otherkey.log" update
status=$?
grep -E '^(E|W):' "$W/update-otherkey.log" | e2e_diag
[ "$status" -ne 0 ] && grep -qiE 'NO_PUBKEY|not signed' "$W/update-otherkey.log" &&
  ! APT_CONFIG=$conf apt-cache show collectd-winperf >/dev/null 2>&1
e2e_ok $? "signed-by another key: the repository is refused"

conf=$(apt_env baddeb baddeb "$out/apt/KEY.gpg")
apt_run "$conf" "$W/update-baddeb.log" update
e2e_ok $? "apt-get update of the copy with the tampered .deb (its index is intact)"
(cd "$W/apt-baddeb/dl" && APT_CONFIG=$conf apt-get -q download collectd-winperf) >"$W/download-bad.log" 2>&1
status=$?
grep -E '^(E|W):' "$W/download-bad.log" | e2e_diag
[ "$status" -ne 0 ] && grep -qiE 'hash sum mismatch|hashes' "$W/download-bad.log" &&
  ! ls "$W/apt-baddeb/dl/"*.deb >/dev/null 2>&1
e2e_ok $? "apt-get download of the tampered .deb fails (hash sum mismatch), no .deb kept ($(ls "$W/apt-baddeb/dl" | tr '\n' ' '))"

# ----------------------------------------------------------- Authenticode
# A throwaway CA and a code-signing certificate it issued; a PE built with
# mingw-w64 and a tiny MSI holding it.
cs=$W/codesign
mkdir -p "$cs"
mkca() { # mkca NAME: NAME.key and the self-signed NAME.pem
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$cs/$1.key" -out "$cs/$1.pem" -days 2 \
    -subj "/CN=collectd-winperf release test $1" -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" >/dev/null 2>&1
}
mkca ca && mkca otherca &&
  openssl req -newkey rsa:2048 -nodes -keyout "$cs/signer.key" -out "$cs/signer.csr" \
    -subj "/CN=collectd-winperf release test signer" >/dev/null 2>&1 &&
  printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=codeSigning\n' >"$cs/ext.cnf" &&
  openssl x509 -req -in "$cs/signer.csr" -CA "$cs/ca.pem" -CAkey "$cs/ca.key" -CAcreateserial \
    -out "$cs/signer.pem" -days 2 -extfile "$cs/ext.cnf" >/dev/null 2>&1
e2e_ok $? "throwaway CA and a code-signing certificate it issued (openssl)"
printf '#include <stdio.h>\nint main(void) { puts("signed"); return 0; }\n' >"$cs/hello.c"
x86_64-w64-mingw32-gcc -O2 -o "$cs/hello.exe" "$cs/hello.c" &&
  cat >"$cs/tiny.wxs" <<'EOF' &&
<?xml version="1.0" encoding="utf-8"?>
<Wix xmlns="http://schemas.microsoft.com/wix/2006/wi">
  <Product Id="*" Name="collectd-winperf signing test" Language="1033" Version="1.0.0"
           Manufacturer="collectd-winperf" UpgradeCode="0D6A3C7E-5B0F-4C55-9C2A-7E4E1B2C3D41">
    <Package InstallerVersion="500" Compressed="yes" InstallScope="perMachine"/>
    <Media Id="1" Cabinet="tiny.cab" EmbedCab="yes"/>
    <Directory Id="TARGETDIR" Name="SourceDir">
      <Directory Id="ProgramFiles64Folder">
        <Directory Id="INSTALLDIR" Name="signtest">
          <Component Id="Hello" Guid="0D6A3C7E-5B0F-4C55-9C2A-7E4E1B2C3D42" Win64="yes">
            <File Id="hello.exe" Name="hello.exe" Source="hello.exe" KeyPath="yes"/>
          </Component>
        </Directory>
      </Directory>
    </Directory>
    <Feature Id="All" Level="1"><ComponentRef Id="Hello"/></Feature>
  </Product>
</Wix>
EOF
  (cd "$cs" && wixl -a x64 -o tiny.msi tiny.wxs) >"$cs/wixl.log" 2>&1
e2e_ok $? "a mingw-w64 PE (hello.exe) and a wixl MSI holding it"
"$top/scripts/codesign.sh" --cert "$cs/signer.pem" --key "$cs/signer.key" --ca "$cs/ca.pem" \
  "$cs/hello.exe" "$cs/tiny.msi" >"$cs/sign.log" 2>&1
status=$?
e2e_diag <"$cs/sign.log"
e2e_ok "$status" "scripts/codesign.sh signs hello.exe and tiny.msi"
for f in hello.exe tiny.msi; do
  osslsigncode verify -CAfile "$cs/ca.pem" -in "$cs/$f" >"$cs/verify-$f.log" 2>&1
  status=$?
  [ "$status" -eq 0 ] || tail -5 "$cs/verify-$f.log" | e2e_diag
  grep -q 'Signature verification: ok' "$cs/verify-$f.log"
  e2e_ok $((status || $?)) "osslsigncode verify -CAfile ca.pem $f: ok"
  ! osslsigncode verify -CAfile "$cs/otherca.pem" -in "$cs/$f" >/dev/null 2>&1
  e2e_ok $? "$f does not verify against another CA"
done
# One byte changed where the signature covers it: the DOS stub's text of the
# PE, the embedded cabinet (the payload) of the MSI.
flip() { # flip FILE TEXT DELTA: copy FILE to FILE.changed with the byte at
  # (first offset of TEXT + DELTA) inverted; fails when TEXT is not there
  local off
  off=$(grep -boa -m1 -F "$2" "$1" | head -1 | cut -d: -f1)
  [ -n "$off" ] || return 1
  cp "$1" "$1.changed"
  python3 -c 'import sys
p, o = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, "rb").read()); b[o] ^= 0xff; open(p, "wb").write(b)' "$1.changed" $((off + $3))
}
flip "$cs/hello.exe" 'This program cannot' 2 &&
  ! osslsigncode verify -CAfile "$cs/ca.pem" -in "$cs/hello.exe.changed" >"$cs/verify-bad-exe.log" 2>&1 &&
  grep -qi 'mismatch\|failed' "$cs/verify-bad-exe.log"
e2e_ok $? "hello.exe with one byte changed (DOS stub): verification fails"
flip "$cs/tiny.msi" 'MSCF' 40 &&
  ! osslsigncode verify -CAfile "$cs/ca.pem" -in "$cs/tiny.msi.changed" >"$cs/verify-bad-msi.log" 2>&1 &&
  grep -qi 'mismatch\|failed' "$cs/verify-bad-msi.log"
e2e_ok $? "tiny.msi with one byte of its cabinet changed: verification fails"

e2e_done
