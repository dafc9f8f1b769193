// SPDX-License-Identifier: GPL-2.0
/*
 * sframe_register() and sframe_unregister(): the system calls through
 * which a dynamic linker registers and withdraws the SFrame sections of
 * the objects it maps.  They reach the same registry as PR_ADD_SFRAME
 * and PR_REMOVE_SFRAME; only the shape of the arguments differs.
 *
 * A structure of SFRAME_SETUP_SIZE_VER1 may chain further structures
 * through its next field, so that a dynamic linker registers all the
 * objects one start-up or one dlopen() maps in one call.
 */
#include <linux/build_bug.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <linux/seccomp.h>
#include <linux/sframe.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>
#include <uapi/linux/sframe.h>

#include "sframe_mm.h"

static_assert(sizeof(struct sframe_setup) == SFRAME_SETUP_SIZE_VER1);

/*
 * The entries of a chain that are allocated before the locks are taken
 * once for all of them.
 */
#define SFRAME_CHAIN_BATCH	32

/*
 * Copy the caller's structure.  Its size must be one the kernel knows
 * exactly: a smaller or larger one is not understood (-EINVAL), whatever
 * the extra bytes hold.  Only then is the structure read (-EFAULT).  The
 * fields a smaller version lacks read as 0.
 */
static int sframe_copy_setup(struct sframe_setup *setup,
			     const struct sframe_setup __user *usetup,
			     size_t size)
{
	if (size != SFRAME_SETUP_SIZE_VER0 && size != SFRAME_SETUP_SIZE_VER1)
		return -EINVAL;
	setup->next = 0;
	if (copy_from_user(setup, usetup, size))
		return -EFAULT;
	return 0;
}

/*
 * The ends of a structure's ranges.  Empty ranges, and ranges that wrap,
 * are not understood: false.
 */
static bool sframe_setup_ends(const struct sframe_setup *setup,
			      unsigned long *sframe_end,
			      unsigned long *text_end)
{
	return setup->sframe_size && setup->text_size &&
	       !check_add_overflow(setup->sframe_start, setup->sframe_size,
				   sframe_end) &&
	       !check_add_overflow(setup->text_start, setup->text_size,
				   text_end);
}

/* A new entry for one structure of a chain: see sframe_new_entry(). */
static struct sframe_entry *sframe_setup_entry(const struct sframe_setup *setup)
{
	unsigned long sframe_end, text_end;

	if (!sframe_setup_ends(setup, &sframe_end, &text_end))
		return ERR_PTR(-EINVAL);
	return sframe_new_entry(setup->sframe_start, sframe_end,
				setup->text_start, text_end);
}

/*
 * Register the chain that starts with *setup, in its order, up to the
 * first structure refused.  Entries are allocated a batch at a time and
 * linked under one taking of the locks.  The walk ends after at most
 * SFRAME_MAX_SECTIONS structures: the one after them is refused
 * (-ENOSPC), since no process holds more, so that a chain that loops
 * through sections another thread keeps withdrawing ends too.
 *
 * Not inlined, so that the batch it keeps on its stack (which the kernel
 * may clear at each call, CONFIG_INIT_STACK_ALL_ZERO) costs nothing to a
 * call that registers one structure.
 *
 * Return: 0 if the whole chain was registered; else the number registered
 * before the one refused, if any; else why the first was refused.
 */
static noinline long sframe_register_chain(struct sframe_setup *setup)
{
	struct sframe_entry *ents[SFRAME_CHAIN_BATCH];
	unsigned int n = 0, linked, walked = 0;
	long done = 0;
	int ret = 0, err;

	for (;;) {
		struct sframe_entry *ent;

		if (walked++ == SFRAME_MAX_SECTIONS) {
			ret = -ENOSPC;
			break;
		}
		ent = sframe_setup_entry(setup);

		if (IS_ERR(ent)) {
			ret = PTR_ERR(ent);
			break;
		}
		ents[n++] = ent;
		if (!setup->next)
			break;
		if (n == SFRAME_CHAIN_BATCH) {
			ret = sframe_link_entries(ents, n, &linked);
			done += linked;
			n = 0;
			if (ret)
				break;
			if (fatal_signal_pending(current)) {
				ret = -EINTR;
				break;
			}
			cond_resched();
		}
		ret = sframe_copy_setup(setup, u64_to_user_ptr(setup->next),
					SFRAME_SETUP_SIZE_VER1);
		if (ret)
			break;
	}
	/* The entries before the refused one are registered all the same. */
	if (n) {
		err = sframe_link_entries(ents, n, &linked);
		done += linked;
		if (err)
			ret = err;
	}
	if (!ret)
		return 0;
	return done ? done : ret;
}

/*
 * Whether the task may make both calls and live: a sandbox whose seccomp
 * filters predate them may kill it for either, and a task is better left
 * unprofiled than killed at its dynamic linker's first registration.
 * Filters that fail the calls with an errno, or leave them to a tracer
 * or a supervisor, are no danger.
 */
bool sframe_calls_return(void)
{
	return seccomp_native_syscall_returns(__NR_sframe_register) &&
	       seccomp_native_syscall_returns(__NR_sframe_unregister);
}

SYSCALL_DEFINE2(sframe_register, const struct sframe_setup __user *, usetup,
		size_t, size)
{
	struct sframe_setup setup;
	unsigned long sframe_end, text_end;
	int ret;

	ret = sframe_copy_setup(&setup, usetup, size);
	if (ret)
		return ret;
	if (setup.next)
		return sframe_register_chain(&setup);
	if (!sframe_setup_ends(&setup, &sframe_end, &text_end))
		return -EINVAL;
	return sframe_add_section(setup.sframe_start, sframe_end,
				  setup.text_start, text_end);
}

SYSCALL_DEFINE2(sframe_unregister, const struct sframe_setup __user *, usetup,
		size_t, size)
{
	struct sframe_setup setup;
	int ret;

	ret = sframe_copy_setup(&setup, usetup, size);
	if (ret)
		return ret;
	if (setup.sframe_size || setup.text_start || setup.text_size ||
	    setup.next)
		return -EINVAL;
	return sframe_remove_section(setup.sframe_start);
}
