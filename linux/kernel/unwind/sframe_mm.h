/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SFrame sections of one mm, kept by sframe.c, for the code that
 * reads them.
 */
#ifndef _KERNEL_UNWIND_SFRAME_MM_H
#define _KERNEL_UNWIND_SFRAME_MM_H

#include <linux/maple_tree.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>

#include "sframe.h"

/* A registered section. */
struct sframe_entry {
	struct rcu_head		rcu;
	struct sframe_section	sec;
};

struct sframe_rules;

/*
 * mm->sframe, allocated at the first registration and freed with the mm.
 *
 * @text maps each section's text range to its entry (the ranges never
 * overlap), and @data its section start, which a withdrawal names.
 * Both trees are changed only with @lock held, which they take as their
 * external lock so that lockdep checks it, and with the mmap lock held:
 * for reading by registration and withdrawal (page faults of other
 * threads go on meanwhile), for writing by munmap, fork and the vDSO's
 * registration.  Lock order: the mmap lock, then @lock.
 *
 * The unwinder looks @text up without a lock, in an RCU read-side
 * critical section (the tree is in RCU mode, entries are freed after a
 * grace period), and keeps the rules it found in @rules
 * (sframe_unwind.c) while @changes, which every change of the sections
 * increments, stays the same.  Both are this mm's own: nothing is
 * written that another process reads.
 */
struct sframe_mm {
	struct maple_tree	text;
	struct maple_tree	data;
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

/*
 * The section whose text covers ip, or NULL.  The caller is in an RCU
 * read-side critical section, and the section may be dropped as soon as
 * it leaves it.
 */
static inline struct sframe_entry *sframe_text_lookup(struct sframe_mm *sm,
						      unsigned long ip)
{
	RCU_LOCKDEP_WARN(!rcu_read_lock_held(),
			 "sframe_text_lookup() outside an RCU read-side section");
	return mtree_load(&sm->text, ip);
}

struct sframe_entry *sframe_new_entry(unsigned long sframe_start,
				      unsigned long sframe_end,
				      unsigned long text_start,
				      unsigned long text_end);
int sframe_link_entries(struct sframe_entry **ents, unsigned int n,
			unsigned int *linked);

#endif /* _KERNEL_UNWIND_SFRAME_MM_H */
