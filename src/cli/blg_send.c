/* collectd-winperf: `winperf blg --graphite HOST:PORT` and `--influx-udp
 * HOST:PORT`: a whole log sent to a time-series database, every value at
 * its sample's time, named as the plugin names it through collectd's
 * write_graphite and network plugins (collectd-winperf(5), "Metric names"):
 *   Graphite  HOST.winperf-PLUGIN_INSTANCE.gauge-TYPE_INSTANCE VALUE UNIX_S
 *             (write_graphite's escaping: '.', ' ', ':' and the like -> '_')
 *   InfluxDB  winperf_value,host=HOST,instance=PLUGIN_INSTANCE,type=gauge,
 *             type_instance=TYPE_INSTANCE value=VALUE UNIX_NS
 * HOST is the logged machine.
 */
#include "blg_cli.h"
#include "json.h"

#include <stdlib.h>
#include <string.h>

void blg_result_names(const blg_run *r, const pd_result *res, char *pi,
                      size_t pi_size, char *ti, size_t ti_size) {
  char by_id[512], obj[512], inst[512], ctr[512];
  wp_metric_names m = r->opt.metric_names;
  const char *instance = wp_name_part(
      inst, sizeof inst,
      wp_name_instance(by_id, sizeof by_id, res, r->opt.instance_names), m);
  wp_name_plugin_instance(pi, pi_size,
                          wp_name_part(obj, sizeof obj, res->object, m),
                          instance, NULL, false);
  wp_name_type_instance(
      ti, ti_size, wp_name_part(ctr, sizeof ctr, res->counter, m), NULL, false);
}

#ifdef _WIN32
int blg_send(blg_run *r) {
  (void)r;
  return cli_error("blg: --graphite and --influx-udp are not in the Windows "
                   "build; run them on Linux");
}
#else

#include <netdb.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define EPOCH_DIFF_100NS INT64_C(116444736000000000)

typedef struct sender {
  int fd;
  bool udp;
  char buf[1400]; /* one datagram / write */
  size_t len;
  size_t sent;
  bool failed;
} sender;

static int open_target(const char *target, bool udp, int *fd) {
  char host[256];
  const char *colon = strrchr(target, ':');
  if (colon == NULL || colon == target || colon[1] == '\0' ||
      (size_t)(colon - target) >= sizeof host)
    return cli_error("blg: '%s' is not HOST:PORT", target);
  memcpy(host, target, (size_t)(colon - target));
  host[colon - target] = '\0';
  struct addrinfo hints = {.ai_socktype = udp ? SOCK_DGRAM : SOCK_STREAM};
  struct addrinfo *ai = NULL;
  int gai = getaddrinfo(host, colon + 1, &hints, &ai);
  if (gai != 0)
    return cli_error("blg: %s: %s", target, gai_strerror(gai));
  *fd = -1;
  for (struct addrinfo *a = ai; a != NULL && *fd < 0; a = a->ai_next) {
    *fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (*fd >= 0 && connect(*fd, a->ai_addr, a->ai_addrlen) != 0) {
      close(*fd);
      *fd = -1;
    }
  }
  freeaddrinfo(ai);
  if (*fd < 0)
    return cli_error("blg: cannot connect to %s", target);
  return 0;
}

static void flush_out(sender *s) {
  size_t off = 0;
  while (off < s->len && !s->failed) {
    ssize_t n = send(s->fd, s->buf + off, s->len - off, 0);
    if (n <= 0)
      s->failed = true;
    else
      off += (size_t)n;
  }
  s->len = 0;
  if (s->udp) { /* pace datagrams: a burst overflows a receive buffer */
    struct timespec ts = {0, 200000};
    nanosleep(&ts, NULL);
  }
}

static void put_line(sender *s, const char *line) {
  size_t n = strlen(line);
  if (s->len + n > sizeof s->buf)
    flush_out(s);
  if (n > sizeof s->buf)
    return; /* a name longer than a datagram: not sendable */
  memcpy(s->buf + s->len, line, n);
  s->len += n;
  s->sent++;
}

/* write_graphite's escaping of one part (its EscapeCharacter '_'). */
static void graphite_part(char *dst, size_t size, const char *src) {
  size_t i = 0;
  for (; src[i] && i + 1 < size; i++)
    dst[i] = strchr(". \t\"\\:!/()\n\r", src[i]) ? '_' : src[i];
  dst[i] = '\0';
}

/* InfluxDB line protocol: ',', '=' and ' ' in a tag escaped. */
static void influx_tag(char *dst, size_t size, const char *src) {
  size_t o = 0;
  for (; *src && o + 2 < size; src++) {
    if (*src == ',' || *src == '=' || *src == ' ')
      dst[o++] = '\\';
    dst[o++] = *src;
  }
  dst[o] = '\0';
}

static int send_sample(void *ctx, blg_run *r, size_t s, size_t m,
                       const pd_result *res, size_t n) {
  sender *sd = ctx;
  int64_t t = blg_sample_utc(r->log, s) - EPOCH_DIFF_100NS;
  const char *host = blg_machine_at(r->log, m);
  for (size_t i = 0; i < n && !sd->failed; i++) {
    if (res[i].status != PD_VALUE_OK)
      continue;
    char pi[256], ti[256], a[300], b[300], c[300], v[40], line[1400];
    blg_result_names(r, &res[i], pi, sizeof pi, ti, sizeof ti);
    json_format_double(res[i].value, v, sizeof v);
    if (sd->udp) {
      influx_tag(a, sizeof a, host);
      influx_tag(b, sizeof b, pi);
      influx_tag(c, sizeof c, ti);
      snprintf(line, sizeof line,
               "winperf_value,host=%s,instance=%s,type=gauge,"
               "type_instance=%s value=%s %lld00\n",
               a, b, c, v, (long long)t);
      if (sd->len > 0 && sd->len + strlen(line) > sizeof sd->buf)
        flush_out(sd); /* whole lines per datagram */
    } else {
      char pn[300], tn[300];
      snprintf(pn, sizeof pn, "winperf-%s", pi);
      snprintf(tn, sizeof tn, "gauge-%s", ti);
      graphite_part(a, sizeof a, host);
      graphite_part(b, sizeof b, pn);
      graphite_part(c, sizeof c, tn);
      snprintf(line, sizeof line, "%s.%s.%s %s %lld\n", a, b, c, v,
               (long long)(t / 10000000));
    }
    put_line(sd, line);
  }
  if (sd->udp)
    flush_out(sd); /* a datagram per sample at least */
  return sd->failed ? cli_error("blg: sending to %s failed", r->target) : 0;
}

int blg_send(blg_run *r) {
  sender s = {.udp = r->mode == BLG_MODE_INFLUX};
  if (open_target(r->target, s.udp, &s.fd) != 0)
    return CLI_EXIT_ERROR;
  int rc = blg_run_samples(r, send_sample, &s);
  flush_out(&s);
  close(s.fd);
  if (rc == 0 && s.failed)
    rc = cli_error("blg: sending to %s failed", r->target);
  if (rc == 0)
    fprintf(stderr, "winperf: %s: %zu values sent to %s\n", r->file, s.sent,
            r->target);
  return rc;
}
#endif
