# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
"""perfmon_tdb.py's sample 1 with a clock a year ahead.

Usage: perfmon_clock.py DIR OFFSET_SECONDS

The sample's PerfTime100nSec (and PerfTime, 10 MHz) is now + OFFSET as a
FILETIME (100 ns units since 1601-01-01 UTC): a host whose clock is off
(tests/e2e/fleet-clock.sh). The other values are sample 1's.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perfmon_tdb  # noqa: E402

EPOCH_1601 = 11644473600  # seconds from 1601-01-01 to 1970-01-01

if __name__ == "__main__":
    outdir, offset = sys.argv[1], float(sys.argv[2])
    perfmon_tdb.SAMPLES[1]["time"] = int(
        (time.time() + offset + EPOCH_1601) * 10000000)
    sys.argv = [sys.argv[0], outdir, "1"]
    perfmon_tdb.main()
