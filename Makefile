# SPDX-License-Identifier: GPL-2.0
#
# idlescope: the map.  `make run` measures, `make test` checks; both build
# what they need first (packages, kernel from cache, BPF, loader, initramfs).

BUILD := build
# Objects and their dependency files (-MMD -MP: the headers each one
# includes), under the path of their source: build/obj/loader/report.o.
OBJ := $(BUILD)/obj
KDIR := $(BUILD)/linux
INITRAMFS := $(BUILD)/initramfs.cpio.gz
# The cache key (kernel/build.sh --key) of the tree build/linux links to,
# rewritten only when it changes.  Whatever is built from the kernel tree
# (vmlinux.h, the module; from vmlinux.h the BPF object, skeleton and
# loader) depends on this file, not on files inside the tree: a fresh clone
# builds or links the kernel first, and a switch to another cached tree
# rebuilds them even though that tree's files may be older.
KERNEL_STAMP := $(BUILD)/kernel.key

CLANG ?= clang
BPFTOOL ?= bpftool
CC ?= gcc
CFLAGS := -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror=implicit-function-declaration
DEPFLAGS := -MMD -MP
# Host C: the record layout (bpf/), the loader's and lib/'s headers, the
# skeleton and vmlinux.h (build/), the module's state table.
HOST_CPPFLAGS := -Ibpf -Iloader -Ilib -I$(BUILD) -Ikernel/modules/idlescope_states
BPF_CFLAGS := -O2 -g -Wall -target bpf -D__TARGET_ARCH_x86

LOADER := $(BUILD)/idlescope
LOADER_LIBS := -lbpf -lelf -lz -lm
MODULE_SRC := kernel/modules/idlescope_states
MODULE := $(BUILD)/idlescope_states/idlescope_states.ko

# Guest test scripts, installed in /usr/share/idlescope/tests.
GUEST_TESTS := $(wildcard tests/guest/*.sh)

.PHONY: help deps test-deps kernel module bpf loader initramfs programs host-tests run ab test test-kernels bench fuzz ablation clean FORCE

help:
	@echo "idlescope targets:"
	@echo "  make run        build everything, boot the VM (REPEATS seeds x GOVERNORS, JOBS at a"
	@echo "                  time; PRECISION=PP boots until that narrow), measure, print the report;"
	@echo "                  KERNELS=\"6.1 6.12\": each kernel, then the kernels side by side"
	@echo "  make ab A=G1 B=G2  governor G1 against G2 on the same AB_SEEDS (10) seeds, paired,"
	@echo "                  the verdict last; A=6.1:menu B=6.12:menu across kernels"
	@echo "  make test       build everything, run host and VM tests (N passed, N failed);"
	@echo "                  KERNEL=6.12: the guest suites on our 6.12 build"
	@echo "  make test-kernels  the suites that build another kernel (tests/kernels/)"
	@echo "  make bench      probe overhead, drop-free rates, loader/report cost, build times,"
	@echo "                  reproducibility of two runs per clock mode (bench/repro.sh)"
	@echo "  make deps       install missing Debian packages (as root); make test-deps: and"
	@echo "                  those of the tests (chromium, node and npm)"
	@echo "  make kernel     build the guest kernel (cached in /var/cache/idlescope);"
	@echo "                  KERNEL=6.1 (default) or 6.12: Debian's source + kernel/patches,"
	@echo "                  KERNEL_SRC=PATH: your own tree, without our patches"
	@echo "  make module     build the idlescope_states idle driver module"
	@echo "  make bpf        build the BPF object"
	@echo "  make loader     build the BPF object and the static idlescope loader"
	@echo "  make initramfs  build the guest initramfs"
	@echo "  make programs   fetch Debian's programs (workloads/programs.txt) into a second image"
	@echo "  make host-tests build the host test programs (tests/run.sh --host runs them)"
	@echo "  make fuzz       fuzz the readers (record files, traces, figures, power tables,"
	@echo "                  workload lists) for FUZZ_SECONDS (default 600)"
	@echo "  make ablation   build/ablation/idlescope: the loader with the teo ablation's models"
	@echo "  make clean      remove build/ (the kernel cache stays)"

# The guest's clock for every boot (vm/run.sh): fixed (icount with a
# fixed shift, the default for everything that measures), virtual (icount
# with QEMU's adaptive shift, which a loaded host turns into stalls) or
# host (multi-threaded TCG); docs/clock.md.
CLOCK ?= fixed
export CLOCK

# Every host C file compiles the same way, into an object beside its
# dependency file; programs are linked from objects and archives.
$(OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) $(HOST_CPPFLAGS) -c $< -o $@

include lib/lib.mk
include workloads/workloads.mk

deps:
	@scripts/deps.sh

# kernel/build.sh runs every time (a cache hit takes a second); the stamp
# changes only with the key.  This is the reference kernel, our 6.1: the
# BPF object, the loader and the initramfs are built against it and run
# unchanged (CO-RE) on every kernel the guest boots.
$(KERNEL_STAMP): FORCE | deps
	@mkdir -p $(@D)
	@KERNEL=6.1 KERNEL_SRC= kernel/build.sh --stamp $@

# The kernel the guest boots (docs/kernels.md): KERNEL=6.1 (the default,
# the reference kernel itself) or 6.12, our patched build of Debian's
# source; KERNEL_SRC=PATH, a developer's own tree without our patches;
# KERNEL=debian (or debian-6.1) and debian-6.12, Debian's own images.
# Each other than the reference has its build under build/linux-NAME, its
# idlescope_states and an initramfs: the reference one with that module
# and the kernel's config unpacked over it.
KERNEL ?= 6.1
KERNEL_SRC ?=
# 6.1 is known without its series, which a copy of the Makefile
# elsewhere (tests/repo/recipe_*.sh) need not carry.
KERNEL_SERIES := $(sort 6.1 $(notdir $(wildcard kernel/patches/*.*)))
ifneq ($(KERNEL_SRC),)
ifneq ($(KERNEL),6.1)
$(error KERNEL_SRC=$(KERNEL_SRC) builds that tree: it does not go with KERNEL=$(KERNEL))
endif
BOOT := src
else ifneq ($(filter debian debian-6.1 debian-6.12,$(KERNEL)),)
DEBIAN_SERIES := $(if $(filter debian-6.12,$(KERNEL)),6.12,6.1)
DEBIAN_DIR := $(BUILD)/debian/$(DEBIAN_SERIES)
else ifeq ($(filter $(KERNEL_SERIES),$(KERNEL)),)
$(error KERNEL=$(KERNEL): not one of $(KERNEL_SERIES) debian debian-6.1 debian-6.12)
else ifneq ($(KERNEL),6.1)
BOOT := $(KERNEL)
endif

# A boot kernel other than the reference: its stamp, tree, module, initramfs.
$(BUILD)/kernel-src.key: FORCE | deps
	@mkdir -p $(@D)
	@KERNEL= kernel/build.sh --link $(BUILD)/linux-src --stamp $@

$(BUILD)/kernel-%.key: FORCE | deps
	@mkdir -p $(@D)
	@KERNEL=$* KERNEL_SRC= kernel/build.sh --link $(BUILD)/linux-$* --stamp $@

$(BUILD)/idlescope_states-%/idlescope_states.ko: $(wildcard $(MODULE_SRC)/*) $(BUILD)/kernel-%.key
	@rm -rf $(dir $@) && mkdir -p $(dir $@) && cp $(MODULE_SRC)/* $(dir $@)
	$(MAKE) -C $(BUILD)/linux-$* M=$(abspath $(dir $@)) modules >$(dir $@)module.log 2>&1 || \
		{ cat $(dir $@)module.log; exit 1; }

# RUN_INITRAMFS (below: with Debian's programs or not) is what the guest
# unpacks, for Debian's image under its modules (kernel/debian.sh).
ifneq ($(BOOT),)
kernel: $(BUILD)/kernel-$(BOOT).key
RUN_VM = -k $(BUILD)/linux-$(BOOT)/arch/x86/boot/bzImage -i $(RUN_INITRAMFS)
ifneq ($(KERNEL_SRC),)
# A tree without our patches has the stock governors only.
GOVERNORS ?= menu teo ladder
endif
else ifneq ($(DEBIAN_DIR),)
kernel:
	kernel/debian.sh --series $(DEBIAN_SERIES)
RUN_VM := -k $(DEBIAN_DIR)/vmlinuz -i $(DEBIAN_DIR)/initramfs.cpio.gz \
	-a "$$(cat $(DEBIAN_DIR)/cmdline)"
# Debian builds menu and ladder, not teo.
GOVERNORS ?= menu ladder
else
kernel: $(KERNEL_STAMP)
RUN_VM = -i $(RUN_INITRAMFS)
endif

$(BUILD)/vmlinux.h: $(KERNEL_STAMP)
	$(BPFTOOL) btf dump file $(KDIR)/vmlinux format c > $@.tmp
	@mv $@.tmp $@

$(BUILD)/idlescope.bpf.o: bpf/idlescope.bpf.c $(BUILD)/vmlinux.h
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) -I$(BUILD) -Ibpf -c $< -o $@

$(BUILD)/idlescope.skel.h: $(BUILD)/idlescope.bpf.o
	$(BPFTOOL) gen skeleton $< name idlescope_bpf > $@.tmp
	@mv $@.tmp $@

# The loader is every loader/*.c and loader/*/*.c (a folder per concept:
# docs/howto.md).  The files with main(), the BPF skeleton or a call into
# the live run (live/run.h: cmd/tag.c, cmd/live.c) need the kernel (through vmlinux.h)
# or the BPF side; the rest, the loader's core, is an archive that host
# tests, the fuzz target and bench/genrec link without one.
LOADER_SRCS := $(wildcard loader/*.c loader/*/*.c)
# ar keeps one member per file name: two loader files of one name would
# silently lose one from the archive.
LOADER_DUP_NAMES := $(shell echo $(notdir $(LOADER_SRCS)) | tr ' ' '\n' | sort | uniq -d)
$(if $(LOADER_DUP_NAMES),$(error loader/: two source files named $(LOADER_DUP_NAMES)))
LOADER_SKEL_SRCS := $(shell grep -lE 'idlescope\.skel\.h|"live/run\.h"' $(LOADER_SRCS))
LOADER_MAIN_SRCS := $(shell grep -lw '^int main' $(LOADER_SRCS))
LOADER_CORE_SRCS := $(filter-out $(LOADER_SKEL_SRCS) $(LOADER_MAIN_SRCS),$(LOADER_SRCS))
LOADER_CORE_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(LOADER_CORE_SRCS))
LOADER_CORE := $(BUILD)/loader-core.a

# The skeleton must exist before its users compile; once it does, their
# dependency files name it.
$(patsubst %.c,$(OBJ)/%.o,$(LOADER_SKEL_SRCS)): | $(BUILD)/idlescope.skel.h

$(LOADER_CORE): $(LOADER_CORE_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(LOADER): $(patsubst %.c,$(OBJ)/%.o,$(LOADER_SKEL_SRCS) $(LOADER_MAIN_SRCS)) $(LOADER_CORE) \
		$(LIB_ARCHIVE)
	$(CC) $(CFLAGS) -static $^ $(LOADER_LIBS) -o $@

# Built in a copy under build/ so the module's objects stay out of the source tree.
$(MODULE): $(wildcard $(MODULE_SRC)/*) $(KERNEL_STAMP)
	@rm -rf $(dir $@) && mkdir -p $(dir $@) && cp $(MODULE_SRC)/* $(dir $@)
	$(MAKE) -C $(KDIR) M=$(abspath $(dir $@)) modules >$(BUILD)/module.log 2>&1 || \
		{ cat $(BUILD)/module.log; exit 1; }

# Test tools that run in the guest, built on the loader's live path.
ATTACHCYCLES := $(BUILD)/attachcycles

$(OBJ)/tests/tools/attachcycles.o: | $(BUILD)/idlescope.skel.h

$(ATTACHCYCLES): $(OBJ)/tests/tools/attachcycles.o $(OBJ)/loader/live/probes.o $(LOADER_CORE) $(LIB_ARCHIVE)
	$(CC) $(CFLAGS) -static $^ $(LOADER_LIBS) -o $@

module: $(MODULE)
bpf: $(BUILD)/idlescope.bpf.o
loader: $(LOADER)

# Host test programs: build/tests/NAME from the one tests/unit/*/NAME.c,
# tests/cli/NAME.c or tests/hostile/NAME.c, linked with the loader's core
# and lib/: the unit programs (test_NAME, run by the NAME.sh beside them)
# and the helpers the cli and hostile suites build (tests/README.md).  Not
# programs of their own: the stub CLI's half, the fuzz target, and
# recfile_shrink.c, which tests/hostile/recfile.sh builds with the reader.
TEST_PROGRAM_SRCS := $(filter-out tests/cli/cli_stub.c tests/hostile/fuzz_reader.c \
	tests/hostile/recfile_shrink.c,$(wildcard tests/unit/*/*.c tests/cli/*.c tests/hostile/*.c))
# One name is one target: two sources of one name would silently lose one.
TEST_PROGRAM_DUP_NAMES := $(shell echo $(notdir $(TEST_PROGRAM_SRCS)) | tr ' ' '\n' | sort | uniq -d)
$(if $(TEST_PROGRAM_DUP_NAMES),$(error tests/: two test programs named $(TEST_PROGRAM_DUP_NAMES)))
HOST_TESTS := $(patsubst %.c,$(BUILD)/tests/%,$(notdir $(wildcard tests/unit/*/test_*.c)))

define test_program
$(BUILD)/tests/$(basename $(notdir $(1))): $(OBJ)/$(1:.c=.o) $(LOADER_CORE) $(LIB_ARCHIVE)
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $$^ -lz -lm -o $$@
endef
$(foreach s,$(TEST_PROGRAM_SRCS),$(eval $(call test_program,$(s))))
# What the unit programs share (check.h, fixtures.h) is in tests/unit/.
$(OBJ)/tests/unit/%.o: HOST_CPPFLAGS += -Itests/unit

# The command line, the live run's options included, with a stub for the
# live run itself (tests/cli/cli.sh).
$(BUILD)/tests/cli_idlescope: $(OBJ)/loader/main.o $(OBJ)/loader/cmd/live.o \
		$(OBJ)/tests/cli/cli_stub.o $(LOADER_CORE) \
		$(LIB_ARCHIVE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $^ -lz -lm -o $@

host-tests: $(HOST_TESTS)

# What the guest side of the suite uses besides suite.sh (vm/guest/).
GUEST_SUITE_FILES := vm/guest/helpers.sh vm/guest/figures.sh vm/guest/lighttpd.conf vm/guest/www/index.html
# The loader built with ASan and UBSan, and with the report set's fault
# points (loader/output/fault.h), for the host tests that feed it hostile
# input or stop it halfway (tests/hostile/recfile.sh, reportset.sh, tests/cli/cli.sh).
ASAN_OBJ := $(BUILD)/obj-asan
ASAN_LOADER := $(BUILD)/asan/idlescope
SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ASAN_CFLAGS := -O1 -g -Wall -Wextra -Wno-unused-parameter -Werror=implicit-function-declaration $(SANITIZE) -DIDLESCOPE_FAULT_INJECTION

$(ASAN_OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ASAN_CFLAGS) $(DEPFLAGS) $(HOST_CPPFLAGS) -c $< -o $@

$(patsubst %.c,$(ASAN_OBJ)/%.o,$(LOADER_SKEL_SRCS)): | $(BUILD)/idlescope.skel.h

$(ASAN_LOADER): $(patsubst %.c,$(ASAN_OBJ)/%.o,$(LOADER_SRCS) $(wildcard lib/*.c))
	@mkdir -p $(@D)
	$(CC) $(ASAN_CFLAGS) $^ $(LOADER_LIBS) -o $@

# The readers' libFuzzer target (tests/hostile/fuzz_reader.c), built with
# clang: the loader's core, without the BPF side, under ASan and UBSan.
# make test runs it briefly (tests/hostile/fuzz.sh); make fuzz runs it for
# FUZZ_SECONDS on the corpus in build/fuzz/corpus, crashes into build/fuzz/.
FUZZ_OBJ := $(BUILD)/obj-fuzz
FUZZER := $(BUILD)/fuzz/fuzz_reader
FUZZ_CFLAGS := -O1 -g -Wall -Wno-unused-parameter $(SANITIZE) -fsanitize=fuzzer-no-link
FUZZ_SECONDS ?= 600

$(FUZZ_OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) $(DEPFLAGS) $(HOST_CPPFLAGS) -c $< -o $@

$(FUZZER): $(patsubst %.c,$(FUZZ_OBJ)/%.o,tests/hostile/fuzz_reader.c $(LOADER_CORE_SRCS) \
		$(wildcard lib/*.c))
	@mkdir -p $(@D)
	$(CLANG) $(SANITIZE) -fsanitize=fuzzer $^ -lz -lm -o $@

fuzz: $(FUZZER) $(GENREC)
	@bash tests/hostile/fuzz.sh --seconds $(FUZZ_SECONDS)

# The report page's files (loader/report/html.c assembles them into the
# loader): its own CSS and scripts, and Chart.js, which scripts/deps.sh
# installs from Debian's libjs-chart.js.  Every build of html.c (plain,
# sanitizers, fuzzer) depends on them; a missing Chart.js is one line.
CHARTJS ?= /usr/share/javascript/chart.js/chart.min.js
PAGE_FILES := $(wildcard loader/report/page/*)
PAGE_OBJS := $(foreach o,$(OBJ) $(ASAN_OBJ) $(FUZZ_OBJ),$(o)/loader/report/html.o)
$(PAGE_OBJS): $(PAGE_FILES) $(CHARTJS)
$(PAGE_OBJS): HOST_CPPFLAGS += -DHTML_PAGE_DIR='"$(abspath loader/report/page)"' \
	-DHTML_CHARTJS='"$(abspath $(CHARTJS))"'
$(CHARTJS): | deps
	@test -r $@ || { echo "make: error: $@ missing: Chart.js, for report.html" \
		"(scripts/deps.sh installs libjs-chart.js)" >&2; exit 1; }

# The browser test's driver (tests/browser/, tests/cli/report_page.sh):
# playwright-core from npm at the version package-lock.json pins, driving
# Debian's chromium (scripts/deps.sh --test); no browser is downloaded.
# Fetched once: make test runs offline after it.
BROWSER_DIR := $(BUILD)/browser
$(BROWSER_DIR)/ready: tests/browser/package.json tests/browser/package-lock.json | test-deps
	@mkdir -p $(@D) && cp $^ $(@D)/
	@cd $(@D) && npm ci --no-audit --no-fund --prefer-offline --loglevel=error >npm.log 2>&1 || \
		{ cat npm.log; echo "make: error: npm could not install playwright-core (above)" >&2; exit 1; }
	@touch $@

test-deps:
	@scripts/deps.sh --test

# make ablation: the loader with the models of one experiment besides the
# registry's (IDLESCOPE_ABLATION in loader/models/registry.h: the ablation
# of 6.12's teo on 300 us timers, docs/kernels.md), to run `idlescope
# report` on record files with them; `make run` and every report keep the
# registry's models only.
ABLATION_OBJ := $(BUILD)/obj-ablation
ABLATION_LOADER := $(BUILD)/ablation/idlescope

$(ABLATION_OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DIDLESCOPE_ABLATION $(DEPFLAGS) $(HOST_CPPFLAGS) -c $< -o $@

$(patsubst %.c,$(ABLATION_OBJ)/%.o,$(LOADER_SKEL_SRCS)): | $(BUILD)/idlescope.skel.h

$(ABLATION_LOADER): $(patsubst %.c,$(ABLATION_OBJ)/%.o,$(LOADER_SRCS)) $(LIB_ARCHIVE)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static $^ $(LOADER_LIBS) -o $@

# Its page is the plain loader's (above).
$(ABLATION_OBJ)/loader/report/html.o: $(PAGE_FILES) $(CHARTJS)
$(ABLATION_OBJ)/loader/report/html.o: HOST_CPPFLAGS += -DHTML_PAGE_DIR='"$(abspath loader/report/page)"' \
	-DHTML_CHARTJS='"$(abspath $(CHARTJS))"'

ablation: $(ABLATION_LOADER)

$(INITRAMFS): vm/init vm/mkinitramfs.sh vm/guest/suite.sh workloads/suite.txt $(LOADER) $(MODULE) \
		$(ATTACHCYCLES) $(GUEST_SUITE_FILES) \
		$(WORKLOAD_BINS) tests/lib.sh $(GUEST_TESTS)
	vm/mkinitramfs.sh $@ $(LOADER):/usr/bin/idlescope \
		$(ATTACHCYCLES):/usr/bin/attachcycles \
		vm/guest/suite.sh:/usr/share/idlescope/suite.sh \
		$(foreach f,$(GUEST_SUITE_FILES),$(f):/usr/share/idlescope/$(f:vm/guest/%=%)) \
		workloads/suite.txt:/usr/share/idlescope/suite.txt \
		$(foreach w,$(WORKLOAD_BINS),$(w):/usr/bin/$(notdir $(w))) \
		$(MODULE):/lib/modules/idlescope_states.ko \
		tests/lib.sh:/usr/share/idlescope/lib.sh \
		$(BUILD)/idlescope.bpf.o:/usr/share/idlescope/idlescope.bpf.o \
		$(foreach s,$(GUEST_TESTS),$(s):/usr/share/idlescope/tests/$(notdir $(s)))

initramfs: $(INITRAMFS)

# Debian's programs (workloads/programs.txt) with their libraries, as a
# second cpio archive the kernel unpacks over the first: 116 MiB in the
# guest's memory and about 30 s more of boot, so only the boots that run
# them (make run with a workload of the real suite, make test) take the
# image with them.
PROGRAMS_CPIO := $(BUILD)/programs/programs.cpio.gz
PROGRAMS_INITRAMFS := $(BUILD)/initramfs-programs.cpio.gz

$(PROGRAMS_CPIO): workloads/programs.txt vm/programs.sh | deps
	vm/programs.sh -l workloads/programs.txt -o $(BUILD)/programs

$(PROGRAMS_INITRAMFS): $(INITRAMFS) $(PROGRAMS_CPIO)
	cat $^ >$@.tmp && mv $@.tmp $@

programs: $(PROGRAMS_INITRAMFS)

# A boot kernel other than the reference (BOOT, above) boots our images
# with its own module and config over them, in a third archive.
$(BUILD)/overlay-%.cpio.gz: $(BUILD)/idlescope_states-%/idlescope_states.ko vm/mkinitramfs.sh
	KDIR=$(BUILD)/linux-$* vm/mkinitramfs.sh $@ $<:/lib/modules/idlescope_states.ko

$(BUILD)/initramfs-%.cpio.gz: $(INITRAMFS) $(BUILD)/overlay-%.cpio.gz
	cat $^ >$@.tmp && mv $@.tmp $@

$(BUILD)/initramfs-%-programs.cpio.gz: $(PROGRAMS_INITRAMFS) $(BUILD)/overlay-%.cpio.gz
	cat $^ >$@.tmp && mv $@.tmp $@

# make run: seconds per workload and the governors/workloads to measure.
# The governors are bpf/idlescope.h's IDLESCOPE_CPUIDLE_GOVERNORS(X) lines
# `X(ID, name, select)`; the workloads are the names of workloads/suite.txt,
# which vm/guest/suite.sh runs: those of the suite SUITE (default,
# synthetic, real, linux-pm or all), or WORKLOAD_SET.  4 guest seconds a
# workload keeps the default make run within 15 minutes on two cores; the
# intervals over boots are barely wider than at 5 (docs/clock.md).
SECONDS_PER_WORKLOAD ?= 4
# on: a background population of timers (workloads/bgtimers.c) on every
# CPU while the suite runs, so the next timer is always within seconds, as
# on a desktop of 2010 (docs/devices.md has its effect on the seed table).
BGTIMERS ?= on
# off: the synthetic idle states leave their exit free (exit_delay=0);
# spread: they spend a share of it drawn from a spread shape (exit_spread=1,
# the declared latency its worst case: make bench's sensitivity runs).
EXIT_COST ?= on
# Every boot job's (scripts/boot-job.sh).
export BGTIMERS EXIT_COST
ifneq ($(filter-out on off,$(BGTIMERS))$(words $(BGTIMERS)),1)
$(error BGTIMERS must be on or off, not '$(BGTIMERS)')
endif
ifneq ($(filter-out on off spread,$(EXIT_COST))$(words $(EXIT_COST)),1)
$(error EXIT_COST must be on, off or spread, not '$(EXIT_COST)')
endif
KNOWN_GOVERNORS := $(filter-out none,$(shell sed -n \
	's/^[[:space:]]*X.[A-Z0-9_]*,[[:space:]]*\([a-z0-9_]*\),.*/\1/p' bpf/idlescope.h))
# The governors a series kernel/patches/VERSION adds: the names its patches
# register (the `.name = "..."` lines they add).  A kernel not built from
# that series lacks them (menu615 and teo70 on 6.1, every series' on
# Debian's images and KERNEL_SRC trees): make run leaves them out there.
series_governors = $(shell sed -n \
	's/^+[[:space:]]*\.name[[:space:]]*=[[:space:]]*"\([a-z0-9_]*\)".*/\1/p' /dev/null \
	$(addprefix kernel/patches/$(1)/,$(filter %.patch,$(shell cat kernel/patches/$(1)/series 2>/dev/null))))
SERIES_GOVERNORS := $(sort $(foreach v,$(KERNEL_SERIES),$(call series_governors,$(v))))
THIS_SERIES := $(if $(KERNEL_SRC)$(DEBIAN_DIR),,$(KERNEL))
ABSENT_GOVERNORS := $(filter-out $(if $(THIS_SERIES),$(call series_governors,$(THIS_SERIES))),\
	$(SERIES_GOVERNORS))
SUITE_FILE := workloads/suite.txt
SUITE ?= default
# Governors no default run measures: menu2010mf2 is menu2010rpd with one
# constant changed, there to test the A/B verdict (docs/ab.md, "End to
# end"); GOVERNORS= or make ab names it.
CHECK_GOVERNORS := menu2010mf2
GOVERNORS ?= $(filter-out $(ABSENT_GOVERNORS) $(CHECK_GOVERNORS),$(KNOWN_GOVERNORS))
RUN_GOVERNORS := $(filter-out $(ABSENT_GOVERNORS),$(GOVERNORS))
WORKLOAD_SET ?= $(shell sh vm/guest/suite.sh --names $(SUITE_FILE) $(SUITE) 2>/dev/null)
# The workloads of the real suite run Debian's programs.
REAL_WORKLOADS := $(shell sh vm/guest/suite.sh --names $(SUITE_FILE) real 2>/dev/null)
RUN_PROGRAMS := $(filter $(REAL_WORKLOADS),$(WORKLOAD_SET))
ifneq ($(BOOT),)
RUN_INITRAMFS := $(BUILD)/initramfs-$(BOOT)$(if $(RUN_PROGRAMS),-programs).cpio.gz
else
RUN_INITRAMFS := $(if $(RUN_PROGRAMS),$(PROGRAMS_INITRAMFS),$(INITRAMFS))
endif
RUN_DIR := out/$(shell date -u +%Y%m%dT%H%M%SZ)
# The disk of make test's guest (tests/vm/suite.sh): contents do not
# matter, only that reads block.  make run's boots make their own.
DISK := $(BUILD)/disk.img
$(DISK):
	truncate -s 64M $@
# irqtrain's interrupts: a byte every IRQTRAIN_PERIOD_US from the host's
# irqfeed to the guest's second serial port (/dev/ttyS1), one feeder and
# one iowait disk per boot (scripts/boot-job.sh).
IRQTRAIN_PERIOD_US ?= 1000
export IRQTRAIN_PERIOD_US
# The boots: REPEATS seeds x sets of GOVERNORS, one boot per job, JOBS
# QEMUs side by side (scripts/run-boots.sh); SSHLOGINFILE spreads them over
# machines.
# Each headline interval is over the REPEATS boots of its cell
# (docs/report-schema.md); 4 is chosen from the measured boot-to-boot
# spread (bench/README.md).
REPEATS ?= 4
# The boots' seeds: SEED, SEED + 1, ..., one per repeat.  A fresh base
# each run, so two runs are independent draws (and their agreement says
# something); SEED=N repeats a run's seeds (not its host-timed events:
# docs/ab.md), KERNELS= runs every kernel on
# the same seeds (compare pairs them).
ifeq ($(origin SEED),undefined)
SEED := $(shell od -An -N4 -tu4 /dev/urandom | awk '{ print $$1 % 1000000 }')
endif
ifneq ($(shell echo '$(SEED)' | grep -Ex '[0-9]{1,9}'),$(SEED))
$(error SEED must be a number of at most 9 digits, not '$(SEED)')
endif
export FIRST_SEED := $(SEED)
JOBS ?= $(shell nproc)
SSHLOGINFILE ?=
# GOVERNORS_PER_BOOT=N: N governors one after the other in each boot
# (empty: all of them, one boot per seed).
GOVERNORS_PER_BOOT ?=
export SSHLOGINFILE GOVERNORS_PER_BOOT
# PRECISION=PP: more rounds of REPEATS boots for the workloads whose
# headline half-widths are above PP points, up to MAX_BOOTS boots per cell
# (scripts/run-until.sh), which says where that cap was hit.
PRECISION ?=
MAX_BOOTS ?= 16
RUN_BOOTS = $(if $(PRECISION),scripts/run-until.sh,scripts/run-boots.sh) $(RUN_DIR) $(REPEATS) \
	$(JOBS) $(SECONDS_PER_WORKLOAD) '$(RUN_GOVERNORS)' '$(WORKLOAD_SET)' \
	$(if $(PRECISION),$(PRECISION) $(MAX_BOOTS))

# Names are checked before anything is built or booted: one line, then stop.
ifneq ($(filter run,$(MAKECMDGOALS)),)
SUITE_NAMES_ERROR := $(shell sh vm/guest/suite.sh --names $(SUITE_FILE) $(SUITE) 2>&1 >/dev/null)
SUITE_NAMES_ERROR := $(or $(SUITE_NAMES_ERROR),$(shell sh vm/guest/suite.sh --check $(SUITE_FILE) \
	'$(KNOWN_GOVERNORS)' '$(GOVERNORS)' '$(WORKLOAD_SET)' 2>&1))
$(if $(SUITE_NAMES_ERROR),$(error $(SUITE_NAMES_ERROR)))
ifeq ($(KERNELS),)
ifneq ($(filter-out $(RUN_GOVERNORS),$(GOVERNORS)),)
$(info run: kernel $(or $(KERNEL_SRC),$(KERNEL)) has no $(filter-out $(RUN_GOVERNORS),$(GOVERNORS)): \
	left out (only kernels of the series that adds a governor have it))
endif
$(if $(RUN_GOVERNORS),,$(error GOVERNORS='$(GOVERNORS)': none of them is in kernel \
	$(or $(KERNEL_SRC),$(KERNEL))))
endif
endif

# KERNELS="6.1 6.12": make run on each kernel (KERNEL= values), the same
# seeds, governors and workloads, into RUN_DIR/<kernel>/ with a report
# each; then every other kernel beside the first (scripts/run-kernels.sh:
# idlescope compare --across kernel).  One report never pools two kernels.
KERNELS ?=
ifneq ($(KERNELS),)
ifneq ($(KERNEL_SRC),)
$(error KERNELS= and KERNEL_SRC= do not go together: KERNEL_SRC is one tree)
endif
$(foreach k,$(KERNELS),$(if $(filter $(KERNEL_SERIES) debian debian-6.1 debian-6.12,$(k)),,\
	$(error KERNELS: '$(k)' is not one of $(KERNEL_SERIES) debian debian-6.1 debian-6.12)))
ifneq ($(words $(KERNELS)),$(words $(sort $(KERNELS))))
$(error KERNELS='$(KERNELS)' names a kernel twice)
endif

run: $(LOADER)
	@mkdir -p $(RUN_DIR) $(if $(filter out/%,$(RUN_DIR)),&& ln -sfn $(notdir $(RUN_DIR)) out/latest)
	@rc=0; for k in $(KERNELS); do \
		echo "run: kernel $$k"; \
		$(MAKE) --no-print-directory run KERNEL=$$k KERNELS= RUN_DIR=$(RUN_DIR)/$$k \
			RUN_LATEST= SEED=$(SEED) || rc=1; \
	done; \
	scripts/run-kernels.sh $(LOADER) $(RUN_DIR) $(KERNELS) && exit $$rc
else
# The run directory out/latest points to (not a kernel's part of KERNELS=).
RUN_LATEST ?= $(filter out/%,$(RUN_DIR))

run: $(RUN_INITRAMFS) $(IRQFEED)
	@$(if $(DEBIAN_DIR),kernel/debian.sh --series $(DEBIAN_SERIES) $(RUN_INITRAMFS))
	@mkdir -p $(RUN_DIR) $(if $(RUN_LATEST),&& ln -sfn $(notdir $(RUN_DIR)) out/latest)
	@echo "run: seeds $(SEED) to $$(($(SEED) + $(REPEATS) - 1)) (SEED=$(SEED) runs them again)" | \
		tee $(RUN_DIR)/seed.txt
	@start=$$(date +%s); \
	$(RUN_BOOTS) $(RUN_VM); rc=$$?; \
	echo "run: $$(wc -l <$(RUN_DIR)/jobs.txt) boots in $$(($$(date +%s) - start)) s" \
		"($(JOBS) at a time)" | tee $(RUN_DIR)/wall.txt; \
	scripts/run-summary.sh $(LOADER) $(RUN_DIR) && exit $$rc
endif

# make ab A=[KERNEL:]GOVERNOR B=[KERNEL:]GOVERNOR: A against B on the same
# AB_SEEDS seeds, paired (by boot on one kernel, by seed across two), the
# verdict last (scripts/ab.sh, docs/ab.md); FAIL_ABOVE=PP gates it (exit
# 1).  Every make run knob (SEED, WORKLOAD_SET, SUITE, SECONDS_PER_WORKLOAD,
# JOBS) goes to its boots.
AB_SEEDS ?= 10
FAIL_ABOVE ?=
# Where the boots and the verdict go; AB_DIR= elsewhere (out/latest is
# only moved for a directory under out/).  Expanded once: the time is one.
ifndef AB_DIR
AB_DIR := out/ab-$(shell date -u +%Y%m%dT%H%M%SZ)
endif
ab: $(LOADER)
	@mkdir -p $(AB_DIR) $(if $(filter out/%,$(AB_DIR)),&& ln -sfn $(notdir $(AB_DIR)) out/latest)
	@scripts/ab.sh $(MAKE) $(AB_DIR) $(KERNEL) '$(A)' '$(B)' '$(FAIL_ABOVE)' \
		REPEATS=$(AB_SEEDS) SEED=$(SEED)

test: $(INITRAMFS) $(PROGRAMS_INITRAMFS) $(if $(BOOT),$(BUILD)/initramfs-$(BOOT)-programs.cpio.gz) \
		$(DISK) $(HOST_TESTS) $(BUILD)/genrec $(BROWSER_DIR)/ready
	@$(if $(BOOT),TEST_KERNEL=$(BOOT)) tests/run.sh

# The suites that build or boot a kernel of their own (tests/kernels/): our
# 6.12 build, a stand-in for a developer's tree.  Not part of `make test`.
test-kernels: $(INITRAMFS) $(HOST_TESTS)
	@tests/run.sh tests/kernels/*.sh

# make bench: one boot of the bench image (the image with Debian's programs,
# for the observer effect's cyclictest, plus the bench tools, as another
# cpio archive the kernel unpacks over the others, so the loader and
# workloads measured are exactly those `make run` uses).
PROGSTATS := $(BUILD)/progstats
GENREC := $(BUILD)/genrec
BENCH_INITRAMFS := $(BUILD)/bench-initramfs.cpio.gz

$(PROGSTATS): $(OBJ)/bench/progstats.o $(OBJ)/loader/live/insnrate.o $(LIB_ARCHIVE)
	$(CC) $(CFLAGS) -static $^ -lbpf -lelf -lz -o $@

$(GENREC): $(OBJ)/bench/genrec.o $(LOADER_CORE) $(LIB_ARCHIVE)
	$(CC) $(CFLAGS) $^ -lm -o $@

$(BENCH_INITRAMFS): $(PROGRAMS_INITRAMFS) $(PROGSTATS) bench/guest.sh bench/observer.sh \
		vm/mkinitramfs.sh
	vm/mkinitramfs.sh $@.tools $(PROGSTATS):/usr/bin/progstats \
		bench/guest.sh:/usr/share/idlescope/bench.sh \
		bench/observer.sh:/usr/share/idlescope/bench-observer.sh
	cat $(PROGRAMS_INITRAMFS) $@.tools >$@
	@rm -f $@.tools

bench: $(BENCH_INITRAMFS) $(GENREC)
	@bench/run.sh

clean:
	rm -rf $(BUILD)

# Objects are kept (not deleted as intermediates); a failed recipe leaves
# no half-written target behind.
.SECONDARY:
.DELETE_ON_ERROR:

-include $(shell find $(OBJ) $(ASAN_OBJ) $(FUZZ_OBJ) $(ABLATION_OBJ) -name '*.d' 2>/dev/null) \
	$(wildcard $(BUILD)/*.d)
