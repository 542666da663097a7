# shellcheck shell=bash
# collectd-winperf end-to-end test library: the backends beyond carbon and
# InfluxDB 1.x (sourced after tests/e2e/lib.sh, bash).
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
#
# Each starts a real server of Debian 12 on 127.0.0.1 with free ports and
# its files under $E2E_DIR, records its pid for e2e_cleanup, and fails the
# test (e2e_bail) when it does not answer:
#   e2e_start_prometheus SCRAPE_PORT RULE_FILE...
#                         Prometheus 2.42 scraping collectd's write_prometheus
#                         on SCRAPE_PORT every 200 ms, honor_labels: true
#                         (conf/prometheus/README.md), evaluating RULE_FILEs
#                         every second; PROM_HTTP
#   e2e_start_victoria RELABEL
#                         VictoriaMetrics single node with the Graphite and
#                         Influx line protocol listeners and the relabeling
#                         file RELABEL, -search.latencyOffset=1s; VM_HTTP,
#                         VM_GRAPHITE (tcp), VM_INFLUX (udp)
#   e2e_start_graphite_web
#                         graphite-web's render and find API over carbon's
#                         whisper files (after e2e_start_carbon), through a
#                         private settings module and Django's own server;
#                         nothing under /etc is read for settings or
#                         written; GRAPHITE_HTTP

# e2e_yaml_list FILE...: a YAML flow list of quoted paths.
e2e_yaml_list() {
  _sep=
  printf '['
  for _f in "$@"; do
    printf '%s"%s"' "$_sep" "$_f"
    _sep=', '
  done
  printf ']'
}

e2e_start_prometheus() {
  need prometheus curl
  PROM_DIR=$E2E_DIR/prometheus
  PROM_HTTP=$(e2e_free_port tcp)
  _target=$1
  shift
  mkdir -p "$PROM_DIR/data"
  # honor_labels: the Windows host stays in "instance" (the scrape would
  # otherwise rename it exported_instance), as in conf/prometheus/README.md.
  cat >"$PROM_DIR/prometheus.yml" <<EOF
global:
  scrape_interval: 200ms
  scrape_timeout: 150ms
  evaluation_interval: 1s
rule_files: $(e2e_yaml_list "$@")
scrape_configs:
  - job_name: winperf
    honor_labels: true
    static_configs:
      - targets: ["127.0.0.1:$_target"]
EOF
  e2e_spawn "$PROM_DIR/prometheus.log" /usr/bin/prometheus \
    --config.file="$PROM_DIR/prometheus.yml" \
    --storage.tsdb.path="$PROM_DIR/data" \
    --web.listen-address="127.0.0.1:$PROM_HTTP" \
    --web.console.templates="$PROM_DIR" --web.console.libraries="$PROM_DIR"
  e2e_wait_for 60 e2e_http_ok "http://127.0.0.1:$PROM_HTTP/-/ready" ||
    e2e_bail "prometheus is ready on 127.0.0.1:$PROM_HTTP"
}

e2e_start_victoria() {
  need victoria-metrics curl ss
  VM_DIR=$E2E_DIR/victoria
  VM_HTTP=$(e2e_free_port tcp)
  VM_GRAPHITE=$(e2e_free_port tcp)
  # One port for the Influx listener's TCP and UDP sockets: free in both.
  while :; do
    VM_INFLUX=$(e2e_free_port udp)
    ss -Hnt "sport = :$VM_INFLUX" | grep -q . || break
  done
  mkdir -p "$VM_DIR"
  e2e_spawn "$VM_DIR/victoria.log" /usr/bin/victoria-metrics \
    -storageDataPath="$VM_DIR/data" -httpListenAddr="127.0.0.1:$VM_HTTP" \
    -graphiteListenAddr="127.0.0.1:$VM_GRAPHITE" \
    -influxListenAddr="127.0.0.1:$VM_INFLUX" -relabelConfig="$1" \
    -search.latencyOffset=1s -loggerLevel=WARN
  e2e_wait_for 60 e2e_http_ok "http://127.0.0.1:$VM_HTTP/health" ||
    e2e_bail "victoria-metrics answers /health on 127.0.0.1:$VM_HTTP"
  e2e_wait_for 30 e2e_udp_bound "$VM_INFLUX" ||
    e2e_bail "victoria-metrics' Influx listener on 127.0.0.1:$VM_INFLUX/udp"
  e2e_wait_for 30 e2e_tcp_open "$VM_GRAPHITE" ||
    e2e_bail "victoria-metrics' Graphite listener on 127.0.0.1:$VM_GRAPHITE"
}

e2e_start_graphite_web() {
  need python3 curl
  GW_DIR=$E2E_DIR/graphite-web
  GRAPHITE_HTTP=$(e2e_free_port tcp)
  mkdir -p "$GW_DIR/settings" "$GW_DIR/log"
  # graphite.settings imports the module GRAPHITE_SETTINGS_MODULE names
  # instead of /etc/graphite/local_settings.py; the defaults it then
  # derives (storage, index, log, database) all point here.
  cat >"$GW_DIR/settings/winperf_graphite_settings.py" <<EOF
SECRET_KEY = 'collectd-winperf-test-only'
STORAGE_DIR = '$GW_DIR'
WHISPER_DIR = '$CARBON_DIR/whisper/'
STANDARD_DIRS = [WHISPER_DIR]
LOG_DIR = '$GW_DIR/log'
INDEX_FILE = '$GW_DIR/index'
CARBONLINK_HOSTS = []
DATABASES = {'default': {'NAME': '$GW_DIR/graphite.db',
                         'ENGINE': 'django.db.backends.sqlite3'}}
ALLOWED_HOSTS = ['127.0.0.1']
EOF
  # Debian's python3 (graphite-web's modules are there, not in a user's
  # own python3 earlier in PATH).
  _gw_env=(env PYTHONPATH="$GW_DIR/settings"
    GRAPHITE_SETTINGS_MODULE=winperf_graphite_settings
    DJANGO_SETTINGS_MODULE=graphite.settings)
  "${_gw_env[@]}" /usr/bin/python3 -m django migrate --run-syncdb -v0 \
    >"$GW_DIR/migrate.log" 2>&1 ||
    e2e_bail "graphite-web's database (apt-get install graphite-web): $(tail -1 "$GW_DIR/migrate.log")"
  e2e_spawn "$GW_DIR/server.log" "${_gw_env[@]}" /usr/bin/python3 -m django \
    runserver --noreload "127.0.0.1:$GRAPHITE_HTTP"
  e2e_wait_for 60 e2e_http_ok "http://127.0.0.1:$GRAPHITE_HTTP/version/" ||
    e2e_bail "graphite-web answers on 127.0.0.1:$GRAPHITE_HTTP"
}

e2e_http_ok() { curl -sf -o /dev/null "$1"; }

# e2e_promql BASE QUERY [TIME]: the answer of BASE/api/v1/query (JSON).
e2e_promql() {
  if [ -n "${3:-}" ]; then
    curl -sG "$1/api/v1/query" --data-urlencode "query=$2" --data-urlencode "time=$3"
  else
    curl -sG "$1/api/v1/query" --data-urlencode "query=$2"
  fi
}

# e2e_promql_values BASE QUERY [TIME]: the values of an instant vector's
# samples, %.12g, sorted, space-separated ("" when none).
e2e_promql_values() {
  e2e_promql "$@" | /usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin)
vals = sorted(float(s["value"][1]) for s in r.get("data", {}).get("result", []))
print(" ".join("%.12g" % v for v in vals))'
}

# e2e_promql_samples BASE SELECTOR[RANGE] TIME: "time value" lines of a
# range vector's one series (its raw samples).
e2e_promql_samples() {
  e2e_promql "$@" | /usr/bin/python3 -c '
import json, sys
for s in json.load(sys.stdin).get("data", {}).get("result", []):
    for t, v in s["values"]:
        print("%d %s" % (round(float(t)), v))'
}
