/* collectd-winperf: what every source shares, read through its optional
 * members so callers need no per-source (per-platform) code.
 * Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
 */
#include "source.h"

wp_source_fault wp_source_last_fault(const wp_source *src) {
  return src->fault != NULL ? src->fault(src) : WP_SOURCE_FAULT_OTHER;
}

const char *wp_source_fault_name(wp_source_fault fault) {
  switch (fault) {
  case WP_SOURCE_FAULT_AUTH:
    return "authentication failure";
  case WP_SOURCE_FAULT_CONNECT:
    return "connection failure";
  case WP_SOURCE_FAULT_TIMEOUT:
    return "timeout";
  case WP_SOURCE_FAULT_PROTOCOL:
    return "protocol error";
  case WP_SOURCE_FAULT_SERVER:
    return "server error";
  case WP_SOURCE_FAULT_CONFIG:
    return "configuration error";
  case WP_SOURCE_FAULT_ACCESS:
    return "access denied";
  case WP_SOURCE_FAULT_REQUEST:
    return "request error";
  case WP_SOURCE_FAULT_HELPER:
    return "helper failure";
  default:
    return "failure";
  }
}

bool wp_source_connected(const wp_source *src) {
  return src->connected == NULL || src->connected(src);
}

bool wp_source_names_changed(wp_source *src) {
  return src->names_changed != NULL && src->names_changed(src);
}

uint32_t wp_source_last_counter(wp_source *src) {
  return src->last_counter != NULL ? src->last_counter(src) : 0;
}
