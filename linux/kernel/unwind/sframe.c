// SPDX-License-Identifier: GPL-2.0
/*
 * SFrame sections registered by a process: by its dynamic linker, by
 * binfmt_elf for the executable and interpreter at exec, and by the
 * architecture for the vDSO.
 *
 * Each mm keeps its sections in struct sframe_mm (sframe_mm.h): an
 * rbtree by text range and one by section start, both changed under one
 * mutex.  Registration and withdrawal by system call hold the mmap lock
 * only for reading.
 *
 * Lifetime: fork shares the parent's sections with the child, which
 * keeps them until either changes them (then that one gets its own
 * copy); exec and exit drop them with the mm, and unmapping any part of
 * a section's text drops that section, so a later mapping at the same
 * address is never unwound with stale data.
 *
 * What a process that is never profiled pays: nothing at exec (the
 * vDSO's section is found once, at boot, and an mm only notes where the
 * vDSO is), a reference at fork, a search of the tree without a lock at
 * munmap if it registered sections, and its registrations.
 */
#include <linux/elf.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/mm_types.h>
#include <linux/rbtree.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sframe.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/unwind_user.h>

#include "sframe.h"
#include "sframe_format.h"
#include "sframe_mm.h"

/* Sections one process may register: enough for thousands of DSOs. */
#define SFRAME_MAX_SECTIONS	16384

/* Where sframe_mm.generation comes from: never 0, never reused. */
static atomic_long_t sframe_generations = ATOMIC_LONG_INIT(0);

/*
 * The vDSO's section, found at boot (sframe_vdso_init()): its addresses
 * are offsets from the vDSO's base, text_end its size; all 0 if it has
 * none.
 */
struct sframe_section sframe_vdso_sec __ro_after_init;

static struct sframe_entry *sframe_text_entry(const struct rb_node *n)
{
	return rb_entry(n, struct sframe_entry, text_node);
}

static struct sframe_entry *sframe_data_entry(const struct rb_node *n)
{
	return rb_entry(n, struct sframe_entry, data_node);
}

/*
 * Whether new's text is before n's (< 0), overlaps it (0) or is after
 * it: the sections' texts never overlap, so a search with it finds an
 * overlapping one if there is one.
 */
static __always_inline int sframe_text_cmp_range(struct rb_node *new,
						 const struct rb_node *n)
{
	const struct sframe_section *a = &sframe_text_entry(new)->sec;
	const struct sframe_section *b = &sframe_text_entry(n)->sec;

	if (a->text_end <= b->text_start)
		return -1;
	if (a->text_start >= b->text_end)
		return 1;
	return 0;
}

/* Whether the section start key is before n's (< 0), n's or after it. */
static __always_inline int sframe_data_cmp_key(const void *key,
					       const struct rb_node *n)
{
	unsigned long start = (unsigned long)key;
	unsigned long b = sframe_data_entry(n)->sec.sframe_start;

	return start < b ? -1 : start > b;
}

static __always_inline int sframe_data_cmp(struct rb_node *new,
					   const struct rb_node *n)
{
	const struct sframe_entry *ent = sframe_data_entry(new);

	return sframe_data_cmp_key((void *)ent->sec.sframe_start, n);
}

/*
 * A change of sm->text, which lookups without a lock retry.  Preemption
 * is off meanwhile, so that a lookup never waits for a writer that does
 * not run.
 */
static void sframe_text_write_begin(struct sframe_mm *sm)
{
	lockdep_assert_held(&sm->lock);
	preempt_disable();
	write_seqcount_begin(&sm->text_seq);
}

static void sframe_text_write_end(struct sframe_mm *sm)
{
	write_seqcount_end(&sm->text_seq);
	preempt_enable();
}

/* The sections changed: rules found before are stale. */
static void sframe_changed(struct sframe_mm *sm)
{
	/* Release order: a reader who sees the new number sees the change. */
	smp_store_release(&sm->generation,
			  atomic_long_inc_return(&sframe_generations));
}

/**
 * sframe_text_lookup() - the section whose text covers an address
 * @sm:		the sections of an mm
 * @ip:		the address
 * @gap:	if not NULL, and no section covers @ip, set to the range
 *		around @ip that none covers
 *
 * Takes no lock: the caller is in an RCU read-side critical section, and
 * the section may be dropped as soon as it leaves it.  A search that
 * races with a change of the tree may miss (never find a wrong section:
 * what it finds covers @ip); it is retried while the sequence count
 * says a change was made meanwhile.  Task context only: a change is
 * made with preemption off, and nothing that could interrupt one
 * searches.
 *
 * Return: the section, or NULL.
 */
struct sframe_entry *sframe_text_lookup(struct sframe_mm *sm, unsigned long ip,
				       struct unwind_user_gap *gap)
{
	unsigned long lo, hi;
	struct rb_node *n;
	unsigned int seq;

	RCU_LOCKDEP_WARN(!rcu_read_lock_held(),
			 "SFrame section lookup outside RCU read-side section");
	do {
		seq = read_seqcount_begin(&sm->text_seq);
		lo = 0;
		hi = ULONG_MAX;
		/* rb_find_rcu(), noting the sections on either side. */
		n = rcu_dereference_raw(sm->text.rb_node);
		while (n) {
			const struct sframe_section *sec =
				&sframe_text_entry(n)->sec;

			if (ip < sec->text_start) {
				hi = sec->text_start;
				n = rcu_dereference_raw(n->rb_left);
			} else if (ip >= sec->text_end) {
				lo = sec->text_end;
				n = rcu_dereference_raw(n->rb_right);
			} else {
				return sframe_text_entry(n);
			}
		}
	} while (read_seqcount_retry(&sm->text_seq, seq));
	if (gap) {
		gap->start = lo;
		gap->end = hi;
	}
	return NULL;
}

/**
 * sframe_text_first() - the first section whose text ends after an address
 * @sm:		the sections of an mm, which must not change meanwhile:
 *		@sm->lock held, or the mmap lock of the mm they are of held
 *		for writing (see struct sframe_mm)
 * @addr:	the address
 *
 * Return: the section with the lowest text range that ends after @addr
 * (and so covers it, or lies above it), or NULL.
 */
struct sframe_entry *sframe_text_first(struct sframe_mm *sm,
				       unsigned long addr)
{
	struct rb_node *n = sm->text.rb_node;
	struct sframe_entry *found = NULL;

	while (n) {
		struct sframe_entry *ent = sframe_text_entry(n);

		if (ent->sec.text_end > addr) {
			found = ent;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	return found;
}

/* The section after ent in text order, or NULL; locks as above. */
static struct sframe_entry *sframe_text_next(struct sframe_entry *ent)
{
	struct rb_node *n = rb_next(&ent->text_node);

	return n ? sframe_text_entry(n) : NULL;
}

/*
 * Add ent to sm: -ENOSPC past SFRAME_MAX_SECTIONS, -EEXIST if a section
 * starts where it does or its text overlaps a section's.  Allocates
 * nothing.
 */
static int sframe_link(struct sframe_mm *sm, struct sframe_entry *ent)
{
	struct rb_node *old;

	lockdep_assert_held(&sm->lock);
	if (sm->nr >= SFRAME_MAX_SECTIONS)
		return -ENOSPC;
	/* One descent of each tree finds a clash or adds ent. */
	if (rb_find_add(&ent->data_node, &sm->data, sframe_data_cmp))
		return -EEXIST;
	sframe_text_write_begin(sm);
	old = rb_find_add_rcu(&ent->text_node, &sm->text,
			      sframe_text_cmp_range);
	sframe_text_write_end(sm);
	if (old) {
		rb_erase(&ent->data_node, &sm->data);
		return -EEXIST;
	}
	sframe_changed(sm);
	/* ent may lie in the gap sframe_unmap_overlaps() kept. */
	sm->unmap_gap.end = 0;
	WRITE_ONCE(sm->nr, sm->nr + 1);
	return 0;
}

/* Remove ent from sm, free it after a grace period.  Allocates nothing. */
static void sframe_unlink(struct sframe_mm *sm, struct sframe_entry *ent)
{
	lockdep_assert_held(&sm->lock);
	sframe_text_write_begin(sm);
	rb_erase(&ent->text_node, &sm->text);
	sframe_text_write_end(sm);
	rb_erase(&ent->data_node, &sm->data);
	sframe_changed(sm);
	WRITE_ONCE(sm->nr, sm->nr - 1);
	kfree_rcu(ent, rcu);
}

/**
 * sframe_mm_init() - start a new mm without sections
 * @mm:	the mm, from mm_init() (fork's copy included)
 *
 * mm->sframe_vdso is left as it is: zero in a new mm, the parent's in a
 * fork's copy, which has the parent's vDSO (see sframe_dup_mm()).
 */
void sframe_mm_init(struct mm_struct *mm)
{
	RCU_INIT_POINTER(mm->sframe, NULL);
}

/* Free sm and its entries: nothing can reach them any more. */
static void sframe_mm_destroy(struct sframe_mm *sm)
{
	struct sframe_entry *ent, *tmp;

	rbtree_postorder_for_each_entry_safe(ent, tmp, &sm->text, text_node)
		kfree(ent);
	kfree(sm);
}

static void sframe_mm_free_rcu(struct rcu_head *rcu)
{
	sframe_mm_destroy(container_of(rcu, struct sframe_mm, rcu));
}

/*
 * Drop one mm's reference to sm; the last frees it after a grace period
 * (an unwinder of another mm may still be searching it).
 */
static void sframe_put(struct sframe_mm *sm)
{
	if (refcount_dec_and_test(&sm->users))
		call_rcu(&sm->rcu, sframe_mm_free_rcu);
}

/**
 * sframe_free_mm() - drop an mm's sections
 * @mm:	an mm nothing uses any more (__mmput())
 */
void sframe_free_mm(struct mm_struct *mm)
{
	struct sframe_mm *sm = rcu_dereference_protected(mm->sframe, true);

	if (!sm)
		return;
	RCU_INIT_POINTER(mm->sframe, NULL);
	sframe_put(sm);
}

/* New sections, none in them yet, for one mm: NULL if out of memory. */
static struct sframe_mm *sframe_mm_alloc(void)
{
	struct sframe_mm *sm = kzalloc_obj(*sm, GFP_KERNEL_ACCOUNT);

	if (!sm)
		return NULL;
	sm->text = RB_ROOT;
	seqcount_init(&sm->text_seq);
	sm->data = RB_ROOT;
	mutex_init(&sm->lock);
	refcount_set(&sm->users, 1);
	sm->generation = atomic_long_inc_return(&sframe_generations);
	return sm;
}

/*
 * [start, end) must be mapped without holes, and executable throughout.
 * Without holes, nothing new can be mapped inside the range without
 * first unmapping part of it, which drops the section.  The caller holds
 * mm's mmap lock.
 *
 * Returns 0, -ENXIO if part of the range is not mapped, or -EACCES if it
 * is mapped but part of it is not executable.
 */
static int sframe_check_text(struct mm_struct *mm, unsigned long start,
			     unsigned long end)
{
	VMA_ITERATOR(vmi, mm, start);
	struct vm_area_struct *vma = vma_lookup(mm, start);
	unsigned long next = start;
	int ret = 0;

	/* Most text is one mapping. */
	if (vma && end <= vma->vm_end)
		return vma->vm_flags & VM_EXEC ? 0 : -EACCES;

	for_each_vma_range(vmi, vma, end) {
		if (vma->vm_start > next)
			return -ENXIO;
		if (!(vma->vm_flags & VM_EXEC))
			ret = -EACCES;
		next = vma->vm_end;
		cond_resched();
	}
	return next < end ? -ENXIO : ret;
}

/*
 * A copy of old's sections, not yet any mm's, old->lock held: all of
 * them, or with @mm, only those whose whole text @mm has (fork leaves
 * out what MADV_DONTFORK marked: a hole that a later mapping could
 * fill).  NULL if out of memory.
 */
static struct sframe_mm *sframe_copy(struct sframe_mm *old,
				     struct mm_struct *mm)
{
	struct sframe_mm *sm = sframe_mm_alloc();
	struct sframe_entry *ent, *copy;

	lockdep_assert_held(&old->lock);
	if (!sm)
		return NULL;
	mutex_lock_nested(&sm->lock, SINGLE_DEPTH_NESTING);
	for (ent = sframe_text_first(old, 0); ent; ent = sframe_text_next(ent)) {
		/*
		 * Only a hole matters: text whose protection changed since it
		 * was registered keeps its section, in the child as here.
		 */
		if (mm && sframe_check_text(mm, ent->sec.text_start,
					    ent->sec.text_end) == -ENXIO)
			continue;
		copy = kmalloc_obj(*copy, GFP_KERNEL_ACCOUNT);
		if (!copy) {
			mutex_unlock(&sm->lock);
			sframe_mm_destroy(sm);
			return NULL;
		}
		copy->sec = (struct sframe_section) {
			.sframe_start	= ent->sec.sframe_start,
			.sframe_end	= ent->sec.sframe_end,
			.text_start	= ent->sec.text_start,
			.text_end	= ent->sec.text_end,
			/* What the unwinder noted of the header, racing. */
			.version	= READ_ONCE(ent->sec.version),
		};
		/* Cannot fail: old's sections are all distinct. */
		if (WARN_ON_ONCE(sframe_link(sm, copy)))
			kfree(copy);
	}
	mutex_unlock(&sm->lock);
	return sm;
}

/**
 * sframe_dup_mm() - give a forked mm its parent's sections
 * @mm:		the child's mm
 * @oldmm:	the parent's mm
 *
 * Both mms are locked for writing (dup_mmap()).  The child shares the
 * parent's sections, which cost a reference, whatever their number,
 * unless fork left a mapping out (MADV_DONTFORK): then it gets a copy of
 * those whose whole text it has, and the vDSO only if it has it.
 *
 * Return: 0, or -ENOMEM.
 */
int sframe_dup_mm(struct mm_struct *mm, struct mm_struct *oldmm)
{
	struct sframe_mm *old = sframe_mm(oldmm), *sm;
	bool whole = mm->map_count == oldmm->map_count;

	mmap_assert_write_locked(oldmm);
	mmap_assert_write_locked(mm);
	if (!whole && mm->sframe_vdso && !vma_lookup(mm, mm->sframe_vdso))
		mm->sframe_vdso = 0;
	if (!old)
		return 0;
	if (whole) {
		refcount_inc(&old->users);
		rcu_assign_pointer(mm->sframe, old);
		return 0;
	}
	mutex_lock(&old->lock);
	sm = sframe_copy(old, mm);
	mutex_unlock(&old->lock);
	if (!sm)
		return -ENOMEM;
	rcu_assign_pointer(mm->sframe, sm);
	return 0;
}

/* Whether [start, end) overlaps mm's vDSO. */
static bool sframe_in_vdso(struct mm_struct *mm, unsigned long start,
			   unsigned long end)
{
	unsigned long vdso = READ_ONCE(mm->sframe_vdso);

	return vdso && start < vdso + sframe_vdso_sec.text_end && end > vdso;
}

/*
 * mm's sections, locked for a change and mm's own: if mm shares them,
 * a copy replaces them first, which needs the mmap lock held for
 * writing (@write).  The caller holds mm's mmap lock.  With @create, an
 * mm without sections gets them.
 *
 * mm->sframe changes only from NULL to new sections, or with the mmap
 * lock held for writing (a copy here, sframe_drop_all(), the mm's
 * end).  So while the mmap lock is held the sections it points to stay
 * mm's, and mm's reference keeps them: a thread may sleep on their
 * mutex, and /proc/PID/sframe read them.
 *
 * Return: the sections; NULL if mm has none (and not @create); or
 * ERR_PTR() of -ENOMEM, -EAGAIN if they are shared and not @write, or
 * -EINTR if a fatal signal came while waiting for the lock (only if
 * @killable).
 */
static struct sframe_mm *sframe_own(struct mm_struct *mm, bool create,
				    bool killable, bool write)
{
	struct sframe_mm *sm, *copy;

	if (write)
		mmap_assert_write_locked(mm);
	else
		mmap_assert_locked(mm);
	for (;;) {
		sm = sframe_mm(mm);
		if (!sm) {
			if (!create)
				return NULL;
			sm = sframe_mm_alloc();
			if (!sm)
				return ERR_PTR(-ENOMEM);
			/*
			 * Other threads register under the mmap lock for
			 * reading too; a full barrier publishes sm.
			 */
			if (cmpxchg((struct sframe_mm __force **)&mm->sframe,
				    NULL, sm)) {
				sframe_mm_destroy(sm);
				continue;
			}
		}
		if (!killable)
			mutex_lock(&sm->lock);
		else if (mutex_lock_killable(&sm->lock))
			return ERR_PTR(-EINTR);
		/* Only mm's own fork raises it from 1, under its mmap lock. */
		if (refcount_read(&sm->users) == 1)
			return sm;
		if (!write) {
			mutex_unlock(&sm->lock);
			return ERR_PTR(-EAGAIN);
		}
		copy = sframe_copy(sm, NULL);
		if (copy)
			rcu_assign_pointer(mm->sframe, copy);
		mutex_unlock(&sm->lock);
		if (!copy)
			return ERR_PTR(-ENOMEM);
		sframe_put(sm);
	}
}

/*
 * Drop all of mm's sections, where a change that must be made cannot be
 * for lack of memory for mm's own copy: its text is then unwound with
 * frame pointers, never with stale data.  Its mmap lock is held.
 */
static void sframe_drop_all(struct mm_struct *mm)
{
	struct sframe_mm *sm = sframe_mm(mm);

	mmap_assert_write_locked(mm);
	RCU_INIT_POINTER(mm->sframe, NULL);
	if (sm)
		sframe_put(sm);
}

/*
 * Whether the text of one of sm's sections overlaps [start, end).  sm is
 * mm's, whose mmap lock is held for writing: nothing changes it.  While
 * sm is mm's alone, it keeps the gap between sections that the last
 * search found, so that a process mapping and unmapping the same memory
 * again and again (malloc's large blocks) skips the search.  Only a new
 * section can fill a gap: sframe_link() forgets it.
 */
static bool sframe_unmap_overlaps(struct sframe_mm *sm, unsigned long start,
				  unsigned long end)
{
	/* Only mm's own fork raises it from 1, under its mmap lock. */
	bool own = refcount_read(&sm->users) == 1;
	struct rb_node *n = sm->text.rb_node;
	unsigned long lo = 0, hi = ULONG_MAX;

	if (own && start >= sm->unmap_gap.start && end <= sm->unmap_gap.end)
		return false;
	while (n) {
		const struct sframe_section *sec = &sframe_text_entry(n)->sec;

		if (sec->text_end <= start) {
			lo = sec->text_end;
			n = n->rb_right;
		} else if (sec->text_start >= end) {
			hi = sec->text_start;
			n = n->rb_left;
		} else {
			return true;
		}
	}
	if (own) {
		sm->unmap_gap.start = lo;
		sm->unmap_gap.end = hi;
	}
	return false;
}

/**
 * sframe_unmap() - drop the sections whose text an unmap touches
 * @mm:		the mm, its mmap lock held for writing
 * @start:	the start of the range being unmapped
 * @end:	its end (exclusive)
 *
 * Called on every munmap (not at an mmap that replaces nothing); cannot
 * fail.  It searches mm's sections without their lock (nothing changes
 * them while the mmap lock is held for writing) and takes it only to
 * drop one.
 */
void sframe_unmap(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct sframe_mm *sm = sframe_mm(mm);
	struct sframe_entry *ent, *next;

	mmap_assert_write_locked(mm);
	if (sframe_in_vdso(mm, start, end))
		WRITE_ONCE(mm->sframe_vdso, 0);
	if (!sm || !sframe_unmap_overlaps(sm, start, end))
		return;
	sm = sframe_own(mm, false, false, true);
	if (IS_ERR(sm)) {
		sframe_drop_all(mm);
		return;
	}
	for (ent = sframe_text_first(sm, start);
	     ent && ent->sec.text_start < end; ent = next) {
		next = sframe_text_next(ent);
		sframe_unlink(sm, ent);
	}
	mutex_unlock(&sm->lock);
}

/*
 * Lock the current process's sections for a change from a system call:
 * the mmap lock for reading, then sframe_own()'s.  Sections it shares
 * with another mm since a fork are copied first with the mmap lock held
 * for writing, which is then downgraded.
 */
static struct sframe_mm *sframe_lock(struct mm_struct *mm, bool create)
{
	struct sframe_mm *sm;

	if (mmap_read_lock_killable(mm))
		return ERR_PTR(-EINTR);
	sm = sframe_own(mm, create, true, false);
	if (sm == ERR_PTR(-EAGAIN)) {
		mmap_read_unlock(mm);
		if (mmap_write_lock_killable(mm))
			return ERR_PTR(-EINTR);
		sm = sframe_own(mm, create, true, true);
		if (!IS_ERR_OR_NULL(sm)) {
			mmap_write_downgrade(mm);
			return sm;
		}
		mmap_write_unlock(mm);
		return sm;
	}
	if (IS_ERR_OR_NULL(sm))
		mmap_read_unlock(mm);
	return sm;
}

static void sframe_unlock(struct mm_struct *mm, struct sframe_mm *sm)
{
	mutex_unlock(&sm->lock);
	mmap_read_unlock(mm);
}

/**
 * __sframe_new_entry() - a registration for the current process, not yet linked
 * @sframe_start:	start of the SFrame data
 * @sframe_end:		its end (exclusive)
 * @text_start:		start of the text it describes
 * @text_end:		its end (exclusive)
 *
 * Checks what needs neither a read nor a lock (the ranges, a size too
 * small for a header) and allocates the entry, before any lock is taken.
 * Reads nothing of the section: the unwinder reads and checks its header
 * each time it looks a rule up in it (sframe_unwind_rule()), so that a
 * process that is never profiled pays nothing for its SFrame data but
 * the registration itself.
 *
 * Return: the entry, for __sframe_link_entries(), or ERR_PTR() of -EINVAL
 * for an empty or inverted range, -EFAULT if the section is not in user
 * space, -ENOEXEC if it is shorter than an SFrame header, or -ENOMEM.
 */
static __always_inline struct sframe_entry *
__sframe_new_entry(unsigned long sframe_start, unsigned long sframe_end,
		   unsigned long text_start, unsigned long text_end)
{
	struct sframe_entry *ent;

	if (!current->mm || sframe_start >= sframe_end ||
	    text_start >= text_end)
		return ERR_PTR(-EINVAL);
	if (!access_ok((const void __user *)sframe_start,
		       sframe_end - sframe_start))
		return ERR_PTR(-EFAULT);
	if (sframe_end - sframe_start < sizeof(struct sframe_header))
		return ERR_PTR(-ENOEXEC);

	ent = kmalloc_obj(*ent, GFP_KERNEL_ACCOUNT);
	if (!ent)
		return ERR_PTR(-ENOMEM);
	ent->sec = (struct sframe_section) {
		.sframe_start	= sframe_start,
		.sframe_end	= sframe_end,
		.text_start	= text_start,
		.text_end	= text_end,
	};
	return ent;
}

/**
 * __sframe_link_entries() - add new entries to the current process's sections
 * @ents:	entries from __sframe_new_entry(), in the order to add them
 * @n:		how many
 * @linked:	set to how many were added
 *
 * Takes the locks once for all of them and adds them in order, up to the
 * first one refused; that one and those after it are freed.  What is
 * refused here is what the registry itself depends on: the text, which
 * must stay mapped for the section to stay, and the overlaps.
 *
 * Return: 0 if all were added, else why ents[*linked] was refused:
 * -ENXIO if its text is not wholly mapped, -EACCES if that is not
 * executable at either end, -EEXIST if it overlaps a registered
 * section's text or the vDSO's or starts where a section does, -ENOSPC past
 * SFRAME_MAX_SECTIONS, -ENOMEM, or -EINTR if a fatal signal came while
 * waiting for a lock (then none was added).
 */
static __always_inline int __sframe_link_entries(struct sframe_entry **ents,
						 unsigned int n,
						 unsigned int *linked)
{
	struct mm_struct *mm = current->mm;
	struct sframe_mm *sm;
	unsigned int i = 0;
	int ret;

	sm = sframe_lock(mm, true);
	ret = PTR_ERR_OR_ZERO(sm);
	if (!ret) {
		for (; i < n; i++) {
			const struct sframe_section *sec = &ents[i]->sec;

			ret = sframe_check_text(mm, sec->text_start,
						sec->text_end);
			if (!ret && sframe_in_vdso(mm, sec->text_start,
						   sec->text_end))
				ret = -EEXIST;
			if (!ret)
				ret = sframe_link(sm, ents[i]);
			if (ret)
				break;
		}
		sframe_unlock(mm, sm);
	}
	*linked = i;
	for (; i < n; i++)
		kfree(ents[i]);
	return ret;
}

/*
 * The two halves of a registration, for sframe_register_batch()
 * (sframe_syscall.c).  sframe_add_section() inlines them instead: one
 * registration is the common call, and costs about 40 instructions less
 * without the two calls and with the loops of a single entry folded.
 */
struct sframe_entry *sframe_new_entry(unsigned long sframe_start,
				      unsigned long sframe_end,
				      unsigned long text_start,
				      unsigned long text_end)
{
	return __sframe_new_entry(sframe_start, sframe_end, text_start,
				  text_end);
}

int sframe_link_entries(struct sframe_entry **ents, unsigned int n,
			unsigned int *linked)
{
	return __sframe_link_entries(ents, n, linked);
}

/**
 * sframe_add_section() - register a section for the current process
 * @sframe_start:	start of the SFrame data
 * @sframe_end:		its end (exclusive)
 * @text_start:		start of the text it describes
 * @text_end:		its end (exclusive)
 *
 * Return: 0, or an error of __sframe_new_entry() or __sframe_link_entries().
 */
int sframe_add_section(unsigned long sframe_start, unsigned long sframe_end,
		       unsigned long text_start, unsigned long text_end)
{
	struct sframe_entry *ent;
	unsigned int linked;

	ent = __sframe_new_entry(sframe_start, sframe_end, text_start,
				 text_end);
	if (IS_ERR(ent))
		return PTR_ERR(ent);
	return __sframe_link_entries(&ent, 1, &linked);
}

/**
 * sframe_vdso_init() - find the vDSO's SFrame section, once, at boot
 * @image:	the vDSO image, an ELF object linked at 0
 * @size:	the image's size, all mapped as text
 *
 * For the architecture's vDSO setup.  The section is found from the
 * image's PT_GNU_SFRAME and its header checked here, in the kernel's
 * copy, which user space maps read-only: each mm then only notes where
 * its vDSO is (sframe_map_vdso()), and the unwinder takes the section
 * from here.  An image without SFrame data leaves the vDSO to the
 * frame-pointer unwinder.
 */
void __init sframe_vdso_init(const void *image, unsigned long size)
{
	const struct elf64_hdr *eh = image;
	const struct elf64_phdr *ph = NULL;
	struct sframe_section sec = {};
	unsigned int i;
	int ret;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phentsize != sizeof(*ph) || eh->e_phoff > size ||
	    eh->e_phnum > (size - eh->e_phoff) / sizeof(*ph))
		return;
	for (i = 0; i < eh->e_phnum; i++) {
		ph = image + eh->e_phoff + i * sizeof(*ph);
		if (ph->p_type == PT_GNU_SFRAME && ph->p_memsz)
			break;
	}
	/* The image is mapped as it is: an address in it is its offset. */
	if (i == eh->e_phnum || ph->p_offset != ph->p_vaddr ||
	    ph->p_vaddr > size || ph->p_memsz > size - ph->p_vaddr)
		return;

	sec.sframe_start = ph->p_vaddr;
	sec.sframe_end = sec.sframe_start + ph->p_memsz;
	sec.text_end = size;
	ret = sframe_parse_header(&sec, image + ph->p_vaddr,
				  UNWIND_USER_SFRAME_ABI);
	if (ret) {
		pr_warn("sframe: the vDSO's section is not valid: %d\n", ret);
		return;
	}
	sframe_vdso_sec = sec;
}

/**
 * sframe_map_vdso() - note where an mm's vDSO is
 * @mm:		the mm, its mmap lock held for writing
 * @base:	where the vDSO's text is mapped
 *
 * For the architecture's vDSO mapping and its move by mremap.  The note
 * goes when any of the vDSO is unmapped (sframe_unmap()), moved
 * included.
 */
void sframe_map_vdso(struct mm_struct *mm, unsigned long base)
{
	mmap_assert_write_locked(mm);
	if (sframe_vdso_sec.text_end)
		WRITE_ONCE(mm->sframe_vdso, base);
}

/**
 * sframe_remove_section() - withdraw a section of the current process
 * @sframe_start:	the start it was registered with
 *
 * Return: 0, -ENOENT if the process has no section there (never
 * registered, already withdrawn, or dropped because its text was
 * unmapped), -ENOMEM if the process shares its sections with another
 * (a fork) and no copy of its own could be made (unmapping the text
 * still drops the section), or -EINTR if a fatal signal came while
 * waiting for a lock.
 */
int sframe_remove_section(unsigned long sframe_start)
{
	struct mm_struct *mm = current->mm;
	struct sframe_mm *sm;
	struct rb_node *n;

	if (!mm)
		return -EINVAL;
	sm = sframe_lock(mm, false);
	if (IS_ERR_OR_NULL(sm))
		return sm ? PTR_ERR(sm) : -ENOENT;
	n = rb_find((void *)sframe_start, &sm->data, sframe_data_cmp_key);
	if (n)
		sframe_unlink(sm, sframe_data_entry(n));
	sframe_unlock(mm, sm);
	return n ? 0 : -ENOENT;
}

/**
 * current_has_sframe() - whether the current process registered sections
 *
 * Return: true if it has at least one.
 */
bool current_has_sframe(void)
{
	struct mm_struct *mm = current->mm;
	struct sframe_mm *sm;
	bool ret;

	if (READ_ONCE(mm->sframe_vdso))
		return true;
	rcu_read_lock();
	sm = sframe_mm(mm);
	ret = sm && READ_ONCE(sm->nr);
	rcu_read_unlock();
	return ret;
}
