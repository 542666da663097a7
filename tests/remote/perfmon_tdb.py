# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
"""Write Samba's perfmon tdb files (names.tdb, data.tdb) for one sample.

smbd serves HKEY_PERFORMANCE_DATA from <state dir>/perfmon/ (source3
registry/reg_perfcount.c); nothing in Debian writes these files, so the test
does. Key scheme (doc/remote-protocol.md 6): names.tdb "1" = entry count,
"<2k>" name, "<2k+1>" help, "<2k>rel" = "p" (object) or "c[<parent>]",
"<2k>type" = CounterType, "<obj>inst" = instance count, "<obj>i<n>name";
"0PerfFreq". data.tdb: "<2k>" decimal value, "<obj>i<n>" packed 8-byte
little-endian values (Samba stores DWORD counters in a C long: 8 bytes on
64-bit), "0PerfTime", "0PerfTime100nSec".

Usage: perfmon_tdb.py DIR SAMPLE [process]   (SAMPLE 1 or 2)
(PERFMON_THREADS=N in the environment: N Thread instances, default 300)

With "process", a Process object is added (index 18, counter 20 ID Process,
RAWCOUNT; Samba walks the indices 2 .. 2 * the count in "1", so they follow
on): w3wp pid 10, w3wp pid 20 (w3wp#1 to PDH), _Total pid 0
(tests/remote/collectd-host-naming.sh).

The two samples are 5 s apart (PerfFreq 10 MHz, dT = 50,000,000 ticks and
50,000,000 * 100 ns), so the expected values are exact:
  Processor(0) % Processor Time (100NSEC_TIMER_INV): dN 12,500,000 -> 75
  Processor(1) % Processor Time:                     dN 37,500,000 -> 25
  Processor(0) Interrupts/sec (COUNTER_COUNTER): dN 2500 -> 500
  Processor(1) Interrupts/sec:                   dN  250 ->  50
  System Context Switches/sec: dN 7500 -> 1500
  System Processes (RAWCOUNT): 42, then 43
  Thread(t<n>) ID Thread (RAWCOUNT): n, for 300 instances
"""
import os
import struct
import sys

import tdb

PERF_100NSEC_TIMER_INV = 0x21510500
PERF_COUNTER_COUNTER = 0x10410400
PERF_COUNTER_RAWCOUNT = 0x00010000

# index: (name, relation, type or None)
ENTRIES = [
    (2, "Processor", "p", None),
    (4, "% Processor Time", "c[2]", PERF_100NSEC_TIMER_INV),
    (6, "Interrupts/sec", "c[2]", PERF_COUNTER_COUNTER),
    (8, "System", "p", None),
    (10, "Processes", "c[8]", PERF_COUNTER_RAWCOUNT),
    (12, "Context Switches/sec", "c[8]", PERF_COUNTER_COUNTER),
    (14, "Thread", "p", None),
    (16, "ID Thread", "c[14]", PERF_COUNTER_RAWCOUNT),
]

# The optional Process object: (instance name, ID Process).
PROCESS_ENTRIES = [
    (18, "Process", "p", None),
    (20, "ID Process", "c[18]", PERF_COUNTER_RAWCOUNT),
]
# Two instances named w3wp in the blob, as Windows answers; PDH (and the
# plugin's pdh names) call the second w3wp#1.
PROCESSES = [("w3wp", 10), ("w3wp", 20), ("_Total", 0)]

# Enough instances (64 bytes each) for a ~20 KB blob: several DCE/RPC
# fragments (4280 bytes each), and above a first buffer of 8 KiB (the test
# passes --buffer-size 8192; Samba then truncates silently and the helper
# must grow the buffer). Samba builds each instance slowly, for every query
# whatever objects it names (each instance opens the tdb files again: 9 ms
# of rpcd_winreg CPU a query with these 300, 0.7 ms with none): keep it
# small. PERFMON_THREADS in the environment changes the count (the fleet
# tests, whose hosts read \System only, serve none).
THREADS = int(os.environ.get("PERFMON_THREADS", "300"))

SAMPLES = {
    1: {
        "time": 1000000000,
        "proc": [(100000000, 1000), (200000000, 3000)],
        "processes": 42,
        "switches": 10000,
    },
    2: {
        "time": 1050000000,
        "proc": [(112500000, 3500), (237500000, 3250)],
        "processes": 43,
        "switches": 17500,
    },
}


def put(db, key, value):
    if isinstance(value, str):
        value = value.encode()
    db.store(key.encode(), value, tdb.REPLACE)


def main():
    outdir, sample = sys.argv[1], int(sys.argv[2])
    with_process = sys.argv[3:] == ["process"]
    s = SAMPLES[sample]
    entries = ENTRIES + (PROCESS_ENTRIES if with_process else [])
    os.makedirs(outdir, exist_ok=True)
    names = tdb.Tdb(os.path.join(outdir, "names.tdb"), 0, tdb.DEFAULT,
                    os.O_CREAT | os.O_RDWR, 0o644)
    put(names, "1", str(len(entries)))
    for index, name, rel, ctype in entries:
        put(names, str(index), name)
        put(names, str(index + 1), name + " help")
        put(names, "%drel" % index, rel)
        if ctype is not None:
            put(names, "%dtype" % index, str(ctype))
    put(names, "2inst", "2")
    put(names, "2i0name", "0")
    put(names, "2i1name", "1")
    put(names, "14inst", str(THREADS))
    for i in range(THREADS):
        put(names, "14i%dname" % i, "t%d" % i)
    if with_process:
        put(names, "18inst", str(len(PROCESSES)))
        for i, (name, _) in enumerate(PROCESSES):
            put(names, "18i%dname" % i, name)
    put(names, "0PerfFreq", "10000000")
    names.close()

    data = tdb.Tdb(os.path.join(outdir, "data.tdb"), 0, tdb.DEFAULT,
                   os.O_CREAT | os.O_RDWR, 0o644)
    put(data, "0PerfTime", str(s["time"]))
    put(data, "0PerfTime100nSec", str(s["time"]))
    # Samba also wants a per-counter value for multi-instance counters.
    put(data, "4", "0")
    put(data, "6", "0")
    for i, (busy, interrupts) in enumerate(s["proc"]):
        put(data, "2i%d" % i, struct.pack("<QQ", busy, interrupts))
    put(data, "10", str(s["processes"]))
    put(data, "12", str(s["switches"]))
    put(data, "16", "0")
    for i in range(THREADS):
        put(data, "14i%d" % i, struct.pack("<Q", i))
    if with_process:
        put(data, "20", "0")
        for i, (_, pid) in enumerate(PROCESSES):
            put(data, "18i%d" % i, struct.pack("<Q", pid))
    data.close()


if __name__ == "__main__":
    main()
