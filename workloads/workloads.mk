# SPDX-License-Identifier: GPL-2.0
#
# The workloads, for the top-level Makefile: `include workloads/workloads.mk`
# (after its first rule, so `help` stays the default goal, and after
# lib/lib.mk).  Uses BUILD, OBJ, CC, CFLAGS and the object rule from there.
#
#   $(WORKLOAD_BINS)  the guest programs, static: $(BUILD)/workloads/NAME
#   $(IRQFEED)        the host-side feeder of irqtrain (dynamic)
#   workloads         phony: all of them
#   list-workloads    phony: print the paths of all of them, for tests

# A program is a source file: every workloads/NAME.c but the skeleton and
# the host-side irqfeed (what `make run` runs of them is suite.txt).
WORKLOADS := $(filter-out workload irqfeed,$(basename $(notdir $(wildcard workloads/*.c))))
WORKLOAD_BINS := $(addprefix $(BUILD)/workloads/,$(WORKLOADS))
WORKLOAD_LIBS := -lpthread -lm
IRQFEED := $(BUILD)/irqfeed
# The skeleton every program links, and lib/.
WORKLOAD_COMMON := $(OBJ)/workloads/workload.o $(LIB_ARCHIVE)

.PHONY: workloads list-workloads

workloads: $(WORKLOAD_BINS) $(IRQFEED)

list-workloads:
	@echo $(WORKLOAD_BINS) $(IRQFEED)

$(BUILD)/workloads/%: $(OBJ)/workloads/%.o $(WORKLOAD_COMMON)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static $^ -o $@ $(WORKLOAD_LIBS)

$(IRQFEED): $(OBJ)/workloads/irqfeed.o $(WORKLOAD_COMMON)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $^ -o $@ -lm
