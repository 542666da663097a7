/* collectd-winperf. Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT */
/* (being written) */
#include "source.h"
