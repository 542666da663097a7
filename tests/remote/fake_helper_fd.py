#!/usr/bin/python3
# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
"""A hostile stand-in for winperf-remote-helper: every answer (a DATA frame
of type 3, bytes "hello") carries an open descriptor of the file
FAKE_SMUGGLE names (SCM_RIGHTS), as a helper taken over by a Windows host
might try. The plugin must gain nothing from a helper but the frames
(tests/remote/sandbox-smbd.sh looks for that file among collectd's
descriptors). Each descriptor sent is counted in FAKE_SENT (a file).
Any arguments are ignored; frames as src/remote/frame.h."""
import os
import socket
import struct
import sys


def read_exactly(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def main():
    sock = socket.socket(fileno=0)
    smuggled = os.open(os.environ["FAKE_SMUGGLE"], os.O_RDONLY)
    sent = 0
    while True:
        hdr = read_exactly(sock, 5)
        if hdr is None:
            return 0
        (length,) = struct.unpack("<I", hdr[:4])
        if length and read_exactly(sock, length) is None:
            return 0
        answer = struct.pack("<I", 9) + b"D" + struct.pack("<I", 3) + b"hello"
        socket.send_fds(sock, [answer], [smuggled])
        sent += 1
        with open(os.environ["FAKE_SENT"], "w") as f:
            f.write("%d\n" % sent)


if __name__ == "__main__":
    sys.exit(main())
