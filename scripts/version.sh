#!/bin/bash
# collectd-winperf: the version, SOURCE_DATE_EPOCH and commit of this source
# tree, and stamping them into a copy of it (for scripts/release.sh and
# tests/package/package-test.sh, so both build the same version).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   scripts/version.sh                prints VERSION=, SOURCE_DATE_EPOCH=,
#                                     COMMIT=, DIRTY= and MSI_VERSION=
#                                     (shell assignments, for eval)
#   scripts/version.sh --stamp DIR    writes them into DIR (a copy of this
#                                     tree): configure.ac's AC_INIT, a
#                                     debian/changelog entry, the man pages'
#                                     .TH lines, scripts/release-info
#
# Where they come from, first that applies:
#   1. a git checkout (this tree is the top of one): the commit; a tag vX.Y.Z
#      on it gives X.Y.Z, else X.Y.Z~gitYYYYMMDD.HHMMSS.SHORTSHA (the commit
#      time, UTC), X.Y.Z being configure.ac's version, or the newest
#      reachable tag's with its last number plus one when that tag is not
#      older. SOURCE_DATE_EPOCH: the commit time. DIRTY=yes when tracked
#      files differ from the commit or untracked ones are not ignored (the
#      version stays the commit's: a marker would make the .debs' file names
#      longer than lintian allows; scripts/release.sh refuses such a tree
#      unless --allow-dirty).
#   2. scripts/release-info stamped by --stamp (a release tarball): as stamped.
#   3. scripts/release-info filled in by `git archive` (export-subst,
#      .gitattributes): as in 1 from its commit, time and tag names (no
#      reachable tags are known there).
#   4. any other tree: X.Y.Z~srcYYYYMMDD.HHMMSS from SOURCE_DATE_EPOCH = the
#      newest file time in the tree (build/ left out), else the date of
#      debian/changelog's first entry.
# The time of day is in the snapshot version so that two snapshots of one
# day still sort in commit order for apt (the short hash alone would not).
#
# MSI_VERSION: Windows Installer compares three numbers (each field at most
# 255.255.65535); X.Y.Z for a release, X.Y.Z.D for a snapshot with D the
# days from 2000-01-01 to the commit (the fourth field is shown, never
# compared: windows/README.md says what that means for upgrades).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd -P)
NEED_FAIL=need_fail_die
top_srcdir=$top
# shellcheck source-path=SCRIPTDIR source=../tests/lib/need.sh
. "$top/tests/lib/need.sh"
need dpkg-parsechangelog

die() {
  echo "version.sh: $*" >&2
  exit 1
}

stamp_dir=""
case "${1:-}" in
--stamp)
  [ $# -eq 2 ] || die "usage: version.sh [--stamp DIR]"
  stamp_dir=$2
  [ -f "$stamp_dir/configure.ac" ] && [ -f "$stamp_dir/debian/changelog" ] ||
    die "$stamp_dir is not a copy of the source tree (no configure.ac or debian/changelog)"
  ;;
"") ;;
*) die "usage: version.sh [--stamp DIR]" ;;
esac

info=$top/scripts/release-info
info_get() { sed -n "s/^$1=//p" "$info" 2>/dev/null | head -1; }
base=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "$top/configure.ac")
base=${base%%~*}
[[ $base =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "configure.ac's version '$base' is not X.Y.Z"

# snapshot EPOCH KIND SUFFIX: X.Y.Z~KINDYYYYMMDD.HHMMSS[SUFFIX]
snapshot() { printf '%s~%s%s%s' "$base" "$2" "$(date -u -d "@$1" +%Y%m%d.%H%M%S)" "$3"; }
# tag_version "TAG...": the highest X.Y.Z of the vX.Y.Z among the words
tag_version() {
  tr ' ,' '\n\n' <<<"$1" | sed -n 's/^v\([0-9]\{1,\}\.[0-9]\{1,\}\.[0-9]\{1,\}\)$/\1/p' | sort -V | tail -1
}

commit=""
dirty=no
if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$top" ]; then
  need git
  commit=$(git -C "$top" rev-parse HEAD)
  epoch=$(git -C "$top" log -1 --format=%ct HEAD)
  version=$(tag_version "$(git -C "$top" tag --points-at HEAD | tr '\n' ' ')")
  if [ -z "$version" ]; then
    last=$(tag_version "$(git -C "$top" describe --tags --abbrev=0 --match 'v[0-9]*' HEAD 2>/dev/null || true)")
    if [ -n "$last" ] && dpkg --compare-versions "$last" ge "$base"; then
      base=${last%.*}.$((${last##*.} + 1))
    fi
    version=$(snapshot "$epoch" git ".$(git -C "$top" rev-parse --short=7 HEAD)")
  fi
  [ -z "$(git -C "$top" status --porcelain 2>/dev/null)" ] || dirty=yes
elif [ -n "$(info_get version)" ]; then
  version=$(info_get version)
  epoch=$(info_get epoch)
  commit=$(info_get commit)
elif [[ "$(info_get commit)" =~ ^[0-9a-f]{40}$ ]]; then
  commit=$(info_get commit)
  epoch=$(info_get epoch)
  version=$(tag_version "$(info_get refs | sed 's/tag: //g')")
  [ -n "$version" ] || version=$(snapshot "$epoch" git ".${commit:0:7}")
else
  epoch=$(find "$top" -path "$top/build" -prune -o -path "$top/.git" -prune -o -type f -printf '%T@\n' |
    sort -n | tail -1 | cut -d. -f1)
  if [ -z "$epoch" ] || [ "$epoch" -le 0 ]; then
    epoch=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Timestamp)
  fi
  version=$(snapshot "$epoch" src "")
fi
[[ $epoch =~ ^[0-9]+$ ]] || die "no usable time for SOURCE_DATE_EPOCH (got '$epoch')"

# X.Y.Z -> X.Y.Z; X.Y.Z~... -> X.Y.Z.D
msi=${version%%~*}
msi=${msi%%[!0-9.]*}
[ "$msi" = "$version" ] || msi=$msi.$(((epoch - 946684800) / 86400))

if [ -z "$stamp_dir" ]; then
  printf 'VERSION=%s\nSOURCE_DATE_EPOCH=%s\nCOMMIT=%s\nDIRTY=%s\nMSI_VERSION=%s\n' \
    "$version" "$epoch" "$commit" "$dirty" "$msi"
  exit 0
fi

# ------------------------------------------------------------- --stamp DIR
sed -i "s/^AC_INIT(\[collectd-winperf\], *\[[^]]*\]/AC_INIT([collectd-winperf], [$version]/" "$stamp_dir/configure.ac"
grep -q "^AC_INIT(\[collectd-winperf\], \[$version\]" "$stamp_dir/configure.ac" ||
  die "could not stamp AC_INIT in $stamp_dir/configure.ac"
cl=$stamp_dir/debian/changelog
if [ "$(dpkg-parsechangelog -l "$cl" -S Version)" != "$version" ]; then
  maint=$(dpkg-parsechangelog -l "$cl" -S Maintainer)
  what="Snapshot of commit ${commit:-(none: not built from a git checkout)}."
  [ "$dirty" = no ] || what="Snapshot of commit $commit,
    with uncommitted changes."
  [ "${version%%~*}" = "$version" ] && what="Release $version (commit ${commit:-unknown})."
  {
    printf 'collectd-winperf (%s) unstable; urgency=medium\n\n' "$version"
    printf '  * %s\n\n' "$what"
    printf ' -- %s  %s\n\n' "$maint" "$(LC_ALL=C date -u -R -d "@$epoch")"
    cat "$cl"
  } >"$cl.new"
  mv "$cl.new" "$cl"
fi
[ "$(dpkg-parsechangelog -l "$cl" -S Version)" = "$version" ] || die "could not stamp $cl"
# The man pages' header: the version and date of this source.
day=$(LC_ALL=C date -u -d "@$epoch" +%Y-%m-%d)
for man in doc/collectd-winperf.5 doc/winperf.1 debian/winperf-remote-helper.1; do
  sed -i "s/^\(\.TH [^ ]* [0-9]\) \(\"[^\"]*\"\|[^ ]*\) \"[^\"]*\"/\1 \"$day\" \"collectd-winperf $version\"/" "$stamp_dir/$man"
  grep -q "^\.TH .* \"collectd-winperf $version\"" "$stamp_dir/$man" || die "could not stamp $stamp_dir/$man"
done
cat >"$stamp_dir/scripts/release-info" <<EOF
# collectd-winperf: stamped by scripts/version.sh --stamp (see there).
version=$version
epoch=$epoch
commit=$commit
EOF
