/* collectd-winperf tests: the encoder against hand-made bytes.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * The encoder against hand-made bytes: the spec's 416-byte test vector
 * (format.md 1.8, typed in from the spec), its big-endian twin at hand-checked
 * offsets, and the quirk switches at hand-computed offsets. */
#include "encoder.h"
#include "perfdata.h"
#include "spec_vector.h"
#include "tap.h"

#include <stdlib.h>

static enc_blob *spec_blob(void) {
  /* written out here (not enc_new_spec_vector) so the test shows the API */
  enc_blob *b = enc_new("PC");
  enc_object *os = enc_add_object(b, 2, ENC_SINGLE_INSTANCE);
  uint32_t raw = enc_add_counter(os, 6, PD_COUNTER_RAWCOUNT);
  uint32_t tim = enc_add_counter(os, 8, PD_100NSEC_TIMER);
  enc_set_value(os, ENC_SINGLE, raw, 42);
  enc_set_value(os, ENC_SINGLE, tim, 5000000);
  enc_object *om = enc_add_object(b, 10, ENC_MULTI_INSTANCE);
  uint32_t c = enc_add_counter(om, 12, PD_COUNTER_RAWCOUNT);
  uint32_t t = enc_add_instance(om, "_Total");
  enc_set_value(om, t, c, 7);
  return b;
}

static int bytes_at(const uint8_t *buf, size_t len, size_t off,
                    const char *hex) {
  size_t n = strlen(hex) / 2;
  if (off > len || n > len - off)
    return 0;
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    if (sscanf(hex + 2 * i, "%2x", &v) != 1 || buf[off + i] != v)
      return 0;
  }
  return 1;
}

static void test_spec_vector(void) {
  enc_blob *b = spec_blob();
  size_t len = 0;
  uint8_t *buf = enc_build(b, &len);
  IS_INT(len, 416, "format.md 1.8 vector: 416 bytes");
  size_t first_diff = len;
  for (size_t i = 0; i < len && i < sizeof spec_vector; i++)
    if (buf[i] != spec_vector[i]) {
      first_diff = i;
      break;
    }
  OK(len == 416 && first_diff == len, "format.md 1.8 vector: byte for byte");
  if (first_diff < len)
    tap_diag("  first difference at 0x%zx: got %02x, want %02x", first_diff,
             buf[first_diff], spec_vector[first_diff]);

  IS_INT(enc_header_length(b), 0x60, "layout: HeaderLength");
  free(buf);
  enc_free(b);

  b = enc_new_spec_vector();
  buf = enc_build(b, &len);
  OK(len == 416 && memcmp(buf, spec_vector, 416) == 0,
     "enc_new_spec_vector builds the same 416 bytes");
  OK(enc_blob_object(b, 1) && enc_object_offset(enc_blob_object(b, 1)) == 0x108,
     "enc_blob_object(1) is object 10");
  OK(enc_blob_object(b, 2) == NULL, "enc_blob_object(2) is NULL");
  free(buf);
  enc_free(b);
}

static void test_layout_queries(void) {
  enc_blob *b = enc_new("PC");
  enc_object *os = enc_add_object(b, 2, ENC_SINGLE_INSTANCE);
  enc_add_counter(os, 6, PD_COUNTER_RAWCOUNT);
  enc_add_counter(os, 8, PD_100NSEC_TIMER);
  enc_object *om = enc_add_object(b, 10, ENC_MULTI_INSTANCE);
  enc_add_counter(om, 12, PD_COUNTER_RAWCOUNT);
  enc_add_instance(om, "_Total");
  size_t len;
  uint8_t *buf = enc_build(b, &len);
  IS_INT(enc_object_offset(os), 0x60, "layout: object 2 at 0x60");
  IS_INT(enc_counter_def_offset(os, 1), 0xc8, "layout: its 2nd definition");
  IS_INT(enc_block_offset(os, ENC_SINGLE), 0xf0, "layout: its block");
  IS_INT(enc_value_offset(os, ENC_SINGLE, 1), 0x100, "layout: timer value");
  IS_INT(enc_object_offset(om), 0x108, "layout: object 10 at 0x108");
  IS_INT(enc_instance_offset(om, 0), 0x170, "layout: _Total definition");
  IS_INT(enc_instance_name_offset(om, 0), 0x188, "layout: _Total name");
  IS_INT(enc_block_offset(om, 0), 0x198, "layout: _Total block");
  IS_INT(enc_object_total_length(om), 0x98, "layout: TotalByteLength");
  IS_INT(enc_object_definition_length(om), 0x68, "layout: DefinitionLength");
  IS_INT(enc_block_length(os), 0x18, "layout: block ByteLength");
  free(buf);
  enc_free(b);
}

static void test_second_sample(void) {
  /* format.md 1.8's second sample: rebuild after changing the clock and a value
   * (the timer is counter 1 of the first object, 8 bytes at 0x100). */
  enc_blob *b = enc_new("PC");
  enc_object *os = enc_add_object(b, 2, ENC_SINGLE_INSTANCE);
  enc_add_counter(os, 6, PD_COUNTER_RAWCOUNT);
  uint32_t tim = enc_add_counter(os, 8, PD_100NSEC_TIMER);
  size_t len;
  uint8_t *buf = enc_build(b, &len);
  free(buf);
  enc_set_clock(b, 123456789, 10000000, 133485408000000000LL + 10000000);
  enc_set_value(os, ENC_SINGLE, tim, 12500000);
  buf = enc_build(b, &len);
  OK(bytes_at(buf, len, 0x48, "80562277453cda01"),
     "rebuild: PerfTime100nSec + 1e7");
  OK(bytes_at(buf, len, 0x100, "20bcbe0000000000"), "rebuild: 12,500,000");
  IS_U64(enc_get_value(os, ENC_SINGLE, tim), 12500000, "enc_get_value");
  free(buf);
  enc_free(b);
}

static void test_big_endian(void) {
  enc_blob *b = spec_blob();
  enc_set_big_endian(b, true);
  size_t len;
  uint8_t *buf = enc_build(b, &len);
  IS_INT(len, 416, "big-endian vector: 416 bytes");
  OK(bytes_at(buf, len, 0, "0050004500520046"), "BE: signature 00 50 ...");
  OK(bytes_at(buf, len, 8, "00000000"), "BE: LittleEndian = 0");
  OK(bytes_at(buf, len, 12, "0000000100000001"), "BE: Version, Revision");
  OK(bytes_at(buf, len, 20, "000001a000000060"),
     "BE: TotalByteLength 0x1a0, HeaderLength 0x60");
  OK(bytes_at(buf, len, 32, "ffffffff07e80001"),
     "BE: DefaultObject -1, wYear 2024, wMonth 1");
  OK(bytes_at(buf, len, 56, "00000000075bcd15"), "BE: PerfTime 123456789");
  OK(bytes_at(buf, len, 64, "0000000000989680"), "BE: PerfFreq 1e7");
  OK(bytes_at(buf, len, 72, "01da3c457689c000"), "BE: PerfTime100nSec");
  OK(bytes_at(buf, len, 80, "0000000600000058"),
     "BE: SystemNameLength 6, Offset 88");
  OK(bytes_at(buf, len, 88, "005000430000"), "BE: UTF-16BE \"PC\"");
  OK(bytes_at(buf, len, 0x60, "000000a8000000900000004000000002"),
     "BE: object 2 lengths and index");
  OK(bytes_at(buf, len, 0x88, "ffffffff"), "BE: NumInstances -1");
  OK(bytes_at(buf, len, 0xbc, "000100000000000400000008"),
     "BE: RAWCOUNT, size 4, offset 8");
  OK(bytes_at(buf, len, 0xf0, "00000018"), "BE: block ByteLength 24");
  OK(bytes_at(buf, len, 0xf8, "0000002a"), "BE: value 42");
  OK(bytes_at(buf, len, 0x100, "00000000004c4b40"), "BE: value 5,000,000");
  OK(bytes_at(buf, len, 0x130, "00000001"), "BE: NumInstances 1");
  OK(bytes_at(buf, len, 0x170, "0000002800000000"),
     "BE: instance ByteLength 40");
  OK(bytes_at(buf, len, 0x17c, "ffffffff000000180000000e"),
     "BE: UniqueID -1, NameOffset 24, NameLength 14");
  OK(bytes_at(buf, len, 0x188, "005f0054006f00740061006c0000"),
     "BE: UTF-16BE \"_Total\"");
  OK(bytes_at(buf, len, 0x198, "0000000800000007"), "BE: block 8, value 7");
  free(buf);
  enc_free(b);
}

static void test_quirks(void) {
  /* "ABC" + NUL = 8 bytes: 88 + 8 = 96 already aligned */
  enc_blob *b = enc_new("ABC");
  enc_object *o = enc_add_object(b, 238, ENC_SINGLE_INSTANCE);
  uint32_t c = enc_add_counter(o, 6, PD_COUNTER_COUNTER);
  enc_set_value(o, ENC_SINGLE, c, 0x11223344);
  size_t len;
  uint8_t *buf = enc_build(b, &len);
  /* 96 + 64 + 40 + block(4 + 4) = 208 */
  IS_INT(len, 208, "plain: 208 bytes");
  IS_INT(enc_get32(buf, 24, false), 96, "plain: HeaderLength 96");
  IS_INT(enc_get32(buf, 20, false), 208, "plain: TotalByteLength 208");
  free(buf);

  enc_set_quirks(b, ENC_QUIRK_SAMBA);
  buf = enc_build(b, &len);
  /* 104 + 64 + 40 + block(4 + pad 4 + 8) = 224 */
  IS_INT(len, 224, "samba: 224 bytes");
  IS_INT(enc_get32(buf, 24, false), 104, "samba: header pads a full 8");
  IS_INT(enc_get32(buf, 20, false), 120, "samba: TotalByteLength w/o header");
  IS_INT(enc_get32(buf, 104 + 64 + 32, false), 8, "samba: CounterSize 8");
  IS_INT(enc_get32(buf, 104 + 64 + 36, false), 8, "samba: CounterOffset 8");
  IS_U64(enc_get64(buf, 104 + 104 + 8, false), 0x11223344,
         "samba: DWORD value written as 8 bytes");
  free(buf);

  enc_set_quirks(b, ENC_QUIRK_STALE_PADDING);
  buf = enc_build(b, &len);
  OK(bytes_at(buf, len, 52, "cccccccc"), "stale: SYSTEMTIME pad");
  OK(bytes_at(buf, len, 96 + 64 + 40 + 4, "44332211"), "stale: value intact");
  IS_INT(enc_get32(buf, 96 + 16, false), 0, "stale: title fields stay 0");
  free(buf);

  enc_set_quirks(b, 0);
  enc_set_num_objects(b, 5);
  buf = enc_build(b, &len);
  IS_INT(enc_get32(buf, 28, false), 5, "NumObjectTypes overstated");
  free(buf);
  enc_free(b);
}

static void test_names(void) {
  enc_blob *b = enc_new(NULL);
  enc_object *o = enc_add_object(b, 230, ENC_MULTI_INSTANCE);
  enc_object_set_code_page(o, 1252);
  uint32_t c = enc_add_counter(o, 784, PD_COUNTER_LARGE_RAWCOUNT);
  uint32_t i0 = enc_add_instance(o, "caf\xc3\xa9\xe2\x82\xac"); /* café€ */
  uint32_t i1 = enc_add_instance(o, NULL);
  enc_instance_set_unique_id(o, i1, 1234);
  enc_instance_set_parent(o, i1, 230, 0);
  enc_set_value(o, i1, c, 0x0102030405060708ull);
  size_t len;
  uint8_t *buf = enc_build(b, &len);
  IS_INT(enc_get32(buf, 80, false), 0, "no system name: length 0");
  IS_INT(enc_header_length(b), 88, "no system name: HeaderLength 88");
  size_t id = enc_instance_offset(o, i0);
  IS_INT(enc_get32(buf, id + 20, false), 6, "cp1252: NameLength 5 + NUL");
  OK(bytes_at(buf, len, id + 24, "636166e98000"), "cp1252: c a f e9 80 00");
  IS_INT(enc_get32(buf, id, false), 32, "cp1252: ByteLength 24+6 -> 32");
  size_t id1 = enc_instance_offset(o, i1);
  IS_INT(id1, id + 32 + 16, "unnamed follows the first block (8 + 8)");
  IS_INT(enc_get32(buf, id1 + 20, false), 0, "unnamed: NameLength 0");
  IS_INT(enc_get32(buf, id1, false), 24, "unnamed: ByteLength 24");
  IS_INT(enc_get32(buf, id1 + 12, false), 1234, "UniqueID");
  OK(bytes_at(buf, len, id1 + 4, "e600000000000000"), "parent 230, #0");
  IS_U64(enc_get64(buf, enc_value_offset(o, i1, c), false),
         0x0102030405060708ull, "LARGE value");
  IS_INT(enc_counter_offset(o, c), 8, "LARGE counter aligned at 8");
  free(buf);

  /* UTF-16 surrogates */
  enc_object *u = enc_add_object(b, 232, ENC_MULTI_INSTANCE);
  enc_add_instance(u, "\xf0\x9f\x98\x80"); /* U+1F600 */
  buf = enc_build(b, &len);
  OK(bytes_at(buf, len, enc_instance_name_offset(u, 0), "3dd800de0000"),
     "UTF-16 surrogate pair + NUL");
  free(buf);
  enc_free(b);
}

static void test_overrides(void) {
  enc_blob *b = enc_new("X"); /* 88 + 4 -> 96 */
  enc_object *m2 = enc_add_object(b, 502, ENC_METADATA_MULTI);
  enc_add_counter(m2, 6, PD_COUNTER_RAWCOUNT);
  enc_object *m3 = enc_add_object(b, 504, ENC_METADATA_NONE);
  uint32_t c = enc_add_counter(m3, 8, PD_COUNTER_RAWCOUNT);
  enc_counter_set_byte_length(m3, c, 48);
  enc_object *z = enc_add_object(b, 506, ENC_MULTI_INSTANCE);
  enc_add_counter(z, 10, PD_COUNTER_RAWCOUNT);
  enc_object *s = enc_add_object(b, 508, ENC_SINGLE_INSTANCE);
  c = enc_add_counter(s, 12, PD_COUNTER_MULTI_TIMER);
  enc_counter_set_offset(s, c, 8);
  enc_set_value(s, ENC_SINGLE, c, 5);
  enc_poke32(s, ENC_SINGLE, 16, 3);
  enc_object_set_block_length(s, 20);
  size_t len;
  uint8_t *buf = enc_build(b, &len);
  /* 96 | 502: 64 + 40 = 104 | 504: 64 + 48 = 112 | 506: 104 |
   * 508: 104 + block (reserved 24, ByteLength 20) = 128 */
  IS_INT(len, 96 + 104 + 112 + 104 + 128, "metadata/empty/override: size");
  IS_INT(enc_get32(buf, 96 + 40, false), (uint32_t)-2, "NumInstances -2");
  IS_INT(enc_get32(buf, 200 + 40, false), (uint32_t)-3, "NumInstances -3");
  IS_INT(enc_get32(buf, 200 + 4, false), 112, "DefinitionLength 64 + 48");
  IS_INT(enc_get32(buf, 200 + 64, false), 48, "definition ByteLength 48");
  IS_INT(enc_get32(buf, 312 + 40, false), 0, "NumInstances 0");
  IS_INT(enc_get32(buf, 312, false), 104, "empty object: 104 bytes");
  IS_INT(enc_get32(buf, 416 + 104, false), 20, "block ByteLength override");
  IS_U64(enc_get64(buf, 416 + 104 + 8, false), 5, "multi value at 8");
  IS_INT(enc_get32(buf, 416 + 104 + 16, false), 3, "poked count at 16");
  IS_INT(enc_block_offset(s, ENC_SINGLE), 416 + 104, "layout: block");
  free(buf);
  enc_free(b);
}

static void test_late_counter(void) {
  /* a counter added after instances and values keeps the earlier values */
  enc_blob *b = enc_new("X");
  enc_object *o = enc_add_object(b, 230, ENC_MULTI_INSTANCE);
  uint32_t i0 = enc_add_instance(o, "a");
  uint32_t c0 = enc_add_counter(o, 6, PD_COUNTER_RAWCOUNT);
  enc_set_value(o, i0, c0, 11);
  uint32_t i1 = enc_add_instance(o, "b");
  enc_set_value(o, i1, c0, 12);
  uint32_t c1 = enc_add_counter(o, 8, PD_COUNTER_LARGE_RAWCOUNT);
  enc_set_value(o, i1, c1, 22);
  size_t len;
  uint8_t *buf = enc_build(b, &len);
  IS_U64(enc_get32(buf, enc_value_offset(o, i0, c0), false), 11,
         "late counter: a/c0 kept");
  IS_U64(enc_get32(buf, enc_value_offset(o, i1, c0), false), 12,
         "late counter: b/c0 kept");
  IS_U64(enc_get64(buf, enc_value_offset(o, i0, c1), false), 0,
         "late counter: a/c1 is 0");
  IS_U64(enc_get64(buf, enc_value_offset(o, i1, c1), false), 22,
         "late counter: b/c1 set");
  free(buf);
  enc_free(b);
}

static void test_speed_shape(void) {
  /* Thread x13,000: the benchmark's shape; the size is what matters here */
  enc_blob *b = enc_new("BIGHOST");
  enc_object *o = enc_add_object(b, 232, ENC_MULTI_INSTANCE);
  uint32_t n = 0;
  for (int k = 0; k < 12; k++)
    n = enc_add_counter(o, 6 + 2 * (uint32_t)k, PD_100NSEC_TIMER);
  n++;
  char name[16];
  for (uint32_t i = 0; i < 13000; i++) {
    snprintf(name, sizeof name, "%u", i % 64);
    uint32_t in = enc_add_instance(o, name);
    enc_instance_set_parent(o, in, 230, i / 64);
    for (uint32_t k = 0; k < n; k++)
      enc_set_value(o, in, k, (uint64_t)i * 1000 + k);
  }
  size_t len;
  uint8_t *buf = enc_build(b, &len);
  /* 13,000 x (instance 24 + name <= 6 -> 32, block 4 -> 8 + 96 = 104) */
  OK(len > 13000u * 136, "13,000 instances: %zu bytes", len);
  IS_U64(enc_get64(buf, enc_value_offset(o, 12999, 11), false),
         12999ull * 1000 + 11, "last value in place");
  free(buf);
  enc_free(b);
}

int main(void) {
  test_spec_vector();
  test_layout_queries();
  test_second_sample();
  test_big_endian();
  test_quirks();
  test_names();
  test_overrides();
  test_late_counter();
  test_speed_shape();
  return tap_done();
}
