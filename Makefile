# glibc-sframe: the dynamic linker registers SFrame data with the kernel.
# See README.md.  The two commands: `make run' and `make check';
# `make help' lists every target.
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: LGPL-2.1-or-later

.DEFAULT_GOAL := all

# Nothing of a run outlives it (scripts/run-guard): the top-level make,
# and so every process it starts, background make and guests included,
# goes into a cgroup that is emptied when it ends, however it ends.
# (Not for make -n or -q, as a shell's completion runs them.)
ifeq ($(MAKELEVEL)$(findstring n,$(filter-out -%,$(firstword $(MAKEFLAGS))))$(findstring q,$(filter-out -%,$(firstword $(MAKEFLAGS)))),0)
$(shell scripts/run-guard $$PPID)
endif

# A fresh checkout is configured with the defaults; make then restarts.
config.mk:
	./configure

-include config.mk

ifneq ($(CACHE),)

# The tree a run measures, taken when make starts: a commit made while
# a long run goes on is not credited with its figures.  results/ is
# what runs write.
TREE_STAMP := $(shell git rev-parse --short HEAD 2>/dev/null)$(shell \
  git diff --quiet HEAD -- . ':!results' 2>/dev/null || echo +changes)

# Each area's builds and its tier of `make check' (mk/*.mk).
include mk/common.mk mk/root.mk mk/glibc.mk mk/linux.mk mk/lint.mk \
  mk/guest.mk mk/arm64.mk mk/debian.mk mk/bench.mk mk/series.mk \
  mk/perf.mk

# `make check' is its tiers, in this order, each building only what it
# needs before its tests run: the mails (check-lint), glibc on the host
# (check-host), the x86_64 guest (check-guest), the debug kernel
# (check-debug), arm64 (check-arm64), Debian's build (check-debian).
# Each tier alone ends with its own count; `make check' goes on past a
# failed tier and ends with the count of every stage it declared, a
# stage that reported nothing counting as a failure.
TIERS := check-lint check-host check-guest check-debug check-arm64 check-debian
STAGES_check := $(foreach t,$(TIERS),$(STAGES_$(t)))
# First, the pins of every root not made yet against today's sid
# (scripts/relock --check, mk/root.mk): a version sid dropped stops the
# run in its first seconds, with a line that names it.  Then, two at a
# time, what waits on the network or on one core (mmdebstrap, npm,
# unpacking the sources): the roots, the downloads and the two series.
# Each tier still asks for what it needs.
fetches: $(ROOT)/.ok $(ROOT_DEBIAN)/.ok $(ROOT_ARM64)/.ok \
  $(BINUTILS_V2)/.ok $(D3)/.ok linux-series glibc-series debian-orig
	@:
# Then, while the tiers run, a second make builds what the tiers need
# in the order they need it, in its own scheduling group at the lowest
# priority: it takes the cores the tiers leave idle (a TCG guest
# waiting on 9p, a link, a configure script) and yields them otherwise.
# A tier that reaches a tree it is building waits for it (scripts/step's
# locks) and then finds it built: a build step done once in a run
# (SFRAME_RUN) is not run again; a build that failed there is tried
# again in its tier.  The x86_64 kernel and perf first: check-guest,
# the first tier to boot, needs them while check-host still runs.
BACKGROUND := kernel perf perf-unfixed kernel-debug kernel-arm64 perf-arm64 \
  glibc-arm64 kernel-tests-arm64 kselftest-arm64 e2e-tests-arm64 \
  distro-debian e2e-tests-debian elf-tests-debian
# $(call with-background,LOG,TARGETS,COMMAND): TARGETS made by a second
# make, started in the background at the lowest priority (its output in
# LOG), while COMMAND runs; then wait for both.  COMMAND runs as a job
# too, so that the shell is in `wait' and takes a SIGTERM (GNU make
# passes it on to its recipes) at once: it stops both and ends, and the
# make above it can end (scripts/run-guard then ends what is left).  A
# job of a shell without job control starts with SIGINT and SIGQUIT
# ignored and no input: COMMAND gets both signals' defaults and the
# shell's input back.
with-background = setsid sh -c 'echo 19 > /proc/self/autogroup 2>/dev/null; \
	  exec nice -n 19 $(MAKE) --no-print-directory -k \
	    LOGS=$(LOGS)/background $(2)' > $(1) 2>&1 < /dev/null & bg=$$!; \
	exec 3<&0; env --default-signal=INT,QUIT $(3) <&3 & fg=$$!; \
	trap 'kill -TERM $$fg 2>/dev/null; kill -TERM -$$bg 2>/dev/null; exit 143' \
	  INT TERM; \
	wait $$fg; rc=$$?; wait $$bg; (exit $$rc)

.PHONY: all check fetches patchset clean help $(TIERS)

all: glibc kernel

patchset: $(GLIBC_WORK)/.series $(LINUX_WORK)/.series

# make patchset SIGNOFF='Name <address>': the mails with the sign-off
# of whoever posts them (scripts/series-tree); without it they carry
# none, and the lints say so.  The mails are written again whenever the
# SIGNOFF given differs from the last (kept in SIGNOFF_STAMP).
export SIGNOFF
SIGNOFF_STAMP := $(CACHE)/patchset.signoff
# A stamp not there yet reads as empty: the rule below makes it.
ifneq ($(wildcard $(CACHE)),)
ifneq ($(file <$(SIGNOFF_STAMP)),$(SIGNOFF))
$(file >$(SIGNOFF_STAMP),$(SIGNOFF))
endif
endif
$(GLIBC_WORK)/.series $(LINUX_WORK)/.series: $(SIGNOFF_STAMP)
$(SIGNOFF_STAMP):
	@mkdir -p $(dir $@) && touch $@

# One id for this run's two makes (scripts/step), and where each build
# step writes its time (results/check.txt).
check: export SFRAME_RUN := $(shell date +%s.%N)
check: export BUILD_TIMES = $(CHECK_DIR)/builds.txt
check:
	@mkdir -p $(CHECK_DIR) && rm -f $(CHECK_DIR)/*.count $(CHECK_DIR)/*.status \
	  $(CHECK_DIR)/builds.txt && date +%s > $(CHECK_DIR)/start \
	  && if [ -e $(ROOT)/.ok ] || [ -d $(CACHE)/ccache ]; then echo warm; \
	     else echo cold; fi > $(CHECK_DIR)/kind
	@echo "make check: tiers $(TIERS); logs in $(LOGS) and $(CHECK_DIR)"
	@$(MAKE) --no-print-directory pins \
	  || { echo "make check: stopped before building anything: see the pins above"; exit 1; }
	-@$(MAKE) --no-print-directory -k -j2 fetches
	-@mkdir -p $(LOGS); \
	echo "make check: building $(BACKGROUND) in the background" \
	  "(log: $(LOGS)/background.log)"; \
	$(call with-background,$(LOGS)/background.log,$(BACKGROUND), \
	  $(MAKE) --no-print-directory -k -j1 $(TIERS)); \
	sed -n 's/^<== /background: /p' $(LOGS)/background.log
	@mkdir -p run results && rc=0 && $(call tier-end,check) || rc=$$?; \
	  cp $(CHECK_DIR)/summary.txt run/check-summary.txt; \
	  kind=$$(cat $(CHECK_DIR)/kind); \
	  { echo "make check, $$kind (the cache $$([ $$kind = cold ] && echo "held no root and no ccache" \
		   || echo "held a build") when it began), tree $(TREE_STAMP);" \
		 "host: $$(nproc) CPUs, $$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)," \
		 "$$(free -g | awk '/^Mem:/ { print $$2 }') GiB;" \
		 "guests under $$(cat $(CACHE)/kvm-probe-$$(uname -r) 2>/dev/null || echo tcg);" \
		 "cache $(CACHE): $$(du -sh $(CACHE) 2>/dev/null | cut -f1)"; \
	    echo; cat $(CHECK_DIR)/summary.txt; \
	    s=$$(( $$(date +%s) - $$(cat $(CHECK_DIR)/start) )); \
	    echo; echo "wall time $$((s / 60)):$$(printf %02d $$((s % 60))); the builds" \
	      "this run made, longest first (background: the second make's):"; \
	    sort -k2,2nr $(CHECK_DIR)/builds.txt 2>/dev/null | awk '{ printf "  %-20s %3d:%02d%s\n", \
	      $$1, $$2 / 60, $$2 % 60, $$3 == "background" ? "  background" : "" }'; \
	  } > results/check$$([ $$kind = cold ] || echo -warm).txt; exit $$rc

# The series' stamps go with the mails, so that the next build writes
# them again.
clean:
	rm -rf $(PATCHSET) config.mk $(GLIBC_WORK)/.series $(LINUX_WORK)/.series

endif

help:
	@echo "The two commands:"
	@echo "  make check          build what the tests need and run every tier below"
	@echo "  make run            the main job: build, boot, profile the demo, report in run/"
	@echo "Tiers of make check (each builds what it needs, runs alone, ends with its count):"
	@echo "  make check-lint     the mails (glibc's lint, checkpatch) and the series against their trees"
	@echo "  make check-host     glibc build, mutants, elf/ tests on the host, the SFrame reader"
	@echo "  make check-guest    the kernel; elf/ tests, kernel-side tests, end-to-end in the guest"
	@echo "  make check-debug    the debug kernel (KASAN, lockdep, kmemleak): hostile and stress runs"
	@echo "  make check-arm64    arm64: cross builds, tst-sframe-*, kernel-side, end-to-end, reader"
	@echo "  make check-debian   the series built as Debian builds glibc: its elf/ and end-to-end"
	@echo "Builds:"
	@echo "  make / make all     glibc and the guest kernel"
	@echo "  make root           the toolchain root (toolchain/packages.lock)"
	@echo "  make fetches        the roots, the downloads and both series, two at a time"
	@echo "  make patchset       the two series as mails in patchset/glibc and patchset/linux"
	@echo "                      (SIGNOFF='Name <address>': with the poster's sign-off)"
	@echo "  make series-builds  build each series after each of its patches (results/series-*.txt)"
	@echo "  make glibc          glibc 2.43 with the series, --enable-sframe"
	@echo "  make kernel         Linux 7.2 with the kernel series, the guest kernel"
	@echo "  make kernel-debug   the same with KASAN, lockdep, kmemleak, UBSAN"
	@echo "  make kernel-bench   the same with the function profiler (make bench)"
	@echo "  make kernel-base    kernel-bench's kernel without the series (make bench)"
	@echo "  make kernel-tests   the kernel-side test programs"
	@echo "  make kselftest      the kernel series' selftest (tools/testing/selftests/sframe)"
	@echo "  make e2e-tests      the end-to-end demo"
	@echo "  make arm64          everything the arm64 tier needs"
	@echo "  make distro-debian  the series on Debian's glibc packaging, built by debian/rules"
	@echo "Other:"
	@echo "  make bench          what registration and unwinding cost (run/bench.txt)"
	@echo "  make bench-kernel   its rows of what the kernel series costs every process"
	@echo "  make fuzz           the SFrame reader under libFuzzer for FUZZ_SECS (3600)"
	@echo "  make baseline       stock glibc's elf/ failures (tests/baseline/elf-stock.txt)"
	@echo "  make distro-debian-baseline  the same for Debian's build without the series"
	@echo "  make layout-baseline         Debian's own ld.so layout (tests/baseline/layout-debian.txt)"
	@echo "  make distro-debian-trixie    does the series apply to trixie's glibc 2.41?"
	@echo "  make lock           pin today's sid versions in toolchain/*.lock"
	@echo "  make edit           a git worktree per series to change it in (WORK/edit, branch edit)"
	@echo "  make refresh        write both series back from their edit branches"
	@echo "  make clean          drop config.mk, the mails and the series' stamps"
	@echo "Knobs (environment or make VAR=...): JOBS, GUEST_ACCEL=kvm|tcg, GUEST_CPUS,"
	@echo "  GUEST_ICOUNT=1 (the guest clock counts instructions, as in make bench),"
	@echo "  GUEST_TIMEOUT, E2E_SECONDS; ./configure --help for the configuration."
