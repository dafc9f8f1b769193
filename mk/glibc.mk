# glibc: the series applied (git am checked, the mails in patchset/),
# the tree built with --enable-sframe, stock glibc for the baseline;
# tier check-host: the mutants and glibc's elf/ tests on the host.
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: LGPL-2.1-or-later

GLIBC_VERSION := $(shell sed -n 's/^glibc-source=//p' $(LOCK))
PRISTINE = $(or $(WITH_GLIBC_SRC),$(ROOT)/usr/src/glibc/glibc-$(firstword \
	     $(subst -, ,$(GLIBC_VERSION))).tar.xz)
GLIBC_WORK := $(call work_dir,glibc,$(WITH_GLIBC_SRC),$(GLIBC_VERSION))
# Paths as seen inside the root.
R_WORK = /cache/$(notdir $(GLIBC_WORK))
BUILD = $(GLIBC_WORK)/build
R_BUILD = $(R_WORK)/build
PATCHSET = $(TOP)/patchset
SERIES_INPUTS = $(shell sed 's|^|series/|' series/series) \
  series/cover-letter series/figures results/bench.txt $(wildcard series/*/*) \
  $(shell cat series/*/files 2>/dev/null)

.PHONY: glibc glibc-series stock baseline check-host

# The series, checked with git am on the pristine tree, and the build
# tree moved to it.
glibc-series: $(GLIBC_WORK)/.series
# The stamp is in the cache, the mails in the checkout: a checkout
# without them (a fresh clone on a warm cache) writes them again.
ifeq ($(wildcard $(PATCHSET)/glibc/0000-cover-letter.patch),)
.PHONY: $(GLIBC_WORK)/.series
endif
$(GLIBC_WORK)/.series: $(ROOT)/.ok series/series $(SERIES_INPUTS) scripts/series-tree
	@$(call build,glibc-series,scripts/series-tree glibc $(TOP) series \
	  $(PRISTINE) $(GLIBC_WORK) $(PATCHSET)/glibc)
	@touch $@

glibc: $(GLIBC_WORK)/.series
	@$(call build,glibc,$(IN_ROOT) /project/scripts/build-glibc $(R_WORK)/src $(R_BUILD))

# Stock glibc 2.43 from the same sources, built the same way.
stock: $(GLIBC_WORK)/.series
	[ -d $(GLIBC_WORK)/stock ] \
	  || git -C $(GLIBC_WORK)/src worktree add -q --detach ../stock pristine
	@$(call build,glibc-stock,$(IN_ROOT) /project/scripts/build-glibc \
	  $(R_WORK)/stock $(R_WORK)/build-stock)

# Its elf/ results, recorded as the baseline that `make check' reports
# regressions against.
baseline: stock
	$(IN_ROOT) /project/tests/check-glibc --baseline $(R_WORK)/build-stock \
	  /project/tests/baseline/elf-stock.txt

# Tier check-host: the mutants first (they leave the restored sources
# to be rebuilt by the elf/ check), then every elf/ test on the host
# kernel against the stock baseline, the layout of the structures ld.so
# and libc.so.6 share against Debian's own 2.43 build (mk/debian.mk),
# then the kernel's SFrame reader in user space (mk/linux.mk) on the
# x86_64 objects.
STAGES_check-host := mutants elf-host layout reader
check-host: glibc reader-inputs
	@$(call tier-begin,check-host)
	-@$(call stage,mutants,$(GLIBC_SRC_LOCK) $(IN_ROOT) /project/tests/mutants $(R_WORK)/src \
	  $(R_BUILD) /project/tests/mutants.txt @COUNTS@)
	-@$(call stage,elf-host,$(IN_ROOT) /project/tests/check-glibc $(R_BUILD) \
	  /project/tests/baseline/elf-stock.txt @COUNTS@)
	-@$(call stage,layout,$(IN_ROOT) /project/tests/layout --counts @COUNTS@ \
	  /project/tests/baseline/layout-debian.txt $(R_BUILD)/elf/ld.so)
	-@$(call stage,reader,$(IN_ROOT) /project/tests/sframe-reader/check \
	  $(R_LINUX)/reader $(R_LINUX)/src $(READER_SECS) @COUNTS@ $(READER_OBJECTS))
	@$(call tier-end,check-host)
