# collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
"""Every collectd configuration example in the documents, as a file that
collectd -T can run, its paths mapped to fixtures.

Usage: examples.py TOP OUTDIR FIXTURES

An example is a fenced code block of README.md or doc/*.md, or a .nf/.fi
block of a man page (doc/*.5, doc/*.1, debian/*.1), that holds a
"<Plugin" line, and conf/collectd-winperf.conf whole. Each is written to
OUTDIR/N.conf, and OUTDIR/list gets "N<TAB>FILE:LINE". The mapping, the
only change made to an example:
  - man-page escapes undone (\\e, \\(dq, \\-); text after the last
    "</Plugin>" of a man-page block (a YAML file shown with it) left out;
  - every quoted absolute path but collectd's own files gets FIXTURES in
    front, and the file or directory is made there: a HostsFile an
    inventory, a CountersFile (or a counters_file) a counters list, a
    PasswordFile a credentials file (mode 0600), a Replay a capture;
  - a "LoadPlugin NAME" line is added for a <Plugin NAME> block without one
    (an excerpt of a configuration), with the globals (PluginDir, BaseDir,
    TypesDB) first;
  - a winperf block with neither Replay, HostsFile nor <Host> reads the
    local registry, which only Windows has: a Replay of the fixture capture
    is added to it (on Linux collectd would rightly refuse it).
"""
import os
import re
import shutil
import sys

TOP, OUT, FIX = sys.argv[1], sys.argv[2], sys.argv[3]
KEEP = ("/usr/share/collectd/", "/usr/lib/collectd/")


def blocks():
    docs = ["README.md"] + sorted(
        os.path.join("doc", f) for f in os.listdir(os.path.join(TOP, "doc")))
    docs += sorted(os.path.join("debian", f)
                   for f in os.listdir(os.path.join(TOP, "debian"))
                   if f.endswith(".1"))
    for rel in docs:
        path = os.path.join(TOP, rel)
        if not os.path.isfile(path):
            continue
        lines = open(path, encoding="utf-8").read().split("\n")
        man = rel.endswith((".1", ".5"))
        start = None
        for i, line in enumerate(lines):
            opening = line.startswith(".nf") if man else line.startswith("```")
            closing = line.startswith(".fi") if man else line.startswith("```")
            if start is None and opening:
                start = i
            elif start is not None and closing:
                body = lines[start + 1:i]
                start = None
                if any(re.match(r"\s*<Plugin\b", b) for b in body):
                    yield rel, start_line(lines, body, i), body, man
    conf = os.path.join("conf", "collectd-winperf.conf")
    yield conf, 1, open(os.path.join(TOP, conf)).read().split("\n"), False


def start_line(lines, body, end):
    return end - len(body) + 1


def unman(body):
    text = []
    for b in body:
        b = b.replace("\\e", "\\").replace("\\(dq", '"').replace("\\-", "-")
        b = b.replace("\\&", "")
        text.append(b)
    last = max(i for i, b in enumerate(text) if "</Plugin>" in b)
    return text[:last + 1]


def fixture(kind, path):
    real = FIX + path
    if os.path.exists(real):
        return
    if kind == "replay":
        shutil.copytree(os.path.join(TOP, "conf", "demo"), real)
        return
    os.makedirs(os.path.dirname(real), exist_ok=True)
    if kind == "hosts":
        cred = FIX + "/etc/collectd/winperf.cred"
        fixture("cred", "/etc/collectd/winperf.cred")
        with open(real, "w") as f:
            f.write("defaults:\n  password_file: %s\n  timeout: 2\n"
                    "hosts:\n  - web01.corp.example\n  - name: sql01\n"
                    "    address: 10.0.0.12\n" % cred)
    elif kind == "cred":
        with open(real, "w") as f:
            f.write("username = svc-perf\npassword = not-a-password\n")
        os.chmod(real, 0o600)
    else:
        shutil.copy(os.path.join(TOP, "conf", "demo", "winperf.yaml"), real)


KIND = {"hostsfile": "hosts", "passwordfile": "cred",
        "credentialsfile": "cred", "replay": "replay"}


def mapped(line):
    m = re.match(r'(\s*)(\w+)(\s+)"(/[^"]*)"(.*)$', line)
    if not m or m.group(4).startswith(KEEP):
        return line
    kind = KIND.get(m.group(2).lower(), "counters")
    fixture(kind, m.group(4))
    return '%s%s%s"%s%s"%s' % (m.group(1), m.group(2), m.group(3), FIX,
                               m.group(4), m.group(5))


def complete(text):
    loaded = {m.group(1).lower() for m in
              (re.match(r"\s*<?LoadPlugin\s+\"?(\w+)", t) for t in text) if m}
    wanted = [m.group(1) for m in
              (re.match(r"\s*<Plugin\s+\"?(\w+)\"?\s*>", t) for t in text) if m]
    head = ['PluginDir "%s/plugins"' % FIX, 'BaseDir "%s"' % FIX,
            'TypesDB "/usr/share/collectd/types.db"', "Interval 1"]
    for p in wanted:
        if p.lower() not in loaded:
            head.append("LoadPlugin %s" % p)
            loaded.add(p.lower())
    out, depth, local = [], 0, None
    for t in text:
        if re.match(r"\s*<Plugin\s+\"?winperf\"?\s*>", t):
            depth, local = 1, True
        elif depth and re.match(r"\s*<Host\s", t):
            local = False
        elif depth and re.match(r"\s*(Replay|HostsFile)\s", t):
            local = False
        elif depth and re.match(r"\s*</Plugin>", t):
            if local:
                fixture("replay", "/capture")
                out.append('  Replay "%s/capture"' % FIX)
            depth, local = 0, None
        out.append(t)
    return head + out


def main():
    os.makedirs(OUT, exist_ok=True)
    n = 0
    with open(os.path.join(OUT, "list"), "w") as lst:
        for rel, line, body, man in blocks():
            text = unman(body) if man else body
            text = complete([mapped(t) for t in text])
            n += 1
            with open(os.path.join(OUT, "%d.conf" % n), "w") as f:
                f.write("\n".join(text) + "\n")
            lst.write("%d\t%s:%d\n" % (n, rel, line))


main()
