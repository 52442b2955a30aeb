# SPDX-License-Identifier: GPL-2.0
#
# idlescope: the map.  `make run` measures, `make test` checks; both build
# what they need first (packages, kernel from cache, BPF, loader, initramfs).

BUILD := build
KDIR := $(BUILD)/linux
VMLINUX := $(KDIR)/vmlinux
BZIMAGE := $(KDIR)/arch/x86/boot/bzImage
INITRAMFS := $(BUILD)/initramfs.cpio.gz

CLANG ?= clang
BPFTOOL ?= bpftool
CC ?= gcc
CFLAGS := -O2 -g -Wall -Wextra -Wno-unused-parameter
BPF_CFLAGS := -O2 -g -Wall -target bpf -D__TARGET_ARCH_x86

LOADER := $(BUILD)/idlescope
MODULE_SRC := kernel/modules/idlescope_states
MODULE := $(BUILD)/idlescope_states/idlescope_states.ko

# Guest test scripts, installed in /usr/share/idlescope/tests.
GUEST_TESTS := $(wildcard tests/guest/*.sh)

.PHONY: help deps kernel module bpf loader initramfs run test bench clean

help:
	@echo "idlescope targets:"
	@echo "  make run        build everything, boot the VM, measure, print the report"
	@echo "  make test       build everything, run host and VM tests (N passed, N failed)"
	@echo "  make bench      probe overhead, drop-free rates, loader/report cost, build times"
	@echo "  make deps       install missing Debian packages (as root)"
	@echo "  make kernel     build the guest kernel (cached in /var/cache/idlescope)"
	@echo "  make module     build the idlescope_states idle driver module"
	@echo "  make loader     build the BPF object and the static idlescope loader"
	@echo "  make initramfs  build the guest initramfs"
	@echo "  make clean      remove build/ (the kernel cache stays)"

# The guest's clock for every boot (vm/run.sh): virtual (icount, the
# default for everything that measures) or host (multi-threaded TCG).
CLOCK ?= virtual
export CLOCK

include lib/lib.mk
include workloads/workloads.mk

deps:
	@scripts/deps.sh

kernel: deps
	@kernel/build.sh

$(BUILD)/vmlinux.h: $(VMLINUX)
	@mkdir -p $(BUILD)
	$(BPFTOOL) btf dump file $< format c > $@.tmp
	@mv $@.tmp $@

$(BUILD)/idlescope.bpf.o: bpf/idlescope.bpf.c bpf/idlescope.h $(BUILD)/vmlinux.h
	$(CLANG) $(BPF_CFLAGS) -I$(BUILD) -Ibpf -c $< -o $@

$(BUILD)/idlescope.skel.h: $(BUILD)/idlescope.bpf.o
	$(BPFTOOL) gen skeleton $< name idlescope_bpf > $@.tmp
	@mv $@.tmp $@

$(LOADER): loader/idlescope.c loader/aggregate.c loader/report.c loader/recfile.c loader/models.c \
		loader/table.c loader/summary.c loader/plot.c loader/mode.c loader/mode.h \
		loader/aggregate.h loader/recfile.h loader/models.h \
		loader/report.h loader/table.h loader/summary.h loader/plot.h \
		bpf/idlescope.h $(BUILD)/idlescope.skel.h
	$(CC) $(CFLAGS) -static -I$(BUILD) -Ibpf -Iloader $(filter %.c,$^) \
		-lbpf -lelf -lz -o $@

# Built in a copy under build/ so the module's objects stay out of the source tree.
$(MODULE): $(wildcard $(MODULE_SRC)/*) $(VMLINUX)
	@rm -rf $(dir $@) && mkdir -p $(dir $@) && cp $(MODULE_SRC)/* $(dir $@)
	$(MAKE) -C $(KDIR) M=$(abspath $(dir $@)) modules >$(BUILD)/module.log 2>&1 || \
		{ cat $(BUILD)/module.log; exit 1; }

module: $(MODULE)
bpf: $(BUILD)/idlescope.bpf.o
loader: $(LOADER)

$(INITRAMFS): vm/init vm/mkinitramfs.sh vm/guest/suite.sh workloads/suite.txt $(LOADER) $(MODULE) \
		$(WORKLOAD_BINS) tests/lib.sh $(GUEST_TESTS)
	vm/mkinitramfs.sh $@ $(LOADER):/usr/bin/idlescope \
		vm/guest/suite.sh:/usr/share/idlescope/suite.sh \
		workloads/suite.txt:/usr/share/idlescope/suite.txt \
		$(foreach w,$(WORKLOAD_BINS),$(w):/usr/bin/$(notdir $(w))) \
		$(MODULE):/lib/modules/idlescope_states.ko \
		tests/lib.sh:/usr/share/idlescope/lib.sh \
		$(BUILD)/idlescope.bpf.o:/usr/share/idlescope/idlescope.bpf.o \
		$(foreach s,$(GUEST_TESTS),$(s):/usr/share/idlescope/tests/$(notdir $(s)))

initramfs: $(INITRAMFS)

# KERNEL=debian: make run boots Debian's own kernel (kernel/debian.sh), which
# has the stock governors only, instead of ours.
ifeq ($(KERNEL),debian)
GOVERNORS ?= menu ladder
RUN_VM := -k $(BUILD)/debian/vmlinuz -i $(BUILD)/debian/initramfs.cpio.gz \
	-a "$$(cat $(BUILD)/debian/cmdline)"
endif

# make run: seconds per workload and the governors/workloads to measure.
# The governors are bpf/idlescope.h's IDLESCOPE_GOVERNORS(X) lines
# `X(ID, "name")` but "none" (no governor ran); the workloads are the names
# of workloads/suite.txt, which vm/guest/suite.sh runs.
SECONDS_PER_WORKLOAD ?= 5
KNOWN_GOVERNORS := $(filter-out none,$(shell sed -n \
	's/^[[:space:]]*X([A-Z0-9_]*,[[:space:]]*\([a-z0-9_]*\)).*/\1/p' bpf/idlescope.h))
SUITE := workloads/suite.txt
GOVERNORS ?= $(KNOWN_GOVERNORS)
WORKLOAD_SET ?= $(shell awk '$$1 ~ /^[^\#]/ { print $$1 }' $(SUITE))
RUN_DIR := out/$(shell date -u +%Y%m%dT%H%M%SZ)
DISK := $(BUILD)/disk.img
# irqtrain's interrupts: a byte every IRQTRAIN_PERIOD_US from the host's
# irqfeed to the guest's second serial port (/dev/ttyS1) through IRQ_SOCK.
IRQ_SOCK := $(BUILD)/irq.sock
IRQTRAIN_PERIOD_US ?= 1000

# The iowait workload's disk: contents do not matter, only that reads block.
$(DISK):
	truncate -s 64M $@

# Names are checked before anything is built or booted: one line, then stop.
ifneq ($(filter run,$(MAKECMDGOALS)),)
SUITE_NAMES_ERROR := $(shell sh vm/guest/suite.sh --check $(SUITE) '$(KNOWN_GOVERNORS)' \
	'$(GOVERNORS)' '$(WORKLOAD_SET)' 2>&1)
$(if $(SUITE_NAMES_ERROR),$(error $(SUITE_NAMES_ERROR)))
endif

run: kernel
	@$(MAKE) --no-print-directory initramfs $(DISK) $(IRQFEED)
	@$(if $(RUN_VM),kernel/debian.sh $(INITRAMFS))
	@mkdir -p $(RUN_DIR) && ln -sfn $(notdir $(RUN_DIR)) out/latest
	@rm -f $(IRQ_SOCK); \
	$(IRQFEED) -u $(IRQ_SOCK) -p $(IRQTRAIN_PERIOD_US) -d 86400 -w $(RUN_DIR)/irqfeed.on \
		>$(RUN_DIR)/irqfeed.txt 2>&1 & feeder=$$!; \
	vm/run.sh $(RUN_VM) -s $(RUN_DIR) -t 3000 -q -drive -q file=$(DISK),if=virtio,format=raw,cache=none \
		-q -serial -q mon:stdio -q -serial -q chardev:irq \
		-q -chardev -q socket,id=irq,path=$(IRQ_SOCK),server=on,wait=off -- \
		sh /usr/share/idlescope/suite.sh /usr/share/idlescope/suite.txt \
		"'$(KNOWN_GOVERNORS)'" $(SECONDS_PER_WORKLOAD) "'$(GOVERNORS)'" "'$(WORKLOAD_SET)'"; \
	rc=$$?; kill $$feeder 2>/dev/null; exit $$rc
	@scripts/run-summary.sh $(LOADER) $(RUN_DIR) $(GOVERNORS)

test: kernel
	@$(MAKE) --no-print-directory initramfs
	@tests/run.sh

# make bench: one boot of the bench image (the initramfs above plus the
# bench tools, as a second cpio archive the kernel unpacks over the first,
# so the loader and workloads measured are exactly those `make run` uses).
PROGSTATS := $(BUILD)/progstats
GENREC := $(BUILD)/genrec
BENCH_INITRAMFS := $(BUILD)/bench-initramfs.cpio.gz

$(PROGSTATS): bench/progstats.c bpf/idlescope.h
	$(CC) $(CFLAGS) -static -Ibpf $< -lbpf -lelf -lz -o $@

$(GENREC): bench/genrec.c loader/recfile.c loader/recfile.h bpf/idlescope.h \
		$(LIB_ARGS) $(LIB_RNG)
	$(CC) $(CFLAGS) -Ibpf -Iloader -Ilib $(filter %.c,$^) -lm -o $@

$(BENCH_INITRAMFS): $(INITRAMFS) $(PROGSTATS) bench/guest.sh vm/mkinitramfs.sh
	vm/mkinitramfs.sh $@.tools $(PROGSTATS):/usr/bin/progstats \
		bench/guest.sh:/usr/share/idlescope/bench.sh
	cat $(INITRAMFS) $@.tools >$@
	@rm -f $@.tools

bench: kernel
	@$(MAKE) --no-print-directory $(BENCH_INITRAMFS) $(GENREC)
	@bench/run.sh

clean:
	rm -rf $(BUILD)
