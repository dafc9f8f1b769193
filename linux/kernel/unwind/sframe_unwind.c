// SPDX-License-Identifier: GPL-2.0
/*
 * The user unwinder's SFrame lookup for the current task: the frame
 * rule for an address.  It takes no lock: the sections are found under
 * RCU (sframe.c's rbtree, searched without a lock), the vDSO's from
 * where the mm noted it, and the rules found last are remembered in the
 * task's own unwind cache.
 */
#include <linux/hash.h>
#include <linux/sched.h>
#include <linux/sframe.h>
#include <linux/unwind_deferred.h>
#include <linux/unwind_user.h>

#include "sframe.h"
#include "sframe_format.h"
#include "sframe_mm.h"

/*
 * The rules the task found last, by address: the same return addresses
 * come back at every sample of a hot path.  A rule is valid while the
 * mm's sections are the same (sframe_mm.generation, never 0, so that an
 * unused entry never matches; a new mm's are new).  A registered
 * section must not change after registration (the documentation says
 * so): a rule read from it is remembered.  In the task's deferred
 * unwind cache, which only the task uses, allocated with it: NULL if
 * the task has none (then nothing is remembered).  Only addresses some
 * section covers are looked up here: a frame-pointer frame never is.
 */
static struct unwind_user_rules *sframe_rules(void)
{
	struct unwind_cache *cache = current->unwind_info.cache;

	return cache ? &cache->sframe_rules : NULL;
}

static bool sframe_rules_get(struct unwind_user_rules *rules,
			     unsigned long generation, unsigned long ip,
			     struct unwind_user_frame *frame, int *ret)
{
	const struct unwind_user_rule *way;
	int i;

	if (!rules)
		return false;
	way = rules->set[hash_long(ip, UNWIND_USER_RULE_SET_BITS)].way;
	for (i = 0; i < UNWIND_USER_RULE_WAYS; i++) {
		if (way[i].generation == generation && way[i].ip == ip) {
			*frame = way[i].frame;
			*ret = way[i].ret;
			return true;
		}
	}
	return false;
}

/*
 * Remember a rule: in an entry not valid any more (still unused, or of
 * sections since changed), else in the set's entries in turn.
 */
static void sframe_rules_put(struct unwind_user_rules *rules,
			     unsigned long generation, unsigned long ip,
			     const struct unwind_user_frame *frame, int ret)
{
	unsigned int set = hash_long(ip, UNWIND_USER_RULE_SET_BITS);
	struct unwind_user_rule *way;
	int i;

	if (!rules)
		return;
	way = rules->set[set].way;
	for (i = 0; i < UNWIND_USER_RULE_WAYS; i++)
		if (way[i].generation != generation)
			break;
	if (i == UNWIND_USER_RULE_WAYS) {
		i = rules->set[set].next;
		rules->set[set].next = (i + 1) % UNWIND_USER_RULE_WAYS;
	}
	way[i] = (struct unwind_user_rule) {
		.generation	= generation,
		.ip		= ip,
		.frame		= *frame,
		.ret		= ret,
	};
}

/*
 * Note in the registered entry of sec what its header was found to be,
 * if that is news (it was @was when sec was copied from it, with mm's
 * sections at @generation): its version, or SFRAME_HEADER_REFUSED.  The
 * entry is found again, and only while the sections are the same before
 * and after: while the header was read, it may have been withdrawn and
 * another section registered at its place, which must not get its note.
 * Skipped, the note is made at a later lookup.
 */
static void sframe_note_header(struct mm_struct *mm,
			       const struct sframe_section *sec,
			       unsigned long generation, u8 was, u8 now)
{
	struct sframe_entry *ent = NULL;
	struct sframe_mm *sm;

	if (was == now)
		return;
	rcu_read_lock();
	sm = sframe_mm(mm);
	/* Acquire order: the lookup sees the sections of that generation. */
	if (sm && smp_load_acquire(&sm->generation) == generation)
		ent = sframe_text_lookup(sm, sec->text_start, NULL);
	/*
	 * Nothing changed meanwhile (no generation is taken twice): ent is
	 * the entry sec was copied from.
	 */
	smp_rmb();
	if (ent && READ_ONCE(sm->generation) == generation)
		WRITE_ONCE(ent->sec.version, now);
	rcu_read_unlock();
}

/*
 * The vDSO's section where the current mm has it (at @base), if it covers
 * @ip:
 * the one found at boot, moved to the vDSO's base.  If it does not, @gap
 * (the range around @ip that no section covers) is cut to leave it out.
 */
static bool sframe_vdso_lookup(unsigned long base, unsigned long ip,
			       struct sframe_section *sec,
			       struct unwind_user_gap *gap)
{
	if (!base)
		return false;
	if (ip - base >= sframe_vdso_sec.text_end) {
		if (base > ip)
			gap->end = min(gap->end, base);
		else
			gap->start = max(gap->start,
					 base + sframe_vdso_sec.text_end);
		return false;
	}
	*sec = sframe_vdso_sec;
	sec->sframe_start += base;
	sec->sframe_end += base;
	sec->text_start += base;
	sec->text_end += base;
	sec->fdes_start += base;
	sec->fres_start += base;
	sec->fres_end += base;
	return true;
}

/**
 * sframe_unwind_gap() - where the current task's last lookup found no section
 * @gap:	set to the range around the address of that lookup, if the
 *		sections are still those it saw; else left as it is
 *
 * An unwind starts with it, so that a program without SFrame data (a
 * frame-pointer build) makes no lookup at all: its frames were in that
 * range at the last unwind.  The sections are the same while their
 * generation is, and the vDSO's base: an mm without sections (generation
 * 0) has the vDSO's range alone, and a new mm's sections are new.
 */
void sframe_unwind_gap(struct unwind_user_gap *gap)
{
	struct unwind_user_rules *rules = sframe_rules();
	unsigned long generation;
	struct sframe_mm *sm;

	if (!rules)
		return;
	rcu_read_lock();
	sm = sframe_mm(current->mm);
	/* Acquire order, as in sframe_unwind_rule(). */
	generation = sm ? smp_load_acquire(&sm->generation) : 0;
	rcu_read_unlock();
	if (rules->gap_generation == generation &&
	    rules->gap_vdso == READ_ONCE(current->mm->sframe_vdso))
		*gap = rules->gap;
}

/**
 * sframe_unwind_rule() - the frame rule for an address of the current task
 * @ip:		the user address to unwind from
 * @frame:	filled in with the rule on success
 * @rows:	frame row entries this unwind may still scan (see
 *		sframe_read_rule())
 * @gap:	where no section covers @ip, set to the range around it
 *		that none covers: the unwinder does not ask again for the
 *		rest of the unwind (a section registered meanwhile is one
 *		registered after it), nor in the task's next unwinds while
 *		the sections are the same (sframe_unwind_gap())
 *
 * Finds the section covering @ip without a lock (RCU), reads its header,
 * then the rule in it; or the answer found for @ip last time while the
 * sections are the same.  May fault and sleep.
 *
 * Return: as sframe_read_rule(), except that -ENOENT means that no
 * section covers @ip, or that the one that does has a header this kernel
 * does not take (sframe_read_header()): where a section's text covers
 * @ip but none of its functions does (PLT stubs, code without CFI such
 * as crt glue), the answer is -ENODATA.  The object has SFrame data, so
 * its frame pointer is no guide there either.
 */
int sframe_unwind_rule(unsigned long ip, struct unwind_user_frame *frame,
		       unsigned int *rows, struct unwind_user_gap *gap)
{
	struct unwind_user_gap around = { 0, ULONG_MAX };
	struct unwind_user_rules *rules;
	struct sframe_section sec = {};
	unsigned long generation = 0;
	struct sframe_entry *ent;
	struct sframe_mm *sm;
	u8 header = 0;
	int ret;

	rcu_read_lock();
	sm = sframe_mm(current->mm);
	ent = NULL;
	if (sm) {
		/* Acquire order: what is looked up after it is this new. */
		generation = smp_load_acquire(&sm->generation);
		ent = sframe_text_lookup(sm, ip, &around);
	}
	if (ent) {
		sec.sframe_start = ent->sec.sframe_start;
		sec.sframe_end = ent->sec.sframe_end;
		sec.text_start = ent->sec.text_start;
		sec.text_end = ent->sec.text_end;
		header = READ_ONCE(ent->sec.version);
	}
	rcu_read_unlock();
	rules = sframe_rules();
	if (!ent) {
		unsigned long vdso = READ_ONCE(current->mm->sframe_vdso);

		if (sframe_vdso_lookup(vdso, ip, &sec, &around)) {
			ret = sframe_read_rule(&sec, ip, frame, rows);
			return ret == -ENOENT ? -ENODATA : ret;
		}
		/* Left to frame pointers, and remembered for the next unwinds. */
		*gap = around;
		if (rules) {
			rules->gap = around;
			rules->gap_generation = generation;
			rules->gap_vdso = vdso;
		}
		return -ENOENT;
	}

	if (sframe_rules_get(rules, generation, ip, frame, &ret))
		return ret;
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
		sframe_note_header(current->mm, &sec, generation, header,
				   ret ? SFRAME_HEADER_REFUSED : sec.version);
	if (ret == -ENOEXEC) {
		sframe_rules_put(rules, generation, ip, frame, -ENOENT);
		return -ENOENT;
	}
	if (!ret)
		ret = sframe_read_rule(&sec, ip, frame, rows);
	if (ret == -ENOENT)
		ret = -ENODATA;
	/* Not what may change while the sections do not. */
	if (ret != -EFAULT && ret != -E2BIG && ret != -EINTR)
		sframe_rules_put(rules, generation, ip, frame, ret);
	return ret;
}
