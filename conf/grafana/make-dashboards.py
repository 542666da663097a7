#!/usr/bin/python3
# collectd-winperf: writes the Grafana dashboards of conf/grafana/ (host
# overview, the collector's self-metrics, fleet) for Graphite, InfluxDB 1.x
# (InfluxQL) and Prometheus / VictoriaMetrics (PromQL), from one table of
# panels, so the three families show the same things.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   conf/grafana/make-dashboards.py [--check]
#
# --check writes nothing and exits 1 when a committed file differs from
# what this script makes (tests/e2e/backends.sh runs it). The names the
# queries use are the plugin's defaults (MetricNames "pdh") as each writer
# stores them: doc/backends.md. Panels use only the variables $host (and
# $prefix for Graphite), $__interval and $__rate_interval (PromQL), and
# $timeFilter and $__interval (InfluxQL).
import json
import re
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

BACKENDS = {
    "graphite": {"input": "DS_GRAPHITE", "plugin": "graphite",
                 "label": "Graphite", "name": "Graphite"},
    "influxdb": {"input": "DS_INFLUXDB", "plugin": "influxdb",
                 "label": "InfluxDB", "name": "InfluxDB 1.x (InfluxQL)"},
    "prometheus": {"input": "DS_PROMETHEUS", "plugin": "prometheus",
                   "label": "Prometheus",
                   "name": "Prometheus / VictoriaMetrics"},
}

# ------------------------------------------------------------ the queries
# Graphite: write_graphite's names, "$prefix$host.winperf-PLUGIN_INSTANCE.
# TYPE-TYPE_INSTANCE" with ' ', '.', ':', '/', '(' and ')' made '_'; rates
# as write_graphite stores them (StoreRates true, its default).
G = "$prefix$host.winperf-"
# Legends: the host, whatever the prefix (aliasSub on the whole name),
# and whatever functions wrap the name (scale(perSecond(NAME), 60)):
# write_graphite leaves no '(' in a name.
GH = r"'^(?:.*\()?(?:collectd\.)?([^.(]+)\..*', '\1'"
GI = r"'^(?:.*\()?(?:collectd\.)?([^.(]+)\.winperf-[^.-]+-([^.]+)\..*', '\1 \2'"
GT = r"'^(?:collectd\.)?([^.]+)\.[^.]+\.[a-z_]+-(.*)$', '\1 \2'"


def g_host(expr):
    return "aliasSub(%s, %s)" % (expr, GH)


def g_inst(expr):
    return "aliasSub(%s, %s)" % (expr, GI)


def g_type(expr):
    return "aliasSub(%s, %s)" % (expr, GT)


# InfluxQL: the collectd input's measurements winperf_value (data source
# "value") and winperf_seconds (type duration), tags host, instance
# (plugin instance), type, type_instance.
def iq(select, measurement, where, group="", fill=True):
    q = 'SELECT %s FROM "%s" WHERE "host" =~ /^$host$/ AND %s AND $timeFilter' % (
        select, measurement, where)
    if group:
        q += " GROUP BY " + group
        if fill:
            q += " fill(none)"
    return q


def iq_time(select, measurement, where, tag):
    tags = '"host"' if tag == "host" else '"host", "%s"' % tag
    return iq(select, measurement, where, "time($__interval), " + tags)


SELF_I = "\"instance\" = 'self' AND \"type_instance\" = '%s'"
SELF_P = 'instance=~"$host", winperf="self", type="%s"'


def t(g=None, i=None, p=None, legend=""):
    """One query per backend (None: this backend has none)."""
    return {"graphite": g, "influxdb": i, "prometheus": p, "legend": legend}


# Each panel: title, unit, kind (timeseries | table | stat), description,
# targets.
HOST = [
    ("CPU: all processors", "percent", "timeseries",
     r"\Processor(_Total)\% Processor Time",
     [t(g_host(G + "Processor-_Total.gauge-%_Processor_Time"),
        iq_time('mean("value")', "winperf_value",
                "\"instance\" = 'Processor-_Total' AND \"type_instance\" = '% Processor Time'",
                "host"),
        'collectd_winperf_gauge{instance=~"$host", winperf="Processor-_Total", type="% Processor Time"}',
        "{{instance}}")]),
    ("CPU: each processor", "percent", "timeseries",
     r"\Processor(*)\% Processor Time",
     [t(g_inst(G + "Processor-[0-9]*.gauge-%_Processor_Time"),
        iq_time('mean("value")', "winperf_value",
                "\"instance\" =~ /^Processor-[0-9]/ AND \"type_instance\" = '% Processor Time'",
                "instance"),
        'collectd_winperf_gauge{instance=~"$host", winperf=~"Processor-[0-9].*", type="% Processor Time"}',
        "{{instance}} {{winperf}}")]),
    ("Memory", "bytes", "timeseries",
     r"\Memory\Available Bytes, \Memory\Committed Bytes",
     [t(g_type(G + "Memory.gauge-{Available_Bytes,Committed_Bytes}"),
        iq_time('mean("value")', "winperf_value",
                "\"instance\" = 'Memory' AND \"type_instance\" =~ /^(Available Bytes|Committed Bytes)$/",
                "type_instance"),
        'collectd_winperf_gauge{instance=~"$host", winperf="Memory", type=~"Available Bytes|Committed Bytes"}',
        "{{instance}} {{type}}")]),
    ("Logical disks: free space", "percent", "timeseries",
     r"\LogicalDisk(*)\% Free Space",
     [t(g_inst("exclude(%sLogicalDisk-*.gauge-%%_Free_Space, '_Total')" % G),
        iq_time('mean("value")', "winperf_value",
                "\"instance\" =~ /^LogicalDisk-/ AND \"instance\" != 'LogicalDisk-_Total' AND \"type_instance\" = '% Free Space'",
                "instance"),
        'collectd_winperf_gauge{instance=~"$host", winperf=~"LogicalDisk-.+", winperf!="LogicalDisk-_Total", type="% Free Space"}',
        "{{instance}} {{winperf}}")]),
    ("Logical disks: free bytes", "bytes", "timeseries",
     r"\LogicalDisk(*)\Free Megabytes",
     [t(g_inst("scale(exclude(%sLogicalDisk-*.gauge-Free_Megabytes, '_Total'), 1048576)" % G),
        iq_time('mean("value") * 1048576', "winperf_value",
                "\"instance\" =~ /^LogicalDisk-/ AND \"instance\" != 'LogicalDisk-_Total' AND \"type_instance\" = 'Free Megabytes'",
                "instance"),
        '1048576 * collectd_winperf_gauge{instance=~"$host", winperf=~"LogicalDisk-.+", winperf!="LogicalDisk-_Total", type="Free Megabytes"}',
        "{{instance}} {{winperf}}")]),
    ("Network: received", "Bps", "timeseries",
     r"\Network Interface(*)\Bytes Received/sec (raw: true)",
     [t(g_inst(G + "Network_Interface-*.derive-Bytes_Received_sec"),
        iq_time('non_negative_derivative(mean("value"), 1s)', "winperf_value",
                "\"instance\" =~ /^Network Interface-/ AND \"type\" = 'derive' AND \"type_instance\" = 'Bytes Received_sec'",
                "instance"),
        'rate(collectd_winperf_derive_total{instance=~"$host", winperf=~"Network Interface-.+", type="Bytes Received_sec"}[$__rate_interval])',
        "{{instance}} {{winperf}}")]),
    ("Network: sent", "Bps", "timeseries",
     r"\Network Interface(*)\Bytes Sent/sec (raw: true)",
     [t(g_inst(G + "Network_Interface-*.derive-Bytes_Sent_sec"),
        iq_time('non_negative_derivative(mean("value"), 1s)', "winperf_value",
                "\"instance\" =~ /^Network Interface-/ AND \"type\" = 'derive' AND \"type_instance\" = 'Bytes Sent_sec'",
                "instance"),
        'rate(collectd_winperf_derive_total{instance=~"$host", winperf=~"Network Interface-.+", type="Bytes Sent_sec"}[$__rate_interval])',
        "{{instance}} {{winperf}}")]),
    ("System: processor queue and processes", "short", "timeseries",
     r"\System\Processor Queue Length, \System\Processes",
     [t(g_type(G + "System.gauge-{Processor_Queue_Length,Processes}"),
        iq_time('mean("value")', "winperf_value",
                "\"instance\" = 'System' AND \"type_instance\" =~ /^(Processor Queue Length|Processes)$/",
                "type_instance"),
        'collectd_winperf_gauge{instance=~"$host", winperf="System", type=~"Processor Queue Length|Processes"}',
        "{{instance}} {{type}}")]),
    ("Top 10 processes by CPU", "percent", "timeseries",
     r"\Process(*)\% Processor Time; with InstanceNames \"pid\" a process "
     r"is NAME:PID, one series per process however Windows renumbers name#n",
     [t(g_inst("highestAverage(exclude(%sProcess-*.gauge-%%_Processor_Time, 'Process-(_Total|Idle)\\.'), 10)" % G),
        iq('top("value", "instance", 10)', "winperf_value",
           "\"instance\" =~ /^Process-/ AND \"instance\" !~ /^Process-(_Total|Idle)$/ AND \"type_instance\" = '% Processor Time'"),
        'topk(10, collectd_winperf_gauge{instance=~"$host", winperf=~"Process-.+", winperf!~"Process-(_Total|Idle)", type="% Processor Time"})',
        "{{instance}} {{winperf}}")]),
    ("Top 10 processes by working set", "bytes", "timeseries",
     r"\Process(*)\Working Set (type: bytes, type_instance: working_set)",
     [t(g_inst("highestAverage(exclude(%sProcess-*.bytes-working_set, 'Process-(_Total|Idle)\\.'), 10)" % G),
        iq('top("value", "instance", 10)', "winperf_value",
           "\"instance\" =~ /^Process-/ AND \"instance\" !~ /^Process-(_Total|Idle)$/ AND \"type\" = 'bytes' AND \"type_instance\" = 'working_set'"),
        'topk(10, collectd_winperf_bytes{instance=~"$host", winperf=~"Process-.+", winperf!~"Process-(_Total|Idle)", type="working_set"})',
        "{{instance}} {{winperf}}")]),
]


def self_panel(title, unit, what, g_name, measurement, type_instance,
               p_metric, kind="timeseries", fn="mean"):
    return (title, unit, kind, what,
            [t(g_host(G + "self." + g_name),
               iq_time('%s("value")' % fn, measurement,
                       SELF_I % type_instance, "host"),
               '%s{%s}' % (p_metric, SELF_P % type_instance),
               "{{instance}}")])


SELF = [
    self_panel("Query duration", "s", "seconds the source took to return "
               "the performance data (duration-query)", "duration-query",
               "winperf_seconds", "query", "collectd_winperf_duration_seconds",
               fn="max"),
    self_panel("Decode duration", "s", "seconds to decode, select and "
               "compute (duration-decode)", "duration-decode",
               "winperf_seconds", "decode", "collectd_winperf_duration_seconds",
               fn="max"),
    self_panel("Blob size", "bytes", "the performance data's size "
               "(bytes-blob)", "bytes-blob", "winperf_value", "blob",
               "collectd_winperf_bytes"),
    self_panel("Values dispatched", "short", "values dispatched each "
               "interval (count-values)", "count-values", "winperf_value",
               "values", "collectd_winperf_count"),
    self_panel("Instances", "short", "instances in the answer "
               "(count-instances; count-objects: the objects)",
               "count-instances", "winperf_value", "instances",
               "collectd_winperf_count"),
    self_panel("Unmatched paths", "short", "counters-file entries that "
               "matched nothing (count-unmatched_paths: the log says why)",
               "count-unmatched_paths", "winperf_value", "unmatched_paths",
               "collectd_winperf_count"),
    # count-errors counts since collectd started (a gauge that only rises,
    # back to 0 when collectd restarts): a rate, never the count itself.
    ("Errors per minute", "short", "timeseries",
     "undecodable answers and source failures per minute (count-errors, a "
     "count since collectd started: its rate; a restart is no negative rate)",
     [t(g_host("scale(perSecond(%sself.count-errors), 60)" % G),
        iq_time('non_negative_derivative(last("value"), 1m)', "winperf_value",
                SELF_I % "errors", "host"),
        '60 * rate(collectd_winperf_count{%s}[$__rate_interval])'
        % (SELF_P % "errors"),
        "{{instance}}")]),
    self_panel("Backoff", "s", "a <Host>: seconds until its next try, 0 "
               "when healthy (duration-backoff)", "duration-backoff",
               "winperf_seconds", "backoff",
               "collectd_winperf_duration_seconds", fn="max"),
]


def fleet_last(title, unit, what, g_name, measurement, type_sel,
               p_metric, p_type):
    return (title, unit, "table", what,
            [t(g_host(G + "self." + g_name),
               iq('last("value")', measurement,
                  "\"instance\" = 'self' AND %s" % type_sel, '"host"',
                  fill=False),
               'max by (instance) (%s{instance=~"$host", winperf="self", type="%s"})'
               % (p_metric, p_type),
               "{{instance}}")])


FLEET = [
    ("Hosts reporting values", "short", "stat",
     "sources that dispatched values (count-values) in the time range",
     [t("countSeries(%sself.count-values)" % G,
        'SELECT count("v") FROM (SELECT last("value") AS "v" FROM "winperf_value" '
        "WHERE \"host\" =~ /^$host$/ AND \"instance\" = 'self' AND "
        "\"type_instance\" = 'values' AND $timeFilter GROUP BY \"host\")",
        'count(max by (instance) (collectd_winperf_count{%s}))'
        % (SELF_P % "values"),
        "hosts")]),
    # Errors in the time range from the count since start: the sum of its
    # rises (a restart's fall to 0 is no rise). PromQL has only the fixed
    # hour: $__range is not among the dashboards' variables.
    ("Hosts with errors", "short", "table",
     "source failures and undecodable answers (the rises of count-errors) "
     "per host that had any: in the time range (Graphite, InfluxDB), in "
     "the last hour (Prometheus, VictoriaMetrics). A failure in a host's "
     "first interval is its first value, no rise: a host refused at its "
     "first logon shows under Paused credentials",
     [t(g_host("sortByMaxima(removeEmptySeries(removeBelowValue(integral("
               "nonNegativeDerivative(%sself.count-errors)), 1)))" % G),
        'SELECT sum("rise") FROM (SELECT non_negative_difference("value") AS "rise" '
        'FROM "winperf_value" WHERE "host" =~ /^$host$/ AND %s AND $timeFilter '
        'GROUP BY "host") WHERE "rise" > 0 GROUP BY "host"' % (SELF_I % "errors"),
        'sort_desc(max by (instance) (increase(collectd_winperf_count{%s}[1h])) > 0)'
        % (SELF_P % "errors"),
        "{{instance}}")]),
    fleet_last("Backoff per host", "s", "a <Host>'s seconds until its next "
               "try; above 0: failing (the log says why)", "duration-backoff",
               "winperf_seconds", "\"type_instance\" = 'backoff'",
               "collectd_winperf_duration_seconds", "backoff"),
    fleet_last("Paused credentials", "short", "1 while the host's "
               "credential is paused after a refused logon (count-auth_paused)",
               "count-auth_paused", "winperf_value",
               "\"type\" = 'count' AND \"type_instance\" = 'auth_paused'",
               "collectd_winperf_count", "auth_paused"),
    fleet_last("Clock skew", "s", "the host's clock against the poller's "
               "(gauge-clock_skew); past 60 s values are re-stamped, past "
               "300 s Kerberos fails", "gauge-clock_skew", "winperf_value",
               "\"type\" = 'gauge' AND \"type_instance\" = 'clock_skew'",
               "collectd_winperf_gauge", "clock_skew"),
    ("Query duration against the interval", "s", "timeseries",
     "the longest query (duration-query) and the host's interval, "
     "estimated from how often its count-errors arrives (5 minutes of "
     "data; Graphite: per minute, needs a retention of one slot per "
     "interval or finer); a query near its interval makes collectd skip "
     "reads",
     [t(g_host(G + "self.duration-query"),
        iq_time('max("value")', "winperf_seconds", SELF_I % "query", "host"),
        'max by (instance) (max_over_time(collectd_winperf_duration_seconds{%s}[$__rate_interval]))'
        % (SELF_P % "query"),
        "{{instance}} query"),
      t("aliasSub(invert(scale(summarize(offset(scale(%sself.count-errors, 0), 1), '1min', 'sum', false), 0.016666666666666666)), %s)"
        % (G, r"'^.*\((?:collectd\.)?([^.(]+)\..*', '\1 interval'"),
        'SELECT elapsed("value", 1s) FROM "winperf_value" WHERE "host" =~ /^$host$/ AND '
        "\"instance\" = 'self' AND \"type_instance\" = 'errors' AND $timeFilter GROUP BY \"host\"",
        '300 / max by (instance) (count_over_time(collectd_winperf_count{%s}[5m]))'
        % (SELF_P % "errors"),
        "{{instance}} interval")]),
    ("Query duration as a share of the interval", "percentunit", "table",
     "above 0.8: lengthen the Interval or trim the counter list "
     "(doc/sizing.md); PromQL only, the others plot both above",
     [t(None, None,
        'max by (instance) (max_over_time(collectd_winperf_duration_seconds{%s}[5m]))'
        ' / on (instance) (300 / max by (instance) (count_over_time(collectd_winperf_count{%s}[5m])))'
        % (SELF_P % "query", SELF_P % "errors"),
        "{{instance}}")]),
    fleet_last("Unmatched paths per host", "short", "counters-file entries "
               "that match nothing on the host (the log names the reason)",
               "count-unmatched_paths", "winperf_value",
               "\"type_instance\" = 'unmatched_paths'",
               "collectd_winperf_count", "unmatched_paths"),
]

PAGES = [
    ("host", "Windows host overview", HOST,
     "CPU, memory, logical disks, network and the busiest processes of "
     "the Windows hosts collectd-winperf reads (the counters of "
     "conf/winperf.yaml)."),
    ("self", "collectd-winperf: the collector", SELF,
     "What each source (the local registry, a replay, each <Host>) "
     "measured about itself: collectd-winperf(5), SELF-METRICS."),
    ("fleet", "collectd-winperf: fleet", FLEET,
     "Which hosts fail, wait, have their credential paused or their clock "
     "off, and how long their queries take against their interval."),
]


# ------------------------------------------------------------ the JSON
def datasource(backend):
    b = BACKENDS[backend]
    return {"type": b["plugin"], "uid": "${%s}" % b["input"]}


def target(backend, q, ref):
    ds = datasource(backend)
    if backend == "graphite":
        return {"refId": ref, "datasource": ds, "target": q}
    if backend == "influxdb":
        return {"refId": ref, "datasource": ds, "query": q, "rawQuery": True,
                "resultFormat": "time_series"}
    return {"refId": ref, "datasource": ds, "expr": q, "legendFormat": None}


def panel(backend, pid, spec, x, y):
    title, unit, kind, what, targets = spec
    tg = []
    for n, tq in enumerate(x for x in targets if x[backend] is not None):
        one = target(backend, tq[backend], chr(ord("A") + n))
        if backend == "prometheus":
            one["legendFormat"] = tq["legend"]
        elif backend == "influxdb" and "GROUP BY" in tq[backend]:
            tags = re.findall(r'"(\w+)"', tq[backend].split("GROUP BY")[-1])
            one["alias"] = " ".join("$tag_" + x for x in tags)
        tg.append(one)
    if not tg:
        return None
    p = {"id": pid, "type": kind, "title": title, "description": what,
         "datasource": datasource(backend),
         "gridPos": {"h": 8, "w": 12, "x": x, "y": y},
         "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
         "options": {}, "targets": tg}
    if kind == "table" and backend == "graphite":
        # A table of Graphite series: one row per series, its last value.
        p["transformations"] = [{"id": "reduce", "options": {
            "mode": "seriesToRows", "reducers": ["lastNotNull"]}}]
    elif kind == "table":
        for one in tg:
            if backend == "prometheus":
                one["instant"] = True
                one["format"] = "table"
            else:
                one["resultFormat"] = "table"
    return p


def variables(backend):
    ds = datasource(backend)
    out = []
    if backend == "graphite":
        out.append({"name": "prefix", "type": "textbox", "label": "prefix",
                    "description": "write_graphite's Prefix: collectd. "
                    "from the MSI, empty on Linux (Debian's collectd)",
                    "query": "", "current": {"text": "", "value": ""},
                    "hide": 0})
        query = "${prefix}*"
    elif backend == "influxdb":
        query = 'SHOW TAG VALUES FROM "winperf_value" WITH KEY = "host"'
    else:
        query = ('label_values(collectd_winperf_count{winperf="self", '
                 'type="errors"}, instance)')
    # Graphite: carbon keeps tagged series (a ';' in a name) under
    # _tagged, which is no host.
    out.append({"name": "host", "type": "query", "label": "host",
                "datasource": ds, "query": query, "definition": query,
                "multi": True, "includeAll": True,
                "allValue": None if backend != "prometheus" else ".*",
                "refresh": 2, "sort": 1,
                "regex": "/^(?!_tagged$).*/" if backend == "graphite" else "",
                "current": {}, "options": [], "hide": 0})
    return out


def dashboard(backend, page):
    key, title, specs, description = page
    b = BACKENDS[backend]
    panels = []
    pid = 1
    for spec in specs:
        p = panel(backend, pid, spec, 12 * ((pid - 1) % 2), 8 * ((pid - 1) // 2))
        if p is not None:
            panels.append(p)
            pid += 1
    kinds = sorted({p["type"] for p in panels})
    names = {"timeseries": "Time series", "table": "Table", "stat": "Stat"}
    return {
        "__inputs": [{"name": b["input"], "label": b["label"],
                      "description": "the %s data source collectd-winperf's "
                      "values are in" % b["name"], "type": "datasource",
                      "pluginId": b["plugin"], "pluginName": b["label"]}],
        "__requires": [{"type": "grafana", "id": "grafana",
                        "name": "Grafana", "version": "9.0.0"},
                       {"type": "datasource", "id": b["plugin"],
                        "name": b["label"], "version": "1.0.0"}]
        + [{"type": "panel", "id": k, "name": names[k], "version": ""}
           for k in kinds],
        "annotations": {"list": []},
        "description": description,
        "editable": True,
        "graphTooltip": 1,
        "id": None,
        "links": [{"title": "collectd-winperf (%s)" % b["name"],
                   "type": "dashboards", "tags": ["collectd-winperf",
                                                  backend],
                   "asDropdown": True, "includeVars": True,
                   "keepTime": True}],
        "panels": panels,
        "refresh": "1m",
        "schemaVersion": 37,
        "tags": ["collectd-winperf", "windows", backend],
        "templating": {"list": variables(backend)},
        "time": {"from": "now-1h", "to": "now"},
        "timepicker": {},
        "timezone": "",
        "title": "%s (%s)" % (title, b["name"]),
        "uid": "winperf-%s-%s" % (backend, key),
        "version": 1,
    }


def files():
    for backend in BACKENDS:
        for page in PAGES:
            path = os.path.join(HERE, backend, "winperf-%s.json" % page[0])
            text = json.dumps(dashboard(backend, page), indent=2,
                              ensure_ascii=False) + "\n"
            yield path, text


def main(argv):
    check = argv[1:] == ["--check"]
    if argv[1:] not in ([], ["--check"]):
        print("usage: make-dashboards.py [--check]", file=sys.stderr)
        return 2
    stale = []
    for path, text in files():
        try:
            with open(path, encoding="utf-8") as f:
                same = f.read() == text
        except FileNotFoundError:
            same = False
        if same:
            continue
        if check:
            stale.append(os.path.relpath(path, HERE))
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    if stale:
        print("make-dashboards.py: out of date (run conf/grafana/make-dashboards.py): "
              + " ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
