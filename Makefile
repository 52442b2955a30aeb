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
		loader/aggregate.h loader/recfile.h loader/models.h \
		loader/report.h bpf/idlescope.h $(BUILD)/idlescope.skel.h
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

$(INITRAMFS): vm/init vm/mkinitramfs.sh vm/guest/suite.sh $(LOADER) $(MODULE) \
		$(WORKLOAD_BINS) tests/lib.sh $(GUEST_TESTS)
	vm/mkinitramfs.sh $@ $(LOADER):/usr/bin/idlescope \
		vm/guest/suite.sh:/usr/share/idlescope/suite.sh \
		$(foreach w,$(WORKLOAD_BINS),$(w):/usr/bin/$(notdir $(w))) \
		$(MODULE):/lib/modules/idlescope_states.ko \
		tests/lib.sh:/usr/share/idlescope/lib.sh \
		$(foreach s,$(GUEST_TESTS),$(s):/usr/share/idlescope/tests/$(notdir $(s)))

initramfs: $(INITRAMFS)

# make run: seconds per workload and the governors/workloads to measure.
SECONDS_PER_WORKLOAD ?= 5
GOVERNORS ?= menu teo ladder menu2010 menu2010fix menu2010rpd
WORKLOAD_SET ?= idle periodic1ms periodic100us periodic10ms jitter bimodal poisson pingpong iowait
RUN_DIR := out/$(shell date -u +%Y%m%dT%H%M%SZ)
DISK := $(BUILD)/disk.img

# The iowait workload's disk: contents do not matter, only that reads block.
$(DISK):
	truncate -s 64M $@

run: kernel
	@$(MAKE) --no-print-directory initramfs $(DISK)
	@mkdir -p $(RUN_DIR) && ln -sfn $(notdir $(RUN_DIR)) out/latest
	@vm/run.sh -s $(RUN_DIR) -t 3000 -q -drive -q file=$(DISK),if=virtio,format=raw,cache=none -- \
		sh /usr/share/idlescope/suite.sh $(SECONDS_PER_WORKLOAD) \
		"'$(GOVERNORS)'" "'$(WORKLOAD_SET)'"
	@for g in $(GOVERNORS); do echo "== $$g"; cat $(RUN_DIR)/$$g/report.txt; done
	@echo "reports: $(RUN_DIR) (out/latest)"

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

$(GENREC): bench/genrec.c loader/recfile.c workloads/workload.c loader/recfile.h \
		workloads/workload.h bpf/idlescope.h
	$(CC) $(CFLAGS) -Ibpf -Iloader -Iworkloads $(filter %.c,$^) -lm -o $@

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
