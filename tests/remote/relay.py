#!/usr/bin/python3
# collectd-winperf tests: a TCP relay on 127.0.0.1 that slows a server down
# (fleet-faults.sh, fleet-connects.sh).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   relay.py LISTEN_PORT TARGET_PORT [--answer-delay S] [--pass-delay S]
#            [--log FILE]
#
# Every connection accepted on LISTEN_PORT is connected to TARGET_PORT and
# the bytes are passed both ways. --answer-delay waits S seconds before
# each chunk of the server's answer (a slow server); --pass-delay holds a
# new connection S seconds before it connects it to the server (a slow
# first connect: the client's first bytes wait in the socket). --log
# appends "accept TIME N" when connection N is accepted and "pass TIME N"
# when it is connected to the server (TIME: Unix seconds).
import argparse
import socket
import threading
import time

args = argparse.ArgumentParser()
args.add_argument("listen_port", type=int)
args.add_argument("target_port", type=int)
args.add_argument("--answer-delay", type=float, default=0.0)
args.add_argument("--pass-delay", type=float, default=0.0)
args.add_argument("--log")
opt = args.parse_args()
log_lock = threading.Lock()


def note(what, n):
    if opt.log:
        with log_lock, open(opt.log, "a") as f:
            f.write("%s %.6f %d\n" % (what, time.time(), n))


def pipe(a, b, delay):
    try:
        while True:
            d = a.recv(65536)
            if not d:
                break
            if delay:
                time.sleep(delay)
            b.sendall(d)
    except OSError:
        pass
    for s in (a, b):
        try:
            s.close()
        except OSError:
            pass


def serve(c, n):
    note("accept", n)
    if opt.pass_delay:
        time.sleep(opt.pass_delay)
    try:
        u = socket.create_connection(("127.0.0.1", opt.target_port))
    except OSError:
        c.close()
        return
    note("pass", n)
    threading.Thread(target=pipe, args=(c, u, 0), daemon=True).start()
    pipe(u, c, opt.answer_delay)


s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", opt.listen_port))
s.listen(64)
n = 0
while True:
    c, _ = s.accept()
    n += 1
    threading.Thread(target=serve, args=(c, n), daemon=True).start()
