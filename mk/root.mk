# The toolchain root and the other pinned inputs from Debian's archive
# and npm: binutils 2.44 for SFrame v2, perf's flame graph template.
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: LGPL-2.1-or-later

LOCK = $(TOP)/toolchain/packages.lock
# The root is keyed by the pinned package list: edit it, get a new root.
ROOT = $(or $(WITH_ROOT),$(CACHE)/root-$(call lock_key,$(LOCK)))
IN_ROOT = scripts/in-root $(ROOT) $(CACHE) $(TOP)

# binutils 2.44 (Debian trixie), the last to write SFrame v2, for one
# test library; keyed by its lock like the root.
V2_LOCK = $(TOP)/toolchain/binutils-v2.lock
BINUTILS_V2 := $(CACHE)/binutils-2.44-$(call lock_key,$(V2_LOCK))

# perf's flame graph page: d3-flame-graph from the npm registry, the
# version and template perf's flamegraph.py names.
D3_LOCK = $(TOP)/toolchain/d3-flame-graph.lock
D3 := $(CACHE)/d3-flame-graph-$(call lock_key,$(D3_LOCK))
R_D3 = /cache/$(notdir $(D3))

.PHONY: root lock pins

# The pins of each root that is not made yet, against today's sid: one
# line for each version sid no longer carries (scripts/relock --check).
# A root already made needs no pin: it is never made again.
pins:
	@rc=0; \
	$(if $(or $(WITH_ROOT),$(wildcard $(ROOT)/.ok)),,scripts/relock --check $(LOCK) || rc=1;) \
	$(if $(wildcard $(ROOT_ARM64)/.ok),,scripts/relock --check --foreign arm64 $(ARM64_LOCK) || rc=1;) \
	$(if $(wildcard $(ROOT_DEBIAN)/.ok),,scripts/relock --check $(DEBIAN_LOCK) || rc=1;) \
	exit $$rc

root: $(ROOT)/.ok
$(ROOT)/.ok: $(LOCK)
	@$(call build,root,scripts/mkroot $(LOCK) $(ROOT))
	@touch $@

$(BINUTILS_V2)/.ok: $(V2_LOCK)
	@$(call build,binutils-v2,scripts/fetch-pool $(V2_LOCK) $(BINUTILS_V2))
	@touch $@

$(D3)/.ok: $(D3_LOCK) scripts/fetch-npm
	@$(call build,d3-flame-graph,scripts/fetch-npm $(D3_LOCK) $(D3))
	@touch $@

# Pin today's sid versions of the packages the locks name.  Needs no
# root of the old pins (sid may no longer carry them): each lock is
# resolved in a scratch root of today's sid.
lock:
	scripts/relock $(LOCK)
	scripts/relock --foreign arm64 $(TOP)/toolchain/arm64-root.lock
	scripts/relock $(TOP)/toolchain/debian-glibc.lock
