#!/bin/sh
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
# winperf dump on the format.md 1.8 test vector: header, objects, counter
# definitions, instances and raw values, as text and JSON.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/cli/lib.sh"
precheck

# has DESCRIPTION FIXED-STRING: stdout contains the string
has() {
  if grep -qF -- "$2" "$TMP/out"; then ok 0 "$1"; else
    ok 1 "$1"
    diag "missing: $2"
  fi
}

# ---- text, no names table
run dump "$S1"
check_is "text dump exits 0" "$rc" 0
check_is "text dump: stderr empty" "$(wc -c <"$TMP/err" | tr -d ' ')" 0
has "byte order" "byte order:        little-endian"
has "version" "version:           1 revision 1"
has "total length 0x1a0" "total byte length: 416"
has "header length 0x60" "header length:     96"
has "two objects" "objects:           2 (NumObjectTypes 2)"
has "system name PC" "system name:       PC"
has "SystemTime 2024-01-01" "system time:       2024-01-01T00:00:00.000Z"
has "PerfTime" "perf time:         123456789"
has "PerfFreq" "perf freq:         10000000"
has "PerfTime100nSec as ISO-8601 UTC" \
  "perf time 100ns:   133485408000000000 (2024-01-01T00:00:00.0000000Z)"
has "object 2 at 0x60" "object 2 at 0x60:"
has "object 2 single instance" "NumInstances:    -1 (single instance)"
has "object 10 at 0x108" "object 10 at 0x108:"
has "object 10 multi-instance" "NumInstances:    1 (multi-instance)"
has "counter 6 RAWCOUNT size 4 offset 8" \
  "[0] 6: PERF_COUNTER_RAWCOUNT (0x00010000), size 4, offset 8, scale 0"
has "counter 8 100NSEC_TIMER size 8 offset 16" \
  "[1] 8: PERF_100NSEC_TIMER (0x20510500), size 8, offset 16, scale 0"
has "counter 12 RAWCOUNT size 4 offset 4" \
  "[0] 12: PERF_COUNTER_RAWCOUNT (0x00010000), size 4, offset 4, scale 0"
has "single-instance block at 0xf0" "(single instance), block at 0xf0 (24 bytes)"
has "instance _Total at 0x170, block 0x198" \
  "[0] \"_Total\" at 0x170, unique id -1, block at 0x198 (8 bytes)"
has "raw 42" "      6 = 42"
has "raw 5000000" "      8 = 5000000"
has "raw 7" "      12 = 7"

# ---- text, with the names table: names next to the indices
run dump --names "$NAMES" "$S1"
check_is "named dump exits 0" "$rc" 0
has "object 2 named System" 'object 2 "System" at 0x60:'
has "object 10 named Queue" 'object 10 "Queue" at 0x108:'
has "counter 8 named" '[1] 8 "% Busy Time": PERF_100NSEC_TIMER'
has "value line named" '      12 "Items" = 7'

# ---- second sample: PerfTime100nSec + 1 s
run dump "$S2"
has "sample2 PerfTime100nSec + 10,000,000" \
  "perf time 100ns:   133485408010000000 (2024-01-01T00:00:01.0000000Z)"
has "sample2 timer raw 12500000" "      8 = 12500000"

# ---- JSON
run dump --json --names "$NAMES" "$S1"
check_is "json dump exits 0" "$rc" 0
check_json_valid "json dump is valid JSON"
check_json "header fields" 'j["size"] == 416 and j["header"] == {
  "byte_order": "little-endian", "version": 1, "revision": 1,
  "total_byte_length": 416, "header_length": 96, "num_object_types": 2,
  "default_object": -1, "system_name": "PC",
  "system_time": "2024-01-01T00:00:00.000Z", "system_time_day_of_week": 1,
  "perf_time": 123456789, "perf_freq": 10000000,
  "perf_time_100ns": 133485408000000000,
  "perf_time_100ns_utc": "2024-01-01T00:00:00.0000000Z"}'
check_json "two objects, indices 2 and 10, named" \
  '[(o["index"], o["name"], o["offset"]) for o in j["objects"]] == [(2, "System", 0x60), (10, "Queue", 0x108)]'
check_json "NumInstances and meaning" \
  '[(o["num_instances"], o["num_instances_meaning"]) for o in j["objects"]] == [(-1, "single instance"), (1, "multi-instance")]'
check_json "object 2 counter definitions" \
  '[(c["index"], c["name"], c["type"], c["type_value"], c["size"], c["offset"], c["scale"], c["help_index"]) for c in j["objects"][0]["counters"]] == [(6, "Processes", "PERF_COUNTER_RAWCOUNT", 0x10000, 4, 8, 0, 7), (8, "% Busy Time", "PERF_100NSEC_TIMER", 0x20510500, 8, 16, 0, 9)]'
check_json "object 10 counter definition" \
  '[(c["index"], c["name"], c["type"], c["size"], c["offset"]) for c in j["objects"][1]["counters"]] == [(12, "Items", "PERF_COUNTER_RAWCOUNT", 4, 4)]'
check_json "single instance: unnamed, block 0xf0, raw 42 and 5000000" \
  'j["objects"][0]["instances"] == [{"name": None, "full_name": None, "offset": None, "unique_id": -1, "parent_object": 0, "parent_instance": 0, "parent": None, "block_offset": 0xf0, "block_length": 24, "values": [42, 5000000]}]'
check_json "instance _Total at 0x170, block 0x198, raw 7" \
  'j["objects"][1]["instances"] == [{"name": "_Total", "full_name": "_Total", "offset": 0x170, "unique_id": -1, "parent_object": 0, "parent_instance": 0, "parent": None, "block_offset": 0x198, "block_length": 8, "values": [7]}]'

run dump --json "$S1"
check_json_valid "json dump without names is valid JSON"
check_json "names are null without a names table" \
  'all(o["name"] is None and all(c["name"] is None for c in o["counters"]) for o in j["objects"])'

done_testing
