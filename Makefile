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

# Guest test scripts, installed in /usr/share/idlescope/tests.
GUEST_TESTS := $(wildcard tests/guest/*.sh)

.PHONY: help deps kernel bpf loader initramfs run test clean

help:
	@echo "idlescope targets:"
	@echo "  make run        build everything, boot the VM, measure, print the report"
	@echo "  make test       build everything, run host and VM tests (N passed, N failed)"
	@echo "  make deps       install missing Debian packages (as root)"
	@echo "  make kernel     build the guest kernel (cached in /var/cache/idlescope)"
	@echo "  make loader     build the BPF object and the static idlescope loader"
	@echo "  make initramfs  build the guest initramfs"
	@echo "  make clean      remove build/ (the kernel cache stays)"

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

$(LOADER): loader/idlescope.c bpf/idlescope.h $(BUILD)/idlescope.skel.h
	$(CC) $(CFLAGS) -static -I$(BUILD) -Ibpf -Iloader $(filter %.c,$^) \
		-lbpf -lelf -lz -o $@

bpf: $(BUILD)/idlescope.bpf.o
loader: $(LOADER)

$(INITRAMFS): vm/init vm/mkinitramfs.sh $(LOADER) tests/lib.sh $(GUEST_TESTS)
	vm/mkinitramfs.sh $@ $(LOADER):/usr/bin/idlescope \
		tests/lib.sh:/usr/share/idlescope/lib.sh \
		$(foreach s,$(GUEST_TESTS),$(s):/usr/share/idlescope/tests/$(notdir $(s)))

initramfs: $(INITRAMFS)

run: kernel
	@$(MAKE) --no-print-directory initramfs
	@vm/run.sh -t 300 -- idlescope -d 2

test: kernel
	@$(MAKE) --no-print-directory initramfs
	@tests/run.sh

clean:
	rm -rf $(BUILD)
