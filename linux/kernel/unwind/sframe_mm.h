/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SFrame sections of one mm, kept by sframe.c, for the code that
 * reads them.
 */
#ifndef _KERNEL_UNWIND_SFRAME_MM_H
#define _KERNEL_UNWIND_SFRAME_MM_H

#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/seqlock.h>

#include "sframe.h"

/* A registered section, in both trees of its sframe_mm. */
struct sframe_entry {
	struct rb_node		text_node;	/* sframe_mm.text */
	struct rb_node		data_node;	/* sframe_mm.data */
	struct rcu_head		rcu;
	struct sframe_section	sec;
};

/*
 * mm->sframe: the sections of one mm, or of several.  Allocated at the
 * first registration; a fork gives the child the parent's by reference
 * (@users), and the first change in any of them gives that mm its own
 * copy (sframe.c), so that a fork costs the same however many objects
 * the process loaded.  While @users > 1 nothing changes it; freed, after
 * a grace period, by the last mm that drops it.
 *
 * @text is an rbtree of the sections by text range (the ranges never
 * overlap), @data one by section start, which a withdrawal names.  Their
 * nodes are embedded in the entry: dropping a section allocates
 * nothing.  Both trees are changed only by their one mm, with @lock held
 * and the mmap lock held: for reading by registration and withdrawal
 * (page faults of other threads go on meanwhile), for writing by munmap.
 * Lock order: the mmap lock, then @lock.  So a reader who holds the mmap
 * lock for writing (munmap) needs no other lock to search them.
 *
 * The unwinder searches @text without a lock, in an RCU read-side
 * critical section (rb_find_rcu(); entries and the sframe_mm itself are
 * freed after a grace period), retrying while @text_seq says it changed
 * meanwhile: a search that races with a rotation may miss, never find a
 * wrong section.  A plain seqcount_t, not a seqcount_mutex_t: on
 * PREEMPT_RT a reader of the latter takes the mutex when it sees a
 * write in progress, which a reader in an RCU read-side section must not
 * do; its writers instead disable preemption.  (uprobes' tree has a
 * seqcount_rwlock_t: its readers hold rcu_read_lock_trace(), under
 * which that may sleep.)
 *
 * @generation identifies what the sections are: a number from a global
 * counter, new at each change and for each copy, so that the rules a
 * task remembers (sframe_unwind.c) are valid while it is the same.
 */
struct sframe_mm {
	struct rb_root		text;
	seqcount_t		text_seq;	/* written under @lock */
	struct rb_root		data;
	struct mutex		lock;
	unsigned int		nr;	/* sections; written under @lock */
	refcount_t		users;	/* mms that have it as mm->sframe */
	unsigned long		generation;	/* see above */
	struct {
		unsigned long	start, end;
	} unmap_gap;	/* no text in it: sframe.c's sframe_unmap_overlaps() */
	struct rcu_head		rcu;
};

/* The vDSO's section (sframe.c), its addresses relative to its base. */
extern struct sframe_section sframe_vdso_sec;

/*
 * mm's sections, or NULL: in an RCU read-side critical section, or with
 * mm's mmap lock held (every change of mm->sframe holds it).
 */
static inline struct sframe_mm *sframe_mm(struct mm_struct *mm)
{
	return rcu_dereference_check(mm->sframe,
				     lockdep_is_held(&mm->mmap_lock));
}

struct unwind_user_gap;

struct sframe_entry *sframe_text_lookup(struct sframe_mm *sm,
					unsigned long ip,
					struct unwind_user_gap *gap);
struct sframe_entry *sframe_text_first(struct sframe_mm *sm,
				       unsigned long addr);

struct sframe_entry *sframe_new_entry(unsigned long sframe_start,
				      unsigned long sframe_end,
				      unsigned long text_start,
				      unsigned long text_end);
int sframe_link_entries(struct sframe_entry **ents, unsigned int n,
			unsigned int *linked);

#endif /* _KERNEL_UNWIND_SFRAME_MM_H */
