/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SFrame sections of one mm (sframe.c), as /proc/PID/sframe
 * (sframe_proc.c) walks them.
 */
#ifndef _KERNEL_UNWIND_SFRAME_MM_H
#define _KERNEL_UNWIND_SFRAME_MM_H

#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/rbtree_latch.h>
#include <linux/rcupdate.h>

#include "sframe.h"

/* A registered section, in both of its mm's indexes. */
struct sframe_entry {
	struct latch_tree_node	text_node;	/* sframe_mm.text */
	struct rb_node		data_node;	/* sframe_mm.data */
	struct rcu_head		rcu;
	struct sframe_section	sec;
};

/*
 * mm->sframe, allocated at the first registration and freed with the mm.
 *
 * @text indexes the sections by text range (which never overlap), for
 * the unwinder's lookup under RCU and for walks in address order; @data
 * indexes them by section start, for withdrawal.  Neither allocates, so
 * unmapping text drops its section without allocating.
 *
 * Changes are made either with the mmap lock held for writing (munmap,
 * fork), or with it held for reading and @lock held (registration,
 * withdrawal: page faults of other threads go on meanwhile).  A walk
 * (/proc/PID/sframe) holds the mmap lock for reading and @lock.
 *
 * @gen is set when @text is changed, after the change, and is never 0 nor
 * the same for two states of any two mms: an unwind result cached under
 * it is valid while it is unchanged.
 */
struct sframe_mm {
	struct latch_tree_root	text;
	struct rb_root		data;
	struct mutex		lock;	/* see above */
	unsigned int		nr;
	u64			gen;
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
struct sframe_entry *sframe_text_next(struct sframe_entry *ent);

#endif /* _KERNEL_UNWIND_SFRAME_MM_H */
