// SPDX-License-Identifier: GPL-2.0
/*
 * The user unwinder's SFrame lookup for the current task: the frame
 * rule for an address.  It takes no lock: the sections are found under
 * RCU (sframe.c's rbtree, searched without a lock), and the rules found
 * last are remembered per CPU.
 */
#include <linux/hash.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sframe.h>
#include <linux/unwind_user.h>

#include "sframe.h"
#include "sframe_format.h"
#include "sframe_mm.h"

/*
 * The rules found last on this CPU, by address: the same return
 * addresses come back at every sample of a hot path.  An entry is valid
 * while its mm's sections are unchanged (gen, never 0, so an unused
 * entry never matches).  The deferred unwinder may sleep between
 * lookups, so each access is made with preemption off and copies the
 * entry.  A registered section must not change after registration (the
 * documentation says so): a rule read from it is remembered.
 *
 * Each address may be kept in any of the SFRAME_CACHE_WAYS entries of
 * its set, so that a few return addresses of a hot path that hash
 * alike do not evict each other at every sample, whatever addresses
 * the objects were mapped at.  More hot addresses than that in one set
 * still miss in turn.
 */
#define SFRAME_CACHE_SET_BITS	4
#define SFRAME_CACHE_WAYS	4

struct sframe_cache_entry {
	u64			gen;
	unsigned long		ip;
	struct unwind_user_frame frame;
	int			ret;
};

struct sframe_cache_set {
	struct sframe_cache_entry way[SFRAME_CACHE_WAYS];
	unsigned int		next;	/* the way to replace next */
};

struct sframe_cache {
	struct sframe_cache_set set[1 << SFRAME_CACHE_SET_BITS];
};

static DEFINE_PER_CPU(struct sframe_cache, sframe_cache);

/* The generation of sm's sections, to key the cache with. */
static u64 sframe_gen(struct sframe_mm *sm)
{
	/* Acquire order: what is looked up after it is at least this new. */
	return smp_load_acquire(&sm->gen);
}

/* ip's set on this CPU; the caller has preemption off. */
static struct sframe_cache_set *sframe_cache_set(unsigned long ip)
{
	struct sframe_cache *cache = this_cpu_ptr(&sframe_cache);

	return &cache->set[hash_long(ip, SFRAME_CACHE_SET_BITS)];
}

static bool sframe_cache_get(u64 gen, unsigned long ip,
			     struct unwind_user_frame *frame, int *ret)
{
	struct sframe_cache_set *set;
	bool hit = false;
	int i;

	preempt_disable();
	set = sframe_cache_set(ip);
	for (i = 0; i < SFRAME_CACHE_WAYS; i++) {
		const struct sframe_cache_entry *e = &set->way[i];

		if (e->gen == gen && e->ip == ip) {
			*frame = e->frame;
			*ret = e->ret;
			hit = true;
			break;
		}
	}
	preempt_enable();
	return hit;
}

/*
 * Remember a rule: in the entry that has it already (another thread of
 * the mm may have put it while this one slept), else in an unused
 * entry, else in the set's entries in turn.  Entries of another mm, or
 * of sections since changed, are not taken first: two processes
 * profiled on one CPU would then take each other's entry at every
 * switch while the set's other entries stayed unused.
 */
static void sframe_cache_put(u64 gen, unsigned long ip,
			     const struct unwind_user_frame *frame, int ret)
{
	struct sframe_cache_set *set;
	struct sframe_cache_entry *e;
	int i, unused = -1;

	preempt_disable();
	set = sframe_cache_set(ip);
	for (i = 0; i < SFRAME_CACHE_WAYS; i++) {
		e = &set->way[i];
		if (e->gen == gen && e->ip == ip)
			break;
		if (!e->gen && unused < 0)
			unused = i;
	}
	if (i == SFRAME_CACHE_WAYS) {
		if (unused >= 0) {
			i = unused;
		} else {
			i = set->next;
			set->next = (i + 1) % SFRAME_CACHE_WAYS;
		}
	}
	e = &set->way[i];
	e->gen = gen;
	e->ip = ip;
	e->frame = *frame;
	e->ret = ret;
	preempt_enable();
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
 * @ip but none of its
 * functions does (PLT stubs, code without CFI such as crt glue), the
 * answer is -ENODATA.  The object has SFrame data, so its frame pointer
 * is no guide there either.
 */
int sframe_unwind_rule(unsigned long ip, struct unwind_user_frame *frame,
		       unsigned int *rows)
{
	struct sframe_mm *sm = sframe_mm(current->mm);
	struct sframe_section sec = {};
	struct sframe_entry *ent;
	u8 header = 0;
	u64 gen;
	int ret;

	if (!sm)
		return -ENOENT;
	gen = sframe_gen(sm);
	if (sframe_cache_get(gen, ip, frame, &ret))
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
		sframe_cache_put(gen, ip, frame, -ENOENT);
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
		sframe_cache_put(gen, ip, frame, -ENOENT);
		return -ENOENT;
	}
	if (!ret)
		ret = sframe_read_rule(&sec, ip, frame, rows);
	if (ret == -ENOENT)
		ret = -ENODATA;
	/* Not what may change while the sections do not. */
	if (ret != -EFAULT && ret != -E2BIG && ret != -EINTR)
		sframe_cache_put(gen, ip, frame, ret);
	return ret;
}
