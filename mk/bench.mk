# What registration and SFrame unwinding cost, side by side with stock
# glibc, frame pointers and DWARF (bench/): callgrind on the host; in
# the guest, times and profiles on a clock that counts the guest's
# instructions (QEMU's icount, one CPU), so that they do not move with
# the host's load; the table, bench.csv and bench.svg in
# run/, and the table with when and where it was measured in
# results/bench.txt (the file README links; commit it with the change
# it measures).
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: LGPL-2.1-or-later

.PHONY: bench bench-build
BENCH_SRC_LOCK = $(TOP)/toolchain/bench-src.lock
BENCH_SRC := $(CACHE)/bench-src-$(call lock_key,$(BENCH_SRC_LOCK))
$(BENCH_SRC)/.ok: $(BENCH_SRC_LOCK)
	scripts/fetch-pool $(BENCH_SRC_LOCK) $(BENCH_SRC)
	touch $@

# The programs and workloads both halves run (bench/build).
bench-build: glibc stock $(BENCH_SRC)/.ok $(BINUTILS_V2)/.ok
	mkdir -p run
	$(IN_ROOT) /project/bench/build $(R_WORK)/bench \
	  /cache/$(notdir $(BENCH_SRC)) /cache/$(notdir $(BINUTILS_V2))

bench: bench-build bench-kernel kernel-bench perf
	$(IN_ROOT) /project/bench/host-run $(R_WORK)/bench $(R_BUILD) \
	  $(R_WORK)/build-stock
	GUEST_ACCEL=tcg GUEST_ICOUNT=1 GUEST_CPUS=1 \
	  $(IN_ROOT) /project/scripts/guest $(R_KERNEL_BENCH) $(R_WORK)/bench 3600 \
	  "$(R_WORK)/bench/guest-run $(R_WORK)/bench $(R_BUILD) $(R_WORK)/build-stock"
	$(IN_ROOT) sh -c '/project/bench/report $(R_WORK)/bench \
	  > $(R_WORK)/bench/bench.txt && gnuplot $(R_WORK)/bench/bench.gp'
	cp $(GLIBC_WORK)/bench/bench.txt $(GLIBC_WORK)/bench/bench.csv \
	  $(GLIBC_WORK)/bench/bench.svg run/
	{ echo "make bench, $$(date -u +%F), tree $(TREE_STAMP);" \
	       "host: $$(nproc) CPUs, $$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1);" \
	       "guest: $$(sed -n 's/^kernel //p' $(GLIBC_WORK)/bench/guest.txt) under TCG, icount, 1 CPU"; \
	  echo; cat run/bench.txt; } > results/bench.txt
	@cat run/bench.txt
	@echo "make bench: run/bench.txt, run/bench.csv, run/bench.svg; results/bench.txt"

# What the kernel series costs every process: the same programs in two
# boots, on kernel-bench and on kernel-base (bench/guest-kernel); part
# of make bench, and alone.  Its rows go to
# results/bench-kernel.txt too, with when and where they were measured
# (the cover letter quotes them: linux/series/figures).
.PHONY: bench-kernel
bench-kernel: bench-build kernel-bench kernel-base perf
	for k in patched:$(R_KERNEL_BENCH) base:$(R_KERNEL_BASE); do \
	  GUEST_ACCEL=tcg GUEST_ICOUNT=1 GUEST_CPUS=1 \
	    $(IN_ROOT) /project/scripts/guest $${k#*:} $(R_WORK)/bench 3600 \
	    "$(R_WORK)/bench/guest-kernel $(R_WORK)/bench $${k%%:*} $(R_BUILD) $(R_WORK)/build-stock" \
	    && grep -qx "$${k%%:*}_done" $(GLIBC_WORK)/bench/kernel-$${k%%:*}.txt \
	    || { echo "bench-kernel: the $${k%%:*} kernel's run failed" >&2; exit 1; }; \
	done
	$(IN_ROOT) /project/bench/report --kernel $(R_WORK)/bench \
	  > run/bench-kernel.txt
	{ echo "make bench-kernel, $$(date -u +%F), tree $(TREE_STAMP);" \
	       "host: $$(nproc) CPUs, $$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1);" \
	       "guests: $$(sed -n 's/^patched_kernel //p' $(GLIBC_WORK)/bench/kernel-patched.txt)" \
	       "and $$(sed -n 's/^base_kernel //p' $(GLIBC_WORK)/bench/kernel-base.txt)" \
	       "under TCG, icount, 1 CPU"; \
	  echo; cat run/bench-kernel.txt; } > results/bench-kernel.txt
	@cat run/bench-kernel.txt
