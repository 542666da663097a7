#!/bin/bash
# collectd-winperf: a clean copy of this source tree, stamped with its
# version (scripts/version.sh --stamp), for scripts/release.sh and
# tests/package/package-test.sh: both build from the same files.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   scripts/source-copy.sh DEST
#
# In a git checkout: what git tracks plus the files git does not ignore, as
# they are in the working tree (so uncommitted work is built and tested;
# the version then ends in ".dirty"). Elsewhere (a release tarball, a `git
# archive`): every file but build/ and .git. DEST must not exist. Every
# file gets the time SOURCE_DATE_EPOCH (as in the release tarball), so that
# what is built from the copy, the .debs above all, does not depend on when
# the tree was checked out.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd -P)
NEED_FAIL=need_fail_die
top_srcdir=$top
# shellcheck source-path=SCRIPTDIR source=../tests/lib/need.sh
. "$top/tests/lib/need.sh"

[ $# -eq 1 ] || {
  echo "usage: source-copy.sh DEST" >&2
  exit 2
}
dest=$1
[ ! -e "$dest" ] || {
  echo "source-copy.sh: $dest exists" >&2
  exit 1
}
mkdir -p "$dest"
if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$top" ]; then
  need git
  (cd "$top" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
    tar -c --null -T - -f -) | tar -x -C "$dest"
else
  (cd "$top" && find . -path ./build -prune -o -path ./.git -prune -o -print0 |
    tar -c --null --no-recursion -T - -f -) | tar -x -C "$dest"
fi
"$top/scripts/version.sh" --stamp "$dest"
epoch=$("$top/scripts/version.sh" | sed -n 's/^SOURCE_DATE_EPOCH=//p')
find "$dest" -exec touch -h -d "@$epoch" {} +
