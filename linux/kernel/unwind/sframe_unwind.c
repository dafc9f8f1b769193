// SPDX-License-Identifier: GPL-2.0
/*
 * The user unwinder's SFrame lookup for the current task: the frame
 * rule for an address.  It takes no lock: the sections are found under
 * RCU (sframe.c's rbtree, searched without a lock), and the rules found
 * last are remembered per mm.
 */
#include <linux/hash.h>
#include <linux/sched.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sframe.h>
#include <linux/unwind_user.h>

#include "sframe.h"
#include "sframe_format.h"
#include "sframe_mm.h"

/*
 * The rules found last in an mm, by address: the same return addresses
 * come back at every sample of a hot path.  An entry is valid while its
 * mm's sections are unchanged (sframe_mm.changes, which starts at 1, so
 * that an unused entry never matches).  A registered section must not
 * change after registration (the documentation says so): a rule read
 * from it is remembered.
 *
 * The threads of the mm look rules up together without a lock, under a
 * sequence count, and put one with @lock held: a hot path only reads.
 * Each address may be kept in any of the SFRAME_CACHE_WAYS entries of
 * its set, so that a few return addresses of a hot path that hash
 * alike do not evict each other at every sample, whatever addresses
 * the objects were mapped at.  More hot addresses than that in one set
 * still miss in turn.
 */
#define SFRAME_CACHE_SET_BITS	4
#define SFRAME_CACHE_WAYS	4

struct sframe_rule {
	unsigned long		changes;
	unsigned long		ip;
	struct unwind_user_frame frame;
	int			ret;
};

struct sframe_rules {
	spinlock_t		lock;
	seqcount_spinlock_t	seq;
	struct {
		struct sframe_rule	way[SFRAME_CACHE_WAYS];
		unsigned int		next;	/* the way to replace next */
	} set[1 << SFRAME_CACHE_SET_BITS];
};

/*
 * sm's rules, allocated at the first lookup: NULL if out of memory (then
 * nothing is remembered).
 */
static struct sframe_rules *sframe_rules(struct sframe_mm *sm)
{
	/* Acquire order: see the release that publishes them below. */
	struct sframe_rules *rules = smp_load_acquire(&sm->rules), *old;

	if (rules)
		return rules;
	rules = kzalloc_obj(*rules, GFP_KERNEL_ACCOUNT);
	if (!rules)
		return NULL;
	spin_lock_init(&rules->lock);
	seqcount_spinlock_init(&rules->seq, &rules->lock);
	/* Release order publishes the initialisation. */
	old = cmpxchg_release(&sm->rules, NULL, rules);
	if (old) {
		kfree(rules);
		return old;
	}
	return rules;
}

static bool sframe_rules_get(struct sframe_rules *rules, unsigned long changes,
			     unsigned long ip, struct unwind_user_frame *frame,
			     int *ret)
{
	const struct sframe_rule *way;
	unsigned int seq;
	bool hit;
	int i;

	if (!rules)
		return false;
	way = rules->set[hash_long(ip, SFRAME_CACHE_SET_BITS)].way;
	do {
		seq = read_seqcount_begin(&rules->seq);
		hit = false;
		for (i = 0; i < SFRAME_CACHE_WAYS; i++) {
			if (way[i].changes == changes && way[i].ip == ip) {
				*frame = way[i].frame;
				*ret = way[i].ret;
				hit = true;
				break;
			}
		}
	} while (read_seqcount_retry(&rules->seq, seq));
	return hit;
}

/*
 * Remember a rule: in the entry that has it already (another thread
 * may have put it meanwhile), else in an entry not valid any more (still
 * unused, or of sections since changed), else in the set's entries in
 * turn.
 */
static void sframe_rules_put(struct sframe_rules *rules, unsigned long changes,
			     unsigned long ip,
			     const struct unwind_user_frame *frame, int ret)
{
	unsigned int set = hash_long(ip, SFRAME_CACHE_SET_BITS);
	struct sframe_rule *way;
	int i, stale = -1;

	if (!rules)
		return;
	way = rules->set[set].way;
	spin_lock(&rules->lock);
	write_seqcount_begin(&rules->seq);
	for (i = 0; i < SFRAME_CACHE_WAYS; i++) {
		if (way[i].changes == changes && way[i].ip == ip)
			break;
		if (way[i].changes != changes && stale < 0)
			stale = i;
	}
	if (i == SFRAME_CACHE_WAYS) {
		if (stale >= 0) {
			i = stale;
		} else {
			i = rules->set[set].next;
			rules->set[set].next = (i + 1) % SFRAME_CACHE_WAYS;
		}
	}
	way[i].changes = changes;
	way[i].ip = ip;
	way[i].frame = *frame;
	way[i].ret = ret;
	write_seqcount_end(&rules->seq);
	spin_unlock(&rules->lock);
}

/*
 * Note in the registered entry of sec what its header was found to be,
 * if that is news (it was @was when sec was copied from it): its
 * version, or SFRAME_HEADER_REFUSED.  The entry is found again, as it may
 * have been withdrawn while the header was read.
 */
static void sframe_note_header(struct sframe_mm *sm,
			       const struct sframe_section *sec, u8 was, u8 now)
{
	struct sframe_entry *ent;

	if (was == now)
		return;
	rcu_read_lock();
	ent = sframe_text_lookup(sm, sec->text_start);
	if (ent && ent->sec.sframe_start == sec->sframe_start)
		WRITE_ONCE(ent->sec.version, now);
	rcu_read_unlock();
}

/**
 * sframe_unwind_rule() - the frame rule for an address of the current task
 * @ip:		the user address to unwind from
 * @frame:	filled in with the rule on success
 * @rows:	frame row entries this unwind may still scan (see
 *		sframe_read_rule())
 *
 * Finds the section covering @ip without a lock (RCU), reads its header,
 * then the rule in it; or the answer found for @ip last time while the
 * sections are the same (-ENOENT included).  May fault and sleep.
 *
 * Return: as sframe_read_rule(), except that -ENOENT means that no
 * section covers @ip, or that the one that does has a header this kernel
 * does not take (sframe_read_header()): where a section's text covers
 * @ip but none of its functions does (PLT stubs, code without CFI such
 * as crt glue), the answer is -ENODATA.  The object has SFrame data, so its frame pointer
 * is no guide there either.
 */
int sframe_unwind_rule(unsigned long ip, struct unwind_user_frame *frame,
		       unsigned int *rows)
{
	struct sframe_mm *sm = sframe_mm(current->mm);
	struct sframe_section sec = {};
	struct sframe_rules *rules;
	struct sframe_entry *ent;
	unsigned long changes;
	u8 header = 0;
	int ret;

	if (!sm)
		return -ENOENT;
	/* Acquire order: what is looked up after it is at least this new. */
	changes = smp_load_acquire(&sm->changes);
	rules = sframe_rules(sm);
	if (sframe_rules_get(rules, changes, ip, frame, &ret))
		return ret;

	rcu_read_lock();
	ent = sframe_text_lookup(sm, ip);
	if (ent) {
		sec.sframe_start = ent->sec.sframe_start;
		sec.sframe_end = ent->sec.sframe_end;
		sec.text_start = ent->sec.text_start;
		sec.text_end = ent->sec.text_end;
		header = READ_ONCE(ent->sec.version);
	}
	rcu_read_unlock();
	if (!ent) {
		/* Left to frame pointers, as long as the sections stay. */
		sframe_rules_put(rules, changes, ip, frame, -ENOENT);
		return -ENOENT;
	}
	/*
	 * Registration read nothing of the section: its header is checked
	 * here, where faulting is allowed.  A section that is not one this
	 * kernel reads (a later version, another ABI, garbage) is treated
	 * as no section: its text is left to frame pointers, as it was
	 * when such a section was refused at registration.  What was found
	 * is noted in the entry, for /proc/PID/sframe.
	 */
	ret = sframe_read_header(&sec, UNWIND_USER_SFRAME_ABI);
	if (ret == -ENOEXEC || !ret)
		sframe_note_header(sm, &sec, header,
				   ret ? SFRAME_HEADER_REFUSED : sec.version);
	if (ret == -ENOEXEC) {
		sframe_rules_put(rules, changes, ip, frame, -ENOENT);
		return -ENOENT;
	}
	if (!ret)
		ret = sframe_read_rule(&sec, ip, frame, rows);
	if (ret == -ENOENT)
		ret = -ENODATA;
	/* Not what may change while the sections do not. */
	if (ret != -EFAULT && ret != -E2BIG && ret != -EINTR)
		sframe_rules_put(rules, changes, ip, frame, ret);
	return ret;
}
