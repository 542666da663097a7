# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
"""Time smbd's answers to HKEY_PERFORMANCE_DATA queries, as a client of its own.

Usage (Debian's /usr/bin/python3):
  smbd_probe.py HOST PORT VALUE PERIOD STOPFILE OUTFILE
with SQ_USER and SQ_PASSWORD in the environment.

One connection with Samba's own winreg client (samba.dcerpc.winreg: no code
of winperf-remote-helper, no collectd), one OpenHKPD, then a QueryValue of
VALUE every PERIOD seconds until STOPFILE exists. Each query appends
"START SECONDS ok" (or "START SECONDS error: WHY", after which the probe
connects again) to OUTFILE: the server's latency for one request, as a
host's query sees it, measured outside the poller
(tests/remote/fleet-faults.sh reads it beside the poller's own figures).
"""
import os
import sys
import time

from samba.dcerpc import winreg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from samba_query import open_hkpd  # noqa: E402


def main():
    host, port, value, period, stop, out = sys.argv[1:7]
    period = float(period)
    name = winreg.String()
    name.name = value
    size = 65536
    conn = key = None
    with open(out, "a", buffering=1) as log:
        next_at = time.time()
        while not os.path.exists(stop):
            start = time.time()
            try:
                if conn is None:
                    conn, key = open_hkpd(host, port)
                    start = time.time()  # the logon is not the query
                conn.QueryValue(key, name, 0, [0] * size, size, 0)
                log.write("%.3f %.4f ok\n" % (start, time.time() - start))
            except Exception as e:  # noqa: BLE001 (any failure: noted, again)
                log.write("%.3f %.4f error: %s\n" % (start, time.time() - start, e))
                conn = key = None
            next_at += period
            time.sleep(max(0.0, next_at - time.time()))


if __name__ == "__main__":
    main()
