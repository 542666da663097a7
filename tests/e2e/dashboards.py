#!/usr/bin/python3
# collectd-winperf tests: checks the Grafana dashboards of conf/grafana/
# (their JSON, as Grafana's import reads it) and runs every panel's query,
# with the variables substituted as Grafana would, against the real backend
# tests/e2e/backends.sh filled; each must return data.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
#   dashboards.py --time E --range SECONDS --host HOST
#                 [--graphite URL] [--influxdb URL] [--prometheus URL]...
#                 DASHBOARD.json...
#
# E: the Unix time the dashboards are looked at (the end of their time
# range); HOST: the host the host overview shows (the other pages show
# every host the host variable's query finds). A --prometheus URL may be
# given more than once (Prometheus, VictoriaMetrics): the PromQL
# dashboards run against each. Prints one TAP line per check without its
# number ("ok - ...", "not ok - ..."), then "# ..." lines for failures.
#
#   --expect 'PAGE|PANEL TITLE|REFID|CONDITION...'   (more than once)
#
# what that query must show on every backend, beyond data: per series (its
# host: Graphite's legend up to the first space, InfluxDB's tag host,
# PromQL's label instance) its largest value in the range, each CONDITION
# one of HOST (present), !HOST (absent), HOST==V, HOST>V, HOST>=V, HOST<V,
# HOST<=V; e.g. 'fleet|Paused credentials|A|pausedhost==1 skewhost==0'.
import argparse
import json
import re
import sys
import urllib.parse
import urllib.request

ALLOWED = {
    "graphite": {"host", "prefix"},
    "influxdb": {"host", "timeFilter", "__interval"},
    "prometheus": {"host", "__interval", "__rate_interval"},
}
VARIABLE = re.compile(r"\$(\{[A-Za-z_]+\}|[A-Za-z_]+)")

results = []


def check(ok, what, detail=""):
    results.append((bool(ok), what, detail))


def get(url, params):
    full = url + "?" + urllib.parse.urlencode(params)
    with urllib.request.urlopen(full, timeout=30) as r:
        return json.loads(r.read().decode("utf-8"))


# ------------------------------------------------------------ structure
def backend_of(d):
    inputs = d.get("__inputs", [])
    if len(inputs) != 1 or inputs[0].get("type") != "datasource":
        return None, None
    return inputs[0].get("pluginId"), inputs[0].get("name")


def query_text(backend, target):
    return target.get({"graphite": "target", "influxdb": "query",
                       "prometheus": "expr"}[backend])


def check_structure(name, d):
    backend, input_name = backend_of(d)
    check(backend in ALLOWED, "%s: __inputs has one datasource input of a "
          "known type" % name, str(d.get("__inputs")))
    if backend not in ALLOWED:
        return None
    want = {"type": backend, "uid": "${%s}" % input_name}
    vars_ = {v["name"]: v for v in d.get("templating", {}).get("list", [])}
    need = {"host", "prefix"} if backend == "graphite" else {"host"}
    check(need <= set(vars_), "%s: variables %s" % (name, sorted(need)),
          str(sorted(vars_)))
    host = vars_.get("host", {})
    check(host.get("type") == "query" and host.get("datasource") == want,
          "%s: $host is a query of the ${%s} data source" % (name, input_name))
    ids = [p.get("id") for p in d.get("panels", [])]
    check(len(ids) == len(set(ids)) and ids, "%s: panels with unique ids"
          % name, str(ids))
    bad = []
    for p in d.get("panels", []):
        if p.get("datasource") != want or not p.get("targets"):
            bad.append("%s (data source or targets)" % p.get("title"))
        for tg in p.get("targets", []):
            q = query_text(backend, tg)
            used = {m.strip("{}") for m in VARIABLE.findall(q or "")}
            if tg.get("datasource") != want or not q:
                bad.append("%s %s (data source or query)"
                           % (p.get("title"), tg.get("refId")))
            if not used <= ALLOWED[backend]:
                bad.append("%s %s uses %s" % (p.get("title"), tg.get("refId"),
                                             sorted(used - ALLOWED[backend])))
    check(not bad, "%s: every panel and query names ${%s}, uses only %s"
          % (name, input_name, sorted(ALLOWED[backend])), "; ".join(bad))
    tables = [p for p in d.get("panels", []) if p.get("type") == "table"]
    if backend == "graphite" and tables:
        # Graphite answers series: a table shows one row per series only
        # through Grafana's reduce transformation.
        unreduced = [p.get("title") for p in tables
                     if {"id": "reduce", "options": {
                         "mode": "seriesToRows", "reducers": ["lastNotNull"]}}
                     not in p.get("transformations", [])]
        check(not unreduced, "%s: every table (%d) reduces each series to "
              "its last value" % (name, len(tables)), "; ".join(unreduced))
    return backend


# ------------------------------------------------------------ the queries
def regex_list(values):
    """Grafana's multi-value formatting for a regex: (a|b), escaped."""
    return "(" + "|".join(re.escape(v) for v in values) + ")"


def hosts_of(backend, url, var, args):
    """The host variable's values: its query, then its regex (Grafana's
    /regex/ form)."""
    regex = var.get("regex") or "/.*/"
    keep = re.compile(regex[1:regex.rindex("/")])
    return [h for h in query_hosts(backend, url, var["query"], args)
            if keep.match(h)]


def query_hosts(backend, url, var_query, args):
    if backend == "graphite":
        found = get(url + "/metrics/find", {"query": var_query.replace(
            "${prefix}", "")})
        return sorted(x["text"] for x in found if not x.get("leaf"))
    if backend == "influxdb":
        r = get(url + "/query", {"db": "collectd", "q": var_query})
        series = r["results"][0].get("series", [])
        return sorted(v[1] for s in series for v in s["values"])
    m = re.fullmatch(r"label_values\((.*), *(\w+)\)", var_query)
    r = get(url + "/api/v1/series", {"match[]": m.group(1),
                                      "start": args.time - args.range,
                                      "end": args.time})
    return sorted({s[m.group(2)] for s in r["data"] if m.group(2) in s})


def substitute(backend, q, hosts, args):
    if backend == "graphite":
        hv = hosts[0] if len(hosts) == 1 else "{" + ",".join(hosts) + "}"
        return q.replace("$prefix", "").replace("$host", hv)
    hv = re.escape(hosts[0]) if len(hosts) == 1 else regex_list(hosts)
    q = q.replace("$host", hv).replace("$__rate_interval", "%ds" % args.range)
    q = q.replace("$__interval", "1s")
    return q.replace("$timeFilter", "time >= %ds AND time <= %ds"
                     % (args.time - args.range, args.time))


def series_of(backend, url, q, args):
    """The answer as [(series' host, [non-null values])], or an error."""
    if backend == "graphite":
        r = get(url + "/render", {"target": q, "format": "json",
                                  "from": args.time - args.range,
                                  "until": args.time + 1})
        # The legend (aliasSub): the host, then what the series is.
        return [(s["target"].split(" ")[0],
                 [v for v, _ in s["datapoints"] if v is not None]) for s in r]
    if backend == "influxdb":
        r = get(url + "/query", {"db": "collectd", "q": q, "epoch": "s"})
        res = r["results"][0]
        if "error" in res:
            raise ValueError(res["error"])
        return [(s.get("tags", {}).get("host"),
                 [v for row in s["values"] for v in row[1:] if v is not None])
                for s in res.get("series", [])]
    r = get(url + "/api/v1/query", {"query": q, "time": args.time})
    if r.get("status") != "success":
        raise ValueError(r.get("error", str(r)))
    return [(s["metric"].get("instance"), [float(s["value"][1])])
            for s in r["data"]["result"]]


CONDITION = re.compile(r"(!?)([\w.-]+)(?:(==|>=|<=|>|<)(-?[0-9.]+))?$")


def unmet(expect, found):
    """The conditions of EXPECT ("HOST", "!HOST", "HOST>V", ...) that the
    series FOUND (host -> its largest value) do not meet."""
    out = []
    for cond in expect.split():
        m = CONDITION.match(cond)
        if not m:
            out.append("%s (not a condition)" % cond)
            continue
        absent, host, op, v = m.groups()
        if absent:
            ok = host not in found
        elif host not in found:
            ok = False
        elif op:
            x, v = found[host], float(v)
            ok = {"==": x == v, ">=": x >= v, "<=": x <= v, ">": x > v,
                  "<": x < v}[op]
        else:
            ok = True
        if not ok:
            out.append(cond)
    return out


def run_queries(name, d, backend, url, label, args):
    page = re.search(r"winperf-(\w+)\.json$", name).group(1)
    var = next(v for v in d["templating"]["list"] if v["name"] == "host")
    hosts = hosts_of(backend, url, var, args)
    check(args.host in hosts, "%s on %s: $host's query finds %s" % (
        name, label, args.host), "found %s" % hosts)
    use = [args.host] if page == "host" else hosts
    for p in d["panels"]:
        for tg in p["targets"]:
            q = substitute(backend, query_text(backend, tg), use or [args.host],
                           args)
            what = "%s on %s: %s %s" % (name, label, p["title"], tg["refId"])
            try:
                series = series_of(backend, url, q, args)
            except Exception as e:  # an HTTP error is a failed query
                check(False, what + " returns data",
                      "%s\n%s: %s" % (q, type(e).__name__, e))
                continue
            n = sum(len(v) for _, v in series)
            check(n > 0, what + " returns data",
                  "%s\n%d series, %d values" % (q, len(series), n))
            expect = args.expect.get((page, p["title"], tg["refId"]))
            if expect is None:
                continue
            found = {h: max(v) for h, v in series if h and v}
            miss = unmet(expect, found)
            check(not miss, "%s shows %s" % (what, expect),
                  "%s\nunmet: %s; found %s" % (q, " ".join(miss), found))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--time", type=int, required=True)
    ap.add_argument("--range", type=int, default=300)
    ap.add_argument("--host", required=True)
    ap.add_argument("--graphite")
    ap.add_argument("--influxdb")
    ap.add_argument("--prometheus", action="append", default=[])
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    expect = {}
    for e in args.expect:
        page, title, ref, conds = e.split("|")
        expect[(page, title, ref)] = conds
    args.expect = expect
    urls = {"graphite": [args.graphite] if args.graphite else [],
            "influxdb": [args.influxdb] if args.influxdb else [],
            "prometheus": args.prometheus}
    for path in args.files:
        name = "/".join(path.split("/")[-2:])
        try:
            with open(path, encoding="utf-8") as f:
                d = json.load(f)
        except (OSError, ValueError) as e:
            check(False, "%s: valid JSON" % name, str(e))
            continue
        backend = check_structure(name, d)
        if backend is None:
            continue
        check(urls[backend], "%s: a %s server to run it against" % (
            name, backend))
        for url in urls[backend]:
            label = url.split("#")[-1] if "#" in url else url
            run_queries(name, d, backend, url.split("#")[0], label, args)
    for ok, what, detail in results:
        print("%s - %s" % ("ok" if ok else "not ok", what))
        if not ok and detail:
            for line in detail.splitlines():
                print("# " + line)
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
