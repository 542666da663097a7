# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
"""A third perfmon tdb sample, 5 s after perfmon_tdb.py's sample 2.

Usage: perfmon_sample3.py DIR

tests/remote/collectd-hosts.sh writes it while smbd is down, so the values
that arrive after the restart can only come from the pair (2, 3):
  Processor(0) % Processor Time (100NSEC_TIMER_INV): dN 25,000,000 -> 50
  Processor(1) % Processor Time:                     dN 12,500,000 -> 75
  Processor(0) Interrupts/sec (COUNTER_COUNTER): dN 1000 -> 200
  Processor(1) Interrupts/sec:                   dN  500 -> 100
  System Context Switches/sec: dN 5000 -> 1000
  System Processes (RAWCOUNT): 44
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perfmon_tdb  # noqa: E402

perfmon_tdb.SAMPLES[3] = {
    "time": 1100000000,
    "proc": [(137500000, 4500), (250000000, 3750)],
    "processes": 44,
    "switches": 22500,
}

if __name__ == "__main__":
    sys.argv = [sys.argv[0], sys.argv[1], "3"]
    perfmon_tdb.main()
