#!/usr/bin/python3
# collectd-winperf tests: which of the plugin's names each backend's query
# language takes as they are. tests/e2e/backends.sh replays the capture's
# "Name Probe" object (tests/e2e/backends_capture.c: one instance per
# character a language may refuse, the i-th with the value i + 1) as host
# e2ehost (MetricNames "pdh", the default) and e2eclean (MetricNames
# "clean"); this queries each name, written into the query as it is, in
# each backend, and compares the table of results with the one in
# doc/backends.md (between its "names-table" markers).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   name-probe.py --time E --graphite URL --influxdb URL --prometheus URL
#                 --victoria URL --table doc/backends.md
#
# A cell is "yes" (exactly that series, with its value), "no" (nothing, or
# an error), or "more" (that series and others: a glob character). Prints
# the measured table; exits 1 when it differs from the document's.
import argparse
import json
import sys
import urllib.parse
import urllib.request

# tests/e2e/backends_capture.c's probe_names, in order.
PROBE = ["%", "#1", "(R)", "x y", "c/d", "\u00c6r\u00f8", "0,1", "{4D}",
         "[2]", "it's", "m;n", "o|p", "q=r", 'e"f', "g:h", "i.j", "k*l"]
COLUMNS = ["Graphite", "InfluxQL", "PromQL: Prometheus",
           "PromQL: VictoriaMetrics (Influx line protocol)",
           "PromQL: VictoriaMetrics (Graphite)"]
BEGIN = "<!-- names-table begin: tests/e2e/name-probe.py checks it -->"
END = "<!-- names-table end -->"


def get(url, params):
    full = url + "?" + urllib.parse.urlencode(params)
    try:
        with urllib.request.urlopen(full, timeout=30) as r:
            return json.loads(r.read().decode("utf-8"))
    except Exception:  # a refused query is a "no"
        return None


def pdh(name):
    """The plugin's default instance naming: '/' and '\\' -> '_'."""
    return name.replace("/", "_").replace("\\", "_")


def graphite_escape(s):
    """What write_graphite (EscapeCharacter "_") stores: these become "_"
    (measured: the carbon files of tests/e2e/backends.sh)."""
    return "".join("_" if c in ' .\t"\\:/(),\n\r' else c for c in s)


def verdict(found, want_name, want_value):
    """found: [(name, value)] the query returned."""
    mine = [v for n, v in found if n == want_name]
    if not mine or abs(mine[0] - want_value) > 1e-9:
        return "no"
    return "yes" if len(found) == 1 else "more"


def graphite(args, host, plugin_instance, value, ti="Value"):
    name = "%s.winperf-%s.gauge-%s" % (host, graphite_escape(plugin_instance), ti)
    r = get(args.graphite + "/render", {"target": name, "format": "json",
                                        "from": args.time - 1,
                                        "until": args.time + 1})
    found = [(s["target"], [v for v, _ in s["datapoints"] if v is not None])
             for s in (r or [])]
    return verdict([(n, v[-1]) for n, v in found if v], name, value)


def influxql(args, host, plugin_instance, value, ti="Value"):
    q = ("SELECT last(value) FROM winperf_value WHERE host = '%s' AND "
         "instance = '%s' AND type_instance = '%s' GROUP BY instance"
         % (host, plugin_instance, ti))
    r = get(args.influxdb + "/query", {"db": "collectd", "q": q})
    series = (r or {}).get("results", [{}])[0].get("series", [])
    found = [(s["tags"]["instance"], s["values"][0][1]) for s in series]
    return verdict(found, plugin_instance, value)


def promql(url, query, label, want, value, time):
    r = get(url + "/api/v1/query", {"query": query, "time": time})
    res = (r or {}).get("data", {}).get("result", [])
    found = [(s["metric"].get(label), float(s["value"][1])) for s in res]
    return verdict(found, want, value)


def prom_cell(url, args, host, plugin_instance, value, ti="Value"):
    q = 'collectd_winperf_gauge{instance="%s", winperf="%s", type="%s"}' % (
        host, plugin_instance, ti)
    return promql(url, q, "winperf", plugin_instance, value, args.time)


def vm_graphite(args, host, plugin_instance, value, ti="Value"):
    name = "%s.winperf-%s.gauge-%s" % (host, graphite_escape(plugin_instance), ti)
    return promql(args.victoria, '{__name__="%s"}' % name, "__name__", name,
                  value, args.time)


def row(args, host, plugin_instance, value, ti="Value"):
    return [graphite(args, host, plugin_instance, value, ti),
            influxql(args, host, plugin_instance, value, ti),
            prom_cell(args.prometheus, args, host, plugin_instance, value, ti),
            prom_cell(args.victoria, args, host, plugin_instance, value, ti),
            vm_graphite(args, host, plugin_instance, value, ti)]


def clean_names(args):
    """The clean names as Prometheus has them: (name, value) pairs, one per
    value (names the clean rules fold together keep one)."""
    r = get(args.prometheus + "/api/v1/query", {
        "query": 'collectd_winperf_gauge{instance="e2eclean", type="value"}',
        "time": args.time})
    res = (r or {}).get("data", {}).get("result", [])
    return sorted((s["metric"]["winperf"], float(s["value"][1])) for s in res)


def cell_md(s):
    """A Markdown table cell in code: a "|" escaped so it stays in its
    cell."""
    return "`%s`" % s.replace("|", "\\|")


def table(args):
    lines = ["| instance name | stored as (Graphite) | " + " | ".join(COLUMNS)
             + " |", "|---" * (len(COLUMNS) + 2) + "|"]
    for i, n in enumerate(PROBE):
        pi = "Name Probe-" + pdh(n)
        cells = row(args, "e2ehost", pi, i + 1)
        lines.append("| %s | %s | %s |" % (
            cell_md(n), cell_md(graphite_escape(pi)), " | ".join(cells)))
    clean = clean_names(args)
    cells = [row(args, "e2eclean", n, v, "value") for n, v in clean]
    summary = ["yes" if cells and all(r[j] == "yes" for r in cells) else "no"
               for j in range(len(COLUMNS))]
    lines.append("| all %d clean names (`%s` ...) | the same | %s |" % (
        len(clean), clean[0][0] if clean else "none", " | ".join(summary)))
    return lines


def documented(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        return None
    part = text.split(BEGIN, 1)[1].split(END, 1)[0]
    return [x for x in part.strip().splitlines() if x.strip()]


def main():
    ap = argparse.ArgumentParser()
    for opt in ("graphite", "influxdb", "prometheus", "victoria", "table"):
        ap.add_argument("--" + opt, required=True)
    ap.add_argument("--time", type=int, required=True)
    args = ap.parse_args()
    got = table(args)
    print("\n".join(got))
    want = documented(args.table)
    if want != got:
        print("differs from %s:" % args.table)
        print("\n".join(want or ["(no names-table markers)"]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
