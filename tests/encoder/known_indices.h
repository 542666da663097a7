/* collectd-winperf tests: the name indices of Windows' English Counter
 * table that the test generators use.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 *
 * One table for the generators (the bench, the demo and e2e captures), so
 * an object or counter has one number everywhere and no number two names.
 * The values are those a Windows host's Counter table gives them
 * (format.md 4.1), but for the base counters marked made up; a generator
 * that writes a names table writes these numbers with the names in the
 * comments. Indices a generator makes up for objects of its own (2000 and
 * above) stay in that generator.
 */
#ifndef WINPERF_TESTS_KNOWN_INDICES_H
#define WINPERF_TESTS_KNOWN_INDICES_H

/* Objects. */
enum {
  WK_SYSTEM = 2,              /* System */
  WK_MEMORY = 4,              /* Memory */
  WK_PROCESS = 230,           /* Process */
  WK_THREAD = 232,            /* Thread */
  WK_PHYSICALDISK = 234,      /* PhysicalDisk */
  WK_LOGICALDISK = 236,       /* LogicalDisk */
  WK_PROCESSOR = 238,         /* Processor */
  WK_NETWORK_INTERFACE = 510, /* Network Interface */
  WK_PAGING_FILE = 700,       /* Paging File */
  WK_PRINT_QUEUE = 1450,      /* Print Queue */
};

/* Counters. */
enum {
  WK_PROCESSOR_TIME = 6,           /* % Processor Time */
  WK_COMMITTED_BYTES = 26,         /* Committed Bytes */
  WK_PAGE_FAULTS = 28,             /* Page Faults/sec */
  WK_COMMIT_LIMIT = 30,            /* Commit Limit */
  WK_PAGES_SEC = 40,               /* Pages/sec */
  WK_QUEUE_LENGTH = 44,            /* Processor Queue Length */
  WK_THREAD_STATE = 46,            /* Thread State */
  WK_POOL_PAGED = 56,              /* Pool Paged Bytes */
  WK_POOL_NONPAGED = 58,           /* Pool Nonpaged Bytes */
  WK_USER_TIME = 142,              /* % User Time */
  WK_PRIVILEGED_TIME = 144,        /* % Privileged Time */
  WK_CONTEXT_SWITCHES = 146,       /* Context Switches/sec */
  WK_INTERRUPTS = 148,             /* Interrupts/sec */
  WK_SYSTEM_CALLS = 150,           /* System Calls/sec */
  WK_VIRTUAL_BYTES_PEAK = 172,     /* Virtual Bytes Peak */
  WK_VIRTUAL_BYTES = 174,          /* Virtual Bytes */
  WK_WORKING_SET_PEAK = 178,       /* Working Set Peak */
  WK_WORKING_SET = 180,            /* Working Set */
  WK_PAGE_FILE_BYTES_PEAK = 182,   /* Page File Bytes Peak */
  WK_PAGE_FILE_BYTES = 184,        /* Page File Bytes */
  WK_PRIVATE_BYTES = 186,          /* Private Bytes */
  WK_DISK_TIME = 200,              /* % Disk Time */
  WK_DISK_SEC_READ = 208,          /* Avg. Disk sec/Read */
  WK_DISK_READS = 214,             /* Disk Reads/sec */
  WK_DISK_BYTES = 218,             /* Disk Bytes/sec */
  WK_DISK_READ_BYTES = 220,        /* Disk Read Bytes/sec */
  WK_PROCESSES = 248,              /* Processes */
  WK_THREADS = 250,                /* Threads */
  WK_BYTES_RECEIVED = 264,         /* Bytes Received/sec */
  WK_THREAD_WAIT_REASON = 336,     /* Thread Wait Reason */
  WK_BYTES_TOTAL = 388,            /* Bytes Total/sec */
  WK_FREE_SPACE = 408,             /* % Free Space */
  WK_FREE_MEGABYTES = 410,         /* Free Megabytes */
  WK_BANDWIDTH = 520,              /* Current Bandwidth */
  WK_UP_TIME = 674,                /* System Up Time */
  WK_THREAD_COUNT = 680,           /* Thread Count */
  WK_PRIORITY_BASE = 682,          /* Priority Base */
  WK_ELAPSED_TIME = 684,           /* Elapsed Time */
  WK_PRIORITY_CURRENT = 694,       /* Priority Current */
  WK_USAGE = 702,                  /* % Usage */
  WK_START_ADDRESS = 706,          /* Start Address */
  WK_ID_PROCESS = 784,             /* ID Process */
  WK_ID_THREAD = 804,              /* ID Thread */
  WK_BYTES_SENT = 896,             /* Bytes Sent/sec */
  WK_CACHE_BYTES = 818,            /* Cache Bytes */
  WK_HANDLE_COUNT = 952,           /* Handle Count */
  WK_AVAILABLE_BYTES = 1380,       /* Available Bytes */
  WK_AVG_DISK_QUEUE_LENGTH = 1400, /* Avg. Disk Queue Length */
  WK_IO_READ_OPS = 1402,           /* IO Read Operations/sec */
  WK_IO_WRITE_OPS = 1404,          /* IO Write Operations/sec */
  WK_COMMITTED_IN_USE = 1406,      /* % Committed Bytes In Use */
  WK_IO_READ_BYTES = 1420,         /* IO Read Bytes/sec */
  WK_IO_WRITE_BYTES = 1422,        /* IO Write Bytes/sec */
  WK_JOBS = 1452,                  /* Jobs */
  WK_PRIVATE_WORKING_SET = 1478,   /* Working Set - Private */
  WK_IDLE_TIME = 1746,             /* % Idle Time */
};

/* Base counters: made up (each with its own name in the generators'
 * tables), after the counter they serve. */
enum {
  WK_COMMITTED_IN_USE_BASE = 1408, /* % Committed Bytes In Use Base */
  WK_FREE_SPACE_BASE = 1410,       /* % Free Space Base */
  WK_DISK_SEC_READ_BASE = 1412,    /* Avg. Disk sec/Read Base */
};

#endif
