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

.PHONY: e2e-tests check-guest check-debug run

e2e-tests: glibc
	@$(call build,e2e-tests,$(IN_ROOT) /project/tests/e2e/build $(R_E2E) $(R_BUILD))

STAGES_check-guest := elf-guest kernel-side e2e
check-guest: glibc kernel kernel-tests e2e-tests $(D3)/.ok
	@$(call tier-begin,check-guest)
	-@$(call stage,elf-guest,$(IN_ROOT) /project/tests/check-glibc --guest \
	  $(R_KERNEL) $(R_WORK)/guest $(R_BUILD) \
	  /project/tests/baseline/elf-stock.txt @COUNTS@)
	-@$(call stage,kernel-side,$(IN_ROOT) /project/tests/kernel/check \
	  $(R_KERNEL) $(R_LINUX)/tests @COUNTS@)
	-@$(call stage,e2e,$(IN_ROOT) /project/tests/e2e/check $(R_KERNEL) \
	  $(R_E2E) $(R_BUILD) $(R_D3) @COUNTS@)
	@$(call tier-end,check-guest)

# Hostile registrations for 60 s, then the stress run (20 s, 4 threads),
# each under perf, on the debug kernel.
STAGES_check-debug := hostile
check-debug: kernel-debug kernel-tests
	@$(call tier-begin,check-debug)
	-@$(call stage,hostile,$(IN_ROOT) /project/tests/kernel/hostile \
	  $(R_KERNEL_DEBUG) $(R_LINUX)/tests 60 20 4 @COUNTS@)
	@$(call tier-end,check-debug)

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
