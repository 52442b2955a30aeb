#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the models of the upstream changes our 6.12 series
# carries (menu615, teo70) and of the teo-6.12 ablation's variant with
# 6.1's candidate state (no BPF, no VM): docs/upstream.md, docs/kernels.md.

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
make -s -C "$top" --no-print-directory build/tests/test_upstream_models || exit
exec "$top/build/tests/test_upstream_models"
