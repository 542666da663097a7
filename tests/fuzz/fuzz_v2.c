/* collectd-winperf: libFuzzer target over the V2 (PerfLib) decoder.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Everything src/perfdata/v2.c reads comes from PerfLib on the monitored
 * host: the counter set's registration info, the identifier blocks
 * PerfQueryCounterInfo fills in, and the PerfQueryCounterData answers.
 * Input: four sections, each but the last behind a 2-byte little-endian
 * length (a length past the end takes the rest, and the later sections are
 * empty):
 *   registration info | identifier blocks | older answer | newer answer
 * The identifiers are decoded one after the other, as the Windows source
 * reads them back; both answers are decoded against them and evaluated with
 * the counter set as every block's registration. Checks: a decoded GUID
 * formats and parses back to itself, a decoded identifier encodes and
 * decodes back to itself, and every reading's name lies in its data.
 */
#include "perfdata_v2.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_IDS 16

static pd_v2_data *older_data, *newer_data;
static pd_v2_results results;

/* The next section: a length-prefixed one, or the rest. */
static const uint8_t *section(const uint8_t **data, size_t *size, bool last,
                              size_t *len) {
  const uint8_t *p = *data;
  size_t n = *size;
  if (!last && n >= 2) {
    size_t want = (size_t)p[0] | (size_t)p[1] << 8;
    p += 2;
    n -= 2;
    if (want <= n) {
      *data = p + want;
      *size = n - want;
      *len = want;
      return p;
    }
  } else if (!last) {
    n = 0;
  }
  *data = p + n;
  *size = 0;
  *len = n;
  return p;
}

/* An exact-size heap copy, so ASan sees any read past the end. */
static uint8_t *copy(const uint8_t *p, size_t n) {
  uint8_t *c = malloc(n ? n : 1);
  if (c != NULL && n)
    memcpy(c, p, n);
  return c;
}

static void check_identifier(const pd_v2_identifier *id) {
  char text[39];
  pd_guid back;
  pd_error err;
  pd_guid_format(&id->set, text);
  if (pd_guid_parse(text, &back, &err) != PD_OK ||
      memcmp(&back, &id->set, sizeof back) != 0)
    abort(); /* a GUID must survive format + parse */
  uint8_t block[PD_V2_IDENTIFIER_SIZE + 2 * sizeof id->instance + 8];
  size_t n = pd_v2_identifier_encode(&id->set, id->counter_id, id->instance,
                                     id->instance_id, block, sizeof block);
  if (n == 0 || n > sizeof block)
    abort(); /* a decoded name is valid UTF-8 and fits */
  pd_v2_identifier again;
  size_t next;
  if (pd_v2_identifier_decode(block, n, 0, &again, &next, &err) != PD_OK ||
      next != n || again.counter_id != id->counter_id ||
      again.instance_id != id->instance_id ||
      strcmp(again.instance, id->instance) != 0)
    abort(); /* encode is decode's inverse */
}

static void walk(const pd_v2_data *d, const pd_v2_counterset *set) {
  size_t nb = pd_v2_data_block_count(d), nv = pd_v2_data_value_count(d);
  for (size_t b = 0; b < nb; b++) {
    const pd_v2_block *blk = pd_v2_data_block(d, b);
    if (blk->first_value > nv || blk->value_count > nv - blk->first_value)
      abort(); /* a block's readings lie in the data */
  }
  for (size_t i = 0; i < nv; i++) {
    const pd_v2_value *v = pd_v2_data_value(d, i);
    if (v->instance == NULL || v->block >= nb)
      abort();
    (void)strlen(v->instance);
    (void)pd_v2_counterset_find(set, v->counter_id);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (older_data == NULL) {
    older_data = pd_v2_data_new();
    newer_data = pd_v2_data_new();
  }
  size_t reg_len, ids_len, older_len, newer_len;
  const uint8_t *reg = section(&data, &size, false, &reg_len);
  const uint8_t *idb = section(&data, &size, false, &ids_len);
  const uint8_t *older = section(&data, &size, false, &older_len);
  const uint8_t *newer = section(&data, &size, true, &newer_len);
  uint8_t *reg_c = copy(reg, reg_len), *ids_c = copy(idb, ids_len);
  uint8_t *older_c = copy(older, older_len), *newer_c = copy(newer, newer_len);
  if (reg_c == NULL || ids_c == NULL || older_c == NULL || newer_c == NULL)
    goto out;

  pd_error err;
  pd_v2_counterset *set = NULL;
  if (pd_v2_counterset_parse(reg_c, reg_len, &set, &err) == PD_OK) {
    for (uint32_t i = 0; i < set->counter_count; i++)
      if (pd_v2_counterset_find(set, set->counters[i].id) == NULL)
        abort(); /* every registered id is found */
  } else if (set != NULL) {
    abort(); /* nothing returned on error */
  }

  static pd_v2_identifier ids[MAX_IDS];
  size_t nids = 0, off = 0;
  while (nids < MAX_IDS && off < ids_len) {
    size_t next;
    if (pd_v2_identifier_decode(ids_c, ids_len, off, &ids[nids], &next, &err) !=
        PD_OK)
      break;
    if (next <= off || next > ids_len)
      abort(); /* the next block starts after this one, inside the buffer */
    check_identifier(&ids[nids]);
    ids[nids].index = (uint32_t)nids;
    nids++;
    off = next;
  }

  bool have_older = pd_v2_data_decode(older_data, older_c, older_len, ids, nids,
                                      4096, &err) == PD_OK;
  if (!have_older && (pd_v2_data_block_count(older_data) != 0 ||
                      pd_v2_data_value_count(older_data) != 0))
    abort(); /* on error the data is empty */
  bool have_newer = pd_v2_data_decode(newer_data, newer_c, newer_len, ids, nids,
                                      4096, &err) == PD_OK;
  walk(older_data, set);
  walk(newer_data, set);

  const pd_v2_counterset *sets[MAX_IDS];
  for (size_t i = 0; i < MAX_IDS; i++)
    sets[i] = set;
  if (have_newer) {
    size_t nsets = pd_v2_data_block_count(newer_data);
    if (nsets > MAX_IDS)
      nsets = MAX_IDS;
    (void)pd_v2_evaluate(sets, nsets, have_older ? older_data : NULL,
                         newer_data, NULL, &results, &err);
    for (size_t i = 0; i < results.count; i++)
      (void)strlen(results.items[i].instance);
    /* One sample, and the same sample twice (no time elapsed). */
    (void)pd_v2_evaluate(sets, nsets, NULL, newer_data, NULL, &results, &err);
    (void)pd_v2_evaluate(sets, nsets, newer_data, newer_data, NULL, &results,
                         &err);
  }
  pd_v2_counterset_free(set);
out:
  free(reg_c);
  free(ids_c);
  free(older_c);
  free(newer_c);
  return 0;
}
