#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the figures file reader and its report table and JSON
# (loader/report/figures.c).  (The guest's parsers that write the file:
# tests/harness/guest_figures.sh.)

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
make -s -C "$top" --no-print-directory build/tests/test_figures || exit
cd "$top" && exec build/tests/test_figures
