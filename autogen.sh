#!/bin/sh
# Regenerate the build system (configure, Makefile.in) from configure.ac.
# Copyright (c) 2026 the collectd-winperf authors. SPDX-License-Identifier: MIT
set -e
cd "$(dirname "$0")"
autoreconf --force --install
