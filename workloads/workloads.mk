# SPDX-License-Identifier: GPL-2.0
#
# The workloads, for the top-level Makefile: `include workloads/workloads.mk`
# (after its first rule, so `help` stays the default goal, and after
# lib/lib.mk).  Uses BUILD, CC and CFLAGS from there; the defaults below only
# serve workloads/Makefile.
#
#   $(WORKLOAD_BINS)  the guest programs, static: $(BUILD)/workloads/NAME
#   $(IRQFEED)        the host-side feeder of irqtrain (dynamic)
#   workloads         phony: all of them
#   list-workloads    phony: print the paths of all of them, for tests

BUILD ?= build
CFLAGS ?= -O2 -g -Wall -Wextra

# A program is a source file: every workloads/NAME.c but the skeleton and
# the host-side irqfeed (what `make run` runs of them is suite.txt).
WORKLOADS := $(filter-out workload irqfeed,$(basename $(notdir $(wildcard workloads/*.c))))
WORKLOAD_BINS := $(addprefix $(BUILD)/workloads/,$(WORKLOADS))
WORKLOAD_LIBS := -lpthread -lm
IRQFEED := $(BUILD)/irqfeed
# The skeleton and the library every program links.
WORKLOAD_COMMON := workloads/workload.c workloads/workload.h bpf/idlescope.h \
	$(LIB_ARGS) $(LIB_RNG) $(LIB_STATS)

.PHONY: workloads list-workloads

workloads: $(WORKLOAD_BINS) $(IRQFEED)

list-workloads:
	@echo $(WORKLOAD_BINS) $(IRQFEED)

$(BUILD)/workloads/%: workloads/%.c $(WORKLOAD_COMMON)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -Ibpf -Ilib $(filter %.c,$^) -o $@ $(WORKLOAD_LIBS)

$(IRQFEED): workloads/irqfeed.c $(WORKLOAD_COMMON)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ibpf -Ilib $(filter %.c,$^) -o $@ -lm
