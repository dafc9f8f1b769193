# Shared by every fragment: cache keys, the paths of the trees inside
# the toolchain root, and how a step is run and reported.
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: LGPL-2.1-or-later

TOP := $(CURDIR)

# Cache keys: 12 hex digits of the SHA-256 of a lock file's pins (its
# lines without comments and blank lines), or of a path.
lock_key = $(shell sed -e 's/\#.*//' -e '/^[[:space:]]*$$/d' $(1) \
		   | sha256sum | cut -c1-12)
path_key = $(shell printf '%s' '$(1)' | sha256sum | cut -c1-12)
# The cache directory of a source tree: NAME, the --with-NAME-src given
# (if any), the Debian package version otherwise.
work_dir = $(CACHE)/$(1)-$(if $(2),dir-$(call path_key,$(2)),debian-$(3))

# Build logs, and each test stage's log, counts and status (tests/summary
# reads them; `make check' writes its table to $(CHECK_DIR)/summary.txt).
LOGS := $(CACHE)/logs
CHECK_DIR := $(CACHE)/check
R_CHECK := /cache/check

# $(call build,NAME,COMMAND): a build step, its output in $(LOGS)/NAME.log
# (its tail printed if it fails), under the lock $(STEP_LOCKS)/NAME.lock.
build = scripts/step --build $(1) $(LOGS) $(2)
export STEP_LOCKS := $(CACHE)/locks
$(shell mkdir -p $(STEP_LOCKS))
# glibc's source tree is shared by the native and the aarch64 builds,
# and the mutants change it while they run: the aarch64 build and the
# mutants hold this lock.
GLIBC_SRC_LOCK = flock $(STEP_LOCKS)/glibc-src.lock
# $(call stage,NAME,COMMAND): a test stage; @COUNTS@ in COMMAND is the
# file (inside the root) it appends its "passed failed skipped" to.
stage = scripts/step --stage $(1) $(CHECK_DIR) \
	  $(subst @COUNTS@,$(R_CHECK)/$(1).count,$(2))
# A tier declares its stages in STAGES_<tier>, forgets their last
# results before it runs them and ends with their table and count.
tier-begin = mkdir -p $(CHECK_DIR) && cd $(CHECK_DIR) \
	       && rm -f $(foreach s,$(STAGES_$(1)),$(s).count $(s).status $(s).log)
tier-end = tests/summary --title $(1) $(CHECK_DIR) $(STAGES_$(1))

# The knobs the scripts read, from the environment or make's command
# line (`make check GUEST_ACCEL=tcg'); scripts/in-root passes them into
# the root, whose environment it otherwise clears.
export JOBS GUEST_ACCEL GUEST_CPUS GUEST_ICOUNT GUEST_TIMEOUT E2E_SECONDS
