# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
"""Where a fleet run's time went: the poller's reads and the server's answers.

Usage: fleet_report.py CSV_DIR T_END INTERVAL TIMEOUT THREADS PROBE LOAD CPU T_CPU HOST...

CSV_DIR is collectd's csv writer's directory (SelfMetrics true), HOST... the
healthy hosts of tests/remote/fleet-faults.sh. For each host, from its first
value to T_END: its slots (whole intervals), its values (\\System\\Processes
lines), its calls (count-errors lines: collectd called its read, whatever
came of it), its failed reads (count-errors rising) and the rest of the
calls, skipped (a backoff after a failure, or another host's turn with an
unproven credential). Slots without a call are reads collectd never made:
the one before ran past its slot, or no read thread was free. Then the
poller's duration-query (its helper's answer, the server's time included),
how many of these reads were in flight at once against THREADS read
threads, the probe's latencies (smbd_probe.py: one query a second with
Samba's own client, outside the poller), the load average and CPU pressure
(LOAD: "LOADAVG1 PSI_SOME_AVG10" lines) and the CPU seconds of the
healthy hosts' smbd and of the poller over the window from T_CPU to T_END (CPU.1 and CPU.2:
snapshots of "server|poller PID COMM SECONDS" lines): the server's busiest
rpcd_winreg worker (samba-dcerpcd's winreg service, single-threaded, 5 of
them by default) against the share of the 2 cores a task gets at the run's
load. Prints "# " lines; no verdict.
"""
import glob
import os
import re
import sys


# A whole csv line ("1796318183.534,42.000000"). With more than one write
# thread collectd's csv writer can create a file (fopen "w", the header)
# while another thread appends the file's first value, whose first 12 bytes
# the header then overwrites ("55,42.000000"): not a dispatch to count.
WHOLE = re.compile(r"^[0-9]+\.[0-9]+,")
torn_lines = []


def series(path_glob, t_from, t_to):
    rows = []
    for path in sorted(glob.glob(path_glob)):
        with open(path) as f:
            for line in f:
                if not line[:1].isdigit():
                    continue
                if not WHOLE.match(line):
                    torn_lines.append(path)
                    continue
                t, v = line.strip().split(",")[:2]
                t, v = float(t), float(v)
                if t_from <= t <= t_to:
                    rows.append((t, v))
    return sorted(rows)


def pct(values, p):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100.0 * len(values)))]


def dist(values):
    return "p50 %.2f, p90 %.2f, p99 %.2f, max %.2f s" % (
        pct(values, 50), pct(values, 90), pct(values, 99), pct(values, 100))


def cpu_used(before, after):
    """CPU seconds by side between two snapshots; rpcd_winreg's per worker."""
    if not (os.path.exists(before) and os.path.exists(after)):
        return {}, []
    first = {}
    with open(before) as f:
        for line in f:
            who, pid, comm, sec = line.split()
            first[pid] = float(sec)
    used, workers = {}, []
    with open(after) as f:
        for line in f:
            who, pid, comm, sec = line.split()
            d = float(sec) - first.get(pid, 0.0)
            used[who] = used.get(who, 0.0) + d
            if comm == "rpcd_winreg":
                workers.append(d)
    return used, workers


def main():
    csv, t_end, iv, timeout, threads, probe, load, cpu, t_cpu = sys.argv[1:10]
    hosts = sys.argv[10:]
    t_cpu = float(t_cpu)
    t_end, iv, timeout = float(t_end), float(iv), float(timeout)
    spans = []
    in_cpu_window = 0
    tot = dict(slots=0, values=0, calls=0, failed=0, skipped=0, uncalled=0)
    durations, worst = [], []
    for h in hosts:
        values = series("%s/%s/winperf-System/gauge-Processes-*" % (csv, h), 0, t_end)
        if not values:
            worst.append((-1, h, "no value"))
            continue
        first = values[0][0]
        calls = series("%s/%s/winperf-self/count-errors-*" % (csv, h), first - iv / 2, t_end)
        errs = [v for _, v in calls]
        failed = int(max(errs) - min(errs)) if errs else 0
        slots = int((t_end - first) // iv)
        dq = series("%s/%s/winperf-self/duration-query-*" % (csv, h), first, t_end)
        durations += [v for _, v in dq]
        in_cpu_window += sum(t >= t_cpu for t, _ in dq)
        spans += [(t - v, t) for t, v in dq]
        row = dict(slots=slots, values=len(values), calls=len(calls), failed=failed,
                   skipped=max(0, len(calls) - len(values) - failed),
                   uncalled=max(0, slots - len(calls)))
        for k in tot:
            tot[k] += row[k]
        worst.append((row["values"] - slots, h, "%(values)d values in %(slots)d slots: "
                      "%(failed)d failed, %(skipped)d skipped, %(uncalled)d not called" % row))
    worst.sort()
    print("# poller: %d healthy hosts, %d values in %d slots; of the slots without a value: "
          "%d failed reads, %d skipped (backoff or turn), %d reads never called"
          % (len(hosts), tot["values"], tot["slots"], tot["failed"], tot["skipped"],
             tot["uncalled"]))
    for d, h, text in worst[:5]:
        print("#   %s: %s" % (h, text))
    if torn_lines:
        print("# csv lines torn by the writer's file creation, not counted: %d (%s)"
              % (len(torn_lines), ", ".join(sorted(set(torn_lines))[:3])))
    print("# poller: duration-query of %d reads: %s; over Timeout (%g s): %d, over the "
          "interval (%g s): %d" % (len(durations), dist(durations), timeout,
                                  sum(d > timeout for d in durations), iv,
                                  sum(d > iv for d in durations)))
    edges = sorted([(a, 1) for a, _ in spans] + [(b, -1) for _, b in spans])
    now = most = 0
    for _, d in edges:
        now += d
        most = max(most, now)
    print("# poller: at most %d of these reads in flight at once (ReadThreads %s)"
          % (most, threads))
    lat, errors = [], 0
    if os.path.exists(probe):
        with open(probe) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 3 and parts[2] == "ok":
                    lat.append(float(parts[1]))
                elif len(parts) >= 3:
                    errors += 1
    print("# server (smbd_probe.py, Samba's own client, one query a second): %d answers, "
          "%d errors: %s; over Timeout: %d, over 1 s: %d"
          % (len(lat), errors, dist(lat), sum(x > timeout for x in lat),
             sum(x > 1 for x in lat)))
    loads, psi = [], []
    if os.path.exists(load):
        with open(load) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2:
                    loads.append(float(parts[0]))
                    psi.append(float(parts[1]))
    if loads:
        print("# load average (1 min) during the run: %.1f-%.1f, mean %.1f; CPU pressure "
              "(some, 10 s): %.0f-%.0f %%, mean %.0f %%"
              % (min(loads), max(loads), sum(loads) / len(loads), min(psi), max(psi),
                 sum(psi) / len(psi)))
    used, workers = cpu_used(cpu + ".1", cpu + ".2")
    if used:
        window = t_end - t_cpu
        if workers:
            print("# smbd's rpcd_winreg: %d workers, %.1f s of CPU; the busiest %.0f %% of "
                  "the window (a task's fair share of 2 cores at a load of %.1f: %.0f %%)"
                  % (len(workers), sum(workers), 100 * max(workers) / window,
                     max(loads) if loads else 0,
                     100 * 2 / max(loads) if loads and max(loads) > 2 else 100))
        answered = in_cpu_window + len(lat)  # the probe ran in that window
        print("# CPU over the window: smbd %.1f s (%.1f ms for each of the %d "
              "answered queries), the poller (collectd and its helpers) %.1f s (%.1f ms a "
              "read)" % (used.get("server", 0), 1000 * used.get("server", 0) / max(1, answered),
                         answered, used.get("poller", 0),
                         1000 * used.get("poller", 0) / max(1, in_cpu_window)))


if __name__ == "__main__":
    main()
