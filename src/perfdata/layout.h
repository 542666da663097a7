/* collectd-winperf: where each field of a performance-data structure sits.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * Byte offsets from the start of each structure, named STRUCTURE_Field as
 * the Windows headers name them, and each structure's fixed size. The
 * title "pointer" fields are 4 bytes on the wire on x86 and x64 alike.
 * Layouts: format.md 1.2 (V1) and format.md 5 (V2).
 */
#ifndef PD_LAYOUT_H
#define PD_LAYOUT_H

#include "perfdata_v2.h"

/* ------------------------------------------------------------ V1 */

enum {
  PERF_DATA_BLOCK_Signature = 0, /* "PERF" in UTF-16, 8 bytes */
  PERF_DATA_BLOCK_LittleEndian = 8,
  PERF_DATA_BLOCK_Version = 12,
  PERF_DATA_BLOCK_Revision = 16,
  PERF_DATA_BLOCK_TotalByteLength = 20,
  PERF_DATA_BLOCK_HeaderLength = 24,
  PERF_DATA_BLOCK_NumObjectTypes = 28,
  PERF_DATA_BLOCK_DefaultObject = 32,
  PERF_DATA_BLOCK_SystemTime = 36, /* SYSTEMTIME: 8 u16 */
  PERF_DATA_BLOCK_PerfTime = 56,
  PERF_DATA_BLOCK_PerfFreq = 64,
  PERF_DATA_BLOCK_PerfTime100nSec = 72,
  PERF_DATA_BLOCK_SystemNameLength = 80,
  PERF_DATA_BLOCK_SystemNameOffset = 84,
  PERF_DATA_BLOCK_SIZE = 88,
};

enum {
  PERF_OBJECT_TYPE_TotalByteLength = 0,
  PERF_OBJECT_TYPE_DefinitionLength = 4,
  PERF_OBJECT_TYPE_HeaderLength = 8,
  PERF_OBJECT_TYPE_ObjectNameTitleIndex = 12,
  PERF_OBJECT_TYPE_ObjectHelpTitleIndex = 20,
  PERF_OBJECT_TYPE_DetailLevel = 28,
  PERF_OBJECT_TYPE_NumCounters = 32,
  PERF_OBJECT_TYPE_DefaultCounter = 36,
  PERF_OBJECT_TYPE_NumInstances = 40,
  PERF_OBJECT_TYPE_CodePage = 44,
  PERF_OBJECT_TYPE_PerfTime = 48,
  PERF_OBJECT_TYPE_PerfFreq = 56,
  PERF_OBJECT_TYPE_SIZE = 64,
};

enum {
  PERF_COUNTER_DEFINITION_ByteLength = 0,
  PERF_COUNTER_DEFINITION_CounterNameTitleIndex = 4,
  PERF_COUNTER_DEFINITION_CounterHelpTitleIndex = 12,
  PERF_COUNTER_DEFINITION_DefaultScale = 20,
  PERF_COUNTER_DEFINITION_DetailLevel = 24,
  PERF_COUNTER_DEFINITION_CounterType = 28,
  PERF_COUNTER_DEFINITION_CounterSize = 32,
  PERF_COUNTER_DEFINITION_CounterOffset = 36,
  PERF_COUNTER_DEFINITION_SIZE = 40,
};

enum {
  PERF_INSTANCE_DEFINITION_ByteLength = 0,
  PERF_INSTANCE_DEFINITION_ParentObjectTitleIndex = 4,
  PERF_INSTANCE_DEFINITION_ParentObjectInstance = 8,
  PERF_INSTANCE_DEFINITION_UniqueID = 12,
  PERF_INSTANCE_DEFINITION_NameOffset = 16,
  PERF_INSTANCE_DEFINITION_NameLength = 20,
  PERF_INSTANCE_DEFINITION_SIZE = 24,
};

enum {
  PERF_COUNTER_BLOCK_ByteLength = 0,
  PERF_COUNTER_BLOCK_SIZE = 4,
};

/* format.md 3: a PERF_MULTI_COUNTER without a MULTI_BASE definition keeps its
 * item count in the DWORD after its 8-byte value. */
enum { PERF_MULTI_COUNTER_Count = 8 };

/* ------------------------------------------------------------ V2 */

enum {
  GUID_Data1 = 0,
  GUID_Data2 = 4,
  GUID_Data3 = 6,
  GUID_Data4 = 8, /* 8 bytes */
  GUID_SIZE = 16,
};

enum {
  PERF_COUNTER_IDENTIFIER_CounterSetGuid = 0,
  PERF_COUNTER_IDENTIFIER_Status = 16,
  PERF_COUNTER_IDENTIFIER_Size = 20,
  PERF_COUNTER_IDENTIFIER_CounterId = 24,
  PERF_COUNTER_IDENTIFIER_InstanceId = 28,
  PERF_COUNTER_IDENTIFIER_Index = 32,
  PERF_COUNTER_IDENTIFIER_Reserved = 36,
  PERF_COUNTER_IDENTIFIER_SIZE = PD_V2_IDENTIFIER_SIZE,
};

enum {
  PERF_COUNTERSET_REG_INFO_CounterSetGuid = 0,
  PERF_COUNTERSET_REG_INFO_CounterSetType = 16,
  PERF_COUNTERSET_REG_INFO_DetailLevel = 20,
  PERF_COUNTERSET_REG_INFO_NumCounters = 24,
  PERF_COUNTERSET_REG_INFO_InstanceType = 28,
  PERF_COUNTERSET_REG_INFO_SIZE = PD_V2_COUNTERSET_REG_SIZE,
};

enum {
  PERF_COUNTER_REG_INFO_CounterId = 0,
  PERF_COUNTER_REG_INFO_Type = 4,
  PERF_COUNTER_REG_INFO_Attrib = 8, /* u64 */
  PERF_COUNTER_REG_INFO_DetailLevel = 16,
  PERF_COUNTER_REG_INFO_DefaultScale = 20,
  PERF_COUNTER_REG_INFO_BaseCounterId = 24,
  PERF_COUNTER_REG_INFO_PerfTimeId = 28,
  PERF_COUNTER_REG_INFO_PerfFreqId = 32,
  PERF_COUNTER_REG_INFO_MultiId = 36,
  PERF_COUNTER_REG_INFO_AggregateFunc = 40,
  PERF_COUNTER_REG_INFO_SIZE = PD_V2_COUNTER_REG_SIZE,
};

enum {
  PERF_DATA_HEADER_dwTotalSize = 0,
  PERF_DATA_HEADER_dwNumCounters = 4,
  PERF_DATA_HEADER_PerfTimeStamp = 8,
  PERF_DATA_HEADER_PerfTime100NSec = 16,
  PERF_DATA_HEADER_PerfFreq = 24,
  PERF_DATA_HEADER_SystemTime = 32, /* SYSTEMTIME: 8 u16 */
  PERF_DATA_HEADER_SIZE = PD_V2_DATA_HEADER_SIZE,
};

enum {
  PERF_COUNTER_HEADER_dwStatus = 0,
  PERF_COUNTER_HEADER_dwType = 4,
  PERF_COUNTER_HEADER_dwSize = 8,
  PERF_COUNTER_HEADER_SIZE = PD_V2_COUNTER_HEADER_SIZE,
};

enum {
  PERF_COUNTER_DATA_dwDataSize = 0,
  PERF_COUNTER_DATA_dwSize = 4,
  PERF_COUNTER_DATA_SIZE = 8, /* the value follows */
};

enum {
  PERF_MULTI_COUNTERS_dwSize = 0,
  PERF_MULTI_COUNTERS_dwCounters = 4,
  PERF_MULTI_COUNTERS_SIZE = 8, /* the DWORD ids follow */
};

enum {
  PERF_MULTI_INSTANCES_dwTotalSize = 0,
  PERF_MULTI_INSTANCES_dwInstances = 4,
  PERF_MULTI_INSTANCES_SIZE = 8, /* the instances follow */
};

enum {
  PERF_INSTANCE_HEADER_Size = 0,
  PERF_INSTANCE_HEADER_InstanceId = 4,
  PERF_INSTANCE_HEADER_SIZE = 8, /* the UTF-16 name follows */
};

#endif
