// SPDX-License-Identifier: GPL-2.0
/*
 * The user unwinder's SFrame lookups for the current task: whether an
 * address is in registered text, and the frame rule for an address.
 * Neither takes a lock: the sections are found under RCU (sframe.c's
 * latch tree), and the rules found last are remembered per CPU.
 */
#include <linux/hash.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sframe.h>
#include <linux/unwind_user.h>

#include "sframe.h"
#include "sframe_mm.h"

/*
 * The rules found last on this CPU, by address: the same return
 * addresses come back at every sample of a hot path.  An entry is valid
 * while its mm's sections are unchanged (gen, never 0, so an unused
 * entry never matches).  The deferred unwinder may sleep between
 * lookups, so each access is made with preemption off and copies the
 * entry.  A registered section must not change after registration (the
 * documentation says so): a rule read from it is remembered.
 */
#define SFRAME_CACHE_BITS	6

struct sframe_cache_entry {
	u64			gen;
	unsigned long		ip;
	struct unwind_user_frame frame;
	int			ret;
};

struct sframe_cache {
	struct sframe_cache_entry ent[1 << SFRAME_CACHE_BITS];
};

static DEFINE_PER_CPU(struct sframe_cache, sframe_cache);

/* The generation of sm's sections, to key the cache with. */
static u64 sframe_gen(struct sframe_mm *sm)
{
	/* Acquire order: what is looked up after it is at least this new. */
	return smp_load_acquire(&sm->gen);
}

static bool sframe_cache_get(u64 gen, unsigned long ip,
			     struct unwind_user_frame *frame, int *ret)
{
	struct sframe_cache_entry *e;
	bool hit;

	preempt_disable();
	e = &this_cpu_ptr(&sframe_cache)->ent[hash_long(ip, SFRAME_CACHE_BITS)];
	hit = e->gen == gen && e->ip == ip;
	if (hit) {
		*frame = e->frame;
		*ret = e->ret;
	}
	preempt_enable();
	return hit;
}

static void sframe_cache_put(u64 gen, unsigned long ip,
			     const struct unwind_user_frame *frame, int ret)
{
	struct sframe_cache_entry *e;

	preempt_disable();
	e = &this_cpu_ptr(&sframe_cache)->ent[hash_long(ip, SFRAME_CACHE_BITS)];
	e->gen = gen;
	e->ip = ip;
	e->frame = *frame;
	e->ret = ret;
	preempt_enable();
}

/**
 * sframe_text_registered() - whether a return address is in registered text
 * @ip:	a return address in the current process
 *
 * Registered text was mapped without holes and executable at both ends
 * when it was registered, and its section is dropped when any of it is
 * unmapped: an address inside it is inside the object's text, with no
 * VMA to look up.  The unwinder looks return addresses up one byte back
 * (a call may end a function), so the rule it remembers for @ip - 1
 * answers first.  Takes no lock.
 *
 * Return: true if a section of the current process covers @ip, or
 * @ip - 1 (the address after a call at the very end of the text).
 */
bool sframe_text_registered(unsigned long ip)
{
	struct sframe_mm *sm = sframe_mm(current->mm);
	struct unwind_user_frame frame;
	bool found;
	int ret;

	if (!sm)
		return false;
	if (sframe_cache_get(sframe_gen(sm), ip - 1, &frame, &ret))
		return ret != -ENOENT;
	rcu_read_lock();
	found = sframe_text_lookup(sm, ip);
	rcu_read_unlock();
	return found;
}

/**
 * sframe_unwind_rule() - the frame rule for an address of the current task
 * @ip:		the user address to unwind from
 * @frame:	filled in with the rule on success
 * @rows:	frame row entries this unwind may still scan (see
 *		sframe_read_rule())
 *
 * Finds the section covering @ip without a lock (RCU), then the rule in
 * it, or the answer found for @ip last time while the sections are the
 * same (-ENOENT included).  May fault and sleep.
 *
 * Return: as sframe_read_rule(), except that -ENOENT means that no
 * section covers @ip: where a section's text covers @ip but none of its
 * functions does (PLT stubs, code without CFI such as crt glue), the
 * answer is -ENODATA.  The object has SFrame data, so its frame pointer
 * is no guide there either.
 */
int sframe_unwind_rule(unsigned long ip, struct unwind_user_frame *frame,
		       unsigned int *rows)
{
	struct sframe_mm *sm = sframe_mm(current->mm);
	struct sframe_section sec;
	struct sframe_entry *ent;
	u64 gen;
	int ret;

	if (!sm)
		return -ENOENT;
	gen = sframe_gen(sm);
	if (sframe_cache_get(gen, ip, frame, &ret))
		return ret;

	rcu_read_lock();
	ent = sframe_text_lookup(sm, ip);
	if (ent)
		sec = ent->sec;
	rcu_read_unlock();
	if (!ent) {
		/* Left to frame pointers, as long as the sections stay. */
		sframe_cache_put(gen, ip, frame, -ENOENT);
		return -ENOENT;
	}
	ret = sframe_read_rule(&sec, ip, frame, rows);
	if (ret == -ENOENT)
		ret = -ENODATA;
	/* Not what may change while the sections do not. */
	if (ret != -EFAULT && ret != -E2BIG)
		sframe_cache_put(gen, ip, frame, ret);
	return ret;
}
