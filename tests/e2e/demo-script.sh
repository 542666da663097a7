#!/bin/bash
# collectd-winperf: scripts/demo.sh (the README's first command ends with
# it) runs collectd on the demo capture, prints the values of N intervals
# and stops by itself with status 0.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

need collectd # scripts/demo.sh runs it
e2e_init demo
[ -f "$top_builddir/.libs/winperf.so" ] ||
  e2e_bail "built plugin $top_builddir/.libs/winperf.so exists"
DEMO_INTERVALS=3 "$top_srcdir/scripts/demo.sh" "$top_builddir" >"$E2E_DIR/out" 2>&1
e2e_is "$?" 0 "demo.sh exits 0 by itself"
e2e_is "$(grep -c '^--- interval' "$E2E_DIR/out")" 3 "three intervals printed"
# Sample 0 of conf/demo: the first interval's one-sample values (numbers
# from tests/demo/demo_capture.c's walk, read with winperf dump).
grep -q '^--- interval 1, sample time 09:00:00 UTC' "$E2E_DIR/out"
e2e_ok $? "interval 1 is the capture's first sample (09:00:00 UTC)"
grep -Eq '^  Memory +gauge-Available Bytes +8563286016$' "$E2E_DIR/out"
e2e_ok $? "Memory Available Bytes of sample 0"
grep -Eq '^  Process-chrome#1 +memory-working_set +242315264$' "$E2E_DIR/out"
e2e_ok $? "the YAML mapping's type and type_instance, chrome#1"
# Rates appear from the second interval on.
awk '/^--- interval 2/ { on = 1 } on && /Processor-_Total +gauge-% Processor Time/ { f = 1 } END { exit !f }' "$E2E_DIR/out"
e2e_ok $? "Processor(_Total) % Processor Time from interval 2"
if [ "$E2E_FAILED" -ne 0 ]; then e2e_diag <"$E2E_DIR/out"; fi
e2e_done
