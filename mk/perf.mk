# perf with the perf series (perf/*.patch: perf record no longer writes
# a record twice when data_head moves during a push), built for both
# guests from Debian's Linux sources; the guests' perf (scripts/guest
# puts it first in the guest's PATH).  perf-unfixed is the same without
# the fix, for the check that its test catches the bug.
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: GPL-2.0

# The patches in order, the fix first (a cover letter, if one is added,
# is not a patch).
PERF_PATCHES := $(sort $(filter-out %cover-letter.patch,$(wildcard perf/*.patch)))
PERF_KEY := $(shell cat $(PERF_PATCHES) scripts/build-perf | sha256sum | cut -c1-12)
PERF_WORK := $(CACHE)/perf-debian-$(LINUX_VERSION)-$(PERF_KEY)
PERF_UNFIXED := $(PERF_WORK)-unfixed
R_PERF = /cache/$(notdir $(PERF_WORK))
R_PERF_UNFIXED = /cache/$(notdir $(PERF_UNFIXED))
# What the root holds; the series is against Debian's 7.2.
R_LINUX_TARBALL = /usr/src/linux-source-7.2.tar.xz
# scripts/guest reads it (through scripts/in-root): /cache/NAME/ARCH/bin.
export GUEST_PERF := $(notdir $(PERF_WORK))

.PHONY: perf perf-arm64 perf-unfixed

perf: $(PERF_WORK)/x86_64/.ok
$(PERF_WORK)/x86_64/.ok: $(ROOT)/.ok $(PERF_PATCHES) scripts/build-perf
	@$(call build,perf,$(IN_ROOT) /project/scripts/build-perf \
	  $(R_LINUX_TARBALL) $(R_PERF) x86_64 $(addprefix /project/,$(PERF_PATCHES)))
	@touch $@

# After perf: the two share the unpacked sources.
perf-arm64: $(PERF_WORK)/aarch64/.ok
$(PERF_WORK)/aarch64/.ok: $(PERF_WORK)/x86_64/.ok
	@$(call build,perf-arm64,$(IN_ROOT) /project/scripts/build-perf \
	  $(R_LINUX_TARBALL) $(R_PERF) aarch64 $(addprefix /project/,$(PERF_PATCHES)))
	@touch $@

# Every patch but the first, the fix: perf's sources with the fix taken
# off again (it changes only util/mmap.c), not a second unpacking.
perf-unfixed: $(PERF_UNFIXED)/x86_64/.ok
$(PERF_UNFIXED)/x86_64/.ok: $(PERF_WORK)/x86_64/.ok
	@$(call build,perf-unfixed,$(IN_ROOT) /project/scripts/build-perf \
	  --unfix $(R_PERF) /project/$(firstword $(PERF_PATCHES)) \
	  $(R_LINUX_TARBALL) $(R_PERF_UNFIXED) x86_64)
	@touch $@
