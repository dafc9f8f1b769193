# Tier check-lint: the mails as reviewers read them.  glibc's: glibc's
# own Makefile lint, whitespace, messages, notices, the manual, and that
# they apply to upstream's release branch (tests/patchset-lint); the
# kernel's: scripts/checkpatch.pl on every patch; both series as
# make refresh writes them, and as their edit branches have them
# (tests/series-check, mk/series.mk).  And the harness's own self-test:
# no stage can go missing from the count unnoticed.
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: LGPL-2.1-or-later

.PHONY: check-lint
STAGES_check-lint := harness patchset-lint checkpatch series
check-lint: glibc-series linux-series debian-orig
	@$(call tier-begin,check-lint)
	-@$(call stage,harness,tests/harness-selftest $(CHECK_DIR)/harness.count)
	-@$(call stage,patchset-lint,$(IN_ROOT) /project/tests/patchset-lint \
	  $(R_WORK)/src /project/patchset/glibc $(R_DEBIAN_WORK)/orig \
	  /cache/$(notdir $(ROOT_DEBIAN))/usr/src/glibc/debian/patches/git-updates.diff \
	  @COUNTS@)
	-@$(call stage,checkpatch,$(IN_ROOT) /project/tests/kernel/checkpatch \
	  $(R_LINUX)/src @COUNTS@ /project/patchset/linux /project/perf)
	-@$(call stage,series,tests/series-check $(CHECK_DIR)/series.count \
	  glibc . series $(PRISTINE) $(GLIBC_WORK) \
	  linux linux linux/series $(LINUX_PRISTINE) $(LINUX_WORK))
	@$(call tier-end,check-lint)
