/* collectd-winperf tests: a builder for V1 performance-data blobs.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Writes HKEY_PERFORMANCE_DATA blobs (doc/format.md section 1) of any shape,
 * for tests, fuzz seeds, benchmarks and demo captures. It never calls the
 * decoder: its layout comes from the spec alone. Link
 * tests/encoder/libencoder.la (plus libperfdata.la only if you use the decoder
 * yourself).
 *
 * Usage (the spec's 1.8 test vector):
 *
 *   enc_blob *b = enc_new("PC");            // header defaults = format.md 1.8
 *   enc_object *os = enc_add_object(b, 2, ENC_SINGLE_INSTANCE);
 *   uint32_t raw = enc_add_counter(os, 6, PD_COUNTER_RAWCOUNT);
 *   uint32_t tim = enc_add_counter(os, 8, PD_100NSEC_TIMER);
 *   enc_set_value(os, ENC_SINGLE, raw, 42);
 *   enc_set_value(os, ENC_SINGLE, tim, 5000000);
 *   enc_object *om = enc_add_object(b, 10, ENC_MULTI_INSTANCE);
 *   uint32_t c = enc_add_counter(om, 12, PD_COUNTER_RAWCOUNT);
 *   uint32_t t = enc_add_instance(om, "_Total");
 *   enc_set_value(om, t, c, 7);
 *   size_t len;
 *   uint8_t *blob = enc_build(b, &len);     // malloc'ed; free() it
 *   ...
 *   free(blob);
 *   enc_free(b);
 *
 * Rules of use:
 * - Counters may be added at any time, but adding them before instances and
 *   values is cheaper (a later counter re-strides the value table).
 * - Misuse (an instance on a single-instance object, an out-of-range
 *   index) and out-of-memory print a message to stderr and abort(): this
 *   is test support code, mistakes should be loud.
 * - Nothing is validated against the spec beyond that: explicit offsets,
 *   sizes and lengths are written verbatim, so malformed blobs are easy.
 * - enc_build can be called again after changing values or clocks (a
 *   second sample); the layout queries describe the latest build.
 *
 * Defaults (chosen to match format.md 1.8, a plausible Windows producer):
 * little-endian, Version 1, Revision 1, DefaultObject -1, SystemTime
 * 2024-01-01 00:00:00.000 (a Monday), PerfTime 123456789, PerfFreq 1e7,
 * PerfTime100nSec 133485408000000000. Objects: help index = name index + 1,
 * DetailLevel 100 (novice), DefaultCounter 0, CodePage 0 (UTF-16 names),
 * object PerfTime/PerfFreq 0. Counters: help = name + 1, DefaultScale 0,
 * DetailLevel 100, CounterSize from the type's size bits (DWORD 4, LARGE 8,
 * ZERO/VARIABLE_LEN 0), automatic CounterOffset.
 *
 * Automatic layout (producer-side alignment; a decoder must not rely on it):
 * - header: 88 bytes + system name (UTF-16, NUL) padded to 8.
 * - object: 64-byte header, then 40-byte definitions, then the data.
 * - counter block: counters in definition order, each at the next offset
 *   (after the 4-byte ByteLength and after every counter before it) aligned
 *   to 8 when the object has any 8-byte counter, else to 4; the block's
 *   ByteLength is the end of its last counter (or poke) rounded up to 8.
 * - instance: 24 bytes + name (with its NUL) padded to 8; NameOffset 24.
 * - padding bytes are 0 (or 0xCC with ENC_QUIRK_STALE_PADDING).
 */
#ifndef WINPERF_TESTS_ENCODER_H
#define WINPERF_TESTS_ENCODER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct enc_blob enc_blob;
typedef struct enc_object enc_object;

/* NumInstances of an object (format.md 1.5). */
typedef enum enc_object_kind {
  ENC_SINGLE_INSTANCE, /* -1: one counter block, no instance definitions */
  ENC_MULTI_INSTANCE,  /* the number of instances added; 0 if none */
  ENC_METADATA_MULTI,  /* -2: definitions only */
  ENC_METADATA_NONE,   /* -3: definitions only */
} enc_object_kind;

/* The instance number to use for values of a single-instance object. */
#define ENC_SINGLE 0u

/* Producer quirks (bit flags for enc_set_quirks). */
enum {
  /* format.md 6: PERF_DATA_BLOCK.TotalByteLength counts the objects only. */
  ENC_QUIRK_SAMBA_TOTAL_LENGTH = 1u << 0,
  /* format.md 6: the header gets a full 8 bytes of pad after the system name
   * when 88 + name is already a multiple of 8. */
  ENC_QUIRK_SAMBA_HEADER_PAD = 1u << 1,
  /* format.md 6: CounterSize 8 for every counter whose type says DWORD (size
   * bits 0x000); the value is written as 8 bytes. */
  ENC_QUIRK_SAMBA_DWORD_AS_8 = 1u << 2,
  /* Every padding byte (header pad, name pad, gaps in counter blocks,
   * SYSTEMTIME pad at 52) is 0xCC instead of 0. */
  ENC_QUIRK_STALE_PADDING = 1u << 3,
  ENC_QUIRK_SAMBA = ENC_QUIRK_SAMBA_TOTAL_LENGTH | ENC_QUIRK_SAMBA_HEADER_PAD |
                    ENC_QUIRK_SAMBA_DWORD_AS_8,
};

/* ------------------------------------------------------------ the blob */

/* A new blob description. system_name is UTF-8 (written UTF-16 with a NUL);
 * NULL writes SystemNameLength 0 and SystemNameOffset 88. */
enc_blob *enc_new(const char *system_name);
void enc_free(enc_blob *b);

/* Big-endian: every integer and the UTF-16 names are written big-endian,
 * the signature is 00 50 00 45 00 52 00 46 and LittleEndian is 0 (1.7). */
void enc_set_big_endian(enc_blob *b, bool big_endian);
void enc_set_quirks(enc_blob *b, unsigned quirks);
void enc_set_version(enc_blob *b, uint32_t version, uint32_t revision);
void enc_set_default_object(enc_blob *b, int32_t default_object);
/* Block clocks: PerfTime, PerfFreq, PerfTime100nSec. */
void enc_set_clock(enc_blob *b, int64_t perf_time, int64_t perf_freq,
                   int64_t perf_time_100ns);
/* SYSTEMTIME: year, month, day of week, day, hour, minute, second, ms. */
void enc_set_system_time(enc_blob *b, const uint16_t st[8]);
/* Write this NumObjectTypes instead of the real count (format.md 1.2: it may
 * overstate). A negative value restores the real count. */
void enc_set_num_objects(enc_blob *b, int64_t num_objects);

/* The format.md 1.8 test vector's description (416 bytes when built): "PC";
 * object 2 single-instance with RAWCOUNT (name 6) = 42 and 100NSEC_TIMER
 * (name 8) = 5,000,000; object 10 with one instance "_Total", RAWCOUNT
 * (name 12) = 7. For the second sample: enc_set_clock with PerfTime100nSec
 * + 1e7 and enc_set_value(enc_blob_object(b, 0), ENC_SINGLE, 1, 12500000). */
enc_blob *enc_new_spec_vector(void);
/* The k-th object added to b (0-based), or NULL. */
enc_object *enc_blob_object(const enc_blob *b, size_t k);

/* Serialize. Returns a malloc'ed buffer (free() it) and its length. */
uint8_t *enc_build(enc_blob *b, size_t *len);

/* ---------------------------------------------------------- objects */

/* Append an object with ObjectNameTitleIndex `index` (any value). */
enc_object *enc_add_object(enc_blob *b, uint32_t index, enc_object_kind kind);
void enc_object_set_help_index(enc_object *o, uint32_t help_index);
void enc_object_set_detail_level(enc_object *o, uint32_t detail_level);
void enc_object_set_default_counter(enc_object *o, int32_t default_counter);
/* The object's own clock (PERF_OBJECT_TIMER time base). */
void enc_object_set_clock(enc_object *o, int64_t perf_time, int64_t perf_freq);
/* CodePage != 0: instance names are written as bytes of that code page.
 * enc_add_instance converts its UTF-8 argument for 1252 and 28591 (Latin-1;
 * unmappable characters become '?'), 20127 (ASCII) and 65001 (UTF-8 as is);
 * any other code page gets the UTF-8 bytes verbatim. One NUL byte ends the
 * name. Set it before building; it may be set after adding instances. */
void enc_object_set_code_page(enc_object *o, uint32_t code_page);

/* ---------------------------------------------------------- counters */

/* Append a counter definition; returns its number (0, 1, ...) in `o`. */
uint32_t enc_add_counter(enc_object *o, uint32_t name_index, uint32_t type);
void enc_counter_set_help_index(enc_object *o, uint32_t counter,
                                uint32_t help_index);
void enc_counter_set_scale(enc_object *o, uint32_t counter, int32_t scale);
void enc_counter_set_detail_level(enc_object *o, uint32_t counter,
                                  uint32_t detail_level);
/* CounterSize (any value; 8 for a DWORD type is Samba's quirk). Values are
 * written as the low min(size, 8) bytes in the blob's byte order. */
void enc_counter_set_size(enc_object *o, uint32_t counter, uint32_t size);
/* Explicit CounterOffset (from the start of the counter block). Automatic
 * counters after it continue past its end. */
void enc_counter_set_offset(enc_object *o, uint32_t counter, uint32_t offset);
/* Definition ByteLength (default 40); extra bytes are padding. */
void enc_counter_set_byte_length(enc_object *o, uint32_t counter,
                                 uint32_t byte_length);

/* Counter block ByteLength for every block of `o`, instead of the automatic
 * one (written verbatim; space reserved is max(this, automatic)). 0 =
 * automatic. */
void enc_object_set_block_length(enc_object *o, uint32_t byte_length);

/* ---------------------------------------------------------- instances */

/* Append an instance of a multi-instance object; returns its position.
 * name is UTF-8 (converted to UTF-16 in the block's byte order, or to the
 * object's code page); NULL = unnamed (NameLength 0). UniqueID -1, no
 * parent. */
uint32_t enc_add_instance(enc_object *o, const char *name);
/* The same with the name bytes written verbatim: NameLength = len (include
 * the NUL yourself, or not, to build odd names). bytes may be NULL if
 * len == 0. */
uint32_t enc_add_instance_bytes(enc_object *o, const void *bytes, size_t len);
void enc_instance_set_unique_id(enc_object *o, uint32_t inst,
                                int32_t unique_id);
/* ParentObjectTitleIndex and ParentObjectInstance (position of the parent
 * instance in the parent object's list, format.md 1.4). */
void enc_instance_set_parent(enc_object *o, uint32_t inst,
                             uint32_t parent_object_index,
                             uint32_t parent_instance);

/* ---------------------------------------------------------- values */

/* Value of `counter` in instance `inst` (ENC_SINGLE for single-instance
 * objects). Unset values are 0. */
void enc_set_value(enc_object *o, uint32_t inst, uint32_t counter,
                   uint64_t value);
uint64_t enc_get_value(const enc_object *o, uint32_t inst, uint32_t counter);
/* Put a DWORD at `block_offset` inside instance inst's counter block (after
 * the values are written), e.g. the MULTI item count right after an 8-byte
 * MULTI_TIMER value (format.md 3). The automatic block length covers it. */
void enc_poke32(enc_object *o, uint32_t inst, uint32_t block_offset,
                uint32_t value);

/* ---------------------------------------------- layout of the last build */

/* HeaderLength, i.e. the offset of the first object. */
size_t enc_header_length(const enc_blob *b);
/* Object start (its PERF_OBJECT_TYPE). */
size_t enc_object_offset(const enc_object *o);
/* The object's TotalByteLength and DefinitionLength as written. */
uint32_t enc_object_total_length(const enc_object *o);
uint32_t enc_object_definition_length(const enc_object *o);
/* PERF_COUNTER_DEFINITION number `counter`. */
size_t enc_counter_def_offset(const enc_object *o, uint32_t counter);
/* PERF_INSTANCE_DEFINITION of instance `inst` (multi-instance only). */
size_t enc_instance_offset(const enc_object *o, uint32_t inst);
/* The instance's name bytes (absolute). */
size_t enc_instance_name_offset(const enc_object *o, uint32_t inst);
/* PERF_COUNTER_BLOCK of instance `inst` (ENC_SINGLE for single-instance). */
size_t enc_block_offset(const enc_object *o, uint32_t inst);
/* Counter block ByteLength as written. */
uint32_t enc_block_length(const enc_object *o);
/* Absolute offset of counter `counter`'s value in instance inst's block. */
size_t enc_value_offset(const enc_object *o, uint32_t inst, uint32_t counter);
uint32_t enc_counter_offset(const enc_object *o, uint32_t counter);
uint32_t enc_counter_size(const enc_object *o, uint32_t counter);
uint32_t enc_object_counter_count(const enc_object *o);
uint32_t enc_object_instance_count(const enc_object *o);

/* ------------------------------------------- helpers for patching bytes */

/* Store / load integers at buf + off in the given byte order (unaligned
 * safe). For corrupting a built blob in place. */
void enc_put16(uint8_t *buf, size_t off, uint16_t v, bool big_endian);
void enc_put32(uint8_t *buf, size_t off, uint32_t v, bool big_endian);
void enc_put64(uint8_t *buf, size_t off, uint64_t v, bool big_endian);
uint32_t enc_get32(const uint8_t *buf, size_t off, bool big_endian);
uint64_t enc_get64(const uint8_t *buf, size_t off, bool big_endian);

/* Wire offsets of the fields (format.md 1.2), for patching. */
enum {
  ENC_HDR_SIGNATURE = 0,
  ENC_HDR_LITTLE_ENDIAN = 8,
  ENC_HDR_VERSION = 12,
  ENC_HDR_REVISION = 16,
  ENC_HDR_TOTAL_BYTE_LENGTH = 20,
  ENC_HDR_HEADER_LENGTH = 24,
  ENC_HDR_NUM_OBJECT_TYPES = 28,
  ENC_HDR_DEFAULT_OBJECT = 32,
  ENC_HDR_SYSTEM_TIME = 36,
  ENC_HDR_PERF_TIME = 56,
  ENC_HDR_PERF_FREQ = 64,
  ENC_HDR_PERF_TIME_100NS = 72,
  ENC_HDR_SYSTEM_NAME_LENGTH = 80,
  ENC_HDR_SYSTEM_NAME_OFFSET = 84,
  ENC_HDR_SIZE = 88,

  ENC_OBJ_TOTAL_BYTE_LENGTH = 0,
  ENC_OBJ_DEFINITION_LENGTH = 4,
  ENC_OBJ_HEADER_LENGTH = 8,
  ENC_OBJ_NAME_INDEX = 12,
  ENC_OBJ_HELP_INDEX = 20,
  ENC_OBJ_DETAIL_LEVEL = 28,
  ENC_OBJ_NUM_COUNTERS = 32,
  ENC_OBJ_DEFAULT_COUNTER = 36,
  ENC_OBJ_NUM_INSTANCES = 40,
  ENC_OBJ_CODE_PAGE = 44,
  ENC_OBJ_PERF_TIME = 48,
  ENC_OBJ_PERF_FREQ = 56,
  ENC_OBJ_SIZE = 64,

  ENC_CTR_BYTE_LENGTH = 0,
  ENC_CTR_NAME_INDEX = 4,
  ENC_CTR_HELP_INDEX = 12,
  ENC_CTR_DEFAULT_SCALE = 20,
  ENC_CTR_DETAIL_LEVEL = 24,
  ENC_CTR_TYPE = 28,
  ENC_CTR_SIZE = 32,
  ENC_CTR_OFFSET = 36,
  ENC_CTR_SIZEOF = 40,

  ENC_INST_BYTE_LENGTH = 0,
  ENC_INST_PARENT_OBJECT = 4,
  ENC_INST_PARENT_INSTANCE = 8,
  ENC_INST_UNIQUE_ID = 12,
  ENC_INST_NAME_OFFSET = 16,
  ENC_INST_NAME_LENGTH = 20,
  ENC_INST_SIZE = 24,

  ENC_BLOCK_BYTE_LENGTH = 0,
  ENC_BLOCK_SIZE = 4,
};

#ifdef __cplusplus
}
#endif

#endif
