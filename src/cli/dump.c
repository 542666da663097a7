/* collectd-winperf: `winperf dump`: everything a V1 blob holds.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Header (format.md 1.2), objects with their NumInstances meaning (1.5),
 * counter definitions, instances under their full PDH names (1.4) and raw
 * values.
 */
#include "cli.h"
#include "commands.h"
#include "json.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* format.md 1.5. */
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
 * instance are in this blob (format.md 1.4), else NULL. */
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

/* The PERF_DATA_BLOCK's fields (format.md 1.2). */
static void json_header(json_writer *w, const pd_header *h) {
  char buf[64];
  json_begin_object(w);
  json_member_string(w, "byte_order",
                     h->big_endian ? "big-endian" : "little-endian");
  json_member_uint(w, "version", h->version);
  json_member_uint(w, "revision", h->revision);
  json_member_uint(w, "total_byte_length", h->total_byte_length);
  json_member_uint(w, "header_length", h->header_length);
  json_member_uint(w, "num_object_types", h->num_object_types);
  json_member_int(w, "default_object", h->default_object);
  json_member_string(w, "system_name", h->system_name ? h->system_name : "");
  json_key(w, "system_time");
  cli_format_systemtime(h->system_time, buf, sizeof buf);
  json_string(w, buf);
  json_member_uint(w, "system_time_day_of_week", h->system_time[2]);
  json_member_int(w, "perf_time", h->perf_time);
  json_member_int(w, "perf_freq", h->perf_freq);
  json_member_int(w, "perf_time_100ns", h->perf_time_100ns);
  json_key(w, "perf_time_100ns_utc");
  if (cli_format_filetime(h->perf_time_100ns, buf, sizeof buf))
    json_string(w, buf);
  else
    json_null(w);
  json_end_object(w);
}

static void json_counters(json_writer *w, const pd_object *obj,
                          const pd_names *names) {
  char buf[64];
  json_begin_array(w);
  for (uint32_t c = 0; c < obj->counter_count; c++) {
    const pd_counter_def *def = &obj->counters[c];
    json_begin_object(w);
    json_member_uint(w, "index", def->name_index);
    json_member_string(w, "name", index_name(names, def->name_index));
    json_member_string(w, "type", cli_type_name(def->type, buf, sizeof buf));
    json_member_uint(w, "type_value", def->type);
    json_member_uint(w, "size", def->size);
    json_member_uint(w, "offset", def->offset);
    json_member_int(w, "scale", def->default_scale);
    json_member_uint(w, "detail_level", def->detail_level);
    json_member_uint(w, "help_index", def->help_index);
    json_end_object(w);
  }
  json_end_array(w);
}

static void json_instance(json_writer *w, pd_snapshot *snap,
                          const pd_object *obj, uint32_t k) {
  const pd_instance *inst = &obj->instances[k];
  json_begin_object(w);
  json_member_string(w, "name",
                     is_single(obj) ? NULL : pd_instance_name(snap, obj, k));
  json_member_string(w, "full_name",
                     is_single(obj) ? NULL
                                    : pd_instance_full_name(snap, obj, k));
  json_key(w, "offset");
  if (is_single(obj))
    json_null(w);
  else
    json_uint(w, inst->wire_offset);
  json_member_int(w, "unique_id", inst->unique_id);
  json_member_uint(w, "parent_object", inst->parent_object);
  json_member_uint(w, "parent_instance", inst->parent_instance);
  json_member_string(w, "parent", parent_name(snap, inst));
  json_member_uint(w, "block_offset", inst->block_offset);
  json_member_uint(w, "block_length", inst->block_length);
  json_key(w, "values");
  json_begin_array(w);
  for (uint32_t c = 0; c < obj->counter_count; c++) {
    const pd_counter_def *def = &obj->counters[c];
    if (raw_readable(def))
      json_uint(w, pd_counter_raw(snap, inst, def));
    else
      json_null(w);
  }
  json_end_array(w);
  json_end_object(w);
}

static void json_object_type(json_writer *w, pd_snapshot *snap,
                             const pd_object *obj, const pd_names *names) {
  json_begin_object(w);
  json_member_uint(w, "index", obj->name_index);
  json_member_string(w, "name", index_name(names, obj->name_index));
  json_member_uint(w, "offset", obj->wire_offset);
  json_member_int(w, "num_instances", obj->num_instances);
  json_member_string(w, "num_instances_meaning",
                     num_instances_meaning(obj->num_instances));
  json_member_uint(w, "help_index", obj->help_index);
  json_member_uint(w, "detail_level", obj->detail_level);
  json_member_int(w, "default_counter", obj->default_counter);
  json_member_uint(w, "code_page", obj->code_page);
  json_member_int(w, "perf_time", obj->perf_time);
  json_member_int(w, "perf_freq", obj->perf_freq);
  json_key(w, "counters");
  json_counters(w, obj, names);
  json_key(w, "instances");
  json_begin_array(w);
  for (uint32_t k = 0; k < obj->instance_count; k++)
    json_instance(w, snap, obj, k);
  json_end_array(w);
  json_end_object(w);
}

static void dump_json(FILE *out, const char *file, size_t len,
                      pd_snapshot *snap, const pd_names *names) {
  json_writer w;
  json_init(&w, out);
  json_begin_object(&w);
  json_member_string(&w, "file", file);
  json_member_uint(&w, "size", len);
  json_key(&w, "header");
  json_header(&w, pd_snapshot_header(snap));
  json_key(&w, "objects");
  json_begin_array(&w);
  uint32_t nobj = pd_snapshot_object_count(snap);
  for (uint32_t i = 0; i < nobj; i++)
    json_object_type(&w, snap, pd_snapshot_object(snap, i), names);
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
  int rc = cli_parse_options(argc, argv, longopts, &opt, "dump");
  if (rc != CLI_CONTINUE)
    return rc;
  if (argc - optind != 1)
    return cli_error("dump: expected exactly one BLOB file (try 'winperf "
                     "dump --help')");

  rc = CLI_EXIT_ERROR;
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
