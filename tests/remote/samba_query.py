# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
"""Read HKEY_PERFORMANCE_DATA with python3-samba, as an independent client.

Usage (Debian's /usr/bin/python3): samba_query.py HOST PORT VALUE OUTFILE
with SQ_USER and SQ_PASSWORD in the environment. Writes the value's bytes.
Uses Samba's own generated winreg client (samba.dcerpc.winreg), so it shares
no code with winperf-remote-helper: the test compares the two answers.
"""
import os
import sys

from samba import credentials
from samba.dcerpc import winreg
from samba.param import LoadParm


def open_hkpd(host, port):
    """A winreg connection as SQ_USER / SQ_PASSWORD and its HKPD handle."""
    lp = LoadParm()
    lp.set("smb ports", port)
    creds = credentials.Credentials()
    creds.guess(lp)
    creds.set_username(os.environ["SQ_USER"])
    creds.set_password(os.environ["SQ_PASSWORD"])
    conn = winreg.winreg("ncacn_np:%s[\\pipe\\winreg]" % host, lp, creds)
    return conn, conn.OpenHKPD(None, 0)


def main():
    host, port, value, out = sys.argv[1:5]
    conn, key = open_hkpd(host, port)
    name = winreg.String()
    name.name = value
    size = 65536
    while True:
        _, data, _, length = conn.QueryValue(key, name, 0, [0] * size, size, 0)
        # Samba truncates silently when the buffer is too small.
        if length < size:
            break
        size *= 2
    conn.CloseKey(key)
    with open(out, "wb") as f:
        f.write(bytes(data[:length]))


if __name__ == "__main__":
    main()
