# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
"""Samples of a host that restarted: its clock and counters back near 0.

Usage: perfmon_reset.py DIR r|r2

perfmon_tdb.py's samples 1 and 2 are a host before its restart (time 1e9
then 1.05e9 ticks of 10 MHz, Context Switches 10,000 then 17,500: 1500/s).
After it (tests/remote/fleet-faults.sh):
  r   time 500,000,000, Context Switches 5,000, Processes 7
  r2  time 550,000,000 (5 s later), Context Switches 12,500 (1500/s),
      Processes 8
A client that paired r with sample 2 would compute a spike; paired with
each other, r and r2 give 1500 again.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perfmon_tdb  # noqa: E402

perfmon_tdb.SAMPLES["r"] = {
    "time": 500000000,
    "proc": [(10000000, 100), (20000000, 300)],
    "processes": 7,
    "switches": 5000,
}
perfmon_tdb.SAMPLES["r2"] = {
    "time": 550000000,
    "proc": [(22500000, 2600), (57500000, 550)],
    "processes": 8,
    "switches": 12500,
}

if __name__ == "__main__":
    s = perfmon_tdb.SAMPLES[sys.argv[2]]
    perfmon_tdb.SAMPLES[99] = s
    sys.argv = [sys.argv[0], sys.argv[1], "99"]
    perfmon_tdb.main()
