# Editing the two series in their trees.  `make edit' gives each series
# a git worktree, WORK/edit on branch 'edit', at the series' last
# commit; a change is committed there (a change to patch N as
# `git commit --fixup' of its commit and `git rebase -i --autosquash
# pristine', a new patch as a new commit).  `make refresh' then writes
# the series back from the branch (scripts/series-refresh): messages,
# new files, hunks.  make check's stage `series' fails while a branch
# and its series disagree, and when a series is not in the form a
# refresh writes.
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: LGPL-2.1-or-later

.PHONY: edit refresh

# $(call edit-tree,WORK): WORK/edit on branch 'edit': the branch as it
# is if there is one (commits not yet refreshed live only there), else
# new, at the series' last commit.
edit-tree = if [ -d $(1)/edit ]; then \
	  echo "edit: $(1)/edit (branch edit, $$(git -C $(1)/edit log -1 --format='%h %s'))"; \
	else \
	  git -C $(1)/src worktree prune && \
	  if git -C $(1)/src rev-parse -q --verify refs/heads/edit > /dev/null; then \
	    git -C $(1)/src worktree add -q $(1)/edit edit && \
	    echo "edit: $(1)/edit: the branch edit as it was (git branch -D edit first for a new one)"; \
	  else \
	    git -C $(1)/src worktree add -q -b edit $(1)/edit HEAD && \
	    echo "edit: $(1)/edit: new, at the series' last commit"; \
	  fi; \
	fi

# $(call refresh-tree,NAME,TOP,SERIES,WORK): the series from the branch
# edit, checked out, committed and not in the middle of a rebase.
refresh-tree = if ! [ -d $(4)/edit ]; then \
	  echo "refresh: $(1): no $(4)/edit (make edit makes it)"; \
	elif [ "$$(git -C $(4)/edit symbolic-ref -q HEAD)" != refs/heads/edit ] \
	     || [ -d "$$(git -C $(4)/edit rev-parse --git-path rebase-merge)" ] \
	     || [ -d "$$(git -C $(4)/edit rev-parse --git-path rebase-apply)" ]; then \
	  echo "refresh: $(1): $(4)/edit is not on branch edit, or is in a rebase" >&2; exit 1; \
	elif [ -n "$$(git -C $(4)/edit status --porcelain)" ]; then \
	  echo "refresh: $(1): $(4)/edit has changes not committed" >&2; exit 1; \
	else \
	  scripts/series-refresh $(1) $(2) $(3) $(4) edit && \
	  echo "refresh: $(1): $(3) is the branch edit of $(4)/edit"; \
	fi

edit: glibc-series linux-series
	@$(call edit-tree,$(GLIBC_WORK))
	@$(call edit-tree,$(LINUX_WORK))

refresh:
	@$(call refresh-tree,glibc,.,series,$(GLIBC_WORK))
	@$(call refresh-tree,linux,linux,linux/series,$(LINUX_WORK))

# Every patch builds: each series built after each of its patches in
# turn, incrementally, in WORK/steps and its build directories (not part
# of `make check': it takes a build per patch).  glibc: the build, the
# series' tests compiled (not run), and the same for aarch64 after a
# patch that touches more than x86_64's files (scripts/build-glibc-step);
# results/series-glibc.txt.  Linux: checkpatch on the
# patch, the x86_64 guest kernel, and the arm64 one after a patch that
# touches arm64 or the generic unwinder; results/series-linux.txt.
# Each file gets a line per patch and the time.
.PHONY: series-builds series-builds-glibc series-builds-linux
series-builds: series-builds-glibc series-builds-linux

series-builds-glibc: glibc-series
	scripts/series-builds glibc $(GLIBC_WORK)/src $(GLIBC_WORK)/steps \
	  results/series-glibc.txt \
	  $(IN_ROOT) /project/scripts/build-glibc-step $(R_WORK)/steps \
	  $(R_WORK)/build-steps $(R_WORK)/build-steps-arm64

series-builds-linux: linux-series
	scripts/series-builds linux $(LINUX_WORK)/src $(LINUX_WORK)/steps \
	  results/series-linux.txt \
	  $(IN_ROOT) /project/scripts/build-linux-step $(R_LINUX)/steps \
	  $(R_LINUX)/build-steps $(R_LINUX)/build-steps-arm64
