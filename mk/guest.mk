# The x86_64 guest: the matching kernel booted under QEMU with
# virtme-ng.  Tier check-guest: glibc's elf/ tests in the guest, the
# kernel-side tests and the end-to-end profiles; tier check-debug: the
# hostile and stress runs on the debug kernel; `make run', the main job.
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: LGPL-2.1-or-later

# The end-to-end demo (tests/e2e), linked to run on the patched glibc.
E2E = $(GLIBC_WORK)/e2e
R_E2E = $(R_WORK)/e2e

.PHONY: e2e-tests check-guest check-debug run perf-report shell \
  teardown-probe teardown-sleep

e2e-tests: glibc
	@$(call build,e2e-tests,$(IN_ROOT) /project/tests/e2e/build $(R_E2E) $(R_BUILD))

# Then the mutants that tst-sframe-load, which needs the kernel, is to
# catch (tests/mutants --guest; it rebuilds the tree as it was).  Last,
# that a run stopped half way leaves nothing running (tests/teardown).
STAGES_check-guest := perf elf-guest kernel-side e2e mutants-guest teardown
check-guest: glibc kernel kernel-tests kselftest e2e-tests $(D3)/.ok perf \
  perf-unfixed
	@$(call tier-begin,check-guest)
	-@$(call stage,perf,$(IN_ROOT) /project/tests/perf-check \
	  $(R_PERF)/x86_64/perf $(R_PERF_UNFIXED)/x86_64/perf @COUNTS@)
	-@$(call stage,elf-guest,$(IN_ROOT) /project/tests/check-glibc --guest \
	  $(R_KERNEL) $(R_WORK)/guest $(R_BUILD) \
	  /project/tests/baseline/elf-stock.txt @COUNTS@)
	-@$(call stage,kernel-side,$(IN_ROOT) /project/tests/kernel/check \
	  $(R_KERNEL) $(R_LINUX)/tests @COUNTS@)
	-@$(call stage,e2e,$(IN_ROOT) /project/tests/e2e/check $(R_KERNEL) \
	  $(R_E2E) $(R_BUILD) $(R_D3) @COUNTS@)
	-@$(call stage,mutants-guest,$(GLIBC_SRC_LOCK) $(IN_ROOT) env \
	  GUEST_RWDIRS=$(R_BUILD) /project/tests/guest/session $(R_KERNEL) \
	  $(R_WORK)/guest-mutants 3600 /project/tests/mutants --guest \
	  $(R_WORK)/src $(R_BUILD) /project/tests/mutants.txt @COUNTS@)
	-@$(call stage,teardown,tests/teardown $(CHECK_DIR)/teardown.count)
	@$(call tier-end,check-guest)

# What tests/teardown stops half way: a background make and a guest on
# the matching kernel, started as `make check' starts them.
teardown-probe:
	@mkdir -p $(GLIBC_WORK)/teardown; \
	$(call with-background,$(GLIBC_WORK)/teardown/background.log,teardown-sleep, \
	  $(IN_ROOT) /project/scripts/guest $(R_KERNEL) $(R_WORK)/teardown 600 \
	    "sleep 600")
teardown-sleep:
	@sleep 600

# Hostile registrations for 60 s, then the stress run (20 s, 4 threads),
# each under perf, on the debug kernel.
STAGES_check-debug := hostile
check-debug: kernel-debug kernel-tests perf
	@$(call tier-begin,check-debug)
	-@$(call stage,hostile,$(IN_ROOT) /project/tests/kernel/hostile \
	  $(R_KERNEL_DEBUG) $(R_LINUX)/tests 60 20 4 @COUNTS@)
	@$(call tier-end,check-debug)

# The main job: profile the demo on the matching kernel with the
# patched glibc, registration on and off; the report (the table, one
# chain on and off, rtld's lines and the kernel's view), the flame
# graphs and the profiles land in run/, the report also in
# results/run.txt.
run: glibc kernel e2e-tests $(D3)/.ok perf
	@mkdir -p run results
	@echo "make run: booting the guest to profile the demo (log:" \
	  "$(GLIBC_WORK)/e2e/console.log, per profile $(GLIBC_WORK)/e2e/*.log)"
	@$(IN_ROOT) /project/tests/e2e/check --run /project/run $(R_KERNEL) \
	  $(R_E2E) $(R_BUILD) $(R_D3) /dev/null; rc=$$?; \
	{ echo "make run, $$(date -u '+%F %H:%M UTC'), tree" \
	       "$(TREE_STAMP)"; \
	  echo; cat run/report.txt; } > results/run.txt; \
	echo "make run: run/report.txt (also results/run.txt); flame graphs" \
	  "run/flamegraph-on.html (registration on) and run/flamegraph-off.html" \
	  "(off); profiles in run/profiles/"; exit $$rc

# perf report of one of make run's profiles: PROFILE=NAME for
# run/profiles/NAME.data (e.g. chain-kernel-on), read in the toolchain
# root, where the demo's objects are at the paths the guest saw.
PROFILE ?= chain-kernel-on
perf-report:
	@test -f run/profiles/$(PROFILE).data \
	  || { echo "make perf-report: no run/profiles/$(PROFILE).data; run make run" \
	       "first (profiles: $$(ls run/profiles 2>/dev/null | sed -n 's/[.]data$$//p' | tr '\n' ' '))" >&2; \
	       exit 1; }
	@$(IN_ROOT) /project/scripts/perf-offline report -i /project/run/profiles/$(PROFILE).data \
	  --kallsyms /project/run/profiles/kallsyms --stdio --no-children

# An interactive guest on the matching kernel, with the patched glibc,
# perf and the demo (its directory writable), for trying things by hand.
shell: glibc kernel e2e-tests perf
	@$(IN_ROOT) /project/scripts/guest --shell $(R_KERNEL) $(R_E2E) \
	  $(R_BUILD)
