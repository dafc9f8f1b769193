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
#include <linux/seqlock.h>

#include "sframe.h"

/* A registered section, in both trees of its mm. */
struct sframe_entry {
	struct rb_node		text_node;	/* sframe_mm.text */
	struct rb_node		data_node;	/* sframe_mm.data */
	struct rcu_head		rcu;
	struct sframe_section	sec;
};

struct sframe_rules;

/*
 * mm->sframe, allocated at the first registration and freed with the mm.
 *
 * @text is an rbtree of the sections by text range (the ranges never
 * overlap), @data one by section start, which a withdrawal names.  Their
 * nodes are embedded in the entry: adding or dropping a section
 * allocates nothing, so munmap drops sections without allocating.  Both
 * trees are changed only with @lock held, and, until the mm is freed,
 * with the mmap lock held: for reading by registration and withdrawal
 * (page faults of other threads go on meanwhile), for writing by munmap,
 * fork and the vDSO's registration.  Lock order: the mmap lock, then
 * @lock.
 *
 * The unwinder searches @text without a lock, in an RCU read-side
 * critical section (rb_find_rcu(); entries are freed after a grace
 * period), retrying while @text_seq says it changed meanwhile, as
 * uprobes searches its tree: a search that races with a rotation may
 * miss, never find a wrong section.  It keeps the rules it found in
 * @rules (sframe_unwind.c) while @changes, which every change of the
 * sections increments, stays the same.  All of it is this mm's own:
 * nothing is written that another process reads.
 */
struct sframe_mm {
	struct rb_root		text;
	seqcount_t		text_seq;	/* written under @lock */
	struct rb_root		data;
	struct mutex		lock;
	unsigned int		nr;	/* sections; written under @lock */
	unsigned long		changes;	/* from 1; see above */
	struct sframe_rules	*rules;		/* NULL until first used */
};

/* mm's sections, or NULL. */
static inline struct sframe_mm *sframe_mm(struct mm_struct *mm)
{
	/*
	 * mm->sframe is set once, with release order (sframe_mm_get()):
	 * acquire order makes its initialisation visible.
	 */
	return mm ? smp_load_acquire(&mm->sframe) : NULL;
}

struct sframe_entry *sframe_text_lookup(struct sframe_mm *sm,
					unsigned long ip);
struct sframe_entry *sframe_text_first(struct sframe_mm *sm,
				       unsigned long addr);

struct sframe_entry *sframe_new_entry(unsigned long sframe_start,
				      unsigned long sframe_end,
				      unsigned long text_start,
				      unsigned long text_end);
int sframe_link_entries(struct sframe_entry **ents, unsigned int n,
			unsigned int *linked);

#endif /* _KERNEL_UNWIND_SFRAME_MM_H */
