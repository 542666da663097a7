#!/usr/bin/env python3
# collectd-winperf: hand-built .blg fixtures (not Windows captures).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# Writes small Perfmon logs in the layout doc/blg.md describes, for the tests
# and the fuzzer's seeds: both record kinds in one file (a whole-object block
# and raw counter records), a name table, a time zone with daylight saving.
#
#   make_fixture.py OUT.blg [--buffer N] [--samples N]
#   make_fixture.py OUT.blg --from REAL.blg --events N [--buffer N]
#       an extract: the first N PDH events of a real log (those that fit the
#       buffer size), repacked into smaller buffers after a new log header
import struct
import sys

PDH_GUID = bytes.fromhex("b33b3f933e940d499ced3cbb14c14479")
SESSION = bytes(range(16))
FT_2024 = 133485408000000000  # 2024-01-01 00:00 UTC in 100 ns since 1601


def u16(s):
    return s.encode("utf-16-le") + b"\0\0"


def pad8(b):
    return b + b"\0" * (-len(b) % 8)


def tzi():
    # US Eastern: bias 300, DST from the 2nd Sunday of March to the 1st of
    # November at 02:00 (TIME_ZONE_INFORMATION, 172 bytes)
    name = lambda s: (s.encode("utf-16-le") + b"\0" * 64)[:64]
    st = lambda m, w: struct.pack("<8H", 0, m, 0, w, 2, 0, 0, 0)
    return (struct.pack("<i", 300) + name("Eastern Standard Time") +
            st(11, 1) + struct.pack("<i", 0) + name("Eastern Daylight Time") +
            st(3, 2) + struct.pack("<i", -60))


def log_header(buffer_size):
    hdr = struct.pack("<IBBBBIIqIIIIIIII", buffer_size, 6, 1, 0, 0, 7601, 2,
                      FT_2024, 156250, 0, 0x30020801, 0, 1, 8, 0, 2000)
    hdr += b"\0" * 16 + tzi() + b"\0" * 4
    hdr += struct.pack("<qqqII", FT_2024, 10000000, FT_2024, 2, 0)
    hdr += u16("fixture-session") + u16("C:\\PerfLogs\\fixture.blg")
    size = 32 + len(hdr)
    sysh = struct.pack("<HBBIIIqII", 2, 2, 0xC0, size, 1, 1, FT_2024, 0, 0)
    return sysh + hdr


def event(kind, payload, part, parts, ts):
    body = SESSION + struct.pack("<II", part, parts) + payload
    size = 48 + len(body)
    head = struct.pack("<HBBBBHIIq", size, 0x14, 0xC0, kind, 0, 60, 1, 1, ts)
    head += PDH_GUID + struct.pack("<II", 0, 0)
    return head + body


def entry(flags, ctype, tbase, scale, machine, obj, inst, counter):
    strs = b""
    offs = {}
    for key, s in (("m", machine), ("o", obj), ("i", inst), ("c", counter)):
        if s is None:
            offs[key] = 0xFFFFFFFF
            continue
        offs[key] = len(strs)
        strs += u16(s)
    fixed = struct.pack("<IIIqiIIIIII", flags, 0, ctype, tbase, scale,
                        offs["m"], offs["o"], offs["i"], 0xFFFFFFFF, 0,
                        offs["c"])
    body = pad8(fixed + strs)
    return struct.pack("<I", 4 + len(body)) + body


def perf_block(i, ft):
    # \\FIXTURE\Memory (index 4): RAWCOUNT Available MBytes (1380) and a
    # COUNTER Pages/sec (40); one PERF_DATA_BLOCK, single instance
    name = u16("FIXTURE")
    hl = (88 + len(name) + 7) & ~7
    defs = (struct.pack("<IIIIIiIIII", 40, 1380, 0, 1381, 0, 0, 100,
                        0x00010000, 4, 8) +
            struct.pack("<IIIIIiIIII", 40, 40, 0, 41, 0, 0, 100, 0x10410400,
                        4, 12))
    block = struct.pack("<IIII", 16, 0, 2000 - 10 * i, 300 + 25 * i)
    obj_len = 64 + len(defs) + len(block)
    obj = struct.pack("<IIIIIIIIIiiIqq", obj_len, 64 + len(defs), 64, 4, 0,
                      5, 0, 100, 2, 0, -1, 0, 0, 0) + defs + block
    perf_time, perf_freq = 1000000 + 10000000 * i, 10000000
    head = (b"P\0E\0R\0F\0" + struct.pack("<IIIIIIi", 1, 1, 1, hl + len(obj),
                                          hl, 1, -1) +
            struct.pack("<8H", 2024, 7, 1, 1, 12, 0, i, 0) + b"\0" * 4 +
            struct.pack("<qqqII", perf_time, perf_freq, ft, len(name), 88))
    head = (head + name).ljust(hl, b"\0")
    return head + obj


def single(first, second, ft):
    return struct.pack("<HHIIqIqqII", 0x4C42, 0x0103, 48, 0, ft, 0, first,
                       second, 1, 0)


def multi(items, ft):
    names = b""
    offs = []
    base = 24 + 24 * len(items)  # from the item block (after "BL" + length)
    for name, _, _ in items:
        offs.append(base + len(names))
        names += u16(name)
    body = struct.pack("<IIIIq", 0, len(items), 0, 0, ft)
    for (name, first, second), off in zip(items, offs):
        body += struct.pack("<IIqq", off, 0, first, second)
    body = pad8(body + names)
    body = struct.pack("<I", len(body)) + body[4:]
    return struct.pack("<HHI", 0x4C42, 0x0203, 8 + len(body)) + body


def names_table():
    pairs = [("1", "1847"), ("2", "System"), ("4", "Memory"),
             ("40", "Pages/sec"), ("1380", "Available MBytes")]
    return u16("\\\\FIXTURE") + b"".join(u16(a) + u16(b) for a, b in pairs)


def sample_record(i, local, utc):
    recs = [perf_block(i, utc)]
    recs = [struct.pack("<HHI", 0x4C42, 0x0503, 8 + len(r)) + r for r in recs]
    # \\FIXTURE\LogicalDisk(C:)\% Free Space (RAW_FRACTION: N, base)
    recs.append(single(40 + i, 100, local))
    # \\FIXTURE\Processor(*)\% Processor Time (100NSEC_TIMER_INV)
    t = utc
    recs.append(multi([("0", 1000000 + 7000000 * i, t),
                       ("_Total", 2000000 + 8000000 * i, t)], local))
    # \\FIXTURE\Web(*)\Requests/sec (COUNTER, tick clock 1e7) skips sample 1
    body = b"".join(recs)
    return struct.pack("<HHI", 0x4C42, 0x0003, 8 + len(body)) + body


def catalog():
    ents = [
        entry(0x10, 0x10, 0, 0, "\\\\FIXTURE", "Memory", None, "*"),
        entry(0, 0x20020400, 10000000, 0, "\\\\FIXTURE", "LogicalDisk", "C:",
              "% Free Space"),
        entry(1, 0x21510500, 10000000, 0, "\\\\FIXTURE", "Processor", "*",
              "% Processor Time"),
    ]
    return struct.pack("<II", 0x6FF, 0x20008) + b"".join(ents)


def pack(events, buffer_size):
    bufs, cur = [], log_header(buffer_size)
    first = True

    def close(content, first):
        used = 0x48 + len(content)
        head = struct.pack("<IIIiqq", buffer_size, used, 0, 0, FT_2024, 0)
        head += b"\0" * 8 + struct.pack("<IIIHH", 0, 0, used, 1, 4)
        head = head.ljust(0x48, b"\0")
        return (head + content).ljust(buffer_size, b"\0")

    content = pad8(cur)
    for ev in events:
        ev = pad8(ev)
        if 0x48 + len(content) + len(ev) > buffer_size:
            bufs.append(close(content, first))
            first, content = False, b""
        if 0x48 + len(ev) > buffer_size:
            raise SystemExit("event larger than a buffer")
        content += ev
    bufs.append(close(content, first))
    return b"".join(bufs)


def real_events(path, limit, buffer_size):
    d = open(path, "rb").read()
    size = struct.unpack_from("<I", d, 0)[0]
    out = []
    for base in range(0, len(d) - size + 1, size):
        used = struct.unpack_from("<I", d, base + 0x30)[0]
        o = 0x48
        while o + 8 <= used and len(out) < limit:
            n, ht = struct.unpack_from("<HB", d, base + o)
            if n == 0:
                break
            ev = d[base + o:base + o + n]
            if ht in (0x0A, 0x14) and ev[0x18:0x28] == PDH_GUID and \
                    0x48 + ((n + 7) & ~7) <= buffer_size:
                out.append(ev)
            o += (n + 7) & ~7
    return out


def main():
    args = sys.argv[1:]
    out, buffer_size, samples, real, limit = None, 4096, 3, None, 8
    while args:
        a = args.pop(0)
        if a == "--buffer":
            buffer_size = int(args.pop(0))
        elif a == "--samples":
            samples = int(args.pop(0))
        elif a == "--from":
            real = args.pop(0)
        elif a == "--events":
            limit = int(args.pop(0))
        else:
            out = a
    if out is None:
        raise SystemExit(__doc__)
    if real is not None:
        with open(out, "wb") as f:
            f.write(pack(real_events(real, limit, buffer_size), buffer_size))
        return
    local0 = FT_2024 + 180 * 86400 * 10000000  # 2024-06-29, daylight time
    events = [event(0x24, names_table(), 1, 1, local0),
              event(0x20, catalog(), 1, 1, local0)]
    for i in range(samples):
        local = local0 + i * 10000000
        utc = local + 4 * 3600 * 10000000
        rec = sample_record(i, local, utc)
        # the sample in two fragments, as PDH splits long ones
        half = len(rec) // 2
        events.append(event(0x22, rec[:half], 1, 2, local))
        events.append(event(0x22, rec[half:], 2, 2, local))
    with open(out, "wb") as f:
        f.write(pack(events, buffer_size))


if __name__ == "__main__":
    main()
