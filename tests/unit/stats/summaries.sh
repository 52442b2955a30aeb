#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the BPF side's summary arithmetic (no BPF, no VM).

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
make -s -C "$top" --no-print-directory build/tests/test_summaries || exit
cd "$top" && exec build/tests/test_summaries
