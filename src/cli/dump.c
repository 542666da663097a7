/* collectd-winperf: `winperf dump`: everything a V1 blob holds.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Header (spec 1.2), objects with their NumInstances meaning (1.5), counter
 * definitions, instances under their full PDH names (1.4) and raw values.
 */
#include "cli.h"
#include "json.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Spec 1.5. */
static const char *num_instances_meaning(int32_t n) {
  if (n == -1)
    return "single instance";
  if (n == 0)
    return "multi-instance, no instances now";
  if (n > 0)
    return "multi-instance";
  if (n == -2)
    return "metadata only, multiple instances";
  if (n == -3)
    return "metadata only, no instances";
  return "invalid";
}

static const char *index_name(const pd_names *names, uint32_t index) {
  return names != NULL ? pd_names_get(names, index) : NULL;
}

/* The parent instance's full name (svchost#1), when the parent object and
 * instance are in this blob (spec 1.4), else NULL. */
static const char *parent_name(pd_snapshot *snap, const pd_instance *inst) {
  if (inst->parent_object == 0)
    return NULL;
  const pd_object *pobj = pd_snapshot_find_object(snap, inst->parent_object);
  if (pobj == NULL || inst->parent_instance >= pobj->instance_count)
    return NULL;
  return pd_instance_full_name(snap, pobj, inst->parent_instance);
}

/* A raw value is readable for 4- and 8-byte numeric counters only. */
static bool raw_readable(const pd_counter_def *def) {
  return def->size == 4 || def->size == 8;
}

static bool is_single(const pd_object *obj) {
  return obj->num_instances == -1;
}

/* ---------------------------------------------------------------- text */

static void text_name(FILE *out, const char *name) {
  if (name != NULL) {
    fputs(" \"", out);
    cli_put_text(out, name);
    fputc('"', out);
  }
}

static void dump_text(FILE *out, const char *file, size_t len,
                      pd_snapshot *snap, const pd_names *names) {
  const pd_header *h = pd_snapshot_header(snap);
  char buf[64];
  fputs("file: ", out);
  cli_put_text(out, file);
  fprintf(out, " (%zu bytes)\n", len);
  fprintf(out, "header:\n");
  fprintf(out, "  byte order:        %s-endian\n",
          h->big_endian ? "big" : "little");
  fprintf(out, "  version:           %" PRIu32 " revision %" PRIu32 "\n",
          h->version, h->revision);
  fprintf(out, "  total byte length: %" PRIu32 "\n", h->total_byte_length);
  fprintf(out, "  header length:     %" PRIu32 "\n", h->header_length);
  fprintf(out,
          "  objects:           %" PRIu32 " (NumObjectTypes %" PRIu32 ")\n",
          pd_snapshot_object_count(snap), h->num_object_types);
  fprintf(out, "  default object:    %" PRId32 "\n", h->default_object);
  fprintf(out, "  system name:       ");
  cli_put_text(out, h->system_name ? h->system_name : "");
  fputc('\n', out);
  cli_format_systemtime(h->system_time, buf, sizeof buf);
  fprintf(out, "  system time:       %s (day of week %u)\n", buf,
          h->system_time[2]);
  fprintf(out, "  perf time:         %" PRId64 "\n", h->perf_time);
  fprintf(out, "  perf freq:         %" PRId64 "\n", h->perf_freq);
  cli_format_filetime(h->perf_time_100ns, buf, sizeof buf);
  fprintf(out, "  perf time 100ns:   %" PRId64 " (%s)\n", h->perf_time_100ns,
          buf);

  uint32_t nobj = pd_snapshot_object_count(snap);
  for (uint32_t i = 0; i < nobj; i++) {
    const pd_object *obj = pd_snapshot_object(snap, i);
    fprintf(out, "\nobject %" PRIu32, obj->name_index);
    text_name(out, index_name(names, obj->name_index));
    fprintf(out, " at 0x%zx:\n", obj->wire_offset);
    fprintf(out, "  NumInstances:    %" PRId32 " (%s)\n", obj->num_instances,
            num_instances_meaning(obj->num_instances));
    fprintf(out,
            "  help index:      %" PRIu32 "\n"
            "  detail level:    %" PRIu32 "\n"
            "  default counter: %" PRId32 "\n"
            "  code page:       %" PRIu32 "\n"
            "  perf time:       %" PRId64 "\n"
            "  perf freq:       %" PRId64 "\n",
            obj->help_index, obj->detail_level, obj->default_counter,
            obj->code_page, obj->perf_time, obj->perf_freq);
    fprintf(out, "  counters: %" PRIu32 "\n", obj->counter_count);
    for (uint32_t c = 0; c < obj->counter_count; c++) {
      const pd_counter_def *def = &obj->counters[c];
      fprintf(out, "    [%" PRIu32 "] %" PRIu32, c, def->name_index);
      text_name(out, index_name(names, def->name_index));
      fprintf(out,
              ": %s (0x%08" PRIx32 "), size %" PRIu32 ", offset %" PRIu32
              ", scale %" PRId32 ", detail %" PRIu32 ", help %" PRIu32 "\n",
              cli_type_name(def->type, buf, sizeof buf), def->type, def->size,
              def->offset, def->default_scale, def->detail_level,
              def->help_index);
    }
    fprintf(out, "  instances: %" PRIu32 "\n", obj->instance_count);
    for (uint32_t k = 0; k < obj->instance_count; k++) {
      const pd_instance *inst = &obj->instances[k];
      if (is_single(obj)) {
        fprintf(out, "    (single instance)");
      } else {
        const char *full = pd_instance_full_name(snap, obj, k);
        fprintf(out, "    [%" PRIu32 "] \"", k);
        cli_put_text(out, full ? full : "");
        fprintf(out, "\" at 0x%zx, unique id %" PRId32, inst->wire_offset,
                inst->unique_id);
        if (inst->parent_object != 0) {
          fprintf(out, ", parent %" PRIu32 "[%" PRIu32 "]", inst->parent_object,
                  inst->parent_instance);
          text_name(out, parent_name(snap, inst));
        }
      }
      fprintf(out, ", block at 0x%zx (%" PRIu32 " bytes)\n", inst->block_offset,
              inst->block_length);
      for (uint32_t c = 0; c < obj->counter_count; c++) {
        const pd_counter_def *def = &obj->counters[c];
        fprintf(out, "      %" PRIu32, def->name_index);
        text_name(out, index_name(names, def->name_index));
        if (raw_readable(def))
          fprintf(out, " = %" PRIu64 "\n", pd_counter_raw(snap, inst, def));
        else
          fprintf(out, " = - (%" PRIu32 " bytes)\n", def->size);
      }
    }
  }
}

/* ---------------------------------------------------------------- JSON */

static void dump_json(FILE *out, const char *file, size_t len,
                      pd_snapshot *snap, const pd_names *names) {
  const pd_header *h = pd_snapshot_header(snap);
  char buf[64];
  json_writer w;
  json_init(&w, out);
  json_begin_object(&w);
  json_key(&w, "file");
  json_string(&w, file);
  json_key(&w, "size");
  json_uint(&w, len);

  json_key(&w, "header");
  json_begin_object(&w);
  json_key(&w, "byte_order");
  json_string(&w, h->big_endian ? "big-endian" : "little-endian");
  json_key(&w, "version");
  json_uint(&w, h->version);
  json_key(&w, "revision");
  json_uint(&w, h->revision);
  json_key(&w, "total_byte_length");
  json_uint(&w, h->total_byte_length);
  json_key(&w, "header_length");
  json_uint(&w, h->header_length);
  json_key(&w, "num_object_types");
  json_uint(&w, h->num_object_types);
  json_key(&w, "default_object");
  json_int(&w, h->default_object);
  json_key(&w, "system_name");
  json_string(&w, h->system_name ? h->system_name : "");
  json_key(&w, "system_time");
  cli_format_systemtime(h->system_time, buf, sizeof buf);
  json_string(&w, buf);
  json_key(&w, "system_time_day_of_week");
  json_uint(&w, h->system_time[2]);
  json_key(&w, "perf_time");
  json_int(&w, h->perf_time);
  json_key(&w, "perf_freq");
  json_int(&w, h->perf_freq);
  json_key(&w, "perf_time_100ns");
  json_int(&w, h->perf_time_100ns);
  json_key(&w, "perf_time_100ns_utc");
  if (cli_format_filetime(h->perf_time_100ns, buf, sizeof buf))
    json_string(&w, buf);
  else
    json_null(&w);
  json_end_object(&w);

  json_key(&w, "objects");
  json_begin_array(&w);
  uint32_t nobj = pd_snapshot_object_count(snap);
  for (uint32_t i = 0; i < nobj; i++) {
    const pd_object *obj = pd_snapshot_object(snap, i);
    json_begin_object(&w);
    json_key(&w, "index");
    json_uint(&w, obj->name_index);
    json_key(&w, "name");
    json_string(&w, index_name(names, obj->name_index));
    json_key(&w, "offset");
    json_uint(&w, obj->wire_offset);
    json_key(&w, "num_instances");
    json_int(&w, obj->num_instances);
    json_key(&w, "num_instances_meaning");
    json_string(&w, num_instances_meaning(obj->num_instances));
    json_key(&w, "help_index");
    json_uint(&w, obj->help_index);
    json_key(&w, "detail_level");
    json_uint(&w, obj->detail_level);
    json_key(&w, "default_counter");
    json_int(&w, obj->default_counter);
    json_key(&w, "code_page");
    json_uint(&w, obj->code_page);
    json_key(&w, "perf_time");
    json_int(&w, obj->perf_time);
    json_key(&w, "perf_freq");
    json_int(&w, obj->perf_freq);

    json_key(&w, "counters");
    json_begin_array(&w);
    for (uint32_t c = 0; c < obj->counter_count; c++) {
      const pd_counter_def *def = &obj->counters[c];
      json_begin_object(&w);
      json_key(&w, "index");
      json_uint(&w, def->name_index);
      json_key(&w, "name");
      json_string(&w, index_name(names, def->name_index));
      json_key(&w, "type");
      json_string(&w, cli_type_name(def->type, buf, sizeof buf));
      json_key(&w, "type_value");
      json_uint(&w, def->type);
      json_key(&w, "size");
      json_uint(&w, def->size);
      json_key(&w, "offset");
      json_uint(&w, def->offset);
      json_key(&w, "scale");
      json_int(&w, def->default_scale);
      json_key(&w, "detail_level");
      json_uint(&w, def->detail_level);
      json_key(&w, "help_index");
      json_uint(&w, def->help_index);
      json_end_object(&w);
    }
    json_end_array(&w);

    json_key(&w, "instances");
    json_begin_array(&w);
    for (uint32_t k = 0; k < obj->instance_count; k++) {
      const pd_instance *inst = &obj->instances[k];
      json_begin_object(&w);
      json_key(&w, "name");
      json_string(&w, is_single(obj) ? NULL : pd_instance_name(snap, obj, k));
      json_key(&w, "full_name");
      json_string(&w,
                  is_single(obj) ? NULL : pd_instance_full_name(snap, obj, k));
      json_key(&w, "offset");
      if (is_single(obj))
        json_null(&w);
      else
        json_uint(&w, inst->wire_offset);
      json_key(&w, "unique_id");
      json_int(&w, inst->unique_id);
      json_key(&w, "parent_object");
      json_uint(&w, inst->parent_object);
      json_key(&w, "parent_instance");
      json_uint(&w, inst->parent_instance);
      json_key(&w, "parent");
      json_string(&w, parent_name(snap, inst));
      json_key(&w, "block_offset");
      json_uint(&w, inst->block_offset);
      json_key(&w, "block_length");
      json_uint(&w, inst->block_length);
      json_key(&w, "values");
      json_begin_array(&w);
      for (uint32_t c = 0; c < obj->counter_count; c++) {
        const pd_counter_def *def = &obj->counters[c];
        if (raw_readable(def))
          json_uint(&w, pd_counter_raw(snap, inst, def));
        else
          json_null(&w);
      }
      json_end_array(&w);
      json_end_object(&w);
    }
    json_end_array(&w);
    json_end_object(&w);
  }
  json_end_array(&w);
  json_end_object(&w);
  json_finish(&w);
}

/* ---------------------------------------------------------------- main */

int cmd_dump(int argc, char **argv) {
  static const struct option longopts[] = {
      CLI_COMMON_LONGOPTS,
      {NULL, 0, NULL, 0},
  };
  cli_common opt = {0};
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, CLI_COMMON_SHORTOPTS, longopts, NULL)) !=
         -1) {
    int rc = cli_common_option(c, &opt, "dump", argv);
    if (rc != CLI_CONTINUE)
      return rc;
  }
  if (argc - optind != 1)
    return cli_error("dump: expected exactly one BLOB file (try 'winperf "
                     "dump --help')");

  int rc = CLI_EXIT_ERROR;
  pd_names *names = NULL;
  cli_blob b = {.file = argv[optind]};
  if (opt.names_file != NULL && !cli_load_names(opt.names_file, &names))
    goto out;
  if (!cli_blob_load(&b))
    goto out;
  if (opt.json)
    dump_json(stdout, b.file, b.len, b.snap, names);
  else
    dump_text(stdout, b.file, b.len, b.snap, names);
  rc = CLI_EXIT_OK;
  if (fflush(stdout) != 0 || ferror(stdout))
    rc = cli_error("error writing the output");
out:
  cli_blob_clear(&b);
  if (names != NULL)
    pd_names_free(names);
  return rc;
}
