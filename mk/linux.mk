# The matching kernel: Debian's linux-source-7.2 plus linux/series, built
# as the guest kernel and its debug and benchmark variants; the
# kernel-side test programs; the kernel's SFrame reader in user space.
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: GPL-2.0

LINUX_VERSION := $(shell sed -n 's/^linux-source-7.2=//p' $(LOCK))
LINUX_PRISTINE = $(or $(WITH_LINUX_SRC),$(ROOT)/usr/src/linux-source-7.2.tar.xz)
LINUX_WORK := $(call work_dir,linux,$(WITH_LINUX_SRC),$(LINUX_VERSION))
R_LINUX = /cache/$(notdir $(LINUX_WORK))
LINUX_SERIES_INPUTS = $(shell sed 's|^|linux/series/|' linux/series/series) \
  linux/series/cover-letter $(wildcard linux/series/*/*) \
  $(wildcard results/bench.txt results/bench-kernel.txt) \
  $(shell sed 's|^|linux/|' linux/series/*/files 2>/dev/null)
R_KERNEL = $(R_LINUX)/build/arch/x86/boot/bzImage
# The debug variant (KASAN, lockdep, kmemleak) for the robustness tests.
R_KERNEL_DEBUG = $(R_LINUX)/build-debug/arch/x86/boot/bzImage
# The benchmark variant (the function profiler) for make bench.
R_KERNEL_BENCH = $(R_LINUX)/build-bench/arch/x86/boot/bzImage
# The same kernel without the series: the pristine tree (a worktree of
# the series' repository at its branch 'pristine') with the benchmark
# variant's fragments, every symbol the series adds left out; make
# bench's kernel rows set it against kernel-bench.
R_KERNEL_BASE = $(R_LINUX)/build-base/arch/x86/boot/bzImage

.PHONY: linux-series kernel kernel-debug kernel-bench kernel-base kernel-tests kselftest \
  reader-inputs

linux-series: $(LINUX_WORK)/.series
ifeq ($(wildcard $(PATCHSET)/linux/0000-cover-letter.patch),)
.PHONY: $(LINUX_WORK)/.series
endif
$(LINUX_WORK)/.series: $(ROOT)/.ok $(LINUX_SERIES_INPUTS) scripts/series-tree
	@$(call build,linux-series,scripts/series-tree linux $(TOP)/linux \
	  linux/series $(LINUX_PRISTINE) $(LINUX_WORK) $(PATCHSET)/linux)
	@touch $@

kernel: $(LINUX_WORK)/.series
	@$(call build,kernel,$(IN_ROOT) /project/scripts/build-linux \
	  $(R_LINUX)/src $(R_LINUX)/build /project/linux/config/guest.config)

kernel-debug: $(LINUX_WORK)/.series
	@$(call build,kernel-debug,$(IN_ROOT) /project/scripts/build-linux \
	  $(R_LINUX)/src $(R_LINUX)/build-debug /project/linux/config/guest.config \
	  /project/linux/config/debug.config)

kernel-bench: $(LINUX_WORK)/.series
	@$(call build,kernel-bench,$(IN_ROOT) /project/scripts/build-linux \
	  $(R_LINUX)/src $(R_LINUX)/build-bench /project/linux/config/guest.config \
	  /project/linux/config/bench.config)

kernel-base: $(LINUX_WORK)/.series
	[ -d $(LINUX_WORK)/base-src ] || git -C $(LINUX_WORK)/src worktree add \
	  -q --detach $(LINUX_WORK)/base-src pristine
	@$(call build,kernel-base,$(IN_ROOT) /project/scripts/build-linux \
	  --known-only $(R_LINUX)/base-src $(R_LINUX)/build-base \
	  /project/linux/config/guest.config /project/linux/config/bench.config)

# The kernel-side test programs (tests/kernel), one set linked to run
# on the patched glibc's ld.so and libc.
kernel-tests: $(BINUTILS_V2)/.ok glibc
	@$(call build,kernel-tests,$(IN_ROOT) /project/tests/kernel/build \
	  $(R_LINUX)/tests /cache/$(notdir $(BINUTILS_V2)) $(R_BUILD))

# The kernel series' selftest (tools/testing/selftests/sframe), built
# by kselftest's make in the kernel's build tree, into the kernel-side
# tests' directory; and the same program on the patched glibc.
kselftest: kernel glibc
	@$(call build,kselftest,$(IN_ROOT) /project/tests/kernel/build-kselftest \
	  $(R_LINUX)/src $(R_LINUX)/build $(R_LINUX)/tests/kselftest $(R_BUILD))

# The kernel's SFrame reader in user space (tests/sframe-reader): checked
# against readelf on these objects (and the root's) and fuzzed,
# READER_SECS in `make check' (the arm64 objects in check-arm64),
# FUZZ_SECS (default an hour) with `make fuzz'.
READER_SECS = 40
READER_OBJECTS = $(R_BUILD)/libc.so.6 $(R_BUILD)/elf/ld.so \
  $(R_LINUX)/tests/libsframe-test.so $(R_LINUX)/tests/libsframe-test-v2.so
reader-inputs: $(LINUX_WORK)/.series kernel-tests

FUZZ_SECS = 3600
.PHONY: fuzz
fuzz: reader-inputs reader-inputs-arm64
	rm -f $(BUILD)/fuzz-counts
	$(IN_ROOT) /project/tests/sframe-reader/check $(R_LINUX)/reader \
	  $(R_LINUX)/src $(FUZZ_SECS) $(R_BUILD)/fuzz-counts $(READER_OBJECTS) \
	  $(READER_OBJECTS_ARM64)
