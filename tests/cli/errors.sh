#!/bin/sh
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# winperf's failures: exit 2 and exactly one stderr line naming the file
# and offset (blobs, name tables), the path and column (paths), or the
# problem (usage); nothing on stdout.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/cli/lib.sh"
precheck

# Truncated to 200 bytes: object 2 starts at 0x60 with TotalByteLength
# 0xa8, so it would end at 0x108 > 200 (format.md 1.3: o + TotalByteLength <= L).
head -c 200 "$S1" >"$TMP/trunc.blob"
run dump "$TMP/trunc.blob"
check_error "dump of a truncated blob"
check_err_has "... names the file" "winperf: $TMP/trunc.blob: "
check_err_has "... names the object's offset 0x60" "offset 0x60"
run query "$TMP/trunc.blob" '\2\*'
check_error "query of a truncated blob"
check_err_has "... names the file and offset" "$TMP/trunc.blob: offset 0x60"
run query "$S1" "$TMP/trunc.blob" '\2\*'
check_error "query with a truncated newer blob"
check_err_has "... names that file" "$TMP/trunc.blob: offset"

# 60 bytes: shorter than the 88-byte PERF_DATA_BLOCK (format.md 1.2).
head -c 60 "$S1" >"$TMP/short.blob"
run dump --json "$TMP/short.blob"
check_error "json dump of a 60-byte blob"
check_err_has "... at offset 0x0" "$TMP/short.blob: offset 0x0"

# Bad signature.
printf 'XXXX' >"$TMP/sig.blob"
tail -c +5 "$S1" >>"$TMP/sig.blob"
run dump "$TMP/sig.blob"
check_error "dump of a blob with a bad signature"
check_err_has "... at offset 0x0" "$TMP/sig.blob: offset 0x0"

# Missing and unreadable files.
run dump "$TMP/missing.blob"
check_error "dump of a missing file"
check_err_has "... names the file" "winperf: $TMP/missing.blob: "
run query "$S1" "$TMP/missing.blob" '\2\*'
check_error "query with a missing blob"
check_err_has "... names the file" "$TMP/missing.blob"
run query --names "$TMP/missing.names" "$S1" '\2\*'
check_error "query with a missing names file"
check_err_has "... names the file" "$TMP/missing.names"

# A names table that is not one (the blob's bytes: "PERF" is no index).
run query --names "$S1" "$S1" '\2\*'
check_error "a blob given as the names table"
check_err_has "... names the file and an offset" "$S1: offset 0x"

# Bad paths: the path and the column.
run query "$S1" '\2(_Total\6'
check_error "path with an unclosed parenthesis"
check_err_has "... names the path and a column" '\2(_Total\6: column '
run query "$S1" '\2'
check_error "path without a counter"
check_err_has "... names the path and a column" '\2: column '
run query "$S1" '\*\6'
check_error "wildcard in the object name"
check_err_has "... names the path and column 1" '\*\6: column 1'

# Usage.
run
check_error "no command"
run frobnicate
check_error "unknown command"
check_err_has "... names it" "frobnicate"
run dump
check_error "dump without a blob"
run dump "$S1" "$S2"
check_error "dump with two blobs"
run dump --bogus "$S1"
check_error "unknown option"
check_err_has "... names it" "--bogus"
run query "$S1" "$S2" "$S1" '\2\*'
check_error "query with three blobs"
run query '\2\*'
check_error "query without a blob"
run query "$S1"
check_error "query without a path"
run query --names
check_error "--names without its argument"
run query --multi-timer=exact "$S1" '\2\*'
check_error "--multi-timer with an unknown formula"

# Help and version go to stdout, exit 0.
run --help
check_is "--help exits 0" "$rc" 0
grep -q 'winperf query' "$TMP/out"
ok $? "--help lists query"
grep -q 'winperf dump' "$TMP/out"
ok $? "--help lists dump"
run query --help
check_is "query --help exits 0" "$rc" 0
run --version
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$top_builddir/config.h")
check_is "--version prints PACKAGE_VERSION" "$rc:$(cat "$TMP/out")" \
  "0:winperf (collectd-winperf) $version"

done_testing
