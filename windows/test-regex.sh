#!/bin/bash
# collectd-winperf: the CountersFile's include/exclude regexes on Windows.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   windows/test-regex.sh [WORKDIR]
#
# mingw-w64 has no <regex.h>: on Windows the plugin's cardinality filters
# (src/plugin/cardinality.c, src/config/card_keys.c) use the regex of
# gnulib, as collectd's own Windows port does (windows/build-collectd.sh
# builds that gnulib). This builds gnulib's regex module alone for mingw
# (about 3 minutes), cross-builds tests/plugin/test_cardinality against it and runs it under Wine:
# the same checks as on Linux (include, exclude, total, case folding,
# aggregate, max_instances). Not part of `make check` (the gnulib build);
# see windows/README.md.
set -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "$HERE/.." && pwd)
W=${1:-$top_srcdir/build/windows-regex}
# shellcheck source=../tests/e2e/lib.sh
. "$top_srcdir/tests/e2e/lib.sh"
need gnulib-tool x86_64-w64-mingw32-gcc wine make

mkdir -p "$W"
W=$(cd "$W" && pwd)
GL=$W/gnulib
if [ ! -f "$GL/gllib/libgnu.a" ]; then
  rm -rf "$GL"
  (gnulib-tool --create-testdir --without-tests --dir="$GL" regex &&
    cd "$GL" && ./configure --host=x86_64-w64-mingw32 && make -j2) \
    >"$W/gnulib.log" 2>&1 || e2e_bail "gnulib regex for mingw (see $W/gnulib.log)"
fi
e2e_ok 0 "gnulib's regex built for mingw"

exe=$W/test_cardinality.exe
(cd "$top_srcdir" && x86_64-w64-mingw32-gcc -std=gnu11 -O2 -Wall -Wextra \
  -Werror -Wno-format -D__USE_MINGW_ANSI_STDIO=1 -include "$GL/config.h" \
  -I"$GL/gllib" -I"$GL" -Isrc/plugin -Isrc/config -Isrc/perfdata \
  -Isrc/common -Itests \
  -o "$exe" tests/plugin/test_cardinality.c src/plugin/cardinality.c \
  src/config/card_keys.c src/plugin/aggregate.c src/common/wp_error.c \
  src/common/wp_grow.c src/perfdata/pd_error.c "$GL/gllib/libgnu.a" -static \
  -lpthread) \
  >"$W/build.log" 2>&1
e2e_ok $? "test_cardinality.exe cross-built against gnulib's regex"

WINEDEBUG=-all wine "$exe" 2>&1 | tr -d '\r' >"$W/run.log"
rc=$?
plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$W/run.log")
oks=$(grep -c '^ok ' "$W/run.log")
e2e_ok $rc "test_cardinality.exe under Wine exits 0"
[ -n "$plan" ] && [ "$oks" -eq "$plan" ]
e2e_ok $? "under Wine: $oks of ${plan:-?} cardinality checks pass (regexes by gnulib)"
grep -v '^ok ' "$W/run.log" | e2e_diag
e2e_done
