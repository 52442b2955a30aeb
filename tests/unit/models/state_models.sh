#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host unit tests of the models that choose states (teo of 6.1 and 6.12,
# menu of 6.12), of the choice of a governor's model by the recorded
# kernel, and of the pipeline's checks of chosen states (no BPF, no VM).

. "$(dirname "$0")/../../lib.sh"
top=$(cd "$(dirname "$0")/../../.." && pwd)
make -s -C "$top" --no-print-directory build/tests/test_state_models || exit
exec "$top/build/tests/test_state_models"
