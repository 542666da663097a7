#!/bin/bash
# collectd-winperf: build a release from this tree (a git checkout, a `git
# archive` or a release tarball): the source tarball, the Debian packages,
# the MSI and a zip of winperf.exe, their checksums, and optionally the
# signatures and a signed apt repository.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   scripts/release.sh [OPTIONS] OUTDIR          (or: make release)
#     --skip-windows          no MSI and no winperf zip (no cross build)
#     --full-check            make distcheck runs all of make check (root,
#                             Wine, servers); by default only the unit suites
#     --gpg-key ID            sign SHA256SUMS (SHA256SUMS.asc) and build the
#                             signed apt repository OUTDIR/apt (gpg's
#                             GNUPGHOME and agent are used as they are)
#     --suite NAME            the apt suite (default: this machine's Debian
#                             codename, the collectd-core the .debs need)
#     --codesign-cert FILE    with --codesign-key: Authenticode-sign
#     --codesign-key FILE     collectd.exe, winperf.exe, every DLL and the MSI
#     --codesign-ca FILE      the root the new signatures are checked against
#                             (a private CA; default the system's bundle)
#     --timestamp URL         an RFC 3161 time-stamping server for them
#     --windows-build DIR     the collectd cross build to reuse (default
#                             build/windows of this tree; about 14 minutes
#                             from scratch on 2 idle cores, an hour loaded)
#     --allow-dirty           build a checkout with uncommitted changes (the
#                             tests do; the version is then the commit's)
#     --keep-work             keep the work directory (printed)
#
# OUTDIR (created; must be empty) receives, VERSION from scripts/version.sh:
#   collectd-winperf-VERSION.tar.gz      `make distcheck`'s tarball
#   collectd-winperf_VERSION_ARCH.deb, collectd-winperf-remote_VERSION_ARCH.deb
#                                        dpkg-buildpackage, from the tarball
#   collectd-winperf-VERSION-x64.msi     windows/build-msi.sh, from the tarball
#   winperf-VERSION-x64.zip              winperf.exe and the DLLs it needs
#   SHA256SUMS [SHA256SUMS.asc]          the files above [signed]
#   apt/                                 [the signed repository: dists/SUITE/
#                                        {InRelease,Release,Release.gpg},
#                                        pool/, KEY.gpg]
# The tarball and the .debs are reproducible: two runs from one commit give
# the same bytes (SOURCE_DATE_EPOCH from the commit, tar with sorted names,
# numeric owners and that time, gzip without name or time; the .debs from
# debian/changelog's date, as any dpkg-buildpackage). The MSI is not (wixl
# writes a new package code and the build time): compare the files inside
# (msiextract). doc/release.md has the whole procedure.
set -euo pipefail
umask 022
export LC_ALL=C TZ=UTC

top=$(cd "$(dirname "$0")/.." && pwd -P)
NEED_FAIL=need_fail_die
top_srcdir=$top
# shellcheck source-path=SCRIPTDIR source=../tests/lib/need.sh
. "$top/tests/lib/need.sh"

die() {
  echo "release.sh: $*" >&2
  exit 1
}
usage() { sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0"; }

windows=yes full=no gpg_key="" suite="" cs_cert="" cs_key="" cs_ca="" ts_url=""
winbuild="" keep=no dirty_ok=no out=""
while [ $# -gt 0 ]; do
  case $1 in
  --skip-windows) windows=no && shift ;;
  --full-check) full=yes && shift ;;
  --gpg-key) gpg_key=$2 && shift 2 ;;
  --suite) suite=$2 && shift 2 ;;
  --codesign-cert) cs_cert=$2 && shift 2 ;;
  --codesign-key) cs_key=$2 && shift 2 ;;
  --codesign-ca) cs_ca=$2 && shift 2 ;;
  --timestamp) ts_url=$2 && shift 2 ;;
  --windows-build) winbuild=$2 && shift 2 ;;
  --keep-work) keep=yes && shift ;;
  --allow-dirty) dirty_ok=yes && shift ;;
  -h | --help) usage && exit 0 ;;
  -*) die "unknown option $1 (--help)" ;;
  *)
    [ -z "$out" ] || die "one OUTDIR only"
    out=$1 && shift
    ;;
  esac
done
[ -n "$out" ] || die "no OUTDIR (--help)"
{ [ -z "$cs_cert" ] && [ -z "$cs_key" ]; } || { [ -r "$cs_cert" ] && [ -r "$cs_key" ]; } ||
  die "--codesign-cert and --codesign-key go together (readable PEM files)"
[ -z "$cs_cert" ] || [ "$windows" = yes ] || die "--codesign-* signs the Windows files: not with --skip-windows"
mkdir -p "$out"
out=$(cd "$out" && pwd -P)
[ -z "$(ls -A "$out")" ] || die "$out is not empty"

need autoreconf automake libtoolize make gcc dpkg-buildpackage
[ -z "$gpg_key" ] || need gpg apt-ftparchive
[ "$windows" = no ] || need zip x86_64-w64-mingw32-objdump
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
arch=$(dpkg --print-architecture)
suite=${suite:-$(. /etc/os-release && echo "${VERSION_CODENAME:-stable}")}

eval "$("$top/scripts/version.sh")"
export SOURCE_DATE_EPOCH
[ "$DIRTY" = no ] || [ "$dirty_ok" = yes ] ||
  die "the checkout has uncommitted changes: commit them (or --allow-dirty for a test build)"
work=$(mktemp -d "${TMPDIR:-/tmp}/collectd-winperf-release.XXXXXX")
finish() {
  if [ "$keep" = yes ] || [ "${1:-0}" -ne 0 ]; then
    echo "release.sh: work directory kept: $work" >&2
  else
    rm -rf "$work"
  fi
}
trap 'finish $?' EXIT
T0=$(date +%s)
log() { printf 'release: [%4ds] %s\n' $(($(date +%s) - T0)) "$*"; }
# run LOG CMD...: CMD's output to $work/LOG; on failure its end, and stop.
run() {
  local l=$work/$1
  shift
  "$@" >"$l" 2>&1 || {
    tail -40 "$l" >&2
    die "failed: $* (log: $l)"
  }
}
log "collectd-winperf $VERSION (commit ${COMMIT:-none}, SOURCE_DATE_EPOCH $SOURCE_DATE_EPOCH) -> $out"

# ------------------------------------------------------- source tarball
# A clean, stamped copy; its tarball by make distcheck, packed the same way
# every time (automake's am__tar with GNU tar's reproducibility options and
# its own format, which takes names of any length (v7 drops those over 99);
# gzip -n: no name, no time).
src=$work/src
run copy.log "$top/scripts/source-copy.sh" "$src"
run autogen.log sh -c "cd '$src' && ./autogen.sh"
mkdir -p "$work/build"
run configure.log sh -c "cd '$work/build' && '$src/configure'"
check_args=()
if [ "$full" = no ]; then
  # The unit suites: every test that is a compiled program (the .sh tests
  # start servers, collectd, Wine or need root).
  # Only their programs are built (check_PROGRAMS: not the capture
  # generators and corpus runners the other tests use).
  units=$(make -s -C "$work/build" print-tests | tr ' ' '\n' | grep -v '\.sh$' | grep . | tr '\n' ' ')
  check_args=(TESTS="$units" check_PROGRAMS="$units")
fi
tar_cmd="tar --sort=name --owner=0 --group=0 --numeric-owner --mode=go-w --mtime=@$SOURCE_DATE_EPOCH --format=gnu -chf - \"\$\$tardir\""
log "make distcheck ($([ "$full" = yes ] && echo "all of make check" || echo "$(wc -w <<<"$units") unit suites"))"
run distcheck.log make -C "$work/build" -j"$jobs" distcheck "am__tar=$tar_cmd" \
  GZIP_ENV="--best --no-name" "${check_args[@]}"
tarball=collectd-winperf-$VERSION.tar.gz
[ -f "$work/build/$tarball" ] || die "make distcheck wrote no $tarball"
cp "$work/build/$tarball" "$out/"

# ------------------------------------------------------ Debian packages
# From the tarball, as anyone would build them; SOURCE_DATE_EPOCH from
# debian/changelog (dpkg-buildpackage's own rule), as tests/package does.
log "dpkg-buildpackage from $tarball"
mkdir -p "$work/deb"
tar -xzf "$out/$tarball" -C "$work/deb"
run debs.log sh -c "cd '$work/deb/collectd-winperf-$VERSION' && env -u SOURCE_DATE_EPOCH dpkg-buildpackage -us -uc -b"
debs=("collectd-winperf_${VERSION}_$arch.deb" "collectd-winperf-remote_${VERSION}_$arch.deb")
for d in "${debs[@]}"; do
  [ -f "$work/deb/$d" ] || die "dpkg-buildpackage wrote no $d"
  cp "$work/deb/$d" "$out/"
done

# --------------------------------------------------------------- Windows
if [ "$windows" = yes ]; then
  wsrc=$work/win/collectd-winperf-$VERSION
  mkdir -p "$work/win"
  tar -xzf "$out/$tarball" -C "$work/win"
  winbuild=${winbuild:-$top/build/windows}
  log "windows/build-collectd.sh $winbuild (from scratch: minutes to an hour)"
  run windows.log "$wsrc/windows/build-collectd.sh" "$winbuild"
  dist=$work/win/dist
  cp -r "$winbuild/dist" "$dist"
  sign() {
    local ca=()
    [ -z "$cs_ca" ] || ca=(--ca "$cs_ca")
    [ -z "$ts_url" ] || ca+=(--timestamp "$ts_url")
    run codesign.log "$top/scripts/codesign.sh" --cert "$cs_cert" --key "$cs_key" "${ca[@]}" \
      --url https://github.com/collectd-winperf "$@"
  }
  if [ -n "$cs_cert" ]; then
    mapfile -t pe < <(find "$dist" -type f \( -name '*.exe' -o -name '*.dll' \) | sort)
    log "Authenticode: ${#pe[@]} programs and DLLs"
    sign "${pe[@]}"
  fi
  msi=collectd-winperf-$VERSION-x64.msi
  log "windows/build-msi.sh -> $msi (MSI version $MSI_VERSION)"
  run msi.log "$wsrc/windows/build-msi.sh" --dist "$dist" --out "$out/$msi" \
    --version "$VERSION" --msi-version "$MSI_VERSION" "$winbuild"
  [ -z "$cs_cert" ] || sign "$out/$msi"

  # winperf.exe alone: the tool and the DLLs it imports from dist/, the
  # licence and a short README; fixed times and order (zip -X: no extra
  # attributes), so the zip is the same for the same binaries.
  zdir=$work/zip/winperf-$VERSION
  mkdir -p "$zdir"
  cp "$dist/winperf.exe" "$top/LICENSE" "$zdir/"
  for dll in $(x86_64-w64-mingw32-objdump -p "$dist/winperf.exe" | sed -n 's/^\s*DLL Name: //p'); do
    [ ! -f "$dist/$dll" ] || cp "$dist/$dll" "$zdir/"
  done
  printf 'winperf %s, the collectd-winperf command-line tool for Windows (x64).\r\n\r\n  winperf query "\\Processor(*)\\%% Processor Time"\r\n  winperf names --grep Processor\r\n  winperf doctor\r\n\r\nSee winperf(1) in the source tarball (doc/winperf.1) or the README there.\r\n' \
    "$VERSION" >"$zdir/README.txt"
  find "$work/zip" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
  zip_name=winperf-$VERSION-x64.zip
  (cd "$work/zip" && find "winperf-$VERSION" -type f | sort | zip -X -q -@ "$out/$zip_name")
fi

# ------------------------------------------------------------- checksums
(cd "$out" && find . -maxdepth 1 -type f -printf '%f\n' | sort | xargs sha256sum >"$work/SHA256SUMS")
mv "$work/SHA256SUMS" "$out/SHA256SUMS"
if [ -n "$gpg_key" ]; then
  fpr=$(gpg --batch --with-colons --fingerprint "$gpg_key" 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }')
  [ -n "$fpr" ] || die "gpg knows no key $gpg_key"
  log "signing with $fpr"
  run gpg.log gpg --batch --yes --local-user "$fpr" --armor --detach-sign \
    --output "$out/SHA256SUMS.asc" "$out/SHA256SUMS"

  # The apt repository: apt-ftparchive writes Packages and Release, gpg
  # signs Release (InRelease inline, Release.gpg detached).
  repo=$out/apt
  dists=dists/$suite
  mkdir -p "$repo/pool/main/c/collectd-winperf" "$repo/$dists/main/binary-$arch"
  for d in "${debs[@]}"; do cp "$out/$d" "$repo/pool/main/c/collectd-winperf/"; done
  (cd "$repo" && apt-ftparchive packages pool/main >"$dists/main/binary-$arch/Packages" &&
    gzip -9n -k "$dists/main/binary-$arch/Packages") 2>"$work/apt.log" ||
    die "apt-ftparchive packages failed: $(cat "$work/apt.log")"
  (cd "$repo" && apt-ftparchive \
    -o APT::FTPArchive::Release::Origin=collectd-winperf \
    -o APT::FTPArchive::Release::Label=collectd-winperf \
    -o APT::FTPArchive::Release::Suite="$suite" \
    -o APT::FTPArchive::Release::Codename="$suite" \
    -o APT::FTPArchive::Release::Architectures="$arch" \
    -o APT::FTPArchive::Release::Components=main \
    -o APT::FTPArchive::Release::Description="collectd-winperf $VERSION" \
    release "$dists" >"$work/Release") 2>>"$work/apt.log" ||
    die "apt-ftparchive release failed: $(cat "$work/apt.log")"
  mv "$work/Release" "$repo/$dists/Release"
  run gpg.log gpg --batch --yes --local-user "$fpr" --clearsign \
    --output "$repo/$dists/InRelease" "$repo/$dists/Release"
  run gpg.log gpg --batch --yes --local-user "$fpr" --armor --detach-sign \
    --output "$repo/$dists/Release.gpg" "$repo/$dists/Release"
  gpg --batch --export "$fpr" >"$repo/KEY.gpg"
fi

log "done"
(cd "$out" && find . -type f -printf '%s\t%P\n' | sort -k2 |
  awk -F'\t' '{ printf "  %10d  %s\n", $1, $2 }')
[ -z "$gpg_key" ] || echo "  signed by $fpr (publish this fingerprint: doc/release.md)"
