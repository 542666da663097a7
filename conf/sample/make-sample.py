#!/usr/bin/env python3
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
"""Regenerate the bundled sample pair from the spec's hand-made test vector.

sample1.blob is the 416-byte hex dump of format.md 1.8 typed in as is;
sample2.blob is its "second sample": PerfTime100nSec + 10,000,000 and the
PERF_100NSEC_TIMER value 12,500,000 (everything else identical).
names.multisz is a REG_MULTI_SZ Counter table (UTF-16LE) for the indices
the vector uses. None of this is a Windows capture.

Usage: make-sample.py [OUTDIR]   (default: the directory of this script)
"""
import os
import struct
import sys

# format.md 1.8, verbatim.
HEXDUMP = """
0000: 50 00 45 00 52 00 46 00 01 00 00 00 01 00 00 00
0010: 01 00 00 00 a0 01 00 00 60 00 00 00 02 00 00 00
0020: ff ff ff ff e8 07 01 00 01 00 01 00 00 00 00 00
0030: 00 00 00 00 00 00 00 00 15 cd 5b 07 00 00 00 00
0040: 80 96 98 00 00 00 00 00 00 c0 89 76 45 3c da 01
0050: 06 00 00 00 58 00 00 00 50 00 43 00 00 00 00 00
0060: a8 00 00 00 90 00 00 00 40 00 00 00 02 00 00 00
0070: 00 00 00 00 03 00 00 00 00 00 00 00 64 00 00 00
0080: 02 00 00 00 00 00 00 00 ff ff ff ff 00 00 00 00
0090: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
00a0: 28 00 00 00 06 00 00 00 00 00 00 00 07 00 00 00
00b0: 00 00 00 00 00 00 00 00 64 00 00 00 00 00 01 00
00c0: 04 00 00 00 08 00 00 00 28 00 00 00 08 00 00 00
00d0: 00 00 00 00 09 00 00 00 00 00 00 00 00 00 00 00
00e0: 64 00 00 00 00 05 51 20 08 00 00 00 10 00 00 00
00f0: 18 00 00 00 00 00 00 00 2a 00 00 00 00 00 00 00
0100: 40 4b 4c 00 00 00 00 00 98 00 00 00 68 00 00 00
0110: 40 00 00 00 0a 00 00 00 00 00 00 00 0b 00 00 00
0120: 00 00 00 00 64 00 00 00 01 00 00 00 00 00 00 00
0130: 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
0140: 00 00 00 00 00 00 00 00 28 00 00 00 0c 00 00 00
0150: 00 00 00 00 0d 00 00 00 00 00 00 00 00 00 00 00
0160: 64 00 00 00 00 00 01 00 04 00 00 00 04 00 00 00
0170: 28 00 00 00 00 00 00 00 00 00 00 00 ff ff ff ff
0180: 18 00 00 00 0e 00 00 00 5f 00 54 00 6f 00 74 00
0190: 61 00 6c 00 00 00 00 00 08 00 00 00 07 00 00 00
"""

# Where the second sample differs (offsets read off the dump above).
PERF_TIME_100NS_AT = 0x48  # PERF_DATA_BLOCK.PerfTime100nSec (format.md 1.2)
TIMER_VALUE_AT = 0x100     # object 2's counter block 0xf0 + CounterOffset 16

# The names table: "1" / highest index first (format.md 4.1), then the indices
# the vector uses. Chosen for the demo; not Windows' own table.
NAMES = [
    (1, "12"),
    (2, "System"),
    (6, "Processes"),
    (8, "% Busy Time"),
    (10, "Queue"),
    (12, "Items"),
]


def sample1():
    out = bytearray()
    for line in HEXDUMP.strip().splitlines():
        addr, _, hexbytes = line.partition(":")
        assert int(addr, 16) == len(out), line
        out += bytes.fromhex(hexbytes)
    assert len(out) == 416
    return bytes(out)


def sample2(first):
    out = bytearray(first)
    (t100,) = struct.unpack_from("<q", out, PERF_TIME_100NS_AT)
    assert t100 == 133485408000000000
    struct.pack_into("<q", out, PERF_TIME_100NS_AT, t100 + 10_000_000)
    (timer,) = struct.unpack_from("<Q", out, TIMER_VALUE_AT)
    assert timer == 5_000_000
    struct.pack_into("<Q", out, TIMER_VALUE_AT, 12_500_000)
    return bytes(out)


def multisz(pairs):
    strings = []
    for index, name in pairs:
        strings += [str(index), name]
    return ("\0".join(strings) + "\0\0").encode("utf-16-le")


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.abspath(__file__))
    first = sample1()
    files = {
        "sample1.blob": first,
        "sample2.blob": sample2(first),
        "names.multisz": multisz(NAMES),
    }
    for name, data in files.items():
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
