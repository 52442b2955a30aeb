# SPDX-License-Identifier: GPL-2.0
#
# lib/: the few functions the loader, the workloads, bench/genrec and the
# host tests share (argp numbers, the seeded PRNG, duration statistics, the
# sleep trace, opening an input file without blocking), for the
# top-level Makefile: one archive, from which each program links what it
# uses.  Uses BUILD, OBJ and the object rule from there.

LIB_ARCHIVE := $(BUILD)/lib.a

$(LIB_ARCHIVE): $(patsubst %.c,$(OBJ)/%.o,$(wildcard lib/*.c))
	@rm -f $@
	$(AR) rcs $@ $^
