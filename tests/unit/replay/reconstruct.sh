#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of stock menu's prediction rebuilt from menu's data
# (loader/replay/reconstruct.c), on hand-made records.

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
make -s -C "$top" --no-print-directory build/tests/test_reconstruct || exit
cd "$top" && exec build/tests/test_reconstruct
