/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SFrame sections of one mm (sframe.c), as /proc/PID/sframe
 * (sframe_proc.c) walks them.
 */
#ifndef _KERNEL_UNWIND_SFRAME_MM_H
#define _KERNEL_UNWIND_SFRAME_MM_H

#include <linux/list.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/rcupdate.h>
#include <linux/seqlock.h>

#include "sframe.h"

/* log2 of the buckets struct sframe_mm holds itself, before it grows. */
#define SFRAME_DATA_MIN_BITS	4

/* A registered section, in each of its mm's indexes. */
struct sframe_entry {
	struct rb_node		text_node;	/* sframe_mm.text */
	struct hlist_node	data_node;	/* sframe_mm.data */
	struct rcu_head		rcu;
	struct sframe_section	sec;
};

/*
 * mm->sframe, allocated at the first registration and freed with the mm.
 *
 * @text is an rbtree of the sections by text range (which never
 * overlap).  The unwinder searches it under RCU without a lock
 * (rb_find_rcu()), retrying while @text_seq says it changed meanwhile,
 * as uprobes searches its tree; those who change the sections or hold
 * what a change needs walk it in order (the overlap check, munmap, fork
 * and /proc).  @data is a hash table of them by section start, for
 * withdrawal, with 1 << @data_bits buckets: @data_min at first, then,
 * when the sections would outnumber its buckets, an allocated table with
 * the next power of two at or above their number (at most
 * SFRAME_MAX_SECTIONS), so that finding one takes the same time however
 * many are registered.  The table never shrinks: withdrawals leave it as
 * it is.  No index allocates to add or drop a section (a registration
 * allocates the larger table before it takes a lock), so unmapping text
 * drops its section without allocating.
 *
 * The process chooses the section starts, and the hash of one is
 * hash_long() of it mixed with @data_seed, drawn at random for each
 * mm, so that a process cannot make one bucket hold most of its
 * sections.  (The mix is not a keyed hash: starts chosen to differ only
 * in some bits keep their pattern under any seed, which can make the
 * buckets a few times longer than for starts at random, not more.)
 *
 * Changes are made either with the mmap lock held for writing (munmap,
 * fork, the vDSO's registration), or with it held for reading and @lock
 * held (registration, withdrawal: page faults of other threads go on
 * meanwhile).  A walk
 * (/proc/PID/sframe) holds the mmap lock for reading and @lock.
 *
 * @gen is set when @text is changed, after the change, and is never 0 nor
 * the same for two states of any two mms: an unwind result cached under
 * it is valid while it is unchanged.
 */
struct sframe_mm {
	struct rb_root		text;
	seqcount_t		text_seq;
	struct hlist_head	*data;
	unsigned long		data_seed;
	unsigned int		data_bits;
	struct mutex		lock;	/* see above */
	unsigned int		nr;
	u64			gen;
	struct hlist_head	data_min[1 << SFRAME_DATA_MIN_BITS];
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

struct sframe_entry *sframe_new_entry(unsigned long sframe_start,
				      unsigned long sframe_end,
				      unsigned long text_start,
				      unsigned long text_end);
int sframe_link_entries(struct sframe_entry **ents, unsigned int n,
			unsigned int *linked);

#endif /* _KERNEL_UNWIND_SFRAME_MM_H */
