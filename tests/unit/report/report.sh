#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the reports of an aggregate: histograms, report.txt,
# report.json and its schema check, the atomic write (loader/report/).

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
make -s -C "$top" --no-print-directory build/tests/test_report || exit
cd "$top" && exec build/tests/test_report
