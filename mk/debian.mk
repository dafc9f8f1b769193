# The series as Debian builds glibc (scripts/distro-debian): glibc-source's
# packaging with the series as quilt patches, built by debian/rules with
# Debian's compiler and flags in a root of glibc's Build-Depends, keyed
# by its own lock.  Tier check-debian: that build's elf/ tests against
# Debian's own build without the series, and the end-to-end profiles on
# it; the release's layout kept, and the build with Debian's own libc6 in
# both pairings of ld.so and libc.so.6.
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: LGPL-2.1-or-later

DEBIAN_LOCK = $(TOP)/toolchain/debian-glibc.lock
ROOT_DEBIAN := $(CACHE)/root-debian-$(call lock_key,$(DEBIAN_LOCK))
DEBIAN_GLIBC := $(shell sed -n 's/^glibc-source=//p' $(DEBIAN_LOCK))
DEBIAN_WORK := $(CACHE)/debian-glibc-$(DEBIAN_GLIBC)
R_DEBIAN_WORK = /cache/$(notdir $(DEBIAN_WORK))
R_DEBIAN_BUILD = $(R_DEBIAN_WORK)/sframe/build-tree/amd64-libc
IN_DEBIAN_ROOT = scripts/in-root $(ROOT_DEBIAN) $(CACHE) $(TOP)

.PHONY: root-debian debian-orig distro-debian distro-debian-baseline \
  distro-debian-trixie e2e-tests-debian elf-tests-debian check-debian \
  layout-baseline

root-debian: $(ROOT_DEBIAN)/.ok
$(ROOT_DEBIAN)/.ok: $(DEBIAN_LOCK)
	@$(call build,root-debian,scripts/mkroot $(DEBIAN_LOCK) $(ROOT_DEBIAN))
	@touch $@

# Upstream's tree: Debian's stack taken off glibc-source's tarball
# (check-lint applies the mails to it).
debian-orig: $(ROOT_DEBIAN)/.ok
	@$(call build,debian-orig,$(IN_DEBIAN_ROOT) /project/scripts/distro-debian \
	  --orig /usr/src/glibc $(R_DEBIAN_WORK) sframe)

# The series on Debian's packaging (patchset/debian: the DEP-3 patches
# and the whole change to debian/), built as Debian builds libc6.
distro-debian: $(ROOT_DEBIAN)/.ok $(GLIBC_WORK)/.series
	@$(call build,distro-debian,$(IN_DEBIAN_ROOT) /project/scripts/distro-debian \
	  /usr/src/glibc $(R_DEBIAN_WORK) sframe /project/patchset/glibc \
	  /project/patchset/debian)

# Debian's build without the series, and its elf/ results as the
# baseline that check-debian reports the Debian build's against.
distro-debian-baseline: $(ROOT_DEBIAN)/.ok
	$(IN_DEBIAN_ROOT) /project/scripts/distro-debian /usr/src/glibc \
	  $(R_DEBIAN_WORK) stock
	$(IN_DEBIAN_ROOT) /project/tests/check-glibc --debian-baseline \
	  $(R_DEBIAN_WORK)/stock/build-tree/amd64-libc \
	  /project/tests/baseline/elf-debian.txt

# The layout of the release's own ld.so, which the series must keep
# (tests/layout): Debian's libc6 of the pinned version, read from its
# libc6-dbg in the root.
LAYOUT_BASELINE = /project/tests/baseline/layout-debian.txt
layout-baseline: $(ROOT_DEBIAN)/.ok
	$(IN_DEBIAN_ROOT) /project/tests/layout --record $(LAYOUT_BASELINE) installed

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
	@$(call build,e2e-tests-debian,$(IN_ROOT) /project/tests/e2e/build \
	  $(R_DEBIAN_WORK)/e2e $(R_DEBIAN_BUILD))

# Its elf/ tests, built and not run: make check builds them in the
# background, so that the stage elf-debian only runs them.
elf-tests-debian: distro-debian
	@$(call build,elf-tests-debian,$(IN_DEBIAN_ROOT) /project/tests/check-glibc \
	  --build-only $(R_DEBIAN_BUILD))

# The guest's stages come before elf-debian: in `make check' they run
# on one core while the background make builds the elf/ tests on the
# other, which the tier then waits for.
STAGES_check-debian := layout-debian release-pairs release-pairs-guest \
  e2e-debian elf-debian
check-debian: distro-debian e2e-tests-debian kernel $(D3)/.ok perf
	@$(call tier-begin,check-debian)
	-@$(call stage,layout-debian,$(IN_DEBIAN_ROOT) /project/tests/layout \
	  --counts @COUNTS@ $(LAYOUT_BASELINE) installed $(R_DEBIAN_BUILD)/elf/ld.so)
	-@$(call stage,release-pairs,$(IN_DEBIAN_ROOT) /project/tests/release-pairs \
	  $(R_DEBIAN_BUILD) $(R_DEBIAN_WORK)/pairs @COUNTS@)
	-@$(call stage,release-pairs-guest,$(IN_ROOT) /project/tests/release-pairs \
	  --guest $(R_KERNEL) $(R_DEBIAN_BUILD) $(R_DEBIAN_WORK)/pairs @COUNTS@)
	-@$(call stage,e2e-debian,$(IN_ROOT) /project/tests/e2e/check --base $(R_KERNEL) \
	  $(R_DEBIAN_WORK)/e2e $(R_DEBIAN_BUILD) $(R_D3) @COUNTS@)
	-@$(MAKE) --no-print-directory elf-tests-debian
	-@$(call stage,elf-debian,$(IN_DEBIAN_ROOT) /project/tests/check-glibc \
	  $(R_DEBIAN_BUILD) /project/tests/baseline/elf-debian.txt @COUNTS@)
	@$(call tier-end,check-debian)
