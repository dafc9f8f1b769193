// SPDX-License-Identifier: GPL-2.0
/*
 * SFrame sections registered by a process: PR_ADD_SFRAME and
 * PR_REMOVE_SFRAME, the executable and interpreter added at exec, and
 * the lookup the user unwinder does for an instruction pointer.
 *
 * Each mm keeps its sections in a maple tree keyed by text range, so the
 * text ranges of two sections never overlap.  Changes are made with the
 * mmap lock held for writing (the text check, the munmap hook and fork
 * need it anyway); the unwinder looks sections up under RCU and works on
 * a copy, so it never holds a lock while it reads user memory.
 *
 * Lifetime: fork copies the sections whose text the child has, exec and
 * exit drop them with the mm, and unmapping any part of a section's text
 * drops that section, so a later mapping at the same address is never
 * unwound with stale data.
 */
#include <linux/maple_tree.h>
#include <linux/mm.h>
#include <linux/mm_types.h>
#include <linux/sched.h>
#include <linux/sframe.h>
#include <linux/slab.h>
#include <linux/unwind_user.h>

#include "sframe.h"
#include "sframe_format.h"

/* Sections one process may register: enough for thousands of DSOs. */
#define SFRAME_MAX_SECTIONS	16384

void sframe_mm_init(struct mm_struct *mm)
{
	mt_init_flags(&mm->sframe_mt, MT_FLAGS_USE_RCU);
	mm->sframe_nr = 0;
}

static void sframe_free_section(struct rcu_head *rcu)
{
	kfree(container_of(rcu, struct sframe_section, rcu));
}

/*
 * Drop sec from mm.  The caller holds the mmap lock for writing.  The
 * munmap hook cannot fail, so neither may this: in RCU mode the tree
 * allocates to erase, hence __GFP_NOFAIL.
 */
static void sframe_drop(struct mm_struct *mm, struct sframe_section *sec)
{
	WARN_ON_ONCE(mtree_store_range(&mm->sframe_mt, sec->text_start,
				       sec->text_end - 1, NULL,
				       GFP_KERNEL | __GFP_NOFAIL));
	WRITE_ONCE(mm->sframe_nr, mm->sframe_nr - 1);
	call_rcu(&sec->rcu, sframe_free_section);
}

void sframe_free_mm(struct mm_struct *mm)
{
	struct sframe_section *sec;
	unsigned long index = 0;

	/* The mm is dead: nobody looks its sections up any more. */
	mt_for_each(&mm->sframe_mt, sec, index, ULONG_MAX)
		call_rcu(&sec->rcu, sframe_free_section);
	mtree_destroy(&mm->sframe_mt);
	WRITE_ONCE(mm->sframe_nr, 0);
}

static int sframe_insert(struct mm_struct *mm, struct sframe_section *sec)
{
	int ret;

	if (mm->sframe_nr >= SFRAME_MAX_SECTIONS)
		return -ENOSPC;
	/* Maple tree ranges are inclusive. */
	ret = mtree_insert_range(&mm->sframe_mt, sec->text_start,
				 sec->text_end - 1, sec, GFP_KERNEL_ACCOUNT);
	if (ret)
		return ret;	/* -EEXIST: overlapping text */
	WRITE_ONCE(mm->sframe_nr, mm->sframe_nr + 1);
	return 0;
}

/*
 * Fork: the child gets a copy of every section whose text it inherited.
 * Both mms are locked for writing by dup_mmap().
 */
int sframe_dup_mm(struct mm_struct *mm, struct mm_struct *oldmm)
{
	struct sframe_section *sec, *copy;
	unsigned long index = 0;
	int ret;

	mt_for_each(&oldmm->sframe_mt, sec, index, ULONG_MAX) {
		if (!find_vma_intersection(mm, sec->text_start, sec->text_end))
			continue;
		copy = kmemdup(sec, sizeof(*sec), GFP_KERNEL_ACCOUNT);
		if (!copy)
			return -ENOMEM;
		ret = sframe_insert(mm, copy);
		if (ret) {
			kfree(copy);
			return ret;
		}
	}
	return 0;
}

/*
 * [start, end) of mm is being unmapped: drop the sections whose text it
 * touches.  The caller holds the mmap lock for writing.
 */
void sframe_unmap(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct sframe_section *sec;
	unsigned long index = start;

	if (!mm->sframe_nr || start >= end)
		return;
	mt_for_each(&mm->sframe_mt, sec, index, end - 1)
		sframe_drop(mm, sec);
}

/*
 * [start, end) must be mapped without holes, and both its ends must be
 * executable.  Without holes, nothing new can be mapped inside the range
 * without first unmapping part of it, which drops the section.
 *
 * Returns 0, -ENXIO if part of the range is not mapped, or -EACCES if it
 * is mapped but its first or last byte is not executable.
 */
static int sframe_check_text(struct mm_struct *mm, unsigned long start,
			     unsigned long end)
{
	struct vm_area_struct *first = vma_lookup(mm, start);
	struct vm_area_struct *vma = first;

	if (!vma)
		return -ENXIO;
	while (vma->vm_end < end) {
		vma = vma_lookup(mm, vma->vm_end);
		if (!vma)
			return -ENXIO;
	}
	if (!(first->vm_flags & VM_EXEC) || !(vma->vm_flags & VM_EXEC))
		return -EACCES;
	return 0;
}

/*
 * Register the SFrame data at [sframe_start, sframe_end) for the text at
 * [text_start, text_end) of the current process.
 *
 * Returns 0, or -EINVAL for an empty or inverted range, -EFAULT if the
 * section cannot be read, -ENOEXEC if it is not a valid SFrame section
 * for this architecture, -ENXIO if the text is not wholly mapped,
 * -EACCES if it is not executable at either end, -EEXIST if it overlaps
 * a registered section, -ENOSPC past SFRAME_MAX_SECTIONS, -ENOMEM, or
 * -EINTR if a fatal signal came while waiting for the mmap lock.
 */
int sframe_add_section(unsigned long sframe_start, unsigned long sframe_end,
		       unsigned long text_start, unsigned long text_end)
{
	struct mm_struct *mm = current->mm;
	struct sframe_section *sec;
	int ret;

	if (!mm || sframe_start >= sframe_end || text_start >= text_end)
		return -EINVAL;
	if (!access_ok((const void __user *)sframe_start,
		       sframe_end - sframe_start))
		return -EFAULT;

	sec = kzalloc_obj(*sec, GFP_KERNEL_ACCOUNT);
	if (!sec)
		return -ENOMEM;
	sec->sframe_start = sframe_start;
	sec->sframe_end = sframe_end;
	sec->text_start = text_start;
	sec->text_end = text_end;

	/* Reads user memory: before taking the mmap lock. */
	ret = sframe_read_header(sec, UNWIND_USER_SFRAME_ABI);
	if (ret)
		goto out_free;

	if (mmap_write_lock_killable(mm)) {
		ret = -EINTR;
		goto out_free;
	}
	ret = sframe_check_text(mm, text_start, text_end);
	if (!ret)
		ret = sframe_insert(mm, sec);
	mmap_write_unlock(mm);
	if (!ret)
		return 0;
out_free:
	kfree(sec);
	return ret;
}

/*
 * Withdraw the section registered at sframe_start: 0, or -ENOENT if the
 * process has none there (never registered, already removed, or dropped
 * because its text was unmapped).
 */
int sframe_remove_section(unsigned long sframe_start)
{
	struct mm_struct *mm = current->mm;
	struct sframe_section *sec;
	unsigned long index = 0;
	int ret = -ENOENT;

	if (!mm)
		return -EINVAL;
	if (mmap_write_lock_killable(mm))
		return -EINTR;
	mt_for_each(&mm->sframe_mt, sec, index, ULONG_MAX) {
		if (sec->sframe_start == sframe_start) {
			sframe_drop(mm, sec);
			ret = 0;
			break;
		}
	}
	mmap_write_unlock(mm);
	return ret;
}

bool current_has_sframe(void)
{
	struct mm_struct *mm = current->mm;

	return mm && READ_ONCE(mm->sframe_nr);
}

/*
 * The unwinder's lookup for the current task.  Return values as for
 * sframe_find(), except that -ENOENT means that no section covers ip:
 * where a section's text covers ip but none of its functions does (code
 * without CFI, such as crt glue or the child's path in glibc's clone3,
 * left out on purpose), the answer is -EOPNOTSUPP.  The object has
 * SFrame data, so its frame pointer is no guide there either.
 */
int sframe_find_frame(unsigned long ip, struct unwind_user_frame *frame)
{
	struct mm_struct *mm = current->mm;
	struct sframe_section *sec, copy;
	unsigned long index = ip;
	int ret;

	if (!mm)
		return -ENOENT;
	/* A frame may scan many FREs: let others run between frames. */
	cond_resched();
	rcu_read_lock();
	sec = mt_find(&mm->sframe_mt, &index, ip);
	if (sec)
		copy = *sec;
	rcu_read_unlock();
	if (!sec)
		return -ENOENT;
	ret = sframe_find(&copy, ip, frame);
	return ret == -ENOENT ? -EOPNOTSUPP : ret;
}
