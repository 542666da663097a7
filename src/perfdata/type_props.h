/* collectd-winperf: a counter type's properties, looked up once per
 * definition instead of per value (counter_types.c, compute.c).
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#ifndef PD_TYPE_PROPS_H
#define PD_TYPE_PROPS_H

#include "perfdata.h"

typedef struct pd_type_props {
  bool named;       /* pd_type_name is not NULL */
  bool displayable; /* pd_type_is_displayable */
  bool needs_base;  /* pd_type_needs_base */
  bool two_samples; /* pd_type_needs_two_samples */
} pd_type_props;

pd_type_props pd_type_props_of(uint32_t type);

/* pd_compute with the type's properties already looked up (same result). */
pd_value_status pd_compute_props(uint32_t type, pd_type_props props,
                                 const pd_sample *older, const pd_sample *newer,
                                 const pd_calc_options *opt, double *value);

#endif
