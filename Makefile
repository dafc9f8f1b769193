# glibc-sframe: the dynamic linker registers SFrame data with the kernel.
# See README.md.  The two commands: `make run' and `make check'.
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: LGPL-2.1-or-later

.DEFAULT_GOAL := all

# A fresh checkout is configured with the defaults; make then restarts.
config.mk:
	./configure

-include config.mk

ifneq ($(CACHE),)

TOP := $(CURDIR)
LOCK = $(TOP)/toolchain/packages.lock

# Cache keys: 12 hex digits of the SHA-256 of a lock file's pins (its
# lines without comments and blank lines), or of a path.
lock_key = $(shell sed -e 's/\#.*//' -e '/^[[:space:]]*$$/d' $(1) \
		   | sha256sum | cut -c1-12)
path_key = $(shell printf '%s' '$(1)' | sha256sum | cut -c1-12)
# The cache directory of a source tree: NAME, the --with-NAME-src given
# (if any), the Debian package version otherwise.
work_dir = $(CACHE)/$(1)-$(if $(2),dir-$(call path_key,$(2)),debian-$(3))

# The root is keyed by the pinned package list: edit it, get a new root.
ROOT = $(or $(WITH_ROOT),$(CACHE)/root-$(call lock_key,$(LOCK)))
GLIBC_VERSION := $(shell sed -n 's/^glibc-source=//p' $(LOCK))
PRISTINE = $(or $(WITH_GLIBC_SRC),$(ROOT)/usr/src/glibc/glibc-$(firstword \
	     $(subst -, ,$(GLIBC_VERSION))).tar.xz)
GLIBC_WORK := $(call work_dir,glibc,$(WITH_GLIBC_SRC),$(GLIBC_VERSION))
IN_ROOT = scripts/in-root $(ROOT) $(CACHE) $(TOP)
# Paths as seen inside the root.
R_WORK = /cache/$(notdir $(GLIBC_WORK))
BUILD = $(GLIBC_WORK)/build
R_BUILD = $(R_WORK)/build
PATCHSET = $(TOP)/patchset
SERIES_INPUTS = $(shell sed 's|^|series/|' series/series) \
  series/cover-letter $(wildcard series/*/*) $(shell cat series/*/files 2>/dev/null)

# The matching kernel: Debian's linux-source-7.2 plus linux/series.
LINUX_VERSION := $(shell sed -n 's/^linux-source-7.2=//p' $(LOCK))
LINUX_PRISTINE = $(or $(WITH_LINUX_SRC),$(ROOT)/usr/src/linux-source-7.2.tar.xz)
LINUX_WORK := $(call work_dir,linux,$(WITH_LINUX_SRC),$(LINUX_VERSION))
R_LINUX = /cache/$(notdir $(LINUX_WORK))
LINUX_SERIES_INPUTS = $(shell sed 's|^|linux/series/|' linux/series/series) \
  linux/series/cover-letter $(wildcard linux/series/*/*) \
  $(shell sed 's|^|linux/|' linux/series/*/files 2>/dev/null)
R_KERNEL = $(R_LINUX)/build/arch/x86/boot/bzImage
# binutils 2.44 (Debian trixie), the last to write SFrame v2, for one
# test library; keyed by its lock like the root.
V2_LOCK = $(TOP)/toolchain/binutils-v2.lock
BINUTILS_V2 := $(CACHE)/binutils-2.44-$(call lock_key,$(V2_LOCK))

# arm64: the same kernel cross-built, glibc cross-built with Debian's
# aarch64 compiler, and an arm64 user space for the guest (unpacked,
# never run on the host), keyed by its own lock.
ARM64_LOCK = $(TOP)/toolchain/arm64-root.lock
ROOT_ARM64 := $(CACHE)/root-arm64-$(call lock_key,$(ARM64_LOCK))
R_ROOT_ARM64 = /cache/$(notdir $(ROOT_ARM64))
R_KERNEL_ARM64 = $(R_LINUX)/build-arm64/arch/arm64/boot/Image
R_BUILD_ARM64 = $(R_WORK)/build-aarch64

# The end-to-end demo (tests/e2e), linked to run on the patched glibc.
E2E = $(GLIBC_WORK)/e2e
R_E2E = $(R_WORK)/e2e
# perf's flame graph page: d3-flame-graph from the npm registry, the
# version and template perf's flamegraph.py names.
D3_LOCK = $(TOP)/toolchain/d3-flame-graph.lock
D3 := $(CACHE)/d3-flame-graph-$(call lock_key,$(D3_LOCK))
R_D3 = /cache/$(notdir $(D3))

# Debian's own build of the series (scripts/distro-debian): glibc-source's
# packaging with the series as quilt patches, built by debian/rules with
# Debian's compiler and flags in a root of glibc's Build-Depends, keyed
# by its own lock.
DEBIAN_LOCK = $(TOP)/toolchain/debian-glibc.lock
ROOT_DEBIAN := $(CACHE)/root-debian-$(call lock_key,$(DEBIAN_LOCK))
DEBIAN_GLIBC := $(shell sed -n 's/^glibc-source=//p' $(DEBIAN_LOCK))
DEBIAN_WORK := $(CACHE)/debian-glibc-$(DEBIAN_GLIBC)
R_DEBIAN_WORK = /cache/$(notdir $(DEBIAN_WORK))
R_DEBIAN_BUILD = $(R_DEBIAN_WORK)/sframe/build-tree/amd64-libc
IN_DEBIAN_ROOT = scripts/in-root $(ROOT_DEBIAN) $(CACHE) $(TOP)

.PHONY: all root glibc patchset check run baseline stock bench fuzz lock clean kernel \
	root-debian distro-debian distro-debian-baseline distro-debian-trixie \
	e2e-tests-debian \
	kernel-debug kernel-bench kernel-tests e2e-tests arm64 root-arm64 glibc-arm64 \
	kernel-arm64 kernel-tests-arm64 e2e-tests-arm64

all: glibc kernel

root: $(ROOT)/.ok
$(ROOT)/.ok: $(LOCK)
	scripts/mkroot $(LOCK) $(ROOT)
	touch $@

# The series, checked with git am on the pristine tree, and the build
# tree moved to it.
patchset: $(GLIBC_WORK)/.series $(LINUX_WORK)/.series
$(GLIBC_WORK)/.series: $(ROOT)/.ok series/series $(SERIES_INPUTS) scripts/series-tree
	scripts/series-tree glibc $(TOP) series $(PRISTINE) $(GLIBC_WORK) \
	  $(PATCHSET)/glibc
	touch $@


$(LINUX_WORK)/.series: $(ROOT)/.ok $(LINUX_SERIES_INPUTS) scripts/series-tree
	scripts/series-tree linux $(TOP)/linux linux/series $(LINUX_PRISTINE) \
	  $(LINUX_WORK) $(PATCHSET)/linux
	touch $@

kernel: $(LINUX_WORK)/.series
	$(IN_ROOT) /project/scripts/build-linux $(R_LINUX)/src $(R_LINUX)/build \
	  /project/linux/config/guest.config

# The debug variant (KASAN, lockdep, kmemleak) for the robustness tests.
R_KERNEL_DEBUG = $(R_LINUX)/build-debug/arch/x86/boot/bzImage
kernel-debug: $(LINUX_WORK)/.series
	$(IN_ROOT) /project/scripts/build-linux $(R_LINUX)/src \
	  $(R_LINUX)/build-debug /project/linux/config/guest.config \
	  /project/linux/config/debug.config

# The benchmark variant (the function profiler) for make bench.
R_KERNEL_BENCH = $(R_LINUX)/build-bench/arch/x86/boot/bzImage
kernel-bench: $(LINUX_WORK)/.series
	$(IN_ROOT) /project/scripts/build-linux $(R_LINUX)/src \
	  $(R_LINUX)/build-bench /project/linux/config/guest.config \
	  /project/linux/config/bench.config

root-arm64: $(ROOT_ARM64)/.ok
$(ROOT_ARM64)/.ok: $(ARM64_LOCK)
	scripts/mkroot --foreign arm64 $(ARM64_LOCK) $(ROOT_ARM64)
	touch $@

kernel-arm64: $(LINUX_WORK)/.series
	$(IN_ROOT) /project/scripts/build-linux --arch arm64 $(R_LINUX)/src \
	  $(R_LINUX)/build-arm64 /project/linux/config/guest.config \
	  /project/linux/config/arm64.config

glibc-arm64: $(GLIBC_WORK)/.series
	$(IN_ROOT) /project/scripts/build-glibc --arch arm64 $(R_WORK)/src \
	  $(R_BUILD_ARM64)

kernel-tests-arm64: $(BINUTILS_V2)/.ok glibc-arm64
	$(IN_ROOT) /project/tests/kernel/build --arch arm64 \
	  $(R_LINUX)/tests-arm64 /cache/$(notdir $(BINUTILS_V2)) $(R_BUILD_ARM64)

e2e-tests-arm64: glibc-arm64
	$(IN_ROOT) /project/tests/e2e/build --arch arm64 $(R_WORK)/e2e-arm64 \
	  $(R_BUILD_ARM64)

# Everything the arm64 tests need.
arm64: root-arm64 kernel-arm64 kernel-tests-arm64 e2e-tests-arm64

$(BINUTILS_V2)/.ok: $(V2_LOCK)
	scripts/fetch-pool $(V2_LOCK) $(BINUTILS_V2)
	touch $@

# The kernel-side test programs (tests/kernel), one set linked to run
# on the patched glibc's ld.so and libc.
kernel-tests: $(BINUTILS_V2)/.ok glibc
	$(IN_ROOT) /project/tests/kernel/build $(R_LINUX)/tests \
	  /cache/$(notdir $(BINUTILS_V2)) $(R_BUILD)

e2e-tests: glibc
	$(IN_ROOT) /project/tests/e2e/build $(R_E2E) $(R_BUILD)

$(D3)/.ok: $(D3_LOCK) scripts/fetch-npm
	scripts/fetch-npm $(D3_LOCK) $(D3)
	touch $@

glibc: $(GLIBC_WORK)/.series
	$(IN_ROOT) /project/scripts/build-glibc $(R_WORK)/src $(R_BUILD)

root-debian: $(ROOT_DEBIAN)/.ok
$(ROOT_DEBIAN)/.ok: $(DEBIAN_LOCK)
	scripts/mkroot $(DEBIAN_LOCK) $(ROOT_DEBIAN)
	touch $@

# The series on Debian's packaging (patchset/debian: the DEP-3 patches
# and the whole change to debian/), built as Debian builds libc6.
distro-debian: $(ROOT_DEBIAN)/.ok $(GLIBC_WORK)/.series
	$(IN_DEBIAN_ROOT) /project/scripts/distro-debian /usr/src/glibc \
	  $(R_DEBIAN_WORK) sframe /project/patchset/glibc /project/patchset/debian

# Debian's build without the series, and its elf/ results as the
# baseline that `make check' reports the Debian build's against.
distro-debian-baseline: $(ROOT_DEBIAN)/.ok
	$(IN_DEBIAN_ROOT) /project/scripts/distro-debian /usr/src/glibc \
	  $(R_DEBIAN_WORK) stock
	$(IN_DEBIAN_ROOT) /project/tests/check-glibc --debian-baseline \
	  $(R_DEBIAN_WORK)/stock/build-tree/amd64-libc \
	  /project/tests/baseline/elf-debian.txt

# The second pin: does the series backport to Debian trixie's glibc 2.41
# and its packaging?  Only the source package is made (the stack applied
# with quilt); a hunk that does not apply is reported.
TRIXIE_LOCK = $(TOP)/toolchain/trixie-glibc.lock
TRIXIE_SRC := $(CACHE)/glibc-source-trixie-$(call lock_key,$(TRIXIE_LOCK))
TRIXIE_GLIBC := $(shell sed -n 's|^pool/.*/glibc-source_\([^_]*\)_.*|\1|p' $(TRIXIE_LOCK))
$(TRIXIE_SRC)/.ok: $(TRIXIE_LOCK)
	scripts/fetch-pool $(TRIXIE_LOCK) $(TRIXIE_SRC)
	touch $@
distro-debian-trixie: $(ROOT_DEBIAN)/.ok $(TRIXIE_SRC)/.ok $(GLIBC_WORK)/.series
	$(IN_DEBIAN_ROOT) /project/scripts/distro-debian --no-build \
	  /cache/$(notdir $(TRIXIE_SRC))/usr/src/glibc \
	  /cache/debian-glibc-$(TRIXIE_GLIBC) sframe /project/patchset/glibc \
	  /project/patchset/debian-trixie

# The end-to-end demo on Debian's build.
e2e-tests-debian: distro-debian
	$(IN_ROOT) /project/tests/e2e/build $(R_DEBIAN_WORK)/e2e $(R_DEBIAN_BUILD)

# The mutants first: they leave the restored sources to be rebuilt by
# the elf/ check.  tests/summary prints the closing count.
check: glibc kernel kernel-debug kernel-tests e2e-tests $(D3)/.ok arm64 \
  distro-debian e2e-tests-debian
	rm -f $(BUILD)/counts
	-$(IN_ROOT) /project/tests/patchset-lint $(R_WORK)/src /project/patchset/glibc \
	  $(R_DEBIAN_WORK)/orig \
	  /cache/$(notdir $(ROOT_DEBIAN))/usr/src/glibc/debian/patches/git-updates.diff \
	  $(R_BUILD)/counts
	-$(IN_ROOT) /project/tests/mutants $(R_WORK)/src $(R_BUILD) \
	  /project/tests/mutants.txt $(R_BUILD)/counts
	-$(IN_ROOT) /project/tests/check-glibc $(R_BUILD) \
	  /project/tests/baseline/elf-stock.txt $(R_BUILD)/counts
	-$(IN_ROOT) /project/tests/check-glibc --guest $(R_KERNEL) \
	  $(R_WORK)/guest $(R_BUILD) /project/tests/baseline/elf-stock.txt \
	  $(R_BUILD)/counts
	-$(IN_ROOT) /project/tests/cross-aarch64 $(R_BUILD_ARM64) \
	  $(R_BUILD)/counts
	-$(IN_ROOT) /project/tests/kernel/checkpatch $(R_LINUX)/src \
	  /project/patchset/linux $(R_BUILD)/counts
	-$(IN_ROOT) /project/tests/kernel/check $(R_KERNEL) $(R_LINUX)/tests \
	  $(R_BUILD)/counts
	-$(IN_ROOT) /project/tests/sframe-reader/check $(R_LINUX)/reader \
	  $(R_LINUX)/src 60 $(R_BUILD)/counts $(READER_OBJECTS)
	-$(IN_ROOT) /project/tests/kernel/hostile $(R_KERNEL_DEBUG) \
	  $(R_LINUX)/tests 60 20 4 $(R_BUILD)/counts
	-$(IN_ROOT) /project/tests/e2e/check $(R_KERNEL) $(R_E2E) $(R_BUILD) \
	  $(R_D3) $(R_BUILD)/counts
	-$(IN_DEBIAN_ROOT) /project/tests/check-glibc $(R_DEBIAN_BUILD) \
	  /project/tests/baseline/elf-debian.txt $(R_BUILD)/counts
	-$(IN_ROOT) /project/tests/e2e/check $(R_KERNEL) $(R_DEBIAN_WORK)/e2e \
	  $(R_DEBIAN_BUILD) $(R_D3) $(R_BUILD)/counts
	-$(IN_ROOT) /project/tests/check-glibc --arm64 $(R_ROOT_ARM64) \
	  $(R_KERNEL_ARM64) $(R_WORK)/guest-arm64 $(R_BUILD_ARM64) \
	  /project/tests/baseline/elf-stock.txt $(R_BUILD)/counts
	-$(IN_ROOT) /project/tests/kernel/check --arm64 $(R_ROOT_ARM64) \
	  $(R_KERNEL_ARM64) $(R_LINUX)/tests-arm64 $(R_BUILD)/counts
	-$(IN_ROOT) /project/tests/e2e/check --arm64 $(R_ROOT_ARM64) \
	  $(R_KERNEL_ARM64) $(R_WORK)/e2e-arm64 $(R_BUILD_ARM64) $(R_D3) \
	  $(R_BUILD)/counts
	tests/summary $(BUILD)/counts

# The kernel's SFrame reader in user space (tests/sframe-reader): checked
# against readelf on these objects (and the root's) and fuzzed, 60 s in
# `make check', FUZZ_SECS (default an hour) with `make fuzz'.
READER_OBJECTS = $(R_BUILD)/libc.so.6 $(R_BUILD)/elf/ld.so \
  $(R_BUILD_ARM64)/libc.so.6 $(R_BUILD_ARM64)/elf/ld.so \
  $(R_LINUX)/tests/libsframe-test.so $(R_LINUX)/tests/libsframe-test-v2.so \
  $(R_LINUX)/tests-arm64/libsframe-test.so \
  $(R_LINUX)/tests-arm64/libsframe-test-v2.so
FUZZ_SECS = 3600
fuzz: $(LINUX_WORK)/.series kernel-tests kernel-tests-arm64
	rm -f $(BUILD)/fuzz-counts
	$(IN_ROOT) /project/tests/sframe-reader/check $(R_LINUX)/reader \
	  $(R_LINUX)/src $(FUZZ_SECS) $(R_BUILD)/fuzz-counts $(READER_OBJECTS)

# Stock glibc 2.43 from the same sources, built the same way.
stock: $(GLIBC_WORK)/.series
	[ -d $(GLIBC_WORK)/stock ] \
	  || git -C $(GLIBC_WORK)/src worktree add -q --detach ../stock pristine
	$(IN_ROOT) /project/scripts/build-glibc $(R_WORK)/stock $(R_WORK)/build-stock

# Its elf/ results, recorded as the baseline that `make check' reports
# regressions against.
baseline: stock
	$(IN_ROOT) /project/tests/check-glibc --baseline $(R_WORK)/build-stock /project/tests/baseline/elf-stock.txt

# What registration and SFrame unwinding cost, side by side with stock
# glibc, frame pointers and DWARF (bench/): callgrind on the host, wall
# times and profiles in the guest; the table, bench.csv and bench.svg in
# run/.
BENCH_SRC_LOCK = $(TOP)/toolchain/bench-src.lock
BENCH_SRC := $(CACHE)/bench-src-$(call lock_key,$(BENCH_SRC_LOCK))
$(BENCH_SRC)/.ok: $(BENCH_SRC_LOCK)
	scripts/fetch-pool $(BENCH_SRC_LOCK) $(BENCH_SRC)
	touch $@

bench: glibc stock kernel-bench $(BENCH_SRC)/.ok
	mkdir -p run
	$(IN_ROOT) /project/bench/build $(R_WORK)/bench \
	  /cache/$(notdir $(BENCH_SRC))
	$(IN_ROOT) /project/bench/host-run $(R_WORK)/bench $(R_BUILD) \
	  $(R_WORK)/build-stock
	$(IN_ROOT) /project/scripts/guest $(R_KERNEL_BENCH) $(R_WORK)/bench 3600 \
	  "$(R_WORK)/bench/guest-run $(R_WORK)/bench $(R_BUILD) $(R_WORK)/build-stock"
	$(IN_ROOT) sh -c '/project/bench/report $(R_WORK)/bench \
	  > $(R_WORK)/bench/bench.txt && gnuplot $(R_WORK)/bench/bench.gp'
	cp $(GLIBC_WORK)/bench/bench.txt $(GLIBC_WORK)/bench/bench.csv \
	  $(GLIBC_WORK)/bench/bench.svg run/
	@cat run/bench.txt
	@echo "make bench: run/bench.txt, run/bench.csv, run/bench.svg"

# The main job: profile the demo on the matching kernel with the
# patched glibc, registration on and off; the report and flame graphs
# land in run/.
run: glibc kernel e2e-tests $(D3)/.ok
	mkdir -p run
	$(IN_ROOT) /project/tests/e2e/check --run /project/run $(R_KERNEL) \
	  $(R_E2E) $(R_BUILD) $(R_D3) /dev/null
	@echo "make run: run/report.txt; flame graphs run/flamegraph-on.html" \
	  "(registration on) and run/flamegraph-off.html (off), open them in a" \
	  "browser; screenshot run/flamegraph-on.png"

# Pin today's sid versions of the packages named in toolchain/packages.lock
# and toolchain/arm64-root.lock.
lock: $(ROOT)/.ok
	scripts/relock $(LOCK) $(ROOT)
	scripts/relock --foreign arm64 $(ARM64_LOCK)

# The series' stamps go with the mails, so that the next build writes
# them again.
clean:
	rm -rf $(PATCHSET) config.mk $(GLIBC_WORK)/.series $(LINUX_WORK)/.series

endif
