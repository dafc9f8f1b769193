# arm64, emulated: the same kernel cross-built, glibc cross-built with
# Debian's aarch64 compiler, and an arm64 user space for the guest
# (unpacked, never run on the host), keyed by its own lock.  Tier
# check-arm64: what the cross build must contain, the tst-sframe-*
# tests, the kernel-side tests and the end-to-end profiles in one boot
# of the arm64 guest (tests/arm64-batch), and the kernel's SFrame reader
# on the arm64 objects.
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: LGPL-2.1-or-later

ARM64_LOCK = $(TOP)/toolchain/arm64-root.lock
ROOT_ARM64 := $(CACHE)/root-arm64-$(call lock_key,$(ARM64_LOCK))
R_ROOT_ARM64 = /cache/$(notdir $(ROOT_ARM64))
R_KERNEL_ARM64 = $(R_LINUX)/build-arm64/arch/arm64/boot/Image
R_BUILD_ARM64 = $(R_WORK)/build-aarch64
READER_OBJECTS_ARM64 = $(R_BUILD_ARM64)/libc.so.6 $(R_BUILD_ARM64)/elf/ld.so \
  $(R_LINUX)/tests-arm64/libsframe-test.so \
  $(R_LINUX)/tests-arm64/libsframe-test-v2.so
READER_SECS_ARM64 = 20

.PHONY: arm64 root-arm64 kernel-arm64 glibc-arm64 kernel-tests-arm64 kselftest-arm64 \
  e2e-tests-arm64 reader-inputs-arm64 check-arm64

root-arm64: $(ROOT_ARM64)/.ok
$(ROOT_ARM64)/.ok: $(ARM64_LOCK)
	@$(call build,root-arm64,scripts/mkroot --foreign arm64 $(ARM64_LOCK) $(ROOT_ARM64))
	@touch $@

kernel-arm64: $(LINUX_WORK)/.series
	@$(call build,kernel-arm64,$(IN_ROOT) /project/scripts/build-linux \
	  --arch arm64 $(R_LINUX)/src $(R_LINUX)/build-arm64 \
	  /project/linux/config/guest.config /project/linux/config/arm64.config)

glibc-arm64: $(GLIBC_WORK)/.series
	@$(call build,glibc-arm64,$(GLIBC_SRC_LOCK) $(IN_ROOT) /project/scripts/build-glibc \
	  --arch arm64 $(R_WORK)/src $(R_BUILD_ARM64))

kernel-tests-arm64: $(BINUTILS_V2)/.ok glibc-arm64
	@$(call build,kernel-tests-arm64,$(IN_ROOT) /project/tests/kernel/build \
	  --arch arm64 $(R_LINUX)/tests-arm64 /cache/$(notdir $(BINUTILS_V2)) \
	  $(R_BUILD_ARM64))

kselftest-arm64: kernel-arm64 glibc-arm64
	@$(call build,kselftest-arm64,$(IN_ROOT) /project/tests/kernel/build-kselftest \
	  --arch arm64 $(R_LINUX)/src $(R_LINUX)/build-arm64 \
	  $(R_LINUX)/tests-arm64/kselftest $(R_BUILD_ARM64))

e2e-tests-arm64: glibc-arm64
	@$(call build,e2e-tests-arm64,$(IN_ROOT) /project/tests/e2e/build \
	  --arch arm64 $(R_WORK)/e2e-arm64 $(R_BUILD_ARM64))

reader-inputs-arm64: $(LINUX_WORK)/.series kernel-tests-arm64

# Everything the arm64 tests need.
arm64: root-arm64 kernel-arm64 kernel-tests-arm64 kselftest-arm64 \
  e2e-tests-arm64 $(D3)/.ok perf-arm64

STAGES_check-arm64 := cross-aarch64 elf-arm64 kernel-side-arm64 e2e-arm64 \
  reader-arm64
check-arm64: arm64 reader-inputs-arm64
	@$(call tier-begin,check-arm64)
	-@$(call stage,cross-aarch64,$(IN_ROOT) /project/tests/cross-aarch64 \
	  $(R_BUILD_ARM64) @COUNTS@)
	-@echo "==> one arm64 guest for elf-arm64, kernel-side-arm64, e2e-arm64" \
	  "(console: $(GLIBC_WORK)/guest-arm64/console.log)"
	-@$(IN_ROOT) /project/tests/arm64-batch $(R_ROOT_ARM64) \
	  $(R_KERNEL_ARM64) $(R_WORK)/guest-arm64 $(R_CHECK) $(R_BUILD_ARM64) \
	  $(R_LINUX)/tests-arm64 $(R_WORK)/e2e-arm64 $(R_D3)
	-@$(call stage,reader-arm64,$(IN_ROOT) /project/tests/sframe-reader/check \
	  --given-only $(R_LINUX)/reader-arm64 $(R_LINUX)/src $(READER_SECS_ARM64) @COUNTS@ \
	  $(READER_OBJECTS_ARM64))
	@$(call tier-end,check-arm64)
